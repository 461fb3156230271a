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
from kerasmini.ops.numpy import _float_input, _in_floats

_M = __name__


def _spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


def _same(self, x, *args, **kwargs):
    return _spec(shapes.shape_of(x), shapes.float_result(shapes.numeric_dtype(x, self.op_name)))


Relu, relu = unary("Relu", backend.nn.relu, keep_dtype=True, module=_M)
Sigmoid, sigmoid = unary("Sigmoid", _in_floats(backend.nn.sigmoid), module=_M)
Softplus, softplus = unary("Softplus", _in_floats(backend.nn.softplus), module=_M)


def _silu(x):
    x = _float_input(x)
    return backend.numpy.multiply(x, backend.nn.sigmoid(x))  # x * sigmoid(x)


Silu, silu = unary("Silu", _silu, module=_M, summary="``x * sigmoid(x)``.")
Swish, swish = Silu, silu


def _gelu(x, approximate=True):
    validation.check_bool(approximate, "approximate", owner="ops.gelu")
    x = _float_input(x)
    add, multiply = backend.numpy.add, backend.numpy.multiply
    if not approximate:
        # 0.5 x (1 + erf(x / sqrt(2)))
        scaled = multiply(x, float(1.0 / np.sqrt(2.0)))
        return multiply(multiply(0.5, x), add(1.0, backend.math.erf(scaled)))
    # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    inner = multiply(float(np.sqrt(2.0 / np.pi)),
                     add(x, multiply(0.044715, backend.numpy.power(x, 3))))
    return multiply(multiply(0.5, x), add(1.0, backend.numpy.tanh(inner)))


def _gelu_spec(self, x, approximate=True):
    validation.check_bool(self.static.get("approximate", approximate), "approximate",
                          owner="ops.gelu")
    return _same(self, x)


Gelu, gelu = custom(
    "Gelu", _gelu, _gelu_spec, static_names=("approximate",), module=_M,
    summary="Gaussian error linear unit: ``x * P(X <= x)`` for a standard "
            "normal ``X``, exactly (with ``erf``) or, by default as in "
            "``keras.ops``, the tanh approximation.",
    example=">>> ops.gelu(np.array([1.0]), approximate=False).round(6)\n"
            "    array([0.841345])")


def _leaky_relu(x, negative_slope=0.2):
    shapes.check_number(negative_slope, "leaky_relu", "negative_slope")
    x = _float_input(x)
    negative_part = backend.numpy.multiply(x, negative_slope)
    return backend.numpy.where(backend.numpy.greater(x, 0.0), x, negative_part)


def _leaky_relu_spec(self, x, negative_slope=0.2):
    shapes.check_number(self.static.get("negative_slope", negative_slope),
                        "leaky_relu", "negative_slope")
    return _same(self, x)


LeakyRelu, leaky_relu = custom(
    "LeakyRelu", _leaky_relu, _leaky_relu_spec, static_names=("negative_slope",),
    module=_M, summary="``x`` where positive, ``negative_slope * x`` elsewhere.",
    example=">>> ops.leaky_relu(np.array([-1.0, 2.0]))\n    array([-0.2,  2. ])")


def _elu(x, alpha=1.0):
    shapes.check_number(alpha, "elu", "alpha")
    x = _float_input(x)
    # x if positive, else alpha * (exp(x) - 1)
    exp_minus_one = backend.numpy.subtract(
        backend.numpy.exp(backend.numpy.minimum(x, 0.0)), 1.0)
    negative_part = backend.numpy.multiply(alpha, exp_minus_one)
    return backend.numpy.where(backend.numpy.greater(x, 0.0), x, negative_part)


def _elu_spec(self, x, alpha=1.0):
    shapes.check_number(self.static.get("alpha", alpha), "elu", "alpha")
    return _same(self, x)


