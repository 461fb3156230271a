"""Neural-network ops of ``keras.ops`` (Keras 3's ``keras/src/ops/nn.py``).

Activations, cross-entropies, ``one_hot``, ``moments`` and the convolution
and pooling of images, each computing through backend primitives on values
and answering with a shape on KerasTensors. The activations and losses of
kerasmini are built on these, as Keras 3's are:

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> ops.softmax(np.array([0.0, 0.0]))
array([0.5, 0.5])
>>> ops.conv(KerasTensor((None, 8, 8, 1)), KerasTensor((3, 3, 1, 4))).shape
(None, 6, 6, 4)
"""

import numpy as np

from kerasmini import backend
from kerasmini.backend import validation
from kerasmini.backend.checks import checked_indices
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.ops import shapes
from kerasmini.ops.families import custom, unary

_M = __name__


def _spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


def _same(self, x, *args, **kwargs):
    return _spec(shapes.shape_of(x), shapes.float_result(shapes.dtype_of(x)))


Relu, relu = unary("Relu", backend.nn.relu, module=_M)
Sigmoid, sigmoid = unary("Sigmoid", backend.nn.sigmoid, module=_M)
Softplus, softplus = unary("Softplus", backend.nn.softplus, module=_M)


def _silu(x):
    return backend.numpy.multiply(x, backend.nn.sigmoid(x))  # x * sigmoid(x)


Silu, silu = unary("Silu", _silu, module=_M, summary="``x * sigmoid(x)``.")
Swish, swish = Silu, silu


def _gelu(x, approximate=True):
    if not approximate:
        # the exact form needs erf; NumPy has none, so kerasmini keeps the
        # tanh form (Keras's default) and says so
        raise NotImplementedError(
            "kerasmini's gelu has only the tanh approximation (Keras's default). "
            "Received: approximate=False"
        )
    add, multiply = backend.numpy.add, backend.numpy.multiply
    # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    inner = multiply(float(np.sqrt(2.0 / np.pi)),
                     add(x, multiply(0.044715, backend.numpy.power(x, 3))))
    return multiply(multiply(0.5, x), add(1.0, backend.numpy.tanh(inner)))


Gelu, gelu = custom("Gelu", _gelu, _same, static_names=("approximate",), module=_M,
                    summary="Gaussian error linear unit (tanh approximation).",
                    example=">>> float(ops.gelu(np.array(0.0)))\n    0.0")


def _leaky_relu(x, negative_slope=0.2):
    negative_part = backend.numpy.multiply(x, negative_slope)
    return backend.numpy.where(backend.numpy.greater(x, 0.0), x, negative_part)


LeakyRelu, leaky_relu = custom(
    "LeakyRelu", _leaky_relu, _same, static_names=("negative_slope",), module=_M,
    summary="``x`` where positive, ``negative_slope * x`` elsewhere.",
    example=">>> ops.leaky_relu(np.array([-1.0, 2.0]))\n    array([-0.2,  2. ])")


def _elu(x, alpha=1.0):
    # x if positive, else alpha * (exp(x) - 1)
    exp_minus_one = backend.numpy.subtract(
        backend.numpy.exp(backend.numpy.minimum(x, 0.0)), 1.0)
    negative_part = backend.numpy.multiply(alpha, exp_minus_one)
    return backend.numpy.where(backend.numpy.greater(x, 0.0), x, negative_part)


Elu, elu = custom("Elu", _elu, _same, static_names=("alpha",), module=_M,
                  summary="Exponential linear unit.",
                  example=">>> ops.elu(np.array([0.0, 1.0]))\n    array([0., 1.])")


def _softmax(x, axis=-1):
    return backend.nn.softmax(x, axis=axis)


def _log_softmax(x, axis=-1):
    return backend.nn.log_softmax(x, axis=axis)


Softmax, softmax = custom("Softmax", _softmax, _same, static_names=("axis",),
                          module=_M, summary="Exponentials normalised along ``axis``.",
                          example=">>> ops.softmax(KerasTensor((None, 3))).shape\n"
                                  "    (None, 3)")
