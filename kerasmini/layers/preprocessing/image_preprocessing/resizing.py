"""``Resizing``: images to ``(height, width)``, in training and inference.

Every interpolation is a pair of matrices, one per axis (rows of the output
as weighted sums of rows of the input, then the same for columns), computed
once per input size with TensorFlow's arithmetic
(:mod:`kerasmini.backend.image_resize`) and applied by the primitive behind
``ops.image.resize``, :func:`kerasmini.backend.image.resize`, which has a
gradient. ``crop_to_aspect_ratio`` first takes
the largest centred window of the target's aspect ratio;
``pad_to_aspect_ratio`` first pads the short side evenly with ``fill_value``.
Integer images come back in their own dtype, rounded and clipped to its range,
as Keras returns them.

>>> Resizing(2, 2)(np.arange(16.0).reshape(1, 4, 4, 1))[0, :, :, 0].tolist()
[[2.5, 4.5], [10.5, 12.5]]
"""

import numpy as np

from kerasmini import backend, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import image_resize, validation
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
    check_size,
)

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def aspect_crop_box(height, width, target_height, target_width):
    """``(top, left, crop_height, crop_width)``: the largest centred window
    of the target's aspect ratio (Keras's ``smart_resize`` arithmetic).

    >>> aspect_crop_box(10, 20, 5, 5)
    (0, 5, 10, 10)
    """
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top = int(float(height - crop_height) / 2)
    left = int(float(width - crop_width) / 2)
    return top, left, crop_height, crop_width


def resize_batch(images, size, interpolation="bilinear", antialias=False,
                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_value=0.0):
    """A ``(batch, h, w, c)`` batch resized to ``size`` (float32 for integer
    images), as Keras's ``ops.image.resize`` with TensorFlow's arithmetic.

    >>> resize_batch(np.ones((1, 3, 5, 2)), (2, 2)).shape
    (1, 2, 2, 2)
    """
    _, height, width, _ = images.shape
    target_height, target_width = size
    if crop_to_aspect_ratio:
        top, left, height, width = aspect_crop_box(height, width, *size)
        images = ops.get_item(images, (slice(None), slice(top, top + height),
                                       slice(left, left + width)))
    elif pad_to_aspect_ratio:
        images, height, width = _pad_to_aspect(images, height, width, size,
                                               fill_value)
    rows = image_resize.weights(target_height, height, interpolation, antialias)
    cols = image_resize.weights(target_width, width, interpolation, antialias)
    return backend.image.resize(images, rows, cols)


def _pad_to_aspect(images, height, width, size, fill_value):
    target_height, target_width = size
    pad_height = max(height, int(float(width * target_height) / target_width))
    pad_width = max(width, int(float(height * target_width) / target_height))
    top = int(float(pad_height - height) / 2)
    left = int(float(pad_width - width) / 2)
    if top <= 0 and left <= 0:
        return images, height, width
    # pad the short side on both sides by the same amount (as Keras does)
    widths = ((0, 0), (top, top), (left, left), (0, 0))
    dtype = np.dtype(images.dtype)
    if dtype.kind != "f":
        images, dtype = ops.cast(images, "float32"), np.dtype("float32")
    images = ops.pad(images, widths)
    if fill_value:
        outside = np.pad(np.zeros((1, height, width, 1)), widths[:3] + ((0, 0),),
                         constant_values=1.0).astype(dtype)
        images = ops.add(images, outside * np.asarray(fill_value, dtype))
    return images, height + 2 * top, width + 2 * left


def saturate_cast(x, dtype):
    """``x`` (floats) rounded into integer ``dtype``, clipped to its range.

    >>> saturate_cast(np.array([-3.0, 7.6, 300.0]), "uint8").tolist()
    [0, 8, 255]
    """
    info = np.iinfo(dtype)
    return ops.cast(ops.clip(ops.round(x), info.min, info.max), dtype)


@keras_export("kerasmini.layers.Resizing")
class Resizing(BaseImagePreprocessingLayer):
    """Resize images to ``(height, width)``.

    Args:
        height, width: the output size.
        interpolation: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``,
            ``"area"``, ``"lanczos3"`` or ``"lanczos5"`` (TensorFlow's
            arithmetic for each).
        crop_to_aspect_ratio: crop the largest centred window of the target's
            aspect ratio first (no distortion).
        pad_to_aspect_ratio: pad the short side first (no distortion).
        fill_mode: only ``"constant"``: the padding is ``fill_value``.
        fill_value: the value of the padding.
        antialias: filter when shrinking (TensorFlow's ``antialias=True``).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> Resizing(8, 6)(np.zeros((2, 4, 4, 3), "uint8")).dtype
    dtype('uint8')
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, interpolation="bilinear",
                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_mode="constant", fill_value=0.0, antialias=False,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        owner = "Resizing"
        self.height = check_size(height, "height", owner)
        self.width = check_size(width, "width", owner)
        self.interpolation = validation.check_choice(
            interpolation, "interpolation", INTERPOLATIONS, owner=owner)
        self.crop_to_aspect_ratio = validation.check_bool(
            crop_to_aspect_ratio, "crop_to_aspect_ratio", owner=owner)
        self.pad_to_aspect_ratio = validation.check_bool(
            pad_to_aspect_ratio, "pad_to_aspect_ratio", owner=owner)
        if self.crop_to_aspect_ratio and self.pad_to_aspect_ratio:
            raise ValueError(
                "Resizing: only one of `pad_to_aspect_ratio` & "
                "`crop_to_aspect_ratio` can be `True`. Received: both True"
            )
        self.fill_mode = validation.check_choice(fill_mode, "fill_mode",
                                                 ("constant",), owner=owner)
        self.fill_value = validation.check_float(fill_value, "fill_value",
                                                 owner=owner)
        self.antialias = bool(antialias)

    def transform_images(self, images, transformation=None, training=True):
        return self._transform_images(images, transformation, self.interpolation)

    def _transform_images(self, images, transformation, interpolation):
        batch = self._channels_last(images)
        resized = resize_batch(
            batch, (self.height, self.width), interpolation, self.antialias,
            self.crop_to_aspect_ratio, self.pad_to_aspect_ratio, self.fill_value)
        resized = self._from_channels_last(resized)
        if np.dtype(images.dtype).kind in "iub":
            return saturate_cast(resized, images.dtype)
        return resized

    def get_random_transformation(self, data, training=True, seed=None):
        return self._image_size(data.shape)

    def compute_output_shape(self, input_shape):
        self._check_rank(input_shape)
        shape = list(input_shape)
        shape[self._height_axis] = self.height
        shape[self._width_axis] = self.width
        return tuple(shape)

    def _output_dtype(self, input_dtype):
        if np.dtype(input_dtype).kind in "iub":
            return input_dtype
        return self.dtype

    def get_config(self):
        config = super().get_config()
        config.update({
            "height": self.height,
            "width": self.width,
            "interpolation": self.interpolation,
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "antialias": self.antialias,
            "data_format": self.data_format,
        })
        return config


__all__ = ["INTERPOLATIONS", "Resizing", "aspect_crop_box", "resize_batch",
           "saturate_cast"]
