"""Convolution and pooling primitives, channels_last (``NHWC``), with gradients.

Every op here is a :class:`~kerasmini.backend.core.Primitive` like those in
:mod:`kerasmini.backend.ops`, and every gradient rule is written with
primitives too, so a backward pass through a convolution can be traced by
:func:`kerasmini.function` and differentiated again.

The trick that keeps them fast without a Python loop over pixels is
``sliding_window_view``: it shows the (padded) input as a
``(batch, out_h, out_w, channels, kh, kw)`` array of windows without copying,
and one ``tensordot`` contracts it with the kernel (the "im2col" of the
textbooks). The adjoints scatter back with one strided ``+=`` per kernel
offset (``kh * kw`` NumPy calls, each over the whole batch).

The ops come in adjoint pairs, which is why they can differentiate each other:

* ``conv2d(x, k)`` is linear in ``x`` and in ``k``; its gradient for ``x`` is
  ``conv2d_backprop_input(g, k)`` and for ``k`` is ``conv2d_backprop_filter(x, g)``;
  the gradients of those two are ``conv2d`` and each other again.
* ``max_pool2d`` sends ``g`` to each window's maximum (``_max_pool_backprop``),
  whose adjoint reads a tensor back at those positions (``_max_pool_gather``).
* ``avg_pool2d`` and ``_avg_pool_backprop`` are each other's adjoints.

"same" padding is computed as TensorFlow/Keras do: along each spatial axis the
output has ``out = ceil(size / stride)`` positions, and the total padding
``max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)`` is split
``total // 2`` before and the rest after.

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 4, 4, 1)
>>> conv2d(x, np.ones((2, 2, 1, 1)), strides=2)[0, :, :, 0]
array([[10., 18.],
       [42., 50.]])
>>> max_pool2d(x, 2)[0, :, :, 0]
array([[ 5.,  7.],
       [13., 15.]])
"""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from kerasmini.backend import config
from kerasmini.backend.core import Primitive

shape_of = np.shape  # works for arrays, Variables, GraphTensors


# ------------------------------------------------------------------ geometry


def _pair(value, name):
    """``2`` -> ``(2, 2)``; ``(2, 3)`` stays; anything else is refused."""
    pair = value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        pair = (value, value)
    pair = tuple(pair) if isinstance(pair, (tuple, list)) else ()
    if len(pair) != 2 or not all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 1
        for v in pair
    ):
        raise ValueError(
            f"Expected `{name}` to be a positive integer or a tuple of 2 positive "
            f"integers. Received: {name}={value!r}"
        )
    return int(pair[0]), int(pair[1])


def _padding_mode(padding):
    mode = padding.lower() if isinstance(padding, str) else padding
    if mode not in ("valid", "same"):
        raise ValueError(
            f"Expected `padding` to be 'valid' or 'same'. Received: padding={padding!r}"
        )
    return mode


def _axis_geometry(size, window, stride, dilation, padding):
    """Output size and (before, after) padding along one spatial axis."""
    effective = (window - 1) * dilation + 1
    if padding == "same":
        out = -(-size // stride)  # ceil(size / stride)
        total = max((out - 1) * stride + effective - size, 0)
        return out, (total // 2, total - total // 2)
    return (size - effective) // stride + 1, (0, 0)


def _geometry(in_hw, window, strides, dilation, padding):
    """``((out_h, out_w), ((top, bottom), (left, right)))`` for an NHWC op."""
    (out_h, pad_h), (out_w, pad_w) = (
        _axis_geometry(in_hw[a], window[a], strides[a], dilation[a], padding)
        for a in (0, 1)
    )
    if out_h < 1 or out_w < 1:
        raise ValueError(
            f"The window {tuple(window)} (dilation {tuple(dilation)}) does not fit "
            f"in the input's spatial shape {tuple(in_hw)} with padding='valid'. "
            "Use a smaller window or padding='same'."
        )
    return (out_h, out_w), (pad_h, pad_w)


def _pad_nhwc(x, pads, fill=0):
    if pads == ((0, 0), (0, 0)):
        return x
    return np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=fill)


def _windows(xp, window, strides, dilation, out_hw):
    """A no-copy ``(N, out_h, out_w, C, kh, kw)`` view of the windows of ``xp``."""
    (kh, kw), (sh, sw), (dh, dw) = window, strides, dilation
    view = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(1, 2))
    (out_h, out_w) = out_hw
    return view[
        :, : (out_h - 1) * sh + 1 : sh, : (out_w - 1) * sw + 1 : sw, :, ::dh, ::dw
    ]


