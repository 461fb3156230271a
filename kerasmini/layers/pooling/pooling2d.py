"""2D pooling: ``MaxPooling2D``, ``AveragePooling2D``, ``GlobalAveragePooling2D``.

Max and average pooling share everything but the backend op, so they share a
base class (as Keras 3's ``BasePooling``); the global pooling is one mean
over the two spatial axes.

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 4, 4, 1)
>>> MaxPooling2D()(x)[0, :, :, 0].tolist()
[[5.0, 7.0], [13.0, 15.0]]
>>> AveragePooling2D()(x)[0, :, :, 0].tolist()
[[2.5, 4.5], [10.5, 12.5]]
>>> GlobalAveragePooling2D()(x).tolist()
[[7.5]]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.backend.validation import check_padding, check_pair
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.ops.shapes import conv_output_length


class BasePooling2D(Layer):
    """Pooling over ``pool_size`` windows moved by ``strides`` (default: the
    pool size), with ``"valid"`` or ``"same"`` padding, channels last.

    >>> MaxPooling2D(pool_size=3).strides  # strides default to the pool size
    (3, 3)
    """

    pool_function = None  # the op

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid",
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = check_pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else check_pair(strides, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)  # None: the global one
        self.input_spec = InputSpec(ndim=4)
        self._build_at_init()

    def call(self, inputs):
        return type(self).pool_function(inputs, self.pool_size, self.strides,
                                        self.padding)

    def compute_output_shape(self, input_shape):
        out_h, out_w = (conv_output_length(input_shape[1 + a], self.pool_size[a],
                                           self.strides[a], 1, self.padding)
                        for a in (0, 1))
        return (input_shape[0], out_h, out_w, input_shape[3])

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "strides": self.strides,
                       "padding": self.padding, "data_format": self.data_format})
        return config


@keras_export(["kerasmini.layers.MaxPooling2D", "kerasmini.layers.MaxPool2D"])
class MaxPooling2D(BasePooling2D):
    """The maximum of each window (:func:`kerasmini.ops.max_pool`).

    >>> import numpy as np
    >>> MaxPooling2D(padding="same")(np.ones((1, 5, 5, 2))).shape
    (1, 3, 3, 2)
    """

    pool_function = staticmethod(ops.max_pool)


@keras_export(["kerasmini.layers.AveragePooling2D", "kerasmini.layers.AvgPool2D"])
class AveragePooling2D(BasePooling2D):
    """The mean of each window (:func:`kerasmini.ops.average_pool`).

    >>> import numpy as np
    >>> AveragePooling2D(pool_size=2)(np.ones((1, 4, 6, 3))).shape
    (1, 2, 3, 3)
    """

    pool_function = staticmethod(ops.average_pool)


@keras_export(["kerasmini.layers.GlobalAveragePooling2D",
               "kerasmini.layers.GlobalAvgPool2D"])
class GlobalAveragePooling2D(Layer):
    """The mean over height and width: ``(b, h, w, c)`` -> ``(b, c)``.

    Args:
        data_format: only ``"channels_last"``.
        keepdims: keep the spatial axes with length 1: ``(b, 1, 1, c)``.

    >>> import numpy as np
    >>> GlobalAveragePooling2D()(np.ones((2, 4, 4, 3))).shape
    (2, 3)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = check_data_format(data_format)  # None: the global one
        self.keepdims = validation.check_bool(keepdims, "keepdims",
                                              owner="GlobalAveragePooling2D")
        self.input_spec = InputSpec(ndim=4)
        self._build_at_init()

    def call(self, inputs):
        return ops.mean(inputs, axis=(1, 2), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0], 1, 1, input_shape[3])
        return (input_shape[0], input_shape[3])

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config
