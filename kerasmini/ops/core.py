"""Core ops of ``keras.ops`` (Keras 3's ``keras/src/ops/core.py``): conversion,
``cast``, ``shape``, ``stop_gradient``, ``cond``, ``slice`` and ``unstack``.

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.cast(np.array([1.7]), "int32"), ops.shape(KerasTensor((None, 3)))
(array([1], dtype=int32), (None, 3))
"""

import builtins

import numpy as np

from kerasmini import backend
from kerasmini.backend.core import convert_to_tensor as _convert
from kerasmini.backend.core import value_of
from kerasmini.backend.graph import is_traced
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.backend.validation import is_int
from kerasmini.ops import shapes
from kerasmini.ops.families import custom

_M = __name__


def _cast(x, dtype):
    return backend.numpy.cast(x, shapes.check_dtype(dtype, "cast"))


Cast, cast = custom(
    "Cast", _cast,
    lambda self, x, dtype: KerasTensor(
        shapes.shape_of(x), shapes.numeric_dtype(x, "cast") and shapes.check_dtype(
            dtype, "cast")),
    module=_M, summary="The values of ``x`` in another dtype.",
    example='>>> ops.cast(KerasTensor((None, 2)), "int32").dtype\n    \'int32\'')


def _stop_gradient(x):
    return backend.numpy.stop_gradient(x)


StopGradient, stop_gradient = custom(
    "StopGradient", _stop_gradient,
    lambda self, x: KerasTensor(shapes.shape_of(x), shapes.numeric_dtype(x, self.op_name)),
    module=_M, summary="``x`` itself, through which no gradient flows.",
    example=">>> ops.stop_gradient(np.ones(2))\n    array([1., 1.])")


def _slice_arguments(inputs, start_indices, shape):
    """The output shape of ``slice`` (``-1``: to the end), checked; the start
    is checked too when its values are known."""
    in_shape = shapes.shape_of(inputs)
    sizes = shape if isinstance(shape, (tuple, list)) else None
    if sizes is None or not all(is_int(d) and d >= -1 for d in sizes):
        raise TypeError(
            "ops.slice: `shape` must be a tuple of non-negative integers (or -1 "
            f"for the rest of an axis). Received: shape={shape!r}"
        )
    if len(sizes) != len(in_shape):
        raise ValueError(
            "ops.slice: The number of dimensions in `inputs` must match the number "
            f"of dimensions in `shape`. Received: inputs.shape={in_shape} and "
            f"shape={tuple(shape)}"
        )
    if isinstance(start_indices, KerasTensor):
        starts = [None] * len(in_shape)
        if start_indices.shape not in ((len(in_shape),), (None,)):
            raise ValueError(
                "ops.slice: The number of dimensions in `start_indices` must match "
                "the number of dimensions in `inputs`. Received: start_indices of "
                f"shape {start_indices.shape} and inputs.shape={in_shape}"
            )
    else:
        values = np.asarray(value_of(start_indices))
        if values.ndim != 1 or values.dtype.kind not in "iu":
            raise TypeError(
                "ops.slice: `start_indices` must be a list of integers, one per "
                f"axis. Received: start_indices={start_indices!r}"
            )
        starts = [int(v) for v in values]
        if len(starts) != len(in_shape):
            raise ValueError(
                "ops.slice: The number of dimensions in `start_indices` must match "
                f"the number of dimensions in `inputs`. Received: start_indices="
                f"{starts} and inputs.shape={in_shape}"
            )
    out = []
    for dim, start, size in zip(in_shape, starts, sizes):
        if size == -1:
            size = None if dim is None or start is None else dim - start
        if dim is not None and start is not None and (
                start < 0 or size is None or start + size > dim):
            raise ValueError(
                "ops.slice: each slice must lie inside `inputs`: 0 <= start and "
                "start + size <= the size of the axis. Received: "
                f"inputs.shape={in_shape}, start_indices={starts}, shape="
                f"{tuple(shape)}"
            )
        out.append(size)
    return tuple(out)


def _slice_spec(self, inputs, start_indices, shape):
    out = _slice_arguments(inputs, start_indices, self.static.get("shape", shape))
    return KerasTensor(out, shapes.numeric_dtype(inputs, self.op_name, "inputs"))


def _slice(inputs, start_indices, shape):
    out = _slice_arguments(inputs, start_indices, shape)
    if not getattr(start_indices, "shape", None):  # a list: one int per axis
        start_indices = np.asarray(start_indices, dtype="int64")
    return backend.numpy_extra.dynamic_slice(inputs, start_indices, shape=out)


