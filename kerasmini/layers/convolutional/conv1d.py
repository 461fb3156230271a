"""``Conv1D``: slide ``filters`` kernels along a sequence.

Inputs are ``(batch, steps, channels)``; the kernel has shape
``(kernel_size, in_channels, filters)``. The work is the 2D convolution
:func:`kerasmini.ops.conv` on a height-1 image: the sequence becomes
``(batch, 1, steps, channels)`` and the kernel ``(1, kernel_size, in, filters)``,
so the gradient comes from ``conv2d``'s rules with no new primitive.
``padding="causal"`` pads ``(kernel_size - 1) * dilation_rate`` zeros on the
left only, so output ``t`` sees inputs up to ``t`` and no further.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Conv1D(4, 3, padding="causal")
>>> layer(np.ones((2, 10, 1))).shape, [w.shape for w in layer.weights]
((2, 10, 4), [(3, 1, 4), (4,)])
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.config import standardize_data_format
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.base_conv import BaseConv
from kerasmini.ops.shapes import conv_output_length


def single(value, name):
    """``3`` -> ``(3,)``; ``(3,)`` stays; anything else is refused.

    >>> single(2, "strides"), single([4], "pool_size")
    ((2,), (4,))
    """
    one = value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        one = (value,)
    one = tuple(one) if isinstance(one, (tuple, list)) else ()
    if len(one) != 1 or not isinstance(one[0], (int, np.integer)) or \
            isinstance(one[0], bool) or one[0] < 1:
        raise ValueError(
            f"Expected `{name}` to be a positive integer or a tuple of 1 positive "
            f"integer. Received: {name}={value!r}"
        )
    return (int(one[0]),)


def check_data_format(data_format):
    """The layer's image layout: ``data_format``, or for ``None`` the global
    default, ``kerasmini.config.image_data_format()`` (as Keras 3's
    ``standardize_data_format``). kerasmini's convolution, pooling and
    reshaping layers compute channels last only.

    >>> check_data_format(None)
    'channels_last'
    """
    given = data_format
    data_format = standardize_data_format(data_format)
    if data_format != "channels_last":
        where = "" if given is not None else (
            " (the default, from `keras.config.image_data_format()`)")
        raise ValueError(
            "kerasmini supports only data_format='channels_last'. Received: "
            f"data_format={data_format!r}{where}"
        )
    return data_format


@keras_export("kerasmini.layers.Conv1D")
class Conv1D(BaseConv):
    """A 1D convolution layer (channels last).

    Args:
        filters: the number of output channels.
        kernel_size: an int or a 1-tuple.
        strides: an int or a 1-tuple (default 1).
        padding: ``"valid"``, ``"same"`` or ``"causal"`` (left padding only).
        data_format: only ``"channels_last"`` (or ``None``).
        dilation_rate: an int or a 1-tuple (default 1).
        activation, use_bias, *_initializer, *_regularizer, *_constraint: as
            in :class:`~kerasmini.layers.Dense`.

    >>> import numpy as np
    >>> Conv1D(8, 3, strides=2)(np.zeros((1, 9, 3))).shape
    (1, 4, 8)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, groups=1, activation=None,
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
        if groups != 1:
            raise ValueError(f"kerasmini supports only groups=1. Received: groups={groups}")
        mode = padding.lower() if isinstance(padding, str) else padding
        if mode not in ("valid", "same", "causal"):
            raise ValueError(
                "Invalid value for argument `padding`. Expected one of 'valid', "
                f"'same', 'causal'. Received: padding={padding!r}"
            )
        self.kernel_size = single(kernel_size, "kernel_size")
        self.strides = single(strides, "strides")
        self.padding = mode
        self.data_format = check_data_format(data_format)
        self.dilation_rate = single(dilation_rate, "dilation_rate")
        self.groups = groups
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.dtype)
        padding = self.padding
        if padding == "causal":  # zeros on the left: no step sees the future
            left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            inputs = ops.pad(inputs, ((0, 0), (left, 0), (0, 0)))
            padding = "valid"
        x = ops.conv(ops.expand_dims(inputs, axis=1),  # (batch, 1, steps, in)
                     ops.expand_dims(self.kernel, axis=0),  # (1, k, in, filters)
                     strides=(1, self.strides[0]), padding=padding,
                     dilation_rate=(1, self.dilation_rate[0]))
        x = ops.squeeze(x, axis=1)  # (batch, out_steps, filters)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        padding = "same" if self.padding == "causal" else self.padding
        steps = conv_output_length(input_shape[1], self.kernel_size[0],
                                   self.strides[0], self.dilation_rate[0], padding)
        if steps is not None and steps < 1:
            raise ValueError(
                f"Computed output size would be negative or zero: {steps}. "
                f"Received: input_shape={input_shape}, kernel_size={self.kernel_size}, "
                f"padding={self.padding!r}. Use padding='same' or a longer input."
            )
        return (input_shape[0], steps, self.filters)
