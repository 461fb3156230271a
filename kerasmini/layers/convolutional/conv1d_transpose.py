"""``Conv1DTranspose``: the 1D convolution run backwards, to lengthen sequences.

The same construction as :class:`~kerasmini.layers.Conv2DTranspose` along one
axis: :func:`kerasmini.ops.conv_transpose` applies the transpose of the
``Conv1D`` that would map the output back to the input, computed by the
backend primitive ``conv_backprop_input``. The kernel has shape
``(kernel_size, filters, in_channels)``.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Conv1DTranspose(4, 3, strides=2, padding="same")
>>> layer(np.ones((1, 5, 2))).shape, [w.shape for w in layer.weights]
((1, 10, 4), [(3, 4, 2), (4,)])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding, check_tuple
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.base_conv import BaseConv
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.ops.shapes import conv_output_length, deconv_output_length


@keras_export(["kerasmini.layers.Conv1DTranspose",
               "kerasmini.layers.Convolution1DTranspose"])
class Conv1DTranspose(BaseConv):
    """A transposed 1D convolution (channels last).

    Args:
        filters: the number of output channels.
        kernel_size: an int or a 1-tuple.
        strides: an int or a 1-tuple (default 1): the upsampling factor.
        padding: ``"valid"`` or ``"same"`` (output ``steps * strides``).
        output_padding: ``None`` or an int smaller than the stride: extra
            steps at the end of the output.
        data_format: only ``"channels_last"`` (or ``None``).
        dilation_rate: an int or a 1-tuple (default 1).
        activation, use_bias, *_initializer, *_regularizer, *_constraint: as
            in :class:`~kerasmini.layers.Conv1D`.

    >>> import numpy as np
    >>> Conv1DTranspose(2, 2, strides=2)(np.zeros((1, 3, 1))).shape
    (1, 6, 2)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 output_padding=None, data_format=None, dilation_rate=1,
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
        self.kernel_size = check_tuple(kernel_size, 1, "kernel_size")
        self.strides = check_tuple(strides, 1, "strides")
        self.padding = check_padding(padding)
        self.output_padding = None
        if output_padding is not None:
            padding_ = (output_padding,) if isinstance(output_padding, int) \
                else output_padding
            if not isinstance(padding_, (tuple, list)) or len(padding_) != 1 or \
                    not isinstance(padding_[0], int) or padding_[0] < 0 or \
                    padding_[0] >= self.strides[0]:
                raise ValueError(
                    "`output_padding` must be a non-negative integer strictly less "
                    f"than `strides`. Received: output_padding={output_padding!r}, "
                    f"strides={self.strides}"
                )
            self.output_padding = tuple(padding_)
        self.data_format = check_data_format(data_format)
        self.dilation_rate = check_tuple(dilation_rate, 1, "dilation_rate")
        if self.strides[0] > 1 and self.dilation_rate[0] > 1:
            raise ValueError(
                "`strides > 1` not supported in conjunction with `dilation_rate > "
                f"1`. Received: strides={self.strides} and dilation_rate="
                f"{self.dilation_rate}"
            )
        self.input_spec = InputSpec(ndim=3)

    def kernel_shape(self, channels):
        return self.kernel_size + (self.filters, channels)  # (k, out, in)

    def geometry_config(self):
        return {
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "output_padding": self.output_padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
        }

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.compute_dtype)
        self.compute_output_shape(inputs.shape)  # refuses sizes it cannot map back
        x = ops.conv_transpose(inputs, self.kernel, strides=self.strides,
                               padding=self.padding, output_padding=self.output_padding,
                               dilation_rate=self.dilation_rate)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        output_padding = (self.output_padding or (None,))[0]
        size = input_shape[1]
        steps = deconv_output_length(size, self.kernel_size[0], self.strides[0],
                                     self.dilation_rate[0], self.padding,
                                     output_padding)
        if steps is not None and (steps < 1 or conv_output_length(
                steps, self.kernel_size[0], self.strides[0], self.dilation_rate[0],
                self.padding) != size):
            # the forward Conv1D would not map this length back to the input
            raise ValueError(
                f"Layer '{self.name}': the output length {steps} is not one that a "
                f"Conv1D with kernel_size={self.kernel_size}, strides="
                f"{self.strides}, padding={self.padding!r} maps back to {size}; "
                "kerasmini cannot compute this transposed convolution. Received: "
                f"input_shape={input_shape}, output_padding={self.output_padding}"
            )
        return (input_shape[0], steps, self.filters)