Elu, elu = custom("Elu", _elu, _elu_spec, static_names=("alpha",), module=_M,
                  summary="Exponential linear unit.",
                  example=">>> ops.elu(np.array([0.0, 1.0]))\n    array([0., 1.])")


def _softmax_axes(x, axis, op):
    axes = shapes.check_axes(axis, len(shapes.shape_of(x)), op)
    return axes[0] if len(axes) == 1 and not isinstance(axis, (tuple, list)) else axes


def _softmax(x, axis=-1):
    return backend.nn.softmax(_float_input(x), axis=_softmax_axes(x, axis, "softmax"))


def _log_softmax(x, axis=-1):
    return backend.nn.log_softmax(_float_input(x),
                                  axis=_softmax_axes(x, axis, "log_softmax"))


def _softmax_spec(self, x, axis=-1):
    _softmax_axes(x, self.static.get("axis", axis), self.op_name)
    return _same(self, x)


Softmax, softmax = custom("Softmax", _softmax, _softmax_spec, static_names=("axis",),
                          module=_M, summary="Exponentials normalised along ``axis``.",
                          example=">>> ops.softmax(KerasTensor((None, 3))).shape\n"
                                  "    (None, 3)")
LogSoftmax, log_softmax = custom(
    "LogSoftmax", _log_softmax, _softmax_spec, static_names=("axis",), module=_M,
    summary="The log of ``softmax``, computed stably.",
    example=">>> ops.log_softmax(KerasTensor((None, 3))).dtype\n    'float32'")


def _one_hot_arguments(x, num_classes, axis, dtype):
    """The position of the new axis and the dtype, checked."""
    rank = len(shapes.shape_of(x))
    shapes.numeric_dtype(x, "one_hot")
    shapes.check_int(num_classes, "one_hot", "num_classes", minimum=1)
    position = shapes.check_axis(axis, rank + 1, "one_hot")
    return position, shapes.check_dtype(dtype, "one_hot")


def _large_negative(dtype):
    """What a masked logit becomes (Keras's torch backend: 0.7 of the
    largest float, so adding to it cannot overflow)."""
    return -0.7 * (65500.0 if str(dtype) == "float16" else 3.38953e38)


_DPA = "dot_product_attention"


def _dtype_or_value(name, x):
    if getattr(x, "dtype", None) is not None:
        return f"{name}.dtype={shapes.dtype_of(x)}"
    return f"{name}={x!r}"


