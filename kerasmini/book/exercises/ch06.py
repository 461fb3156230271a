"""Checks of chapter 6's exercises (KerasTensor and Node)."""

import kerasmini as keras

from ._support import Refuse, exercise, expect, fail, fresh_name_scope


class _Split(keras.Layer):
    """Cuts the last axis in two halves: one call, two output tensors."""

    def call(self, inputs):
        half = inputs.shape[-1] // 2
        return [inputs[..., :half], inputs[..., half:]]


@exercise("ch06-history-chain", "producer_names")
def check_history_chain(producer_names):
    fresh_name_scope()
    inp = keras.Input(shape=(3,), name="chain_in")
    h1 = keras.layers.Dense(2, name="chain_d1")(inp)
    h2 = keras.layers.Activation("relu", name="chain_relu")(h1)
    out = keras.layers.Dense(1, name="chain_d2")(h2)
    # built in this order, so walking back gives the reverse
    expected = ["chain_d2", "chain_relu", "chain_d1", "chain_in"]
    got = producer_names(out)
    expect(got is not None, "producer_names returned None: return a list of names")
    got = list(got)
    if got == expected[::-1]:
        fail(f"got {got}: the producer of the tensor comes first, the input last")
    expect(got[:1] == expected[:1], (
        f"the first name should be the layer that produced the tensor, "
        f"{expected[0]!r}; got {got[:1]}"))
    expect(got[-1:] == expected[-1:], (
        f"the walk should end at the InputLayer {expected[-1]!r}; got {got}"))
    expect(got == expected, f"expected {expected}, got {got}")
    expect(list(producer_names(inp)) == ["chain_in"], (
        "for an Input tensor the answer is just the InputLayer's name"))
    # a layer called twice in a row: the second call is its node 1
    twice = keras.layers.Dense(3, name="twice")
    start = keras.Input(shape=(3,), name="twice_in")
    got = list(producer_names(twice(twice(start))))
    expect(got == ["twice", "twice", "twice_in"], (
        f"for twice(twice(input)) expected ['twice', 'twice', 'twice_in'], got "
        f"{got}: take the node at the history's node_index, not always node 0"))


def _graph():
    """Two inputs through one shared layer, added; a Split's halves swapped."""
    fresh_name_scope()
    a = keras.Input(shape=(4,), name="a")
    b = keras.Input(shape=(4,), name="b")
    shared = keras.layers.Dense(4, name="shared")
    ya, yb = shared(a), shared(b)
    total = keras.layers.Add(name="add")([ya, yb])
    x = keras.Input(shape=(6,), name="x")
    left, right = _Split(name="split")(x)
    product = keras.layers.Concatenate(name="swap")([right, left])
    return a, b, shared, total, x, product


@exercise("ch06-connected-to", "connected_to")
def check_connected_to(connected_to):
    _, _, shared, total, _, product = _graph()
    add = total._keras_history[0]
    got = connected_to(add)
    expect(got is not None, "connected_to returned None: return a list of lists")
    expect(not any(isinstance(n, str) for n in got), (
        f"got {list(got)}: return one list per node in _inbound_nodes, each "
        "listing that node's inputs"))
    got = [list(n) for n in got]
    # by hand: add's one node takes shared's output at its node 0, then node 1
    want = [["shared[0][0]", "shared[1][0]"]]
    if got == [["shared[0][0]", "shared[0][0]"]]:
        fail(f"for the add layer expected {want}, got {got}: the middle index is "
             "the node_index of the call that made the input")
    expect(got == want, f"for the add layer expected {want}, got {got}")
    got = [list(n) for n in connected_to(shared)]
    expect(len(got) == 2, (
        f"the shared layer has 2 nodes, so expected 2 lists, got {len(got)}: one "
        "list per node in _inbound_nodes"))
    want = [["a[0][0]"], ["b[0][0]"]]
    expect(got == want, f"for the shared layer expected {want}, got {got}")
    got = [list(n) for n in connected_to(product._keras_history[0])]
    want = [["split[0][1]", "split[0][0]"]]
    expect(got == want, (
        f"for the swap layer expected {want}, got {got}: the last index is the "
        "tensor_index (which output of the call)"))


