"""``BaseSeparableConv``: a depthwise convolution, then a 1x1 one.

A separable convolution factors a ``Conv2D``: first each input channel is
convolved with its own ``depth_multiplier`` kernels (the depthwise step,
``kernel_size + (C, depth_multiplier)`` weights), then a pointwise ``1x1``
convolution mixes the ``C * depth_multiplier`` channels into ``filters``
(``(1, 1, C * depth_multiplier, filters)`` weights). Xception and
MobileNet are built from it. The work is :func:`kerasmini.ops.separable_conv`,
as in Keras 3; ``SeparableConv1D`` and ``SeparableConv2D`` only say the rank.

>>> import numpy as np
>>> from kerasmini.layers import SeparableConv2D
>>> layer = SeparableConv2D(8, 3)
>>> layer(np.ones((1, 5, 5, 4))).shape, [w.shape for w in layer.weights]
((1, 3, 3, 8), [(3, 3, 4, 1), (1, 1, 4, 8), (8,)])
"""

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.backend.validation import check_padding, check_tuple
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.layers.convolutional.conv_utils import (
    check_positive_count,
    conv_output_shape,
)


class BaseSeparableConv(Layer):
    """The shared part of ``SeparableConv1D`` and ``SeparableConv2D`` (not
    exported): Keras 3's signature with ``rank`` first.

    >>> BaseSeparableConv(1, 1, 4, 3).kernel_size
    (3,)
    """

    def __init__(self, rank, depth_multiplier, filters, kernel_size, strides=1,
                 padding="valid", data_format=None, dilation_rate=1, activation=None,
                 use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.depth_multiplier = check_positive_count(depth_multiplier,
                                                     "depth_multiplier")
        self.filters = check_positive_count(filters, "filters")
        self.kernel_size = check_tuple(kernel_size, rank, "kernel_size")
        self.strides = check_tuple(strides, rank, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)
        self.dilation_rate = check_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError(
                f"Layer '{self.name}': the channel dimension of the inputs should "
                f"be defined. Received: input_shape={input_shape}"
            )
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: channels})
        self.compute_output_shape(input_shape)  # refuses inputs too small
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel",
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel",
            shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer,
            regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.compute_dtype)
        x = ops.separable_conv(inputs, self.depthwise_kernel, self.pointwise_kernel,
                               strides=self.strides, padding=self.padding,
                               dilation_rate=self.dilation_rate)  # (batch, *out, filters)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return conv_output_shape(input_shape, self.filters, self.kernel_size,
                                 self.strides, self.dilation_rate, self.padding,
                                 self.name)

    def get_config(self):
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
            "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
            "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
            "pointwise_constraint": constraints.serialize(self.pointwise_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
        })
        return config
