"""Shape and dtype rules: what an op returns, worked out without computing.

Keras 3 writes a ``compute_output_spec`` for every op; most follow a few
rules, collected here: broadcasting, reductions, and type promotion. An
unknown dimension (``None``) stays unknown, except where the rule fixes it.
The rules are also where an op's arguments are checked (axes in range, ranks
and sizes that fit, shapes of non-negative ints): a bad call gets the same
``ValueError`` or ``TypeError`` whether the op was given arrays or
KerasTensors (see :func:`kerasmini.ops.families.explain`), worded as Keras
words it where Keras has a message, starting with the op's name.

>>> broadcast_shapes((None, 1, 3), (4, 1))
(None, 4, 3)
>>> reduce_shape((2, 3, 4), axis=1), reduce_shape((2, 3), axis=None, keepdims=True)
((2, 4), (1, 1))
"""

import numbers

import numpy as np

from kerasmini.backend import autocast, config, validation
from kerasmini.backend.core import is_tensor
from kerasmini.backend.validation import is_int


def where(op):
    """The start of every message of an op's check: ``ops.<name>: ``.

    >>> where("sum")
    'ops.sum: '
    """
    return f"ops.{op}: " if op else ""


def broadcast_shapes(shape1, shape2, op=None):
    """The shape NumPy broadcasting gives two shapes (``None``: unknown),
    refused with Keras's message when two known sizes differ and neither is 1.

    >>> broadcast_shapes((2, 3), (5,), op="add")
    Traceback (most recent call last):
      ...
    ValueError: ops.add: Cannot broadcast shape, the failure dim has value 3, which ...
    """
    shape1, shape2 = tuple(shape1), tuple(shape2)
    rank = max(len(shape1), len(shape2))
    a = (1,) * (rank - len(shape1)) + shape1
    b = (1,) * (rank - len(shape2)) + shape2
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)  # the known one must win at run time
        else:
            raise ValueError(
                f"{where(op)}Cannot broadcast shape, the failure dim has value {x}, "
                f"which cannot be broadcasted to {y}. Input shapes are: {shape1} and "
                f"{shape2}. Received: x1.shape={shape1}, x2.shape={shape2}"
            )
    return tuple(out)


def check_axis(axis, ndim, op=None, name="axis", received=None):
    """One axis of a tensor of rank ``ndim`` as a non-negative int (Keras's
    ``canonicalize_axis``): a ``TypeError`` if it is not an integer, a
    ``ValueError`` if it is outside ``[-ndim, ndim)``.

    >>> check_axis(-1, 3)
    2
    >>> check_axis(5, 2, op="sum")
    Traceback (most recent call last):
      ...
    ValueError: ops.sum: axis 5 is out of bounds for an array with dimension 2. Received: axis=5
    """
    received = axis if received is None else received
    if not is_int(axis):
        raise TypeError(
            f"{where(op)}argument `{name}` must be an integer. Received: "
            f"{name}={received!r} (of type {type(received).__name__})"
        )
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"{where(op)}{name} {axis} is out of bounds for an array with dimension "
            f"{ndim}. Received: {name}={received!r}"
        )
    return int(axis) % ndim


