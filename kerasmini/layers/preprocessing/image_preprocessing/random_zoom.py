"""``RandomZoom``: zoom each image in or out by a random factor, when training.

``height_factor=0.2`` draws zooms in ``[-20%, +20%]`` of the height: a
positive draw zooms *out* (the image shrinks inside the frame, the edges are
filled by ``fill_mode``), a negative one zooms in. Without ``width_factor``
the width zooms as the height does (the aspect ratio is kept). The zoom is
centred: each output pixel ``(x, y)`` reads the input at
``(zx x + (w - 1) (1 - zx) / 2, zy y + (h - 1) (1 - zy) / 2)``. At inference
the images come back unchanged (as floats).

>>> zoom_out = RandomZoom((0.5, 0.5), fill_mode="constant", interpolation="nearest")
>>> zoom_out(np.ones((1, 4, 4, 1)))[0, :, :, 0].tolist()
[[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
"""

import numpy as np

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


def factor_range(owner, name, factor, lowest, low_open):
    """``(lower, upper)`` from a number ``f`` (``(-f, f)``) or a pair, each
    value in ``(lowest, 1]`` (``[lowest, 1]`` unless ``low_open``).

    >>> factor_range("RandomZoom", "height_factor", 0.2, -1.0, low_open=True)
    (-0.2, 0.2)
    """
    interval = f"{'(' if low_open else '['}{lowest}, 1.0]"
    message = (
        f"{owner}: the `height_factor` and `width_factor` arguments should be a "
        f"number (or a list of two numbers) in the range {interval}. "
        f"Received: {name}={factor!r}"
    )

    def check(value):
        if not isinstance(value, (int, float, np.integer, np.floating)) or \
                isinstance(value, (bool, np.bool_)):
            raise ValueError(message)
        if value > 1.0 or value < lowest or (low_open and value == lowest):
            raise ValueError(message)

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message)
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    check(factor)
    return -abs(factor), abs(factor)


@keras_export("kerasmini.layers.RandomZoom")
class RandomZoom(BaseImagePreprocessingLayer):
    """Randomly zoom images during training.

    Args:
        height_factor: a fraction of the height: a number ``f`` for
            ``[-f, f]`` or a pair, each in ``(-1, 1]``; positive zooms out.
        width_factor: the same for the width; ``None`` (default) zooms the
            width as the height.
        fill_mode: ``"reflect"`` (default), ``"wrap"``, ``"constant"`` or
            ``"nearest"``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        seed: an integer: the same seed gives the same zooms.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> RandomZoom(0.3, seed=1)(np.ones((2, 5, 5, 3))).shape
    (2, 5, 5, 3)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.height_lower, self.height_upper = factor_range(
            "RandomZoom", "height_factor", height_factor, -1.0, low_open=True)
        self.width_factor = width_factor
        if width_factor is not None:
            self.width_lower, self.width_upper = factor_range(
                "RandomZoom", "width_factor", width_factor, -1.0, low_open=True)
        check_fill_and_interpolation("RandomZoom", fill_mode, interpolation,
                                     FILL_MODES, INTERPOLATIONS)
        self.fill_mode = fill_mode
        self.fill_value = check_fill_value(fill_value, "RandomZoom")
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        shape = data.shape
        zoom_shape = (shape[0], 1) if len(shape) == 4 else (1, 1)
        seed = seed if seed is not None else self._get_seed_generator()
        height_zoom = random.uniform(zoom_shape, minval=1.0 + self.height_lower,
                                     maxval=1.0 + self.height_upper, seed=seed)
        if self.width_factor is not None:
            width_zoom = random.uniform(zoom_shape, minval=1.0 + self.width_lower,
                                        maxval=1.0 + self.width_upper, seed=seed)
        else:
            width_zoom = height_zoom
        return {"height_zoom": height_zoom, "width_zoom": width_zoom,
                "input_shape": tuple(shape)}

    def _transform_images(self, images, transformation, interpolation):
        zooms = ops.cast(ops.concatenate(
            [transformation["width_zoom"], transformation["height_zoom"]], axis=1),
            "float32")
        height, width = self._image_size(images.shape)
        return self._affine_transform(
            images, self._get_zoom_matrix(zooms, height, width), interpolation)

    def _get_zoom_matrix(self, zooms, image_height, image_width):
        zoom_x, zoom_y = ops.get_item(zooms, (slice(None), slice(0, 1))), \
            ops.get_item(zooms, (slice(None), slice(1, 2)))
        x_offset = ops.multiply((np.float32(image_width) - 1.0) / 2.0,
                                ops.subtract(1.0, zoom_x))
        y_offset = ops.multiply((np.float32(image_height) - 1.0) / 2.0,
                                ops.subtract(1.0, zoom_y))
        zeros = ops.zeros_like(zoom_x)
        return ops.concatenate([zoom_x, zeros, x_offset, zeros, zoom_y, y_offset,
                                zeros, zeros], axis=1)

    def get_config(self):
        config = super().get_config()
        config.update({
            "height_factor": self.height_factor, "width_factor": self.width_factor,
            "fill_mode": self.fill_mode, "interpolation": self.interpolation,
            "seed": self.seed, "fill_value": self.fill_value,
            "data_format": self.data_format})
        return config


__all__ = ["RandomZoom", "factor_range"]
