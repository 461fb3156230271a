"""``CenterCrop``: the central ``(height, width)`` window of each image.

An image at least as large as the target on both sides is cropped; a
smaller one is first cut to the target's aspect ratio (the largest centred
window) and then resized to the target with bilinear interpolation, Keras's
``smart_resize``. The output is float (the layer's dtype), in training and
inference alike.

>>> import numpy as np
>>> CenterCrop(2, 2)(np.arange(16.0).reshape(4, 4, 1))[:, :, 0].tolist()
[[5.0, 6.0], [9.0, 10.0]]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
    check_size,
)
from kerasmini.layers.preprocessing.image_preprocessing.resizing import resize_batch


@keras_export("kerasmini.layers.CenterCrop")
class CenterCrop(BaseImagePreprocessingLayer):
    """Crop the centre of images to ``(height, width)``.

    Args:
        height, width: the output size.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> import numpy as np
    >>> CenterCrop(3, 5)(np.ones((2, 4, 4, 1))).shape  # too narrow: resized
    (2, 3, 5, 1)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = check_size(height, "height", "CenterCrop")
        self.width = check_size(width, "width", "CenterCrop")

    def get_random_transformation(self, data, training=True, seed=None):
        return {"input_shape": tuple(data.shape)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.dtype)
        batch = self._channels_last(images)
        height, width = batch.shape[1], batch.shape[2]
        top, left = (height - self.height) // 2, (width - self.width) // 2
        if top >= 0 and left >= 0:
            out = ops.get_item(batch, (slice(None), slice(top, top + self.height),
                                       slice(left, left + self.width)))
        else:
            out = resize_batch(batch, (self.height, self.width),
                               crop_to_aspect_ratio=True)
        return self._from_channels_last(out)

    def compute_output_shape(self, input_shape):
        self._check_rank(input_shape)
        shape = list(input_shape)
        shape[self._height_axis] = self.height
        shape[self._width_axis] = self.width
        return tuple(shape)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width,
                       "data_format": self.data_format})
        return config


__all__ = ["CenterCrop"]
