"""Node and KerasHistory: how a call on KerasTensors wires the graph."""

import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.ops.node import KerasHistory, Node


def test_keras_history_fields_and_operation_alias():
    layer = layers.Dense(1)
    history = KerasHistory(layer, 2, 1)
    assert (history.layer, history.node_index, history.tensor_index) == (layer, 2, 1)
    assert history.operation is layer
    assert tuple(history) == (layer, 2, 1)


def test_node_appended_to_inbound_and_parents_outbound():
    x = keras.Input((3,), name="x")
    dense = layers.Dense(2)
    dense(x)
    node = dense._inbound_nodes[0]
    input_layer = x._keras_history.layer
    assert input_layer._outbound_nodes == [node]
    assert node.layer is dense and node.operation is dense


def test_node_output_history():
    x = keras.Input((3,))
    y = layers.Dense(2)(x)
    layer, node_index, tensor_index = y._keras_history
    assert (layer.name, node_index, tensor_index) == ("dense", 0, 0)


def test_shared_layer_node_indices():
    a, b = keras.Input((3,)), keras.Input((3,))
    shared = layers.Dense(2, name="shared")
    ya, yb = shared(a), shared(b)
    assert ya._keras_history.node_index == 0
    assert yb._keras_history.node_index == 1
    assert [n.node_index for n in shared._inbound_nodes] == [0, 1]


def test_node_tensor_index_for_multiple_outputs():
    class Split(keras.Layer):
        def call(self, x):
            return [x, x]

    outs = Split()(keras.Input((2,)))
    assert [kt._keras_history.tensor_index for kt in outs] == [0, 1]


def test_node_parent_nodes():
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    added = layers.Add()([a, b])
    node = added._keras_history.layer._inbound_nodes[0]
    assert [n.layer.name for n in node.parent_nodes] == ["a", "b"]
    assert [layer.name for layer in node.inbound_layers] == ["a", "b"]


def test_node_iterate_inbound():
    a = keras.Input((2,), name="a")
    shared = layers.Dense(2, name="s")
    h1 = shared(a)
    h2 = shared(h1)
    node = h2._keras_history.layer._inbound_nodes[1]
    [(layer, node_index, tensor_index, tensor)] = list(node.iterate_inbound())
    assert (layer.name, node_index, tensor_index, tensor) == ("s", 0, 0, h1)


def test_input_node_is_input_with_no_parents():
    x = keras.Input((2,))
    node = x._keras_history.layer._inbound_nodes[0]
    assert node.is_input and node.parent_nodes == [] and node.inbound_layers == []


def test_node_shapes():
    a, b = keras.Input((2,)), keras.Input((3,))
    out = layers.Concatenate()([a, b])
    node = out._keras_history.layer._inbound_nodes[0]
    assert node.input_shapes == [(None, 2), (None, 3)]
    assert node.output_shapes == (None, 5)


def test_node_records_call_kwargs():
    x = keras.Input((2,))
    drop = layers.Dropout(0.5)
    drop(x, training=True)
    assert drop._inbound_nodes[0].call_kwargs == {"training": True}


def test_node_map_arguments_substitutes_values():
    a, b = keras.Input((2,)), keras.Input((2,))
    out = layers.Add()([a, b])
    node = out._keras_history.layer._inbound_nodes[0]
    args, kwargs = node.map_arguments({id(a): 1, id(b): 2})
    assert args == ([1, 2],) and kwargs == {}


def test_node_rejects_non_keras_tensor_outputs():
    with pytest.raises(ValueError, match="All outputs of a Node must be KerasTensors"):
        Node(layers.Dense(1), outputs=[1.0])


def test_node_repr():
    x = keras.Input((2,))
    shared = layers.Dense(2, name="dense_1")
    shared(x)
    shared(x)
    assert repr(shared._inbound_nodes[1]) == "<Node dense_1 #1>"
