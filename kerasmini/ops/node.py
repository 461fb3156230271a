"""``Node``: the record of one call of a layer on symbolic tensors.

Every time a layer is called on KerasTensors a Node is made. Creating it
wires three things, which is the whole connectivity graph of a model:

* the node is appended to ``layer._inbound_nodes``, so its index there is the
  ``node_index`` (a shared layer called twice has nodes 0 and 1);
* it is appended to the ``_outbound_nodes`` of each layer that produced one of
  its inputs;
* each output tensor gets ``_keras_history = KerasHistory(layer, node_index,
  tensor_index)``.

>>> from kerasmini.backend.keras_tensor import KerasTensor
>>> class _Op:  # anything with node lists works; layers are the usual case
...     name = "op"; _inbound_nodes = []; _outbound_nodes = []
>>> out = KerasTensor((None, 2))
>>> node = Node(_Op(), outputs=out)
>>> out._keras_history.node_index, node.is_input
(0, True)
"""

import collections

from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.tree import flatten, pack_sequence_as


class KerasHistory(collections.namedtuple(
        "KerasHistory", ["layer", "node_index", "tensor_index"])):
    """Where a KerasTensor came from: ``(layer, node_index, tensor_index)``.

    Keras 3 calls the first field ``operation``; both names work here.

    >>> from kerasmini.engine.input_layer import Input
    >>> Input(shape=(2,), name="x")._keras_history[1:]
    (0, 0)
    """

    __slots__ = ()

    @property
    def operation(self):
        return self.layer


class Node:
    """One call of ``layer`` on symbolic arguments, producing ``outputs``.

    Args:
        layer: the layer that was called.
        call_args: the positional arguments of the call.
        call_kwargs: the keyword arguments of the call.
        outputs: the KerasTensor(s) the call produced.

    >>> from kerasmini.engine.input_layer import Input
    >>> from kerasmini.layers import Dense
    >>> x = Input(shape=(2,), name="x")
    >>> dense = Dense(1, name="d")
    >>> y = dense(x)
    >>> dense._inbound_nodes, [l.name for l in dense._inbound_nodes[0].inbound_layers]
    ([<Node d #0>], ['x'])
    """

    def __init__(self, layer, call_args=None, call_kwargs=None, outputs=None):
        self.layer = layer
        self.call_args = tuple(call_args or ())
        self.call_kwargs = dict(call_kwargs or {})
        self.outputs = [] if outputs is None else flatten(outputs)
        self._output_structure = outputs
        self.keras_inputs = [
            x for x in flatten([self.call_args, self.call_kwargs]) if is_keras_tensor(x)
        ]
        self.is_input = not self.keras_inputs
        for x in self.outputs:
            if not is_keras_tensor(x):
                raise ValueError(
                    f"All outputs of a Node must be KerasTensors. Received: {x!r} "
                    f"from layer '{layer.name}'"
                )
        # Wire the graph (see the module docstring).
        layer._inbound_nodes.append(self)
        for kt in self.keras_inputs:
            history = kt._keras_history
            if history is not None:
                history.layer._outbound_nodes.append(self)
        node_index = len(layer._inbound_nodes) - 1
        for tensor_index, kt in enumerate(self.outputs):
            kt._keras_history = KerasHistory(layer, node_index, tensor_index)

    @property
    def operation(self):
        """Keras 3's name for :attr:`layer`."""
        return self.layer

    @property
    def node_index(self) -> int:
        return self.layer._inbound_nodes.index(self)

    @property
    def input_tensors(self):
        return list(self.keras_inputs)

    @property
    def output_tensors(self):
        return list(self.outputs)

    @property
    def input_shapes(self):
        shapes = [x.shape for x in self.keras_inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shapes(self):
        shapes = [x.shape for x in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def inbound_layers(self):
        """The layers that produced this node's inputs."""
        if self.is_input:
            return []
        return [kt._keras_history.layer for kt in self.keras_inputs]

    @property
    def parent_nodes(self):
        """The nodes that produced this node's inputs (one per input)."""
        nodes = []
        for kt in self.keras_inputs:
            layer, node_index, _ = kt._keras_history
            nodes.append(layer._inbound_nodes[node_index])
        return nodes

    def iterate_inbound(self):
        """Yield ``(layer, node_index, tensor_index, tensor)`` per input."""
        for kt in self.keras_inputs:
            layer, node_index, tensor_index = kt._keras_history
            yield layer, node_index, tensor_index, kt

    def map_arguments(self, tensor_dict):
        """The call's ``(args, kwargs)`` with each KerasTensor replaced by
        ``tensor_dict[id(tensor)]`` (the value computed for it)."""
        leaves = [
            tensor_dict[id(x)] if is_keras_tensor(x) else x
            for x in flatten([self.call_args, self.call_kwargs])
        ]
        args, kwargs = pack_sequence_as([self.call_args, self.call_kwargs], leaves)
        return tuple(args), kwargs

    def __repr__(self):
        return f"<Node {self.layer.name} #{self.node_index}>"
