"""``Operation``: what every op of ``keras.ops`` is, and what ``Layer`` builds on.

In Keras 3 (``keras/src/ops/operation.py``) an operation is anything that can
be called on tensors *or* on symbolic ``KerasTensor``\\ s. Given arrays it
computes (``call``). Given a KerasTensor it computes nothing: it works out the
shape and dtype of the result (``compute_output_spec``), returns new
KerasTensors, and records the call in a :class:`~kerasmini.ops.node.Node`,
so that ``keras.ops.relu(x)`` between two layers becomes a node of the
functional graph like a layer call. ``Layer`` is an ``Operation`` too (it adds
weights, ``build`` and the rest of ``__call__``).

>>> from kerasmini.backend.keras_tensor import KerasTensor
>>> class Double(Operation):
...     def call(self, x):
...         return x * 2
...     def compute_output_spec(self, x):
...         return KerasTensor(x.shape, x.dtype)
>>> op = Double(name="double")
>>> op(3.0)
6.0
>>> y = op(KerasTensor((None, 4)))
>>> y.shape, y._keras_history[0] is op, op._inbound_nodes
((None, 4), True, [<Node double #0>])
"""

import contextlib

from kerasmini.api_export import keras_export
from kerasmini.backend.keras_tensor import any_symbolic
from kerasmini.backend.masking import get_keras_mask
from kerasmini.backend.naming import auto_name
from kerasmini.ops.node import Node
from kerasmini.tree import map_structure

_SYMBOLIC_SCOPES = []


@contextlib.contextmanager
def symbolic_scope():
    """Ops called on KerasTensors inside this block make no ``Node``.

    A layer's output spec is found by running its ``call`` on KerasTensors;
    the ops on the way must answer with shapes without adding themselves to
    the model's graph (Keras 3 gets the same effect from its backend's
    ``compute_output_spec``).

    >>> from kerasmini.backend.keras_tensor import KerasTensor
    >>> from kerasmini import ops
    >>> x = KerasTensor((2, 3))
    >>> with symbolic_scope():
    ...     y = ops.relu(x)
    >>> y.shape, y._keras_history
    ((2, 3), None)
    """
    _SYMBOLIC_SCOPES.append(True)
    try:
        yield
    finally:
        _SYMBOLIC_SCOPES.pop()


def in_symbolic_scope() -> bool:
    """Whether :func:`symbolic_scope` is open.

    >>> in_symbolic_scope()
    False
    """
    return bool(_SYMBOLIC_SCOPES)


@keras_export(["kerasmini.Operation", "kerasmini.ops.Operation"])
class Operation:
    """Base class of ops and layers: ``call`` on values, a spec on symbols.

    Args:
        name: default: the snake-case class name, made unique (``matmul``,
            ``matmul_1``...), shared with layer names as in Keras 3.

    >>> from kerasmini import ops
    >>> isinstance(ops.Matmul(), Operation), issubclass(ops.Relu, Operation)
    (True, True)
    """

    def __init__(self, name=None):
        if name is None:
            name = auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character "
                f"`/`. Received: name={name!r} (of type {type(name).__name__})"
            )
        self._name = name
        self._inbound_nodes = []
        self._outbound_nodes = []

    @property
    def name(self) -> str:
        """The operation's name (unique among ops and layers)."""
        return self._name

    def __call__(self, *args, **kwargs):
        # the dispatch of chapter 9: KerasTensors in, a spec out (and a Node);
        # values in, values out
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def symbolic_call(self, *args, **kwargs):
        """The output spec, recorded as a Node (unless in a symbolic scope)."""
        outputs = self.compute_output_spec(*args, **kwargs)
        if not in_symbolic_scope():
            Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        return outputs

    def call(self, *args, **kwargs):
        """The computation on concrete values."""
        raise NotImplementedError(
            f"{type(self).__name__} defines no `call()`. Received: args={args}"
        )

    def compute_output_spec(self, *args, **kwargs):
        """The KerasTensor(s) ``call`` would return, without computing."""
        raise NotImplementedError(
            f"Could not infer the output shape / dtype of '{self.name}' (of type "
            f"{type(self).__name__}): implement `compute_output_spec()`."
        )

    # -------------------------------------------------- the calls on symbols
    def _get_node_attribute_at_index(self, node_index, attr, attr_name):
        if not self._inbound_nodes:
            raise AttributeError(
                f"The layer {self.name} has never been called and thus has no "
                f"defined {attr_name}."
            )
        if node_index >= len(self._inbound_nodes):
            raise ValueError(
                f"Asked to get {attr_name} at node {node_index}, but the layer has "
                f"only {len(self._inbound_nodes)} inbound nodes."
            )
        values = getattr(self._inbound_nodes[node_index], attr)
        return values[0] if len(values) == 1 else values

    def get_input_at(self, node_index):
        """The input tensor(s) of the call recorded as node ``node_index``
        (Keras 2's name; Keras 3 keeps only :attr:`input`)."""
        return self._get_node_attribute_at_index(node_index, "input_tensors", "input")

    def get_output_at(self, node_index):
        """The output tensor(s) of the call recorded as node ``node_index``."""
        return self._get_node_attribute_at_index(node_index, "output_tensors",
                                                 "output")

    @property
    def input(self):
        """The symbolic input of the first call."""
        return self.get_input_at(0)

    @property
    def output(self):
        """The symbolic output of the first call."""
        return self.get_output_at(0)

    # Keras 2's names for what the first call's node holds
    @property
    def input_shape(self):
        return map_structure(lambda kt: kt.shape, self.input)

    @property
    def output_shape(self):
        return map_structure(lambda kt: kt.shape, self.output)

    @property
    def input_mask(self):
        """The mask of :attr:`input` (``None`` if it has none)."""
        return map_structure(get_keras_mask, self.input)

    @property
    def output_mask(self):
        """The mask of :attr:`output` (``None`` if it has none)."""
        return map_structure(get_keras_mask, self.output)

    def get_config(self):
        """The constructor arguments (the name, for a plain operation)."""
        return {"name": self.name}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


__all__ = ["Operation", "in_symbolic_scope", "symbolic_scope"]
