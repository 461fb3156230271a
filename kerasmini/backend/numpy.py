"""The NumPy API as primitives (Keras 3's ``backend/numpy/numpy.py``): each
op a :class:`~kerasmini.backend.core.Primitive` with its gradient rule
beside it. These are what ``kerasmini.ops`` computes with on arrays; the
activations, softmax and convolutions are in :mod:`kerasmini.backend.nn`.

Every rule is ``rule(g, ans, *args, **params)``: ``g`` is the gradient that
arrives at the output ``ans``, and the rule returns the gradient for one
argument, written with these same ops (so a backward pass can be traced and
differentiated again). Broadcasting is undone in one place,
:func:`unbroadcast`.

>>> import numpy as np
>>> add(np.ones((2, 3)), np.arange(3.0))
array([[1., 2., 3.],
       [1., 2., 3.]])
"""

import numpy as np

from kerasmini.backend import config
from kerasmini.backend.core import (  # noqa: F401 (identity is an op too)
    GraphTensor,
    Primitive,
    TapeTensor,
    convert_to_tensor,
    identity,
    value_of,
)
from kerasmini.backend.variables import Variable

shape_of = np.shape  # works for arrays, Variables, GraphTensors and numbers


def _prim(name, forward, *rules, stateful=False):
    prim = Primitive(name, forward, stateful=stateful)
    if rules:
        prim.defvjp(*rules)
    return prim


def unbroadcast(g, shape):
    """Sum ``g`` down to ``shape``, undoing NumPy broadcasting.

    >>> unbroadcast(np.ones((4, 2, 3)), (1, 3))
    array([[8., 8., 8.]])
    """
    shape = tuple(shape)
    g_shape = shape_of(g)
    if g_shape == shape:
        return g
    lead = len(g_shape) - len(shape)
    inner = tuple(lead + i for i, d in enumerate(shape)
                  if d == 1 and g_shape[lead + i] != 1)
    if not inner:  # only new leading axes (a bias): one sum, no reshape
        return sum(g, axis=tuple(range(lead)))
    g = sum(g, axis=tuple(range(lead)) + inner, keepdims=True)
    return reshape(g, shape)


# ---------------------------------------------------------------- arithmetic
add = _prim(
    "add", np.add,
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),  # d(x+y)/dx = 1
    lambda g, ans, x, y: unbroadcast(g, shape_of(y)),
)
subtract = _prim(
    "subtract", np.subtract,
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),
    lambda g, ans, x, y: unbroadcast(negative(g), shape_of(y)),
)
multiply = _prim(
    "multiply", np.multiply,
    lambda g, ans, x, y: unbroadcast(multiply(g, y), shape_of(x)),  # d(xy)/dx = y
    lambda g, ans, x, y: unbroadcast(multiply(g, x), shape_of(y)),
)
divide = _prim(
    "divide", np.true_divide,
    lambda g, ans, x, y: unbroadcast(divide(g, y), shape_of(x)),  # 1/y
    lambda g, ans, x, y: unbroadcast(  # -x/y^2 = -ans/y
        negative(multiply(g, divide(ans, y))), shape_of(y)),
)
negative = _prim("negative", np.negative, lambda g, ans, x: negative(g))


def _power_grad_base(g, ans, x, y):
    # d(x^y)/dx = y x^(y-1); a Python exponent stays a (weakly typed) number
    y_minus_1 = y - 1 if type(y) in (int, float) else subtract(y, 1)
    return unbroadcast(multiply(g, multiply(y, power(x, y_minus_1))), shape_of(x))


def _power_grad_exponent(g, ans, x, y):
    # d(x^y)/dy = x^y log x, taken as 0 where x <= 0
    safe = where(greater(x, 0), x, ones_like(x))
    return unbroadcast(multiply(g, multiply(ans, log(safe))), shape_of(y))


power = _prim("power", np.power, _power_grad_base, _power_grad_exponent)
maximum = _prim(
    "maximum", np.maximum,
    lambda g, ans, x, y: unbroadcast(where(greater_equal(x, y), g, zeros_like(g)), shape_of(x)),
    lambda g, ans, x, y: unbroadcast(where(less(x, y), g, zeros_like(g)), shape_of(y)),
)
minimum = _prim(
    "minimum", np.minimum,
    lambda g, ans, x, y: unbroadcast(where(less_equal(x, y), g, zeros_like(g)), shape_of(x)),
    lambda g, ans, x, y: unbroadcast(where(greater(x, y), g, zeros_like(g)), shape_of(y)),
)

