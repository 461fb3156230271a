"""``UnitNormalization``: scale each sample to an L2 norm of one.

Along ``axis`` (the features), ``x / ||x||``, with Keras 3's guard:
``x * min(1 / ||x||, 1 / epsilon)``, ``epsilon = 1e-12``, so an all-zero
sample stays zero instead of dividing by zero (written here as
``x / sqrt(max(sum(x**2), epsilon**2))``, the same numbers, whose gradient
at a zero sample is zero rather than NaN). Contrastive and
metric-learning models (SimCLR, siamese networks) put it before a dot
product, which then is a cosine similarity.

>>> import numpy as np
>>> UnitNormalization()(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
[[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.UnitNormalization")
class UnitNormalization(Layer):
    """Normalize each input to an L2 norm of 1 across ``axis``.

    Args:
        axis: an int or a list/tuple of ints, the axes normalised together
            (default -1, the features).
        **kwargs: base layer arguments (``name``, ``dtype``).

    >>> import numpy as np
    >>> y = UnitNormalization(axis=(1, 2))(np.arange(8.0).reshape(2, 2, 2))
    >>> round(float(np.sum(y[1] ** 2)), 5)
    1.0
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)) and all(
                isinstance(a, int) and not isinstance(a, bool) for a in axis):
            self.axis = list(axis)
        elif isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = axis
        else:
            raise TypeError(
                "Invalid value for `axis` argument: expected an int or a list/tuple "
                f"of ints. Received: axis={axis!r}"
            )
        self.supports_masking = True
        self._build_at_init()  # no weights: built at construction, as in Keras 3

    def call(self, inputs):
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        self.compute_output_shape(inputs.shape)  # the axes exist
        square_sum = ops.sum(ops.square(inputs), axis=axis, keepdims=True)
        norm = ops.sqrt(ops.maximum(square_sum, 1e-24))  # at least epsilon
        return ops.multiply(inputs, ops.divide(1.0, norm))

    def compute_output_shape(self, input_shape):
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        for axis in axes:
            if axis >= len(input_shape) or axis < -len(input_shape):
                raise ValueError(
                    f"Axis {self.axis} is out of bounds for input shape "
                    f"{tuple(input_shape)} (layer '{self.name}')."
                )
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
