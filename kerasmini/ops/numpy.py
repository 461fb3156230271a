"""The NumPy-like ops of ``keras.ops`` (Keras 3's ``keras/src/ops/numpy.py``).

Each op computes eagerly through a backend primitive (so it is recorded on a
``GradientTape`` and traced by ``kerasmini.function``), and on KerasTensors
returns the result's shape and dtype, recording a Node. The shape rule of
each op also checks its arguments, so a bad call gets the same error on
arrays and on KerasTensors:

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.matmul(np.ones((2, 3)), np.ones((3, 4))).shape
(2, 4)
>>> ops.matmul(KerasTensor((None, 3)), KerasTensor((3, 4))).shape
(None, 4)
>>> ops.sum(np.ones((2, 3)), axis=5)
Traceback (most recent call last):
  ...
ValueError: ops.sum: axis 5 is out of bounds for an array with dimension 2. Received: axis=5
"""

import builtins

import numpy as np

from kerasmini import backend
from kerasmini.backend import config
from kerasmini.backend.core import convert_to_tensor, value_of
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.backend.validation import is_int
from kerasmini.ops import shapes
from kerasmini.ops.families import binary, custom, reduction, unary

_M = __name__


def _spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


def _float_input(x):
    """``x`` itself if it holds floats (or is a Python float, which stays
    weakly typed), else ``x`` cast to floatx: ``exp`` of an int32 tensor is
    float32, as in Keras 3, not NumPy's float64."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        if isinstance(x, float):
            return x
        x = convert_to_tensor(x)
        dtype = x.dtype
    kind = dtype.kind if isinstance(dtype, np.dtype) else np.dtype(dtype).kind
    return x if kind == "f" else backend.numpy.cast(x, config.floatx())


def _in_floats(forward):
    return lambda x: forward(_float_input(x))


# ------------------------------------------------------------- elementwise
Abs, abs = unary("Abs", backend.numpy.abs, keep_dtype=True, module=_M)  # noqa: A001
Absolute, absolute = Abs, abs
def _kind(x):
    """The dtype kind of a tensor, or of a Python number (``"f"`` for a
    float, ``"i"`` for an int)."""
    if type(x) is float:
        return "f"
    if type(x) in (int, bool):
        return "i" if type(x) is int else "b"
    return shapes.kind_of(x)


def _no_booleans(forward, name):
    def run(x):
        if _kind(x) == "b":
            raise TypeError(
                f"ops.{name}: `x` must be a tensor of numbers, not booleans (cast it "
                f"first, e.g. with ops.cast(x, 'int32')). Received: x of dtype bool"
            )
        return forward(x)
    return run


def _unary_no_booleans(class_name, forward):
    name = class_name.lower()
    cls, fn = unary(class_name, _no_booleans(forward, name), keep_dtype=True,
                    module=_M)
    spec = cls.compute_output_spec

    def compute_output_spec(self, x):
        if shapes.kind_of(x) == "b":
            _no_booleans(None, name)(x)
        return spec(self, x)
    cls.compute_output_spec = compute_output_spec
    return cls, fn


Negative, negative = _unary_no_booleans("Negative", backend.numpy.negative)
Exp, exp = unary("Exp", _in_floats(backend.numpy.exp), module=_M)
Expm1, expm1 = unary("Expm1", _in_floats(backend.numpy_extra.expm1), module=_M)
Log, log = unary("Log", _in_floats(backend.numpy.log), module=_M)
Log1p, log1p = unary("Log1p", _in_floats(backend.numpy.log1p), module=_M)
Sqrt, sqrt = unary("Sqrt", _in_floats(backend.numpy.sqrt), module=_M)
def _square(x):
    if _kind(x) == "b":  # the square of a boolean counts: int32, as in Keras 3
        x = backend.numpy.cast(x, "int32")
    return backend.numpy.square(x)


def _square_spec(self, x):
    dtype = shapes.numeric_dtype(x, "square")
    return _spec(shapes.shape_of(x), "int32" if dtype == "bool" else dtype)


Square, square = custom("Square", _square, _square_spec, module=_M,
                        summary="``x * x`` of every element.",
                        example=">>> ops.square(KerasTensor((None, 3))).shape\n"
                                "    (None, 3)")
Tanh, tanh = unary("Tanh", _in_floats(backend.numpy.tanh), module=_M)
Sin, sin = unary("Sin", _in_floats(backend.numpy_extra.sin), module=_M)
Cos, cos = unary("Cos", _in_floats(backend.numpy_extra.cos), module=_M)
Arcsin, arcsin = unary("Arcsin", _in_floats(backend.numpy_extra.arcsin), module=_M,
                       summary="The inverse sine of every element (NaN outside "
                               "``[-1, 1]``).")
Arccos, arccos = unary("Arccos", _in_floats(backend.numpy_extra.arccos), module=_M,
                       summary="The inverse cosine of every element, in "
                               "``[0, pi]`` (NaN outside ``[-1, 1]``).")
Arctan, arctan = unary("Arctan", _in_floats(backend.numpy_extra.arctan), module=_M,
                       summary="The inverse tangent of every element.")
Arcsinh, arcsinh = unary("Arcsinh", _in_floats(backend.numpy_extra.arcsinh),
                         module=_M, summary="The inverse hyperbolic sine.")
Arccosh, arccosh = unary("Arccosh", _in_floats(backend.numpy_extra.arccosh),
                         module=_M, summary="The inverse hyperbolic cosine "
                                            "(NaN below 1).")
Arctanh, arctanh = unary("Arctanh", _in_floats(backend.numpy_extra.arctanh),
                         module=_M, summary="The inverse hyperbolic tangent.")
Sign, sign = _unary_no_booleans("Sign", backend.numpy.sign)
# floor and ceil of integers are floats in Keras 3
Floor, floor = unary("Floor", _in_floats(backend.numpy.floor), module=_M)
Ceil, ceil = unary("Ceil", _in_floats(backend.numpy_extra.ceil), module=_M,
                   summary="The smallest integer (as a float) not below each "
                           "element.")
def _round(x):
    return x if _kind(x) == "b" else backend.numpy.round(x)  # booleans are whole


Round, round = unary("Round", _round, keep_dtype=True, module=_M)  # noqa: A001


def _bool_spec(self, x):
    shapes.numeric_dtype(x, self.op_name)
    return _spec(shapes.shape_of(x), "bool")


Isnan, isnan = custom(
    "Isnan", backend.numpy.isnan, _bool_spec, module=_M,
    summary="Whether each element is NaN.",
    example=">>> ops.isnan(np.array([1.0, np.nan])).tolist()\n    [False, True]")
LogicalNot, logical_not = custom(
    "LogicalNot", backend.numpy.logical_not, _bool_spec, module=_M,
    summary="``not`` of every element (as booleans).",
    example=">>> ops.logical_not(np.array([0.0, 2.0])).tolist()\n    [True, False]")

Add, add = binary("Add", backend.numpy.add, module=_M)
Subtract, subtract = binary("Subtract", backend.numpy.subtract, module=_M)
Multiply, multiply = binary("Multiply", backend.numpy.multiply, module=_M)
def _divide(x1, x2):
    # a quotient is a float: tensors of integers are divided in floatx (as
    # in Keras 3; NumPy would give float64)
    x1, x2 = (x if type(x) in (int, float) or _kind(x) == "f" else
              backend.numpy.cast(x, config.floatx()) for x in (x1, x2))
    return backend.numpy.divide(x1, x2)


def _divide_spec(self, x1, x2):
    shapes.numeric_dtype(x1, "divide", "x1")
    shapes.numeric_dtype(x2, "divide", "x2")
    shape = shapes.broadcast_shapes(shapes.shape_of(x1), shapes.shape_of(x2), "divide")
    floats = [x if type(x) in (int, float) or _kind(x) == "f" else
              np.zeros((), config.floatx()) for x in (x1, x2)]
    return _spec(shape, shapes.float_result(shapes.result_type(*floats)))


Divide, divide = custom(
    "Divide", _divide, _divide_spec, module=_M,
    summary="``x1 / x2`` element by element, with broadcasting; always floats.",
    example=">>> ops.divide(np.array([1, 2]), 2)\n    array([0.5, 1. ], dtype=float32)")
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
    for name, value in (("condition", condition), ("x1", x1), ("x2", x2)):
        shapes.numeric_dtype(value, "where", name)
    shape = shapes.broadcast_shapes(shapes.shape_of(x1), shapes.shape_of(x2), "where")
    shape = shapes.broadcast_shapes(shapes.shape_of(condition), shape, "where")
    return _spec(shape, shapes.result_type(x1, x2))


def _where(condition, x1, x2):
    # in the dtype the rule gives (a Python float beside integers: floatx)
    dtype = shapes.result_type(x1, x2)
    x1, x2 = (backend.numpy.cast(x, dtype) if type(x) not in (int, float) and
              shapes.dtype_of(x) != dtype else x for x in (x1, x2))
    return backend.numpy.where(condition, x1, x2)


Where, where = custom(
    "Where", _where, _where_spec, module=_M,
    summary="``x1`` where ``condition`` holds, else ``x2``, with broadcasting.",
    example=">>> ops.where(np.array([True, False]), 1.0, 0.0)\n"
            "    array([1., 0.], dtype=float32)")


def _clip(x, x_min, x_max):
    return backend.numpy.clip(x, x_min, x_max)


def _clip_spec(self, x, x_min, x_max):
    for name, value in (("x", x), ("x_min", x_min), ("x_max", x_max)):
        shapes.numeric_dtype(value, "clip", name)
    shape = shapes.broadcast_shapes(shapes.shape_of(x), shapes.shape_of(x_min), "clip")
    shape = shapes.broadcast_shapes(shape, shapes.shape_of(x_max), "clip")
    return _spec(shape, shapes.numeric_dtype(x, self.op_name))


Clip, clip = custom(
    "Clip", _clip, _clip_spec, module=_M, summary="Values limited to ``[x_min, x_max]``.",
    example=">>> ops.clip(np.array([-2.0, 0.5, 3.0]), 0.0, 1.0)\n"
            "    array([0. , 0.5, 1. ])")

# -------------------------------------------------------------- reductions
Sum, sum = reduction("Sum", backend.numpy.sum, dtype_rule="sum", module=_M)  # noqa: A001
Mean, mean = reduction("Mean", backend.numpy.mean, dtype_rule="float", module=_M)
Max, max = reduction("Max", backend.numpy.max, module=_M, needs_values=True)  # noqa: A001
Min, min = reduction("Min", backend.numpy.min, module=_M, needs_values=True)  # noqa: A001
Amax, amax = Max, max
Amin, amin = Min, min


def _var(x, axis=None, keepdims=False):
    x = _float_input(x)
    centred = backend.numpy.subtract(x, backend.numpy.mean(x, axis=axis, keepdims=True))
    return backend.numpy.mean(backend.numpy.square(centred), axis=axis, keepdims=keepdims)


def _std(x, axis=None, keepdims=False):
    return backend.numpy.sqrt(_var(x, axis=axis, keepdims=keepdims))


Var, var = reduction("Var", _var, dtype_rule="float", module=_M)
Std, std = reduction("Std", _std, dtype_rule="float", module=_M)


def _arg_spec(self, x, axis=None, keepdims=False):
    axis = self.static.get("axis", axis)
    keepdims = self.static.get("keepdims", keepdims)
    shape = shapes.shape_of(x)
    if axis is not None:
        axis = shapes.check_axis(axis, len(shape), self.op_name)
    shapes.check_nonempty(shape, axis, self.op_name)
    if axis is None:
        return _spec((1,) * len(shape) if keepdims else (), "int32")
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
    if axis is not None:  # NumPy takes axis 0 of a scalar
        axis = shapes.check_axis(axis, len(shapes.shape_of(x)), "argmax")
    return _arg_reduce(backend.numpy.argmax, x, axis, keepdims)


def _argmin(x, axis=None, keepdims=False):
    if axis is not None:
        axis = shapes.check_axis(axis, len(shapes.shape_of(x)), "argmin")
    return _arg_reduce(backend.numpy.argmin, x, axis, keepdims)


Argmax, argmax = custom("Argmax", _argmax, _arg_spec, static_names=("axis", "keepdims"),
                        module=_M, summary="The index of the largest value.",
                        example=">>> ops.argmax(np.array([[1, 5, 2]]), axis=-1)\n"
                                "    array([1], dtype=int32)")
Argmin, argmin = custom("Argmin", _argmin, _arg_spec, static_names=("axis", "keepdims"),
                        module=_M, summary="The index of the smallest value.",
                        example=">>> ops.argmin(np.array([[1, 5, 2]]), axis=-1)\n"
                                "    array([0], dtype=int32)")


def _cumsum_dtype(x, dtype):
    dtype = shapes.numeric_dtype(x, "cumsum") if dtype is None else \
        shapes.check_dtype(dtype, "cumsum")
    return "int32" if dtype == "bool" else dtype  # booleans are counted


def _cumsum_spec(self, x, axis=None, dtype=None):
    axis = self.static.get("axis", axis)
    dtype = _cumsum_dtype(x, self.static.get("dtype", dtype))
    shape = shapes.shape_of(x)
    if axis is None:
        size = None if None in shape else int(np.prod(shape))
        return _spec((size,), dtype)
    shapes.check_axis(axis, len(shape), "cumsum")
    return _spec(shape, dtype)


def _cumsum(x, axis=None, dtype=None):
    x = backend.numpy.cast(x, _cumsum_dtype(x, dtype))
    if axis is None:
        return backend.numpy_extra.cumsum(backend.numpy.reshape(x, (-1,)), axis=0)
    axis = shapes.check_axis(axis, len(shapes.shape_of(x)), "cumsum")
    return backend.numpy_extra.cumsum(x, axis=axis)


Cumsum, cumsum = custom("Cumsum", _cumsum, _cumsum_spec, static_names=("axis", "dtype"),
                        module=_M,
                        summary="Running sum along ``axis`` (of all values, "
                                "flattened, by default), in ``dtype`` if given.",
                        example=">>> ops.cumsum(np.array([1.0, 2.0, 3.0]))\n"
                                "    array([1., 3., 6.])\n"
                                "    >>> ops.cumsum(np.array([True, True]))\n"
                                "    array([1, 2], dtype=int32)")


# ------------------------------------------------------------------- shape
def _check_newshape(shape, newshape, symbolic=False):
    """``newshape`` as a tuple of ints (one ``-1`` inferred when the size is
    known), with Keras's messages for a bad one. On KerasTensors a ``None``
    is an unknown size too (``ops.shape`` of a batch gives one)."""
    dims = (newshape,) if is_int(newshape) else newshape
    if not isinstance(dims, (tuple, list)) or not builtins.all(
            is_int(d) or (symbolic and d is None) for d in dims):
        raise TypeError(
            "ops.reshape: `newshape` must be a tuple of integers. Received: "
            f"newshape={newshape!r}"
        )
    known = [int(d) for d in dims if d is not None]
    if builtins.any(d < -1 for d in known):
        raise ValueError(
            "ops.reshape: Each dimension in `newshape` must be a non-negative "
            "integer, or `-1` for a single unknown dimension. Received: "
            f"newshape={newshape!r}"
        )
    if known.count(-1) > 1:
        raise ValueError(
            "ops.reshape: There must be at most one unknown dimension (-1) in "
            f"`newshape`. Received: newshape={newshape!r}"
        )
    if None in dims:
        return tuple(-1 if d is None else int(d) for d in dims)
    dims = tuple(known)
    if None in shape:
        return dims
    size = int(np.prod(shape))
    product = int(np.prod([d for d in dims if d != -1]))
    if (-1 in dims and (product == 0 or size % product)) or (
            -1 not in dims and product != size):
        raise ValueError(
            "ops.reshape: The total size of the tensor must be unchanged. "
            f"Received: input_shape={tuple(shape)}, newshape={newshape!r}"
        )
    return tuple(size // product if d == -1 else d for d in dims)


def _reshape_spec(self, x, newshape):
    dims = _check_newshape(shapes.shape_of(x), newshape, isinstance(x, KerasTensor))
    return _spec(tuple(None if d == -1 else d for d in dims), shapes.numeric_dtype(x, self.op_name))


def _reshape(x, newshape):
    return backend.numpy.reshape(x, _check_newshape(shapes.shape_of(x), newshape))


Reshape, reshape = custom(
    "Reshape", _reshape, _reshape_spec, module=_M,
    summary="The same values in a new shape (one ``-1`` is inferred).",
    example=">>> ops.reshape(KerasTensor((None, 2, 3)), (-1, 6)).shape\n"
            "    (None, 6)")


def _check_permutation(axes, ndim, op="transpose"):
    axes = tuple(axes) if isinstance(axes, (tuple, list)) else axes
    if not isinstance(axes, tuple) or not builtins.all(is_int(a) for a in axes):
        raise TypeError(f"ops.{op}: `axes` must be a list of integers. Received: "
                        f"axes={axes!r}")
    if len(axes) != ndim:
        raise ValueError(
            f"ops.{op}: axis must be a list of the same length as the input shape, "
            f"expected {ndim}, but received {len(axes)}. Received: axes={axes!r}"
        )
    if not builtins.all(-ndim <= a < ndim for a in axes):
        raise ValueError(
            f"ops.{op}: Each axis in `axes` must be an integer in [{-ndim}, {ndim}). "
            f"Received: axes={axes!r}"
        )
    canonical = tuple(int(a) % ndim for a in axes)
    if len(set(canonical)) != ndim:
        raise ValueError(
            f"ops.{op}: `axes` must be a valid permutation of the input dimensions "
            f"(no duplicates). Received: axes={axes!r} for input of rank {ndim}."
        )
    return canonical


def _transpose_spec(self, x, axes=None):
    shape = shapes.shape_of(x)
    axes = tuple(range(len(shape)))[::-1] if axes is None else \
        _check_permutation(axes, len(shape))
    return _spec(tuple(shape[a] for a in axes), shapes.numeric_dtype(x, self.op_name))


Transpose, transpose = custom(
    "Transpose", backend.numpy.transpose, _transpose_spec, module=_M,
    summary="Permute the axes (reverse them by default).",
    example=">>> ops.transpose(KerasTensor((None, 2, 3)), (0, 2, 1)).shape\n"
            "    (None, 3, 2)")


def _swapaxes_spec(self, x, axis1, axis2):
    shape = shapes.shape_of(x)
    axes = list(range(len(shape)))
    axis1 = shapes.check_axis(axis1, len(shape), "swapaxes", "axis1")
    axis2 = shapes.check_axis(axis2, len(shape), "swapaxes", "axis2")
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return _spec(tuple(shape[a] for a in axes), shapes.numeric_dtype(x, self.op_name))


Swapaxes, swapaxes = custom(
    "Swapaxes", backend.numpy.swapaxes, _swapaxes_spec, module=_M,
    summary="Exchange two axes.",
    example=">>> ops.swapaxes(KerasTensor((2, 3, 4)), 0, 2).shape\n    (4, 3, 2)")


def _expand_dims_spec(self, x, axis):
    if axis is None:
        raise TypeError("ops.expand_dims: argument `axis` must be an integer or a "
                        "tuple of integers. Received: axis=None")
    shape = list(shapes.shape_of(x))
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    axes = shapes.check_axes(axis, len(shape) + count, "expand_dims")
    for position in sorted(axes):
        shape.insert(position, 1)
    return _spec(shape, shapes.numeric_dtype(x, self.op_name))


def _expand_dims(x, axis):
    if axis is None:
        _expand_dims_spec(None, x, axis)
    if isinstance(axis, list):
        axis = tuple(axis)
    return backend.numpy.expand_dims(x, axis=axis)


ExpandDims, expand_dims = custom(
    "ExpandDims", _expand_dims, _expand_dims_spec,
    module=_M, summary="Insert an axis (or axes) of size 1.",
    example=">>> ops.expand_dims(KerasTensor((None, 3)), -1).shape\n"
            "    (None, 3, 1)")


def _squeeze_spec(self, x, axis=None):
    shape = shapes.shape_of(x)
    if axis is None:
        return _spec(tuple(d for d in shape if d != 1), shapes.numeric_dtype(x, self.op_name))
    axes = shapes.check_axes(axis, len(shape), "squeeze")
    for a in axes:
        if shape[a] not in (1, None):
            raise ValueError(
                f"ops.squeeze: Cannot squeeze axis {a}, because the dimension is "
                f"not 1. Received: x.shape={shape}, axis={axis!r}"
            )
    return _spec(tuple(d for i, d in enumerate(shape) if i not in axes),
                 shapes.numeric_dtype(x, self.op_name))


def _squeeze(x, axis=None):
    if isinstance(axis, list):
        axis = tuple(axis)
    return backend.numpy.squeeze(x, axis=axis)


Squeeze, squeeze = custom(
    "Squeeze", _squeeze, _squeeze_spec, module=_M,
    summary="Remove axes of size 1.",
    example=">>> ops.squeeze(KerasTensor((None, 1, 3)), axis=1).shape\n"
            "    (None, 3)")


def _tensor_list(xs, op, name):
    if not isinstance(xs, (list, tuple)) or not xs:
        raise ValueError(
            f"ops.{op}: `{name}` must be a non-empty list of tensors. Received: "
            f"{name}={xs!r}"
        )
    return list(xs)


def _join_spec(xs, axis, op, new_axis=False):
    name = "x" if new_axis else "xs"
    xs = _tensor_list(xs, op, name)
    for x in xs:
        shapes.numeric_dtype(x, op, name)
    first = list(shapes.shape_of(xs[0]))
    dtype = shapes.result_type(*xs)
    rank = len(first) + (1 if new_axis else 0)
    if not new_axis and not first:
        raise ValueError(f"ops.{op}: zero-dimensional arrays cannot be concatenated. "
                         f"Received: xs with shapes {shapes.describe_shapes(xs)}")
    position = shapes.check_axis(axis, rank, op)
    for x in xs[1:]:
        shape = shapes.shape_of(x)
        same = len(shape) == len(first) and builtins.all(
            a == b or a is None or b is None or (i == position and not new_axis)
            for i, (a, b) in enumerate(zip(first, shape)))
        if not same:
            wording = ("must have the same shape" if new_axis else
                       "must have the same shape except on the `axis` dim")
            raise ValueError(
                f"ops.{op}: Every value in `{name}` {wording}. But found element "
                f"of shape {tuple(shape)}, which is different from the first "
                f"element's shape {tuple(first)}. Received: {name} with shapes "
                f"{shapes.describe_shapes(xs)}, axis={axis}"
            )
    if new_axis:
        first.insert(position, len(xs))
        return _spec(first, dtype)
    sizes = [shapes.shape_of(x)[position] for x in xs]
    first[position] = None if None in sizes else int(builtins.sum(sizes))
    return _spec(first, dtype)


def _concatenate(xs, axis=0):
    xs = _tensor_list(xs, "concatenate", "xs")
    ndim = len(shapes.shape_of(xs[0]))
    return backend.numpy.concatenate(xs, axis=shapes.check_axis(axis, builtins.max(ndim, 1),
                                                                "concatenate"))


def _stack(x, axis=0):
    x = _tensor_list(x, "stack", "x")
    ndim = len(shapes.shape_of(x[0])) + 1
    return backend.numpy.stack(x, axis=shapes.check_axis(axis, ndim, "stack"))


Concatenate, concatenate = custom(
    "Concatenate", _concatenate,
    lambda self, xs, axis=0: _join_spec(xs, self.static.get("axis", axis),
                                        "concatenate"),
    static_names=("axis",), module=_M,
    summary="Join tensors along an existing axis.",
    example=">>> ops.concatenate([KerasTensor((None, 2)), KerasTensor((None, 3))],"
            " axis=-1).shape\n    (None, 5)")
Stack, stack = custom(
    "Stack", _stack,
    lambda self, x, axis=0: _join_spec(x, self.static.get("axis", axis), "stack",
                                       new_axis=True),
    static_names=("axis",), module=_M, summary="Join tensors along a new axis.",
    example=">>> ops.stack([KerasTensor((2,)), KerasTensor((2,))], axis=1).shape\n"
            "    (2, 2)")


def _broadcast_to_spec(self, x, shape):
    target = shapes.check_shape(shape, "broadcast_to")
    source = shapes.shape_of(x)
    if len(source) > len(target):
        raise ValueError(
            f"ops.broadcast_to: cannot broadcast a tensor of rank {len(source)} to a "
            f"shape of rank {len(target)}. Received: x.shape={source}, shape={shape!r}"
        )
    for have, want in zip(source[::-1], target[::-1]):
        if have not in (1, None, want):
            raise ValueError(
                "ops.broadcast_to: Cannot broadcast shape, the failure dim has value "
                f"{have}, which cannot be broadcasted to {want}. Input shapes are: "
                f"{source} and {target}. Received: x.shape={source}, shape={shape!r}"
            )
    return _spec(target, shapes.numeric_dtype(x, self.op_name))


def _broadcast_to(x, shape):
    return backend.numpy.broadcast_to(x, shapes.check_shape(shape, "broadcast_to"))


BroadcastTo, broadcast_to = custom(
    "BroadcastTo", _broadcast_to, _broadcast_to_spec, module=_M,
    summary="Repeat ``x`` along broadcast axes to reach ``shape``.",
    example=">>> ops.broadcast_to(np.array([1.0, 2.0]), (2, 2)).tolist()\n"
            "    [[1.0, 2.0], [1.0, 2.0]]")


def _take(x, indices, axis=None):
    if axis is None:
        x, axis = backend.numpy.reshape(x, (-1,)), 0
    axis = shapes.check_axis(axis, len(shapes.shape_of(x)), "take")
    # cast by a recorded op, so a traced step takes the indices of each replay
    indices = backend.numpy.cast(indices, "int64")
    return backend.numpy.take(x, indices, axis=axis)


def _take_spec(self, x, indices, axis=None):
    shape = shapes.shape_of(x)
    if shapes.kind_of(indices) not in "biuf":
        raise TypeError(f"ops.take: `indices` must be integers. Received: "
                        f"indices={indices!r}")
    if axis is None:
        return _spec(shapes.shape_of(indices), shapes.numeric_dtype(x, self.op_name))
    axis = shapes.check_axis(axis, len(shape), "take")
    out = shape[:axis] + shapes.shape_of(indices) + shape[axis + 1:]
    return _spec(out, shapes.numeric_dtype(x, self.op_name))


Take, take = custom(
    "Take", _take, _take_spec, module=_M,
    summary="Gather entries of ``x`` along ``axis`` at ``indices`` (negative "
            "ones count from the end).",
    example=">>> ops.take(np.array([[1, 2], [3, 4]]), np.array([1, 1]), axis=0)"
            ".tolist()\n    [[3, 4], [3, 4]]")

PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "circular")


def _pad_pairs(pad_width, ndim):
    """``pad_width`` as one ``(before, after)`` pair of ints per axis, by
    NumPy's rules: an int, a pair, one pair for every axis, or a pair per axis."""
    try:
        widths = np.asarray(pad_width)
        ok = widths.dtype.kind in "iu" or (widths.size == 0 and ndim == 0)
        pairs = np.broadcast_to(widths, (ndim, 2)) if ok else None
    except ValueError:
        pairs = None
    if pairs is None or np.asarray(pad_width).ndim > 2:
        raise ValueError(
            "ops.pad: `pad_width` must be an int, a (before, after) pair, or one "
            f"such pair per axis of `x` (rank {ndim}). Received: pad_width={pad_width!r}"
        )
    if (pairs < 0).any():
        raise ValueError(
            "ops.pad: `pad_width` must hold non-negative integers. Received: "
            f"pad_width={pad_width!r}"
        )
    return tuple((int(a), int(b)) for a, b in pairs)


