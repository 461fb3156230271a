"""What the convolution layers of every rank share beyond ``BaseConv``: the
check of a strictly positive count (``filters``, ``depth_multiplier``) and
the output shape of a convolution, with Keras 3's errors.

>>> conv_output_shape((None, 8, 8, 3), 4, (3, 3), (2, 2), (1, 1), "same", "Conv2D")
(None, 4, 4, 4)
"""

import numpy as np

from kerasmini.ops.shapes import conv_output_length


def check_positive_count(value, name):
    """``filters`` or ``depth_multiplier``: an int > 0 (Keras's message).

    >>> check_positive_count(0, "depth_multiplier")
    Traceback (most recent call last):
      ...
    ValueError: Invalid value for argument `depth_multiplier`. Expected a strictly ...
    """
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or \
            value <= 0:
        raise ValueError(
            f"Invalid value for argument `{name}`. Expected a strictly positive "
            f"value. Received {name}={value!r}."
        )
    return int(value)


def conv_output_shape(input_shape, channels, kernel_size, strides, dilation_rate,
                      padding, layer):
    """``(batch, *out, channels)`` of a convolution (or pooling) of
    ``input_shape``; refuses an input smaller than the window (Keras 3's
    "Computed output size would be negative").

    >>> conv_output_shape((None, 5, 2), 3, (3,), (1,), (1,), "valid", "conv1d")
    (None, 3, 3)
    """
    rank = len(kernel_size)
    if len(input_shape) != rank + 2:
        raise ValueError(
            f"Layer '{layer}' expects inputs of rank {rank + 2} (batch, "
            f"{rank} spatial axes, channels). Received: input_shape={input_shape}"
        )
    mode = "same" if padding == "causal" else padding
    spatial = tuple(conv_output_length(input_shape[1 + a], kernel_size[a],
                                       strides[a], dilation_rate[a], mode)
                    for a in range(rank))
    if any(size is not None and size < 1 for size in spatial):
        raise ValueError(
            f"Computed output size would be negative. Received `inputs shape="
            f"{tuple(input_shape)}`, `kernel shape={tuple(kernel_size)}`, "
            f"`dilation_rate={tuple(dilation_rate)}`, `strides={tuple(strides)}`, "
            f"`padding={padding}` (layer '{layer}')."
        )
    return (input_shape[0],) + spatial + (channels,)
