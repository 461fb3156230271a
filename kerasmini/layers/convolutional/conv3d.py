"""``Conv3D``: slide ``filters`` kernels through a volume (video, scans).

Inputs are ``(batch, depth, height, width, channels)``; the kernel has shape
``(kd, kh, kw, in_channels, filters)``. The work is :func:`kerasmini.ops.conv`,
whose backend primitive handles every rank (one view of the windows, one
``tensordot``), so the gradients are those of ``conv``.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Conv3D(4, 3, padding="same")
>>> layer(np.ones((2, 5, 6, 6, 1))).shape, [w.shape for w in layer.weights]
((2, 5, 6, 6, 4), [(3, 3, 3, 1, 4), (4,)])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding, check_tuple
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.base_conv import BaseConv
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.layers.convolutional.conv_utils import conv_output_shape


@keras_export(["kerasmini.layers.Conv3D", "kerasmini.layers.Convolution3D"])
class Conv3D(BaseConv):
    """A 3D convolution layer (channels last).

    Args:
        filters: the number of output channels.
        kernel_size: an int or a triple ``(kd, kh, kw)``.
        strides: an int or a triple (default 1).
        padding: ``"valid"`` or ``"same"``.
        data_format: only ``"channels_last"`` (or ``None``).
        dilation_rate: an int or a triple (default 1).
        groups: only 1.
        activation, use_bias, *_initializer, *_regularizer, *_constraint: as
            in :class:`~kerasmini.layers.Dense`.

    >>> import numpy as np
    >>> Conv3D(2, (1, 3, 3), strides=(1, 2, 2))(np.zeros((1, 4, 9, 9, 3))).shape
    (1, 4, 4, 4, 2)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), groups=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        if groups != 1:
            raise ValueError(f"kerasmini supports only groups=1. Received: groups={groups}")
        self.kernel_size = check_tuple(kernel_size, 3, "kernel_size")
        self.strides = check_tuple(strides, 3, "strides")
        self.padding = check_padding(padding)
        self.data_format = check_data_format(data_format)
        self.dilation_rate = check_tuple(dilation_rate, 3, "dilation_rate")
        self.groups = groups
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.compute_dtype)
        x = ops.conv(inputs, self.kernel, strides=self.strides, padding=self.padding,
                     dilation_rate=self.dilation_rate)  # (batch, d, h, w, filters)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return conv_output_shape(input_shape, self.filters, self.kernel_size,
                                 self.strides, self.dilation_rate, self.padding,
                                 self.name)
