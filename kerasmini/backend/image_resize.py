"""Resizing images in NumPy as ``tf.image.resize`` does.

``image_dataset_from_directory`` resizes every image to ``image_size``; Keras
does it with TensorFlow (``tf.image.resize``, ``tf.image.resize_with_pad``,
and Keras's ``smart_resize`` crop). kerasmini has no TensorFlow, so this
module computes the same pixels with NumPy.

Every method is separable: an output row is a weighted sum of input rows, an
output column one of input columns. So each method here only builds a weight
matrix ``W`` of shape ``(out, in)`` for one axis, and the image is
``W_h @ image @ W_w.T`` (per channel). Pixel centres sit at ``i + 0.5``
(TensorFlow 2's ``half_pixel_centers``); ``scale = in / out``:

- ``nearest``: ``floor((o + 0.5) * scale)``;
- ``bilinear``: the two pixels around ``(o + 0.5) * scale - 0.5``;
- ``bicubic``: Keys' cubic (a = -0.5) on the four pixels around it, weights
  read from TensorFlow's 1,024-entry table, taps outside the image dropped
  and the rest renormalised;
- ``area``: the average over the box ``[o * scale, (o + 1) * scale)``;
- ``lanczos3``, ``lanczos5``, ``gaussian``, ``mitchellcubic``: the kernel
  centred at ``(o + 0.5) * scale`` (TensorFlow's ``scale_and_translate``).

Arithmetic is float32 where TensorFlow's is (the sample positions), so the
taps are the same; sums are float64, then cast to float32. ``make interop``
compares the results with TensorFlow's.

>>> image = np.arange(4.0).reshape(1, 4, 1)
>>> resize(image, (1, 2), "bilinear")[..., 0].tolist()
[[0.5, 2.5]]
>>> resize(image, (1, 8), "nearest")[..., 0].tolist()
[[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]]
"""

import math

import numpy as np

from kerasmini.backend import image

INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                  "gaussian", "mitchellcubic")
_F = np.float32


def _centres(out_size, in_size):
    """``(o + 0.5) * scale`` in float32, as TensorFlow computes it."""
    scale = _F(in_size) / _F(out_size)
    return (np.arange(out_size, dtype=_F) + _F(0.5)) * scale


def _nearest(out_size, in_size):
    w = np.zeros((out_size, in_size))
    index = np.minimum(np.floor(_centres(out_size, in_size)).astype(int), in_size - 1)
    w[np.arange(out_size), np.maximum(index, 0)] = 1
    return w


def _bilinear(out_size, in_size):
    w = np.zeros((out_size, in_size))
    pos = _centres(out_size, in_size) - _F(0.5)
    floor = np.floor(pos)
    lerp = (pos - floor).astype(np.float64)
    low = np.clip(floor.astype(int), 0, in_size - 1)
    high = np.clip(np.ceil(pos).astype(int), 0, in_size - 1)
    rows = np.arange(out_size)
    np.add.at(w, (rows, low), 1 - lerp)
    np.add.at(w, (rows, high), lerp)
    return w


_TABLE_SIZE = 1024


def _keys_table():
    """TensorFlow's table of Keys' cubic (a = -0.5): entry ``2 i`` is the
    weight at distance ``i / 1024``, entry ``2 i + 1`` at ``i / 1024 + 1``."""
    x = np.arange(_TABLE_SIZE + 1, dtype=_F) / _F(_TABLE_SIZE)
    near = ((_F(1.5) * x - _F(2.5)) * x) * x + _F(1.0)
    x1 = x + _F(1.0)
    far = ((_F(-0.5) * x1 + _F(2.5)) * x1 - _F(4.0)) * x1 + _F(2.0)
    table = np.empty(2 * (_TABLE_SIZE + 1), dtype=_F)
    table[0::2], table[1::2] = near, far
    return table


def _bicubic(out_size, in_size):
    table = _keys_table()
    w = np.zeros((out_size, in_size))
    pos = _centres(out_size, in_size) - _F(0.5)
    for o in range(out_size):
        start = int(math.floor(pos[o]))
        offset = int(np.rint((pos[o] - _F(start)) * _F(_TABLE_SIZE)))
        taps = (table[offset * 2 + 1], table[offset * 2],
                table[(_TABLE_SIZE - offset) * 2], table[(_TABLE_SIZE - offset) * 2 + 1])
        kept = [(start - 1 + k, float(t)) for k, t in enumerate(taps)
                if 0 <= start - 1 + k < in_size]
        total = sum(t for _, t in kept)
        for i, t in kept:
            w[o, i] += t / total if abs(total) > 0 else t
    return w


def _area(out_size, in_size):
    return image._area(in_size, out_size)


def _lanczos(radius):
    return (lambda x: image._lanczos(x, radius)), radius


def _gaussian(x):
    x = np.abs(x)
    return np.where(x >= 1.5, 0.0, np.exp(-x * x / (2 * 0.5 ** 2)))


def _mitchell(x):
    x = np.abs(x)
    far = ((-7 / 18 * x + 2) * x - 10 / 3) * x + 16 / 9
    near = ((7 / 6 * x - 2) * x) * x + 8 / 9
    return np.where(x >= 2, 0.0, np.where(x >= 1, far, near))