Slice, slice = custom(  # noqa: A001 (as keras.ops.slice)
    "Slice", _slice, _slice_spec, static_names=("shape",), module=_M,
    summary="The block of ``inputs`` of ``shape`` that starts at "
            "``start_indices`` (which may be a tensor: a traced step reads it "
            "on every replay); ``-1`` in ``shape`` runs to the end of its axis.",
    example=">>> ops.slice(np.arange(12).reshape(3, 4), [1, 2], (2, 2)).tolist()\n"
            "    [[6, 7], [10, 11]]")


def _unstack_arguments(x, num, axis):
    shape = shapes.shape_of(x)
    axis = shapes.check_axis(axis, len(shape), "unstack")
    size = shape[axis]
    if num is not None:
        num = shapes.check_int(num, "unstack", "num", minimum=0)
        if size is not None and num != size:
            raise ValueError(
                f"ops.unstack: `num` must be the size of axis {axis}. Received: "
                f"num={num}, x.shape={shape}"
            )
    elif size is None:
        raise ValueError(
            f"ops.unstack: Cannot infer argument `num` from shape {shape}. Either "
            "provide a tensor with a concrete shape in the `axis` dimension or "
            "explicitly pass the `num` argument."
        )
    return axis, size if num is None else num


def _unstack_spec(self, x, num=None, axis=0):
    axis, count = _unstack_arguments(x, self.static.get("num", num),
                                     self.static.get("axis", axis))
    shape = shapes.shape_of(x)
    return [KerasTensor(shape[:axis] + shape[axis + 1:], shapes.numeric_dtype(x, self.op_name))
            for _ in range(count)]


def _unstack(x, num=None, axis=0):
    axis, count = _unstack_arguments(x, num, axis)
    lead = (builtins.slice(None),) * axis
    return [backend.numpy.getitem(x, lead + (i,)) for i in range(count)]


Unstack, unstack = custom(
    "Unstack", _unstack, _unstack_spec, static_names=("num", "axis"), module=_M,
    summary="The slices of ``x`` along ``axis``, as a list (the axis removed).",
    example=">>> [t.tolist() for t in ops.unstack(np.array([[1, 2], [3, 4]]))]\n"
            "    [[1, 2], [3, 4]]")


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """``x`` as an array of the backend (``floatx`` for Python floats).

    >>> convert_to_tensor([1.5, 2.0]).dtype
    dtype('float32')
    """
    if sparse or ragged:
        raise ValueError(
            "kerasmini tensors are dense NumPy arrays: sparse and ragged tensors "
            f"are not supported. Received: sparse={sparse}, ragged={ragged}"
        )
    if isinstance(x, KerasTensor) or is_traced(x):
        return x if dtype is None else cast(x, dtype)
    return _convert(x, dtype=dtype)


def convert_to_numpy(x):
    """A NumPy array with the value of ``x`` (a copy for variables).

    >>> convert_to_numpy(3.0)
    array(3., dtype=float32)
    """
    if isinstance(x, KerasTensor):
        raise ValueError(
            "A KerasTensor is symbolic: it has no value to convert to NumPy. "
            f"Received: {x!r}"
        )
    return np.array(value_of(x))


def shape(x):
    """The shape of ``x`` as a tuple (``None`` for unknown dimensions).

    >>> shape(np.zeros((2, 3)))
    (2, 3)
    """
    return shapes.shape_of(x)


def dtype(x):
    """The dtype name of ``x``.

    >>> dtype(np.zeros(2, "int32"))
    'int32'
    """
    return shapes.dtype_of(x)


def is_tensor(x):
    """Whether ``x`` is a tensor of the backend (an array, a traced value or a
    variable).

    >>> is_tensor(np.zeros(2)), is_tensor([1, 2])
    (True, False)
    """
    return isinstance(x, np.ndarray) or is_traced(x) or bool(
        getattr(x, "__kerasmini_variable__", False))


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``.

    The predicate must have a value when the call runs: inside a traced
    ``kerasmini.function`` that is refused (the branch would be frozen into
    the graph), and on KerasTensors both branches must agree on the shape.

    >>> cond(np.array(True), lambda: 1, lambda: 2)
    1
    """
    if any_symbolic((pred,)):
        first, second = true_fn(), false_fn()
        if shapes.shape_of(first) != shapes.shape_of(second):
            raise ValueError(
                "The two branches of `cond` must return the same shape. "
                f"Received: {shapes.shape_of(first)} and {shapes.shape_of(second)}"
            )
        return first
    return true_fn() if bool(value_of(pred)) else false_fn()


__all__ = ["Cast", "Slice", "StopGradient", "Unstack", "cast", "cond",
           "convert_to_numpy", "convert_to_tensor", "dtype", "is_tensor", "shape",
           "slice", "stop_gradient", "unstack"]
