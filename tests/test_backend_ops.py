"""Every gradient rule of the backend (``numpy.py``, ``numpy_extra.py``,
``nn.py``, ``convolution.py`` and ``pooling.py``) against central finite differences (float64), plus forward values
against NumPy.

``check_grads(fn, *args)`` draws a random cotangent ``v`` for the output and
compares ``tape.gradient(sum(fn(*args) * v), args)`` with
``(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)`` for ``f = sum(fn(...) * v)``.
Each gradient test is marked ``@covers("op_name", ...)``, and
``test_registry_covers_every_differentiable_primitive`` fails when a primitive
with gradient rules has no such test.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kerasmini.backend import (
    GradientTape,
    Primitive,
    convolution,
    image,
    image_resize,
    nn,
    numpy_extra,
    pooling,
)
from kerasmini.backend import math as bmath
from kerasmini.backend import numpy as bnp
from kerasmini.backend.validation import check_tuple

EPS = 1e-6
COVERED = set()


def covers(*names):
    """Register the primitives a test checks the gradients of."""

    def mark(test):
        COVERED.update(names)
        return test

    return mark


def numeric_grad(fn, args, index, v, eps=EPS):
    """Central differences of ``sum(fn(*args) * v)`` for ``args[index]``."""
    x = args[index]
    grad = np.zeros(x.shape)
    for j in range(x.size):
        total = 0.0
        for sign in (1.0, -1.0):
            moved = x.copy()
            moved.flat[j] += sign * eps
            shifted = list(args)
            shifted[index] = moved
            total += sign * np.sum(np.asarray(fn(*shifted)) * v)
        grad.flat[j] = total / (2 * eps)
    return grad


def check_grads(fn, *args, wrt=None, seed=0, rtol=1e-5, atol=1e-7):
    """Assert the tape's gradients of ``fn`` match finite differences.

    ``wrt`` lists the argument positions to check (default: every float
    array argument). Returns the names of the primitives that were recorded.
    """
    args = [
        np.array(a, dtype=np.float64) if np.asarray(a).dtype.kind == "f" else a
        for a in args
    ]
    if wrt is None:
        wrt = [i for i, a in enumerate(args) if np.asarray(a).dtype.kind == "f"]
    rng = np.random.default_rng(seed)
    v = rng.normal(size=np.shape(fn(*args)))
    sources = [args[i] for i in wrt]
    with GradientTape() as tape:
        tape.watch(sources)
        loss = bnp.sum(bnp.multiply(fn(*args), v))
    recorded = {record.primitive.name for record in tape.records}
    grads = tape.gradient(loss, sources)
    for i, grad in zip(wrt, grads):
        assert grad is not None, f"no gradient for argument {i}"
        assert np.shape(grad) == args[i].shape, f"gradient shape for argument {i}"
        np.testing.assert_allclose(
            np.asarray(grad),
            numeric_grad(fn, args, i, v),
            rtol=rtol,
            atol=atol,
            err_msg=f"gradient for argument {i}",
        )
    return recorded


def normal(rng, shape, scale=1.0):
    return rng.normal(size=shape) * scale


def positive(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def wide(rng, shape):
    return normal(rng, shape, 3.0)


def away_from_zero(rng, shape):
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.2, 2.0, size=shape)


# ------------------------------------------------------------- the checker


def test_check_grads_detects_a_wrong_rule(monkeypatch):
    monkeypatch.setattr(bnp.exp, "vjps", (lambda g, ans, x: g,))  # forgot * e^x
    with pytest.raises(AssertionError, match="argument 0"):
        check_grads(bnp.exp, np.linspace(-1.0, 1.0, 5))


def test_check_grads_detects_a_rule_off_by_a_tenth_of_a_percent(monkeypatch):
    input_rule, filter_rule = convolution.conv_prim.vjps

    def off_filter_rule(g, ans, x, k, **params):
        return bnp.multiply(filter_rule(g, ans, x, k, **params), 1.001)

    monkeypatch.setattr(convolution.conv_prim, "vjps", (input_rule, off_filter_rule))
    rng = np.random.default_rng(0)
    with pytest.raises(AssertionError, match="argument 1"):
        check_grads(nn.conv2d, normal(rng, (1, 4, 4, 2)), normal(rng, (2, 2, 2, 1)))


def test_check_grads_detects_a_missing_rule(monkeypatch):
    monkeypatch.setattr(bnp.multiply, "vjps", (bnp.multiply.vjps[0], None))
    with pytest.raises(AssertionError, match="no gradient for argument 1"):
        check_grads(bnp.multiply, np.ones(3), np.ones(3))


def _differentiable(module):
    return {
        obj.name
        for obj in vars(module).values()
        if isinstance(obj, Primitive) and obj.vjps is not None
    }


def test_registry_covers_every_differentiable_primitive():
    names = set().union(*(_differentiable(module) for module in (
        bnp, nn, numpy_extra, convolution, pooling, bmath, image)))
    assert {"add", "getitem", "scatter", "conv", "max_pool_gather",
            "depthwise_conv", "erf", "resize", "fft2", "tensordot"} <= names
    missing = sorted(names - COVERED)
    assert not missing, (
        f"primitives with gradient rules but no gradient test: {missing}"
    )


# ------------------------------------------------------- binary elementwise


def _normals(rng, shapes):
    return normal(rng, shapes[0]), normal(rng, shapes[1])


def _nonzero_divisor(rng, shapes):
    return normal(rng, shapes[0]), away_from_zero(rng, shapes[1])


def _positive_base(rng, shapes):
    return positive(rng, shapes[0]), normal(rng, shapes[1])


def _distinct(rng, shapes):
    x, y = _normals(rng, shapes)
    assume(np.all(np.abs(x - y) > 1e-3))  # max/min have a kink at ties
    return x, y


BINARY = {  # name: (op, NumPy reference, input maker)
    "add": (bnp.add, np.add, _normals),
    "subtract": (bnp.subtract, np.subtract, _normals),
    "multiply": (bnp.multiply, np.multiply, _normals),
    "divide": (bnp.divide, np.divide, _nonzero_divisor),
    "power": (bnp.power, np.power, _positive_base),
    "maximum": (bnp.maximum, np.maximum, _distinct),
    "minimum": (bnp.minimum, np.minimum, _distinct),
}


@covers(*BINARY)
@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=25, deadline=None, database=None)
@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
    seed=st.integers(0, 2**32 - 1),
)
def test_binary_ops_match_numpy_and_finite_differences(name, shapes, seed):
    op, reference, make = BINARY[name]
    x, y = make(np.random.default_rng(seed), shapes.input_shapes)
    np.testing.assert_allclose(op(x, y), reference(x, y), rtol=1e-12)
    assert name in check_grads(op, x, y, seed=seed)


def test_binary_ops_keep_float32_with_python_numbers():
    x = np.ones(3, "float32")
    for out in (
        bnp.multiply(x, 2),
        bnp.subtract(1, x),
        bnp.power(x, 2),
        bnp.divide(x, 3.0),
        bnp.where(x > 0, x, 0.0),
    ):
        assert out.dtype == np.float32


# -------------------------------------------------------- unary elementwise

UNARY = {  # name: (op, NumPy reference, input maker)
    "negative": (bnp.negative, np.negative, normal),
    "exp": (bnp.exp, np.exp, normal),
    "log": (bnp.log, np.log, positive),
    "log1p": (bnp.log1p, np.log1p, positive),
    "sqrt": (bnp.sqrt, np.sqrt, positive),
    "square": (bnp.square, np.square, normal),
    "abs": (bnp.abs, np.abs, away_from_zero),
    "tanh": (bnp.tanh, np.tanh, normal),
    "sigmoid": (nn.sigmoid, lambda x: 1 / (1 + np.exp(-x)), wide),
    "relu": (nn.relu, lambda x: np.maximum(x, 0), away_from_zero),
    "softplus": (nn.softplus, lambda x: np.log1p(np.exp(x)), wide),
    "identity": (bnp.identity, lambda x: x, normal),
}


@covers(*UNARY)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_match_numpy_and_finite_differences(name):
    op, reference, make = UNARY[name]
    x = make(np.random.default_rng(1), (3, 4))
    np.testing.assert_allclose(op(x), reference(x), rtol=1e-12)
    assert name in check_grads(op, x)


def test_sigmoid_and_softplus_do_not_overflow_for_large_inputs():
    x = np.array([-1000.0, 0.0, 1000.0], "float32")
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        np.testing.assert_allclose(nn.sigmoid(x), [0.0, 0.5, 1.0])
        np.testing.assert_allclose(nn.softplus(x), [0.0, np.log(2.0), 1000.0])


@covers("clip")
def test_clip_passes_gradient_inside_the_range_only():
    x = np.array([-2.0, -0.5, 0.3, 0.9, 3.0])
    np.testing.assert_allclose(bnp.clip(x, -1.0, 1.0), np.clip(x, -1.0, 1.0))
    check_grads(lambda t: bnp.clip(t, -1.0, 1.0), x)
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.sum(bnp.clip(x, -1.0, 1.0))
    np.testing.assert_array_equal(tape.gradient(y, x), [0, 1, 1, 1, 0])
    np.testing.assert_array_equal(bnp.clip(2.0, np.zeros(2), np.ones(2)), [1.0, 1.0])
    bounds = np.array([[-1.0], [0.0]])  # (2, 1): broadcasts x to (2, 5)
    check_grads(lambda t: bnp.clip(t, bounds, bounds + 1.5), x)


@covers("where")
def test_where_routes_gradients_by_the_condition_with_broadcasting():
    rng = np.random.default_rng(2)
    cond = rng.random((3, 4)) > 0.5
    x, y = normal(rng, (3, 1)), normal(rng, (4,))
    np.testing.assert_allclose(bnp.where(cond, x, y), np.where(cond, x, y))
    check_grads(lambda a, b: bnp.where(cond, a, b), x, y)


@covers("cast")
def test_cast_between_floats_passes_gradients_back_in_the_source_dtype():
    x = np.linspace(-1.0, 1.0, 4)
    check_grads(lambda t: bnp.cast(t, "float64"), x)
    v = np.arange(4.0, dtype="float32")
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.sum(bnp.multiply(bnp.cast(x, "float32"), v))
    grad = tape.gradient(y, x)
    assert grad.dtype == np.float64
    np.testing.assert_array_equal(grad, v)


def test_cast_to_int_has_no_gradient():
    x = np.array([1.5, 2.5])
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.sum(bnp.cast(x, "int32"))
    assert tape.gradient(y, x) is None


# ---------------------------------------------------------------- reductions

REDUCTIONS = {  # name: (op, NumPy reference)
    "sum": (bnp.sum, np.sum),
    "mean": (bnp.mean, np.mean),
    "max": (bnp.max, np.max),
    "min": (bnp.min, np.min),
    "logsumexp": (
        bnp.logsumexp,
        lambda x, axis, keepdims: np.log(np.sum(np.exp(x), axis, keepdims=keepdims)),
    ),
}


@covers(*REDUCTIONS)
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@settings(max_examples=25, deadline=None, database=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_reductions_match_numpy_and_finite_differences(name, data, seed):
    op, reference = REDUCTIONS[name]
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), "shape")
    ndim = len(shape)
    axis = data.draw(
        st.none()
        | st.integers(-ndim, ndim - 1)
        | hnp.valid_tuple_axes(ndim, min_size=1),
        "axis",
    )
    keepdims = data.draw(st.booleans(), "keepdims")
    x = normal(np.random.default_rng(seed), shape)  # continuous: no ties for max/min
    out = op(x, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(
        out, reference(x, axis=axis, keepdims=keepdims), rtol=1e-12
    )
    assert name in check_grads(
        lambda t: op(t, axis=axis, keepdims=keepdims), x, seed=seed
    )


def test_max_gradient_is_shared_between_ties():
    x = np.array([1.0, 3.0, 3.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.max(x)
    np.testing.assert_array_equal(tape.gradient(y, x), [0.0, 0.5, 0.5, 0.0])


@covers("softmax", "log_softmax")
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_and_log_softmax_match_numpy_and_finite_differences(axis):
    x = normal(np.random.default_rng(3), (3, 4, 2), 2.0)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    expected = e / e.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(nn.softmax(x, axis=axis), expected, rtol=1e-12)
    np.testing.assert_allclose(
        nn.log_softmax(x, axis=axis), np.log(expected), rtol=1e-12
    )
    check_grads(lambda t: nn.softmax(t, axis=axis), x)
    check_grads(lambda t: nn.log_softmax(t, axis=axis), x)


@covers("sparse_softmax_crossentropy")
@pytest.mark.parametrize("shape", [(5, 4), (2, 3, 6)])
def test_sparse_softmax_crossentropy_matches_one_hot_form_and_finite_differences(
        shape):
    rng = np.random.default_rng(4)
    logits = normal(rng, shape, 3.0)
    labels = rng.integers(0, shape[-1], size=shape[:-1])
    one_hot = np.eye(shape[-1])[labels]
    expected = -(one_hot * nn.log_softmax(logits)).sum(axis=-1)
    np.testing.assert_allclose(nn.sparse_softmax_crossentropy(labels, logits),
                               expected, rtol=1e-12)
    check_grads(lambda t: nn.sparse_softmax_crossentropy(labels, t), logits)


def test_sparse_softmax_crossentropy_gradient_is_softmax_minus_one_hot():
    logits = np.array([[2.0, -1.0, 0.5], [0.0, 0.0, 0.0]])
    labels = np.array([0, 2])
    with GradientTape() as tape:
        tape.watch(logits)
        loss = bnp.sum(nn.sparse_softmax_crossentropy(labels, logits))
    expected = nn.softmax(logits) - np.eye(3)[labels]
    np.testing.assert_allclose(tape.gradient(loss, logits), expected, rtol=1e-12)


def test_sparse_softmax_crossentropy_second_order_matches_finite_differences():
    # the gradient rule is written with primitives: differentiate it again
    logits = normal(np.random.default_rng(5), (3, 4), 1.0)
    labels = np.array([1, 0, 3])

    def grad_of_loss(t):
        with GradientTape() as tape:
            tape.watch(t)
            loss = bnp.sum(nn.sparse_softmax_crossentropy(labels, t))
        return tape.gradient(loss, t)

    check_grads(grad_of_loss, logits)


# ------------------------------------------------------------ linear algebra

MATMUL_SHAPES = [
    ((3, 4), (4, 5)),  # 2-D
    ((2, 3, 4), (2, 4, 5)),  # batched
    ((2, 3, 4), (4, 5)),  # batched @ shared matrix
    ((3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (3, 4, 2)),  # batch dims broadcast both ways
    ((4,), (4,)),  # 1-D cases
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((4,), (2, 4, 5)),
    ((2, 3, 4), (4,)),
]


@covers("matmul")
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_matches_numpy_and_finite_differences(shapes):
    rng = np.random.default_rng(4)
    x, y = normal(rng, shapes[0]), normal(rng, shapes[1])
    np.testing.assert_allclose(bnp.matmul(x, y), np.matmul(x, y), rtol=1e-12)
    check_grads(bnp.matmul, x, y)


# --------------------------------------------------------------------- shape

SHAPE_OPS = {  # id: (function of one array, input shape)
    "reshape": (lambda t: bnp.reshape(t, (4, -1)), (2, 3, 2)),
    "transpose_default": (bnp.transpose, (2, 3, 4)),
    "transpose_axes": (lambda t: bnp.transpose(t, (1, 2, 0)), (2, 3, 4)),
    "transpose_negative_axes": (lambda t: bnp.transpose(t, (-1, 0, 1)), (2, 3, 4)),
    "swapaxes": (lambda t: bnp.swapaxes(t, 0, -1), (2, 3, 4)),
    "expand_dims": (lambda t: bnp.expand_dims(t, 1), (2, 3)),
    "squeeze_axis": (lambda t: bnp.squeeze(t, 1), (2, 1, 3)),
    "squeeze_all": (bnp.squeeze, (1, 3, 1)),
    "broadcast_to": (lambda t: bnp.broadcast_to(t, (2, 4, 3)), (4, 1)),
    "pad": (lambda t: bnp.pad(t, ((1, 0), (2, 1))), (2, 3)),
}


@covers("reshape", "transpose", "expand_dims", "squeeze", "broadcast_to", "pad")
@pytest.mark.parametrize("case", sorted(SHAPE_OPS))
def test_shape_ops_gradients_match_finite_differences(case):
    fn, shape = SHAPE_OPS[case]
    check_grads(fn, normal(np.random.default_rng(5), shape))


def test_shape_ops_match_numpy():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(bnp.swapaxes(x, 0, 2), np.swapaxes(x, 0, 2))
    np.testing.assert_array_equal(bnp.transpose(x, (1, 2, 0)), x.transpose(1, 2, 0))
    np.testing.assert_array_equal(
        bnp.pad(x[0], ((1, 0), (0, 2))), np.pad(x[0], ((1, 0), (0, 2)))
    )
    with pytest.raises(
        ValueError, match=r"Cannot reshape a tensor of shape \(2, 3, 4\)"
    ):
        bnp.reshape(x, (5, -1))


@covers("concatenate")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concatenate_splits_the_gradient_between_inputs(axis):
    rng = np.random.default_rng(6)
    shapes = [(2, 3, 2), (2, 3, 2), (2, 3, 2)]
    parts = [normal(rng, s) for s in shapes]
    np.testing.assert_array_equal(
        bnp.concatenate(parts, axis), np.concatenate(parts, axis)
    )
    check_grads(lambda a, b, c: bnp.concatenate([a, b, c], axis=axis), *parts)


@covers("stack")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_stack_splits_the_gradient_between_inputs(axis):
    rng = np.random.default_rng(7)
    parts = [normal(rng, (2, 3)) for _ in range(3)]
    np.testing.assert_array_equal(bnp.stack(parts, axis), np.stack(parts, axis))
    check_grads(lambda a, b, c: bnp.stack([a, b, c], axis=axis), *parts)


GETITEM_KEYS = {
    "slice": (slice(1, 3), slice(None, None, 2)),
    "reversed": (slice(None, None, -1), 1),
    "int": 2,
    "ellipsis_newaxis": (Ellipsis, None, slice(0, 2)),
    "int_array_repeats": np.array([0, 2, 2, 0, 2]),
    "int_arrays_pairs": (np.array([0, 0, 3]), np.array([1, 1, 2])),
    "slice_and_array": (slice(None), np.array([[3, 3], [0, 1]])),
    "mask": np.array([True, False, True, True]),
}


@covers("getitem")
@pytest.mark.parametrize("case", sorted(GETITEM_KEYS))
def test_getitem_matches_numpy_and_finite_differences(case):
    key = GETITEM_KEYS[case]
    x = normal(np.random.default_rng(8), (4, 4))
    np.testing.assert_array_equal(bnp.getitem(x, key), x[key])
    check_grads(lambda t: bnp.getitem(t, key), x)


def test_getitem_gradient_adds_up_repeated_indices():
    x = np.zeros(3)
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.sum(bnp.getitem(x, np.array([0, 0, 0, 2])))
    np.testing.assert_array_equal(tape.gradient(y, x), [3.0, 0.0, 1.0])


@covers("scatter")
def test_scatter_into_is_differentiable():
    key = (slice(None), np.array([0, 2, 2]))
    check_grads(
        lambda g: bnp.scatter_into(g, (2, 4), key),
        normal(np.random.default_rng(9), (2, 3)),
    )


@covers("take")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_matches_numpy_and_finite_differences(axis):
    x = normal(np.random.default_rng(10), (3, 4, 2))
    indices = np.array([[0, 1], [1, 1]])  # 2-D, with repeats
    np.testing.assert_array_equal(
        bnp.take(x, indices, axis=axis), np.take(x, indices, axis=axis)
    )
    check_grads(lambda t: bnp.take(t, indices, axis=axis), x)


@covers("take_scatter")
def test_take_gradient_is_itself_differentiable():
    indices = np.array([2, 0, 2])
    check_grads(
        lambda g: bnp._take_scatter(g, indices, shape=(4, 3), axis=0),
        normal(np.random.default_rng(11), (3, 3)),
    )


# ----------------------------------------------------- convolution, pooling

CONV_CASES = [  # (padding, strides, dilation_rate)
    ("valid", 1, 1),
    ("same", 1, 1),
    ("valid", 2, 1),
    ("same", 2, 1),
    ("same", (2, 1), 1),
    ("valid", 1, 2),
    ("same", 1, (2, 1)),
]


@covers("conv")
@pytest.mark.parametrize("padding,strides,dilation", CONV_CASES, ids=str)
def test_conv2d_gradients_match_finite_differences(padding, strides, dilation):
    rng = np.random.default_rng(12)
    x, kernel = normal(rng, (2, 6, 5, 3)), normal(rng, (3, 2, 3, 2))
    check_grads(lambda a, k: nn.conv2d(a, k, strides, padding, dilation), x, kernel)


@covers("conv_backprop_input", "conv_backprop_filter")
@pytest.mark.parametrize("padding,strides,dilation", CONV_CASES[:4], ids=str)
def test_conv2d_backprops_are_differentiable(padding, strides, dilation):
    rng = np.random.default_rng(13)
    x, kernel = normal(rng, (2, 5, 5, 2)), normal(rng, (3, 3, 2, 2))
    g = normal(rng, np.shape(nn.conv2d(x, kernel, strides, padding, dilation)))
    check_grads(
        lambda a, k: nn.conv2d_backprop_input(
            a, k, x.shape, strides, padding, dilation
        ),
        g,
        kernel,
    )
    check_grads(
        lambda a, b: nn.conv2d_backprop_filter(
            a, b, kernel.shape, strides, padding, dilation
        ),
        x,
        g,
    )


def test_conv2d_second_order_gradients_match_finite_differences():
    def input_gradient(x, kernel):
        with GradientTape() as tape:
            tape.watch(x)
            y = bnp.sum(bnp.tanh(nn.conv2d(x, kernel, 2, "same")))
        return tape.gradient(y, x)

    rng = np.random.default_rng(14)
    check_grads(input_gradient, normal(rng, (1, 5, 5, 2)), normal(rng, (3, 3, 2, 2)))


POOL_CASES = [  # (pool_size, strides, padding)
    (2, None, "valid"),
    (2, None, "same"),
    (3, 1, "same"),
    (3, 2, "valid"),
    ((2, 3), (1, 2), "same"),
]


@covers("max_pool", "avg_pool")
@pytest.mark.parametrize("pool,strides,padding", POOL_CASES, ids=str)
def test_pooling_gradients_match_finite_differences(pool, strides, padding):
    x = normal(np.random.default_rng(15), (2, 5, 7, 3))  # odd sizes: real padding
    check_grads(lambda t: nn.max_pool2d(t, pool, strides, padding), x)
    check_grads(lambda t: nn.avg_pool2d(t, pool, strides, padding), x)


@covers("max_pool_backprop", "max_pool_gather", "avg_pool_backprop")
@pytest.mark.parametrize("pool,strides,padding", POOL_CASES, ids=str)
def test_pooling_backprops_are_differentiable(pool, strides, padding):
    rng = np.random.default_rng(16)
    x = normal(rng, (2, 5, 7, 3))
    p = {
        "pool_size": check_tuple(pool, 2, "pool"),
        "padding": padding,
        "strides": check_tuple(strides or pool, 2, "strides"),
    }
    g = normal(rng, np.shape(nn.max_pool2d(x, pool, strides, padding)))
    check_grads(lambda a, b: pooling.max_pool_backprop(a, b, **p), x, g, wrt=[1])
    check_grads(
        lambda a, u: pooling.max_pool_gather(a, u, **p), x, normal(rng, x.shape),
        wrt=[1]
    )
    check_grads(lambda b: pooling.avg_pool_backprop(b, input_shape=x.shape, **p), g)


# every rank: sequences (1 spatial axis) and volumes (3), then depthwise
RANK_CASES = [  # (x shape, kernel size, strides, padding, dilation)
    ((2, 7, 3), (3,), 1, "valid", 1),
    ((2, 7, 3), (2,), 2, "same", 1),
    ((2, 8, 2), (3,), 1, "same", 2),
    ((1, 4, 5, 4, 2), (2, 3, 2), 1, "valid", 1),
    ((1, 5, 4, 3, 2), (3, 2, 2), (2, 1, 2), "same", 1),
    ((1, 6, 4, 4, 1), (2, 2, 2), 1, "same", (2, 1, 1)),
]


@pytest.mark.parametrize("shape,size,strides,padding,dilation", RANK_CASES, ids=str)
def test_conv_of_sequences_and_volumes_gradients(shape, size, strides, padding,
                                                 dilation):
    rng = np.random.default_rng(17)
    x, kernel = normal(rng, shape), normal(rng, size + (shape[-1], 2))
    check_grads(lambda a, k: convolution.conv(a, k, strides, padding, dilation),
                x, kernel)
    g = normal(rng, np.shape(convolution.conv(x, kernel, strides, padding,
                                              dilation)))
    check_grads(lambda a, k: convolution.conv_backprop_input(
        a, k, x.shape, strides, padding, dilation), g, kernel)


@covers("depthwise_conv", "depthwise_conv_backprop_input",
        "depthwise_conv_backprop_filter")
@pytest.mark.parametrize("shape,size,strides,padding,dilation", RANK_CASES + [
    ((2, 5, 6, 3), (3, 2), 1, "same", 1),
    ((2, 6, 5, 2), (2, 2), 2, "valid", 1),
    ((1, 6, 6, 2), (2, 3), (1, 2), "same", (2, 1)),
], ids=str)
def test_depthwise_conv_gradients(shape, size, strides, padding, dilation):
    rng = np.random.default_rng(18)
    x, kernel = normal(rng, shape), normal(rng, size + (shape[-1], 2))

    def depthwise(a, k):
        return convolution.depthwise_conv(a, k, strides, padding, dilation)

    check_grads(depthwise, x, kernel)
    g = normal(rng, np.shape(depthwise(x, kernel)))
    params = convolution.conv_params(len(size), strides, padding, dilation)
    check_grads(lambda a, k: convolution.depthwise_conv_backprop_input_prim(
        a, k, input_shape=x.shape, **params), g, kernel)
    check_grads(lambda a, b: convolution.depthwise_conv_backprop_filter_prim(
        a, b, kernel_shape=kernel.shape, **params), x, g)


def test_depthwise_conv_is_a_conv_per_channel():
    # channel c through kernel m is output channel c * M + m (Keras's order)
    rng = np.random.default_rng(19)
    x, kernel = rng.normal(size=(2, 6, 5, 3)), rng.normal(size=(3, 2, 3, 2))
    y = convolution.depthwise_conv(x, kernel, 1, "same")
    for c in range(3):
        for m in range(2):
            one = convolution.conv(x[..., c:c + 1], kernel[:, :, c:c + 1, m:m + 1],
                                   1, "same")
            np.testing.assert_allclose(y[..., c * 2 + m], one[..., 0], atol=1e-12)


@pytest.mark.parametrize("shape,pool,strides,padding", [
    ((2, 7, 3), 2, None, "valid"),
    ((2, 7, 3), 3, 2, "same"),
    ((1, 5, 4, 3, 2), 2, None, "valid"),
    ((1, 5, 4, 3, 2), (3, 2, 2), (2, 1, 2), "same"),
], ids=str)
def test_pooling_of_sequences_and_volumes_gradients(shape, pool, strides, padding):
    x = normal(np.random.default_rng(20), shape)
    check_grads(lambda t: pooling.max_pool(t, pool, strides, padding), x)
    check_grads(lambda t: pooling.avg_pool(t, pool, strides, padding), x)


# ----------------------------------------------- numpy_extra (keras.ops set)


@covers("sin", "cos", "expm1")
@pytest.mark.parametrize("fn", [numpy_extra.sin, numpy_extra.cos, numpy_extra.expm1])
def test_trigonometry_and_expm1_gradients(fn):
    check_grads(fn, np.random.default_rng(3).normal(size=(2, 3)))


@covers("einsum")
@pytest.mark.parametrize("spec, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("ij,jk,k->i", [(2, 3), (3, 4), (4,)]),
    ("ij->j", [(3, 2)]),            # a letter summed out of one operand
    ("ij,kl->ijkl", [(2, 2), (2, 3)]),
    ("ij,jk", [(2, 3), (3, 2)]),    # implicit output
    ("...i,ij->...j", [(2, 4, 3), (3, 2)]),  # "..." for the leading axes
    ("ab...,bc->ac...", [(2, 3, 4), (3, 2)]),  # ... and for trailing ones
    ("...i,i", [(2, 3), (3,)]),     # implicit output after "..."
])
def test_einsum_gradients(spec, shapes):
    rng = np.random.default_rng(4)
    args = [rng.normal(size=s) for s in shapes]
    check_grads(lambda *xs: numpy_extra.einsum(spec, *xs), *args)
    np.testing.assert_allclose(numpy_extra.einsum(spec, *args), np.einsum(spec, *args))


def test_einsum_refuses_stray_dots_and_repeated_letters():
    with pytest.raises(ValueError, match="outside a '...'"):
        numpy_extra.einsum("i.,i", np.ones((2, 3)), np.ones(3))
    with pytest.raises(ValueError, match="fewer axes than its subscripts"):
        numpy_extra.einsum("...ij,j", np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="repeated within one operand"):
        numpy_extra.einsum("ii->i", np.ones((2, 2)))


@covers("cumsum", "flip")
@pytest.mark.parametrize("axis", [0, 1])
def test_cumsum_and_flip_gradients(axis):
    x = np.random.default_rng(5).normal(size=(3, 4))
    check_grads(lambda v: numpy_extra.cumsum(v, axis=axis), x)
    check_grads(lambda v: numpy_extra.flip(v, axis=axis), x)


@covers("tile")
@pytest.mark.parametrize("shape, reps", [((2, 3), (2, 1)), ((3,), (2,)),
                                         ((2, 3), (2, 2, 2))])
def test_tile_gradient(shape, reps):
    x = np.random.default_rng(6).normal(size=shape)
    check_grads(lambda v: numpy_extra.tile(v, reps=reps), x)
    np.testing.assert_array_equal(numpy_extra.tile(x, reps=reps), np.tile(x, reps))


INVERSE_TRIG = {  # name: (op, NumPy reference, inputs inside the domain)
    "arcsin": (numpy_extra.arcsin, np.arcsin, lambda r: r.uniform(-0.9, 0.9, (2, 3))),
    "arccos": (numpy_extra.arccos, np.arccos, lambda r: r.uniform(-0.9, 0.9, (2, 3))),
    "arctan": (numpy_extra.arctan, np.arctan, lambda r: r.normal(size=(2, 3)) * 2),
    "arcsinh": (numpy_extra.arcsinh, np.arcsinh, lambda r: r.normal(size=(2, 3)) * 2),
    "arccosh": (numpy_extra.arccosh, np.arccosh, lambda r: r.uniform(1.2, 4.0, (2, 3))),
    "arctanh": (numpy_extra.arctanh, np.arctanh, lambda r: r.uniform(-0.9, 0.9, (2, 3))),
}


@covers(*INVERSE_TRIG)
@pytest.mark.parametrize("name", sorted(INVERSE_TRIG))
def test_inverse_trigonometry_gradients(name):
    op, reference, make = INVERSE_TRIG[name]
    x = make(np.random.default_rng(7))
    np.testing.assert_allclose(op(x), reference(x), rtol=1e-12)
    assert name in check_grads(op, x)


def test_ceil_has_no_gradient_and_matches_numpy():
    x = np.random.default_rng(8).normal(size=(3,)) * 3
    np.testing.assert_array_equal(numpy_extra.ceil(x), np.ceil(x))
    assert numpy_extra.ceil.vjps is None


@covers("erf")
def test_erf_matches_math_erf_to_double_precision_and_its_gradient():
    import math
    x = np.concatenate([np.linspace(-7, 7, 2001), [0.0, 1e-300, -1e-8, 2.0, -2.0]])
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(bmath.erf(x), expected, rtol=1e-14, atol=1e-15)
    assert bmath.erf(np.ones(2, "float32")).dtype == np.float32
    check_grads(bmath.erf, np.random.default_rng(9).normal(size=(3, 4)) * 1.5)
    check_grads(bmath.erf, np.array([-3.0, -2.5, 2.1, 3.5]))  # the far branch


@covers("tensordot")
@pytest.mark.parametrize("shapes, axes", [
    (((2, 3, 4), (3, 4, 5)), 2),
    (((2, 3), (3, 4)), 1),
    (((2, 3), (4, 5)), 0),
    (((2, 3, 4), (4, 2, 5)), ([0, 2], [1, 0])),   # pairs out of order
    (((3, 2, 4), (4, 3)), ([2, 0], [0, 1])),
])
def test_tensordot_matches_numpy_and_finite_differences(shapes, axes):
    rng = np.random.default_rng(10)
    x1, x2 = rng.normal(size=shapes[0]), rng.normal(size=shapes[1])
    np.testing.assert_allclose(numpy_extra.tensordot(x1, x2, axes),
                               np.tensordot(x1, x2, axes), rtol=1e-12)
    assert "tensordot" in check_grads(
        lambda a, b: numpy_extra.tensordot(a, b, axes), x1, x2)


@covers("repeat", "repeat_fold")
@pytest.mark.parametrize("repeats, axis", [(2, 0), (3, 1), ((1, 0, 2), 1), ((2, 1), 0)])
def test_repeat_and_its_fold_are_adjoint_and_match_finite_differences(repeats, axis):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(2, 3))
    out = numpy_extra.repeat(x, repeats=repeats, axis=axis)
    np.testing.assert_array_equal(out, np.repeat(x, repeats, axis=axis))
    check_grads(lambda v: numpy_extra.repeat(v, repeats=repeats, axis=axis), x)
    fold = numpy_extra._repeat_fold
    check_grads(lambda g: fold(g, repeats=repeats, axis=axis, size=x.shape[axis]),
                rng.normal(size=out.shape))


@covers("roll")
def test_roll_gradient():
    x = np.random.default_rng(12).normal(size=(3, 4))
    np.testing.assert_array_equal(numpy_extra.roll(x, shift=(1, -2), axis=(0, 1)),
                                  np.roll(x, (1, -2), axis=(0, 1)))
    check_grads(lambda v: numpy_extra.roll(v, shift=(1, -2), axis=(0, 1)), x)


@covers("take_along_axis", "put_along_axis")
def test_take_along_axis_and_its_scatter_are_adjoint():
    rng = np.random.default_rng(13)
    x = rng.normal(size=(2, 4))
    indices = np.array([[3, 0, 3], [1, 1, 2]])  # a repeated index adds up
    np.testing.assert_array_equal(numpy_extra.take_along_axis(x, indices, axis=-1),
                                  np.take_along_axis(x, indices, -1))
    check_grads(lambda v: numpy_extra.take_along_axis(v, indices, axis=-1), x, wrt=[0])
    put = numpy_extra._put_along_axis
    check_grads(lambda g: put(g, indices, shape=x.shape, axis=-1),
                rng.normal(size=indices.shape), wrt=[0])


@covers("dynamic_slice", "slice_scatter")
def test_dynamic_slice_and_its_scatter_are_adjoint():
    rng = np.random.default_rng(14)
    x, start = rng.normal(size=(4, 5)), np.array([1, 2])
    np.testing.assert_array_equal(numpy_extra.dynamic_slice(x, start, shape=(2, 3)),
                                  x[1:3, 2:5])
    check_grads(lambda v: numpy_extra.dynamic_slice(v, start, shape=(2, 3)), x,
                wrt=[0])
    check_grads(lambda g: numpy_extra._slice_scatter(g, start, shape=(4, 5)),
                rng.normal(size=(2, 3)), wrt=[0])
    with pytest.raises(ValueError, match="each slice must lie inside"):
        numpy_extra.dynamic_slice(x, np.array([3, 0]), shape=(2, 3))


@covers("fft2")
def test_fft2_matches_numpy_and_finite_differences():
    rng = np.random.default_rng(15)
    real, imag = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 4))
    out_real, out_imag = bmath.fft2(real, imag)
    expected = np.fft.fft2(real + 1j * imag)
    np.testing.assert_allclose(out_real, expected.real, atol=1e-12)
    np.testing.assert_allclose(out_imag, expected.imag, atol=1e-12)
    check_grads(lambda r, i: bmath.fft2_prim(r, i), real, imag)


def test_top_k_gathers_the_largest_values_and_differentiates_through_them():
    x = np.array([[1.0, 5.0, 3.0, 5.0], [0.0, -1.0, 2.0, 1.0]])
    values, indices = bmath.top_k(x, 3)
    np.testing.assert_array_equal(values, [[5.0, 5.0, 3.0], [2.0, 1.0, 0.0]])
    np.testing.assert_array_equal(indices, [[1, 3, 2], [2, 3, 0]])  # ties: first first
    check_grads(lambda v: bmath.top_k(v, 2)[0], np.random.default_rng(16).normal(
        size=(3, 5)))


@covers("resize")
@pytest.mark.parametrize("interpolation", image.INTERPOLATIONS)
@pytest.mark.parametrize("antialias", [False, True])
def test_resize_is_linear_and_its_gradient_is_the_transposed_weights(
        interpolation, antialias):
    rng = np.random.default_rng(17)
    x = rng.normal(size=(2, 5, 7, 3))
    rows = image.weights(5, 3, interpolation, antialias)
    cols = image.weights(7, 10, interpolation, antialias)
    out = image.resize(x, rows, cols)
    np.testing.assert_allclose(out, np.einsum("hH,nHWc,wW->nhwc", rows, x, cols),
                               rtol=1e-12, atol=1e-12)
    check_grads(lambda v: image.resize(v, rows, cols), x, wrt=[0])


# Resizing (the Resizing layer and image_dataset_from_directory) uses
# TensorFlow's matrices (backend/image_resize.py) with the same primitive.
@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic", "area",
                                    "lanczos3"])
def test_resize_primitive_is_image_resize_per_image(method):
    images = np.random.default_rng(0).uniform(size=(3, 5, 7, 2)).astype("float32")
    rows = image_resize.weights(4, 5, method)
    cols = image_resize.weights(9, 7, method)
    out = image.resize(images, rows, cols)
    want = np.stack([image_resize.resize(one, (4, 9), method) for one in images])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, want, atol=1e-6)


def test_resize_primitive_of_integers_is_float32_and_exact():
    rows = image_resize.weights(2, 4, "bilinear")
    out = image.resize(np.full((1, 4, 4, 1), 7, "uint8"), rows, rows)
    assert out.dtype == np.float32 and (out == 7).all()


def test_resize_primitive_gradient_with_tensorflow_matrices():
    rows = image_resize.weights(3, 4, "bicubic")
    cols = image_resize.weights(5, 3, "bilinear")
    check_grads(lambda v: image.resize(v, rows, cols),
                np.random.default_rng(1).normal(size=(2, 4, 3, 2)), wrt=[0])


@pytest.mark.parametrize("interpolation", image.INTERPOLATIONS)
@pytest.mark.parametrize("sizes", [(4, 2), (3, 7), (6, 6), (5, 3)])
def test_resize_weights_keep_constant_images_constant(interpolation, sizes):
    rows = image.weights(sizes[0], sizes[1], interpolation)
    np.testing.assert_allclose(rows.sum(axis=1), 1.0, rtol=1e-12)
    if sizes[0] == sizes[1] and not interpolation.startswith("lanczos"):
        np.testing.assert_allclose(rows, np.eye(sizes[0]), atol=1e-12)


def test_area_resize_averages_whole_blocks():
    rows = image.weights(6, 3, "area")
    np.testing.assert_allclose(rows, np.kron(np.eye(3), [[0.5, 0.5]]))
    third = image.weights(3, 2, "area")  # each output covers 1.5 pixels
    np.testing.assert_allclose(third, [[2 / 3, 1 / 3, 0], [0, 1 / 3, 2 / 3]])
