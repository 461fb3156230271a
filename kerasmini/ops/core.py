"""Core ops of ``keras.ops`` (Keras 3's ``keras/src/ops/core.py``): conversion,
``cast``, ``shape``, ``stop_gradient`` and ``cond``.

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.cast(np.array([1.7]), "int32"), ops.shape(KerasTensor((None, 3)))
(array([1], dtype=int32), (None, 3))
"""

import numpy as np

from kerasmini import backend
from kerasmini.backend import config
from kerasmini.backend.core import convert_to_tensor as _convert
from kerasmini.backend.core import value_of
from kerasmini.backend.graph import is_traced
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.ops import shapes
from kerasmini.ops.families import custom

_M = __name__


def _cast(x, dtype):
    return backend.numpy.cast(x, dtype)


Cast, cast = custom(
    "Cast", _cast,
    lambda self, x, dtype: KerasTensor(shapes.shape_of(x),
                                       config.standardize_dtype(dtype)),
    module=_M, summary="The values of ``x`` in another dtype.",
    example='>>> ops.cast(KerasTensor((None, 2)), "int32").dtype\n    \'int32\'')


def _stop_gradient(x):
    return backend.numpy.stop_gradient(x)


StopGradient, stop_gradient = custom(
    "StopGradient", _stop_gradient,
    lambda self, x: KerasTensor(shapes.shape_of(x), shapes.dtype_of(x)),
    module=_M, summary="``x`` itself, through which no gradient flows.",
    example=">>> ops.stop_gradient(np.ones(2))\n    array([1., 1.])")


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


__all__ = ["Cast", "StopGradient", "cast", "cond", "convert_to_numpy",
           "convert_to_tensor", "dtype", "is_tensor", "shape", "stop_gradient"]
