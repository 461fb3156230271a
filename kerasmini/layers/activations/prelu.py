"""``PReLU``: a leaky ReLU whose negative slope is learned, per unit.

``f(x) = x`` where positive, ``alpha * x`` elsewhere, with ``alpha`` a weight
of the input's shape (without the batch axis), or shared along
``shared_axes`` (``shared_axes=[1, 2]`` after a ``Conv2D``: one slope per
channel).

>>> import numpy as np
>>> layer = PReLU(alpha_initializer="ones", shared_axes=[1])
>>> layer(np.array([[[-2.0, 3.0], [-1.0, -4.0]]])).tolist(), layer.alpha.shape
([[[-2.0, 3.0], [-1.0, -4.0]]], (1, 2))
"""

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.PReLU")
class PReLU(Layer):
    """Parametric rectified linear unit.

    Args:
        alpha_initializer: initializer of the slopes (default ``"Zeros"``:
            a plain ReLU at first).
        alpha_regularizer, alpha_constraint: for the slopes.
        shared_axes: axes (1-based, the batch is 0) along which one slope is
            shared.
        **kwargs: base layer arguments (``name``, ``dtype``).

    >>> import numpy as np
    >>> PReLU()(np.ones((2, 4, 3))).shape
    (2, 4, 3)
    """

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if not isinstance(axis, int) or not 1 <= axis < len(input_shape):
                raise ValueError(
                    f"Layer '{self.name}': each of `shared_axes` must be an axis "
                    f"of the inputs other than the batch (1 to "
                    f"{len(input_shape) - 1}). Received: shared_axes="
                    f"{self.shared_axes}, input_shape={input_shape}"
                )
            param_shape[axis - 1] = 1
        if None in param_shape:
            raise ValueError(
                f"Layer '{self.name}' needs every non-batch axis that is not shared "
                f"to be known. Received: input_shape={input_shape}, shared_axes="
                f"{self.shared_axes}"
            )
        self.alpha = self.add_weight(
            shape=tuple(param_shape), name="alpha", initializer=self.alpha_initializer,
            regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        axes = {i: input_shape[i] for i in range(1, len(input_shape))
                if i not in (self.shared_axes or ())}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)

    def call(self, inputs):
        positive = activations.relu(inputs)
        negative = ops.multiply(ops.negative(self.alpha),
                                activations.relu(ops.negative(inputs)))
        return ops.add(positive, negative)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "alpha_initializer": initializers.serialize(self.alpha_initializer),
            "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
            "alpha_constraint": constraints.serialize(self.alpha_constraint),
            "shared_axes": self.shared_axes,
        })
        return config