def _attention_arguments(query, key, value, bias, mask, scale, is_causal,
                         flash_attention, attn_logits_soft_cap):
    """Every check of ``dot_product_attention``, the same on values and on
    KerasTensors; answers the shape of the logits ``(B, N, T, S)``."""
    op = shapes.where(_DPA)
    named = {"query": query, "key": key, "value": value}
    for name, x in named.items():
        if shapes.kind_of(x) != "f":
            raise TypeError(f"{op}`{name}` must be a tensor of floats. Received: "
                            f"{_dtype_or_value(name, x)}")
    q, k, v = (tuple(shapes.shape_of(x)) for x in (query, key, value))
    received = f"Received: query.shape={q}, key.shape={k}, value.shape={v}"
    if any(len(s) != 4 for s in (q, k, v)):
        raise ValueError(f"{op}`dot_product_attention` only supports 4D inputs. "
                         f"{received}")

    def differ(a, b):
        return a is not None and b is not None and a != b

    if differ(q[0], k[0]) or differ(q[0], v[0]) or differ(k[0], v[0]):
        raise ValueError(f"{op}query, key and value must have the same batch size "
                         f"(axis 0). {received}")
    if differ(k[1], v[1]):
        raise ValueError(f"{op}key and value must have the same sequence length "
                         f"(axis 1). {received}")
    if differ(q[2], k[2]) or differ(q[2], v[2]) or differ(k[2], v[2]):
        raise ValueError(  # kerasmini has no grouped-query attention (yet)
            f"{op}query, key and value must have the same number of heads "
            f"(axis 2). {received}")
    if differ(q[3], k[3]):
        raise ValueError(f"{op}query and key must have the same depth (axis 3). "
                         f"{received}")
    logits = tuple(next((d for d in dims if d is not None), None)
                   for dims in ((q[0], k[0], v[0]), (q[2], k[2], v[2]),
                                (q[1],), (k[1], v[1])))
    if bias is not None and mask is not None:
        raise ValueError(
            f"{op}Only one of `bias` and `mask` can be provided. Received: "
            f"bias.shape={tuple(shapes.shape_of(bias))}, "
            f"mask.shape={tuple(shapes.shape_of(mask))}")
    for name, x in (("bias", bias), ("mask", mask)):
        if x is None:
            continue
        if shapes.kind_of(x) not in ("biuf" if name == "mask" else "iuf"):
            raise TypeError(
                f"{op}`{name}` must be a tensor of "
                f"{'booleans' if name == 'mask' else 'numbers'}. Received: "
                f"{_dtype_or_value(name, x)}")
        shape = tuple(shapes.shape_of(x))
        fits = len(shape) <= 4 and all(
            a is None or b is None or a == 1 or a == b
            for a, b in zip(shape[::-1], logits[::-1]))
        if not fits:
            raise ValueError(
                f"{op}`{name}` must broadcast to the shape of the attention "
                f"logits (batch, heads, query length, key length) = {logits}. "
                f"Received: {name}.shape={shape}")
    if scale is not None:
        if isinstance(scale, KerasTensor) and scale.shape == ():
            pass
        else:
            shapes.check_number(scale, _DPA, "scale")
    validation.check_bool(is_causal, "is_causal", owner=f"ops.{_DPA}")
    if flash_attention is not None:
        validation.check_bool(flash_attention, "flash_attention", owner=f"ops.{_DPA}")
    if attn_logits_soft_cap is not None:
        raise ValueError(
            f"{op}attn_logits_soft_cap is only supported for JAX on TPU. Set "
            "attn_logits_soft_cap=None when not using JAX on TPU. Received: "
            f"attn_logits_soft_cap={attn_logits_soft_cap!r}")
    return logits


def _dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                           is_causal=False, flash_attention=None,
                           attn_logits_soft_cap=None):
    _attention_arguments(query, key, value, bias, mask, scale, is_causal,
                         flash_attention, attn_logits_soft_cap)
    shapes_ = [tuple(shapes.shape_of(x)) for x in (query, key, value)]
    b = backend.numpy
    if scale is None:
        scale = 1.0 / float(np.sqrt(max(shapes_[0][-1], 1)))  # depth 0: logits 0
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


def _dot_product_attention_spec(self, query, key, value, bias=None, mask=None,
                                scale=None, **kwargs):
    static = {"is_causal": False, "flash_attention": None,
              "attn_logits_soft_cap": None, **self.static, **kwargs}
    _attention_arguments(query, key, value, bias, mask, scale, static["is_causal"],
                         static["flash_attention"], static["attn_logits_soft_cap"])
    q, v = shapes.shape_of(query), shapes.shape_of(value)
    dtypes = [query, key, value] + ([bias] if bias is not None else [])
    return _spec(tuple(q[:3]) + (v[3],), shapes.float_result(shapes.result_type(*dtypes)))


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
    position, dtype = _one_hot_arguments(x, num_classes, axis, dtype)
    out = backend.nn.one_hot(x, num_classes=int(num_classes), dtype=dtype)
    rank = len(shapes.shape_of(out))
    if position != rank - 1:
        order = list(range(rank - 1))
        order.insert(position, rank - 1)
        out = backend.numpy.transpose(out, order)
    return out


def _one_hot_spec(self, x, num_classes, axis=-1, dtype=None):
    position, dtype = _one_hot_arguments(x, num_classes, axis, dtype)
    shape = list(shapes.shape_of(x))
    shape.insert(position, int(num_classes))
    return _spec(shape, dtype)