def _scatter_windows(cols, padded_shape, pads, in_hw, window, strides, dilation):
    """Adjoint of :func:`_windows`: add ``cols (N, oh, ow, kh, kw, C)`` back
    into a zero input of ``padded_shape``, then crop the padding."""
    dxp = np.zeros(padded_shape, dtype=cols.dtype)
    (kh, kw), (sh, sw), (dh, dw) = window, strides, dilation
    out_h, out_w = cols.shape[1:3]
    for i in range(kh):  # one strided += per kernel offset, not per pixel
        for j in range(kw):
            rows = slice(i * dh, i * dh + (out_h - 1) * sh + 1, sh)
            columns = slice(j * dw, j * dw + (out_w - 1) * sw + 1, sw)
            dxp[:, rows, columns, :] += cols[:, :, :, i, j, :]
    (top, _), (left, _) = pads
    return dxp[:, top : top + in_hw[0], left : left + in_hw[1], :]


# -------------------------------------------------------------- convolution


def _conv2d(x, kernel, strides, padding, dilation_rate):
    out_hw, pads = _geometry(
        x.shape[1:3], kernel.shape[:2], strides, dilation_rate, padding
    )
    cols = _windows(
        _pad_nhwc(x, pads), kernel.shape[:2], strides, dilation_rate, out_hw
    )
    # (N, oh, ow, C, kh, kw) . (kh, kw, C, F) -> (N, oh, ow, F)
    return np.tensordot(cols, kernel, axes=((3, 4, 5), (2, 0, 1)))


def _conv2d_backprop_input(g, kernel, input_shape, strides, padding, dilation_rate):
    n, h, w, c = input_shape
    _, pads = _geometry((h, w), kernel.shape[:2], strides, dilation_rate, padding)
    # (N, oh, ow, F) . (kh, kw, C, F) -> (N, oh, ow, kh, kw, C)
    cols = np.tensordot(g, kernel, axes=((3,), (3,)))
    padded = (n, h + sum(pads[0]), w + sum(pads[1]), c)
    return _scatter_windows(
        cols, padded, pads, (h, w), kernel.shape[:2], strides, dilation_rate
    )


def _conv2d_backprop_filter(x, g, kernel_shape, strides, padding, dilation_rate):
    out_hw, pads = _geometry(
        x.shape[1:3], kernel_shape[:2], strides, dilation_rate, padding
    )
    cols = _windows(
        _pad_nhwc(x, pads), kernel_shape[:2], strides, dilation_rate, out_hw
    )
    # (N, oh, ow, C, kh, kw) . (N, oh, ow, F) -> (C, kh, kw, F) -> (kh, kw, C, F)
    dk = np.tensordot(cols, g, axes=((0, 1, 2), (0, 1, 2)))
    return np.ascontiguousarray(dk.transpose(1, 2, 0, 3))


conv2d_prim = Primitive("conv2d", _conv2d)
conv2d_backprop_input_prim = Primitive("conv2d_backprop_input", _conv2d_backprop_input)
conv2d_backprop_filter_prim = Primitive(
    "conv2d_backprop_filter", _conv2d_backprop_filter
)

conv2d_prim.defvjp(
    # y = A_k x  =>  dx = A_k^T g
    lambda g, ans, x, k, **p: conv2d_backprop_input_prim(
        g, k, input_shape=shape_of(x), **p
    ),
    # y is linear in k too  =>  dk[i, j] = sum over windows of x_window^T g
    lambda g, ans, x, k, **p: conv2d_backprop_filter_prim(
        x, g, kernel_shape=shape_of(k), **p
    ),
)
conv2d_backprop_input_prim.defvjp(
    # A_k^T g is linear in g, its adjoint is A_k: a convolution again
    lambda u, ans, g, k, input_shape, **p: conv2d_prim(u, k, **p),
    # <u, A_k^T g> = <A_k u, g>  =>  the filter gradient of conv2d(u, k)
    lambda u, ans, g, k, input_shape, **p: conv2d_backprop_filter_prim(
        u, g, kernel_shape=shape_of(k), **p
    ),
)
conv2d_backprop_filter_prim.defvjp(
    # <u, dK(x, g)> = <conv2d(x, u), g>
    lambda u, ans, x, g, kernel_shape, **p: conv2d_backprop_input_prim(
        g, u, input_shape=shape_of(x), **p
    ),
    lambda u, ans, x, g, kernel_shape, **p: conv2d_prim(x, u, **p),
)


def _conv_params(strides, padding, dilation_rate):
    return {
        "strides": _pair(strides, "strides"),
        "padding": _padding_mode(padding),
        "dilation_rate": _pair(dilation_rate, "dilation_rate"),
    }


