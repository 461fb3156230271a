"""Faster twins of single primitives: the same call, fewer NumPy calls.

The taught forward functions are written for every input. For the common
case these skip a conversion, a check done twice or a dispatch, a few tenths
of a microsecond to a few microseconds, a dozen times a batch.
:data:`kerasmini.backend.fast.kernels.FASTER` maps each taught function to
its twin, which the compiler of a traced step calls in its place; anything a
twin does not cover goes to the taught function.

>>> relu(np.array([-1.0, 2.0], "float32"))
array([0., 2.], dtype=float32)
"""

import functools

import numpy as np

from kerasmini.backend import nn as bnn
from kerasmini.backend import numpy as bnp

# An integer dtype -> the unsigned one of its size, to read labels as (a
# negative label becomes huge)
UNSIGNED = {np.dtype(f"{kind}{size}"): np.dtype(f"u{size}")
            for kind in "iu" for size in (1, 2, 4, 8)}


# --------------------------------------------------------------- one_hot
def one_hot(x, num_classes, dtype="float32"):
    """``backend.nn.one_hot`` as rows of an identity matrix made once.

    The taught op checks the labels with two reductions and builds
    ``np.eye(num_classes)`` for every batch; here integer labels take one
    reduction (read as unsigned, a negative label is huge, as in
    :func:`~kerasmini.backend.fast.kernels.checked_indices`) and the
    identity matrix is kept. Anything else, a bad label included, takes the
    taught op (and its ``ValueError``).

    >>> one_hot(np.array([2, 0]), num_classes=3)
    array([[0., 0., 1.],
           [1., 0., 0.]], dtype=float32)
    """
    x = np.asarray(x)
    unsigned = UNSIGNED.get(x.dtype)
    if unsigned is None or not x.size or x.view(unsigned).max() >= num_classes:
        return bnn.one_hot.forward(x, num_classes=num_classes, dtype=dtype)
    return _identity(num_classes, dtype)[x]


@functools.lru_cache(maxsize=16)
def _identity(size, dtype):  # (dtype: a name, hashable)
    eye = np.eye(size, dtype=dtype)
    eye.flags.writeable = False  # shared by every call: indexing it copies
    return eye


# ------------------------------------------------- calls without wrappers
# The taught forward functions are written for every input; for the common
# case these skip a conversion or a dispatch of a few tenths of a microsecond,
# a dozen times a batch.
def relu(x):
    """``relu`` of a float array: ``np.maximum(x, 0)`` keeps its dtype
    already (the taught op casts back for every dtype).

    >>> relu(np.array([-1.0, 2.0], "float32"))
    array([0., 2.], dtype=float32)
    """
    if x.dtype.kind == "f":
        return np.maximum(x, 0)
    return bnn.relu.forward(x)


def transpose(x, axes=None):
    """``transpose`` of a matrix as its ``.T`` view.

    >>> transpose(np.arange(6).reshape(2, 3), axes=(1, 0)).shape
    (3, 2)
    """
    if x.ndim == 2 and (axes is None or type(axes) is tuple and axes == (1, 0)):
        return x.T
    return bnp._transpose(x, axes)


def argmax(x, axis=-1):
    """``argmax`` (int32 indices) by the array's method, without
    ``np.argmax``'s dispatch.

    >>> argmax(np.array([[0.1, 0.7, 0.2]]), axis=1)
    array([1], dtype=int32)
    """
    return x.argmax(axis=axis).astype(np.int32)


__all__ = ["UNSIGNED", "argmax", "one_hot", "relu", "transpose"]
