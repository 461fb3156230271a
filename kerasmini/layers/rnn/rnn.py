"""``RNN``: run a cell over the time steps of a sequence.

A *cell* (``SimpleRNNCell``, ``LSTMCell``, ``GRUCell``...) computes one
step: ``output, new_states = cell(x_t, states)``. ``RNN(cell)`` owns the
loop over ``t`` (:func:`rnn_loop`): it starts from zero states (or
``initial_state``, or the states a ``stateful`` layer kept from the last
batch), feeds the steps in order (reversed with ``go_backwards``) and returns
the last output, or every output with ``return_sequences``, plus the final
states with ``return_state``. The loop is plain Python over backend
primitives, so the tape differentiates it (backpropagation through time) and
``kerasmini.function`` traces it into a flat list of steps.

Masking: at a masked step (``mask[:, t]`` false) the states are carried over
unchanged and the output repeats the previous one, as Keras does.

>>> import numpy as np
>>> from kerasmini.layers.rnn.simple_rnn import SimpleRNNCell
>>> layer = RNN(SimpleRNNCell(4), return_sequences=True)
>>> layer(np.ones((2, 3, 5), "float32")).shape
(2, 3, 4)
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.variables import Variable
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.saving import serialization
from kerasmini.tree import flatten


def rnn_loop(step, inputs, initial_states, mask=None, go_backwards=False,
             zero_output_for_mask=False, return_all_outputs=True):
    """Apply ``step(x_t, states) -> (output, new_states)`` along axis 1.

    Keras's ``backend.rnn`` in a dozen lines: at a step where ``mask`` is
    false the new states are the old ones and the output is the previous
    output (zeros before the first, or always zeros with
    ``zero_output_for_mask``). Outputs are stacked in the order processed,
    so ``go_backwards`` returns the reversed sequence, as Keras does.

    Returns:
        ``(last_output, outputs, final_states)``; ``outputs`` is
        ``(batch, timesteps, ...)``, or ``(batch, 1, ...)`` without
        ``return_all_outputs``.

    >>> import numpy as np
    >>> def running_sum(x, states):
    ...     total = ops.add(states[0], x)
    ...     return total, [total]
    >>> x = np.array([[[1.0], [2.0], [4.0]]])
    >>> last, outs, _ = rnn_loop(running_sum, x, [np.zeros((1, 1))],
    ...                          mask=np.array([[True, False, True]]))
    >>> outs[0, :, 0].tolist(), last.tolist()
    ([1.0, 1.0, 5.0], [[5.0]])
    """
    steps = ops.shape(inputs)[1]
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    if mask is not None and str(mask.dtype) != "bool":
        mask = ops.cast(mask, "bool")
    states = list(initial_states)
    outputs, previous = [], None
    for t in order:
        output, new_states = step(ops.get_item(inputs, (slice(None), t)), states)
        new_states = list(flatten(new_states))
        if mask is not None:
            keep = ops.get_item(mask, (slice(None), t))  # (batch,)
            if previous is None or zero_output_for_mask:
                previous = ops.zeros_like(output)
            output = ops.where(_per_sample(keep, output), output, previous)
            new_states = [ops.where(_per_sample(keep, new), new, old)
                          for new, old in zip(new_states, states)]
        states, previous = new_states, output
        if return_all_outputs or not outputs:
            outputs.append(output)
        else:
            outputs[0] = output
    return output, ops.stack(outputs, axis=1), states


@keras_export("kerasmini.layers.RNN")
class RNN(Layer):
    """Base class for recurrent layers: a cell applied along the time axis.

    Args:
        cell: a layer with ``call(inputs, states)`` returning ``(output,
            new_states)`` and a ``state_size`` (an int or a list of ints).
        return_sequences: return every step's output ``(batch, timesteps,
            units)`` instead of the last one ``(batch, units)``.
        return_state: also return the final states.
        go_backwards: process the sequence backwards (and return the
            outputs in that order).
        stateful: keep the final states of a batch as the initial states
            of the next one (the batch size must then be fixed);
            ``reset_state()`` sets them back to zeros.
        unroll: accepted for compatibility; the Python loop is always
            unrolled here.
        zero_output_for_mask: output zeros at masked steps instead of
            repeating the previous output.

    Call arguments: ``sequences`` ``(batch, timesteps, features)``,
    ``initial_state`` (a list of state tensors), ``mask`` ``(batch,
    timesteps)`` (filled in from the inputs' mask), ``training``.

    >>> import numpy as np
    >>> from kerasmini.layers.rnn.lstm import LSTMCell
    >>> out, h, c = RNN(LSTMCell(3), return_state=True)(np.ones((2, 4, 5)))
    >>> out.shape, h.shape, c.shape
    ((2, 3), (2, 3), (2, 3))
    """

    def __init__(self, cell, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False,
                 zero_output_for_mask=False, **kwargs):
        if not callable(getattr(cell, "call", None)):
            raise ValueError(
                f"Argument `cell` should have a `call` method. Received: cell={cell}"
            )
        state_size = getattr(cell, "state_size", None)
        if state_size is None:
            raise ValueError(
                "The RNN cell should have a `state_size` attribute (single integer "
                "or list of integers, one integer per RNN state). "
                f"Received: cell={cell}"
            )
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.zero_output_for_mask = zero_output_for_mask
        self.supports_masking = True
        self.states = None  # the state Variables of a stateful layer
        self.state_size = [state_size] if isinstance(state_size, int) else list(
            state_size)

    # ------------------------------------------------------------- shapes
    def _check_rank(self, shape):
        if len(shape) < 3:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects sequences of "
                "shape (batch_size, timesteps, features). "
                f"Received: input shape={tuple(shape)}"
            )

    def build(self, sequences_shape, initial_state_shape=None):
        self._check_rank(sequences_shape)
        step_shape = (sequences_shape[0],) + tuple(sequences_shape[2:])
        if sequences_shape[-1] is not None:
            # the cell's kernel is sized by the features: later calls must
            # bring the same number (Keras 3 leaves it to the matmul's error)
            spec = self.input_spec
            self.input_spec = InputSpec(
                ndim=getattr(spec, "ndim", None),
                min_ndim=None if getattr(spec, "ndim", None) else 3,
                axes={-1: sequences_shape[-1]})
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build(step_shape)  # weights at <rnn>/<cell>/kernel
            self.cell.built = True
        if self.stateful:
            if sequences_shape[0] is None:
                raise ValueError(
                    "When using `stateful=True` in a RNN, the batch size must be "
                    "static. Found dynamic batch size: "
                    f"sequence.shape={tuple(sequences_shape)}"
                )
            if self.states is None:
                self.states = [
                    Variable(v, trainable=False, name="rnn_state")
                    for v in self.get_initial_state(sequences_shape[0])]
            else:
                self.reset_state()

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        self._check_rank(sequences_shape)
        batch, steps = sequences_shape[0], sequences_shape[1]
        units = getattr(self.cell, "output_size", None) or self.state_size[0]
        output = (batch, steps, units) if self.return_sequences else (batch, units)
        if self.return_state:
            return (output,) + tuple((batch, size) for size in self.state_size)
        return output

    def compute_mask(self, inputs, mask=None):
        """The output sequence keeps the input mask; the last output and
        the states are not masked."""
        leaves = flatten(mask) if mask is not None else []
        mask = leaves[0] if leaves else None  # an empty list: no mask
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self.state_size)
        return output_mask

    def compute_output_spec(self, sequences, initial_state=None, mask=None,
                            training=None):
        self._check_state_and_mask(sequences, initial_state, _only_mask(mask))
        return super().compute_output_spec(sequences)

    # ------------------------------------------------------------- checks
    def _check_state_and_mask(self, sequences, initial_state, mask):
        """``initial_state``: one ``(batch, size)`` tensor per state;
        ``mask``: ``(batch, timesteps)`` of booleans (or 0/1 numbers).
        The same checks on arrays and on KerasTensors; Keras 3 has none
        (a wrong state fails inside the cell, or not at all symbolically)."""
        batch, steps = tuple(sequences.shape)[:2]
        if initial_state is not None:
            states = list(flatten(initial_state))
            sizes = [int(size) for size in self.state_size]
            if len(states) != len(sizes):
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) expects "
                    f"`initial_state` to be a list of {len(sizes)} tensor(s), one "
                    f"per state, of shapes {[(batch, d) for d in sizes]}. "
                    f"Received: initial_state with {len(states)} tensor(s) of "
                    f"shapes {[_shape(s) for s in states]}"
                )
            for i, (state, size) in enumerate(zip(states, sizes)):
                shape = _shape(state)
                if len(shape) != 2 or shape[1] != size or not _same_size(
                        shape[0], batch):
                    raise ValueError(
                        f"Layer '{self.name}' ({type(self).__name__}) expects "
                        f"`initial_state[{i}]` of shape (batch_size, {size}) = "
                        f"{(batch, size)}. Received: initial_state[{i}].shape="
                        f"{shape}"
                    )
        if mask is None:
            return
        shape = _shape(mask)
        if len(shape) != 2 or not _same_size(shape[0], batch) or not _same_size(
                shape[1], steps):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects `mask` of "
                f"shape (batch_size, timesteps) = {(batch, steps)}. Received: "
                f"mask.shape={shape}"
            )
        dtype = str(getattr(mask, "dtype", ""))
        if not (dtype == "bool" or dtype.startswith(("int", "uint", "float"))):
            raise TypeError(
                f"Layer '{self.name}' ({type(self).__name__}) expects `mask` of "
                f"booleans (or 0/1 numbers). Received: mask of dtype {dtype}"
            )

    # ------------------------------------------------------------- states
    def get_initial_state(self, batch_size):
        """Zero states, one ``(batch_size, size)`` array per state."""
        make = getattr(self.cell, "get_initial_state", None)
        if make is not None:
            return list(flatten(make(batch_size=batch_size)))
        return [ops.zeros((batch_size, size), dtype=self.dtype)
                for size in self.state_size]

    def reset_state(self):
        """Set a stateful layer's states back to zeros."""
        for state in self.states or []:
            state.assign(ops.zeros(state.shape, dtype=state.dtype))

    reset_states = reset_state  # Keras 2's name

    # ---------------------------------------------------------------- call
    def call(self, sequences, initial_state=None, mask=None, training=False):
        mask = _only_mask(mask)
        self._check_state_and_mask(sequences, initial_state, mask)
        batch = ops.shape(sequences)[0]
        if initial_state is None:
            initial_state = self.states if self.stateful else \
                self.get_initial_state(batch)
        elif not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        if self.stateful and batch != self.states[0].shape[0]:
            raise ValueError(
                "If an RNN is stateful, the batch size of the input sequences must "
                "be the same as the batch size of the initial state. \n"
                f"- Expected batch size: {self.states[0].shape[0]}\n"
                f"- Received batch size: {batch}"
            )
        last, outputs, states = self.inner_loop(sequences, initial_state, mask,
                                                training=training)
        _reset_dropout_masks(self.cell)
        if self.stateful:
            for variable, value in zip(self.states, states):
                variable.assign(value)
        output = outputs if self.return_sequences else last
        if self.return_state:
            return (output, *states)
        return output

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """The loop over the time steps, the cell as its step: ``(last_output,
        outputs, final_states)`` of :func:`rnn_loop`. ``LSTM`` first tries a
        fused kernel here, as Keras's does."""
        cell_kwargs = {"training": training} if getattr(
            self.cell, "_call_has_training_arg", False) else {}

        def step(inputs, states):
            output, new_states = self.cell(inputs, states, **cell_kwargs)
            return output, new_states

        return rnn_loop(
            step, sequences, initial_state, mask=mask,
            go_backwards=self.go_backwards,
            zero_output_for_mask=self.zero_output_for_mask,
            return_all_outputs=self.return_sequences)

    # ------------------------------------------------------------ config
    def get_config(self):
        config = super().get_config()
        config.update({
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "stateful": self.stateful,
            "unroll": self.unroll,
            "zero_output_for_mask": self.zero_output_for_mask,
            "cell": serialization.serialize_keras_object(self.cell),
        })
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "cell" not in config:  # SimpleRNN, LSTM, GRU: the cell's keys are flat
            return super().from_config(config)
        config = dict(config)
        cell = serialization.deserialize_keras_object(
            config.pop("cell"), custom_objects=custom_objects)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = serialization.deserialize_keras_object(config["dtype"])
        return cls(cell, **config)


def _per_sample(keep, like):
    """``keep`` ``(batch,)`` shaped to broadcast against ``like`` (``(batch,
    units)``, or ``(batch, rows, cols, filters)`` for a ``ConvLSTM2D``)."""
    return ops.reshape(keep, (-1,) + (1,) * (len(ops.shape(like)) - 1))


def _only_mask(mask):
    """The mask of the sequences: a mask given in a list (the inputs' masks)
    is its first entry, an empty one none; a nested list of booleans
    becomes an array (its shape and dtype are checked next)."""
    if isinstance(mask, (list, tuple)) and not (
            mask and isinstance(mask[0], (bool, int, float, list, tuple))):
        leaves = flatten(mask)
        mask = leaves[0] if leaves else None
    if mask is None or hasattr(mask, "dtype"):
        return mask
    try:
        return np.asarray(mask)
    except (ValueError, TypeError):
        return np.asarray(mask, dtype=object)  # ragged: refused by its dtype


def _shape(x):
    return tuple(getattr(x, "shape", None) or ops.shape(x))


def _same_size(a, b):
    return a is None or b is None or a == b


def _reset_dropout_masks(cell):
    """Forget the dropout masks drawn for this sequence (a new draw next call)."""
    if hasattr(cell, "_dropout_mask"):
        cell._dropout_mask = None
        cell._recurrent_dropout_mask = None