# -------------------------------------------------------------- elementwise
exp = _prim("exp", np.exp, lambda g, ans, x: multiply(g, ans))  # (e^x)' = e^x
log = _prim("log", np.log, lambda g, ans, x: divide(g, x))  # (log x)' = 1/x
log1p = _prim("log1p", np.log1p, lambda g, ans, x: divide(g, add(x, 1.0)))
sqrt = _prim("sqrt", np.sqrt, lambda g, ans, x: divide(g, multiply(ans, 2.0)))
square = _prim("square", np.square, lambda g, ans, x: multiply(g, multiply(x, 2.0)))
abs = _prim("abs", np.abs, lambda g, ans, x: multiply(g, sign(x)))  # noqa: A001
tanh = _prim("tanh", np.tanh,
             lambda g, ans, x: multiply(g, subtract(1.0, square(ans))))  # 1 - tanh^2
sign = _prim("sign", np.sign)
floor = _prim("floor", np.floor)
round = _prim("round", np.round)  # noqa: A001


def _clip(x, low, high):
    out = np.clip(x, low, high)
    # keep x's dtype (x may be a Python number when the bounds are tensors)
    return out.astype(x.dtype, copy=False) if isinstance(x, np.ndarray) else out


clip_by_value = _prim(
    "clip", _clip,
    lambda g, ans, x, low, high: unbroadcast(where(  # bounds may broadcast x
        logical_and(greater_equal(x, low), less_equal(x, high)), g, zeros_like(g)),
        shape_of(x)),
)


def clip(x, x_min, x_max):
    """Clip values into ``[x_min, x_max]``; gradient 1 inside, 0 outside.

    >>> clip(np.array([-2.0, 0.5, 3.0]), 0.0, 1.0)
    array([0. , 0.5, 1. ])
    """
    return clip_by_value(x, x_min, x_max)


where = _prim(
    "where", np.where,
    None,
    lambda g, ans, c, x, y: unbroadcast(where(c, g, zeros_like(g)), shape_of(x)),
    lambda g, ans, c, x, y: unbroadcast(where(c, zeros_like(g), g), shape_of(y)),
)

# comparisons and logic: no gradient
equal = _prim("equal", np.equal)
not_equal = _prim("not_equal", np.not_equal)
greater = _prim("greater", np.greater)
greater_equal = _prim("greater_equal", np.greater_equal)
less = _prim("less", np.less)
less_equal = _prim("less_equal", np.less_equal)
logical_and = _prim("logical_and", np.logical_and)
logical_or = _prim("logical_or", np.logical_or)
logical_not = _prim("logical_not", np.logical_not)
isnan = _prim("isnan", np.isnan)


def _cast(x, dtype):
    return x.astype(dtype, copy=False)


def _cast_grad(g, ans, x, dtype):
    # gradients flow from float to float only (as in TensorFlow)
    source = np.result_type(value_of(x))
    if source.kind != "f" or np.dtype(dtype).kind != "f":
        return None
    return cast(g, source.name)


_cast_prim = _prim("cast", _cast, _cast_grad)


def cast(x, dtype):
    """Cast to ``dtype`` (gradients flow between float types only).

    A tensor that already has ``dtype`` is returned as it is (no op recorded);
    a Python number goes straight to ``dtype``, not through ``floatx``.

    >>> cast(np.array([1.7]), "int32")
    array([1], dtype=int32)
    >>> float(cast(0.9, "float64"))
    0.9
    """
    dtype = config.standardize_dtype(dtype)
    if type(x) in (bool, int, float):
        x = np.asarray(x).astype(dtype)
    if isinstance(x, (np.ndarray, GraphTensor)) and str(x.dtype) == dtype:
        return x
    return _cast_prim(x, dtype=dtype)


stop_gradient = _prim("stop_gradient", lambda x: x)  # recorded in graphs, not tapes

# --------------------------------------------------------------- reductions


def _norm_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(sorted(a % ndim if ndim else 0 for a in axes))


def _restore(g, x, axis, keepdims):
    """Reshape a reduced gradient so it broadcasts against ``x``."""
    if keepdims or not shape_of(g):  # a scalar broadcasts as it is
        return g
    shape = list(shape_of(x))
    for a in _norm_axes(axis, len(shape)):
        shape[a] = 1
    return reshape(g, tuple(shape))


def _sum(x, axis=None, keepdims=False):
    if isinstance(x, np.ndarray):  # the method skips np.sum's dispatch (faster)
        if x.dtype.kind in "iu":  # int32 stays int32 (NumPy would widen it)
            return x.sum(axis=axis, keepdims=keepdims, dtype=x.dtype)
        return x.sum(axis=axis, keepdims=keepdims)
    return np.sum(x, axis=axis, keepdims=keepdims)


