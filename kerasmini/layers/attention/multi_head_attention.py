"""``MultiHeadAttention``: a layer made of layers.

Each query position takes an average of the value's positions, weighted by
how well it matches each key ("Attention is all you need", Vaswani et al.,
2017); several heads do this side by side, each in a small space of its own.
The layer owns no weight: ``build`` makes sublayers and builds each with the
shape it will see (Keras 3's way): ``query``, ``key``, ``value`` project
``(batch, seq, features)`` to ``(batch, seq, heads, dim)``, ``softmax`` and
``dropout`` act on the scores, ``attention_output`` projects back. Held by
attributes, they are found (weights, saving) in the order they were made.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> mha = MultiHeadAttention(num_heads=2, key_dim=3)
>>> x = np.ones((1, 4, 8), "float32")
>>> out, scores = mha(x, x, return_attention_scores=True)
>>> out.shape, scores.shape, mha.weights[0].path
((1, 4, 8), (1, 2, 4, 4), 'multi_head_attention/query/kernel')
"""

import math

from kerasmini import constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.backend.masking import get_keras_mask, set_keras_mask
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.activations.softmax import Softmax
from kerasmini.layers.attention.equations import (
    attention_equations,
    output_shape_of,
    projection_equation,
)
from kerasmini.layers.core.dropout import Dropout
from kerasmini.layers.core.einsum_dense import EinsumDense


def _positive_int(value, name, optional=False):
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        expected = "a positive integer or `None`" if optional else "a positive integer"
        raise ValueError(
            f"Received an invalid value for argument `{name}`, expected "
            f"{expected}. Received: {name}={value!r}"
        )