OneHot, one_hot = custom(
    "OneHot", _one_hot, _one_hot_spec, module=_M,
    summary="Integer labels as vectors with a single 1.",
    example=">>> ops.one_hot(np.array([0, 2]), 3).tolist()\n"
            "    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]")


def _without(shape, axis):
    return tuple(d for i, d in enumerate(shape) if i != axis)


def _compatible(a, b):
    return len(a) == len(b) and all(x == y or x is None or y is None
                                    for x, y in zip(a, b))


_ELEMENTWISE = object()  # binary_crossentropy: no class axis


def _crossentropy_shapes(op, target, output, axis=_ELEMENTWISE):
    """The per-sample shape, after Keras's shape checks."""
    shapes.numeric_dtype(target, op, "target")
    shapes.numeric_dtype(output, op, "output")
    t_shape, o_shape = shapes.shape_of(target), shapes.shape_of(output)
    if not _compatible(t_shape, o_shape):
        raise ValueError(
            f"ops.{op}: Arguments `target` and `output` must have the same shape. "
            f"Received: target.shape={t_shape}, output.shape={o_shape}"
        )
    if axis is _ELEMENTWISE:
        return o_shape
    if len(o_shape) < 1:
        raise ValueError(
            f"ops.{op}: Arguments `target` and `output` must be at least rank 1. "
            f"Received: target.shape={t_shape}, output.shape={o_shape}"
        )
    return _without(o_shape, shapes.check_axis(axis, len(o_shape), op))


def _sparse_target(target, output, axis):
    """``target`` without a trailing axis of size 1 (as Keras squeezes it),
    and the per-sample shape, after Keras's shape checks."""
    op = "sparse_categorical_crossentropy"
    shapes.numeric_dtype(target, op, "target")
    shapes.numeric_dtype(output, op, "output")
    o_shape, t_shape = shapes.shape_of(output), shapes.shape_of(target)
    if len(o_shape) < 1:
        raise ValueError(f"ops.{op}: Argument `output` must be at least rank 1. "
                         f"Received: output.shape={o_shape}")
    per_sample = _without(o_shape, shapes.check_axis(axis, len(o_shape), op))
    squeeze = len(t_shape) == len(o_shape) and t_shape[-1] == 1
    if not _compatible(t_shape[:-1] if squeeze else t_shape, per_sample):
        raise ValueError(
            f"ops.{op}: Arguments `target` and `output` must have the same shape "
            f"up until the last dimension. Received: target.shape={t_shape}, "
            f"output.shape={o_shape}"
        )
    return squeeze, per_sample


def _float_dtype(output):
    return shapes.float_result(shapes.dtype_of(output))


def _in_dtype_of(target, output):
    """``target`` in the dtype of ``output`` (a float), whose dtype the loss
    keeps, as the shape rule says."""
    if shapes.dtype_of(target) == shapes.dtype_of(output):
        return target
    return backend.numpy.cast(target, shapes.dtype_of(output))


def _categorical_crossentropy(target, output, from_logits=False, axis=-1):
    _crossentropy_shapes("categorical_crossentropy", target, output, axis)
    output = _float_input(output)
    return backend.nn.categorical_crossentropy(_in_dtype_of(target, output), output,
                                               from_logits=from_logits, axis=axis)


def _sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    squeeze, _ = _sparse_target(target, output, axis)
    if squeeze:
        target = backend.numpy.squeeze(target, -1)
    # a check that is a primitive: a traced fit looks at every batch's labels
    classes = shapes.shape_of(output)[axis]
    target = checked_indices(target, size=classes, what=(
        "`sparse_categorical_crossentropy`: the labels `y_true` (`target` of "
        f"the op), class indices for the {classes} classes of the predictions,"))
    return backend.nn.sparse_categorical_crossentropy(
        target, _float_input(output), from_logits=from_logits, axis=axis)


