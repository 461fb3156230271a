"""Max and average pooling of sequences, images and volumes, with gradients.

Inputs are ``(batch, *spatial, channels)`` with one to three spatial axes;
the windows are those of :mod:`kerasmini.backend.convolution` (a no-copy
view, then one reduction).

* ``max_pool`` sends ``g`` to each window's maximum (``max_pool_backprop``),
  whose adjoint reads a tensor back at those positions (``max_pool_gather``).
* ``avg_pool`` and ``avg_pool_backprop`` are each other's adjoints.

>>> x = np.arange(16.0).reshape(1, 4, 4, 1)
>>> max_pool(x, 2)[0, :, :, 0]
array([[ 5.,  7.],
       [13., 15.]])
>>> avg_pool(np.arange(8.0).reshape(1, 2, 2, 2, 1), 2).ravel()
array([3.5])
"""

import numpy as np

from kerasmini.backend import config
from kerasmini.backend.convolution import (
    check_rank,
    geometry,
    pad_spatial,
    scatter_windows,
    windows,
)
from kerasmini.backend.core import Primitive
from kerasmini.backend.validation import check_padding as _padding_mode
from kerasmini.backend.validation import check_tuple

shape_of = np.shape


def _pool_windows(x, pool_size, strides, padding, fill):
    rank = len(pool_size)
    out, pads = geometry(x.shape[1:-1], pool_size, strides, (1,) * rank, padding)
    view = windows(pad_spatial(x, pads, fill), pool_size, strides, (1,) * rank, out)
    return view, pads


def _taps(rank):
    return tuple(range(rank + 2, 2 * rank + 2))  # the window axes of a view


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool(x, pool_size, strides, padding):
    view, _ = _pool_windows(x, pool_size, strides, padding, _lowest(x.dtype))
    return view.max(axis=_taps(len(pool_size)))  # padding is -inf: it never wins


def _argmax_positions(x, pool_size, strides, padding):
    """Flat index, into the padded input, of each window's maximum.

    On ties ``argmax`` picks the first element in row-major window order, so
    the gradient goes to exactly one element, as TensorFlow's does.
    """
    rank = len(pool_size)
    view, pads = _pool_windows(x, pool_size, strides, padding, _lowest(x.dtype))
    out = view.shape[1:1 + rank]
    best = view.reshape(view.shape[:rank + 2] + (-1,)).argmax(axis=-1)  # (N, *out, C)
    offsets = np.unravel_index(best, pool_size)  # one array per spatial axis
    padded = tuple(size + sum(p) for size, p in zip(x.shape[1:-1], pads))
    padded = (x.shape[0],) + padded + (x.shape[-1],)
    index = [np.arange(x.shape[0]).reshape((-1,) + (1,) * (rank + 1))]
    for a in range(rank):  # window start along axis a, plus the winner's offset
        starts = np.arange(out[a]) * strides[a]
        index.append(starts.reshape((-1,) + (1,) * (rank - a)) + offsets[a])
    index.append(np.arange(x.shape[-1]))
    index = np.broadcast_arrays(*index)
    return np.ravel_multi_index(index, padded), padded, pads


def _crop(dxp, pads, sizes):
    crop = tuple(slice(before, before + s) for (before, _), s in zip(pads, sizes))
    return dxp[(slice(None),) + crop]


def _max_pool_backprop_fwd(x, g, pool_size, strides, padding):
    flat, padded, pads = _argmax_positions(x, pool_size, strides, padding)
    dxp = np.bincount(flat.ravel(), weights=g.ravel(), minlength=int(np.prod(padded)))
    dxp = dxp.reshape(padded).astype(g.dtype, copy=False)
    return _crop(dxp, pads, x.shape[1:-1])


def _max_pool_gather_fwd(x, u, pool_size, strides, padding):
    flat, _, pads = _argmax_positions(x, pool_size, strides, padding)
    return pad_spatial(u, pads).ravel()[flat]


max_pool_prim = Primitive("max_pool", _max_pool)
max_pool_backprop = Primitive("max_pool_backprop", _max_pool_backprop_fwd)
max_pool_gather = Primitive("max_pool_gather", _max_pool_gather_fwd)
# the gradient of a max is 1 at the argmax, 0 elsewhere
max_pool_prim.defvjp(lambda g, ans, x, **p: max_pool_backprop(x, g, **p))
# backprop (scatter to the argmax) and gather (read at the argmax) are adjoint
# in their second argument; in x they are piecewise constant (no gradient)
max_pool_backprop.defvjp(None, lambda u, ans, x, g, **p: max_pool_gather(x, u, **p))
max_pool_gather.defvjp(None, lambda u, ans, x, v, **p: max_pool_backprop(x, u, **p))


