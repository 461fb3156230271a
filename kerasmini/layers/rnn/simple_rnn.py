"""``SimpleRNN``: ``h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)``.

The plainest recurrence: one state, which is also the output.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = SimpleRNN(4)
>>> layer(np.ones((2, 3, 5), "float32")).shape
(2, 4)
>>> [w.path for w in layer.weights][1]
'simple_rnn/simple_rnn_cell/recurrent_kernel'
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import executing_eagerly
from kerasmini.backend.fast import simple_rnn as fused_simple_rnn
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.rnn.cell_base import (
    CELL_ATTRIBUTES,
    RecurrentCell,
    delegate_to_cell,
    layer_wrapper_config,
)
from kerasmini.layers.rnn.rnn import RNN


@keras_export("kerasmini.layers.SimpleRNNCell")
class SimpleRNNCell(RecurrentCell):
    """One step of :class:`SimpleRNN` (arguments: see ``RecurrentCell``).

    >>> import numpy as np
    >>> cell = SimpleRNNCell(2, kernel_initializer="ones",
    ...                      recurrent_initializer="zeros")
    >>> out, states = cell(np.ones((1, 3), "float32"), [np.zeros((1, 2), "float32")])
    >>> [round(float(v), 4) for v in out[0]]  # tanh(1 + 1 + 1)
    [0.9951, 0.9951]
    """

    gates = 1

    def call(self, inputs, states, training=False):
        inputs, h_tm1 = self._dropped(inputs, states[0], training)
        h = ops.matmul(inputs, self.kernel)  # (batch, units)
        if self.bias is not None:
            h = ops.add(h, self.bias)
        output = ops.add(h, ops.matmul(h_tm1, self.recurrent_kernel))
        if self.activation is not None:
            output = self.activation(output)
        return output, [output]


@keras_export("kerasmini.layers.SimpleRNN")
class SimpleRNN(RNN):
    """Fully-connected RNN where the output is fed back as the next input.

    Args: the cell's (``units``, ``activation``, ``use_bias``, the
    initializers, regularizers and constraints, ``dropout``,
    ``recurrent_dropout``, ``seed``) and the ``RNN``'s
    (``return_sequences``, ``return_state``, ``go_backwards``,
    ``stateful``, ``unroll``), plus ``activity_regularizer``. A traced step
    runs the fused SimpleRNN of the tracer's fast lane (:meth:`inner_loop`);
    ``RNN(SimpleRNNCell(...))`` always loops over the cell.

    >>> import numpy as np
    >>> seq, state = SimpleRNN(3, return_sequences=True, return_state=True)(
    ...     np.ones((2, 5, 4), "float32"))
    >>> seq.shape, state.shape
    ((2, 5, 3), (2, 3))
    """

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, seed=None, **kwargs):
        cell = SimpleRNNCell(
            units, activation=activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed,
            dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
            name="simple_rnn_cell")
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state, go_backwards=go_backwards,
                         stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """The fused SimpleRNN of the tracer's fast lane while a step is
        traced (:mod:`kerasmini.backend.fast.simple_rnn`; Keras has none: the
        seam is :meth:`LSTM.inner_loop <kerasmini.layers.LSTM.inner_loop>`'s),
        otherwise the cell's loop."""
        cell = self.cell
        if not executing_eagerly() and not (
                training and 0.0 < cell.recurrent_dropout < 1.0):
            try:
                dropped = sequences
                if training and 0.0 < cell.dropout < 1.0:
                    # the mask the cell would draw at its first step
                    keep = cell.get_dropout_mask(
                        ops.get_item(sequences, (slice(None), 0)))
                    dropped = ops.multiply(sequences, ops.expand_dims(keep, 1))
                return fused_simple_rnn.simple_rnn(
                    dropped, initial_state[0], mask, kernel=cell.kernel,
                    recurrent_kernel=cell.recurrent_kernel, bias=cell.bias,
                    activation=cell.activation,
                    return_sequences=self.return_sequences,
                    go_backwards=self.go_backwards,
                    zero_output_for_mask=self.zero_output_for_mask)
            except NotImplementedError:
                pass
        return super().inner_loop(sequences, initial_state, mask, training=training)

    def get_config(self):
        # Keras's SimpleRNN config has no `seed` (its cell's has)
        return layer_wrapper_config(self, super().get_config(), drop_seed=True)


delegate_to_cell(SimpleRNN, CELL_ATTRIBUTES)