def _binary_crossentropy(target, output, from_logits=False):
    # elementwise, as Keras 3's ops (the loss function averages the last axis)
    _crossentropy_shapes("binary_crossentropy", target, output)
    output = _float_input(output)
    return backend.nn.binary_crossentropy(_in_dtype_of(target, output), output,
                                          from_logits=from_logits)


CategoricalCrossentropy, categorical_crossentropy = custom(
    "CategoricalCrossentropy", _categorical_crossentropy,
    lambda self, target, output, from_logits=False, axis=-1: _spec(
        _crossentropy_shapes("categorical_crossentropy", target, output, axis),
        _float_dtype(output)),
    module=_M, summary="Cross-entropy of one-hot targets, one value per sample.",
    example=">>> ops.categorical_crossentropy(KerasTensor((None, 3)), "
            "KerasTensor((None, 3))).shape\n    (None,)")
SparseCategoricalCrossentropy, sparse_categorical_crossentropy = custom(
    "SparseCategoricalCrossentropy", _sparse_categorical_crossentropy,
    lambda self, target, output, from_logits=False, axis=-1: _spec(
        _sparse_target(target, output, axis)[1], _float_dtype(output)),
    module=_M, summary="Cross-entropy of integer targets, one value per sample.",
    example=">>> float(ops.sparse_categorical_crossentropy(np.array([0]), "
            "np.array([[1.0, 0.0]]))[0]) < 1e-6\n    True")
BinaryCrossentropy, binary_crossentropy = custom(
    "BinaryCrossentropy", _binary_crossentropy,
    lambda self, target, output, from_logits=False: _spec(
        _crossentropy_shapes("binary_crossentropy", target, output),
        _float_dtype(output)),
    module=_M, summary="Cross-entropy of 0/1 targets, element by element.",
    example=">>> ops.binary_crossentropy(np.array([1.0]), np.array([0.0]), "
            "from_logits=True).round(4)\n    array([0.6931])")


def moments(x, axes, keepdims=False):
    """Mean and variance of ``x`` over ``axes`` (as ``keras.ops.moments``).

    >>> mean, variance = moments(np.array([[1.0, 3.0]]), axes=[1])
    >>> mean.tolist(), variance.tolist()
    ([2.0], [1.0])
    """
    shapes.numeric_dtype(x, "moments")
    axes = shapes.check_axes(axes, len(shapes.shape_of(x)), "moments", "axes")
    if any_symbolic((x,)):
        shape = shapes.reduce_shape(shapes.shape_of(x), axes, keepdims)
        dtype = shapes.float_result(shapes.dtype_of(x))
        return _spec(shape, dtype), _spec(shape, dtype)
    x = _float_input(x)
    mean = backend.numpy.mean(x, axis=axes, keepdims=True)
    squares = backend.numpy.square(backend.numpy.subtract(x, mean))
    variance = backend.numpy.mean(squares, axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = backend.numpy.squeeze(mean, axis=axes)
    return mean, variance


# ------------------------------------- sequences, images, volumes
# One to three spatial axes (the rank of the inputs says which), channels
# last, or right after the batch axis with data_format="channels_first":
# such inputs are moved to channels last around the computation.
def data_format(value, op):
    """``"channels_last"`` or ``"channels_first"`` (``None``: the global
    image data format, channels_last unless set).

    >>> data_format(None, "conv")
    'channels_last'
    """
    if value is None:
        value = backend.config.image_data_format()
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            f"ops.{op}: The `data_format` argument must be one of "
            f"{{'channels_first', 'channels_last'}}. Received: data_format={value!r}"
        )
    return value


def _to_last(x, fmt):
    if fmt == "channels_last":
        return x
    rank = len(shapes.shape_of(x))
    return backend.numpy.transpose(x, (0, *range(2, rank), 1))


def _from_last(x, fmt):
    if fmt == "channels_last":
        return x
    rank = len(shapes.shape_of(x))
    return backend.numpy.transpose(x, (0, rank - 1, *range(1, rank - 1)))


