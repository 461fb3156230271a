"""Convolutions of sequences, images and volumes, channels last, with gradients.

One set of primitives serves every rank: inputs are
``(batch, *spatial, channels)`` with one, two or three spatial axes, and a
kernel has one axis per spatial axis first (``(kh, kw, in, out)`` for
images). Keras 3's backend has the same single ``conv`` for every rank.

The trick that keeps them fast without a Python loop over pixels is
``sliding_window_view``: it shows the (padded) input as a
``(batch, *out, channels, *window)`` array of windows without copying, and
one ``tensordot`` contracts it with the kernel (the "im2col" of the
textbooks). The adjoints scatter back with one strided ``+=`` per kernel
offset (``kh * kw`` NumPy calls for an image, each over the whole batch).

The ops come in adjoint triples, which is why they can differentiate each
other:

* ``conv(x, k)`` is linear in ``x`` and in ``k``; its gradient for ``x`` is
  ``conv_backprop_input(g, k)`` and for ``k`` is ``conv_backprop_filter(x, g)``;
  the gradients of those two are ``conv`` and each other again;
* ``depthwise_conv`` (each input channel convolved with its own
  ``depth_multiplier`` kernels, no sum over channels) and its two adjoints,
  the same way.

"same" padding is computed as TensorFlow/Keras do: along each spatial axis the
output has ``out = ceil(size / stride)`` positions, and the total padding
``max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)`` is split
``total // 2`` before and the rest after.

>>> x = np.arange(16.0).reshape(1, 4, 4, 1)
>>> conv(x, np.ones((2, 2, 1, 1)), strides=2)[0, :, :, 0]
array([[10., 18.],
       [42., 50.]])
>>> conv(np.ones((1, 5, 3)), np.ones((2, 3, 4))).shape  # a sequence
(1, 4, 4)
"""

import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from kerasmini.backend.core import Primitive
from kerasmini.backend.validation import check_padding as _padding_mode
from kerasmini.backend.validation import check_tuple

shape_of = np.shape  # works for arrays, Variables, GraphTensors

_LAYOUTS = {3: "(batch, steps, channels)", 4: "(batch, height, width, channels)",
            5: "(batch, depth, height, width, channels)"}