sum = _prim(  # noqa: A001
    "sum", _sum,
    lambda g, ans, x, axis=None, keepdims=False:
        broadcast_to(_restore(g, x, axis, keepdims), shape_of(x)),
)


def _count(x, axis):
    shape = shape_of(x)
    return float(np.prod([shape[a] for a in _norm_axes(axis, len(shape))]))


def _mean(x, axis=None, keepdims=False):
    return np.asarray(x.mean(axis=axis, keepdims=keepdims)).astype(
        x.dtype if x.dtype.kind == "f" else config.floatx(), copy=False)


mean = _prim(
    "mean", _mean,
    lambda g, ans, x, axis=None, keepdims=False: divide(
        broadcast_to(_restore(g, x, axis, keepdims), shape_of(x)), _count(x, axis)),
)


def _extremum_grad(g, ans, x, axis=None, keepdims=False):
    # gradient goes to the arg-extremum; ties share it equally
    hit = cast(equal(x, _restore(ans, x, axis, keepdims)), np.result_type(value_of(g)).name)
    share = divide(hit, sum(hit, axis=axis, keepdims=True))
    return multiply(share, _restore(g, x, axis, keepdims))


max = _prim("max", lambda x, axis=None, keepdims=False: np.max(  # noqa: A001
    x, axis=axis, keepdims=keepdims), _extremum_grad)
min = _prim("min", lambda x, axis=None, keepdims=False: np.min(  # noqa: A001
    x, axis=axis, keepdims=keepdims), _extremum_grad)
# int32 indices, as Keras returns them (one step: no cast after it)
argmax = _prim("argmax", lambda x, axis=-1: np.argmax(x, axis=axis).astype("int32"))
argmin = _prim("argmin", lambda x, axis=-1: np.argmin(x, axis=axis).astype("int32"))


def _logsumexp(x, axis=None, keepdims=False):
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


logsumexp = _prim(
    "logsumexp", _logsumexp,
    lambda g, ans, x, axis=None, keepdims=False: multiply(  # d lse = softmax
        _restore(g, x, axis, keepdims), exp(subtract(x, _restore(ans, x, axis, keepdims)))),
)


# ------------------------------------------------------------ linear algebra


def _matmul_grad_x(g, ans, x, y):
    x_shape, y_shape = shape_of(x), shape_of(y)
    if len(y_shape) == 1:  # (..., k) @ (k,) -> (...)
        return unbroadcast(multiply(expand_dims(g, -1), y), x_shape)
    if len(x_shape) == 1:  # (k,) @ (..., k, m) -> (..., m)
        return unbroadcast(squeeze(matmul(y, expand_dims(g, -1)), -1), x_shape)
    return unbroadcast(matmul(g, swapaxes(y, -1, -2)), x_shape)  # (.., n, m)(.., m, k)


def _matmul_grad_y(g, ans, x, y):
    x_shape, y_shape = shape_of(x), shape_of(y)
    if len(x_shape) == 1 and len(y_shape) == 1:  # (k,) @ (k,) -> ()
        return multiply(g, x)
    if len(x_shape) == 1:  # g (..., m), x (k,) -> (..., k, m)
        return unbroadcast(multiply(expand_dims(x, -1), expand_dims(g, -2)), y_shape)
    if len(y_shape) == 1:  # x (..., n, k), g (..., n) -> (k,)
        return unbroadcast(squeeze(matmul(swapaxes(x, -1, -2), expand_dims(g, -1)), -1),
                           y_shape)
    return unbroadcast(matmul(swapaxes(x, -1, -2), g), y_shape)  # (.., k, n)(.., n, m)


matmul = _prim("matmul", np.matmul, _matmul_grad_x, _matmul_grad_y)

# -------------------------------------------------------------------- shape


def _reshape(x, shape):
    return np.reshape(x, shape)


reshape_prim = _prim("reshape", _reshape,
                     lambda g, ans, x, shape: reshape(g, shape_of(x)))


def reshape(x, shape):
    """Reshape (one ``-1`` allowed), with a clear error on a size mismatch.

    >>> reshape(np.arange(6), (2, -1)).shape
    (2, 3)
    """
    shape = tuple(int(d) for d in shape)
    try:
        return reshape_prim(x, shape=shape)
    except ValueError:
        raise ValueError(
            f"Cannot reshape a tensor of shape {shape_of(x)} "
            f"({int(np.prod(shape_of(x)))} values) into shape {shape}."
        ) from None