def _check_pad(x, pad_width, mode, constant_values):
    shape = shapes.shape_of(x)
    if mode not in PAD_MODES:
        raise ValueError(f"ops.pad: `mode` must be one of {PAD_MODES}. Received: "
                         f"mode={mode!r}")
    if constant_values is not None:
        if mode != "constant":
            raise ValueError(
                "ops.pad: `constant_values` can only be set when `mode` is "
                f"'constant'. Received: mode={mode!r}, constant_values={constant_values!r}"
            )
        shapes.check_number(constant_values, "pad", "constant_values")
    pairs = _pad_pairs(pad_width, len(shape))
    if mode != "constant":
        for size, (lo, hi) in zip(shape, pairs):
            if size == 0 and (lo or hi):
                raise ValueError(
                    f"ops.pad: an empty axis cannot be padded in mode {mode!r} (there "
                    f"is nothing to copy). Received: x.shape={shape}, pad_width="
                    f"{pad_width!r}"
                )
    return pairs


def _pad_spec(self, x, pad_width, mode="constant", constant_values=None):
    pairs = _check_pad(x, pad_width, mode, constant_values)
    shape = shapes.shape_of(x)
    return _spec(tuple(None if d is None else d + lo + hi
                       for d, (lo, hi) in zip(shape, pairs)), shapes.numeric_dtype(x, self.op_name))


