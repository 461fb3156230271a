"""``Lambda``: wrap an arbitrary function of tensors as a layer.

Handy for small glue, but its config holds Python code, so loading a saved
Lambda runs code from the file: kerasmini (like Keras) refuses that unless
``safe_mode=False``.

>>> import numpy as np
>>> from kerasmini import ops
>>> Lambda(lambda x: ops.multiply(x, 2.0))(np.array([[1.0]]))
array([[2.]], dtype=float32)
"""

from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.shape_inference import infer_by_dry_run
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    func_load,
    in_safe_mode,
    serialize_function,
)


@keras_export("kerasmini.layers.Lambda")
class Lambda(Layer):
    """Applies ``function(inputs, **arguments)``.

    Args:
        function: a callable of the inputs.
        output_shape: optional output shape (else found by a dry run).
        arguments: extra keyword arguments for ``function``.

    >>> import numpy as np
    >>> from kerasmini import ops
    >>> Lambda(lambda x, k: ops.add(x, k), arguments={"k": 1.0})(np.array([[1.0, 2.0]]))
    array([[2., 3.]], dtype=float32)
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None,
                 **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(
                "Argument `function` must be callable. Received: "
                f"function={function!r} (of type {type(function).__name__})"
            )
        self.function = function
        self._output_shape = output_shape
        if arguments is not None and not isinstance(arguments, dict):
            raise TypeError(
                "Argument `arguments` must be a dict of keyword arguments for "
                f"`function`. Received: arguments={arguments!r} (of type "
                f"{type(arguments).__name__})"
            )
        self.arguments = dict(arguments or {})

    def call(self, inputs):
        return self.function(inputs, **self.arguments)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return Layer.compute_output_shape(self, input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        return (input_shape[0],) + tuple(self._output_shape)

    def compute_output_spec(self, *args, **kwargs):
        if self._output_shape is None:
            return infer_by_dry_run(self, args, kwargs)
        return super().compute_output_spec(*args, **kwargs)

    def get_config(self):
        config = super().get_config()
        config["function"] = serialize_function(self.function)
        if self._output_shape is not None:  # written only when given (Keras 3)
            config["output_shape"] = (
                serialize_function(self._output_shape)
                if callable(self._output_shape) else self._output_shape)
        config["arguments"] = self.arguments
        return config

    @classmethod
    def from_config(cls, config, safe_mode=None):
        """Recreate the layer. A Python lambda in the config is code from the
        file, so it is refused unless safe mode is off (``safe_mode=False``
        here, or in the enclosing ``load_model``)."""
        if safe_mode is None:
            safe_mode = in_safe_mode() is not False
        config = dict(config)
        for key in ("function", "output_shape"):
            value = config.get(key)
            if isinstance(value, dict) and value.get("class_name") == "__lambda__":
                if safe_mode:
                    raise ValueError(LAMBDA_MESSAGE)
                inner = value["config"]
                config[key] = func_load(inner["code"], inner.get("defaults"),
                                        inner.get("closure"))
            elif isinstance(value, dict):
                config[key] = deserialize_keras_object(value, safe_mode=safe_mode)
        return super().from_config(config)


LAMBDA_MESSAGE = (
    "Requested the deserialization of a `Lambda` layer whose `function` is a Python "
    "lambda. This carries a potential risk of arbitrary code execution and thus it "
    "is disallowed by default. If you trust the source of the artifact, you can "
    "override this error by passing `safe_mode=False` to the loading function, or "
    "calling `keras.config.enable_unsafe_deserialization()."
)