def _window_counts(sizes, pool_size, strides, padding):
    """How many real (unpadded) elements each window holds: ``(1, *out, 1)``."""
    ones = np.ones((1,) + tuple(sizes) + (1,))
    view, _ = _pool_windows(ones, pool_size, strides, padding, 0)
    return view.sum(axis=_taps(len(pool_size)))


def _avg_pool(x, pool_size, strides, padding):
    view, _ = _pool_windows(x, pool_size, strides, padding, 0)
    dtype = x.dtype if x.dtype.kind == "f" else config.floatx()
    counts = _window_counts(x.shape[1:-1], pool_size, strides, padding)
    return (view.sum(axis=_taps(len(pool_size))) / counts).astype(dtype, copy=False)


def _avg_pool_backprop_fwd(g, input_shape, pool_size, strides, padding):
    rank = len(pool_size)
    sizes = input_shape[1:-1]
    _, pads = geometry(sizes, pool_size, strides, (1,) * rank, padding)
    share = g / _window_counts(sizes, pool_size, strides, padding)  # (N, *out, C)
    # every tap of a window receives the same share: (N, *out, *window, C)
    spread = share.reshape(share.shape[:-1] + (1,) * rank + share.shape[-1:])
    cols = np.broadcast_to(spread.astype(g.dtype, copy=False),
                           share.shape[:-1] + tuple(pool_size) + share.shape[-1:])
    padded = tuple(s + sum(p) for s, p in zip(sizes, pads))
    padded = (input_shape[0],) + padded + (input_shape[-1],)
    return scatter_windows(cols, padded, pads, sizes, pool_size, strides,
                           (1,) * rank)


avg_pool_prim = Primitive("avg_pool", _avg_pool)
avg_pool_backprop = Primitive("avg_pool_backprop", _avg_pool_backprop_fwd)
# y = A x with A[o, p] = 1/count(o) on o's window: dx = A^T g, and back again
avg_pool_prim.defvjp(
    lambda g, ans, x, **p: avg_pool_backprop(g, input_shape=shape_of(x), **p)
)
avg_pool_backprop.defvjp(lambda u, ans, g, input_shape, **p: avg_pool_prim(u, **p))


def pool_params(rank, pool_size, strides, padding):
    """The static parameters of a pooling of ``rank`` spatial axes; strides
    default to the pool size, as in Keras.

    >>> pool_params(3, 2, None, "valid")["strides"]
    (2, 2, 2)
    """
    pool_size = check_tuple(pool_size, rank, "pool_size")
    strides = pool_size if strides is None else check_tuple(strides, rank, "strides")
    return {"pool_size": pool_size, "strides": strides,
            "padding": _padding_mode(padding)}


def max_pool(x, pool_size=2, strides=None, padding="valid"):
    """Max over each window; "same" padding pads with ``-inf``, so padding
    never wins. The gradient goes to the window's maximum; on ties, to the
    first one in row-major order.

    >>> max_pool(np.arange(9.0).reshape(1, 3, 3, 1), 2, 1)[0, :, :, 0]
    array([[4., 5.],
           [7., 8.]])
    """
    rank = check_rank(x, "x") - 2
    return max_pool_prim(x, **pool_params(rank, pool_size, strides, padding))


def avg_pool(x, pool_size=2, strides=None, padding="valid"):
    """Mean over each window; with "same" padding the mean is over the real
    elements only (padding is not counted), as in TensorFlow.

    >>> avg_pool(np.arange(9.0).reshape(1, 3, 3, 1), 2, padding="same")[0, :, :, 0]
    array([[2. , 3.5],
           [6.5, 8. ]])
    """
    rank = check_rank(x, "x") - 2
    return avg_pool_prim(x, **pool_params(rank, pool_size, strides, padding))


def max_pool2d(x, pool_size=2, strides=None, padding="valid"):
    """:func:`max_pool` of images ``(batch, height, width, channels)``.

    >>> max_pool2d(np.ones((1, 6, 6, 2)), 3).shape
    (1, 2, 2, 2)
    """
    check_rank(x, "x", ranks=(4,))
    return max_pool(x, pool_size, strides, padding)


def avg_pool2d(x, pool_size=2, strides=None, padding="valid"):
    """:func:`avg_pool` of images ``(batch, height, width, channels)``.

    >>> avg_pool2d(np.ones((1, 6, 6, 2)), (2, 3)).shape
    (1, 3, 2, 2)
    """
    check_rank(x, "x", ranks=(4,))
    return avg_pool(x, pool_size, strides, padding)


__all__ = ["avg_pool", "avg_pool2d", "max_pool", "max_pool2d"]