_KERNELS = {"lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
            "gaussian": (_gaussian, 1.5), "mitchellcubic": (_mitchell, 2.0)}


def _keys_cubic(x):
    return image._cubic(x, -0.5)


# with antialiasing, bilinear and bicubic become kernels too (TensorFlow's
# "triangle" and "keyscubic"), stretched when the image shrinks
_ANTIALIAS_KERNELS = {"bilinear": (image._triangle, 1.0), "bicubic": (_keys_cubic, 2.0)}


def _scale_and_translate(out_size, in_size, method, antialias=False):
    kernel, radius = _KERNELS.get(method) or _ANTIALIAS_KERNELS[method]
    stretch = max(in_size / out_size, 1.0) if antialias else 1.0
    radius = radius * stretch
    w = np.zeros((out_size, in_size))
    centres = _centres(out_size, in_size)
    for o in range(out_size):
        c = float(centres[o])
        start = min(max(math.ceil(c - radius - 0.5), 0), in_size - 1)
        end = min(max(math.floor(c + radius - 0.5), 0), in_size - 1) + 1
        sources = np.arange(start, end)
        taps = kernel((sources + 0.5 - c) / stretch)
        total = taps.sum()
        w[o, start:end] = taps / total if abs(total) > 0 else taps
    return w


_WEIGHTS = {"nearest": _nearest, "bilinear": _bilinear, "bicubic": _bicubic,
            "area": _area}


def weights(out_size, in_size, method, antialias=False):
    """The ``(out_size, in_size)`` matrix of one axis. With ``antialias``
    every method but ``nearest`` and ``area`` is a kernel stretched by the
    shrink factor, as TensorFlow's ``antialias=True`` resize.

    >>> weights(2, 4, "area").tolist()
    [[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.5, 0.5]]
    >>> weights(2, 4, "bilinear", antialias=True).round(3).tolist()[0]
    [0.429, 0.429, 0.143, 0.0]
    """
    if antialias and method not in ("nearest", "area"):
        return _scale_and_translate(out_size, in_size, method, antialias=True)
    if method in _WEIGHTS:
        return _WEIGHTS[method](out_size, in_size)
    return _scale_and_translate(out_size, in_size, method)


def resize(image, size, interpolation="bilinear"):
    """A ``(height, width, channels)`` image resized to ``size``: float32, or
    the image's own dtype for ``"nearest"`` (as ``tf.image.resize``).

    >>> resize(np.ones((3, 5, 2), "uint8"), (4, 4), "bicubic").shape
    (4, 4, 2)
    """
    height, width = image.shape[:2]
    if (height, width) == tuple(size) and interpolation == "nearest":
        return image.copy()
    if interpolation == "nearest":  # a gather: exact for every dtype
        rows = weights(size[0], height, "nearest").argmax(axis=1)
        cols = weights(size[1], width, "nearest").argmax(axis=1)
        return image[rows][:, cols]
    w_h = weights(size[0], height, interpolation)
    w_w = weights(size[1], width, interpolation)
    out = np.einsum("oh,hwc,pw->opc", w_h, image.astype(np.float64), w_w)
    return out.astype(np.float32)


def crop_to_aspect_ratio(image, size):
    """The largest centred crop of ``image`` with the aspect ratio of ``size``
    (Keras's ``smart_resize`` crop, in its float32-then-truncate arithmetic).

    >>> crop_to_aspect_ratio(np.zeros((10, 20, 1)), (5, 5)).shape
    (10, 10, 1)
    """
    height, width = image.shape[:2]
    target_h, target_w = size
    crop_h = max(min(height, int(_F(width * target_h) / _F(target_w))), 1)
    crop_w = max(min(width, int(_F(height * target_w) / _F(target_h))), 1)
    top = int(_F(height - crop_h) / _F(2))
    left = int(_F(width - crop_w) / _F(2))
    return image[top:top + crop_h, left:left + crop_w]


def resize_with_pad(image, size, interpolation="bilinear"):
    """``image`` resized to fit inside ``size`` without distortion, then
    padded with zeros to ``size`` (``tf.image.resize_with_pad``).

    >>> resize_with_pad(np.ones((2, 4, 1)), (4, 4))[..., 0].tolist()
    [[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]
    """
    height, width = image.shape[:2]
    target_h, target_w = (_F(s) for s in size)
    ratio = max(_F(width) / target_w, _F(height) / target_h)
    new_h, new_w = _F(height) / ratio, _F(width) / ratio
    top = max(0, int(math.floor((target_h - new_h) / _F(2))))
    left = max(0, int(math.floor((target_w - new_w) / _F(2))))
    resized = resize(image, (int(math.floor(new_h)), int(math.floor(new_w))),
                     interpolation)
    out = np.zeros(tuple(size) + image.shape[2:], dtype=resized.dtype)
    out[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
    return out


__all__ = ["INTERPOLATIONS", "crop_to_aspect_ratio", "resize", "resize_with_pad",
           "weights"]
