"""3D pooling: ``MaxPooling3D``, ``AveragePooling3D`` over volumes.

Inputs are ``(batch, depth, height, width, channels)``; the windows are
``pool_size`` boxes moved by ``strides`` (default: the pool size). The ops
are :func:`kerasmini.ops.max_pool` and :func:`kerasmini.ops.average_pool`,
whose backend primitives pool any rank.

>>> import numpy as np
>>> x = np.arange(8.0).reshape(1, 2, 2, 2, 1)
>>> MaxPooling3D()(x).ravel().tolist(), AveragePooling3D(2)(x).ravel().tolist()
([7.0], [3.5])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding, check_tuple
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.layers.convolutional.conv_utils import conv_output_shape


class BasePooling3D(Layer):
    """Pooling over ``pool_size`` boxes, channels last.

    >>> MaxPooling3D(pool_size=3).strides  # strides default to the pool size
    (3, 3, 3)
    """

    pool_function = None  # the op

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = check_tuple(pool_size, 3, "pool_size")
        self.strides = self.pool_size if strides is None else \
            check_tuple(strides, 3, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)
        self.input_spec = InputSpec(ndim=5)
        self._build_at_init()

    def call(self, inputs):
        return type(self).pool_function(inputs, self.pool_size, self.strides,
                                        self.padding)

    def compute_output_shape(self, input_shape):
        return conv_output_shape(input_shape, input_shape[-1], self.pool_size,
                                 self.strides, (1, 1, 1), self.padding, self.name)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config


@keras_export(["kerasmini.layers.MaxPooling3D", "kerasmini.layers.MaxPool3D"])
class MaxPooling3D(BasePooling3D):
    """The maximum of each box.

    >>> import numpy as np
    >>> MaxPooling3D(padding="same")(np.ones((1, 3, 5, 5, 2))).shape
    (1, 2, 3, 3, 2)
    """

    pool_function = staticmethod(ops.max_pool)


@keras_export(["kerasmini.layers.AveragePooling3D", "kerasmini.layers.AvgPool3D"])
class AveragePooling3D(BasePooling3D):
    """The mean of each box (with "same" padding, of its real elements).

    >>> import numpy as np
    >>> AveragePooling3D((1, 2, 2))(np.ones((1, 3, 4, 6, 3))).shape
    (1, 3, 2, 3, 3)
    """

    pool_function = staticmethod(ops.average_pool)

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None,
                 name=None, **kwargs):  # no default pool size, as in Keras 3
        super().__init__(pool_size, strides=strides, padding=padding,
                         data_format=data_format, name=name, **kwargs)