LogSoftmax, log_softmax = custom(
    "LogSoftmax", _log_softmax, _same, static_names=("axis",), module=_M,
    summary="The log of ``softmax``, computed stably.",
    example=">>> ops.log_softmax(KerasTensor((None, 3))).dtype\n    'float32'")


def _large_negative(dtype):
    """What a masked logit becomes (Keras's torch backend: 0.7 of the
    largest float, so adding to it cannot overflow)."""
    return -0.7 * (65500.0 if str(dtype) == "float16" else 3.38953e38)


def _dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                           is_causal=False, flash_attention=None,
                           attn_logits_soft_cap=None):
    shapes_ = [tuple(shapes.shape_of(x)) for x in (query, key, value)]
    if any(len(s) != 4 for s in shapes_):
        raise ValueError(
            "`dot_product_attention` only supports 4D inputs. Received: "
            f"query.shape={shapes_[0]}, key.shape={shapes_[1]}, "
            f"value.shape={shapes_[2]}."
        )
    if shapes_[1][2] != shapes_[0][2] or shapes_[2][2] != shapes_[0][2]:
        raise ValueError(  # kerasmini has no grouped-query attention (yet)
            "`dot_product_attention`: query, key and value must have the same "
            f"number of heads (axis 2). Received: query.shape={shapes_[0]}, "
            f"key.shape={shapes_[1]}, value.shape={shapes_[2]}."
        )
    if bias is not None and mask is not None:
        raise ValueError("Only one of `bias` and `mask` can be provided. Received both.")
    if attn_logits_soft_cap is not None:
        raise ValueError(
            "attn_logits_soft_cap is only supported for JAX on TPU. Set "
            "attn_logits_soft_cap=None when not using JAX on TPU."
        )
    b = backend.numpy
    if scale is None:
        scale = 1.0 / float(np.sqrt(shapes_[0][-1]))
    # (B, T, N, H) . (B, S, N, H) -> logits (B, N, T, S)
    logits = b.multiply(backend.numpy_extra.einsum("btnh,bsnh->bnts", query, key),
                        scale)
    if bias is not None:
        logits = b.add(logits, bias)
    if is_causal:  # query position i sees key positions j <= i
        t, s_ = shapes_[0][1], shapes_[1][1]
        causal = np.tril(np.ones((t, s_), dtype=bool))
        mask = causal if mask is None else b.logical_and(mask, causal)
    if mask is not None:
        # a masked logit is pushed far down: it gets no weight, and a row
        # with every key masked gets the same weight everywhere (a uniform
        # average of the values), as Keras's backends do
        logits = b.where(mask, logits, _large_negative(logits.dtype))
    probs = backend.nn.softmax(logits, axis=-1)
    return backend.numpy_extra.einsum("bnts,bsnh->btnh", probs, value)


def _dot_product_attention_spec(self, query, key, value, *args, **kwargs):
    return _spec(shapes.shape_of(query), shapes.float_result(shapes.dtype_of(query)))


DotProductAttention, dot_product_attention = custom(
    "DotProductAttention", _dot_product_attention, _dot_product_attention_spec,
    static_names=("is_causal", "flash_attention", "attn_logits_soft_cap"),
    module=_M,
    summary="``softmax(query . key * scale) . value`` per head, for "
            "``(B, T, N, H)`` queries and ``(B, S, N, H)`` keys and values; "
            "``mask`` is boolean (``True``: attend), broadcast to ``(B, N, T, S)``.",
    example=">>> ops.dot_product_attention(KerasTensor((None, 4, 2, 8)), "
            "KerasTensor((None, 6, 2, 8)),\n    ...     "
            "KerasTensor((None, 6, 2, 8))).shape\n    (None, 4, 2, 8)")


def _one_hot(x, num_classes, axis=-1, dtype=None):
    out = backend.nn.one_hot(x, num_classes=num_classes, dtype=dtype or "float32")
    if axis not in (-1, len(shapes.shape_of(x))):
        out = backend.numpy.transpose(out, _moved_axes(len(shapes.shape_of(out)),
                                                        axis))
    return out


def _moved_axes(ndim, axis):
    axes = list(range(ndim - 1))
    axes.insert(axis % ndim, ndim - 1)
    return axes


