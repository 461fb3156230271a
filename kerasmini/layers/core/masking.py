"""``Masking``: mark the time steps whose features all equal ``mask_value``.

A sequence batch ``(batch, timesteps, features)`` padded with a value (often
0) gets a mask ``(batch, timesteps)``: ``True`` where any feature differs from
``mask_value``. The masked steps are also zeroed in the output. Layers that
support masking (an ``LSTM``, ``Dense``, the loss) then skip them.

>>> import numpy as np
>>> from kerasmini.backend.masking import get_keras_mask
>>> x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]], "float32")
>>> get_keras_mask(Masking()(x))
array([[ True, False,  True]])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.masking import set_keras_mask
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Masking")
class Masking(Layer):
    """Masks a sequence by using a mask value to skip timesteps.

    Args:
        mask_value: the padding value; a step is masked when all its
            features equal it.

    >>> import numpy as np
    >>> Masking(mask_value=-1.0)(np.array([[[-1.0], [2.0]]], "float32")).tolist()
    [[[-0.0], [2.0]]]
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        self._build_at_init()

    def _keep(self, inputs, keepdims=False):
        # any(inputs != mask_value, axis=-1), from ops that have a symbolic form
        differs = ops.cast(ops.not_equal(inputs, self.mask_value), "float32")
        return ops.greater(ops.sum(differs, axis=-1, keepdims=keepdims), 0.0)

    def compute_mask(self, inputs, mask=None):
        return self._keep(inputs)

    def call(self, inputs):
        keep = self._keep(inputs, keepdims=True)  # (batch, timesteps, 1)
        outputs = ops.multiply(inputs, ops.cast(keep, inputs.dtype))
        set_keras_mask(outputs, ops.squeeze(keep, axis=-1))  # (batch, timesteps)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"mask_value": self.mask_value})
        return config
