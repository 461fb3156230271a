"""The NumPy-like ops of ``keras.ops`` (Keras 3's ``keras/src/ops/numpy.py``).

Each op computes eagerly through a backend primitive (so it is recorded on a
``GradientTape`` and traced by ``kerasmini.function``), and on KerasTensors
returns the result's shape and dtype, recording a Node:

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.matmul(np.ones((2, 3)), np.ones((3, 4))).shape
(2, 4)
>>> ops.matmul(KerasTensor((None, 3)), KerasTensor((3, 4))).shape
(None, 4)
"""

import builtins

import numpy as np

from kerasmini import backend
from kerasmini.backend import config
from kerasmini.backend.core import value_of
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.ops import shapes
from kerasmini.ops.families import binary, custom, reduction, unary

_M = __name__


def _spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


# ------------------------------------------------------------- elementwise
Abs, abs = unary("Abs", backend.numpy.abs, keep_dtype=True, module=_M)  # noqa: A001
Absolute, absolute = Abs, abs
Negative, negative = unary("Negative", backend.numpy.negative, keep_dtype=True, module=_M)
Exp, exp = unary("Exp", backend.numpy.exp, module=_M)
Expm1, expm1 = unary("Expm1", backend.numpy_extra.expm1, module=_M)
Log, log = unary("Log", backend.numpy.log, module=_M)
Log1p, log1p = unary("Log1p", backend.numpy.log1p, module=_M)
Sqrt, sqrt = unary("Sqrt", backend.numpy.sqrt, module=_M)
Square, square = unary("Square", backend.numpy.square, keep_dtype=True, module=_M)
Tanh, tanh = unary("Tanh", backend.numpy.tanh, module=_M)
Sin, sin = unary("Sin", backend.numpy_extra.sin, module=_M)
Cos, cos = unary("Cos", backend.numpy_extra.cos, module=_M)
Sign, sign = unary("Sign", backend.numpy.sign, keep_dtype=True, module=_M)
Floor, floor = unary("Floor", backend.numpy.floor, keep_dtype=True, module=_M)
Round, round = unary("Round", backend.numpy.round, keep_dtype=True, module=_M)  # noqa: A001
Isnan, isnan = custom(
    "Isnan", backend.numpy.isnan, lambda self, x: _spec(shapes.shape_of(x), "bool"), module=_M,
    summary="Whether each element is NaN.",
    example=">>> ops.isnan(np.array([1.0, np.nan])).tolist()\n    [False, True]")
LogicalNot, logical_not = unary("LogicalNot", backend.numpy.logical_not, keep_dtype=True,
                                module=_M)

Add, add = binary("Add", backend.numpy.add, module=_M)
Subtract, subtract = binary("Subtract", backend.numpy.subtract, module=_M)
Multiply, multiply = binary("Multiply", backend.numpy.multiply, module=_M)
Divide, divide = binary("Divide", backend.numpy.divide, module=_M)
TrueDivide, true_divide = Divide, divide
Power, power = binary("Power", backend.numpy.power, module=_M)
Maximum, maximum = binary("Maximum", backend.numpy.maximum, module=_M)
Minimum, minimum = binary("Minimum", backend.numpy.minimum, module=_M)
Equal, equal = binary("Equal", backend.numpy.equal, boolean=True, module=_M)
NotEqual, not_equal = binary("NotEqual", backend.numpy.not_equal, boolean=True, module=_M)
Greater, greater = binary("Greater", backend.numpy.greater, boolean=True, module=_M)
GreaterEqual, greater_equal = binary("GreaterEqual", backend.numpy.greater_equal, boolean=True,
                                     module=_M)
Less, less = binary("Less", backend.numpy.less, boolean=True, module=_M)
LessEqual, less_equal = binary("LessEqual", backend.numpy.less_equal, boolean=True, module=_M)
LogicalAnd, logical_and = binary("LogicalAnd", backend.numpy.logical_and, boolean=True,
                                 module=_M)
LogicalOr, logical_or = binary("LogicalOr", backend.numpy.logical_or, boolean=True, module=_M)