def _transpose(x, axes=None):
    return x.transpose(axes) if isinstance(x, np.ndarray) else np.transpose(x, axes)


def _transpose_grad(g, ans, x, axes=None):
    if axes is None:
        return transpose(g)
    return transpose(g, tuple(int(i) for i in np.argsort(axes)))


transpose_prim = _prim("transpose", _transpose, _transpose_grad)


def transpose(x, axes=None):
    """Permute axes (reverse them by default).

    >>> transpose(np.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    if axes is not None:  # non-negative, so the gradient's argsort inverts it
        axes = tuple(int(a) % len(shape_of(x)) for a in axes)
    return transpose_prim(x, axes=axes)


def swapaxes(x, axis1, axis2):
    """Swap two axes.

    >>> swapaxes(np.zeros((2, 3)), 0, 1).shape
    (3, 2)
    """
    ndim = len(shape_of(x))
    axes = list(range(ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return transpose(x, axes)


expand_dims = _prim("expand_dims", lambda x, axis: np.expand_dims(x, axis),
                    lambda g, ans, x, axis: reshape(g, shape_of(x)))
squeeze = _prim("squeeze", lambda x, axis=None: np.squeeze(x, axis),
                lambda g, ans, x, axis=None: reshape(g, shape_of(x)))


def _broadcast_to(x, shape):
    # a filled copy: for small arrays much cheaper than np.broadcast_to's view
    out = np.empty(shape, dtype=np.result_type(x))
    out[...] = x
    return out


broadcast_to_prim = _prim("broadcast_to", _broadcast_to,
                          lambda g, ans, x, shape: unbroadcast(g, shape_of(x)))


def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` (a new array).

    >>> broadcast_to(np.arange(3), (2, 3)).shape
    (2, 3)
    """
    return broadcast_to_prim(x, shape=tuple(shape))


def _split_sizes(argnum, args, axis):
    sizes = [shape_of(a)[axis] for a in args]
    start = int(np.sum(sizes[:argnum]))
    return start, start + sizes[argnum]


def _concat_grad(argnum, g, ans, *args, axis):
    start, stop = _split_sizes(argnum, args, axis)
    index = [slice(None)] * len(shape_of(g))
    index[axis] = slice(start, stop)
    return getitem(g, tuple(index))


_concat = Primitive("concatenate", lambda *xs, axis: np.concatenate(xs, axis=axis))
_concat.defvjp_argnum(_concat_grad)


def concatenate(xs, axis=-1):
    """Join tensors along an existing axis.

    >>> concatenate([np.zeros((2, 1)), np.ones((2, 2))], axis=-1).shape
    (2, 3)
    """
    ndim = len(shape_of(xs[0]))
    return _concat(*xs, axis=axis % ndim if ndim else 0)


_stack = Primitive("stack", lambda *xs, axis: np.stack(xs, axis=axis))
_stack.defvjp_argnum(
    lambda argnum, g, ans, *xs, axis: squeeze(
        getitem(g, (slice(None),) * axis + (slice(argnum, argnum + 1),)), axis))


def stack(xs, axis=0):
    """Join tensors along a new axis.

    >>> stack([np.zeros(2), np.ones(2)]).shape
    (2, 2)
    """
    ndim = len(shape_of(xs[0])) + 1
    return _stack(*xs, axis=axis % ndim)


def _getitem(x, key):
    return x[key]


def _getitem_scatter(g, shape, key):
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, key, g)
    return out


getitem_prim = _prim("getitem", _getitem,
                     lambda g, ans, x, key: scatter_into(g, shape_of(x), key))
_scatter = _prim("scatter", _getitem_scatter,
                 lambda g, ans, u, shape, key: getitem(g, key))


def getitem(x, key):
    """``x[key]`` for basic and integer-array indexing.

    >>> getitem(np.arange(5), slice(1, 3))
    array([1, 2])
    """
    if isinstance(key, (GraphTensor, Variable)):
        key = value_of(key)
    return getitem_prim(x, key=key)


def scatter_into(g, shape, key):
    """Zeros of ``shape`` with ``g`` added at ``key`` (the adjoint of ``getitem``).

    >>> scatter_into(np.ones(2), (4,), np.array([0, 0]))
    array([2., 0., 0., 0.])
    """
    return _scatter(g, shape=tuple(shape), key=key)