def _check_rank4(x, name):
    if len(shape_of(x)) != 4:
        layout = "(batch, height, width, channels)"
        if name == "kernel":
            layout = "(kernel_height, kernel_width, in_channels, filters)"
        raise ValueError(
            f"Expected `{name}` of rank 4, {layout}. "
            f"Received: {name}.shape={shape_of(x)}"
        )


def conv2d(x, kernel, strides=1, padding="valid", dilation_rate=1):
    """2D convolution (cross-correlation, as in every deep learning library).

    Args:
        x: inputs of shape ``(batch, height, width, in_channels)``.
        kernel: weights of shape ``(kh, kw, in_channels, filters)``.
        strides: an int or a pair ``(sh, sw)``.
        padding: ``"valid"`` (no padding) or ``"same"`` (output size
            ``ceil(size / stride)``, zero padding split as TensorFlow does).
        dilation_rate: an int or a pair; spacing between kernel taps.

    Returns:
        An array of shape ``(batch, out_h, out_w, filters)``.

    >>> conv2d(np.ones((2, 5, 5, 3)), np.ones((3, 3, 3, 4)), padding="same").shape
    (2, 5, 5, 4)
    """
    _check_rank4(x, "x")
    _check_rank4(kernel, "kernel")
    if shape_of(x)[-1] != shape_of(kernel)[2]:
        raise ValueError(
            "The input's last axis (channels) must match the kernel's third axis. "
            f"Received: x.shape={shape_of(x)}, kernel.shape={shape_of(kernel)}"
        )
    return conv2d_prim(x, kernel, **_conv_params(strides, padding, dilation_rate))


def conv2d_backprop_input(
    g, kernel, input_shape, strides=1, padding="valid", dilation_rate=1
):
    """The gradient of :func:`conv2d` for its input (a "transposed convolution").

    >>> conv2d_backprop_input(np.ones((1, 2, 2, 1)), np.ones((2, 2, 1, 1)),
    ...                       (1, 3, 3, 1))[0, :, :, 0]
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]])
    """
    return conv2d_backprop_input_prim(
        g,
        kernel,
        input_shape=tuple(input_shape),
        **_conv_params(strides, padding, dilation_rate),
    )


def conv2d_backprop_filter(
    x, g, kernel_shape, strides=1, padding="valid", dilation_rate=1
):
    """The gradient of :func:`conv2d` for its kernel.

    >>> conv2d_backprop_filter(np.ones((1, 3, 3, 1)), np.ones((1, 2, 2, 1)),
    ...                        (2, 2, 1, 1))[:, :, 0, 0]
    array([[4., 4.],
           [4., 4.]])
    """
    return conv2d_backprop_filter_prim(
        x,
        g,
        kernel_shape=tuple(kernel_shape),
        **_conv_params(strides, padding, dilation_rate),
    )


# ------------------------------------------------------------------ pooling


def _pool_windows(x, pool_size, strides, padding, fill):
    out_hw, pads = _geometry(x.shape[1:3], pool_size, strides, (1, 1), padding)
    return _windows(_pad_nhwc(x, pads, fill), pool_size, strides, (1, 1), out_hw), pads


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool2d(x, pool_size, strides, padding):
    windows, _ = _pool_windows(x, pool_size, strides, padding, _lowest(x.dtype))
    return windows.max(axis=(4, 5))  # padding is -inf: it never wins


def _argmax_positions(x, pool_size, strides, padding):
    """Flat index, into the padded input, of each window's maximum.

    On ties ``argmax`` picks the first element in row-major window order, so
    the gradient goes to exactly one element, as TensorFlow's does.
    """
    n, h, w, c = x.shape
    windows, pads = _pool_windows(x, pool_size, strides, padding, _lowest(x.dtype))
    out_h, out_w = windows.shape[1:3]
    best = windows.reshape(n, out_h, out_w, c, -1).argmax(axis=-1)  # (N, oh, ow, C)
    di, dj = np.divmod(best, pool_size[1])
    rows = np.arange(out_h)[:, None, None] * strides[0] + di
    cols = np.arange(out_w)[:, None] * strides[1] + dj
    padded = (n, h + sum(pads[0]), w + sum(pads[1]), c)
    flat = (
        (np.arange(n)[:, None, None, None] * padded[1] + rows) * padded[2] + cols
    ) * c + np.arange(c)
    return flat, padded, pads


def _max_pool_backprop_fwd(x, g, pool_size, strides, padding):
    flat, padded, pads = _argmax_positions(x, pool_size, strides, padding)
    dxp = np.bincount(flat.ravel(), weights=g.ravel(), minlength=int(np.prod(padded)))
    (top, _), (left, _) = pads
    dxp = dxp.reshape(padded).astype(g.dtype, copy=False)
    return dxp[:, top : top + x.shape[1], left : left + x.shape[2], :]