def _pad(x, pad_width, mode="constant", constant_values=None):
    pairs = _check_pad(x, pad_width, mode, constant_values)
    if not pairs:  # a scalar has no axis to pad
        return x
    if mode == "constant":
        return backend.numpy.pad(x, pairs, constant_values=constant_values or 0)
    # every other mode copies entries of x: one gather per padded axis, with
    # the indices NumPy's own padding gives an arange
    numpy_mode = "wrap" if mode == "circular" else mode
    for axis, (size, (lo, hi)) in enumerate(zip(shapes.shape_of(x), pairs)):
        if lo or hi:
            index = np.pad(np.arange(size), (lo, hi), mode=numpy_mode)
            x = backend.numpy.take(x, index, axis=axis)
    return x


Pad, pad = custom(
    "Pad", _pad, _pad_spec, module=_M,
    summary="Pad each axis by ``(before, after)`` entries: with "
            "``constant_values`` (0 by default) or, by ``mode``, copies of the "
            "edge (``'edge'``), mirror images without or with the edge "
            "(``'reflect'``, ``'symmetric'``) or the other end (``'wrap'``, "
            "``'circular'``).",
    example=">>> ops.pad(KerasTensor((None, 3)), ((0, 0), (1, 2))).shape\n"
            "    (None, 6)\n"
            "    >>> ops.pad(np.array([1, 2, 3]), 2, mode='reflect').tolist()\n"
            "    [3, 2, 1, 2, 3, 2, 1]")