def _where_spec(self, condition, x1, x2):
    shape = shapes.broadcast_shapes(shapes.shape_of(condition),
                                    shapes.broadcast_shapes(shapes.shape_of(x1),
                                                            shapes.shape_of(x2)))
    return _spec(shape, shapes.result_type(x1, x2))


Where, where = custom(
    "Where", backend.numpy.where, _where_spec, module=_M,
    summary="``x1`` where ``condition`` holds, else ``x2``, with broadcasting.",
    example=">>> ops.where(np.array([True, False]), 1.0, 0.0)\n"
            "    array([1., 0.], dtype=float32)")


def _clip(x, x_min, x_max):
    return backend.numpy.clip(x, x_min, x_max)


Clip, clip = custom(
    "Clip", _clip, lambda self, x, x_min, x_max: _spec(shapes.shape_of(x),
                                                        shapes.dtype_of(x)),
    module=_M, summary="Values limited to ``[x_min, x_max]``.",
    example=">>> ops.clip(np.array([-2.0, 0.5, 3.0]), 0.0, 1.0)\n"
            "    array([0. , 0.5, 1. ])")

# -------------------------------------------------------------- reductions
Sum, sum = reduction("Sum", backend.numpy.sum, module=_M)  # noqa: A001
Mean, mean = reduction("Mean", backend.numpy.mean, dtype_rule="float", module=_M)
Max, max = reduction("Max", backend.numpy.max, module=_M)  # noqa: A001
Min, min = reduction("Min", backend.numpy.min, module=_M)  # noqa: A001
Amax, amax = Max, max
Amin, amin = Min, min


def _var(x, axis=None, keepdims=False):
    centred = backend.numpy.subtract(x, backend.numpy.mean(x, axis=axis, keepdims=True))
    return backend.numpy.mean(backend.numpy.square(centred), axis=axis, keepdims=keepdims)


def _std(x, axis=None, keepdims=False):
    return backend.numpy.sqrt(_var(x, axis=axis, keepdims=keepdims))


Var, var = reduction("Var", _var, dtype_rule="float", module=_M)
Std, std = reduction("Std", _std, dtype_rule="float", module=_M)


def _arg_spec(self, x, axis=None, keepdims=False):
    axis = self.static.get("axis", axis)
    shape = shapes.shape_of(x)
    if axis is None:
        return _spec((), "int32")
    return _spec(shapes.reduce_shape(shape, axis, keepdims), "int32")


def _arg_reduce(primitive, x, axis, keepdims):
    # through the backend primitive, so a traced step records it (reading
    # the value here would bake the first batch's answer into the graph)
    out = backend.numpy.cast(primitive(x, axis=axis), "int32")
    if not keepdims:
        return out
    if axis is None:
        return backend.numpy.reshape(out, (1,) * np.ndim(value_of(x)))
    return backend.numpy.expand_dims(out, axis)


def _argmax(x, axis=None, keepdims=False):
    return _arg_reduce(backend.numpy.argmax, x, axis, keepdims)


def _argmin(x, axis=None, keepdims=False):
    return _arg_reduce(backend.numpy.argmin, x, axis, keepdims)


Argmax, argmax = custom("Argmax", _argmax, _arg_spec, static_names=("axis", "keepdims"),
                        module=_M, summary="The index of the largest value.",
                        example=">>> ops.argmax(np.array([[1, 5, 2]]), axis=-1)\n"
                                "    array([1], dtype=int32)")
Argmin, argmin = custom("Argmin", _argmin, _arg_spec, static_names=("axis", "keepdims"),
                        module=_M, summary="The index of the smallest value.",
                        example=">>> ops.argmin(np.array([[1, 5, 2]]), axis=-1)\n"
                                "    array([0], dtype=int32)")


def _cumsum_spec(self, x, axis=None):
    axis = self.static.get("axis", axis)
    shape = shapes.shape_of(x)
    if axis is None:
        size = None if None in shape else int(np.prod(shape))
        return _spec((size,), shapes.dtype_of(x))
    return _spec(shape, shapes.dtype_of(x))


