"""``GRU``: a gated recurrence with one state and two gates.

One step, with the update gate ``z``, the reset gate ``r`` and Keras 3's
default ``reset_after=True`` (the reset gate applied after the recurrent
matmul, as cuDNN does; then ``bias`` has two rows, input and recurrent)::

    z  = sigmoid(x W_z + b_z + h U_z + c_z)
    r  = sigmoid(x W_r + b_r + h U_r + c_r)
    hh = tanh(x W_h + b_h + r * (h U_h + c_h))
    h  = z * h + (1 - z) * hh

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = GRU(4)
>>> layer(np.ones((2, 3, 5), "float32")).shape
(2, 4)
>>> [(w.name, w.shape) for w in layer.weights]
[('kernel', (5, 12)), ('recurrent_kernel', (4, 12)), ('bias', (2, 12))]
"""

from kerasmini import activations, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import executing_eagerly
from kerasmini.backend.fast import gru as fused_gru
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.rnn.cell_base import (
    CELL_ATTRIBUTES,
    RecurrentCell,
    check_use_cudnn,
    delegate_to_cell,
    layer_wrapper_config,
)
from kerasmini.layers.rnn.rnn import RNN


def _columns(x, start, stop):
    return ops.get_item(x, (slice(None), slice(start, stop)))


@keras_export("kerasmini.layers.GRUCell")
class GRUCell(RecurrentCell):
    """One step of :class:`GRU`: one state ``h``, which is also the output.

    Args: those of ``RecurrentCell``, plus ``recurrent_activation``
    (default ``sigmoid``) and ``reset_after`` (default True).

    >>> import numpy as np
    >>> cell = GRUCell(2)
    >>> h, [state] = cell(np.ones((1, 3), "float32"), [np.zeros((1, 2), "float32")])
    >>> h.shape, cell.bias.shape
    ((1, 2), (2, 6))
    """

    gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, reset_after=True, **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        inputs, h_dropped = self._dropped(inputs, h_tm1, training)
        u = self.units
        input_bias = recurrent_bias = None
        if self.bias is not None:
            input_bias = ops.get_item(self.bias, 0) if self.reset_after else self.bias
            recurrent_bias = ops.get_item(self.bias, 1) if self.reset_after else None
        x = ops.matmul(inputs, self.kernel)  # (batch, 3 units): z, r, h blocks
        if input_bias is not None:
            x = ops.add(x, input_bias)
        if self.reset_after:
            inner = ops.matmul(h_dropped, self.recurrent_kernel)
            if recurrent_bias is not None:
                inner = ops.add(inner, recurrent_bias)
        else:
            inner = ops.matmul(h_dropped, _columns(self.recurrent_kernel, 0, 2 * u))
        z = self.recurrent_activation(ops.add(_columns(x, 0, u), _columns(inner, 0, u)))
        r = self.recurrent_activation(ops.add(_columns(x, u, 2 * u),
                                              _columns(inner, u, 2 * u)))
        if self.reset_after:
            recurrent_h = ops.multiply(r, _columns(inner, 2 * u, 3 * u))
        else:
            recurrent_h = ops.matmul(ops.multiply(r, h_dropped),
                                     _columns(self.recurrent_kernel, 2 * u, 3 * u))
        hh = self.activation(ops.add(_columns(x, 2 * u, 3 * u), recurrent_h))
        h = ops.add(ops.multiply(z, h_tm1), ops.multiply(ops.subtract(1.0, z), hh))
        return h, [h]

    def _own_config(self):
        config = super()._own_config()
        seed = config.pop("seed")
        config.update({"reset_after": self.reset_after, "seed": seed})
        return config


@keras_export("kerasmini.layers.GRU")
class GRU(RNN):
    """Gated Recurrent Unit (Cho et al., 2014).

    Args: the cell's (see :class:`GRUCell`) and the ``RNN``'s
    (``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``,
    ``unroll``), plus ``activity_regularizer`` and ``use_cudnn``: ``"auto"``
    or ``True`` let a traced step run the fused GRU of the tracer's fast lane
    (:meth:`inner_loop`, with ``reset_after=True``), ``False`` keeps the
    cell's loop.

    >>> import numpy as np
    >>> out, h = GRU(3, return_state=True)(np.ones((2, 4, 5), "float32"))
    >>> bool((out == h).all())
    True
    """

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, reset_after=True, use_cudnn="auto",
                 **kwargs):
        cell = GRUCell(
            units, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, reset_after=reset_after, seed=seed,
            dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
            name="gru_cell")
        kwargs.pop("implementation", None)
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state, go_backwards=go_backwards,
                         stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=3)
        self.use_cudnn = check_use_cudnn(use_cudnn)

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """Keras's seam for a fused GRU, as :meth:`LSTM.inner_loop
        <kerasmini.layers.LSTM.inner_loop>` (the tracer's fast lane,
        :mod:`kerasmini.backend.fast.gru`, while a step is traced, with
        ``reset_after=True``); otherwise the cell loops."""
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
                state = initial_state[0] if isinstance(
                    initial_state, (list, tuple)) else initial_state
                return fused_gru.gru(
                    dropped, state, mask, kernel=cell.kernel,
                    recurrent_kernel=cell.recurrent_kernel, bias=cell.bias,
                    activation=cell.activation,
                    recurrent_activation=cell.recurrent_activation,
                    return_sequences=self.return_sequences,
                    go_backwards=self.go_backwards, reset_after=cell.reset_after,
                    zero_output_for_mask=self.zero_output_for_mask)
            except NotImplementedError:
                pass
        return super().inner_loop(sequences, initial_state, mask, training=training)

    def get_config(self):
        return layer_wrapper_config(self, super().get_config())


delegate_to_cell(GRU, CELL_ATTRIBUTES + ("recurrent_activation", "reset_after"))