def _one_hot_spec(self, x, num_classes, axis=-1, dtype=None):
    shape = list(shapes.shape_of(x))
    shape.insert(axis % (len(shape) + 1) if axis != -1 else len(shape), num_classes)
    return _spec(shape, dtype or "float32")


OneHot, one_hot = custom(
    "OneHot", _one_hot, _one_hot_spec, module=_M,
    summary="Integer labels as vectors with a single 1.",
    example=">>> ops.one_hot(np.array([0, 2]), 3).tolist()\n"
            "    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]")


def _per_sample(self, target, output, *args, **kwargs):
    return _spec(shapes.shape_of(output)[:-1], shapes.float_result(
        shapes.dtype_of(output)))


def _categorical_crossentropy(target, output, from_logits=False, axis=-1):
    return backend.nn.categorical_crossentropy(target, output,
                                               from_logits=from_logits, axis=axis)


def _sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    # a check that is a primitive: a traced fit looks at every batch's labels
    classes = shapes.shape_of(output)[axis]
    target = checked_indices(target, size=classes, what=(
        "`sparse_categorical_crossentropy`: the labels `y_true` (`target` of "
        f"the op), class indices for the {classes} classes of the predictions,"))
    return backend.nn.sparse_categorical_crossentropy(
        target, output, from_logits=from_logits, axis=axis)


def _binary_crossentropy(target, output, from_logits=False):
    # elementwise, as Keras 3's ops (the loss function averages the last axis)
    return backend.nn.binary_crossentropy(target, output, from_logits=from_logits)


CategoricalCrossentropy, categorical_crossentropy = custom(
    "CategoricalCrossentropy", _categorical_crossentropy, _per_sample, module=_M,
    summary="Cross-entropy of one-hot targets, one value per sample.",
    example=">>> ops.categorical_crossentropy(KerasTensor((None, 3)), "
            "KerasTensor((None, 3))).shape\n    (None,)")
SparseCategoricalCrossentropy, sparse_categorical_crossentropy = custom(
    "SparseCategoricalCrossentropy", _sparse_categorical_crossentropy, _per_sample,
    module=_M, summary="Cross-entropy of integer targets, one value per sample.",
    example=">>> float(ops.sparse_categorical_crossentropy(np.array([0]), "
            "np.array([[1.0, 0.0]]))[0]) < 1e-6\n    True")
BinaryCrossentropy, binary_crossentropy = custom(
    "BinaryCrossentropy", _binary_crossentropy,
    lambda self, target, output, from_logits=False: _spec(
        shapes.shape_of(output), shapes.float_result(shapes.dtype_of(output))),
    module=_M, summary="Cross-entropy of 0/1 targets, element by element.",
    example=">>> ops.binary_crossentropy(np.array([1.0]), np.array([0.0]), "
            "from_logits=True).round(4)\n    array([0.6931])")


