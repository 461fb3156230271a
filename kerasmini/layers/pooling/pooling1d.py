"""1D pooling: ``MaxPooling1D`` and ``AveragePooling1D``.

A sequence ``(batch, steps, channels)`` is pooled as a height-1 image
``(batch, 1, steps, channels)`` by the 2D ops :func:`kerasmini.ops.max_pool`
and :func:`kerasmini.ops.average_pool`, so the gradients are theirs.

>>> import numpy as np
>>> x = np.arange(6.0).reshape(1, 6, 1)
>>> MaxPooling1D()(x)[0, :, 0].tolist(), AveragePooling1D(3)(x)[0, :, 0].tolist()
([1.0, 3.0, 5.0], [1.0, 4.0])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format, single
from kerasmini.ops.shapes import conv_output_length


class BasePooling1D(Layer):
    """Pooling over ``pool_size`` steps moved by ``strides`` (default: the
    pool size), ``"valid"`` or ``"same"`` padding, channels last.

    >>> MaxPooling1D(pool_size=3).strides
    (3,)
    """

    pool_function = None  # the 2D op

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = single(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else single(strides, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)
        self._build_at_init()

    def call(self, inputs):
        x = ops.expand_dims(inputs, axis=1)  # (batch, 1, steps, channels)
        x = type(self).pool_function(x, (1, self.pool_size[0]), (1, self.strides[0]),
                                     self.padding)
        return ops.squeeze(x, axis=1)

    def compute_output_shape(self, input_shape):
        steps = conv_output_length(input_shape[1], self.pool_size[0], self.strides[0],
                                   1, self.padding)
        return (input_shape[0], steps, input_shape[2])

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config


@keras_export(["kerasmini.layers.MaxPooling1D", "kerasmini.layers.MaxPool1D"])
class MaxPooling1D(BasePooling1D):
    """The maximum of each window of steps.

    >>> import numpy as np
    >>> MaxPooling1D(padding="same")(np.ones((1, 5, 2))).shape
    (1, 3, 2)
    """

    pool_function = staticmethod(ops.max_pool)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides=strides, padding=padding,
                         data_format=data_format, **kwargs)


@keras_export(["kerasmini.layers.AveragePooling1D", "kerasmini.layers.AvgPool1D"])
class AveragePooling1D(BasePooling1D):
    """The mean of each window of steps (``pool_size`` is required, as in Keras 3).

    >>> import numpy as np
    >>> AveragePooling1D(2)(np.ones((1, 6, 3))).shape
    (1, 3, 3)
    """

    pool_function = staticmethod(ops.average_pool)
