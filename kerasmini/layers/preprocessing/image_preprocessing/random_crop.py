"""``RandomCrop``: a ``(height, width)`` window at a random place, when training.

In training the layer draws one corner per batch (every image of the batch
is cropped at the same place, as in Keras 3) from the layer's
``SeedGenerator``; the crop is a backend primitive whose corner is a tensor,
so each step of a traced ``fit`` crops where its own draw says. An image not
larger than the target on both sides is cut to the target's aspect ratio and
resized instead (Keras 3.15.1 cuts a window of the target's size from that
corner, clipped by the image, and resizes it: the aspect ratio is lost). At
inference every image is cut to the target's aspect ratio (the largest
centred window) and resized to ``(height, width)``: what
Keras 3's docstring promises (Keras 3.15.1 itself returns the images
uncropped, of another shape than its ``compute_output_shape`` says).

>>> import numpy as np
>>> RandomCrop(2, 2)(np.arange(16.0).reshape(1, 4, 4, 1),
...                  training=False)[0, :, :, 0].tolist()
[[2.5, 4.5], [10.5, 12.5]]
"""

import random as python_random

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.backend.preprocessing import crop_images
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
    check_size,
)
from kerasmini.layers.preprocessing.image_preprocessing.resizing import (
    aspect_crop_box,
    resize_batch,
)


@keras_export("kerasmini.layers.RandomCrop")
class RandomCrop(BaseImagePreprocessingLayer):
    """Randomly crop images during training.

    Args:
        height, width: the output size.
        seed: an integer: the same seed gives the same corners (``None``
            draws one, which ``get_config`` then records, as Keras does).
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> import numpy as np
    >>> RandomCrop(3, 3, seed=1)(np.ones((2, 5, 6, 1))).shape
    (2, 3, 3, 1)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, seed=None, data_format=None, name=None,
                 **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height = check_size(height, "height", "RandomCrop")
        self.width = check_size(width, "width", "RandomCrop")
        # Keras's make_default_seed: Python's generator (which
        # kerasmini.utils.set_random_seed seeds)
        self.seed = seed if seed is not None else python_random.randint(1, int(1e9))
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        height, width = self._image_size(data.shape)
        if training and height > self.height and width > self.width:
            seed = seed if seed is not None else self._get_seed_generator()
            top = random.uniform((), 0, float(height - self.height + 1), seed=seed)
            left = random.uniform((), 0, float(width - self.width + 1), seed=seed)
            return ops.cast(top, "int32"), ops.cast(left, "int32")
        top, left, _, _ = aspect_crop_box(height, width, self.height, self.width)
        return top, left

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.dtype)
        batch = self._channels_last(images)
        height, width = batch.shape[1], batch.shape[2]
        if training and height > self.height and width > self.width:
            offsets = ops.stack([ops.cast(t, "int32") for t in transformation])
            out = crop_images(batch, offsets, height=self.height, width=self.width)
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
                       "seed": self.seed, "data_format": self.data_format})
        return config


__all__ = ["RandomCrop"]
