"""Faster twins of 2-D max pooling, for windows that tile the image.

The taught :mod:`kerasmini.backend.pooling` handles every rank, stride and
padding by viewing the (padded) input as windows, ``(batch, out_h, out_w,
channels, pool_h, pool_w)``, and reducing the window axes; its gradient finds
each window's ``argmax`` and scatters with ``np.bincount``. For the common
case, ``MaxPooling2D(2)``: windows side by side (strides equal to the pool
size), ``"valid"`` padding, sizes divisible by the pool, the windows' entries
at one offset ``(dy, dx)`` are one strided slice of the input,
``x[:, dy::pool_h, dx::pool_w]``, and

* the pool is ``np.maximum`` of the ``pool_h * pool_w`` slices (4 calls for
  2 x 2 windows, about 5x faster than reducing the strided window view);
* its gradient walks the same slices, keeping for each window the offset of
  its first maximum (a later one must be strictly greater, which is
  ``argmax``'s rule for ties), then writes each slice of the input's
  gradient as ``g`` where that offset won and 0 elsewhere (the bits of ``g``
  and-ed with a mask, as :func:`~kerasmini.backend.fast.peephole.where_zero`
  does): about 2x faster.

Anything else, and a window holding NaN (``argmax`` picks the first NaN,
which the strict comparison cannot see), takes the taught functions.

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 4, 4, 1)
>>> max_pool(x, (2, 2), (2, 2), "valid")[0, :, :, 0]
array([[ 5.,  7.],
       [13., 15.]])
"""

import numpy as np

from kerasmini.backend import pooling

_SAME_SIZE_INT = {np.dtype("float32"): np.int32, np.dtype("float64"): np.int64}


def _tiles(x, pool_size, strides, padding):
    """Whether the windows tile ``x`` (4-D float): the fast case."""
    return (x.ndim == 4 and len(pool_size) == 2 and tuple(strides) == tuple(pool_size)
            and padding == "valid" and x.dtype in _SAME_SIZE_INT
            and x.shape[1] % pool_size[0] == 0 and x.shape[2] % pool_size[1] == 0)


def _slices(x, pool_size):
    ph, pw = pool_size
    return [x[:, dy::ph, dx::pw, :] for dy in range(ph) for dx in range(pw)]


def max_pool(x, pool_size, strides, padding):
    """``backend.pooling``'s max pool (its ``_max_pool``) for windows that
    tile the image: the maximum of the windows' slices.

    >>> max_pool(np.array([[[[1.0], [3.0]], [[2.0], [0.0]]]]), (2, 2), (2, 2),
    ...          "valid").ravel()
    array([3.])
    """
    if not _tiles(x, pool_size, strides, padding):
        return pooling._max_pool(x, pool_size, strides, padding)
    slices = _slices(x, pool_size)
    result = slices[0].copy()
    for part in slices[1:]:
        np.maximum(result, part, out=result)  # NaN propagates, as in max
    return result


def max_pool_backprop(x, g, pool_size, strides, padding):
    """``backend.pooling``'s max-pool gradient (``_max_pool_backprop_fwd``)
    for windows that tile the image: ``g`` goes to each window's first
    maximum, 0 to the rest.

    >>> x = np.array([[[[1.0], [3.0]], [[3.0], [0.0]]]])  # a tie: the first wins
    >>> max_pool_backprop(x, np.array([[[[5.0]]]]), (2, 2), (2, 2), "valid").ravel()
    array([0., 5., 0., 0.])
    """
    if not _tiles(x, pool_size, strides, padding) or g.dtype != x.dtype or \
            g.shape != (x.shape[0], x.shape[1] // pool_size[0],
                        x.shape[2] // pool_size[1], x.shape[3]):
        return pooling._max_pool_backprop_fwd(x, g, pool_size, strides, padding)
    slices = _slices(x, pool_size)
    best = slices[0].copy()
    winner = np.zeros(best.shape, np.int8)  # the offset of each window's maximum
    for offset in range(1, len(slices)):
        better = np.greater(slices[offset], best)  # strictly: the first one wins ties
        np.maximum(best, slices[offset], out=best)
        np.copyto(winner, offset, where=better)
    if np.isnan(best).any():  # argmax's first NaN: the taught path
        return pooling._max_pool_backprop_fwd(x, g, pool_size, strides, padding)
    ints = _SAME_SIZE_INT[x.dtype]
    dx = np.empty_like(x)
    dx_bits, g_bits = dx.view(ints), np.ascontiguousarray(g).view(ints)
    for offset, part in enumerate(_slices(dx_bits, pool_size)):
        mask = np.negative(np.equal(winner, offset).view(np.int8), dtype=ints)
        np.bitwise_and(g_bits, mask, out=part)  # g where this offset won, else 0
    dx += 0.0  # -0.0 becomes 0.0, as the taught scatter (a sum from 0) gives
    return dx


__all__ = ["max_pool", "max_pool_backprop"]
