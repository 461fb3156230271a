"""Shape and dtype rules: what an op returns, worked out without computing.

Keras 3 writes a ``compute_output_spec`` for every op; most follow a few
rules, collected here: broadcasting, reductions, and type promotion. An
unknown dimension (``None``) stays unknown, except where the rule fixes it.

>>> broadcast_shapes((None, 1, 3), (4, 1))
(None, 4, 3)
>>> reduce_shape((2, 3, 4), axis=1), reduce_shape((2, 3), axis=None, keepdims=True)
((2, 4), (1, 1))
"""

import numpy as np

from kerasmini.backend import autocast, config


def broadcast_shapes(shape1, shape2):
    """The shape NumPy broadcasting gives two shapes (``None``: unknown).

    >>> broadcast_shapes((2, 3), (5,))
    Traceback (most recent call last):
      ...
    ValueError: Cannot broadcast shapes (2, 3) and (5,): dimension 3 does not match 5.
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
                f"Cannot broadcast shapes {shape1} and {shape2}: dimension {x} "
                f"does not match {y}."
            )
    return tuple(out)


def normalize_axes(axis, ndim):
    """``axis`` (an int, a tuple, or ``None`` for all) as sorted positive ints.

    >>> normalize_axes(-1, 3), normalize_axes((0, -1), 3), normalize_axes(None, 2)
    ((2,), (0, 2), (0, 1))
    """
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(
                f"Axis {a} is out of bounds for a tensor of rank {ndim}. "
                f"Received: axis={axis}"
            )
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(out))


def reduce_shape(shape, axis=None, keepdims=False):
    """The shape after reducing ``axis``.

    >>> reduce_shape((None, 3, 4), axis=(1, 2))
    (None,)
    """
    axes = normalize_axes(axis, len(shape))
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


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
    return dtype.name


def float_result(dtype):
    """The dtype of ``exp``, ``sqrt``, ``mean``...: floats stay, ints become floatx.

    >>> float_result("int32"), float_result("float64")
    ('float32', 'float64')
    """
    return dtype if np.dtype(dtype).kind == "f" else config.floatx()


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


__all__ = ["broadcast_shapes", "conv_output_length", "deconv_output_length",
           "dtype_of", "float_result", "normalize_axes", "reduce_shape", "result_type",
           "shape_of"]
