"""Neural-network primitives, with gradients (Keras 3's ``backend/numpy/nn.py``):
activations, softmax and the fused softmax crossentropy, ``one_hot``, and the
convolution and pooling of images, channels_last (``NHWC``).

Every op here is a :class:`~kerasmini.backend.core.Primitive` like those in
:mod:`kerasmini.backend.numpy`, and every gradient rule is written with
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
from kerasmini.backend.core import Primitive, value_of
from kerasmini.backend.numpy import (
    _prim,
    add,
    clip,
    divide,
    exp,
    expand_dims,
    greater,
    log,
    multiply,
    negative,
    subtract,
    where,
    zeros_like,
)
from kerasmini.backend.numpy import abs as absolute
from kerasmini.backend.numpy import sum as _sum
from kerasmini.backend.validation import check_padding as _padding_mode
from kerasmini.backend.validation import check_pair as _pair

shape_of = np.shape  # works for arrays, Variables, GraphTensors


# ---------------------------------------------------------- activations
def _sigmoid(x):
    # exp of a non-positive number only: no overflow for large |x|
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(x.dtype, copy=False)


sigmoid = _prim("sigmoid", _sigmoid,
                lambda g, ans, x: multiply(g, multiply(ans, subtract(1.0, ans))))
relu = _prim("relu", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
             lambda g, ans, x: where(greater(x, 0), g, zeros_like(g)))
softplus = _prim("softplus", lambda x: np.logaddexp(0, x).astype(x.dtype, copy=False),
                 lambda g, ans, x: multiply(g, sigmoid(x)))  # log(1+e^x)' = sigmoid


def _softmax(x, axis=-1):
    # (`initial`: an empty axis has nothing to normalise, and no maximum)
    e = np.exp(x - x.max(axis=axis, keepdims=True, initial=-np.inf))
    return e / e.sum(axis=axis, keepdims=True)


softmax = _prim(
    "softmax", _softmax,
    # J^T g = s * (g - sum(g * s))
    lambda g, ans, x, axis=-1: multiply(
        ans, subtract(g, _sum(multiply(g, ans), axis=axis, keepdims=True))),
)


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True, initial=-np.inf)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


log_softmax = _prim(
    "log_softmax", _log_softmax,
    lambda g, ans, x, axis=-1: subtract(
        g, multiply(exp(ans), _sum(g, axis=axis, keepdims=True))),
)


def _sparse_softmax_crossentropy(labels, logits):
    # -log softmax(logits)[label] = logsumexp(logits) - logits[label]: the
    # same numbers as -sum(one_hot * log_softmax), without the one-hot matrix
    shifted = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(shifted).sum(axis=-1))
    # shifted[..., label] for every sample: index the rows of a 2-D view
    rows = shifted.reshape(-1, shifted.shape[-1])
    labels = np.asarray(labels, dtype="int64").reshape(-1)
    return lse - rows[np.arange(len(rows)), labels].reshape(lse.shape)


def _sparse_softmax_crossentropy_grad(g, ans, labels, logits):
    # d loss / d logits = softmax(logits) - one_hot(labels), per sample. The
    # softmax is the op the model's output layer ran on the same logits, so
    # in a traced step it is taken from the forward pass, not recomputed
    # (Graph.record reuses an identical step). Written with primitives, so
    # it can be differentiated again.
    probs = softmax(logits, axis=-1)
    targets = one_hot(labels, num_classes=shape_of(logits)[-1],
                      dtype=value_of(logits).dtype.name)
    return multiply(expand_dims(g, -1), subtract(probs, targets))


# The fused loss of a softmax output layer with integer labels (what
# TensorFlow calls sparse_softmax_cross_entropy_with_logits), over the last
# axis: one forward step and a short gradient instead of one_hot,
# log_softmax, multiply, sum, negative and their five gradient steps.
sparse_softmax_crossentropy = _prim(
    "sparse_softmax_crossentropy", _sparse_softmax_crossentropy,
    None, _sparse_softmax_crossentropy_grad,
)


def _one_hot(x, num_classes, dtype="float32"):
    labels = np.asarray(x).astype("int64")
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        bad = labels[(labels < 0) | (labels >= num_classes)].flat[0]
        raise ValueError(  # checked here: on every replay of a traced step too
            f"ops.one_hot: the labels must be integers in [0, {num_classes}). "
            f"Received: {bad} (in an array of shape {labels.shape})"
        )
    return np.eye(num_classes, dtype=dtype)[labels]


one_hot = _prim("one_hot", _one_hot)


# ------------------------------------------------------------ crossentropy
# Composites of the primitives above, as Keras 3's backend writes them: the
# public ops (kerasmini.ops) and the losses are built on these.
def cached_logits(output):
    """The logits a softmax or sigmoid output remembers (traced tensors only:
    Keras's TensorFlow backend does the same with its ``_keras_logits``).

    >>> cached_logits(np.zeros(2)) is None
    True
    """
    return getattr(output, "_keras_logits", None)


def _log_probabilities(output, from_logits, axis):
    if not from_logits and cached_logits(output) is not None:
        output, from_logits = cached_logits(output), True
    if from_logits:
        return log_softmax(output, axis=axis)
    # rescale so each row sums to one, then keep away from log(0)
    output = divide(output, _sum(output, axis=axis, keepdims=True))
    eps = config.epsilon()
    return log(clip(output, eps, 1.0 - eps))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """``-sum(target * log(output), axis)``, one value per sample; ``output``
    holds probabilities (rescaled to sum to one and clipped away from 0) or,
    with ``from_logits``, logits.

    >>> categorical_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]]))
    array([0.69314718])
    """
    log_p = _log_probabilities(output, from_logits, axis)
    return negative(_sum(multiply(target, log_p), axis=axis))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """:func:`categorical_crossentropy` of integer class indices ``target``
    (checked by the caller). From logits over the last axis it is one fused
    step, :data:`sparse_softmax_crossentropy`.

    >>> sparse_categorical_crossentropy(np.array([1]), np.array([[0.5, 0.5]]))
    array([0.69314718])
    """
    logits = output if from_logits else cached_logits(output)
    if logits is not None and axis in (-1, len(shape_of(output)) - 1):
        return sparse_softmax_crossentropy(target, logits)
    targets = one_hot(target, num_classes=shape_of(output)[axis],
                      dtype=value_of(output).dtype.name)
    return categorical_crossentropy(targets, output, from_logits=from_logits,
                                    axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    """``-(t log p + (1 - t) log(1 - p))``, element by element; from logits
    ``z`` in the stable form ``max(z, 0) - z t + log(1 + exp(-|z|))``.

    >>> binary_crossentropy(np.array([1.0]), np.array([0.0]), from_logits=True)
    array([0.69314718])
    """
    if not from_logits and cached_logits(output) is not None:
        output, from_logits = cached_logits(output), True
    if from_logits:
        return add(subtract(relu(output), multiply(output, target)),
                   softplus(negative(absolute(output))))
    eps = config.epsilon()
    p = clip(output, eps, 1.0 - eps)
    return negative(add(multiply(target, log(p)),
                        multiply(subtract(1.0, target), log(subtract(1.0, p)))))


# ------------------------------------------------------------------ geometry


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