def _last_shape(shape, fmt):
    """A shape as channels last."""
    shape = tuple(shape)
    return shape if fmt == "channels_last" else (shape[0],) + shape[2:] + shape[1:2]


def _nchw_shape(shape, fmt):
    """A channels-last shape in the format ``fmt``."""
    shape = tuple(shape)
    return shape if fmt == "channels_last" else (shape[0], shape[-1]) + shape[1:-1]


def _window_spec(shape, window, strides, padding, channels, dilation=None, op=None):
    rank = len(window)
    dilation = dilation or (1,) * rank
    spatial = tuple(shapes.conv_output_length(shape[1 + a], window[a], strides[a],
                                              dilation[a], padding)
                    for a in range(rank))
    if any(size is not None and size < 1 for size in spatial):
        raise ValueError(
            f"ops.{op}: Computed output size would be zero or negative. "
            f"Received: inputs.shape={tuple(shape)}, window={tuple(window)}, "
            f"strides={tuple(strides)}, dilation_rate={tuple(dilation)}, "
            f"padding={padding!r}"
        )
    return (shape[0],) + spatial + (channels,)


def _tuple(value, rank, name, op):
    try:
        return validation.check_tuple(value, rank, name)
    except ValueError as error:
        raise ValueError(f"ops.{op}: {error}") from None


def _padding(padding, op):
    try:
        return validation.check_padding(padding)
    except ValueError as error:
        raise ValueError(f"ops.{op}: {error}") from None


def _check_images(inputs, op, fmt):
    """The spatial rank of ``inputs`` (1, 2 or 3) and its shape as channels
    last, or a clear error."""
    shapes.numeric_dtype(inputs, op, "inputs")
    shape = shapes.shape_of(inputs)
    if len(shape) not in (3, 4, 5):
        raise ValueError(
            f"ops.{op}: kerasmini supports inputs of rank 3, 4 or 5: (batch, "
            "*spatial, channels) with 1 to 3 spatial axes, or (batch, channels, "
            f"*spatial) with data_format='channels_first'. Received: "
            f"inputs.shape={shape}"
        )
    return len(shape) - 2, _last_shape(shape, fmt)


def _check_kernel(shape, kernel, rank, op, channels_axis=-2):
    shapes.numeric_dtype(kernel, op, "kernel")
    k = shapes.shape_of(kernel)
    if len(k) != rank + 2:
        raise ValueError(
            f"ops.{op}: the kernel must have rank {rank + 2} for inputs of rank "
            f"{rank + 2}: (*kernel_size, in_channels, out_channels). Received: "
            f"inputs.shape={shape}, kernel.shape={k}"
        )
    if any(size == 0 for size in k[:rank]):
        raise ValueError(f"ops.{op}: the kernel's spatial sizes must be positive. "
                         f"Received: kernel.shape={k}")
    expected = k[channels_axis]
    if shape[-1] is not None and expected is not None and shape[-1] != expected:
        raise ValueError(
            f"ops.{op}: The number of input channels must match the kernel's input "
            f"channels. Received: input channels={shape[-1]}, kernel input "
            f"channels={expected}, kernel.shape={k}"
        )
    return k


def _conv_geometry(inputs, kernel, strides, padding, data_format_, dilation_rate,
                   op="conv", depthwise=False):
    """The format and the channels-last output shape of a convolution."""
    fmt = data_format(data_format_, op)
    rank, shape = _check_images(inputs, op, fmt)
    k = _check_kernel(shape, kernel, rank, op)
    strides = _tuple(strides, rank, "strides", op)
    dilation = _tuple(dilation_rate, rank, "dilation_rate", op)
    channels = k[-2] * k[-1] if depthwise and None not in k[-2:] else (
        None if depthwise else k[-1])
    out = _window_spec(shape, k[:rank], strides, _padding(padding, op), channels,
                       dilation, op)
    return fmt, out