@exercise("ch06-upstream", "upstream_layers")
def check_upstream(upstream_layers):
    a, b, shared, total, x, product = _graph()
    c = keras.Input(shape=(4,), name="c")
    shared(c)  # another call of the shared layer, not upstream of `total`
    got = upstream_layers(total)
    expect(got is not None, "upstream_layers returned None: return a set of names")
    got = set(got)
    expected = {"add", "shared", "a", "b"}
    missing, extra = expected - got, got - expected
    if "c" in extra:
        fail("'c' is not upstream of the add: follow the node that made the "
             "tensor (and its parent nodes), not every node of a shared layer")
    expect(not missing, f"missing {sorted(missing)}: follow every parent node, not "
           "only the first, and keep the producer and the InputLayers")
    expect(not extra, f"unexpected names {sorted(extra)}")
    got = set(upstream_layers(product))
    expect(got == {"swap", "split", "x"}, (
        f"for the swap tensor expected {{'swap', 'split', 'x'}}, got {got}"))
    expect(set(upstream_layers(a)) == {"a"}, "an Input depends only on its "
           "InputLayer")


def _node_class(MyNode):  # noqa: N803
    """kerasmini's Node: the class MyNode derives from."""
    for klass in MyNode.__mro__[1:]:
        if klass.__name__ == "Node" and klass.__module__.startswith("kerasmini"):
            return klass
    fail("MyNode should subclass kerasmini's Node, as given")


def _history(tensor, name):
    history = getattr(tensor, "_keras_history", None)
    expect(history is not None, f"the output {name} has no _keras_history")
    expect(all(hasattr(history, f) for f in ("layer", "node_index",
                                             "tensor_index")), (
        f"{name}._keras_history is {history!r}: make it "
        "KerasHistory(layer, node_index, tensor_index)"))
    return history.layer, history.node_index, history.tensor_index


@exercise("ch06-node", "MyNode.__init__")
def check_node(MyNode):  # noqa: N803
    fresh_name_scope()
    base = _node_class(MyNode)
    refused = {base.__init__: "Node.__init__"}
    inp = keras.Input(shape=(4,), name="inp")
    in_layer = inp._keras_history[0]
    before = list(in_layer._outbound_nodes)
    dense = keras.layers.Dense(4, name="dense_a")
    first = keras.KerasTensor((None, 4))
    with Refuse("ch06-node", refused):
        node = MyNode(dense, call_args=(inp,), outputs=first)
    expect(dense._inbound_nodes == [node], (
        f"the layer's _inbound_nodes is {dense._inbound_nodes}: append the node "
        "to layer._inbound_nodes"))
    expect(in_layer._outbound_nodes == before + [node], (
        "the InputLayer that made the input does not list the node: append it to "
        "the _outbound_nodes of the layer in each input's _keras_history"))
    expect(_history(first, "of the first call") == (dense, 0, 0), (
        f"the output's history is {_history(first, 'of the first call')}, expected "
        "(dense_a, 0, 0)"))

    # the same layer again, on its own output: node 1
    second = keras.KerasTensor((None, 4))
    with Refuse("ch06-node", refused):
        node2 = MyNode(dense, call_args=(first,), outputs=second)
    expect(dense._inbound_nodes == [node, node2], "a second call appends a second "
           "node")
    layer, node_index, _ = _history(second, "of the second call")
    expect(node_index == 1, (
        f"the second call of a layer is its node 1, got node_index {node_index}: "
        "the index of the node in layer._inbound_nodes"))
    expect(dense._outbound_nodes == [node2], (
        "the layer's own output feeds its second call: dense_a._outbound_nodes "
        f"should be [that node], is {dense._outbound_nodes}"))

    # one call, two outputs; two inputs from two layers
    split = keras.layers.Dense(4, name="split_like")
    halves = [keras.KerasTensor((None, 2)), keras.KerasTensor((None, 2))]
    other = keras.Input(shape=(4,), name="other")
    with Refuse("ch06-node", refused):
        node3 = MyNode(split, call_args=([second, other],), outputs=halves)
    indices = [_history(t, f"#{i}")[2] for i, t in enumerate(halves)]
    expect(indices == [0, 1], (
        f"the two outputs of one call have tensor_index {indices}, expected [0, 1]"))
    expect(node3 in dense._outbound_nodes and
           node3 in other._keras_history[0]._outbound_nodes, (
               "with two inputs, the node goes to the _outbound_nodes of both "
               "producers"))
    expect(dense._outbound_nodes.count(node3) == 1, "append the node once per input")