def _tile_repeats(repeats):
    reps = tuple(repeats) if isinstance(repeats, (list, tuple)) else (repeats,)
    if not builtins.all(is_int(r) for r in reps):
        raise TypeError(f"ops.tile: `repeats` must be an integer or a tuple of "
                        f"integers. Received: repeats={repeats!r}")
    if builtins.any(r < 0 for r in reps):
        raise ValueError(f"ops.tile: `repeats` must be non-negative. Received: "
                         f"repeats={repeats!r}")
    return tuple(int(r) for r in reps)


def _tile_spec(self, x, repeats):
    shape = shapes.shape_of(x)
    repeats = _tile_repeats(repeats)
    rank = builtins.max(len(shape), len(repeats))
    shape = (1,) * (rank - len(shape)) + tuple(shape)
    repeats = (1,) * (rank - len(repeats)) + repeats
    return _spec(tuple(None if d is None else d * r for d, r in zip(shape, repeats)),
                 shapes.numeric_dtype(x, self.op_name))


def _tile(x, repeats):
    return backend.numpy_extra.tile(x, reps=_tile_repeats(repeats))


Tile, tile = custom(
    "Tile", _tile, _tile_spec, module=_M, summary="Repeat the whole tensor.",
    example=">>> ops.tile(np.array([1, 2]), 2).tolist()\n    [1, 2, 1, 2]")