def _conv_compute(inputs, kernel, strides, padding, fmt, dilation_rate):
    """The convolution of checked arguments, in either data format."""
    out = backend.nn.conv(_to_last(inputs, fmt), kernel, strides=strides,
                          padding=padding, dilation_rate=dilation_rate)
    return _from_last(out, fmt)


def _conv_spec(self, inputs, kernel, strides=1, padding="valid", data_format=None,
               dilation_rate=1):
    fmt, out = _conv_geometry(inputs, kernel, strides, padding, data_format,
                              dilation_rate)
    return _spec(_nchw_shape(out, fmt), shapes.result_type(inputs, kernel))


def _conv(inputs, kernel, strides=1, padding="valid", data_format=None,
          dilation_rate=1):
    fmt, _ = _conv_geometry(inputs, kernel, strides, padding, data_format,
                            dilation_rate)
    return _conv_compute(inputs, kernel, strides, padding, fmt, dilation_rate)


Conv, conv = custom(
    "Conv", _conv, _conv_spec, module=_M,
    summary="N-D convolution of ``(batch, *spatial, channels)`` inputs (or "
            "channels first), with a ``(*kernel_size, in, out)`` kernel.",
    example=">>> ops.conv(np.ones((1, 4, 4, 1)), np.ones((3, 3, 1, 2))).shape\n"
            "    (1, 2, 2, 2)")


def _depthwise_conv_spec(self, inputs, kernel, strides=1, padding="valid",
                         data_format=None, dilation_rate=1):
    fmt, out = _conv_geometry(inputs, kernel, strides, padding, data_format,
                              dilation_rate, "depthwise_conv", depthwise=True)
    return _spec(_nchw_shape(out, fmt), shapes.result_type(inputs, kernel))


def _depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                    dilation_rate=1):
    fmt, _ = _conv_geometry(inputs, kernel, strides, padding, data_format,
                            dilation_rate, "depthwise_conv", depthwise=True)
    out = backend.nn.depthwise_conv(_to_last(inputs, fmt), kernel, strides=strides,
                                    padding=padding, dilation_rate=dilation_rate)
    return _from_last(out, fmt)


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
                                padding=padding, data_format=data_format,
                                dilation_rate=dilation_rate)
    return _conv(depthwise, pointwise_kernel, strides=1, padding="valid",
                 data_format=data_format)


def _separable_conv_spec(self, inputs, depthwise_kernel, pointwise_kernel,
                         strides=1, padding="valid", data_format=None,
                         dilation_rate=1):
    depthwise = _depthwise_conv_spec(self, inputs, depthwise_kernel, strides,
                                     padding, data_format, dilation_rate)
    return _conv_spec(self, depthwise, pointwise_kernel, data_format=data_format)


SeparableConv, separable_conv = custom(
    "SeparableConv", _separable_conv, _separable_conv_spec, module=_M,
    summary="A depthwise convolution followed by a 1x1 (pointwise) one.",
    example=">>> ops.separable_conv(np.ones((1, 4, 4, 2)), np.ones((3, 3, 2, 1)), "
            "np.ones((1, 1, 2, 5))).shape\n    (1, 2, 2, 5)")


