"""``Softmax``: exponentials normalised along ``axis``, with an optional mask.

A mask (``True``/1 to keep) sets the masked logits to a large negative
number before the softmax, so they get (almost) no probability, and zeroes
their output afterwards, so an axis that is masked entirely gives zeros
rather than a uniform distribution: what attention scores need.

>>> import numpy as np
>>> Softmax()(np.array([1.0, 2.0, 1.0])).round(4)
array([0.2119, 0.5761, 0.2119], dtype=float32)
>>> Softmax()(np.array([[1.0, 2.0, 1.0]]), mask=np.array([[1, 1, 0]])).round(4)
array([[0.2689, 0.7311, 0.    ]], dtype=float32)
"""

from kerasmini import activations, ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


def large_negative_number(dtype):
    """What masked logits become: ``-1e9``, or ``-3e4`` in float16 (whose
    largest number is 65504).

    >>> large_negative_number("float16"), large_negative_number("float32")
    (-30000.0, -1000000000.0)
    """
    return -3e4 if str(dtype) == "float16" else -1e9


@keras_export("kerasmini.layers.Softmax")
class Softmax(Layer):
    """Softmax activation layer.

    Args:
        axis: an int, or a list of ints, the axes normalised together.
        **kwargs: base layer arguments (``name``, ``dtype``).

    Call arguments:
        inputs: the logits.
        mask: broadcastable to ``inputs`` (each axis 1 or equal, no more
            axes); ``True`` or ``> 0.5`` keeps a position.

    >>> import numpy as np
    >>> Softmax(axis=[1, 2])(np.zeros((1, 2, 2))).tolist()
    [[[0.25, 0.25], [0.25, 0.25]]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True
        self._build_at_init()  # no weights: built at construction, as in Keras 3

    def call(self, inputs, mask=None):
        if mask is not None:
            self._check_mask(inputs, mask)
            if str(mask.dtype) != "bool":
                mask = ops.greater(mask, 0.5)
            inputs = ops.where(mask, inputs, large_negative_number(inputs.dtype))
        if isinstance(self.axis, (tuple, list)):
            axis = self.axis[0] if len(self.axis) == 1 else tuple(self.axis)
        else:
            axis = self.axis
        outputs = activations.softmax(inputs, axis=axis)
        if mask is not None:  # a fully masked axis gives zeros, not 1/n
            outputs = ops.where(mask, outputs, 0.0)
        return outputs

    @staticmethod
    def _check_mask(inputs, mask):
        shape, mask_shape = tuple(inputs.shape), tuple(mask.shape)
        if len(mask_shape) > len(shape):
            raise ValueError(
                "The `mask` must be broadcastable to `inputs` and must not have "
                f"more dimensions. Received: inputs.shape={shape}, "
                f"mask.shape={mask_shape}"
            )
        for m, i in zip(mask_shape[::-1], shape[::-1]):
            if m is not None and i is not None and m not in (1, i):
                raise ValueError(
                    "The `mask` must be broadcastable to `inputs`. Each mask "
                    "dimension must be 1 or match the corresponding input "
                    f"dimension. Received: inputs.shape={shape}, "
                    f"mask.shape={mask_shape}"
                )

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
