"""``ConvLSTMCell`` and ``ConvLSTM``: an LSTM whose states are images.

An ``LSTM`` multiplies its input and state by matrices; a ConvLSTM
convolves them (Shi et al., 2015), so the states ``h`` and ``c`` keep the
input's spatial layout ``(rows, cols, filters)`` and the gates look at a
neighbourhood. One step, with ``*`` a convolution::

    z = x_t * kernel + h * recurrent_kernel + bias   # 4 * filters channels
    i, f, g, o = split(z)                             # Keras's gate order
    c = sigmoid(f) c + sigmoid(i) tanh(g);  h = sigmoid(o) tanh(c)

The input convolution uses the layer's ``strides``, ``padding`` and
``dilation_rate``; the recurrent one is ``"same"`` with stride 1, so the
state keeps its size. ``ConvLSTM1D``, ``ConvLSTM2D`` and ``ConvLSTM3D`` are
this layer for sequences of sequences, images and volumes; the loop over time
is :func:`~kerasmini.layers.rnn.rnn.rnn_loop`, as for every ``RNN``.

>>> import numpy as np
>>> from kerasmini.layers import ConvLSTM2D
>>> layer = ConvLSTM2D(4, 3, padding="same")
>>> layer(np.ones((2, 5, 8, 8, 1), "float32")).shape  # (batch, time, rows, cols, ch)
(2, 8, 8, 4)
>>> [w.shape for w in layer.weights]
[(3, 3, 1, 16), (3, 3, 4, 16), (16,)]
"""

import numpy as np

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.backend.validation import check_padding, check_tuple
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.layers.convolutional.conv_utils import (
    check_positive_count,
    conv_output_shape,
)
from kerasmini.layers.rnn.dropout_rnn_cell import _dropout_mask
from kerasmini.layers.rnn.rnn import RNN
from kerasmini.tree import flatten

_WEIGHT_ARGS = ("kernel_initializer", "recurrent_initializer", "bias_initializer",
                "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
                "bias_regularizer", "kernel_constraint", "recurrent_constraint",
                "bias_constraint")