def _conv_transpose_shape(inputs, kernel, strides, padding, output_padding,
                          data_format_, dilation_rate):
    op = "conv_transpose"
    fmt = data_format(data_format_, op)
    rank, shape = _check_images(inputs, op, fmt)
    k = _check_kernel(shape, kernel, rank, op, channels_axis=-1)
    strides = _tuple(strides, rank, "strides", op)
    dilation = _tuple(dilation_rate, rank, "dilation_rate", op)
    padding = _padding(padding, op)
    if output_padding is None or validation.is_int(output_padding):
        output_padding = (output_padding,) * rank
    if not isinstance(output_padding, (tuple, list)) or len(output_padding) != rank \
            or not all(p is None or (validation.is_int(p) and p >= 0)
                       for p in output_padding):
        raise ValueError(
            "ops.conv_transpose: `output_padding` must be None, a non-negative "
            f"integer or one per spatial axis. Received: output_padding="
            f"{output_padding!r}"
        )
    spatial = tuple(shapes.deconv_output_length(shape[1 + a], k[a], strides[a],
                                                dilation[a], padding,
                                                output_padding[a])
                    for a in range(rank))
    if any(size is not None and size < 1 for size in spatial):
        raise ValueError(
            "ops.conv_transpose: Computed output size would be zero or negative. "
            f"Received: inputs.shape={shapes.shape_of(inputs)}, kernel.shape={k}, "
            f"padding={padding!r}, output_padding={output_padding!r}"
        )
    return fmt, (shape[0],) + spatial + (k[-2],)  # the kernel is (*k, out, in)


def _conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                    data_format=None, dilation_rate=1):
    # the input-gradient of the convolution that maps the output to `inputs`
    fmt, out_shape = _conv_transpose_shape(inputs, kernel, strides, padding,
                                           output_padding, data_format,
                                           dilation_rate)
    out = backend.nn.conv_backprop_input(_to_last(inputs, fmt), kernel, out_shape,
                                         strides=strides, padding=padding,
                                         dilation_rate=dilation_rate)
    return _from_last(out, fmt)


def _conv_transpose_spec(self, inputs, kernel, strides=1, padding="valid",
                         output_padding=None, data_format=None, dilation_rate=1):
    fmt, out = _conv_transpose_shape(inputs, kernel, strides, padding, output_padding,
                                     data_format, dilation_rate)
    return _spec(_nchw_shape(out, fmt), shapes.result_type(inputs, kernel))


ConvTranspose, conv_transpose = custom(
    "ConvTranspose", _conv_transpose, _conv_transpose_spec, module=_M,
    summary="Transposed N-D convolution; the kernel is ``(*kernel_size, out, in)``.",
    example=">>> ops.conv_transpose(np.ones((1, 2, 2, 1)), np.ones((3, 3, 4, 1)),"
            " strides=2).shape\n    (1, 5, 5, 4)")


def _pool_geometry(inputs, pool_size, strides, padding, data_format_, op):
    fmt = data_format(data_format_, op)
    rank, shape = _check_images(inputs, op, fmt)
    window = _tuple(pool_size, rank, "pool_size", op)
    strides = window if strides is None else _tuple(strides, rank, "strides", op)
    out = _window_spec(shape, window, strides, _padding(padding, op), shape[-1],
                       None, op)
    return fmt, out


def _pool_spec(self, inputs, pool_size, strides=None, padding="valid",
               data_format=None):
    fmt, out = _pool_geometry(inputs, pool_size, strides, padding, data_format,
                              self.op_name)
    return _spec(_nchw_shape(out, fmt), shapes.dtype_of(inputs))


def _max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    fmt, _ = _pool_geometry(inputs, pool_size, strides, padding, data_format,
                            "max_pool")
    boolean = shapes.dtype_of(inputs) == "bool"  # the maximum of booleans: any
    if boolean:
        inputs = backend.numpy.cast(inputs, "uint8")
    out = backend.nn.max_pool(_to_last(inputs, fmt), pool_size=pool_size,
                              strides=strides, padding=padding)
    out = backend.numpy.cast(out, "bool") if boolean else out
    return _from_last(out, fmt)


def _average_pool(inputs, pool_size, strides=None, padding="valid",
                  data_format=None):
    fmt, _ = _pool_geometry(inputs, pool_size, strides, padding, data_format,
                            "average_pool")
    out = backend.nn.avg_pool(_to_last(inputs, fmt), pool_size=pool_size,
                              strides=strides, padding=padding)
    return _from_last(out, fmt)


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
    "np", "backend", "validation", "checked_indices", "KerasTensor", "any_symbolic",
    "shapes", "custom", "unary", "data_format")]