def _flip(x, axis=None):
    shape = shapes.shape_of(x)
    return backend.numpy_extra.flip(x, axis=shapes.normalize_axes(axis, len(shape),
                                                                  "flip"))


def _flip_spec(self, x, axis=None):
    shapes.check_axes(axis, len(shapes.shape_of(x)), "flip")
    return _spec(shapes.shape_of(x), shapes.numeric_dtype(x, self.op_name))


Flip, flip = custom(
    "Flip", _flip, _flip_spec,
    module=_M, summary="Reverse the order of elements along ``axis``.",
    example=">>> ops.flip(np.array([1, 2, 3])).tolist()\n    [3, 2, 1]")


def _ravel(x):
    return backend.numpy.reshape(x, (-1,))


def _ravel_spec(self, x):
    shape = shapes.shape_of(x)
    size = None if None in shape else int(np.prod(shape))
    return _spec((size,), shapes.numeric_dtype(x, self.op_name))


Ravel, ravel = custom("Ravel", _ravel, _ravel_spec, module=_M,
                      summary="All values in one axis.",
                      example=">>> ops.ravel(np.ones((2, 3))).shape\n    (6,)")


def _repeat_counts(repeats, size, axis_text):
    """``repeats`` as an int, or a tuple of one count per entry."""
    counts = repeats
    if isinstance(repeats, np.ndarray) or (isinstance(repeats, (list, tuple))):
        counts = np.asarray(repeats)
        if counts.ndim > 1 or counts.dtype.kind not in "iu":
            counts = None
        elif counts.size == 1:
            counts = int(counts.reshape(()))
        else:
            counts = tuple(int(c) for c in counts)
    elif not is_int(repeats):
        counts = None
    if counts is None:
        raise TypeError("ops.repeat: `repeats` must be an integer or a list of "
                        f"integers. Received: repeats={repeats!r}")
    values = (counts,) if isinstance(counts, int) else counts
    if builtins.any(c < 0 for c in values):
        raise ValueError("ops.repeat: `repeats` must be non-negative. Received: "
                         f"repeats={repeats!r}")
    if isinstance(counts, tuple) and size is not None and len(counts) != size:
        raise ValueError(
            "ops.repeat: Size of `repeats` and dimensions of "
            f"{axis_text} should be compatible. Received: {len(counts)} and {size}"
        )
    return int(counts) if isinstance(counts, int) else counts


def _repeat_geometry(x, repeats, axis):
    shape = shapes.shape_of(x)
    if axis is None:
        size = None if None in shape else int(np.prod(shape))
        counts = _repeat_counts(repeats, size, "`x` after flattening")
        return (size,), 0, counts
    axis = shapes.check_axis(axis, len(shape), "repeat")
    counts = _repeat_counts(repeats, shape[axis], f"axis {axis} of `x`")
    return tuple(shape), axis, counts


def _repeat_spec(self, x, repeats, axis=None):
    shape, axis, counts = _repeat_geometry(x, repeats, self.static.get("axis", axis))
    shape = list(shape)
    if shape[axis] is not None:
        shape[axis] = shape[axis] * counts if isinstance(counts, int) else \
            int(builtins.sum(counts))
    return _spec(shape, shapes.numeric_dtype(x, self.op_name))


