"""Image ops of ``keras.ops.image`` (Keras 3's ``keras/src/ops/image.py``):
``resize`` and ``extract_patches``.

Both take one image ``(height, width, channels)`` or a batch of them
``(batch, height, width, channels)`` (channels first with
``data_format="channels_first"``), compute through backend primitives on
arrays (so they are differentiable and traced) and answer with a shape on
KerasTensors:

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.image.resize(KerasTensor((None, 8, 8, 3)), (4, 6)).shape
(None, 4, 6, 3)
>>> ops.image.extract_patches(np.ones((2, 8, 8, 3)), 4).shape
(2, 2, 2, 48)
"""

import numpy as np

from kerasmini import backend
from kerasmini.backend import validation
from kerasmini.backend.image import INTERPOLATIONS, weights
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.ops import shapes
from kerasmini.ops.families import custom
from kerasmini.ops.nn import _conv_compute, _conv_geometry, _nchw_shape, data_format

_M = __name__


def _image_layout(images, fmt, op):
    """``(batched, height axis, width axis)`` of ``images``, checked."""
    shape = shapes.shape_of(images)
    if len(shape) not in (3, 4):
        raise ValueError(
            f"ops.image.{op}: Invalid images rank: expected rank 3 (single image) "
            "or rank 4 (batch of images). Received input with shape: "
            f"images.shape={shape}"
        )
    batched = len(shape) == 4
    first = 1 if batched else 0
    height = first if fmt == "channels_last" else first + 1
    return batched, height, height + 1


def _resize_arguments(images, size, interpolation, antialias, crop_to_aspect_ratio,
                      pad_to_aspect_ratio, fill_mode, fill_value, data_format_):
    op = "resize"
    fmt = data_format(data_format_, "image.resize")
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
            validation.is_int(s) for s in size):
        raise ValueError(f"ops.image.resize: Expected `size` to be a tuple of 2 "
                         f"integers. Received: size={size!r}")
    if size[0] <= 0 or size[1] <= 0:
        raise ValueError(f"ops.image.resize: `size` must have positive height and "
                         f"width. Received: size={tuple(size)}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            "ops.image.resize: Invalid value for argument `interpolation`. Expected "
            f"of one {INTERPOLATIONS}. Received: interpolation={interpolation!r}"
        )
    for name, value in (("antialias", antialias),
                        ("crop_to_aspect_ratio", crop_to_aspect_ratio),
                        ("pad_to_aspect_ratio", pad_to_aspect_ratio)):
        validation.check_bool(value, name, owner="ops.image.resize")
    if fill_mode != "constant":
        raise ValueError(
            "ops.image.resize: Invalid value for argument `fill_mode`. Only "
            f"`'constant'` is supported. Received: fill_mode={fill_mode!r}"
        )
    shapes.check_number(fill_value, "image.resize", "fill_value")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("ops.image.resize: Only one of `pad_to_aspect_ratio` & "
                         "`crop_to_aspect_ratio` can be `True`. Received: "
                         "pad_to_aspect_ratio=True, crop_to_aspect_ratio=True")
    batched, h_axis, w_axis = _image_layout(images, fmt, op)
    shapes.numeric_dtype(images, "image.resize", "images")
    return fmt, batched, h_axis, w_axis


def _resize_spec(self, images, size, interpolation="bilinear", antialias=False,
                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_mode="constant", fill_value=0.0, data_format=None):
    _, _, h_axis, w_axis = _resize_arguments(
        images, size, interpolation, antialias, crop_to_aspect_ratio,
        pad_to_aspect_ratio, fill_mode, fill_value, data_format)
    shape = list(shapes.shape_of(images))
    shape[h_axis], shape[w_axis] = int(size[0]), int(size[1])
    return KerasTensor(tuple(shape), shapes.dtype_of(images))


def _crop_or_pad(images, size, h_axis, w_axis, crop, fill_value):
    """The largest centred window of the target aspect ratio (``crop``), or
    the image centred in the smallest such frame of ``fill_value``."""
    shape = shapes.shape_of(images)
    height, width = shape[h_axis], shape[w_axis]
    target_h, target_w = size
    new_h = int(float(width * target_h) / target_w)
    new_w = int(float(height * target_w) / target_h)
    if crop:
        new_h, new_w = max(min(height, new_h), 1), max(min(width, new_w), 1)
        top, left = int((height - new_h) / 2), int((width - new_w) / 2)
        key = [slice(None)] * len(shape)
        key[h_axis] = slice(top, top + new_h)
        key[w_axis] = slice(left, left + new_w)
        return backend.numpy.getitem(images, tuple(key))
    new_h, new_w = max(height, new_h), max(width, new_w)
    top, left = int((new_h - height) / 2), int((new_w - width) / 2)
    widths = [(0, 0)] * len(shape)
    widths[h_axis] = (top, top)  # Keras pads the same on both sides
    widths[w_axis] = (left, left)
    return backend.numpy.pad(images, widths, constant_values=fill_value)