def moments(x, axes, keepdims=False):
    """Mean and variance of ``x`` over ``axes`` (as ``keras.ops.moments``).

    >>> mean, variance = moments(np.array([[1.0, 3.0]]), axes=[1])
    >>> mean.tolist(), variance.tolist()
    ([2.0], [1.0])
    """
    if any_symbolic((x,)):
        shape = shapes.reduce_shape(shapes.shape_of(x), tuple(axes), keepdims)
        dtype = shapes.float_result(shapes.dtype_of(x))
        return _spec(shape, dtype), _spec(shape, dtype)
    axes = tuple(axes)
    mean = backend.numpy.mean(x, axis=axes, keepdims=True)
    squares = backend.numpy.square(backend.numpy.subtract(x, mean))
    variance = backend.numpy.mean(squares, axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = backend.numpy.squeeze(mean, axis=axes)
    return mean, variance


# ------------------------------------- sequences, images, volumes (NHWC)
# Channels last, one to three spatial axes: the rank of the inputs says which.
def _window_spec(shape, window, strides, padding, channels, dilation=None):
    rank = len(window)
    dilation = dilation or (1,) * rank
    spatial = tuple(shapes.conv_output_length(shape[1 + a], window[a], strides[a],
                                              dilation[a], padding)
                    for a in range(rank))
    return (shape[0],) + spatial + (channels,)


def _tuple(value, rank, name="value"):
    return validation.check_tuple(value, rank, name)


def _check_images(inputs, op):
    """The spatial rank of ``inputs`` (1, 2 or 3), or a clear error."""
    shape = shapes.shape_of(inputs)
    if len(shape) not in (3, 4, 5):
        raise ValueError(
            f"kerasmini's ops.{op} supports inputs of rank 3, 4 or 5: (batch, "
            "*spatial, channels) with 1 to 3 spatial axes (channels last). "
            f"Received: inputs.shape={shape}"
        )
    return len(shape) - 2


def _check_kernel(inputs, kernel, op, channels_axis=-2):
    rank, k = _check_images(inputs, op), shapes.shape_of(kernel)
    shape = shapes.shape_of(inputs)
    if len(k) != rank + 2:
        raise ValueError(
            f"The kernel of ops.{op} must have rank {rank + 2} for inputs of rank "
            f"{rank + 2}: (*kernel_size, in_channels, out_channels). Received: "
            f"inputs.shape={shape}, kernel.shape={k}"
        )
    if shape[-1] is not None and shape[-1] != k[channels_axis]:
        raise ValueError(
            f"The number of input channels of ops.{op} must match the kernel's "
            f"in_channels axis. Received: inputs.shape={shape}, kernel.shape={k}"
        )
    return rank, k


def _conv_spec(self, inputs, kernel, strides=1, padding="valid", data_format=None,
               dilation_rate=1):
    rank, k = _check_kernel(inputs, kernel, "conv")
    out = _window_spec(shapes.shape_of(inputs), k[:rank],
                       _tuple(strides, rank, "strides"),
                       validation.check_padding(padding), k[-1],
                       _tuple(dilation_rate, rank, "dilation_rate"))
    return _spec(out, shapes.result_type(inputs, kernel))


def _conv(inputs, kernel, strides=1, padding="valid", data_format=None,
          dilation_rate=1):
    return backend.nn.conv(inputs, kernel, strides=strides, padding=padding,
                           dilation_rate=dilation_rate)


Conv, conv = custom(
    "Conv", _conv, _conv_spec, module=_M,
    summary="N-D convolution of ``(batch, *spatial, channels)`` inputs.",
    example=">>> ops.conv(np.ones((1, 4, 4, 1)), np.ones((3, 3, 1, 2))).shape\n"
            "    (1, 2, 2, 2)")


def _depthwise_conv_spec(self, inputs, kernel, strides=1, padding="valid",
                         data_format=None, dilation_rate=1):
    rank, k = _check_kernel(inputs, kernel, "depthwise_conv")
    out = _window_spec(shapes.shape_of(inputs), k[:rank],
                       _tuple(strides, rank, "strides"),
                       validation.check_padding(padding), k[-2] * k[-1],
                       _tuple(dilation_rate, rank, "dilation_rate"))
    return _spec(out, shapes.result_type(inputs, kernel))


def _depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                    dilation_rate=1):
    return backend.nn.depthwise_conv(inputs, kernel, strides=strides,
                                     padding=padding, dilation_rate=dilation_rate)


DepthwiseConv, depthwise_conv = custom(
    "DepthwiseConv", _depthwise_conv, _depthwise_conv_spec, module=_M,
    summary="Each channel convolved with its own kernels; the kernel is "
            "``(*kernel_size, in_channels, depth_multiplier)``.",
    example=">>> ops.depthwise_conv(np.ones((1, 4, 4, 2)), "
            "np.ones((3, 3, 2, 3))).shape\n    (1, 2, 2, 6)")


def _separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1,
                    padding="valid", data_format=None, dilation_rate=1):
    # a depthwise convolution, then a 1x1 convolution that mixes the channels
    depthwise = _depthwise_conv(inputs, depthwise_kernel, strides=strides,
                                padding=padding, dilation_rate=dilation_rate)
    return _conv(depthwise, pointwise_kernel, strides=1, padding="valid")


def _separable_conv_spec(self, inputs, depthwise_kernel, pointwise_kernel,
                         strides=1, padding="valid", data_format=None,
                         dilation_rate=1):
    depthwise = _depthwise_conv_spec(self, inputs, depthwise_kernel, strides,
                                     padding, dilation_rate=dilation_rate)
    return _conv_spec(self, depthwise, pointwise_kernel)