def _max_pool_gather_fwd(x, u, pool_size, strides, padding):
    flat, _, pads = _argmax_positions(x, pool_size, strides, padding)
    return _pad_nhwc(u, pads).ravel()[flat]


max_pool2d_prim = Primitive("max_pool2d", _max_pool2d)
_max_pool_backprop = Primitive("max_pool2d_backprop", _max_pool_backprop_fwd)
_max_pool_gather = Primitive("max_pool2d_gather", _max_pool_gather_fwd)
# the gradient of a max is 1 at the argmax, 0 elsewhere
max_pool2d_prim.defvjp(lambda g, ans, x, **p: _max_pool_backprop(x, g, **p))
# backprop (scatter to the argmax) and gather (read at the argmax) are adjoint
# in their second argument; in x they are piecewise constant (no gradient)
_max_pool_backprop.defvjp(None, lambda u, ans, x, g, **p: _max_pool_gather(x, u, **p))
_max_pool_gather.defvjp(None, lambda u, ans, x, v, **p: _max_pool_backprop(x, u, **p))


def _window_counts(in_hw, pool_size, strides, padding):
    """How many real (unpadded) elements each window holds: ``(1, oh, ow, 1)``."""
    ones = np.ones((1, in_hw[0], in_hw[1], 1))
    windows, _ = _pool_windows(ones, pool_size, strides, padding, 0)
    return windows.sum(axis=(4, 5))


def _avg_pool2d(x, pool_size, strides, padding):
    windows, _ = _pool_windows(x, pool_size, strides, padding, 0)
    dtype = x.dtype if x.dtype.kind == "f" else config.floatx()
    counts = _window_counts(x.shape[1:3], pool_size, strides, padding)
    return (windows.sum(axis=(4, 5)) / counts).astype(dtype, copy=False)


def _avg_pool_backprop_fwd(g, input_shape, pool_size, strides, padding):
    n, h, w, c = input_shape
    _, pads = _geometry((h, w), pool_size, strides, (1, 1), padding)
    share = g / _window_counts((h, w), pool_size, strides, padding)  # (N, oh, ow, C)
    # every tap of a window receives the same share: (N, oh, ow, ph, pw, C)
    cols = np.broadcast_to(
        share[:, :, :, None, None, :].astype(g.dtype, copy=False),
        share.shape[:3] + tuple(pool_size) + share.shape[3:],
    )
    padded = (n, h + sum(pads[0]), w + sum(pads[1]), c)
    return _scatter_windows(cols, padded, pads, (h, w), pool_size, strides, (1, 1))


avg_pool2d_prim = Primitive("avg_pool2d", _avg_pool2d)
_avg_pool_backprop = Primitive("avg_pool2d_backprop", _avg_pool_backprop_fwd)
# y = A x with A[o, p] = 1/count(o) on o's window: dx = A^T g, and back again
avg_pool2d_prim.defvjp(
    lambda g, ans, x, **p: _avg_pool_backprop(g, input_shape=shape_of(x), **p)
)
_avg_pool_backprop.defvjp(lambda u, ans, g, input_shape, **p: avg_pool2d_prim(u, **p))


def _pool_params(pool_size, strides, padding):
    pool_size = _pair(pool_size, "pool_size")
    strides = pool_size if strides is None else _pair(strides, "strides")
    return {
        "pool_size": pool_size,
        "strides": strides,
        "padding": _padding_mode(padding),
    }


def max_pool2d(x, pool_size=2, strides=None, padding="valid"):
    """Max over each window; ``strides`` defaults to ``pool_size`` (as in Keras).

    "same" padding pads with ``-inf``, so padding never wins. The gradient goes
    to the window's maximum; on ties, to the first one in row-major order.

    >>> max_pool2d(np.arange(9.0).reshape(1, 3, 3, 1), 2, 1)[0, :, :, 0]
    array([[4., 5.],
           [7., 8.]])
    """
    _check_rank4(x, "x")
    return max_pool2d_prim(x, **_pool_params(pool_size, strides, padding))


def avg_pool2d(x, pool_size=2, strides=None, padding="valid"):
    """Mean over each window; with "same" padding the mean is over the real
    elements only (padding is not counted), as in TensorFlow.

    >>> avg_pool2d(np.arange(9.0).reshape(1, 3, 3, 1), 2, padding="same")[0, :, :, 0]
    array([[2. , 3.5],
           [6.5, 8. ]])
    """
    _check_rank4(x, "x")
    return avg_pool2d_prim(x, **_pool_params(pool_size, strides, padding))


__all__ = [
    "avg_pool2d",
    "conv2d",
    "conv2d_backprop_filter",
    "conv2d_backprop_input",
    "max_pool2d",
]
