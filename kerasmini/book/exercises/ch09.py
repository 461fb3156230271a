"""Checks of chapter 9's exercises (ops, operations and the backend)."""

import numpy as np

import kerasmini as keras
from kerasmini import ops

from ._support import Mistake, Refuse, exercise, expect, fail, fresh_name_scope


@exercise("ch09-op-class", "Cube")
def check_cube(Cube):  # noqa: N803
    op = Cube()
    x = np.array([[2.0, -1.0, 0.5], [3.0, -2.0, 1.5]])
    value = np.asarray(op(x))
    expect(np.allclose(value, x ** 3), f"Cube() on {x.tolist()} gave {value.tolist()}, "
           f"expected {(x ** 3).tolist()}")
    for shape, dtype in (((None, 3), "float32"), ((2, None, 4), "float64")):
        kt = keras.KerasTensor(shape, dtype)
        y = op(kt)
        expect(isinstance(y, keras.KerasTensor), (
            f"called on a KerasTensor Cube should return a KerasTensor, got {y!r}"))
        expect(y is not kt, "compute_output_spec returned its input: return a new "
               "KerasTensor(x.shape, x.dtype)")
        expect(tuple(y.shape) == shape, (
            f"on a KerasTensor of shape {shape} the output spec has shape "
            f"{tuple(y.shape)}: x ** 3 keeps the shape"))
        expect(str(y.dtype) == dtype, (
            f"on a {dtype} KerasTensor the output spec is {y.dtype}: keep the dtype"))
        history = getattr(y, "_keras_history", None)
        expect(history is not None and history[0] is op and op._inbound_nodes, (
            "no node was recorded: keep Operation's own __init__ and __call__ "
            "(call super().__init__() if you write __init__)"))


def _broadcast_by_hand(a, b):
    """The expected shape: NumPy's rule for known sizes; by hand for None (None
    with 1 or None stays None, None with a known size k > 1 is k)."""
    if None not in a and None not in b:
        return tuple(np.broadcast_shapes(a, b))
    cases = {((None,), (3,)): (3,), ((3,), (None,)): (3,), ((None,), (1,)): (None,),
             ((1,), (None,)): (None,), ((None, 3), (None, 3)): (None, 3),
             ((None, 1, 3), (4, 1)): (None, 4, 3), ((5,), (None, 1)): (None, 5),
             ((4, None), (4, 7)): (4, 7), ((None, 1), (2, None)): (2, None),
             ((None, None), (1, 6)): (None, 6)}
    return cases[(a, b)]


@exercise("ch09-broadcast", "broadcast_shape")
def check_broadcast(broadcast_shape):
    rng = np.random.default_rng(9)
    known = [((2, 3), (3,)), ((), (2, 2)), ((4, 1, 5), (3, 1)), ((1,), (7, 1, 2))]
    for _ in range(4):
        a = tuple(int(d) for d in rng.choice([1, 3], size=rng.integers(0, 4)))
        known.append((a, tuple(int(d) for d in rng.choice([1, 3], size=3))))
    unknown = [((None,), (3,)), ((3,), (None,)), ((None,), (1,)), ((1,), (None,)),
               ((None, 3), (None, 3)), ((None, 1, 3), (4, 1)), ((5,), (None, 1)),
               ((4, None), (4, 7)), ((None, 1), (2, None)), ((None, None), (1, 6))]
    refused = {"broadcast_shapes": "broadcast_shapes"}
    for a, b in known + unknown:
        want = _broadcast_by_hand(a, b)
        try:
            with Refuse("ch09-broadcast", refused):
                got = broadcast_shape(a, b)
        except ValueError as error:
            raise Mistake(f"{a} and {b} broadcast to {want}, but your function "
                          f"raised ValueError ({error}): align the shapes from the "
                          "right") from error
        expect(got is not None, "broadcast_shape returned None: return a tuple")
        got = tuple(got)
        where = f"{a} and {b}: expected {want}, got {got}"
        if len(got) == len(want) and got != want:
            paired = [(x, y) for x, y in zip(got, want) if x != y]
            if any(x is None and y not in (None, 1) for x, y in paired):
                fail(f"{where}: None with a known size k (not 1) gives k, the size "
                     "the values will have")
            if any(x == 1 and y is None for x, y in paired):
                fail(f"{where}: a 1 takes the other size, even an unknown one")
        if len(got) != len(want):
            fail(f"{where}: the result has the rank of the longer shape; align from "
                 "the right and pad the shorter with 1s")
        expect(got == want, where)
    for a, b in [((2, 3), (4,)), ((5, 1), (3, 2)), ((None, 2), (3,))]:
        try:
            with Refuse("ch09-broadcast", refused):
                got = broadcast_shape(a, b)
        except ValueError:
            continue
        fail(f"{a} and {b} do not broadcast: raise ValueError (got {got})")


@exercise("ch09-op-nodes", "op_nodes")
def check_op_nodes(op_nodes):
    fresh_name_scope()
    x = keras.Input((3,))
    h = ops.tanh(keras.layers.Dense(4)(x))
    joined = ops.concatenate([h, x], axis=-1)
    out = ops.relu(ops.relu(keras.layers.Dense(2)(joined)))
    # the ops made, in the order they were made (and run)
    expected = [t._keras_history[0].name for t in (h, joined)]
    expected += [out._keras_history[0]._inbound_nodes[0].keras_inputs[0]
                 ._keras_history[0].name, out._keras_history[0].name]
    model = keras.Model(x, out)
    got = op_nodes(model)
    expect(got is not None, "op_nodes returned None: return a list of names")
    got = list(got)
    if got and not isinstance(got[0], str):
        fail(f"got {got[:2]}...: return the operations' names, op.name")
    layers = {layer.name for layer in model.layers}
    if set(got) & layers:
        fail(f"got {got}: {sorted(set(got) & layers)} are layers; keep the operations "
             "that are not keras.Layer instances")
    if sorted(got) == sorted(expected) and got != expected:
        fail(f"expected {expected}, got {got}: keep the order of model.operations")
    expect(got == expected, f"expected {expected}, got {got}")
    y = keras.Input((2,))
    expect(list(op_nodes(keras.Model(y, keras.layers.Dense(1)(y)))) == [], (
        "a model of layers only has no op nodes"))
