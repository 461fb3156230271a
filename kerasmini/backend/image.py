"""Resizing images (Keras 3's ``backend/*/image.py``) as one primitive.

Every interpolation Keras offers is *separable* and *linear* in the image:
each output row is a weighted sum of input rows, and each output column of
input columns. So a resize is two small matrices, ``(out_h, in_h)`` and
``(out_w, in_w)``, computed once from the sizes, and one primitive
``resize(images, rows, cols) = rows @ images @ cols.T`` (per image and
channel). Its gradient is the same primitive with the matrices transposed.

The matrices follow real Keras 3.15.1: with the torch backend for
``"nearest"``, ``"bilinear"`` and ``"bicubic"`` (half-pixel centres; bicubic
with Keys' ``a = -0.75`` and edge pixels repeated; with ``antialias``,
torch's filter stretched by the downscale factor, ``a = -0.5`` for bicubic),
with the NumPy and JAX backends for ``"lanczos3"`` and ``"lanczos5"`` (which
torch lacks), and with TensorFlow's for ``"area"`` (the mean of the input
pixels each output pixel covers, weighted by overlap).

>>> rows = weights(4, 2, "bilinear")
>>> rows.tolist()
[[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.5, 0.5]]
>>> resize(np.arange(16.0).reshape(1, 4, 4, 1), rows, rows)[0, :, :, 0]
array([[ 2.5,  4.5],
       [10.5, 12.5]])
"""

import numpy as np

from kerasmini.backend.core import Primitive

INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5", "area")


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


def _cubic(x, a):
    x = np.abs(x)
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    return np.where(x <= 1.0, near, np.where(x < 2.0, far, 0.0))


def _lanczos(x, radius):
    x = np.abs(x)
    safe = np.where(x > 1e-3, x, 1.0)
    y = radius * np.sin(np.pi * safe) * np.sin(np.pi * safe / radius) / (
        np.pi ** 2 * safe ** 2)
    return np.where(x > radius, 0.0, np.where(x > 1e-3, y, 1.0))


def _nearest(in_size, out_size):
    source = np.floor((np.arange(out_size) + 0.5) * in_size / out_size)
    out = np.zeros((out_size, in_size))
    out[np.arange(out_size), np.minimum(source, in_size - 1).astype(int)] = 1.0
    return out


def _classic(in_size, out_size, cubic):
    """torch's interpolation without antialiasing: the source position of
    each output pixel, two (or four) neighbours, edge pixels repeated."""
    out = np.zeros((out_size, in_size))
    source = (np.arange(out_size) + 0.5) * in_size / out_size - 0.5
    if not cubic:
        source = np.maximum(source, 0.0)
    first = np.floor(source).astype(int)
    t = source - first
    taps = range(-1, 3) if cubic else range(2)
    for tap in taps:
        w = _cubic(t - tap, -0.75) if cubic else 1.0 - np.abs(t - tap)
        index = np.clip(first + tap, 0, in_size - 1)
        np.add.at(out, (np.arange(out_size), index), w)
    return out


def _filtered(in_size, out_size, kernel, stretch):
    """A kernel centred on each output pixel's source position, stretched by
    ``stretch`` (the downscale factor, when antialiasing), each row scaled
    to sum to one over the pixels inside the image."""
    centre = (np.arange(out_size) + 0.5) * in_size / out_size
    offset = (np.arange(in_size)[None, :] + 0.5 - centre[:, None]) / stretch
    out = kernel(offset)
    total = out.sum(axis=1, keepdims=True)
    return np.where(np.abs(total) > 1000 * np.finfo("float32").eps,
                    out / np.where(total != 0, total, 1.0), 0.0)


def _area(in_size, out_size):
    step = in_size / out_size
    lo = np.arange(out_size)[:, None] * step
    pixel = np.arange(in_size)[None, :]
    overlap = np.minimum(pixel + 1.0, lo + step) - np.maximum(pixel, lo)
    return np.maximum(overlap, 0.0) / step


def weights(in_size, out_size, interpolation, antialias=False):
    """The ``(out_size, in_size)`` matrix that resizes one axis.

    >>> weights(2, 4, "nearest").tolist()
    [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
    """
    shrink = in_size / out_size
    if interpolation == "nearest":
        return _nearest(in_size, out_size)
    if interpolation == "area":
        return _area(in_size, out_size)
    if interpolation.startswith("lanczos"):
        radius = float(interpolation[-1])
        stretch = max(shrink, 1.0) if antialias else 1.0
        return _filtered(in_size, out_size, lambda x: _lanczos(x, radius), stretch)
    cubic = interpolation == "bicubic"
    if not antialias:
        return _classic(in_size, out_size, cubic)
    kernel = (lambda x: _cubic(x, -0.5)) if cubic else _triangle
    return _filtered(in_size, out_size, kernel, max(shrink, 1.0))


def _resize(images, rows, cols):
    # (o, h) x (b, h, w, c) x (p, w) -> (b, o, p, c), summed in float64; integer
    # images come out float32, float images in their own dtype
    out = np.einsum("oh,bhwc,pw->bopc", rows, images.astype(np.float64), cols)
    return out.astype(images.dtype if images.dtype.kind == "f" else np.float32)


# linear in the images: the adjoint is the same product with each matrix
# transposed. ``ops.image.resize`` and the ``Resizing`` layer both resize
# through this one primitive, each with its matrices.
resize = Primitive("resize", _resize)
resize.defvjp(lambda g, ans, images, rows, cols: resize(
    g, np.transpose(rows), np.transpose(cols)), None, None)

__all__ = ["INTERPOLATIONS", "resize", "weights"]
