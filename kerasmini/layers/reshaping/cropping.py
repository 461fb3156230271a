"""``Cropping1D`` and ``Cropping2D``: cut rows/steps off the edges.

Cropping is a slice (the backend's ``getitem``), whose gradient scatters
back into zeros of the input's shape.

>>> import numpy as np
>>> Cropping1D(1)(np.arange(4.0).reshape(1, 4, 1))[0, :, 0].tolist()
[1.0, 2.0]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.layers.reshaping.zero_padding import int_tuple, two_pairs


def _kept(size, crop):
    return None if size is None else size - sum(crop)


@keras_export("kerasmini.layers.Cropping1D")
class Cropping1D(Layer):
    """Cut steps off the start and end of ``(b, steps, c)``.

    Args:
        cropping: an int (both ends) or a pair ``(start, end)``.

    >>> import numpy as np
    >>> Cropping1D((0, 2))(np.ones((2, 5, 3))).shape
    (2, 3, 3)
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = int_tuple(cropping, 2, "cropping")
        self.input_spec = InputSpec(ndim=3)

    def compute_output_shape(self, input_shape):
        length = _kept(input_shape[1], self.cropping)
        if length is not None and length <= 0:
            raise ValueError(
                "`cropping` parameter of `Cropping1D` layer must be smaller than the "
                f"input length. Received: input_shape={tuple(input_shape)}, "
                f"cropping={self.cropping}"
            )
        return (input_shape[0], length, input_shape[2])

    def call(self, inputs):
        length = self.compute_output_shape(inputs.shape)[1]
        start = self.cropping[0]
        return ops.get_item(inputs, (slice(None), slice(start, start + length)))

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        return config


@keras_export("kerasmini.layers.Cropping2D")
class Cropping2D(Layer):
    """Cut rows and columns off the edges of ``(b, h, w, c)``.

    Args:
        cropping: an int, a pair ``(h, w)`` (symmetric), or
            ``((top, bottom), (left, right))``.

    >>> import numpy as np
    >>> Cropping2D(((1, 0), (0, 2)))(np.ones((1, 4, 4, 2))).shape
    (1, 3, 2, 2)
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = two_pairs(cropping, "cropping")
        self.data_format = check_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def compute_output_shape(self, input_shape):
        height = _kept(input_shape[1], self.cropping[0])
        width = _kept(input_shape[2], self.cropping[1])
        if (height is not None and height <= 0) or (width is not None and width <= 0):
            raise ValueError(
                "Values in `cropping` argument should be smaller than the "
                "corresponding spatial dimension of the input. Received: "
                f"input_shape={tuple(input_shape)}, cropping={self.cropping}"
            )
        return (input_shape[0], height, width, input_shape[3])

    def call(self, inputs):
        _, height, width, _ = self.compute_output_shape(inputs.shape)
        (top, _), (left, _) = self.cropping
        return ops.get_item(inputs, (slice(None), slice(top, top + height),
                                    slice(left, left + width)))

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config
