"""``Conv2D``: slide ``filters`` small kernels over an image.

Inputs are ``channels_last``: ``(batch, height, width, channels)``. The kernel
has shape ``(kh, kw, in_channels, filters)`` and the work is one op,
:func:`kerasmini.ops.conv`, as in Keras 3 (in the backend: windows as a
strided view and one ``tensordot``, no Python loop over pixels).

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Conv2D(4, 3, padding="same")
>>> layer(np.ones((2, 8, 8, 1))).shape, [w.shape for w in layer.weights]
((2, 8, 8, 4), [(3, 3, 1, 4), (4,)])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.validation import check_padding, check_pair
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.base_conv import BaseConv
from kerasmini.layers.convolutional.conv1d import check_data_format
from kerasmini.ops.shapes import conv_output_length


@keras_export("kerasmini.layers.Conv2D")
class Conv2D(BaseConv):
    """A 2D convolution layer (channels last).

    Args:
        filters: the number of output channels.
        kernel_size: an int or a pair ``(kh, kw)``.
        strides: an int or a pair (default 1).
        padding: ``"valid"`` (no padding) or ``"same"`` (output size
            ``ceil(input / stride)``).
        data_format: only ``"channels_last"`` (``None``: the global
            ``kerasmini.config.image_data_format()``, channels last unless set).
        dilation_rate: an int or a pair (default 1).
        activation, use_bias, *_initializer, *_regularizer, *_constraint: as
            in :class:`~kerasmini.layers.Dense`.

    >>> import numpy as np
    >>> Conv2D(8, 3, strides=2)(np.zeros((1, 9, 9, 3))).shape
    (1, 4, 4, 8)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1), groups=1, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform",
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
        data_format = check_data_format(data_format)  # None: image_data_format()
        if groups != 1:
            raise ValueError(f"kerasmini supports only groups=1. Received: groups={groups}")
        self.kernel_size = check_pair(kernel_size, "kernel_size")
        self.strides = check_pair(strides, "strides")
        self.padding = check_padding(padding)
        self.data_format = data_format
        self.dilation_rate = check_pair(dilation_rate, "dilation_rate")
        self.groups = groups
        self.input_spec = InputSpec(min_ndim=4)

    def convolution_op(self, inputs, kernel):
        """The convolution itself, ``call``'s first step: a subclass may
        override it (weight standardization, a masked kernel...) and ``call``
        runs the override, as Keras 3's ``BaseConv.call`` does.

        >>> import numpy as np
        >>> class Doubled(Conv2D):
        ...     def convolution_op(self, inputs, kernel):
        ...         return super().convolution_op(inputs, kernel * 2)
        >>> layer = Doubled(1, 1, kernel_initializer="ones")
        >>> layer(np.ones((1, 2, 2, 1))).ravel().tolist()
        [2.0, 2.0, 2.0, 2.0]
        """
        return ops.conv(inputs, kernel, strides=self.strides, padding=self.padding,
                        dilation_rate=self.dilation_rate)

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.dtype)
        x = self.convolution_op(inputs, self.kernel)  # (batch, out_h, out_w, filters)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        out_h, out_w = (conv_output_length(input_shape[1 + a], self.kernel_size[a],
                                           self.strides[a], self.dilation_rate[a],
                                           self.padding) for a in (0, 1))
        if (out_h is not None and out_h < 1) or (out_w is not None and out_w < 1):
            raise ValueError(
                f"Computed output size would be negative or zero: ({out_h}, {out_w}). "
                f"Received: input_shape={input_shape}, kernel_size={self.kernel_size}, "
                f"padding={self.padding!r}. Use padding='same' or a larger input."
            )
        return (input_shape[0], out_h, out_w, self.filters)
