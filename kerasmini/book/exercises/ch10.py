"""Checks of chapter 10's exercises (gradients and the tape)."""

import numpy as np

import kerasmini as keras
from kerasmini import ops

from ._support import Mistake, Refuse, exercise, expect, fail


def _numeric_gradient(f, x, eps=1e-6):
    """Central differences of the scalar ``f`` at ``x``, element by element."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        grad[index] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad


@exercise("ch10-cube-rule", "the gradient rule of cube")
def check_cube_rule(cube):
    rng = np.random.default_rng(10)
    x = np.array([[-1.5, 0.5], [2.0, 3.0]])
    weights = rng.normal(size=x.shape)  # the upstream gradient g is these, not 1

    def loss(v):
        return ops.sum(ops.multiply(cube(v), weights))

    with keras.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    grad = tape.gradient(y, x)
    expect(grad is not None, "no gradient: attach the rule with cube.defvjp")
    grad = np.asarray(grad)
    numeric = _numeric_gradient(lambda v: float(np.sum(v ** 3 * weights)), x)
    by_hand = 3 * x ** 2 * weights  # d(sum(w * x^3))/dx
    if np.allclose(grad, 3 * x ** 2, atol=1e-5):
        fail("the rule gives 3 x^2 whatever comes from above: multiply by the "
             "incoming gradient g (the chain rule)")
    assert np.allclose(by_hand, numeric, atol=1e-4)  # the check's own arithmetic
    expect(np.allclose(grad, by_hand, atol=1e-5), (
        f"with an upstream gradient g the rule gives {np.round(grad, 4).tolist()}, "
        f"finite differences {np.round(numeric, 4).tolist()}: the rule is "
        "g * 3 x^2"))

    @keras.function
    def traced(v):
        with keras.GradientTape() as inner:
            inner.watch(v)
            out = loss(v)
        return inner.gradient(out, v)

    try:
        grad = np.asarray(traced(x))
    except TypeError as error:
        raise Mistake(f"inside kerasmini.function the rule fails ({error}): write it "
                      "with ops functions, not NumPy") from error
    expect(np.allclose(grad, by_hand, atol=1e-5), "traced, the rule gives another "
           "gradient")


def _sum_to(g, shape):
    """NumPy reference: each element of the result adds up the elements of ``g``
    that broadcasting copied from it (found by broadcasting their indices)."""
    size = int(np.prod(shape, dtype=int))
    index = np.broadcast_to(np.arange(size).reshape(shape), g.shape)
    return np.bincount(index.ravel(), weights=g.ravel(), minlength=size).reshape(shape)


@exercise("ch10-unbroadcast", "my_unbroadcast")
def check_unbroadcast(my_unbroadcast):
    rng = np.random.default_rng(11)
    cases = [((4, 3), (3,)), ((4, 3), (4, 1)), ((2, 4, 3), (1, 3)), ((2, 4, 3), ()),
             ((5,), (5,)), ((2, 4, 5, 3), (4, 1, 3)), ((3, 1, 2), (1, 1, 2))]
    refused = {"unbroadcast": "backend.numpy.unbroadcast"}
    for g_shape, shape in cases:
        g = rng.normal(size=g_shape)
        with Refuse("ch10-unbroadcast", refused):
            got = my_unbroadcast(g.copy(), shape)
        want = _sum_to(g, shape)
        where = f"g of shape {g_shape} summed to {shape}"
        expect(got is not None, "my_unbroadcast returned None: return an array")
        got_shape = np.shape(got)
        if got_shape != tuple(shape) and int(np.prod(got_shape)) == want.size:
            fail(f"{where}: got shape {got_shape}; sum axes of size 1 with "
                 "keepdims=True")
        expect(got_shape == tuple(shape), f"{where}: got shape {got_shape}")
        if g.size != want.size and np.allclose(got * (g.size // want.size), want):
            fail(f"{where}: the values are means, not sums")
        expect(np.allclose(got, want), f"{where}: wrong sums")


@exercise("ch10-live-records", "live_records")
def check_live_records(live_records):
    a = keras.Variable(np.ones(2), name="a")
    c = keras.Variable(np.ones(2), name="c")
    with keras.GradientTape(persistent=True) as tape:
        left = ops.square(a)           # 0: uses a
        right = ops.exp(c)             # 1: uses c only
        both = ops.add(left, right)    # 2: uses 0, so a
        again = ops.square(right)      # 3: uses 1 only
        total = ops.sum(both)          # 4: uses 2
        ops.multiply(again, 2.0)       # 5: uses 3 only
        ops.negative(total)            # 6: uses 4
    # worked out by hand from the comments above
    cases = [([a], [0, 2, 4, 6]), ([c], [1, 2, 3, 4, 5, 6]), ([a, c], list(range(7)))]
    for sources, want in cases:
        got = live_records(tape, sources)
        names = [s.name for s in sources]
        expect(got is not None, "live_records returned None: return a list of indices")
        got = list(got)
        if len(got) < len(want) and set(got) < set(want):
            fail(f"for the sources {names} expected {want}, got {got}: a record is "
                 "also live when one of its args is the out of an earlier live record")
        if len(got) > len(want):
            fail(f"for the sources {names} expected {want}, got {got}: a record that "
                 "uses neither a source nor a live record's out is not live")
        expect(got == want, f"for the sources {names} expected {want}, got {got}")
