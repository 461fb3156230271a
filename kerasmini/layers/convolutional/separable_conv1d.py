"""``SeparableConv1D``: :class:`BaseSeparableConv` of rank 1.

>>> SeparableConv1D(3, 2).kernel_size
(2,)
"""

from kerasmini.api_export import keras_export
from kerasmini.layers.convolutional.base_separable_conv import BaseSeparableConv


@keras_export(["kerasmini.layers.SeparableConv1D",
               "kerasmini.layers.SeparableConvolution1D"])
class SeparableConv1D(BaseSeparableConv):
    """A depthwise separable 1D convolution of ``(batch, steps, channels)`` inputs.

    Args:
        filters: the number of output channels (of the pointwise step).
        kernel_size, strides, padding, data_format, dilation_rate: as in
            :class:`~kerasmini.layers.Conv1D` (of the depthwise step).
        depth_multiplier: how many kernels each input channel gets.
        activation, use_bias, depthwise_*/pointwise_*/bias_* initializers,
            regularizers and constraints: as in
            :class:`~kerasmini.layers.Conv1D`.

    >>> import numpy as np
    >>> SeparableConv1D(4, 3, depth_multiplier=2)(np.zeros((1, 7, 3))).shape
    (1, 5, 4)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(
            rank=1, depth_multiplier=depth_multiplier, filters=filters,
            kernel_size=kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint,
            bias_constraint=bias_constraint, **kwargs)