def _cumsum(x, axis=None):
    if axis is None:
        return backend.numpy_extra.cumsum(backend.numpy.reshape(x, (-1,)), axis=0)
    return backend.numpy_extra.cumsum(x, axis=axis % len(shapes.shape_of(x)))


Cumsum, cumsum = custom("Cumsum", _cumsum, _cumsum_spec, static_names=("axis",),
                        module=_M, summary="Running sum along ``axis``.",
                        example=">>> ops.cumsum(np.array([1.0, 2.0, 3.0]))\n"
                                "    array([1., 3., 6.])")


# ------------------------------------------------------------------- shape
def _reshape_spec(self, x, newshape):
    shape = shapes.shape_of(x)
    newshape = tuple(newshape)
    if -1 in newshape:
        known = [d for d in shape]
        if None in known:
            newshape = tuple(None if d == -1 else d for d in newshape)
        else:
            rest = int(np.prod([d for d in newshape if d != -1]))
            newshape = tuple(int(np.prod(known)) // builtins.max(rest, 1) if d == -1 else d
                             for d in newshape)
    return _spec(newshape, shapes.dtype_of(x))


Reshape, reshape = custom(
    "Reshape", lambda x, newshape: backend.numpy.reshape(x, newshape), _reshape_spec, module=_M,
    summary="The same values in a new shape (one ``-1`` is inferred).",
    example=">>> ops.reshape(KerasTensor((None, 2, 3)), (-1, 6)).shape\n"
            "    (None, 6)")


def _transpose_spec(self, x, axes=None):
    shape = shapes.shape_of(x)
    axes = tuple(range(len(shape)))[::-1] if axes is None else tuple(axes)
    return _spec(tuple(shape[a] for a in axes), shapes.dtype_of(x))


Transpose, transpose = custom(
    "Transpose", backend.numpy.transpose, _transpose_spec, module=_M,
    summary="Permute the axes (reverse them by default).",
    example=">>> ops.transpose(KerasTensor((None, 2, 3)), (0, 2, 1)).shape\n"
            "    (None, 3, 2)")


def _swapaxes_spec(self, x, axis1, axis2):
    axes = list(range(len(shapes.shape_of(x))))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return _transpose_spec(self, x, axes)


Swapaxes, swapaxes = custom(
    "Swapaxes", backend.numpy.swapaxes, _swapaxes_spec, module=_M,
    summary="Exchange two axes.",
    example=">>> ops.swapaxes(KerasTensor((2, 3, 4)), 0, 2).shape\n    (4, 3, 2)")


def _expand_dims_spec(self, x, axis):
    shape = list(shapes.shape_of(x))
    position = axis % (len(shape) + 1)
    shape.insert(position, 1)
    return _spec(shape, shapes.dtype_of(x))


ExpandDims, expand_dims = custom(
    "ExpandDims", lambda x, axis: backend.numpy.expand_dims(x, axis=axis), _expand_dims_spec,
    module=_M, summary="Insert an axis of size 1.",
    example=">>> ops.expand_dims(KerasTensor((None, 3)), -1).shape\n"
            "    (None, 3, 1)")


def _squeeze_spec(self, x, axis=None):
    shape = shapes.shape_of(x)
    if axis is None:
        return _spec(tuple(d for d in shape if d != 1), shapes.dtype_of(x))
    axes = shapes.normalize_axes(axis, len(shape))
    for a in axes:
        if shape[a] not in (1, None):
            raise ValueError(
                f"Cannot squeeze axis {a} of size {shape[a]}: only axes of size 1 "
                f"can be removed. Received: x.shape={shape}, axis={axis}"
            )
    return _spec(tuple(d for i, d in enumerate(shape) if i not in axes),
                 shapes.dtype_of(x))


Squeeze, squeeze = custom(
    "Squeeze", lambda x, axis=None: backend.numpy.squeeze(x, axis=axis), _squeeze_spec, module=_M,
    summary="Remove axes of size 1.",
    example=">>> ops.squeeze(KerasTensor((None, 1, 3)), axis=1).shape\n"
            "    (None, 3)")