class ConvLSTMCell(Layer):
    """One step of a ConvLSTM of ``rank`` spatial axes (not exported, as in
    Keras 3): states ``[h, c]``, each ``(batch, *spatial_out, filters)``.

    >>> cell = ConvLSTMCell(2, 3, 3, padding="same")
    >>> cell.build((None, 5, 5, 2))
    >>> [s.shape for s in cell.get_initial_state(batch_size=4)]
    [(4, 5, 5, 3), (4, 5, 5, 3)]
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if rank not in (1, 2, 3):
            raise ValueError(f"Rank {rank} convolutions are not currently "
                             f"implemented. Received: rank={rank}")
        self.rank = rank
        self.filters = check_positive_count(filters, "filters")
        self.kernel_size = check_tuple(kernel_size, rank, "kernel_size")
        self.strides = check_tuple(strides, rank, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)
        self.dilation_rate = check_tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "Specifying `strides > 1` is not compatible with `dilation_rate > "
                "1`. Please provide `strides=1` or `dilation_rate=1`. Received: "
                f"strides={self.strides} and dilation_rate={self.dilation_rate}"
            )
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self.input_spec = InputSpec(ndim=rank + 2)
        self.state_size = [filters, filters]  # channels; the rows come from build
        self.output_size = filters
        self._dropout_mask = self._recurrent_dropout_mask = None

    def build(self, inputs_shape, states_shape=None):
        self.spatial_dims = tuple(inputs_shape[1:-1])
        if None in self.spatial_dims:
            raise ValueError(
                "ConvLSTM layers only support static input shapes for the spatial "
                f"dimension. Received invalid input shape: input_shape={inputs_shape}"
            )
        if inputs_shape[-1] is None:
            raise ValueError(
                "The channel dimension of the inputs (last axis) should be defined. "
                f"Found None. Full input shape received: input_shape={inputs_shape}"
            )
        self.input_dim = inputs_shape[-1]
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: self.input_dim})
        gates = 4 * self.filters
        self.kernel = self.add_weight(
            shape=self.kernel_size + (self.input_dim, gates), name="kernel",
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, gates), name="recurrent_kernel",
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(gates,), name="bias", initializer=self._bias_initializer(),
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        filters, init = self.filters, self.bias_initializer

        def forget_bias_one(shape, dtype=None):  # [init, ones, init, init]
            return np.concatenate([np.asarray(init((filters,), dtype)),
                                   np.ones((filters,), dtype),
                                   np.asarray(init((2 * filters,), dtype))])
        return forget_bias_one

    def _gate_masks(self, like, rate, attribute):
        """Four dropout masks (one per gate), drawn once per sequence."""
        if getattr(self, attribute) is None:
            setattr(self, attribute, [_dropout_mask(like, rate) for _ in range(4)])
        return getattr(self, attribute)

    def _gates(self, x, kernel, masks, **conv):
        """The four gates' pre-activations of ``x``: one convolution with
        every gate's filters when ``x`` is the same for all (no dropout),
        else one per gate, as Keras 3 computes them."""
        f = self.filters

        def gate_kernel(k):
            return ops.get_item(kernel, (Ellipsis, slice(k * f, (k + 1) * f)))

        if masks is None:
            z = ops.conv(x, kernel, **conv)  # (batch, *out, 4 * filters)
            return [ops.get_item(z, (Ellipsis, slice(k * f, (k + 1) * f)))
                    for k in range(4)]
        return [ops.conv(ops.multiply(x, masks[k]), gate_kernel(k), **conv)
                for k in range(4)]

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        input_masks = recurrent_masks = None
        if training and 0.0 < self.dropout < 1.0:
            input_masks = self._gate_masks(inputs, self.dropout, "_dropout_mask")
        if training and 0.0 < self.recurrent_dropout < 1.0:
            recurrent_masks = self._gate_masks(h_tm1, self.recurrent_dropout,
                                               "_recurrent_dropout_mask")
        x = self._gates(inputs, self.kernel, input_masks, strides=self.strides,
                        padding=self.padding, dilation_rate=self.dilation_rate)
        h = self._gates(h_tm1, self.recurrent_kernel, recurrent_masks,
                        strides=1, padding="same")
        z = [ops.add(a, b) for a, b in zip(x, h)]
        if self.bias is not None:
            f = self.filters
            z = [ops.add(z[k], ops.get_item(self.bias, slice(k * f, (k + 1) * f)))
                 for k in range(4)]
        i = self.recurrent_activation(z[0])
        forget = self.recurrent_activation(z[1])
        c = ops.add(ops.multiply(forget, c_tm1), ops.multiply(i, self.activation(z[2])))
        o = self.recurrent_activation(z[3])
        h = ops.multiply(o, self.activation(c))
        return h, [h, c]

    def state_shape(self, batch_size=None):
        """``(batch, *spatial_out, filters)``: the shape of ``h`` and ``c``."""
        return conv_output_shape((batch_size,) + self.spatial_dims + (self.input_dim,),
                                 self.filters, self.kernel_size, self.strides,
                                 self.dilation_rate, self.padding, self.name)

    def get_initial_state(self, batch_size=None):
        shape = self.state_shape(batch_size)
        return [ops.zeros(shape, dtype=self.compute_dtype),
                ops.zeros(shape, dtype=self.compute_dtype)]

    def _own_config(self):
        config = {
            "filters": self.filters, "kernel_size": self.kernel_size,
            "strides": self.strides, "padding": self.padding,
            "data_format": self.data_format, "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias,
        }
        for arg in _WEIGHT_ARGS:
            value = getattr(self, arg)
            kind = arg.split("_")[-1]
            getter = {"initializer": initializers, "regularizer": regularizers,
                      "constraint": constraints}.get(kind)
            config[arg] = getter.serialize(value) if getter else value
        config.update({"dropout": self.dropout,
                       "recurrent_dropout": self.recurrent_dropout, "seed": self.seed})
        return config

    def get_config(self):
        return {**super().get_config(), **self._own_config()}


class ConvLSTM(RNN):
    """The shared part of ``ConvLSTM1D``, ``2D`` and ``3D`` (not exported):
    an :class:`~kerasmini.layers.RNN` of a :class:`ConvLSTMCell`, with the
    cell's arguments flat in its signature and config, as ``LSTM``'s.

    >>> ConvLSTM(1, 2, 3).compute_output_shape((None, 4, 10, 3))
    (None, 8, 2)
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, **kwargs):
        cell = ConvLSTMCell(
            rank=rank, filters=filters, kernel_size=kernel_size, strides=strides,
            padding=padding, data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell",
            dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state, go_backwards=go_backwards,
                         stateful=stateful, **kwargs)
        self.rank = rank
        self.input_spec = InputSpec(ndim=rank + 3)

    def _check_rank(self, shape):
        if len(shape) != self.rank + 3:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects sequences of "
                f"rank {self.rank + 3}: (batch_size, timesteps, {self.rank} spatial "
                f"axes, channels). Received: input shape={tuple(shape)}"
            )

    def _check_state_and_mask(self, sequences, initial_state, mask):
        shape = tuple(sequences.shape)
        if initial_state is not None and self.cell.built:
            expected = self.cell.state_shape(shape[0])
            states = list(flatten(initial_state))
            found = [tuple(getattr(s, "shape", ())) for s in states]
            if len(states) != 2 or any(
                    len(f) != len(expected) or any(
                        a is not None and b is not None and a != b
                        for a, b in zip(f, expected)) for f in found):
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) expects "
                    f"`initial_state` to be a list of 2 tensors [h, c] of shape "
                    f"{expected}. Received: shapes {found}"
                )
        super()._check_state_and_mask(sequences, None, mask)

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        self._check_rank(sequences_shape)
        batch, steps = sequences_shape[0], sequences_shape[1]
        state = conv_output_shape((batch,) + tuple(sequences_shape[2:]),
                                  self.cell.filters, self.cell.kernel_size,
                                  self.cell.strides, self.cell.dilation_rate,
                                  self.cell.padding, self.name)
        output = (batch, steps) + state[1:] if self.return_sequences else state
        if self.return_state:
            return output, state, state
        return output

    def get_config(self):
        config = super().get_config()
        del config["cell"]
        own = self.cell._own_config()
        own["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return {**config, **own}


for _name in ("filters", "kernel_size", "strides", "padding", "data_format",
              "dilation_rate", "activation", "recurrent_activation", "use_bias",
              "dropout", "recurrent_dropout") + _WEIGHT_ARGS:
    setattr(ConvLSTM, _name, property(lambda self, n=_name: getattr(self.cell, n)))
