"""``DepthwiseConv1D``: :class:`BaseDepthwiseConv` of rank 1.

>>> import numpy as np
>>> DepthwiseConv1D(2).kernel_size
(2,)
"""

from kerasmini.api_export import keras_export
from kerasmini.layers.convolutional.base_depthwise_conv import BaseDepthwiseConv


@keras_export("kerasmini.layers.DepthwiseConv1D")
class DepthwiseConv1D(BaseDepthwiseConv):
    """A depthwise 1D convolution of ``(batch, steps, channels)`` inputs.

    Args:
        kernel_size, strides, padding, data_format, dilation_rate: as in
            :class:`~kerasmini.layers.Conv1D`.
        depth_multiplier: how many kernels each input channel gets.
        activation, use_bias, depthwise_*/bias_* initializers, regularizers
            and constraints: as in :class:`~kerasmini.layers.Conv1D`.

    >>> import numpy as np
    >>> DepthwiseConv1D(3, depth_multiplier=2)(np.zeros((1, 7, 3))).shape
    (1, 5, 6)
    """

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(
            rank=1, depth_multiplier=depth_multiplier, kernel_size=kernel_size,
            strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            bias_constraint=bias_constraint, **kwargs)
