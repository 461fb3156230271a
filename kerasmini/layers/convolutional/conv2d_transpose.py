"""``Conv2DTranspose``: the convolution run backwards, to make images larger.

A ``Conv2D`` with kernel ``k`` and stride ``s`` maps a big image to a small
one by a linear map ``A_k``; ``Conv2DTranspose`` applies its transpose
``A_k^T``, mapping the small image back to the big one's shape. That is
exactly the gradient of ``conv2d`` for its input: the op
:func:`kerasmini.ops.conv_transpose` computes it with the backend primitive
``conv2d_backprop_input``, so this layer needs no new maths (and its own
gradients are ``conv2d`` and ``conv2d_backprop_filter``).
The kernel has shape ``(kh, kw, filters, in_channels)``: the ``Conv2D`` it
transposes would map ``filters`` channels to ``in_channels``.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Conv2DTranspose(4, 3, strides=2, padding="same")
>>> layer(np.ones((1, 5, 5, 2))).shape, [w.shape for w in layer.weights]
((1, 10, 10, 4), [(3, 3, 4, 2), (4,)])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding, check_pair
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.base_conv import BaseConv
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.ops.shapes import conv_output_length, deconv_output_length


@keras_export(["kerasmini.layers.Conv2DTranspose",
               "kerasmini.layers.Convolution2DTranspose"])
class Conv2DTranspose(BaseConv):
    """A transposed 2D convolution (channels last), often called deconvolution.

    Args:
        filters: the number of output channels.
        kernel_size: an int or a pair ``(kh, kw)``.
        strides: an int or a pair (default 1): the upsampling factor.
        padding: ``"valid"`` or ``"same"`` (output ``input * strides``).
        output_padding: ``None``, an int or a pair, each smaller than the
            stride: extra rows/columns at the end of the output.
        data_format: only ``"channels_last"`` (or ``None``).
        dilation_rate: an int or a pair (default 1).
        activation, use_bias, *_initializer, *_regularizer, *_constraint: as
            in :class:`~kerasmini.layers.Conv2D`.

    >>> import numpy as np
    >>> Conv2DTranspose(2, 2, strides=2)(np.zeros((1, 3, 3, 1))).shape
    (1, 6, 6, 2)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1),
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
        self.kernel_size = check_pair(kernel_size, "kernel_size")
        self.strides = check_pair(strides, "strides")
        self.padding = check_padding(padding)
        self.output_padding = None
        if output_padding is not None:
            pair = (output_padding, output_padding) if isinstance(output_padding, int) \
                else tuple(output_padding)
            if len(pair) != 2 or any(not isinstance(p, int) or p < 0 or p >= s
                                     for p, s in zip(pair, self.strides)):
                raise ValueError(
                    "`output_padding` must be a pair of non-negative integers, each "
                    f"smaller than the stride {self.strides}. Received: "
                    f"output_padding={output_padding!r}"
                )
            self.output_padding = pair
        self.data_format = check_data_format(data_format)
        self.dilation_rate = check_pair(dilation_rate, "dilation_rate")
        self.input_spec = InputSpec(ndim=4)

    def kernel_shape(self, channels):
        return self.kernel_size + (self.filters, channels)  # (kh, kw, out, in)

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
            inputs = ops.cast(inputs, self.dtype)
        self.compute_output_shape(inputs.shape)  # refuses sizes it cannot map back
        x = ops.conv_transpose(inputs, self.kernel, strides=self.strides,
                               padding=self.padding, output_padding=self.output_padding,
                               dilation_rate=self.dilation_rate)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        output_padding = self.output_padding or (None, None)
        out_h, out_w = (deconv_output_length(input_shape[1 + a], self.kernel_size[a],
                                             self.strides[a], self.dilation_rate[a],
                                             self.padding, output_padding[a])
                        for a in (0, 1))
        for a, out in enumerate((out_h, out_w)):
            if out is not None and (out < 1 or conv_output_length(
                    out, self.kernel_size[a], self.strides[a], self.dilation_rate[a],
                    self.padding) != input_shape[1 + a]):
                # the forward Conv2D would not map this size back to the input
                raise ValueError(
                    f"Layer '{self.name}': the output size {out} along spatial "
                    f"axis {a} is not one that a Conv2D with kernel_size="
                    f"{self.kernel_size}, strides={self.strides}, padding="
                    f"{self.padding!r} maps back to {input_shape[1 + a]}; kerasmini "
                    "cannot compute this transposed convolution. Received: "
                    f"input_shape={input_shape}, output_padding={self.output_padding}"
                )
        return (input_shape[0], out_h, out_w, self.filters)
