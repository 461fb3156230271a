"""``Bidirectional``: read a sequence both ways and merge what each side saw.

The wrapper holds two recurrent layers rebuilt from the one it is given: a
forward copy (``forward_<name>``) and a copy with ``go_backwards=True``
(``backward_<name>``), or the ``backward_layer`` you pass. Both read the
same sequence; the backward outputs come out last step first, so they are
flipped back in time before the merge (``merge_mode``: ``"concat"``, the
default, ``"sum"``, ``"mul"``, ``"ave"``, or ``None`` for both outputs).
At step ``t`` a ``Bidirectional(LSTM(u), ...)`` with ``return_sequences``
has seen the whole past (forward) and the whole future (backward).

The weights live at ``<bidirectional>/forward_<name>/...`` and
``<bidirectional>/backward_<name>/...``, forward first, as in Keras 3 (its
``.keras`` files load here and back).

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> from kerasmini.layers import LSTM
>>> clear_session()
>>> layer = Bidirectional(LSTM(3, return_sequences=True))
>>> layer(np.ones((2, 5, 4), "float32")).shape
(2, 5, 6)
>>> [w.path for w in layer.weights][::3]
['bidirectional/forward_lstm/lstm_cell/kernel', 'bidirectional/backward_lstm/lstm_cell/kernel']
"""

import copy

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.saving import serialization

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


def _copy_of(layer, prefix, **changes):
    """A fresh layer from ``layer``'s config, named ``<prefix>_<name>``."""
    config = serialization.serialize_keras_object(layer)
    name = layer.name.removeprefix(f"{prefix}_")
    config["config"].update(name=f"{prefix}_{name}", **changes)
    return serialization.deserialize_keras_object(config)