SeparableConv, separable_conv = custom(
    "SeparableConv", _separable_conv, _separable_conv_spec, module=_M,
    summary="A depthwise convolution followed by a 1x1 (pointwise) one.",
    example=">>> ops.separable_conv(np.ones((1, 4, 4, 2)), np.ones((3, 3, 2, 1)), "
            "np.ones((1, 1, 2, 5))).shape\n    (1, 2, 2, 5)")


def _conv_transpose_shape(inputs, kernel, strides, padding, output_padding,
                          dilation_rate):
    rank, k = _check_kernel(inputs, kernel, "conv_transpose", channels_axis=-1)
    shape = shapes.shape_of(inputs)
    strides = _tuple(strides, rank, "strides")
    dilation = _tuple(dilation_rate, rank, "dilation_rate")
    padding = validation.check_padding(padding)
    if output_padding is None or isinstance(output_padding, int):
        output_padding = (output_padding,) * rank
    spatial = tuple(shapes.deconv_output_length(shape[1 + a], k[a], strides[a],
                                                dilation[a], padding,
                                                output_padding[a])
                    for a in range(rank))
    return (shape[0],) + spatial + (k[-2],)  # the kernel is (*k, out, in)


def _conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                    data_format=None, dilation_rate=1):
    # the input-gradient of the convolution that maps the output to `inputs`
    out_shape = _conv_transpose_shape(inputs, kernel, strides, padding,
                                      output_padding, dilation_rate)
    return backend.nn.conv_backprop_input(inputs, kernel, out_shape,
                                          strides=strides, padding=padding,
                                          dilation_rate=dilation_rate)


def _conv_transpose_spec(self, inputs, kernel, strides=1, padding="valid",
                         output_padding=None, data_format=None, dilation_rate=1):
    out = _conv_transpose_shape(inputs, kernel, strides, padding, output_padding,
                                dilation_rate)
    return _spec(out, shapes.result_type(inputs, kernel))


ConvTranspose, conv_transpose = custom(
    "ConvTranspose", _conv_transpose, _conv_transpose_spec, module=_M,
    summary="Transposed N-D convolution; the kernel is ``(*kernel_size, out, in)``.",
    example=">>> ops.conv_transpose(np.ones((1, 2, 2, 1)), np.ones((3, 3, 4, 1)),"
            " strides=2).shape\n    (1, 5, 5, 4)")


def _pool_spec(self, inputs, pool_size, strides=None, padding="valid",
               data_format=None):
    shape = shapes.shape_of(inputs)
    rank = _check_images(inputs, "pool")
    strides = pool_size if strides is None else strides
    out = _window_spec(shape, _tuple(pool_size, rank, "pool_size"),
                       _tuple(strides, rank, "strides"),
                       validation.check_padding(padding), shape[-1])
    return _spec(out, shapes.dtype_of(inputs))


def _max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return backend.nn.max_pool(inputs, pool_size=pool_size, strides=strides,
                               padding=padding)


def _average_pool(inputs, pool_size, strides=None, padding="valid",
                  data_format=None):
    return backend.nn.avg_pool(inputs, pool_size=pool_size, strides=strides,
                               padding=padding)


MaxPool, max_pool = custom(
    "MaxPool", _max_pool, _pool_spec, module=_M,
    summary="The largest value of each window (1D, 2D or 3D).",
    example=">>> ops.max_pool(KerasTensor((None, 8, 8, 3)), 2).shape\n"
            "    (None, 4, 4, 3)")
AveragePool, average_pool = custom(
    "AveragePool", _average_pool, _pool_spec, module=_M,
    summary="The mean of each window (1D, 2D or 3D).",
    example=">>> ops.average_pool(np.ones((1, 4, 4, 1)), 2).shape\n"
            "    (1, 2, 2, 1)")

__all__ = [name for name in dir() if not name.startswith("_") and name not in (
    "np", "backend", "validation", "checked_indices", "KerasTensor", "any_symbolic", "shapes",
    "custom", "unary")]