def _resize(images, size, interpolation="bilinear", antialias=False,
            crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
            fill_mode="constant", fill_value=0.0, data_format=None):
    fmt, batched, h_axis, w_axis = _resize_arguments(
        images, size, interpolation, antialias, crop_to_aspect_ratio,
        pad_to_aspect_ratio, fill_mode, fill_value, data_format)
    size = (int(size[0]), int(size[1]))
    dtype = shapes.dtype_of(images)
    x = images
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        x = _crop_or_pad(x, size, h_axis, w_axis, crop_to_aspect_ratio, fill_value)
    if np.dtype(dtype).kind != "f":
        x = backend.numpy.cast(x, "float32")
    if not batched:
        x = backend.numpy.expand_dims(x, 0)
    if fmt == "channels_first":
        x = backend.numpy.transpose(x, (0, 2, 3, 1))
    in_h, in_w = shapes.shape_of(x)[1:3]
    rows = weights(in_h, size[0], interpolation, antialias)
    cols = weights(in_w, size[1], interpolation, antialias)
    out = backend.image.resize(x, rows, cols)
    if fmt == "channels_first":
        out = backend.numpy.transpose(out, (0, 3, 1, 2))
    if not batched:
        out = backend.numpy.squeeze(out, 0)
    if np.dtype(dtype).kind != "f":  # integer images stay integers, rounded
        info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
        out = backend.numpy.round(out)
        if info is not None:
            out = backend.numpy.clip(out, float(info.min), float(info.max))
        out = backend.numpy.cast(out, dtype)
    return out


Resize, resize = custom(
    "Resize", _resize, _resize_spec, module=_M,
    summary="Images resized to ``size = (height, width)`` by ``interpolation``: "
            "``'bilinear'`` (default), ``'nearest'``, ``'bicubic'``, "
            "``'lanczos3'``, ``'lanczos5'`` or ``'area'``; ``antialias`` widens "
            "the filter when shrinking; ``crop_to_aspect_ratio`` or "
            "``pad_to_aspect_ratio`` (with ``fill_value``) keep the aspect ratio.",
    example=">>> ops.image.resize(np.ones((4, 4, 3)), (2, 2)).shape\n"
            "    (2, 2, 3)")


def _patch_arguments(images, size, strides, dilation_rate, padding, data_format_):
    fmt = data_format(data_format_, "image.extract_patches")
    if validation.is_int(size):
        size = (size, size)
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
            validation.is_int(s) and s >= 1 for s in size):
        raise TypeError(
            "ops.image.extract_patches: Invalid `size` argument. Expected an int or "
            "a tuple of length 2 of positive integers (kerasmini has no 3D patches)."
            f" Received: size={size!r}"
        )
    shapes.numeric_dtype(images, "image.extract_patches", "images")
    batched, h_axis, _ = _image_layout(images, fmt, "extract_patches")
    shape = shapes.shape_of(images)
    channels = shape[-1] if fmt == "channels_last" else shape[h_axis - 1]
    if channels is None:
        raise ValueError("ops.image.extract_patches: the number of channels must be "
                         f"known. Received: images.shape={shape}")
    return fmt, batched, tuple(size), size if not strides else strides, channels


def _identity_kernel(size, channels, dtype):
    # a convolution with this kernel copies each patch into the channels
    # axis, in (row, column, channel) order, as Keras does
    out_dim = size[0] * size[1] * channels
    return np.eye(out_dim, dtype=dtype).reshape(size[0], size[1], channels, out_dim)


def _extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                     data_format=None):
    fmt, batched, size, strides, channels = _patch_arguments(
        images, size, strides, dilation_rate, padding, data_format)
    dtype = shapes.float_result(shapes.dtype_of(images))
    x = images if batched else backend.numpy.expand_dims(images, 0)
    kernel = _identity_kernel(size, channels, dtype)
    _conv_geometry(x, kernel, strides, padding, fmt, dilation_rate,
                   op="image.extract_patches")
    out = _conv_compute(backend.numpy.cast(x, dtype), kernel, strides, padding, fmt,
                    dilation_rate)
    return out if batched else backend.numpy.squeeze(out, 0)


def _extract_patches_spec(self, images, size, strides=None, dilation_rate=1,
                          padding="valid", data_format=None):
    fmt, batched, size, strides, channels = _patch_arguments(
        images, size, strides, dilation_rate, padding, data_format)
    shape = shapes.shape_of(images)
    batch = KerasTensor(shape if batched else (1,) + shape)
    kernel = KerasTensor(size + (channels, size[0] * size[1] * channels))
    _, out = _conv_geometry(batch, kernel, strides, padding, fmt, dilation_rate,
                            op="image.extract_patches")
    out = _nchw_shape(out, fmt)
    dtype = shapes.float_result(shapes.dtype_of(images))
    return KerasTensor(out if batched else out[1:], dtype)


ExtractPatches, extract_patches = custom(
    "ExtractPatches", _extract_patches, _extract_patches_spec, module=_M,
    summary="The ``size`` patches of the images (every ``strides`` pixels, "
            "``size`` by default), each flattened into the channels axis in "
            "(row, column, channel) order.",
    example=">>> ops.image.extract_patches(KerasTensor((None, 32, 32, 3)), "
            "(8, 8)).shape\n    (None, 4, 4, 192)")

__all__ = ["ExtractPatches", "Resize", "extract_patches", "resize"]