def _take(x, indices, axis=0):
    try:
        return np.take(x, indices, axis=axis)
    except IndexError:  # checked here, on every replay of a traced step too
        size, indices = np.shape(x)[axis], np.asarray(indices)
        bad = indices[(indices < -size) | (indices >= size)].flat[0]
        raise ValueError(
            f"ops.take: `indices` must be in [{-size}, {size}) for axis {axis} of "
            f"size {size}. Received: an index {bad} (in indices of shape "
            f"{np.shape(indices)})"
        ) from None


def _take_grad(g, ans, x, indices, axis=0):
    shape = shape_of(x)
    return _take_scatter(g, indices, shape=shape, axis=axis % len(shape))


def _take_scatter_fwd(g, indices, shape, axis):
    out = np.zeros(shape, dtype=g.dtype)
    moved = np.moveaxis(out, axis, 0)
    np.add.at(moved, indices, np.moveaxis(g, list(range(axis, axis + indices.ndim)),
                                          list(range(indices.ndim))))
    return out


take = _prim("take", _take, _take_grad, None)
_take_scatter = _prim("take_scatter", _take_scatter_fwd,
                      lambda g, ans, u, indices, shape, axis: take(g, indices, axis=axis))


def _pad(x, pad_width, constant_values=0):
    return np.pad(x, pad_width, constant_values=constant_values)


def _pad_grad(g, ans, x, pad_width, constant_values=0):
    index = tuple(slice(lo, lo + n) for (lo, _), n in zip(pad_width, shape_of(x)))
    return getitem(g, index)


pad_prim = _prim("pad", _pad, _pad_grad)


def pad(x, pad_width, constant_values=0):
    """Pad with ``constant_values`` (zeros by default); ``pad_width`` is one
    ``(before, after)`` pair per axis.

    >>> pad(np.ones((1, 1)), ((1, 1), (0, 2))).shape
    (3, 3)
    """
    pad_width = tuple((int(a), int(b)) for a, b in pad_width)
    if constant_values == 0:  # the common case keeps its short record
        return pad_prim(x, pad_width=pad_width)
    return pad_prim(x, pad_width=pad_width, constant_values=value_of(
        constant_values).item())


# ------------------------------------------------------------- constructors
zeros_like = _prim("zeros_like", np.zeros_like)
ones_like = _prim("ones_like", np.ones_like)
# their value depends only on the (fixed) shape: a traced graph keeps it as a
# constant instead of recomputing it on every replay
zeros_like.shape_only = ones_like.shape_only = True
def zeros(shape, dtype=None):
    """An array of zeros (:func:`floatx` by default).

    >>> zeros((2,))
    array([0., 0.], dtype=float32)
    """
    return np.zeros(shape, dtype=config.standardize_dtype(dtype))


def ones(shape, dtype=None):
    """An array of ones (:func:`floatx` by default).

    >>> ones((1,))
    array([1.], dtype=float32)
    """
    return np.ones(shape, dtype=config.standardize_dtype(dtype))



# ------------------------------------------------------- operator overloads


def _attach_operators(cls):
    cls.__add__ = lambda a, b: add(a, b)
    cls.__radd__ = lambda a, b: add(b, a)
    cls.__sub__ = lambda a, b: subtract(a, b)
    cls.__rsub__ = lambda a, b: subtract(b, a)
    cls.__mul__ = lambda a, b: multiply(a, b)
    cls.__rmul__ = lambda a, b: multiply(b, a)
    cls.__truediv__ = lambda a, b: divide(a, b)
    cls.__rtruediv__ = lambda a, b: divide(b, a)
    cls.__pow__ = lambda a, b: power(a, b)
    cls.__rpow__ = lambda a, b: power(b, a)
    cls.__matmul__ = lambda a, b: matmul(a, b)
    cls.__rmatmul__ = lambda a, b: matmul(b, a)
    cls.__neg__ = lambda a: negative(a)
    cls.__abs__ = lambda a: abs(a)
    cls.__lt__ = lambda a, b: less(a, b)
    cls.__le__ = lambda a, b: less_equal(a, b)
    cls.__gt__ = lambda a, b: greater(a, b)
    cls.__ge__ = lambda a, b: greater_equal(a, b)
    cls.__getitem__ = lambda a, key: getitem(a, key)


_attach_operators(GraphTensor)
_attach_operators(Variable)
_attach_operators(TapeTensor)

__all__ = [name for name in dir() if not name.startswith("_") and name not in (
    "np", "config", "GraphTensor", "Primitive", "TapeTensor", "Variable")]
_ = convert_to_tensor  # re-exported through kerasmini.backend