def _join_spec(self, xs, axis=0, new_axis=False):
    first = list(shapes.shape_of(xs[0]))
    dtype = shapes.result_type(*xs)
    if new_axis:
        position = axis % (len(first) + 1)
        first.insert(position, len(xs))
        return _spec(first, dtype)
    position = axis % len(first)
    sizes = [shapes.shape_of(x)[position] for x in xs]
    first[position] = None if None in sizes else int(np.sum(sizes))
    return _spec(first, dtype)


def _concatenate(xs, axis=0):
    return backend.numpy.concatenate(list(xs), axis=axis)


def _stack(x, axis=0):
    return backend.numpy.stack(list(x), axis=axis)


Concatenate, concatenate = custom(
    "Concatenate", _concatenate,
    lambda self, xs, axis=0: _join_spec(self, xs, self.static.get("axis", axis)),
    static_names=("axis",), module=_M,
    summary="Join tensors along an existing axis.",
    example=">>> ops.concatenate([KerasTensor((None, 2)), KerasTensor((None, 3))],"
            " axis=-1).shape\n    (None, 5)")
Stack, stack = custom(
    "Stack", _stack,
    lambda self, x, axis=0: _join_spec(self, x, self.static.get("axis", axis),
                                       new_axis=True),
    static_names=("axis",), module=_M, summary="Join tensors along a new axis.",
    example=">>> ops.stack([KerasTensor((2,)), KerasTensor((2,))], axis=1).shape\n"
            "    (2, 2)")


BroadcastTo, broadcast_to = custom(
    "BroadcastTo", lambda x, shape: backend.numpy.broadcast_to(x, shape),
    lambda self, x, shape: _spec(tuple(shape), shapes.dtype_of(x)), module=_M,
    summary="Repeat ``x`` along broadcast axes to reach ``shape``.",
    example=">>> ops.broadcast_to(np.array([1.0, 2.0]), (2, 2)).tolist()\n"
            "    [[1.0, 2.0], [1.0, 2.0]]")


def _take(x, indices, axis=None):
    if axis is None:
        x, axis = backend.numpy.reshape(x, (-1,)), 0
    # cast by a recorded op, so a traced step takes the indices of each replay
    indices = backend.numpy.cast(indices, "int64")
    return backend.numpy.take(x, indices, axis=axis % len(shapes.shape_of(x)))


def _take_spec(self, x, indices, axis=None):
    shape = shapes.shape_of(x)
    if axis is None:
        return _spec(shapes.shape_of(indices), shapes.dtype_of(x))
    axis %= len(shape)
    out = shape[:axis] + shapes.shape_of(indices) + shape[axis + 1:]
    return _spec(out, shapes.dtype_of(x))


Take, take = custom(
    "Take", _take, _take_spec, module=_M,
    summary="Gather entries of ``x`` along ``axis`` at ``indices``.",
    example=">>> ops.take(np.array([[1, 2], [3, 4]]), np.array([1, 1]), axis=0)"
            ".tolist()\n    [[3, 4], [3, 4]]")


def _pad_spec(self, x, pad_width):
    shape = shapes.shape_of(x)
    return _spec(tuple(None if d is None else d + int(lo) + int(hi)
                       for d, (lo, hi) in zip(shape, pad_width)), shapes.dtype_of(x))


Pad, pad = custom(
    "Pad", lambda x, pad_width: backend.numpy.pad(x, pad_width), _pad_spec, module=_M,
    summary="Pad with zeros; one ``(before, after)`` pair per axis.",
    example=">>> ops.pad(KerasTensor((None, 3)), ((0, 0), (1, 2))).shape\n"
            "    (None, 6)")


def _tile_spec(self, x, repeats):
    shape = shapes.shape_of(x)
    repeats = tuple(repeats) if isinstance(repeats, (list, tuple)) else (repeats,)
    rank = builtins.max(len(shape), len(repeats))
    shape = (1,) * (rank - len(shape)) + tuple(shape)
    repeats = (1,) * (rank - len(repeats)) + repeats
    return _spec(tuple(None if d is None else d * r for d, r in zip(shape, repeats)),
                 shapes.dtype_of(x))


