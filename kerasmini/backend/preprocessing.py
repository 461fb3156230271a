"""The NumPy behind the preprocessing layers, as primitives.

A preprocessing layer must run the same way eagerly, on a ``GradientTape``
and inside a traced ``fit`` step (where a random layer draws afresh at every
replay). So whatever it computes from a tensor goes through a primitive:

- resizing is not here: ``Resizing`` resizes with the primitive behind
  ``ops.image.resize``, :func:`kerasmini.backend.image.resize` (a batch times
  two matrices, one per axis), with the matrices of
  :mod:`kerasmini.backend.image_resize` (TensorFlow's arithmetic);
- ``affine_transform(images, transform)``: each output pixel ``(y, x)`` reads
  the input at ``x' = a0 x + a1 y + a2``, ``y' = b0 x + b1 y + b2`` (divided
  by ``c0 x + c1 y + 1``), TensorFlow's 8-number transform, which Keras's
  rotation, zoom and translation layers build. Sampling follows Keras 3's
  ``map_coordinates``: ``"nearest"`` rounds half to even, ``"bilinear"``
  blends the four pixels around; a coordinate outside the image is folded
  back (``"reflect"``, ``"mirror"``, ``"wrap"``, ``"nearest"``) or, with
  ``"constant"``, the pixels outside count as ``fill_value``. Linear in the
  images too: its gradient adds each output's share back where it was read;
- ``crop_images(images, offsets, height, width)``: a window whose corner is
  a tensor (``RandomCrop``'s draw), so a replay crops where the new draw says;
- ``numpy_function(*tensors, fn=...)``: any NumPy function of tensors, with no
  gradient (vocabulary lookups, splitting text), as ``tf.numpy_function``.

>>> image = np.arange(4.0).reshape(1, 2, 2, 1)
>>> shift = np.array([[1.0, 0, 1, 0, 1, 0, 0, 0]])  # read one pixel right
>>> affine_transform(image, shift, fill_mode="constant")[0, :, :, 0]
array([[1., 0.],
       [3., 0.]])
"""

import numpy as np

from kerasmini.backend.core import Primitive

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("reflect", "wrap", "constant", "nearest", "mirror")
_F = np.float32


def _float(x):
    return x if x.dtype.kind == "f" else x.astype(np.float32)


# ------------------------------------------------------- affine transform
def _mirror(index, size):
    half = size - 1  # a triangular wave of period 2 (size - 1)
    if half == 0:
        return np.zeros_like(index)
    return np.abs((index + half) % (2 * half) - half)


def _reflect(index, size):
    return (_mirror(2 * index + 1, 2 * size + 1) - 1) // 2


_FOLD = {
    "constant": lambda index, size: np.clip(index, 0, size - 1),
    "nearest": lambda index, size: np.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _taps(coordinate, interpolation):
    """``[(index, weight)]``: the pixels one axis reads, with their weights."""
    if interpolation == "nearest":
        return [(np.round(coordinate).astype(np.int64), _F(1.0))]
    lower = np.floor(coordinate)
    upper_weight = coordinate - lower
    lower = lower.astype(np.int64)
    return [(lower, _F(1.0) - upper_weight), (lower + 1, upper_weight)]


def _sources(transform, height, width):
    """The input coordinates ``(y', x')`` each output pixel reads, float32,
    each of shape ``(batch, height, width)``."""
    t = transform.astype(_F).reshape(-1, 8)[:, :, None, None]
    a0, a1, a2, b0, b1, b2, c0, c1 = (t[:, i] for i in range(8))
    y, x = np.meshgrid(np.arange(height, dtype=_F), np.arange(width, dtype=_F),
                       indexing="ij")
    k = c0 * x + c1 * y + _F(1.0)
    return (b0 * x + b1 * y + b2) / k, (a0 * x + a1 * y + a2) / k


def _reads(transform, shape, interpolation, fill_mode):
    """``[(rows, cols, weight, inside)]``, one entry per pixel each output
    pixel blends: where it reads (folded into the image), with what weight,
    and whether the read lies inside the image (only ``"constant"`` cares)."""
    _, height, width, _ = shape
    sources_y, sources_x = _sources(transform, height, width)
    fold = _FOLD[fill_mode]
    reads = []
    for rows, weight_y in _taps(sources_y, interpolation):
        for cols, weight_x in _taps(sources_x, interpolation):
            inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
            reads.append((fold(rows, height), fold(cols, width),
                          weight_y * weight_x, inside))
    return reads


def _affine(images, transform, interpolation="bilinear", fill_mode="constant",
            fill_value=0.0):
    batch = np.arange(images.shape[0])[:, None, None]
    out = np.zeros(images.shape, dtype=_float(images).dtype)
    for rows, cols, weight, inside in _reads(transform, images.shape,
                                             interpolation, fill_mode):
        pixels = images[batch, rows, cols]  # (batch, h, w, c)
        if fill_mode == "constant":
            pixels = np.where(inside[..., None], pixels, fill_value)
        out += (weight[..., None] * pixels).astype(out.dtype)
    if images.dtype.kind in "iub":
        return np.round(out).astype(images.dtype)
    return out


def _affine_adjoint(g, transform, shape, interpolation, fill_mode):
    # every output pixel read `weight * image[rows, cols]`: send `weight * g`
    # back to that input pixel (none for reads outside, filled with a constant)
    batch = np.broadcast_to(np.arange(shape[0])[:, None, None], shape[:3])
    grad = np.zeros(shape, dtype=g.dtype)
    for rows, cols, weight, inside in _reads(transform, shape, interpolation,
                                             fill_mode):
        share = weight[..., None] * g
        if fill_mode == "constant":
            share = np.where(inside[..., None], share, 0)
        np.add.at(grad, (batch, rows, cols), share.astype(g.dtype))
    return grad


_affine_grad = Primitive("affine_transform_grad", _affine_adjoint)
affine_transform = Primitive("affine_transform", _affine)
affine_transform.defvjp(
    lambda g, ans, images, transform, interpolation="bilinear",
    fill_mode="constant", fill_value=0.0: _affine_grad(
        g, transform, shape=tuple(np.shape(images)), interpolation=interpolation,
        fill_mode=fill_mode),
    None)


# ------------------------------------------------------------------- crop
def _crop(images, offsets, height, width):
    top, left = (int(v) for v in np.asarray(offsets).reshape(2))
    return images[:, top:top + height, left:left + width]


def _uncrop(g, offsets, shape):
    top, left = (int(v) for v in np.asarray(offsets).reshape(2))
    out = np.zeros(shape, dtype=g.dtype)
    out[:, top:top + g.shape[1], left:left + g.shape[2]] = g
    return out


_uncrop_prim = Primitive("uncrop_images", _uncrop)
crop_images = Primitive("crop_images", _crop)
crop_images.defvjp(
    lambda g, ans, images, offsets, height, width: _uncrop_prim(
        g, offsets, shape=tuple(np.shape(images))),
    None)


# --------------------------------------------------------- numpy function
def _apply(*tensors, fn):
    return fn(*tensors)


numpy_function = Primitive("numpy_function", _apply)

__all__ = ["FILL_MODES", "INTERPOLATIONS", "affine_transform", "crop_images",
           "numpy_function"]
