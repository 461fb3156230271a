"""What ``SimpleRNNCell``, ``LSTMCell`` and ``GRUCell`` share.

Keras writes the same arguments, weights and config out three times; here
they are written once. A cell with ``g`` gates (1, 4 or 3) has a ``kernel``
``(input_dim, g * units)`` for the step's input, a ``recurrent_kernel``
``(units, g * units)`` for the previous state and a ``bias``, created in
that order under ``<rnn layer>/<cell>/`` so that ``.keras`` files line up
with Keras's. :func:`layer_wrapper_config` and :func:`delegate_to_cell` give
the ``SimpleRNN``/``LSTM``/``GRU`` layers their flat configs and attributes.

>>> from kerasmini.layers.rnn.simple_rnn import SimpleRNNCell
>>> cell = SimpleRNNCell(3, name="c")
>>> cell.build((None, 2))
>>> [(w.path, w.shape) for w in cell.weights]
[('c/kernel', (2, 3)), ('c/recurrent_kernel', (3, 3)), ('c/bias', (3,))]
"""

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.rnn.dropout_rnn_cell import DropoutRNNCell

_WEIGHT_ARGS = ("kernel_initializer", "recurrent_initializer", "bias_initializer",
                "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                "kernel_constraint", "recurrent_constraint", "bias_constraint")
_GETTERS = {"initializer": initializers, "regularizer": regularizers,
            "constraint": constraints}


class RecurrentCell(Layer, DropoutRNNCell):
    """Base of the three cells: arguments, weights and config.

    Args:
        units: the size of the state and of the output (positive int).
        activation: default ``tanh``.
        use_bias: whether there is a bias.
        kernel_initializer, recurrent_initializer, bias_initializer,
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint: per weight.
        dropout, recurrent_dropout: fractions in ``[0, 1]`` dropped from the
            input and from the previous state, during training only.
        seed: kept in the config (kerasmini draws from its seeded generator).

    >>> from kerasmini.layers.rnn.lstm import LSTMCell
    >>> LSTMCell(2).state_size, LSTMCell(2).output_size
    ([2, 2], 2)
    """

    gates = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                "Received an invalid value for argument `units`, expected a "
                f"positive integer, got {units}."
            )
        kwargs.pop("implementation", None)  # Keras's kernel choice; one here
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        for arg in _WEIGHT_ARGS:
            value = locals()[arg]
            setattr(self, arg, _GETTERS[arg.split("_")[-1]].get(value))
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self.state_size = units
        self.output_size = units

    def _add(self, name, shape, kind, initializer=None):
        return self.add_weight(
            shape=shape, name=name,
            initializer=initializer or getattr(self, f"{kind}_initializer"),
            regularizer=getattr(self, f"{kind}_regularizer"),
            constraint=getattr(self, f"{kind}_constraint"))

    def build(self, input_shape):
        size = self.gates * self.units
        self.kernel = self._add("kernel", (input_shape[-1], size), "kernel")
        self.recurrent_kernel = self._add("recurrent_kernel", (self.units, size),
                                          "recurrent")
        self.bias = self._add("bias", self._bias_shape(), "bias",
                              self._bias_initializer()) if self.use_bias else None

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_initializer(self):
        return None

    def _dropped(self, inputs, h_tm1, training):
        """The step's input and previous state with their dropout masks."""
        if training and 0.0 < self.dropout < 1.0:
            inputs = inputs * self.get_dropout_mask(inputs)
        if training and 0.0 < self.recurrent_dropout < 1.0:
            h_tm1 = h_tm1 * self.get_recurrent_dropout_mask(h_tm1)
        return inputs, h_tm1

    def get_initial_state(self, batch_size=None):
        """Zero states, one ``(batch_size, size)`` array per state."""
        sizes = self.state_size if isinstance(self.state_size, list) else [
            self.state_size]
        return [ops.zeros((batch_size, d), dtype=self.dtype) for d in sizes]

    def get_config(self):
        config = super().get_config()
        config.update(self._own_config())
        return config

    def _own_config(self):
        config = {"units": self.units,
                  "activation": activations.serialize(self.activation)}
        if hasattr(self, "recurrent_activation"):
            config["recurrent_activation"] = activations.serialize(
                self.recurrent_activation)
        config["use_bias"] = self.use_bias
        for arg in _WEIGHT_ARGS:
            config[arg] = _GETTERS[arg.split("_")[-1]].serialize(getattr(self, arg))
        config.update({"dropout": self.dropout,
                       "recurrent_dropout": self.recurrent_dropout, "seed": self.seed})
        return config


def check_use_cudnn(use_cudnn):
    """LSTM's and GRU's ``use_cudnn`` (Keras's switch for cuDNN's kernel;
    kerasmini has no cuDNN, and ``False`` keeps an LSTM off its fused
    kernel).

    >>> check_use_cudnn("fast")
    Traceback (most recent call last):
      ...
    ValueError: Invalid valid received for argument `use_cudnn`. Expected one of ...
    """
    if use_cudnn not in ("auto", True, False):
        raise ValueError(  # Keras's words, typo included
            "Invalid valid received for argument `use_cudnn`. Expected one of "
            f"{{'auto', True, False}}. Received: use_cudnn={use_cudnn}"
        )
    return use_cudnn


def layer_wrapper_config(layer, base_config, drop_seed=False):
    """A recurrent layer's config: the RNN's keys (without ``cell``), then
    the cell's arguments flat, as Keras's ``LSTM.get_config`` writes it.

    >>> from kerasmini.layers.rnn.lstm import LSTM
    >>> layer = LSTM(2)
    >>> config = layer_wrapper_config(layer, {"name": "lstm", "cell": {}})
    >>> "cell" in config, config["units"], config["unit_forget_bias"]
    (False, 2, True)
    """
    config = {k: v for k, v in base_config.items() if k != "cell"}
    own = layer.cell._own_config()
    own["activity_regularizer"] = regularizers.serialize(layer.activity_regularizer)
    if drop_seed:
        own.pop("seed")
    config.update(own)
    return config


def delegate_to_cell(cls, names):
    """Give a layer class read-only properties that read its cell's
    attributes (``lstm.units`` is ``lstm.cell.units``).

    >>> class Cell:
    ...     units = 3
    >>> class Wrapper:
    ...     cell = Cell()
    >>> delegate_to_cell(Wrapper, ["units"])().units
    3
    """
    for name in names:
        setattr(cls, name, property(lambda self, n=name: getattr(self.cell, n)))
    return cls


CELL_ATTRIBUTES = ("units", "activation", "use_bias", "dropout",
                   "recurrent_dropout") + _WEIGHT_ARGS