def _repeat(x, repeats, axis=None):
    shape, position, counts = _repeat_geometry(x, repeats, axis)
    if axis is None:
        x = backend.numpy.reshape(x, (-1,))
    return backend.numpy_extra.repeat(x, repeats=counts, axis=position)


Repeat, repeat = custom(
    "Repeat", _repeat, _repeat_spec, static_names=("axis",), module=_M,
    summary="Repeat each element ``repeats`` times (or ``repeats[i]`` times "
            "for the ``i``-th) along ``axis`` (of all values, flattened, by "
            "default).",
    example=">>> ops.repeat(np.array([[1, 2], [3, 4]]), 2, axis=1).tolist()\n"
            "    [[1, 1, 2, 2], [3, 3, 4, 4]]")


def _roll_arguments(x, shift, axis):
    ndim = len(shapes.shape_of(x))
    shifts = shift if isinstance(shift, (list, tuple)) else (shift,)
    if not builtins.all(is_int(s) for s in shifts):
        raise TypeError(f"ops.roll: `shift` must be an integer or a tuple of "
                        f"integers. Received: shift={shift!r}")
    if axis is None:
        if len(shifts) != 1:
            raise ValueError("ops.roll: one `shift` is needed when `axis` is None. "
                             f"Received: shift={shift!r}")
        return tuple(int(s) for s in shifts), None
    axes = shapes.check_axes(axis, ndim, "roll")
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError(
            "ops.roll: `shift` and `axis` must have the same length. Received: "
            f"shift={shift!r}, axis={axis!r}"
        )
    return tuple(int(s) for s in shifts), axes


def _roll_spec(self, x, shift, axis=None):
    _roll_arguments(x, shift, self.static.get("axis", axis))
    return _spec(shapes.shape_of(x), shapes.numeric_dtype(x, self.op_name))


def _roll(x, shift, axis=None):
    shifts, axes = _roll_arguments(x, shift, axis)
    if axes is None:
        shape = shapes.shape_of(x)
        flat = backend.numpy_extra.roll(backend.numpy.reshape(x, (-1,)),
                                        shift=shifts, axis=(0,))
        return backend.numpy.reshape(flat, shape)
    return backend.numpy_extra.roll(x, shift=shifts, axis=axes)


Roll, roll = custom(
    "Roll", _roll, _roll_spec, static_names=("axis",), module=_M,
    summary="Shift the elements along ``axis`` by ``shift`` places, those "
            "pushed off one end coming back at the other (of all values, "
            "flattened, by default).",
    example=">>> ops.roll(np.array([1, 2, 3, 4]), 1).tolist()\n    [4, 1, 2, 3]")


def _split_bounds(x, indices_or_sections, axis):
    shape = shapes.shape_of(x)
    axis = shapes.check_axis(axis, len(shape), "split")
    size = shape[axis]
    if is_int(indices_or_sections):
        sections = int(indices_or_sections)
        if sections < 1:
            raise ValueError("ops.split: the number of sections must be at least 1. "
                             f"Received: indices_or_sections={sections}")
        if size is None:
            return axis, [None] * sections
        if size % sections:
            raise ValueError(
                "ops.split: `x` size on given `axis` must be divisible by "
                "`indices_or_sections` when `indices_or_sections` is an int. But "
                f"received {size} and {sections}. Received: x.shape={shape}, "
                f"axis={axis}"
            )
        step = size // sections
        return axis, [(i * step, (i + 1) * step) for i in range(sections)]
    try:
        cuts = [int(c) if is_int(c) else None for c in indices_or_sections]
    except TypeError:
        cuts = [None]
    if not cuts or None in cuts:
        raise TypeError(
            "ops.split: `indices_or_sections` must be an int (a number of equal "
            "sections) or a list of integer indices. Received: "
            f"indices_or_sections={indices_or_sections!r}"
        )
    limit = size if size is not None else builtins.max(cuts)
    if cuts != sorted(cuts) or cuts[0] < 0 or cuts[-1] > limit:
        raise ValueError(
            f"ops.split: the indices must be increasing and within [0, {size}] "
            f"(the size of axis {axis}). Received: indices_or_sections={cuts}"
        )
    edges = [0] + cuts + [size]
    return axis, [(lo, hi) for lo, hi in zip(edges[:-1], edges[1:])]


def _split_spec(self, x, indices_or_sections, axis=0):
    axis, bounds = _split_bounds(x, indices_or_sections, self.static.get("axis", axis))
    out = []
    for bound in bounds:
        shape = list(shapes.shape_of(x))
        shape[axis] = None if bound is None or None in bound else bound[1] - bound[0]
        out.append(_spec(shape, shapes.numeric_dtype(x, self.op_name)))
    return out


def _split(x, indices_or_sections, axis=0):
    axis, bounds = _split_bounds(x, indices_or_sections, axis)
    lead = (slice(None),) * axis
    return [backend.numpy.getitem(x, lead + (slice(lo, hi),)) for lo, hi in bounds]


Split, split = custom(
    "Split", _split, _split_spec, static_names=("axis",), module=_M,
    summary="Cut ``x`` along ``axis`` into ``indices_or_sections`` equal parts, "
            "or at the given indices; a list of tensors.",
    example=">>> [p.tolist() for p in ops.split(np.arange(6), [2, 5])]\n"
            "    [[0, 1], [2, 3, 4], [5]]")


def _meshgrid_inputs(xs, indexing):
    if indexing not in ("xy", "ij"):
        raise ValueError("ops.meshgrid: Valid values for `indexing` are 'xy' and "
                         f"'ij'. Received: indexing={indexing!r}")
    return xs


def _meshgrid_shape(xs, indexing):
    sizes = []
    for x in xs:
        shape = shapes.shape_of(x)
        sizes.append(None if None in shape else int(np.prod(shape)))
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return tuple(sizes)


def _meshgrid_spec(self, *xs, indexing="xy"):
    indexing = self.static.get("indexing", indexing)
    _meshgrid_inputs(xs, indexing)
    shape = _meshgrid_shape(xs, indexing)
    return [_spec(shape, shapes.numeric_dtype(x, self.op_name)) for x in xs]


def _meshgrid(*xs, indexing="xy"):
    _meshgrid_inputs(xs, indexing)
    shape = _meshgrid_shape(xs, indexing)
    out = []
    for i, x in enumerate(xs):
        position = i
        if indexing == "xy" and len(xs) >= 2 and i < 2:
            position = 1 - i
        along = [1] * len(xs)
        along[position] = -1
        line = backend.numpy.reshape(x, tuple(along))
        out.append(backend.numpy.broadcast_to(line, shape))
    return out


Meshgrid, meshgrid = custom(
    "Meshgrid", _meshgrid, _meshgrid_spec, static_names=("indexing",), module=_M,
    summary="Coordinate grids from 1D coordinate tensors (``'xy'``: the first "
            "varies along columns, as in plots; ``'ij'``: along rows).",
    example=">>> x, y = ops.meshgrid(np.array([1, 2, 3]), np.array([4, 5]))\n"
            "    >>> x.tolist(), y.tolist()\n"
            "    ([[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]])")


# ----------------------------------------------------------- linear algebra
def _numeric_pair(x1, x2, op):
    shapes.numeric_dtype(x1, op, "x1")
    shapes.numeric_dtype(x2, op, "x2")


