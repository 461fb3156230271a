"""``RandomFlip``: flip images left-right and/or top-bottom, when training.

Each image of a batch draws one uniform number from the layer's
``SeedGenerator``; it is flipped if the number is ``<= 0.5``. In
``"horizontal_and_vertical"`` mode the same draw decides both flips, as in
Keras 3 (so an image is either flipped both ways or not at all). At
inference the images come back unchanged (as floats).

>>> import numpy as np
>>> layer = RandomFlip("horizontal", seed=1)
>>> x = np.arange(3.0).reshape(1, 1, 3, 1)
>>> layer(x, training=False)[0, 0, :, 0].tolist()
[0.0, 1.0, 2.0]
"""

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
)

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"
MODES = (HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL)


@keras_export("kerasmini.layers.RandomFlip")
class RandomFlip(BaseImagePreprocessingLayer):
    """Randomly flip images during training.

    Args:
        mode: ``"horizontal"`` (left-right), ``"vertical"`` (top-bottom) or
            ``"horizontal_and_vertical"`` (default).
        seed: an integer: the same seed gives the same flips.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> import numpy as np
    >>> flipped = RandomFlip("horizontal", seed=3)(np.ones((8, 2, 2, 1)))
    >>> flipped.shape, flipped.dtype
    ((8, 2, 2, 1), dtype('float32'))
    """

    _USE_BASE_FACTOR = False

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.mode = validation.check_choice(mode, "mode", MODES, owner="RandomFlip")
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        shape = data.shape
        flips_shape = (1, 1, 1) if len(shape) == 3 else (shape[0], 1, 1, 1)
        seed = seed if seed is not None else self._get_seed_generator()
        flips = ops.less_equal(random.uniform(flips_shape, seed=seed), 0.5)
        return {"flips": flips, "input_shape": tuple(shape)}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.dtype)
        if not training or transformation is None:
            return images
        flips = transformation["flips"]
        if len(flips.shape) == 3:  # drawn for one image
            flips = ops.expand_dims(flips, 0)
        if self.data_format == "channels_last":
            width_axis, height_axis = 2, 1
        else:
            width_axis, height_axis = 3, 2
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            images = ops.where(flips, ops.flip(images, axis=width_axis), images)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            images = ops.where(flips, ops.flip(images, axis=height_axis), images)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "mode": self.mode})
        return config


__all__ = ["RandomFlip"]
