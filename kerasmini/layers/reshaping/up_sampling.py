"""``UpSampling1D`` and ``UpSampling2D``: repeat each step or pixel.

Nearest-neighbour upsampling by ``s`` repeats each element ``s`` times along
an axis: ``(b, h, w, c)`` is viewed as ``(b, h, 1, w, 1, c)``, broadcast to
``(b, h, sh, w, sw, c)`` and reshaped to ``(b, h * sh, w * sw, c)``. Those are
ops with gradient rules (the broadcast's sums the copies back).

>>> import numpy as np
>>> UpSampling1D(2)(np.array([[[1.0], [2.0]]]))[0, :, 0].tolist()
[1.0, 1.0, 2.0, 2.0]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_pair
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format


def repeat_along(x, axis, times):
    """Each element of ``x`` repeated ``times`` times along ``axis``.

    >>> import numpy as np
    >>> repeat_along(np.array([[1.0, 2.0]]), 1, 3).tolist()
    [[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]]
    """
    shape = tuple(x.shape)
    x = ops.expand_dims(x, axis=axis + 1)  # (.., n, 1, ..)
    x = ops.broadcast_to(x, shape[: axis + 1] + (times,) + shape[axis + 1:])
    return ops.reshape(x, shape[:axis] + (shape[axis] * times,) + shape[axis + 1:])


def _times(size, factor):
    return None if size is None else size * factor


@keras_export("kerasmini.layers.UpSampling1D")
class UpSampling1D(Layer):
    """Repeat each step ``size`` times: ``(b, steps, c)`` -> ``(b, steps * size, c)``.

    >>> import numpy as np
    >>> UpSampling1D(3)(np.ones((2, 4, 5))).shape
    (2, 12, 5)
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Expected an integer value for `size`, got {type(size)}.")
        if size < 1:
            raise ValueError(
                f"Argument `size` should be a positive integer. Received: size={size}"
            )
        self.size = size
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return repeat_along(inputs, 1, self.size)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], _times(input_shape[1], self.size), input_shape[2])

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config


@keras_export("kerasmini.layers.UpSampling2D")
class UpSampling2D(Layer):
    """Repeat rows ``size[0]`` times and columns ``size[1]`` times.

    Args:
        size: an int or a pair ``(rows, columns)``.
        data_format: only ``"channels_last"``.
        interpolation: only ``"nearest"`` in kerasmini.

    >>> import numpy as np
    >>> UpSampling2D((2, 3))(np.ones((1, 2, 2, 1))).shape
    (1, 4, 6, 1)
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest",
                 **kwargs):
        super().__init__(**kwargs)
        self.size = check_pair(size, "size")
        self.data_format = check_data_format(data_format)
        if interpolation != "nearest":
            raise ValueError(
                "kerasmini's UpSampling2D supports only interpolation='nearest'. "
                f"Received: interpolation={interpolation!r}"
            )
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        return repeat_along(repeat_along(inputs, 1, self.size[0]), 2, self.size[1])

    def compute_output_shape(self, input_shape):
        return (input_shape[0], _times(input_shape[1], self.size[0]),
                _times(input_shape[2], self.size[1]), input_shape[3])

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format,
                       "interpolation": self.interpolation})
        return config