def _matmul_spec(self, x1, x2):
    _numeric_pair(x1, x2, "matmul")
    a, b = list(shapes.shape_of(x1)), list(shapes.shape_of(x2))
    if len(a) == 0 or len(b) == 0:
        raise ValueError(
            "ops.matmul: both tensors must be at least 1D. Received: "
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
    batch = shapes.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2]), "matmul")
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


def _tensordot_axes(x1, x2, axes, op="tensordot"):
    """``axes`` as two tuples of non-negative axes, checked."""
    s1, s2 = shapes.shape_of(x1), shapes.shape_of(x2)
    if is_int(axes):
        if not 0 <= axes <= builtins.min(len(s1), len(s2)):
            raise ValueError(
                f"ops.{op}: `axes` must be between 0 and the smaller rank "
                f"({builtins.min(len(s1), len(s2))}). Received: axes={axes}, "
                f"x1.shape={s1}, x2.shape={s2}"
            )
        a1 = tuple(range(len(s1) - axes, len(s1)))
        a2 = tuple(range(axes))
    else:
        if not isinstance(axes, (list, tuple)) or len(axes) != 2:
            raise ValueError(f"ops.{op}: `axes` must be an int or a pair of lists "
                             f"of axes. Received: axes={axes!r}")
        a1, a2 = ((a,) if is_int(a) else a for a in axes)
        if not isinstance(a1, (list, tuple)) or not isinstance(a2, (list, tuple)) or \
                len(a1) != len(a2):
            raise ValueError(
                f"ops.{op}: the two lists of `axes` must have the same length. "
                f"Received: axes={axes!r}"
            )
        a1 = shapes.check_axes(tuple(a1), len(s1), op, "axes")
        a2 = shapes.check_axes(tuple(a2), len(s2), op, "axes")
    left, right = [s1[a] for a in a1], [s2[a] for a in a2]
    if builtins.any(p is not None and q is not None and p != q
                    for p, q in zip(left, right)):
        raise ValueError(
            f"ops.{op}: Shape mismatch on `x1[axes[0]]` and `x2[axes[1]]`, "
            f"received {left} and {right}. Received: x1.shape={s1}, x2.shape={s2}, "
            f"axes={axes!r}"
        )
    return a1, a2


def _tensordot_spec(self, x1, x2, axes=2):
    _numeric_pair(x1, x2, "tensordot")
    a1, a2 = _tensordot_axes(x1, x2, self.static.get("axes", axes))
    s1, s2 = shapes.shape_of(x1), shapes.shape_of(x2)
    out = [d for i, d in enumerate(s1) if i not in a1] + \
        [d for i, d in enumerate(s2) if i not in a2]
    return _spec(out, shapes.result_type(x1, x2))


def _tensordot(x1, x2, axes=2):
    return backend.numpy_extra.tensordot(x1, x2, axes=_tensordot_axes(x1, x2, axes))


Tensordot, tensordot = custom(
    "Tensordot", _tensordot, _tensordot_spec, static_names=("axes",), module=_M,
    summary="Sum of products over ``axes``: an int ``n`` pairs the last ``n`` "
            "axes of ``x1`` with the first ``n`` of ``x2``; a pair of lists "
            "names them.",
    example=">>> ops.tensordot(KerasTensor((None, 3, 4)), KerasTensor((4, 5)),"
            " axes=1).shape\n    (None, 3, 5)")


def _dot_spec(self, x1, x2):
    _numeric_pair(x1, x2, "dot")
    s1, s2 = shapes.shape_of(x1), shapes.shape_of(x2)
    if not s1 or not s2:
        shape = shapes.broadcast_shapes(s1, s2, "dot")
        return _spec(shape, shapes.result_type(x1, x2))
    right = 0 if len(s2) == 1 else len(s2) - 2
    if s1[-1] is not None and s2[right] is not None and s1[-1] != s2[right]:
        raise ValueError(
            "ops.dot: Shape must match on the last axis of `x1` and second last "
            "axis of `x2` (its only axis when it is 1-D). Received: "
            f"x1.shape={s1}, x2.shape={s2}"
        )
    out = list(s1[:-1]) + [d for i, d in enumerate(s2) if i != right]
    return _spec(out, shapes.result_type(x1, x2))


def _dot(x1, x2):
    s1, s2 = shapes.shape_of(x1), shapes.shape_of(x2)
    if not s1 or not s2:
        return multiply(x1, x2)  # a Python float stays weak
    right = 0 if len(s2) == 1 else len(s2) - 2
    return backend.numpy_extra.tensordot(x1, x2, axes=((len(s1) - 1,), (right,)))


Dot, dot = custom(
    "Dot", _dot, _dot_spec, module=_M,
    summary="``np.dot``: the last axis of ``x1`` against the second last of "
            "``x2`` (its only one if 1-D); a product with a scalar.",
    example=">>> ops.dot(KerasTensor((2, 3, 4)), KerasTensor((5, 4, 6))).shape\n"
            "    (2, 3, 5, 6)")


def _einsum_spec(self, subscripts, *operands):
    if not isinstance(subscripts, str):
        raise TypeError(f"ops.einsum: `subscripts` must be a string. Received: "
                        f"subscripts={subscripts!r}")
    for x in operands:
        shapes.numeric_dtype(x, "einsum", "operands")
    subscripts = backend.numpy_extra.expand_ellipsis(
        subscripts, [len(shapes.shape_of(x)) for x in operands])
    names, output = backend.numpy_extra._parse(subscripts, len(operands))
    sizes = {}
    for k, (name, x) in enumerate(zip(names, operands)):
        if len(set(name)) != len(name):
            raise ValueError(
                "ops.einsum: a letter repeated within one operand (a trace or a "
                f"diagonal) is not supported. Received: subscripts={subscripts!r}"
            )
        shape = shapes.shape_of(x)
        if len(name) != len(shape) or not (name.isalpha() or not name):
            raise ValueError(
                "ops.einsum: Number of dimensions in the subscript does not match "
                f"the number of dimensions in the operand, received subscript "
                f"`{name}` and operand of shape {shape}. Received: "
                f"subscripts={subscripts!r}"
            )
        for letter, size in zip(name, shape):
            seen = sizes.get(letter)
            if seen not in (None, 1) and size not in (None, 1) and seen != size:
                raise ValueError(
                    f"ops.einsum: subscript {letter} has size {size} for operand "
                    f"{k} which does not broadcast with previously seen size "
                    f"{seen}. Received: subscripts={subscripts!r}, shapes "
                    f"{shapes.describe_shapes(operands)}"
                )
            if seen in (None, 1):
                sizes[letter] = size
    unknown = [c for c in output if c not in sizes]
    if unknown or len(set(output)) != len(output) or not (output.isalpha() or not output):
        raise ValueError(
            "ops.einsum: every output subscript must appear in the equation for "
            f"some input operand, once. Received: subscripts={subscripts!r}"
        )
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
    return backend.numpy.zeros(shapes.check_shape(shape, "zeros"),
                               dtype=shapes.check_dtype(dtype, "zeros"))