def _tile(x, repeats):
    repeats = tuple(repeats) if isinstance(repeats, (list, tuple)) else (repeats,)
    return backend.numpy_extra.tile(x, reps=repeats)


Tile, tile = custom(
    "Tile", _tile, _tile_spec, module=_M, summary="Repeat the whole tensor.",
    example=">>> ops.tile(np.array([1, 2]), 2).tolist()\n    [1, 2, 1, 2]")


def _flip(x, axis=None):
    shape = shapes.shape_of(x)
    return backend.numpy_extra.flip(x, axis=shapes.normalize_axes(axis, len(shape)))


Flip, flip = custom(
    "Flip", _flip, lambda self, x, axis=None: _spec(shapes.shape_of(x),
                                                    shapes.dtype_of(x)),
    module=_M, summary="Reverse the order of elements along ``axis``.",
    example=">>> ops.flip(np.array([1, 2, 3])).tolist()\n    [3, 2, 1]")


def _ravel(x):
    return backend.numpy.reshape(x, (-1,))


def _ravel_spec(self, x):
    shape = shapes.shape_of(x)
    size = None if None in shape else int(np.prod(shape))
    return _spec((size,), shapes.dtype_of(x))


Ravel, ravel = custom("Ravel", _ravel, _ravel_spec, module=_M,
                      summary="All values in one axis.",
                      example=">>> ops.ravel(np.ones((2, 3))).shape\n    (6,)")


# ----------------------------------------------------------- linear algebra
def _matmul_spec(self, x1, x2):
    a, b = list(shapes.shape_of(x1)), list(shapes.shape_of(x2))
    if len(a) == 0 or len(b) == 0:
        raise ValueError(
            "matmul needs tensors of rank 1 or more. Received: "
            f"x1.shape={tuple(a)}, x2.shape={tuple(b)}"
        )
    vector_a, vector_b = len(a) == 1, len(b) == 1
    a = [1] + a if vector_a else a
    b = b + [1] if vector_b else b
    if a[-1] is not None and b[-2] is not None and a[-1] != b[-2]:
        # Keras 3.15.1's words (ops/operation_utils.py), with a 1-D operand
        # shown as the matrix it was promoted to.
        raise ValueError(
            "Inner dimensions (`x1.shape[-1]` and `x2.shape[-2]`) must be "
            f"equal, but received `x1.shape={tuple(a)}` and "
            f"`x2.shape={tuple(b)}`."
        )
    batch = shapes.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2]))
    out = list(batch) + [a[-2], b[-1]]
    if vector_a:
        out.pop(-2)
    if vector_b:
        out.pop(-1)
    return _spec(out, shapes.result_type(x1, x2))


Matmul, matmul = custom(
    "Matmul", backend.numpy.matmul, _matmul_spec, module=_M,
    summary="Matrix product, batched over leading axes (as ``np.matmul``).",
    example=">>> ops.matmul(KerasTensor((None, 4, 3)), KerasTensor((3, 5))).shape\n"
            "    (None, 4, 5)")
Dot, dot = Matmul, matmul


def _einsum_spec(self, subscripts, *operands):
    subscripts = backend.numpy_extra.expand_ellipsis(
        subscripts, [len(shapes.shape_of(x)) for x in operands])
    names, output = backend.numpy_extra._parse(subscripts, len(operands))
    sizes = {}
    for name, x in zip(names, operands):
        for letter, size in zip(name, shapes.shape_of(x)):
            if sizes.get(letter) is None:
                sizes[letter] = size
    return _spec(tuple(sizes.get(c) for c in output), shapes.result_type(*operands))


Einsum, einsum = custom(
    "Einsum", backend.numpy_extra.einsum, _einsum_spec, module=_M,
    summary="Einstein summation over named axes (``...`` for the others).",
    example='>>> ops.einsum("bij,jk->bik", KerasTensor((None, 2, 3)), '
            'KerasTensor((3, 4))).shape\n    (None, 2, 4)')


