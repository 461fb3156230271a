"""``ZeroPadding1D`` and ``ZeroPadding2D``: zeros around a sequence or image.

Padding is the backend's ``pad`` op, whose gradient crops the padding off
again.

>>> import numpy as np
>>> ZeroPadding2D(1)(np.ones((1, 1, 1, 1)))[0, :, :, 0].tolist()
[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format


def int_tuple(value, n, name):
    """An int repeated ``n`` times, or a tuple of ``n`` non-negative ints.

    >>> int_tuple(1, 2, "padding"), int_tuple((0, 3), 2, "padding")
    ((1, 1), (0, 3))
    """
    values = (value,) * n if isinstance(value, int) else value
    if not isinstance(values, (list, tuple)) or len(values) != n or any(
            not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise ValueError(
            f"The `{name}` argument must be a tuple of {n} non-negative integers. "
            f"Received: {name}={value!r}"
        )
    return tuple(values)


def two_pairs(value, name):
    """``int`` | ``(h, w)`` | ``((top, bottom), (left, right))`` as two pairs.

    >>> two_pairs(1, "padding"), two_pairs((1, 2), "padding")
    (((1, 1), (1, 1)), ((1, 1), (2, 2)))
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"`{name}` cannot be negative. Received: {name}={value}.")
        return ((value, value), (value, value))
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ValueError(
                f"`{name}` should have two elements. Received: {name}={value}."
            )
        return (int_tuple(value[0], 2, f"1st entry of {name}"),
                int_tuple(value[1], 2, f"2nd entry of {name}"))
    raise ValueError(
        f"`{name}` should be either an int, a tuple of 2 ints (symmetric height, "
        "symmetric width), or a tuple of 2 tuples of 2 ints ((top, bottom), "
        f"(left, right)). Received: {name}={value}."
    )


def _grow(size, extra):
    return None if size is None else size + sum(extra)


@keras_export("kerasmini.layers.ZeroPadding1D")
class ZeroPadding1D(Layer):
    """Zeros at the start and end of the steps axis of ``(b, steps, c)``.

    Args:
        padding: an int (both ends) or a pair ``(left, right)``.

    >>> import numpy as np
    >>> ZeroPadding1D((1, 2))(np.ones((1, 2, 1)))[0, :, 0].tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = int_tuple(padding, 2, "padding")
        self.data_format = check_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return ops.pad(inputs, ((0, 0), self.padding, (0, 0)))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], _grow(input_shape[1], self.padding), input_shape[2])

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


@keras_export("kerasmini.layers.ZeroPadding2D")
class ZeroPadding2D(Layer):
    """Rows and columns of zeros around each image of ``(b, h, w, c)``.

    Args:
        padding: an int, a pair ``(h, w)`` (symmetric), or
            ``((top, bottom), (left, right))``.

    >>> import numpy as np
    >>> ZeroPadding2D(((1, 0), (2, 1)))(np.ones((1, 3, 3, 2))).shape
    (1, 4, 6, 2)
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = two_pairs(padding, "padding")
        self.data_format = check_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        return ops.pad(inputs, ((0, 0),) + self.padding + ((0, 0),))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], _grow(input_shape[1], self.padding[0]),
                _grow(input_shape[2], self.padding[1]), input_shape[3])

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config
