"""``Softmax``: the softmax as a layer, with a mask of positions to leave out.

Attention needs the mask: a score whose position is masked is replaced by a
large negative number before the exponentials (so it gets a weight of about
``e**-1e9 = 0``), and its output is then set to exactly zero, which also
covers a row where every position is masked.

>>> import numpy as np
>>> layer = Softmax()
>>> layer(np.array([[1.0, 1.0, 5.0]]), mask=np.array([[True, True, False]]))
array([[0.5, 0.5, 0. ]], dtype=float32)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


def _large_negative_number(dtype):
    """What a masked score becomes: far below any real score, yet finite in
    ``dtype`` (float16 stops near 65504)."""
    return -3e4 if str(dtype) == "float16" else -1e9


@keras_export("kerasmini.layers.Softmax")
class Softmax(Layer):
    """Softmax over ``axis`` (an int, or a tuple of axes normalised together).

    Args:
        axis: the axis (or axes) whose values sum to one.

    Call arguments:
        inputs: the scores.
        mask: optional booleans broadcastable to ``inputs`` (``True``: keep).

    >>> import numpy as np
    >>> Softmax()(np.array([0.0, 0.0])).tolist()
    [0.5, 0.5]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = tuple(axis) if isinstance(axis, list) else axis  # from JSON
        self.supports_masking = True
        self._build_at_init()  # no weights: built from the start, as in Keras

    def call(self, inputs, mask=None):
        if mask is not None:
            self._check_mask(inputs, mask)
            if str(mask.dtype) != "bool":
                mask = ops.greater(mask, 0.5)
            inputs = ops.where(mask, inputs, _large_negative_number(inputs.dtype))
        outputs = ops.softmax(inputs, axis=self.axis)
        if mask is not None:
            # a row masked everywhere would be uniform: make it zeros instead
            outputs = ops.where(mask, outputs, ops.zeros_like(outputs))
        return outputs

    def _check_mask(self, inputs, mask):
        received = (f"Received: inputs.shape={tuple(inputs.shape)}, "
                    f"mask.shape={tuple(mask.shape)}")
        if len(mask.shape) > len(inputs.shape):
            raise ValueError(
                "The `mask` must be broadcastable to `inputs` and must not "
                f"have more dimensions. {received}"
            )
        for m, i in zip(mask.shape[::-1], inputs.shape[::-1]):
            if m is not None and i is not None and m not in (1, i):
                raise ValueError(
                    "The `mask` must be broadcastable to `inputs`. Each mask "
                    "dimension must be 1 or match the corresponding input "
                    f"dimension. {received}"
                )

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
