"""``AdditiveAttention``: attention scored by ``tanh(query + key)`` (Bahdanau).

The same layer as :class:`Attention` except for the scores: instead of a
dot product, each query and key pair is added, squashed with ``tanh`` and
summed over the features with learned weights ``scale`` (one per feature).

>>> import numpy as np
>>> layer = AdditiveAttention()
>>> layer([np.ones((2, 3, 4)), np.ones((2, 5, 4))]).shape
(2, 3, 4)
>>> layer.scale.shape
(4,)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.layers.attention.attention import Attention


@keras_export("kerasmini.layers.AdditiveAttention")
class AdditiveAttention(Attention):
    """Additive attention of ``query`` over ``value``.

    Args:
        use_scale: learn a weight per feature for the scores (else all 1).
        dropout: dropout rate on the attention weights, during training.

    >>> AdditiveAttention(use_scale=False).get_config()["use_scale"]
    False
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(input_shape[0][-1],),
                                         initializer="glorot_uniform")

    def _calculate_scores(self, query, key):
        """``sum(scale * tanh(query_i + key_j))`` over the features, for
        every pair ``(i, j)``: ``(B, Tq, Tv)``."""
        pairs = ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3))
        scale = self.scale if self.use_scale else 1.0
        return ops.sum(ops.multiply(scale, ops.tanh(pairs)), axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