def ones(shape, dtype=None):
    """An array of ones (``floatx`` by default).

    >>> ones((1, 2)).shape
    (1, 2)
    """
    return backend.numpy.ones(shapes.check_shape(shape, "ones"),
                              dtype=shapes.check_dtype(dtype, "ones"))


def full(shape, fill_value, dtype=None):
    """An array filled with ``fill_value``.

    >>> full((2,), 7.0)
    array([7., 7.], dtype=float32)
    """
    shape = shapes.check_shape(shape, "full")
    value = convert_to_tensor(fill_value)
    if shapes.broadcast_shapes(value.shape, shape, "full") != shape:
        raise ValueError(f"ops.full: `fill_value` must broadcast to `shape`. "
                         f"Received: fill_value of shape {value.shape}, shape={shape}")
    return np.full(shape, value, dtype=shapes.check_dtype(dtype, "full"))


def _like(fill, x, dtype):
    op = "zeros_like" if fill == 0 else "ones_like"
    shapes.numeric_dtype(x, op)
    if dtype is not None:
        dtype = shapes.check_dtype(dtype, op)
    if any_symbolic((x,)):
        return _spec(shapes.shape_of(x), dtype or shapes.dtype_of(x))
    out = backend.numpy.zeros_like(x) if fill == 0 else backend.numpy.ones_like(x)
    return out if dtype is None else backend.numpy.cast(out, dtype)


def zeros_like(x, dtype=None):
    """Zeros of the shape (and dtype) of ``x``.

    >>> zeros_like(np.ones((2, 1), "int32")).dtype
    dtype('int32')
    """
    return _like(0, x, dtype)


def ones_like(x, dtype=None):
    """Ones of the shape (and dtype) of ``x``.

    >>> ones_like(KerasTensor((None, 3))).shape
    (None, 3)
    """
    return _like(1, x, dtype)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values, as ``np.arange`` (ints stay ints).

    >>> arange(3), arange(1.0, 2.0, 0.5)
    (array([0, 1, 2], dtype=int32), array([1. , 1.5], dtype=float32))
    >>> arange(0, 10, 0)
    Traceback (most recent call last):
      ...
    ValueError: ops.arange: `step` must be nonzero. Received: step=0
    """
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if value is not None:
            shapes.check_number(value, "arange", name)
            if not np.isfinite(value_of(value)):
                raise ValueError(f"ops.arange: `{name}` must be a finite number. "
                                 f"Received: {name}={value!r}")
    if step == 0:
        raise ValueError(f"ops.arange: `step` must be nonzero. Received: step={step}")
    if dtype is not None:
        dtype = shapes.check_dtype(dtype, "arange")
    try:
        values = np.arange(value_of(start), None if stop is None else value_of(stop),
                           value_of(step))
    except (ValueError, MemoryError):  # more values than memory can hold
        raise ValueError(
            "ops.arange: the range holds too many values. Received: "
            f"start={start!r}, stop={stop!r}, step={step!r}"
        ) from None
    if dtype is None:
        dtype = "int32" if values.dtype.kind in "iu" else config.floatx()
    return values.astype(dtype)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 (Keras's names)
    """The ``N x M`` identity matrix (ones on the ``k``-th diagonal).

    >>> eye(2)
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    n = shapes.check_int(N, "eye", "N", minimum=0)
    m = n if M is None else shapes.check_int(M, "eye", "M", minimum=0)
    k = shapes.check_int(k, "eye", "k")
    return np.eye(n, m, k, dtype=shapes.check_dtype(dtype, "eye"))


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    """``num`` evenly spaced values from ``start`` to ``stop`` (included if
    ``endpoint``).

    >>> linspace(0.0, 1.0, 3)
    array([0. , 0.5, 1. ], dtype=float32)
    """
    shapes.check_number(start, "linspace", "start")
    shapes.check_number(stop, "linspace", "stop")
    num = shapes.check_int(num, "linspace", "num", minimum=0)
    dtype = shapes.check_dtype(dtype, "linspace")
    return np.linspace(value_of(start), value_of(stop), num, endpoint=endpoint).astype(
        dtype)


__all__ = [name for name in dir() if not name.startswith("_") and name not in (
    "np", "backend", "config", "value_of", "KerasTensor", "any_symbolic", "shapes",
    "binary", "custom", "reduction", "unary", "builtins", "convert_to_tensor",
    "is_int", "PAD_MODES")]


# ----------------------------------------------------------------- indexing
def _check_index(item, size, shape, key):
    if size is not None and not -size <= item < size:
        raise ValueError(
            f"ops.get_item: Array has shape {shape} but out-of-bounds index {item} "
            f"was requested. Received: key={key!r}"
        )


def _getitem_spec(self, x, key):
    shape = list(shapes.shape_of(x))
    key = key if isinstance(key, tuple) else (key,)
    if builtins.sum(1 for k in key if k is Ellipsis) > 1:
        raise ValueError(f"ops.get_item: Slice should only have one ellipsis. "
                         f"Received: key={key!r}")
    indexed = builtins.sum(1 for k in key if k is not None and k is not Ellipsis)
    if indexed > len(shape):
        raise ValueError(
            f"ops.get_item: Array has shape {tuple(shape)} but slice has too many "
            f"indices. Received: key={key!r}"
        )
    out, axis = [], 0
    for item in key:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            rest = len(shape) - indexed
            out += shape[axis:axis + rest]
            axis += rest
        elif isinstance(item, slice):
            for part in (item.start, item.stop, item.step):
                if part is not None and not is_int(part):
                    raise TypeError(
                        "ops.get_item: slice bounds must be integers or None. "
                        f"Received: key={key!r}"
                    )
            if item.step == 0:
                raise ValueError(f"ops.get_item: slice step cannot be zero. "
                                 f"Received: key={key!r}")
            size = shape[axis]
            out.append(None if size is None else len(range(*item.indices(size))))
            axis += 1
        elif is_int(item):
            _check_index(item, shape[axis], tuple(shape), key)
            axis += 1
        elif isinstance(item, (np.ndarray, list)) and not any_symbolic(item) and \
                np.asarray(item).dtype.kind in "iu":
            index = np.asarray(item)
            if index.size:
                _check_index(int(index.min()), shape[axis], tuple(shape), key)
                _check_index(int(index.max()), shape[axis], tuple(shape), key)
            out += list(index.shape)
            axis += 1
        else:
            raise ValueError(
                "ops.get_item: indexing supports integers, slices, None, `...` and "
                f"one array of integers. Received: key={key!r}"
            )
    return _spec(out + shape[axis:], shapes.numeric_dtype(x, self.op_name))


def _getitem(x, key):
    if any_symbolic((x,)):
        return GetItem().symbolic_call(x, key)
    return get_item(x, key)


GetItem, get_item = custom(
    "GetItem", lambda x, key: backend.numpy.getitem(x, key), _getitem_spec, module=_M,
    summary="``x[key]`` (integers, slices, ``None``, ``...`` and an array of "
            "integers).",
    example=">>> ops.get_item(KerasTensor((None, 4, 3)), (slice(None), 0)).shape\n"
            "    (None, 3)")
__all__ += ["get_item", "GetItem"]