def check_axes(axis, ndim, op=None, name="axis"):
    """``axis`` (an int, a tuple or list of ints, or ``None`` for all) as a
    tuple of non-negative ints in the order given; each checked by
    :func:`check_axis`, and no axis named twice.

    >>> check_axes(-1, 3), check_axes((0, -1), 3), check_axes(None, 2)
    ((2,), (0, 2), (0, 1))
    >>> check_axes((0, -2), 2, op="sum")
    Traceback (most recent call last):
      ...
    ValueError: ops.sum: repeated axis in `axis`. Received: axis=(0, -2)
    """
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(check_axis(a, ndim, op, name, received=axis) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{where(op)}repeated axis in `{name}`. Received: {name}={axis!r}")
    return out


def normalize_axes(axis, ndim, op=None):
    """``axis`` (an int, a tuple, or ``None`` for all) as sorted positive ints.

    >>> normalize_axes(-1, 3), normalize_axes((0, -1), 3), normalize_axes(None, 2)
    ((2,), (0, 2), (0, 1))
    """
    return tuple(sorted(check_axes(axis, ndim, op)))


def reduce_shape(shape, axis=None, keepdims=False, op=None):
    """The shape after reducing ``axis``.

    >>> reduce_shape((None, 3, 4), axis=(1, 2))
    (None,)
    """
    axes = normalize_axes(axis, len(shape), op)
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def check_nonempty(shape, axis, op):
    """Refuse to take the maximum (or minimum, or its index) over an empty
    axis, which has none.

    >>> check_nonempty((2, 0), 1, "max")
    Traceback (most recent call last):
      ...
    ValueError: ops.max: cannot reduce an empty axis (it has no maximum or minimum). ...
    """
    axes = check_axes(axis, len(shape), op)
    if any(shape[a] == 0 for a in axes):
        raise ValueError(
            f"{where(op)}cannot reduce an empty axis (it has no maximum or minimum). "
            f"Received: x.shape={tuple(shape)}, axis={axis!r}"
        )


def sum_result(dtype):
    """The dtype of a sum: booleans and integers narrower than 32 bits add
    up in int32 (unsigned: uint32), as in Keras 3.

    >>> sum_result("bool"), sum_result("int8"), sum_result("int64")
    ('int32', 'int32', 'int64')
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "b" or (dtype.kind == "i" and dtype.itemsize < 4):
        return "int32"
    if dtype.kind == "u" and dtype.itemsize < 4:
        return "uint32"
    return dtype.name


def check_int(value, op, name, minimum=None):
    """An integer argument of an op (a size, a count), as a Python int.

    >>> check_int(2.5, "one_hot", "num_classes")
    Traceback (most recent call last):
      ...
    TypeError: ops.one_hot: argument `num_classes` must be an integer. Received: num_cl...
    """
    return validation.check_int(value, name, minimum=minimum, owner=f"ops.{op}")


def check_number(value, op, name):
    """A number argument of an op (a slope, a fill value), as it is.

    >>> check_number("x", "elu", "alpha")
    Traceback (most recent call last):
      ...
    TypeError: ops.elu: argument `alpha` must be a number. Received: alpha='x' (of type str)
    """
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value
    if is_tensor(value) and np.ndim(value) == 0:
        return value  # a 0-d tensor (a Variable, say) is a number too
    raise TypeError(
        f"{where(op)}argument `{name}` must be a number. Received: {name}={value!r} "
        f"(of type {type(value).__name__})"
    )


def check_shape(shape, op, name="shape"):
    """A shape given to an op (``zeros``, ``broadcast_to``...): a tuple of
    non-negative ints (an int is a shape of one axis).

    >>> check_shape([2, 3], "zeros")
    (2, 3)
    >>> check_shape((-1, 2), "zeros")
    Traceback (most recent call last):
      ...
    ValueError: ops.zeros: argument `shape` must be a tuple of non-negative integers. Re...
    """
    dims = (shape,) if is_int(shape) else shape
    expected = (f"{where(op)}argument `{name}` must be a tuple of non-negative "
                f"integers. Received: {name}={shape!r}")
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"{expected} (of type {type(shape).__name__})")
    for d in dims:
        if not is_int(d):
            raise TypeError(f"{expected}: {d!r} is not an integer")
        if d < 0:
            raise ValueError(f"{expected}: negative dimensions are not allowed")
    return tuple(int(d) for d in dims)


def check_dtype(dtype, op, name="dtype"):
    """A dtype argument of an op as a name (``None``: floatx).

    >>> check_dtype("int8", "zeros")
    'int8'
    >>> check_dtype("nope", "zeros")
    Traceback (most recent call last):
      ...
    ValueError: ops.zeros: Invalid dtype: 'nope'. Expected one of [...]. Received: dtype='nope'
    """
    try:
        return config.standardize_dtype(dtype)
    except ValueError as error:
        raise ValueError(f"{where(op)}{error} Received: {name}={dtype!r}") from None


def describe_shapes(xs):
    """The shapes of a list of tensors, for a message.

    >>> describe_shapes([np.ones((2, 1)), 3.0])
    '[(2, 1), ()]'
    """
    return "[" + ", ".join(str(shape_of(x)) for x in xs) + "]"


def dtype_of(x):
    """The dtype name of a tensor, KerasTensor, Variable or Python number.

    >>> dtype_of(np.zeros(2, "int32")), dtype_of(1.5), dtype_of(True)
    ('int32', 'float32', 'bool')
    """
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int32"
    if isinstance(x, float):
        return config.floatx()
    dtype = getattr(x, "dtype", None)
    if getattr(x, "__kerasmini_variable__", False):
        dtype = autocast.read_dtype(x)  # float16 in a mixed-precision call
    if dtype is None:
        return np.asarray(x).dtype.name
    return dtype if isinstance(dtype, str) else np.dtype(dtype).name


def kind_of(x):
    """The NumPy kind of the dtype of ``x`` (``"f"``, ``"i"``, ``"b"``...;
    ``"O"`` for what is not numbers).

    >>> kind_of(np.zeros(2, "int32")), kind_of(1.5), kind_of("a")
    ('i', 'f', 'U')
    """
    dtype = getattr(x, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype.kind
    if dtype is None:
        try:
            return np.asarray(x).dtype.kind
        except (ValueError, TypeError):  # a ragged list
            return "O"
    try:
        return np.dtype(dtype).kind
    except TypeError:
        return "O"


def numeric_dtype(x, op, name="x"):
    """The dtype name of ``x`` if it holds numbers (or booleans), else a
    ``TypeError`` naming the op.

    >>> numeric_dtype(np.array(["a"]), "exp")
    Traceback (most recent call last):
      ...
    TypeError: ops.exp: `x` must be a tensor of numbers. Received: x of dtype <U1
    """
    if kind_of(x) not in "biuf":
        dtype = getattr(x, "dtype", None)
        what = f"x of dtype {dtype}" if dtype is not None else f"x={x!r}"
        raise TypeError(f"ops.{op}: `{name}` must be a tensor of numbers. Received: "
                        f"{what.replace('x', name, 1)}")
    return dtype_of(x)


def result_type(*values):
    """The dtype of an elementwise result, Keras 3 style: Python numbers are
    weak (``float32 + 2.0`` stays float32; ``int + 2.5`` becomes floatx).

    >>> result_type(np.zeros(1, "float32"), 2.0), result_type(np.zeros(1, "int32"), 0.5)
    ('float32', 'float32')
    """
    strong = [dtype_of(v) for v in values if not isinstance(v, (int, float))]
    weak = [v for v in values if isinstance(v, (int, float))]
    if not strong:
        return dtype_of(weak[0]) if len(weak) == 1 else (
            config.floatx() if any(isinstance(v, float) for v in weak) else "int32")
    dtype = np.result_type(*strong)
    if any(isinstance(v, float) and not isinstance(v, bool) for v in weak) \
            and dtype.kind in "biu":
        return config.floatx()
    if dtype.kind == "b" and any(type(v) is int for v in weak):
        return "int64"  # booleans next to an integer count, as NumPy adds them
    return dtype.name


def float_result(dtype):
    """The dtype of ``exp``, ``sqrt``, ``mean``...: floats stay, ints become floatx.

    >>> float_result("int32"), float_result("float64")
    ('float32', 'float64')
    """
    try:
        return dtype if np.dtype(dtype).kind == "f" else config.floatx()
    except TypeError:  # not a dtype of numbers: the checks say so elsewhere
        return config.floatx()


def shape_of(x):
    """The shape of anything tensor-like (``()`` for a Python number).

    >>> shape_of(3.0), shape_of(np.zeros((2, 1)))
    ((), (2, 1))
    """
    shape = getattr(x, "shape", None)
    return tuple(shape) if shape is not None else np.shape(x)


def conv_output_length(size, window, stride, dilation, padding):
    """The output size of a convolution (or pooling) along one spatial axis
    (``None`` stays ``None``): ``ceil(size / stride)`` for ``"same"``.

    >>> conv_output_length(8, 3, 2, 1, "same"), conv_output_length(8, 3, 1, 1, "valid")
    (4, 6)
    """
    if size is None:
        return None
    if padding == "same":
        return -(-size // stride)
    return (size - ((window - 1) * dilation + 1)) // stride + 1


def deconv_output_length(size, window, stride, dilation, padding,
                         output_padding=None):
    """The output size of a transposed convolution along one axis.

    Without ``output_padding`` it is the largest size the forward convolution
    maps onto ``size``: ``size * stride`` for "same", plus the window's
    overhang ``max(window - stride, 0)`` for "valid".

    >>> deconv_output_length(5, 3, 2, 1, "valid"), deconv_output_length(5, 3, 2, 1, "same")
    (11, 10)
    """
    if size is None:
        return None
    window = (window - 1) * dilation + 1
    if output_padding is None:
        if padding == "valid":
            return size * stride + max(window - stride, 0)
        return size * stride
    pad = 0 if padding == "valid" else window // 2
    return (size - 1) * stride + window - 2 * pad + output_padding


__all__ = ["broadcast_shapes", "check_axes", "check_axis", "check_dtype", "check_int",
           "check_nonempty", "check_number", "check_shape", "conv_output_length",
           "deconv_output_length", "describe_shapes", "dtype_of", "float_result",
           "kind_of", "normalize_axes", "numeric_dtype", "reduce_shape",
           "result_type", "shape_of", "sum_result", "where"]