# ------------------------------------------------------------------ geometry
def _axis_geometry(size, window, stride, dilation, padding):
    """Output size and (before, after) padding along one spatial axis."""
    effective = (window - 1) * dilation + 1
    if padding == "same":
        out = -(-size // stride)  # ceil(size / stride)
        total = max((out - 1) * stride + effective - size, 0)
        return out, (total // 2, total - total // 2)
    return (size - effective) // stride + 1, (0, 0)


def geometry(sizes, window, strides, dilation, padding):
    """``(out sizes, ((before, after), ...))`` along the spatial axes.

    >>> geometry((5, 4), (3, 3), (2, 2), (1, 1), "same")
    ((3, 2), ((1, 1), (0, 1)))
    """
    found = [_axis_geometry(sizes[a], window[a], strides[a], dilation[a], padding)
             for a in range(len(sizes))]
    out, pads = tuple(o for o, _ in found), tuple(p for _, p in found)
    if min(out) < 1:
        raise ValueError(
            f"The window {tuple(window)} (dilation {tuple(dilation)}) does not fit "
            f"in the input's spatial shape {tuple(sizes)} with padding='valid'. "
            "Use a smaller window or padding='same'."
        )
    return out, pads


def pad_spatial(x, pads, fill=0):
    """``x`` with ``pads`` (one ``(before, after)`` per spatial axis) added.

    >>> pad_spatial(np.ones((1, 2, 3)), ((1, 0),)).shape
    (1, 3, 3)
    """
    if all(p == (0, 0) for p in pads):
        return x
    return np.pad(x, ((0, 0),) + tuple(pads) + ((0, 0),), constant_values=fill)


def windows(xp, window, strides, dilation, out):
    """A no-copy ``(N, *out, C, *window)`` view of the windows of ``xp``.

    >>> windows(np.arange(5.0).reshape(1, 5, 1), (2,), (2,), (1,), (2,))[0, :, 0]
    array([[0., 1.],
           [2., 3.]])
    """
    rank = len(window)
    spans = tuple((k - 1) * d + 1 for k, d in zip(window, dilation))
    view = sliding_window_view(xp, spans, axis=tuple(range(1, rank + 1)))
    picks = tuple(slice(None, (o - 1) * s + 1, s) for o, s in zip(out, strides))
    taps = tuple(slice(None, None, d) for d in dilation)
    return view[(slice(None),) + picks + (slice(None),) + taps]


def scatter_windows(cols, padded_shape, pads, sizes, window, strides, dilation):
    """Adjoint of :func:`windows`: add ``cols (N, *out, *window, C)`` back
    into a zero input of ``padded_shape``, then crop the padding.

    >>> cols = np.ones((1, 2, 2, 1))  # two windows of two taps, overlapping
    >>> scatter_windows(cols, (1, 3, 1), ((0, 0),), (3,), (2,), (1,), (1,))[0, :, 0]
    array([1., 2., 1.])
    """
    rank = len(window)
    dxp = np.zeros(padded_shape, dtype=cols.dtype)
    out = cols.shape[1:1 + rank]
    # one strided += per kernel offset, not per pixel
    for offset in itertools.product(*(range(k) for k in window)):
        target = tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                       for i, d, o, s in zip(offset, dilation, out, strides))
        dxp[(slice(None),) + target] += cols[(slice(None),) * (1 + rank) + offset]
    crop = tuple(slice(before, before + size) for (before, _), size in zip(pads, sizes))
    return dxp[(slice(None),) + crop]


# -------------------------------------------------------------- convolution
def _conv(x, kernel, strides, padding, dilation_rate):
    rank = kernel.ndim - 2
    out, pads = geometry(x.shape[1:-1], kernel.shape[:rank], strides,
                         dilation_rate, padding)
    cols = windows(pad_spatial(x, pads), kernel.shape[:rank], strides,
                   dilation_rate, out)
    # (N, *out, C, *k) . (*k, C, F) -> (N, *out, F)
    taps = tuple(range(rank + 2, 2 * rank + 2))
    return np.tensordot(cols, kernel, axes=((rank + 1,) + taps,
                                            (rank,) + tuple(range(rank))))


def _conv_backprop_input(g, kernel, input_shape, strides, padding, dilation_rate):
    rank = kernel.ndim - 2
    sizes = input_shape[1:-1]
    _, pads = geometry(sizes, kernel.shape[:rank], strides, dilation_rate, padding)
    # (N, *out, F) . (*k, C, F) -> (N, *out, *k, C)
    cols = np.tensordot(g, kernel, axes=((rank + 1,), (rank + 1,)))
    padded = _padded_shape(input_shape, pads)
    return scatter_windows(cols, padded, pads, sizes, kernel.shape[:rank], strides,
                           dilation_rate)


def _conv_backprop_filter(x, g, kernel_shape, strides, padding, dilation_rate):
    rank = len(kernel_shape) - 2
    out, pads = geometry(x.shape[1:-1], kernel_shape[:rank], strides, dilation_rate,
                         padding)
    cols = windows(pad_spatial(x, pads), kernel_shape[:rank], strides,
                   dilation_rate, out)
    # (N, *out, C, *k) . (N, *out, F) -> (C, *k, F) -> (*k, C, F)
    batch_and_out = tuple(range(rank + 1))
    dk = np.tensordot(cols, g, axes=(batch_and_out, batch_and_out))
    return np.ascontiguousarray(np.moveaxis(dk, 0, rank))


def _padded_shape(input_shape, pads):
    inner = tuple(size + before + after
                  for size, (before, after) in zip(input_shape[1:-1], pads))
    return (input_shape[0],) + inner + (input_shape[-1],)


def adjoint_triple(name, forward, backprop_input, backprop_filter):
    """Three primitives ``f(x, k)``, ``f_input(g, k)``, ``f_filter(x, g)`` for
    an op linear in ``x`` and in ``k``, each differentiating the others.

    >>> [p.name for p in adjoint_triple("demo", None, None, None)]
    ['demo', 'demo_backprop_input', 'demo_backprop_filter']
    """
    op = Primitive(name, forward)
    op_input = Primitive(name + "_backprop_input", backprop_input)
    op_filter = Primitive(name + "_backprop_filter", backprop_filter)
    op.defvjp(
        # y = A_k x  =>  dx = A_k^T g
        lambda g, ans, x, k, **p: op_input(g, k, input_shape=shape_of(x), **p),
        # y is linear in k too  =>  dk = sum over windows of x_window^T g
        lambda g, ans, x, k, **p: op_filter(x, g, kernel_shape=shape_of(k), **p),
    )
    op_input.defvjp(
        # A_k^T g is linear in g, its adjoint is A_k: the op again
        lambda u, ans, g, k, input_shape, **p: op(u, k, **p),
        # <u, A_k^T g> = <A_k u, g>  =>  the filter gradient of op(u, k)
        lambda u, ans, g, k, input_shape, **p: op_filter(
            u, g, kernel_shape=shape_of(k), **p),
    )
    op_filter.defvjp(
        # <u, dK(x, g)> = <op(x, u), g>
        lambda u, ans, x, g, kernel_shape, **p: op_input(
            g, u, input_shape=shape_of(x), **p),
        lambda u, ans, x, g, kernel_shape, **p: op(x, u, **p),
    )
    return op, op_input, op_filter


conv_prim, conv_backprop_input_prim, conv_backprop_filter_prim = adjoint_triple(
    "conv", _conv, _conv_backprop_input, _conv_backprop_filter)


# ---------------------------------------------------- depthwise convolution
def _letters(rank):
    return "hwd"[:rank], "ijk"[:rank]  # spatial axes of the output, of the kernel


def _depthwise(x, kernel, strides, padding, dilation_rate):
    rank = kernel.ndim - 2
    out, pads = geometry(x.shape[1:-1], kernel.shape[:rank], strides,
                         dilation_rate, padding)
    cols = windows(pad_spatial(x, pads), kernel.shape[:rank], strides,
                   dilation_rate, out)
    o, k = _letters(rank)
    # (N, *out, C, *k) . (*k, C, M) -> (N, *out, C, M): no sum over channels
    y = np.einsum(f"n{o}c{k},{k}cm->n{o}cm", cols, kernel)
    return y.reshape(y.shape[:-2] + (-1,))  # output channel c * M + m


def _depthwise_backprop_input(g, kernel, input_shape, strides, padding,
                              dilation_rate):
    rank = kernel.ndim - 2
    sizes = input_shape[1:-1]
    _, pads = geometry(sizes, kernel.shape[:rank], strides, dilation_rate, padding)
    o, k = _letters(rank)
    g = g.reshape(g.shape[:-1] + kernel.shape[-2:])  # (N, *out, C, M)
    cols = np.einsum(f"n{o}cm,{k}cm->n{o}{k}c", g, kernel)  # (N, *out, *k, C)
    return scatter_windows(cols, _padded_shape(input_shape, pads), pads, sizes,
                           kernel.shape[:rank], strides, dilation_rate)


def _depthwise_backprop_filter(x, g, kernel_shape, strides, padding, dilation_rate):
    rank = len(kernel_shape) - 2
    out, pads = geometry(x.shape[1:-1], kernel_shape[:rank], strides, dilation_rate,
                         padding)
    cols = windows(pad_spatial(x, pads), kernel_shape[:rank], strides,
                   dilation_rate, out)
    o, k = _letters(rank)
    g = g.reshape(g.shape[:-1] + tuple(kernel_shape[-2:]))  # (N, *out, C, M)
    return np.einsum(f"n{o}c{k},n{o}cm->{k}cm", cols, g)


(depthwise_conv_prim, depthwise_conv_backprop_input_prim,
 depthwise_conv_backprop_filter_prim) = adjoint_triple(
    "depthwise_conv", _depthwise, _depthwise_backprop_input,
    _depthwise_backprop_filter)


# ---------------------------------------------------------- the public calls
def conv_params(rank, strides, padding, dilation_rate):
    """The static parameters of a convolution of ``rank`` spatial axes.

    >>> conv_params(1, 2, "SAME", 1)
    {'strides': (2,), 'padding': 'same', 'dilation_rate': (1,)}
    """
    return {
        "strides": check_tuple(strides, rank, "strides"),
        "padding": _padding_mode(padding),
        "dilation_rate": check_tuple(dilation_rate, rank, "dilation_rate"),
    }


def check_rank(x, name, ranks=(3, 4, 5), kernel=False):
    """The rank of ``x``, or a ``ValueError`` if it is not one of ``ranks``.

    >>> check_rank(np.ones((2, 3)), "x")
    Traceback (most recent call last):
      ...
    ValueError: Expected `x` of rank 3 or 4 or 5, (batch, steps, channels) or ...
    """
    rank = len(shape_of(x))
    if rank not in ranks:
        expected = " or ".join(str(r) for r in ranks)
        layout = " or ".join(_LAYOUTS[r] for r in ranks)
        if kernel:
            layout = "(*kernel_size, in_channels, filters)"
        raise ValueError(
            f"Expected `{name}` of rank {expected}, {layout}. "
            f"Received: {name}.shape={shape_of(x)}"
        )
    return rank


def _check_kernel(x, kernel, channels_axis=-2):
    rank = check_rank(x, "x")
    if len(shape_of(kernel)) != rank:
        raise ValueError(
            f"The kernel must have the rank of the inputs ({rank}: one axis per "
            "spatial axis, then in_channels and filters). Received: "
            f"x.shape={shape_of(x)}, kernel.shape={shape_of(kernel)}"
        )
    if shape_of(x)[-1] != shape_of(kernel)[channels_axis]:
        raise ValueError(
            "The input's last axis (channels) must match the kernel's "
            f"in_channels axis ({rank - 2}). Received: x.shape={shape_of(x)}, "
            f"kernel.shape={shape_of(kernel)}"
        )
    return rank - 2


def conv(x, kernel, strides=1, padding="valid", dilation_rate=1):
    """N-D convolution (cross-correlation, as in every deep learning library).

    Args:
        x: inputs of shape ``(batch, *spatial, in_channels)``, 1 to 3 spatial
            axes.
        kernel: weights of shape ``(*kernel_size, in_channels, filters)``.
        strides: an int or one per spatial axis.
        padding: ``"valid"`` (no padding) or ``"same"`` (output size
            ``ceil(size / stride)``, zero padding split as TensorFlow does).
        dilation_rate: an int or one per spatial axis; spacing between taps.

    Returns:
        An array of shape ``(batch, *out, filters)``.

    >>> conv(np.ones((2, 3, 5, 5, 1)), np.ones((2, 3, 3, 1, 4)), padding="same").shape
    (2, 3, 5, 5, 4)
    """
    rank = _check_kernel(x, kernel)
    return conv_prim(x, kernel, **conv_params(rank, strides, padding, dilation_rate))


def conv2d(x, kernel, strides=1, padding="valid", dilation_rate=1):
    """:func:`conv` of images: ``x`` is ``(batch, height, width, channels)``.

    >>> conv2d(np.ones((2, 5, 5, 3)), np.ones((3, 3, 3, 4)), padding="same").shape
    (2, 5, 5, 4)
    """
    check_rank(x, "x", ranks=(4,))
    check_rank(kernel, "kernel", ranks=(4,), kernel=True)
    return conv(x, kernel, strides, padding, dilation_rate)


def conv_backprop_input(g, kernel, input_shape, strides=1, padding="valid",
                        dilation_rate=1):
    """The gradient of :func:`conv` for its input (a "transposed convolution").

    >>> conv_backprop_input(np.ones((1, 2, 2, 1)), np.ones((2, 2, 1, 1)),
    ...                     (1, 3, 3, 1))[0, :, :, 0]
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]])
    """
    rank = len(shape_of(kernel)) - 2
    return conv_backprop_input_prim(
        g, kernel, input_shape=tuple(input_shape),
        **conv_params(rank, strides, padding, dilation_rate))


def conv_backprop_filter(x, g, kernel_shape, strides=1, padding="valid",
                         dilation_rate=1):
    """The gradient of :func:`conv` for its kernel.

    >>> conv_backprop_filter(np.ones((1, 3, 3, 1)), np.ones((1, 2, 2, 1)),
    ...                      (2, 2, 1, 1))[:, :, 0, 0]
    array([[4., 4.],
           [4., 4.]])
    """
    rank = len(kernel_shape) - 2
    return conv_backprop_filter_prim(
        x, g, kernel_shape=tuple(kernel_shape),
        **conv_params(rank, strides, padding, dilation_rate))


conv2d_backprop_input = conv_backprop_input  # the names the 2D code used
conv2d_backprop_filter = conv_backprop_filter


def depthwise_conv(x, kernel, strides=1, padding="valid", dilation_rate=1):
    """Each input channel convolved with its own ``depth_multiplier`` kernels.

    Args:
        x: ``(batch, *spatial, channels)``.
        kernel: ``(*kernel_size, channels, depth_multiplier)``.

    Returns:
        ``(batch, *out, channels * depth_multiplier)``; output channel
        ``c * depth_multiplier + m`` is channel ``c`` through kernel ``m``.

    >>> x = np.stack([np.ones((4, 4)), 2 * np.ones((4, 4))], -1)[None]
    >>> depthwise_conv(x, np.ones((2, 2, 2, 1)))[0, 0, 0]
    array([4., 8.])
    """
    rank = _check_kernel(x, kernel)
    return depthwise_conv_prim(x, kernel,
                               **conv_params(rank, strides, padding, dilation_rate))


__all__ = [
    "adjoint_triple", "conv", "conv2d", "conv2d_backprop_filter",
    "conv2d_backprop_input", "conv_backprop_filter", "conv_backprop_input",
    "depthwise_conv", "geometry", "pad_spatial", "scatter_windows", "windows",
]
