"""``RandomTranslation``: shift each image by a random offset, when training.

``height_factor=0.2`` draws vertical shifts in ``[-20%, +20%]`` of the height
(positive: down), ``width_factor`` horizontal ones (positive: right); each
image of a batch draws its own. What the shift uncovers is filled by
``fill_mode``. At inference the images come back unchanged (as floats).

>>> import numpy as np
>>> RandomTranslation(0, (0.5, 0.5), fill_mode="constant")(
...     np.ones((1, 2, 2, 1)))[0, :, :, 0].tolist()
[[0.0, 1.0], [0.0, 1.0]]
"""

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
    check_fill_and_interpolation,
    check_fill_value,
)
from kerasmini.layers.preprocessing.image_preprocessing.random_rotation import (
    FILL_MODES,
    INTERPOLATIONS,
)
from kerasmini.layers.preprocessing.image_preprocessing.random_zoom import (
    factor_range,
)


@keras_export("kerasmini.layers.RandomTranslation")
class RandomTranslation(BaseImagePreprocessingLayer):
    """Randomly translate images during training.

    Args:
        height_factor: a fraction of the height: a number ``f`` for
            ``[-f, f]`` or a pair, each in ``[-1, 1]``.
        width_factor: the same for the width.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or
            ``"nearest"``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        seed: an integer: the same seed gives the same shifts.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> import numpy as np
    >>> RandomTranslation(0.2, 0.2, seed=1)(np.ones((2, 5, 5, 3))).shape
    (2, 5, 5, 3)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.height_lower, self.height_upper = factor_range(
            "RandomTranslation", "height_factor", height_factor, -1.0,
            low_open=False)
        self.width_factor = width_factor
        self.width_lower, self.width_upper = factor_range(
            "RandomTranslation", "width_factor", width_factor, -1.0, low_open=False)
        check_fill_and_interpolation("RandomTranslation", fill_mode, interpolation,
                                     FILL_MODES, INTERPOLATIONS)
        self.fill_mode = fill_mode
        self.fill_value = check_fill_value(fill_value, "RandomTranslation")
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        shape = data.shape
        batch_size = shape[0] if len(shape) == 4 else 1
        height, width = self._image_size(shape)
        seed = seed if seed is not None else self._get_seed_generator()
        height_translate = ops.multiply(random.uniform(
            (batch_size, 1), minval=self.height_lower, maxval=self.height_upper,
            seed=seed), height)
        width_translate = ops.multiply(random.uniform(
            (batch_size, 1), minval=self.width_lower, maxval=self.width_upper,
            seed=seed), width)
        translations = ops.cast(ops.concatenate([width_translate, height_translate],
                                                axis=1), "float32")
        return {"translations": translations, "input_shape": tuple(shape)}

    def _transform_images(self, images, transformation, interpolation):
        return self._affine_transform(
            images, self._get_translation_matrix(transformation["translations"]),
            interpolation)

    def _get_translation_matrix(self, translations):
        dx = ops.get_item(translations, (slice(None), slice(0, 1)))
        dy = ops.get_item(translations, (slice(None), slice(1, 2)))
        zeros, ones = ops.zeros_like(dx), ops.ones_like(dx)
        return ops.concatenate([ones, zeros, ops.negative(dx), zeros, ones,
                                ops.negative(dy), zeros, zeros], axis=1)

    def get_config(self):
        config = super().get_config()
        config.update({
            "height_factor": self.height_factor, "width_factor": self.width_factor,
            "fill_mode": self.fill_mode, "interpolation": self.interpolation,
            "seed": self.seed, "fill_value": self.fill_value,
            "data_format": self.data_format})
        return config


__all__ = ["RandomTranslation"]