@keras_export("kerasmini.layers.MultiHeadAttention")
class MultiHeadAttention(Layer):
    """Multi-head attention: ``query`` attends to ``value`` (and ``key``).

    Args:
        num_heads, key_dim: the heads, and the size of each for query and key.
        value_dim: the size of each head for the value (default ``key_dim``).
        dropout: dropout rate on the attention scores, during training.
        use_bias: whether the projections have biases.
        output_shape: the output's last axes (default: the query's features).
        attention_axes: the axes attention runs over (default: all but the
            batch axis and the features).
        sliding_window: if set, keys at least this far away are masked.
        flash_attention: Keras's switch for a fused kernel; kerasmini has none.
        kernel_initializer ... bias_constraint: given to every projection.
        use_gate: a sigmoid gate from the query scales the heads.
        seed: seed of the dropout.

    Call arguments: ``query (B, T, dim)``, ``value (B, S, dim)``, ``key``
    (default ``value``), ``attention_mask (B, T, S)`` (``True``: may attend),
    ``return_attention_scores``, ``training``, ``use_causal_mask``; the masks
    the inputs carry (``_keras_mask``) count too.

    >>> import numpy as np
    >>> layer = MultiHeadAttention(num_heads=2, key_dim=2)
    >>> layer(np.ones((2, 5, 6)), np.ones((2, 3, 6))).shape
    (2, 5, 6)
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0,
                 use_bias=True, output_shape=None, attention_axes=None,
                 sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, use_gate=False, seed=None, **kwargs):
        _positive_int(num_heads, "num_heads")
        _positive_int(key_dim, "key_dim")
        _positive_int(value_dim, "value_dim", optional=True)
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads = num_heads
        self._key_dim = key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout = dropout
        self._use_bias = use_bias
        self._use_gate = use_gate
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        if output_shape and not isinstance(output_shape, (list, tuple)):
            raise ValueError(
                f"Invalid `output_shape`: {output_shape}. When specified, the "
                "`output_shape` should be of type tuple, list, or int."
            )
        self._output_shape = tuple(output_shape) if output_shape else None
        if attention_axes and not isinstance(attention_axes, (int, list, tuple)):
            raise ValueError(
                "`attention_axes` must be an int, list, or tuple. "
                f"Received: attention_axes={attention_axes}"
            )
        self._attention_axes = ((attention_axes,) if isinstance(attention_axes, int)
                                else attention_axes)
        window = sliding_window
        if window is not None and (isinstance(window, bool) or
                                   not isinstance(window, int) or window <= 0):
            raise ValueError(
                "`sliding_window` must be `None` or a positive integer. "
                f"Received: sliding_window={sliding_window}"
            )
        self._sliding_window = sliding_window
        self._flash_attention = bool(flash_attention)
        if self._flash_attention and self._dropout > 0.0:
            raise ValueError("Dropout is not supported when flash attention is "
                             "enabled. Please set dropout to 0.0 to use flash attention.")
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self._key_dim))

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    # the sublayers under Keras's public names (saving finds them by these)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    # ----------------------------------------------------------- building
    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = _check_key_and_value(value_shape, key_shape)
        key_heads = [self._num_heads, self._key_dim]
        value_heads = [self._num_heads, self._value_dim]
        # (B, T, features) -> (B, T, heads, key_dim), one sublayer each
        self._query_dense = self._projection(len(query_shape), key_heads, "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._projection(len(key_shape), key_heads, "key")
        self._key_dense.build(key_shape)
        if self._use_gate:
            self._gate_dense = self._projection(len(query_shape), value_heads, "gate",
                                                activation="sigmoid")
            self._gate_dense.build(query_shape)
        self._value_dense = self._projection(len(value_shape), value_heads, "value")
        self._value_dense.build(value_shape)
        self._build_attention(len(value_shape) + 1)  # the rank after projection
        # (B, T, heads, value_dim) -> (B, T, features): back to the query's size
        self._output_dense = self._make_output_dense(
            query_shape, self._get_common_kwargs_for_sublayer(), "attention_output")
        projected = list(self._query_dense.compute_output_shape(query_shape))
        projected[-1] = self._value_dim
        self._output_dense.build(tuple(projected))

    def _projection(self, rank, last_dims, name, activation=None):
        """An EinsumDense from ``rank`` axes to ``rank + 1``: the features
        become ``last_dims`` (heads, size of each)."""
        equation, bias_axes, output_rank = projection_equation(rank - 1, 1, 2)
        return EinsumDense(
            equation, output_shape=output_shape_of(output_rank - 1, last_dims),
            bias_axes=bias_axes if self._use_bias else None, activation=activation,
            name=name, **self._get_common_kwargs_for_sublayer())

    def _get_common_kwargs_for_sublayer(self):
        """What every projection shares: regularizers, constraints, dtype, and
        a fresh copy of each initializer (one object per sublayer)."""
        kernel_init, bias_init = self._kernel_initializer, self._bias_initializer
        return dict(
            kernel_initializer=type(kernel_init).from_config(kernel_init.get_config()),
            bias_initializer=type(bias_init).from_config(bias_init.get_config()),
            kernel_regularizer=self._kernel_regularizer,
            bias_regularizer=self._bias_regularizer,
            activity_regularizer=self._activity_regularizer,
            kernel_constraint=self._kernel_constraint,
            bias_constraint=self._bias_constraint, dtype=self.dtype)

    def _make_output_dense(self, query_shape, common_kwargs, name=None):
        """The projection from the heads to ``output_shape`` (by default the
        query's last axis)."""
        last_dims = self._output_shape or [query_shape[-1]]
        equation, bias_axes, output_rank = projection_equation(
            len(query_shape) - 1, 2, len(last_dims))
        return EinsumDense(
            equation, output_shape=output_shape_of(output_rank - 1, last_dims),
            bias_axes=bias_axes if self._use_bias else None, name=name,
            **common_kwargs)

    def _build_attention(self, rank):
        """The two einsum equations, the softmax and the dropout, for
        projected tensors of ``rank`` axes."""
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, rank - 2))
        else:  # negative axes count from the end of the inputs (rank - 1 axes)
            self._attention_axes = tuple(
                axis if axis >= 0 else (rank - 1) + axis
                for axis in self._attention_axes)
        (self._dot_product_equation, self._combine_equation,
         scores_rank) = attention_equations(rank, self._attention_axes)
        # the scores end with the key's attention axes: normalise over them
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype,
                                      seed=self.seed)

    # ------------------------------------------------------------ calling
    def call(self, query, value, key=None, query_mask=None, value_mask=None,
             key_mask=None, attention_mask=None, return_attention_scores=False,
             training=None, use_causal_mask=False):
        if key is None:
            key = value
        # As in Keras 3.15.1, the query's own mask is used, whatever
        # `query_mask` says.
        query_mask = get_keras_mask(query)
        attention_mask = self._compute_attention_mask(
            query, value, query_mask=query_mask, value_mask=value_mask,
            key_mask=key_mask, attention_mask=attention_mask,
            use_causal_mask=use_causal_mask)
        inputs = (query, value, key)
        masks = [get_keras_mask(x) for x in inputs]
        try:  # the masks are in the attention mask: hide them from the projections
            for x in inputs:
                set_keras_mask(x, None)
            if self._use_gate:
                gate = self._gate_dense(query)  # (B, T, heads, value_dim)
            query = self._query_dense(query)  # (B, T, heads, key_dim)
            key = self._key_dense(key)  # (B, S, heads, key_dim)
            value = self._value_dense(value)  # (B, S, heads, value_dim)
        finally:  # and give them back (Keras 3.15.1 leaves them off)
            for x, mask in zip(inputs, masks):
                set_keras_mask(x, mask)
        output, scores = self._compute_attention(
            query, key, value, attention_mask, training, return_attention_scores)
        if self._use_gate:
            output = ops.multiply(output, gate)
        output = self._output_dense(output)  # (B, T, features)
        if query_mask is not None:
            set_keras_mask(output, query_mask)
        if return_attention_scores:
            return output, scores
        return output

    def _compute_attention(self, query, key, value, attention_mask=None,
                           training=None, return_attention_scores=False):
        """Scaled dot-product attention of projected tensors; returns the
        output ``(B, T, heads, value_dim)`` and the scores ``(B, heads, T, S)``."""
        if self._flash_attention and return_attention_scores:
            raise ValueError("Returning attention scores is not supported when flash "
                             "attention is enabled. Please disable flash attention "
                             "to access attention scores.")
        if not (self._dropout > 0.0 or return_attention_scores
                or len(query.shape) != 4):
            # Nothing needs the scores: one fused op, as Keras 3 does. (Its
            # mask pushes logits down instead of zeroing the weights: a query
            # position with every key masked averages all the values.)
            if attention_mask is not None:
                while len(attention_mask.shape) < 4:  # (B, T, S) -> (B, 1, T, S)
                    attention_mask = ops.expand_dims(attention_mask, axis=-3)
                attention_mask = ops.cast(attention_mask, "bool")
            output = ops.dot_product_attention(
                query, key, value, mask=attention_mask,
                scale=self._inverse_sqrt_key_dim,
                flash_attention=self._flash_attention)
            return output, None
        query = ops.multiply(query, ops.cast(self._inverse_sqrt_key_dim, query.dtype))
        scores = ops.einsum(self._dot_product_equation, key, query)  # (B, N, T, S)
        scores = self._masked_softmax(scores, attention_mask)
        dropped = scores
        if self._dropout > 0.0:
            dropped = self._dropout_layer(scores, training=training)
        output = ops.einsum(self._combine_equation, dropped, value)  # (B, T, N, H)
        return output, scores

    def _masked_softmax(self, attention_scores, attention_mask=None):
        """Softmax over the key axes, masked positions set to zero."""
        if attention_mask is not None:
            # (B, T, S) -> (B, 1, T, S): the same mask for every head
            head_axis = -len(self._attention_axes) * 2 - 1
            while len(attention_mask.shape) < len(attention_scores.shape):
                attention_mask = ops.expand_dims(attention_mask, axis=head_axis)
        return self._softmax(attention_scores, mask=attention_mask)

    def _compute_attention_mask(self, query, value, query_mask=None,
                                value_mask=None, key_mask=None,
                                attention_mask=None, use_causal_mask=False):
        """Combine (logical and) every source of masking into one boolean
        mask ``(B, T, S)``: the query's ``(B, T, 1)``, the value's and key's
        ``(B, 1, S)``, the causal and sliding-window ``(1, T, S)``, and the
        ``attention_mask`` given. ``None`` if there is none."""
        parts = []
        if query_mask is not None:
            parts.append(ops.expand_dims(ops.cast(query_mask, "bool"), -1))
        for mask in (value_mask, key_mask):
            if mask is not None:
                parts.append(ops.expand_dims(ops.cast(mask, "bool"), -2))
        if use_causal_mask:
            parts.append(self._compute_causal_mask(query, value))
        if self._sliding_window is not None:
            parts.append(self._compute_sliding_window_mask(query, value))
        if attention_mask is not None:
            parts.insert(0, ops.cast(attention_mask, "bool"))
        if not parts:
            return None
        combined = parts[0]
        for part in parts[1:]:
            combined = ops.logical_and(combined, part)
        return combined

    def _positions(self, query, value):
        """Query (row) and key (column) indices, ``(1, T, 1)`` and ``(1, 1, S)``."""
        t = ops.shape(query)[1]
        s = t if value is None else ops.shape(value)[1]
        rows = ops.reshape(ops.arange(t, dtype="int32"), (1, t, 1))
        cols = ops.reshape(ops.arange(s, dtype="int32"), (1, 1, s))
        return rows, cols

    def _compute_causal_mask(self, query, value=None):
        """``(1, T, S)``: position ``i`` may attend to ``j`` only if ``j <= i``."""
        rows, cols = self._positions(query, value)
        return ops.greater_equal(rows, cols)

    def _compute_sliding_window_mask(self, query, value=None):
        """``(1, T, S)``: only keys fewer than ``sliding_window`` positions away."""
        rows, cols = self._positions(query, value)
        return ops.less(ops.absolute(ops.subtract(rows, cols)), self._sliding_window)

    # ------------------------------------------------------------- shapes
    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        _check_key_and_value(value_shape, key_shape)
        if self._output_shape:
            return tuple(query_shape[:-1]) + self._output_shape
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, query_mask=None,
                            value_mask=None, key_mask=None, attention_mask=None,
                            return_attention_scores=False, training=None,
                            use_causal_mask=False):
        key_shape = None if key is None else key.shape
        output = KerasTensor(
            self.compute_output_shape(query.shape, value.shape, key_shape),
            dtype=self.dtype)
        if not return_attention_scores:
            return output
        # (other axes..., heads, query attention axes..., key attention axes...)
        # Keras 3.15.1 uses the query's length for the key's too.
        axes = self._attention_axes
        others = [query.shape[i] for i in range(len(query.shape) - 1)
                  if i not in axes]
        scores = (others + [self._num_heads] + [query.shape[i] for i in axes]
                  + [value.shape[i] for i in axes])
        return output, KerasTensor(tuple(scores), dtype=self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "num_heads": self._num_heads,
            "key_dim": self._key_dim,
            "value_dim": self._value_dim,
            "dropout": self._dropout,
            "use_bias": self._use_bias,
            "use_gate": self._use_gate,
            "output_shape": self._output_shape,
            "attention_axes": self._attention_axes,
            "sliding_window": self._sliding_window,
            "kernel_initializer": initializers.serialize(self._kernel_initializer),
            "bias_initializer": initializers.serialize(self._bias_initializer),
            "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self._bias_regularizer),
            "activity_regularizer": regularizers.serialize(
                self._activity_regularizer),
            "kernel_constraint": constraints.serialize(self._kernel_constraint),
            "bias_constraint": constraints.serialize(self._bias_constraint),
            "seed": self.seed,
        })
        return config


def _check_key_and_value(value_shape, key_shape):
    """The key's shape (the value's if ``None``), checked against the value's."""
    key_shape = value_shape if key_shape is None else key_shape
    if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
        raise ValueError(
            "All dimensions of `value` and `key`, except the last one, must be "
            f"equal. Received: value_shape={value_shape} and key_shape={key_shape}"
        )
    return key_shape