# ---------------------------------------------------------------- creation
def zeros(shape, dtype=None):
    """An array of zeros (``floatx`` by default).

    >>> zeros((2,))
    array([0., 0.], dtype=float32)
    """
    return backend.numpy.zeros(shape, dtype=dtype)


def ones(shape, dtype=None):
    """An array of ones (``floatx`` by default).

    >>> ones((1, 2)).shape
    (1, 2)
    """
    return backend.numpy.ones(shape, dtype=dtype)


def full(shape, fill_value, dtype=None):
    """An array filled with ``fill_value``.

    >>> full((2,), 7.0)
    array([7., 7.], dtype=float32)
    """
    return np.full(shape, fill_value, dtype=config.standardize_dtype(dtype))


def _like(fill):
    def like(x, dtype=None):
        if any_symbolic((x,)):
            return _spec(shapes.shape_of(x), dtype or shapes.dtype_of(x))
        out = backend.numpy.zeros_like(x) if fill == 0 else backend.numpy.ones_like(x)
        return out if dtype is None else backend.numpy.cast(out, dtype)
    return like


def zeros_like(x, dtype=None):
    """Zeros of the shape (and dtype) of ``x``.

    >>> zeros_like(np.ones((2, 1), "int32")).dtype
    dtype('int32')
    """
    return _like(0)(x, dtype)


def ones_like(x, dtype=None):
    """Ones of the shape (and dtype) of ``x``.

    >>> ones_like(KerasTensor((None, 3))).shape
    (None, 3)
    """
    return _like(1)(x, dtype)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values, as ``np.arange`` (ints stay ints).

    >>> arange(3), arange(1.0, 2.0, 0.5)
    (array([0, 1, 2], dtype=int32), array([1. , 1.5], dtype=float32))
    """
    values = np.arange(start, stop, step)
    if dtype is None:
        dtype = "int32" if values.dtype.kind in "iu" else config.floatx()
    return values.astype(config.standardize_dtype(dtype))


def eye(n, m=None, dtype=None):
    """The identity matrix (ones on the diagonal).

    >>> eye(2)
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    return np.eye(n, m, dtype=config.standardize_dtype(dtype))


def linspace(start, stop, num=50, dtype=None):
    """``num`` evenly spaced values from ``start`` to ``stop`` included.

    >>> linspace(0.0, 1.0, 3)
    array([0. , 0.5, 1. ], dtype=float32)
    """
    return np.linspace(start, stop, num).astype(config.standardize_dtype(dtype))


__all__ = [name for name in dir() if not name.startswith("_") and name not in (
    "np", "backend", "config", "value_of", "KerasTensor", "any_symbolic", "shapes",
    "binary", "custom", "reduction", "unary")]


# ----------------------------------------------------------------- indexing
def _getitem_spec(self, x, key):
    shape = list(shapes.shape_of(x))
    key = key if isinstance(key, tuple) else (key,)
    out, axis = [], 0
    for item in key:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            indexed = builtins.sum(1 for k in key if k not in (None, Ellipsis))
            rest = len(shape) - indexed
            out += shape[axis:axis + rest]
            axis += rest
        elif isinstance(item, slice):
            size = shape[axis]
            out.append(None if size is None else len(range(*item.indices(size))))
            axis += 1
        elif isinstance(item, (int, np.integer)):
            axis += 1
        else:
            raise ValueError(
                "Symbolic indexing supports integers, slices, None and `...`. "
                f"Received: key={key!r}"
            )
    return _spec(out + shape[axis:], shapes.dtype_of(x))


def _getitem(x, key):
    if any_symbolic((x,)):
        return GetItem().symbolic_call(x, key)
    return backend.numpy.getitem(x, key)


GetItem, get_item = custom(
    "GetItem", lambda x, key: backend.numpy.getitem(x, key), _getitem_spec, module=_M,
    summary="``x[key]`` (integers, slices, ``None`` and ``...`` on KerasTensors).",
    example=">>> ops.get_item(KerasTensor((None, 4, 3)), (slice(None), 0)).shape\n"
            "    (None, 3)")
__all__.append("get_item")
