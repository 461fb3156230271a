"""``RandomContrast``: stretch or squeeze each image's contrast, when training.

Each image of a batch draws a factor ``c`` in ``[1 - lower, 1 + upper]``
(``factor`` gives ``(lower, upper)``), and every channel moves away from (or
towards) its mean over the image: ``(x - mean) * c + mean``, clipped to
``value_range``. As in Keras 3, a single number ``factor=f`` means
``(0, f)``: the contrast only grows. At inference the images come back
unchanged, in their own dtype.

>>> images = np.array([[[[50], [150]]]], "uint8")
>>> RandomContrast(0.5)(images, training=False).dtype
dtype('uint8')
"""

import numpy as np

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
)


@keras_export("kerasmini.layers.RandomContrast")
class RandomContrast(BaseImagePreprocessingLayer):
    """Randomly adjust the contrast of images during training.

    Args:
        factor: a number ``f`` in ``[0, 1]`` (factors in ``[1, 1 + f]``) or a
            pair ``(lower, upper)`` (factors in ``[1 - lower, 1 + upper]``).
        value_range: the ``(min, max)`` range of the pixels (default
            ``(0, 255)``); outputs are clipped to it.
        seed: an integer: the same seed gives the same factors.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> RandomContrast(0.2, seed=1)(np.ones((2, 3, 3, 3))).shape
    (2, 3, 3, 3)
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2 or \
                not all(validation.is_int(v) or isinstance(v, float)
                        for v in value_range):
            raise ValueError(
                "RandomContrast: argument `value_range` must be a pair of numbers "
                f"(min, max). Received: value_range={value_range!r}"
            )
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        shape = data.shape
        factor_shape = (1, 1, 1) if len(shape) == 3 else (shape[0], 1, 1, 1)
        if not training:
            return {"contrast_factor": ops.zeros(factor_shape)}
        seed = seed if seed is not None else self._get_seed_generator()
        factor = random.uniform(factor_shape, minval=1.0 - self.factor[0],
                                maxval=1.0 + self.factor[1], seed=seed,
                                dtype=self.dtype)
        return {"contrast_factor": factor}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        if np.dtype(images.dtype).kind != "f":
            images = ops.cast(images, self.dtype)
        factor = transformation["contrast_factor"]
        if len(factor.shape) == 3:  # drawn for one image
            factor = ops.expand_dims(factor, 0)
        height_axis, width_axis = self._height_axis, self._width_axis
        mean = ops.mean(images, axis=height_axis, keepdims=True)
        mean = ops.mean(mean, axis=width_axis, keepdims=True)
        outputs = ops.add(ops.multiply(ops.subtract(images, mean), factor), mean)
        return ops.clip(outputs, self.value_range[0], self.value_range[1])

    def _output_dtype(self, input_dtype):
        return self.dtype

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range,
                       "seed": self.seed})
        return config


__all__ = ["RandomContrast"]
