"""``RandomRotation``: rotate each image by a random angle, when training.

``factor`` is a fraction of a full turn: ``0.1`` draws angles in
``[-36, 36]`` degrees, ``(-0.1, 0.3)`` in ``[-36, 108]``; each image of a batch
draws its own. The rotation turns about the image's centre: each output
pixel reads the input at the point the inverse rotation sends it to
(``_compute_affine_matrix``), ``interpolation`` blends the pixels around that
point, and ``fill_mode`` says what lies beyond the edges (``"reflect"``: the
image mirrored about its edge, ``"constant"``: ``fill_value``...). At inference
the images come back unchanged (as floats).

>>> import numpy as np
>>> x = np.arange(9.0).reshape(1, 3, 3, 1)
>>> RandomRotation(0.1)(x, training=False)[0, :, :, 0].tolist()
[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]
"""

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.layers.preprocessing.image_preprocessing.base_image_preprocessing_layer import (  # noqa: E501
    BaseImagePreprocessingLayer,
    check_fill_and_interpolation,
    check_fill_value,
)

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


@keras_export("kerasmini.layers.RandomRotation")
class RandomRotation(BaseImagePreprocessingLayer):
    """Randomly rotate images during training.

    Args:
        factor: a fraction of 2 pi: a number ``f`` for ``[-f, f]`` or a pair
            ``(lower, upper)``, each in ``[-1, 1]``.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or
            ``"nearest"``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        seed: an integer: the same seed gives the same angles.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> import numpy as np
    >>> RandomRotation((0.5, 0.5), fill_mode="constant")(
    ...     np.arange(9.0).reshape(3, 3, 1))[:, :, 0].round(4).tolist()
    [[8.0, 7.0, 6.0], [5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        check_fill_and_interpolation("RandomRotation", fill_mode, interpolation,
                                     FILL_MODES, INTERPOLATIONS)
        self.fill_mode = fill_mode
        self.interpolation = interpolation
        self.fill_value = check_fill_value(fill_value, "RandomRotation")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        shape = data.shape
        batch_size = shape[0] if len(shape) == 4 else 1
        height, width = self._image_size(shape)
        seed = seed if seed is not None else self._get_seed_generator()
        angle = random.uniform((batch_size,), minval=self.factor[0] * 360.0,
                               maxval=self.factor[1] * 360.0, seed=seed)
        zeros, ones = ops.zeros_like(angle), ops.ones_like(angle)
        matrix = self._compute_affine_matrix(0.5, 0.5, angle, zeros, zeros, ones,
                                             height, width)
        if len(shape) == 3:
            matrix = ops.squeeze(matrix, axis=0)
        return {"angle": angle, "rotation_matrix": matrix, "image_height": height,
                "image_width": width, "batch_size": batch_size}

    def _transform_images(self, images, transformation, interpolation):
        return self._affine_transform(images, transformation["rotation_matrix"],
                                      interpolation)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "data_format": self.data_format,
                       "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                       "interpolation": self.interpolation, "seed": self.seed})
        return config


__all__ = ["RandomRotation"]