@keras_export("kerasmini.layers.Bidirectional")
class Bidirectional(Layer):
    """Bidirectional wrapper for recurrent layers.

    Args:
        layer: an ``RNN`` layer (``LSTM``, ``GRU``, ``SimpleRNN``,
            ``RNN(cell)``...): the forward direction is rebuilt from its
            config, so it keeps no state of its own.
        merge_mode: how the two outputs combine: ``"concat"`` (default),
            ``"sum"``, ``"mul"``, ``"ave"``, or ``None`` (a list of both).
        weights: initial weights (forward's, then backward's).
        backward_layer: the backward layer (it must have the other
            ``go_backwards`` and the same ``return_sequences``,
            ``return_state``, ``stateful``); default: a copy of ``layer``
            going backwards.
        **kwargs: base layer arguments.

    Call arguments: ``sequences``, ``initial_state`` (the forward layer's
    states, then the backward layer's), ``mask``, ``training``.

    >>> import numpy as np
    >>> from kerasmini.layers import GRU
    >>> out = Bidirectional(GRU(2), merge_mode="sum")(np.ones((3, 4, 5), "float32"))
    >>> out.shape
    (3, 2)
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                "Please initialize `Bidirectional` layer with a "
                f"`keras.layers.Layer` instance. Received: {layer}"
            )
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(
                "`backward_layer` need to be a `keras.layers.Layer` instance. "
                f"Received: {backward_layer}"
            )
        if merge_mode not in _MERGE_MODES:
            raise ValueError(
                f"Invalid merge mode. Received: {merge_mode}. Merge mode should be "
                'one of {"sum", "mul", "ave", "concat", None}'
            )
        if not hasattr(layer, "go_backwards") or not hasattr(layer, "return_state"):
            raise ValueError(
                "`Bidirectional` wraps a recurrent layer (an `RNN` such as `LSTM`, "
                f"`GRU` or `SimpleRNN`). Received: layer={layer}"
            )
        if weights is not None:
            kwargs["weights"] = weights  # set on the whole wrapper once built
        super().__init__(**kwargs)
        self.forward_layer = _copy_of(layer, "forward")
        if backward_layer is None:
            backward_layer = _copy_of(layer, "backward", go_backwards=True)
        self.backward_layer = backward_layer
        self._verify_layer_config()
        for side in (self.forward_layer, self.backward_layer):
            if getattr(side, "zero_output_for_mask", None) is not None:
                # a masked step outputs zeros in both directions, so the
                # flipped backward sequence lines up with the forward one
                side.zero_output_for_mask = side.return_sequences
        self.merge_mode = merge_mode
        # what the wrapped layer returns, the wrapper returns (per direction)
        for name in ("stateful", "return_sequences", "return_state", "input_spec"):
            setattr(self, name, getattr(layer, name))
        self.supports_masking = True

    def _verify_layer_config(self):
        forward, backward = self.forward_layer, self.backward_layer
        if forward.go_backwards == backward.go_backwards:
            raise ValueError(
                "Forward layer and backward layer should have different "
                "`go_backwards` value. Received: forward_layer.go_backwards "
                f"{forward.go_backwards}, backward_layer.go_backwards="
                f"{backward.go_backwards}"
            )
        for name in ("stateful", "return_sequences", "return_state"):
            ahead, behind = getattr(forward, name), getattr(backward, name)
            if ahead != behind:
                raise ValueError(
                    "Forward layer and backward layer are expected to have the "
                    f'same value for attribute "{name}", got "{ahead}" for forward '
                    f'layer and "{behind}" for backward layer'
                )

    def build(self, sequences_shape, initial_state_shape=None):
        for side in (self.forward_layer, self.backward_layer):
            if not side.built:
                side.build(sequences_shape)  # under <bidirectional>/<side>/

    def call(self, sequences, initial_state=None, mask=None, training=None):
        forward = self.forward_layer
        kwargs = {key: value for key, value, accepted in (
            ("training", training, forward._call_has_training_arg),
            ("mask", mask, forward._call_has_mask_arg)) if accepted}
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        states = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        y = ops.cast(y, self.compute_dtype)
        y_rev = ops.cast(y_rev, self.compute_dtype)
        if self.return_sequences:  # the backward outputs, back in time order
            y_rev = ops.flip(y_rev, axis=1)
        merges = {
            "concat": lambda a, b: ops.concatenate([a, b], axis=-1),
            "sum": ops.add,
            "ave": lambda a, b: ops.divide(ops.add(a, b), 2.0),
            "mul": ops.multiply,
        }
        output = (y, y_rev) if self.merge_mode is None else \
            merges[self.merge_mode](y, y_rev)
        if self.return_state:
            return (output + states) if self.merge_mode is None else \
                (output,) + states
        return output

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        # each half's own shape: a backward_layer may have other units than
        # the forward one (Keras 3 doubles the forward units for "concat")
        forward = self.forward_layer.compute_output_shape(sequences_shape)
        backward = self.backward_layer.compute_output_shape(sequences_shape)
        states = ()
        if self.return_state:
            states = tuple(forward[1:]) + tuple(backward[1:])
            forward, backward = forward[0], backward[0]
        forward, backward = tuple(forward), tuple(backward)
        if self.merge_mode == "concat":
            last = None if None in (forward[-1], backward[-1]) else \
                forward[-1] + backward[-1]
            shape = forward[:-1] + (last,)
        elif self.merge_mode is None:
            shape = (forward, backward)
        else:
            shape = forward
        if self.return_state:
            if self.merge_mode is None:
                return shape + states
            return (shape,) + states
        return shape

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = (mask, mask) if self.merge_mode is None else mask
        else:
            output_mask = (None, None) if self.merge_mode is None else None
        if self.return_state:
            count = len(self.forward_layer.state_size) * 2
            if self.merge_mode is None:
                return list(output_mask) + [None] * count
            return [output_mask] + [None] * count
        return output_mask

    @property
    def states(self):
        if self.forward_layer.states and self.backward_layer.states:
            return tuple(self.forward_layer.states + self.backward_layer.states)
        return None

    def reset_state(self):
        """Set both directions' states back to zeros (stateful only)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        for side in (self.forward_layer, self.backward_layer):
            side.reset_state()

    reset_states = reset_state

    def get_config(self):
        config = super().get_config()
        config.update({
            "merge_mode": self.merge_mode,
            "layer": serialization.serialize_keras_object(self.forward_layer),
            "backward_layer": serialization.serialize_keras_object(
                self.backward_layer),
        })
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = copy.deepcopy(config)
        config["layer"] = serialization.deserialize_keras_object(
            config["layer"], custom_objects=custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = serialization.deserialize_keras_object(
                config["backward_layer"], custom_objects=custom_objects)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = serialization.deserialize_keras_object(config["dtype"])
        return cls(**config)
