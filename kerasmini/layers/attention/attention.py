"""``Attention``: dot-product attention without projections (Luong style).

Called on ``[query, value]`` (or ``[query, value, key]``), it scores every
query position against every key position, turns each row of scores into
weights with a softmax, and averages the value with them. There are no
projections and no heads: at most a learned scalar ``scale``
(``use_scale=True``) and, with ``score_mode="concat"``, a learned weight on
``tanh(query + key)``.

>>> import numpy as np
>>> query = np.array([[[1.0, 0.0]]])  # (batch=1, Tq=1, dim=2)
>>> value = np.array([[[1.0, 0.0], [0.0, 1.0]]])  # (1, Tv=2, 2)
>>> out, scores = Attention()([query, value], return_attention_scores=True)
>>> scores.round(3)
array([[[0.731, 0.269]]], dtype=float32)
"""

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.engine.base_layer import Layer
from kerasmini.random.seed_generator import SeedGenerator


@keras_export("kerasmini.layers.Attention")
class Attention(Layer):
    """Dot-product attention of ``query`` over ``value``.

    Args:
        use_scale: learn a scalar that multiplies the scores.
        score_mode: ``"dot"`` (``query . key``) or ``"concat"``
            (``sum(tanh(query + key))``, times a learned weight).
        dropout: dropout rate on the attention weights, during training.
        seed: seed of that dropout.

    Call arguments: ``inputs`` = ``[query (B, Tq, dim), value (B, Tv, dim)]``
    or with a third ``key (B, Tv, dim)``; ``mask`` = ``[query_mask,
    value_mask]`` (filled from the inputs' ``_keras_mask``);
    ``return_attention_scores``; ``training``; ``use_causal_mask``.

    >>> import numpy as np
    >>> Attention()([np.ones((2, 3, 4)), np.ones((2, 5, 4))]).shape
    (2, 3, 4)
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale
        self.score_mode = score_mode
        self.dropout = dropout
        self.seed = seed
        if self.dropout > 0:
            self.seed_generator = SeedGenerator(seed=seed)
        if self.score_mode not in ("dot", "concat"):
            raise ValueError(
                "Invalid value for argument score_mode. Expected one of "
                f"{{'dot', 'concat'}}. Received: score_mode={score_mode}"
            )

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(
                name="concat_score_weight", shape=(), initializer="ones")

    def _calculate_scores(self, query, key):
        """Scores ``(B, Tq, Tv)`` of every query position against every key."""
        if self.score_mode == "dot":  # (B, Tq, dim) @ (B, dim, Tv)
            scores = ops.matmul(query, ops.swapaxes(key, -2, -1))
            return scores if self.scale is None else ops.multiply(scores, self.scale)
        # concat: (B, Tq, 1, dim) + (B, 1, Tv, dim) broadcast to every pair
        pairs = ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3))
        if self.scale is not None:
            pairs = ops.multiply(self.scale, pairs)
        return ops.multiply(self.concat_score_weight,
                            ops.sum(ops.tanh(pairs), axis=-1))

    def _apply_scores(self, scores, value, scores_mask=None, training=False):
        """Softmax of the scores (masked positions pushed to about -1e9
        first), dropout, then the weighted average of ``value``."""
        if scores_mask is not None:
            padding = ops.logical_not(scores_mask)
            big = 65504.0 if str(scores.dtype) == "float16" else 1.0e9
            if len(padding.shape) == 2:
                padding = ops.expand_dims(padding, axis=-2)  # (B, 1, Tv)
            scores = ops.where(padding, ops.subtract(scores, big), scores)
        weights = ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = random.dropout(weights, self.dropout, seed=self.seed_generator)
        return ops.matmul(weights, value), weights

    def _calculate_score_mask(self, scores, v_mask, use_causal_mask):
        """The mask of the scores: the value's ``(B, Tv)``, and with
        ``use_causal_mask`` the lower triangle ``(1, Tq, Tv)``."""
        if not use_causal_mask:
            return v_mask
        tq, tv = ops.shape(scores)[-2], ops.shape(scores)[-1]
        rows = ops.reshape(ops.arange(tq, dtype="int32"), (1, tq, 1))
        cols = ops.reshape(ops.arange(tv, dtype="int32"), (1, 1, tv))
        causal = ops.greater_equal(rows, cols)  # i may see j <= i
        if v_mask is None:
            return causal
        return ops.logical_and(ops.expand_dims(v_mask, axis=-2), causal)

    def call(self, inputs, mask=None, training=False, return_attention_scores=False,
             use_causal_mask=False):
        self._validate_inputs(inputs=inputs, mask=mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=query, key=key)
        scores_mask = self._calculate_score_mask(scores, v_mask, use_causal_mask)
        output, weights = self._apply_scores(scores=scores, value=value,
                                             scores_mask=scores_mask,
                                             training=training)
        if q_mask is not None:  # a masked query position outputs zeros
            output = ops.where(ops.expand_dims(q_mask, axis=-1), output,
                               ops.zeros_like(output))
        if return_attention_scores:
            return output, weights
        return output

    def compute_mask(self, inputs, mask=None):
        self._validate_inputs(inputs=inputs, mask=mask)
        if mask is None or mask[0] is None:
            return None
        return ops.convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape):
        query_shape, value_shape = input_shape[0], input_shape[1]
        return (*query_shape[:-1], value_shape[-1])

    def compute_output_spec(self, inputs, mask=None, return_attention_scores=False,
                            training=None, use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        output = KerasTensor(
            self.compute_output_shape([query.shape, value.shape, key.shape]),
            dtype=self.dtype)
        if not return_attention_scores:
            return output
        return output, KerasTensor((*query.shape[:-1], key.shape[-2]),
                                   dtype=self.dtype)

    def _validate_inputs(self, inputs, mask=None):
        """``inputs`` a list of 2 or 3 tensors (or shapes); ``mask`` a list."""
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(
                f"{name} layer must be called on a list of inputs, namely "
                "[query, value] or [query, value, key]. "
                f"Received: inputs={_describe(inputs)}."
            )
        if not 2 <= len(inputs) <= 3:
            raise ValueError(
                f"{name} layer accepts inputs list of length 2 or 3, namely "
                "[query, value] or [query, value, key]. "
                f"Received length: {len(inputs)}."
            )
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(
                    f"{name} layer mask must be a list, namely [query_mask, "
                    f"value_mask]. Received: mask={_describe(mask)}."
                )
            if not 2 <= len(mask) <= 3:
                raise ValueError(
                    f"{name} layer accepts mask list of length 2 or 3. "
                    f"Received: inputs={_describe(inputs)}, mask={_describe(mask)}."
                )

    def get_config(self):
        config = super().get_config()
        config.update({"use_scale": self.use_scale, "score_mode": self.score_mode,
                       "dropout": self.dropout, "seed": self.seed})
        return config


def _describe(value):
    """A tensor by its shape (not its numbers), a shape or list as it is."""
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"<tensor of shape {tuple(value.shape)}>"
    if isinstance(value, list):
        return "[" + ", ".join(_describe(v) for v in value) + "]"
    return repr(value)
