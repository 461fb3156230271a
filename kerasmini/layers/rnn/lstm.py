"""``LSTM``: a cell with a carry ``c`` that gates decide to keep, forget or write.

One step, with ``z = x_t @ kernel + h @ recurrent_kernel + bias`` cut into
four ``units``-wide blocks (Keras's order: input, forget, candidate, output)::

    i = sigmoid(z_i)   f = sigmoid(z_f)   o = sigmoid(z_o)
    c = f * c + i * tanh(z_c)
    h = o * tanh(c)                 # the output, and the first state

``unit_forget_bias`` starts the forget gate's bias at 1, so the carry is
kept at first.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = LSTM(4)
>>> layer(np.ones((2, 3, 5), "float32")).shape
(2, 4)
>>> [(w.path, w.shape) for w in layer.weights][0]
('lstm/lstm_cell/kernel', (5, 16))
"""

import numpy as np

from kerasmini import activations, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import executing_eagerly
from kerasmini.backend.fast import recurrent
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.rnn.cell_base import (
    CELL_ATTRIBUTES,
    RecurrentCell,
    check_use_cudnn,
    delegate_to_cell,
    layer_wrapper_config,
)
from kerasmini.layers.rnn.rnn import RNN


@keras_export("kerasmini.layers.LSTMCell")
class LSTMCell(RecurrentCell):
    """One step of :class:`LSTM`: states ``[h, c]``, output ``h``.

    Args: those of ``RecurrentCell``, plus ``recurrent_activation`` (the
    gates', default ``sigmoid``) and ``unit_forget_bias`` (default True).

    >>> import numpy as np
    >>> cell = LSTMCell(2)
    >>> h, (h2, c) = cell(np.ones((1, 3), "float32"),
    ...                   [np.zeros((1, 2), "float32"), np.zeros((1, 2), "float32")])
    >>> h.shape, bool((h == h2).all())
    ((1, 2), True)
    """

    gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [units, units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return None
        units, init = self.units, self.bias_initializer

        def forget_bias_one(shape, dtype=None):  # [init, ones, init, init]
            return np.concatenate([np.asarray(init((units,), dtype)),
                                   np.ones((units,), dtype),
                                   np.asarray(init((2 * units,), dtype))])
        return forget_bias_one

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        inputs, h_dropped = self._dropped(inputs, h_tm1, training)
        z = ops.add(ops.matmul(inputs, self.kernel),
                    ops.matmul(h_dropped, self.recurrent_kernel))  # (batch, 4 units)
        if self.bias is not None:
            z = ops.add(z, self.bias)
        u = self.units
        z_i, z_f, z_c, z_o = (ops.get_item(z, (slice(None), slice(k * u, (k + 1) * u)))
                              for k in range(4))
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = ops.add(ops.multiply(f, c_tm1), ops.multiply(i, self.activation(z_c)))
        o = self.recurrent_activation(z_o)
        h = ops.multiply(o, self.activation(c))
        return h, [h, c]

    def _own_config(self):
        config = super()._own_config()
        config["unit_forget_bias"] = self.unit_forget_bias
        return config


@keras_export("kerasmini.layers.LSTM")
class LSTM(RNN):
    """Long Short-Term Memory layer (Hochreiter and Schmidhuber, 1997).

    Args: the cell's (see :class:`LSTMCell`) and the ``RNN``'s
    (``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``,
    ``unroll``), plus ``activity_regularizer`` and ``use_cudnn``: ``"auto"``
    or ``True`` let a traced step run the fused LSTM of the tracer's fast
    lane (:meth:`inner_loop`; cuDNN's kernel, in Keras), ``False`` keeps
    the cell's loop.

    >>> import numpy as np
    >>> seq, h, c = LSTM(4, return_sequences=True, return_state=True)(
    ...     np.ones((32, 10, 8), "float32"))
    >>> seq.shape, h.shape, c.shape
    ((32, 10, 4), (32, 4), (32, 4))
    """

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False,
                 unroll=False, use_cudnn="auto", **kwargs):
        cell = LSTMCell(
            units, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            unit_forget_bias=unit_forget_bias,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed,
            dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
            name="lstm_cell")
        kwargs.pop("implementation", None)
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state, go_backwards=go_backwards,
                         stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=3)
        self.use_cudnn = check_use_cudnn(use_cudnn)

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """Keras's seam for a fused LSTM: ask the backend for one (cuDNN in
        Keras; here the tracer's fast lane, :mod:`kerasmini.backend.fast.
        recurrent`, while a step is traced), with the input dropout applied
        to the whole sequence; the backend raises ``NotImplementedError``
        when it cannot (eagerly, recurrent dropout, other activations...),
        and the cell loops, step by step."""
        cell = self.cell
        if self.use_cudnn in ("auto", True) and not executing_eagerly() and not (
                training and 0.0 < cell.recurrent_dropout < 1.0):
            try:
                dropped = sequences
                if training and 0.0 < cell.dropout < 1.0:
                    # the mask the cell would draw at its first step
                    keep = cell.get_dropout_mask(
                        ops.get_item(sequences, (slice(None), 0)))
                    dropped = ops.multiply(sequences, ops.expand_dims(keep, 1))
                return recurrent.lstm(
                    dropped, initial_state[0], initial_state[1], mask,
                    kernel=cell.kernel, recurrent_kernel=cell.recurrent_kernel,
                    bias=cell.bias, activation=cell.activation,
                    recurrent_activation=cell.recurrent_activation,
                    return_sequences=self.return_sequences,
                    go_backwards=self.go_backwards,
                    zero_output_for_mask=self.zero_output_for_mask)
            except NotImplementedError:
                pass
        return super().inner_loop(sequences, initial_state, mask, training=training)

    def get_config(self):
        return layer_wrapper_config(self, super().get_config())


delegate_to_cell(LSTM, CELL_ATTRIBUTES + ("recurrent_activation", "unit_forget_bias"))
