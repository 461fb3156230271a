"""Bad calls of every op of ``kerasmini.ops``, on arrays and on KerasTensors.

Each row of ``BOTH`` is written once with ``T(*shape, dtype=...)``, which
makes a NumPy array for the eager call and a ``KerasTensor`` of the same
(fully known) shape for the symbolic one. Both calls must raise the same
exception type with the same message, from a ``raise`` statement of
kerasmini (no NumPy or Python error reaches the user), naming the op
(``ops.<name>:``) and ending with what was received. The phrase of each row
is Keras 3.15.1's wording where Keras has one (its symbolic messages;
eagerly Keras's torch backend mostly passes torch's own errors through).

``ON_INPUT`` calls ops on ``keras.Input`` (an unknown batch size): these
were accepted with a wrong shape or a raw ``IndexError`` before. ``EAGER``
rows only exist on values: labels and indices out of range, bad arguments of
the ops that make tensors, tensors of strings.
"""

import numpy as np
import pytest
from test_errors import assert_raised_by_kerasmini

import kerasmini as keras
from kerasmini import KerasTensor, ops


def _eager_tensor(*shape, dtype="float32"):
    return np.ones(shape, dtype)


def _symbolic_tensor(*shape, dtype="float32"):
    return KerasTensor(shape, dtype)


UNARY = ["abs", "absolute", "negative", "exp", "expm1", "log", "log1p", "sqrt",
         "square", "tanh", "sin", "cos", "arcsin", "arccos", "arctan", "arcsinh",
         "arccosh", "arctanh", "sign", "floor", "ceil", "round", "isnan",
         "logical_not", "relu", "sigmoid", "softplus", "silu", "swish", "erf",
         "gelu", "leaky_relu", "elu", "ravel", "stop_gradient"]
BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "power", "maximum",
          "minimum", "equal", "not_equal", "greater", "greater_equal", "less",
          "less_equal", "logical_and", "logical_or"]
REDUCTIONS = ["sum", "mean", "max", "min", "amax", "amin", "var", "std"]
# an alias shares its op, whose name the message gives
ALIASES = {"true_divide": "divide", "absolute": "abs", "amax": "max", "amin": "min",
           "swish": "silu"}


def _op(name):
    return ALIASES.get(name, name)


def _reducing(name):
    return lambda x, axis: getattr(ops, name)(x, axis=axis)


AXIS_OPS = {  # an op of one tensor and an `axis`: how to call it
    **{name: _reducing(name) for name in REDUCTIONS + [
        "argmax", "argmin", "cumsum", "softmax", "log_softmax", "flip", "squeeze"]},
    "repeat": lambda x, axis: ops.repeat(x, 2, axis=axis),
    "expand_dims": lambda x, axis: ops.expand_dims(x, axis),
    "take": lambda x, axis: ops.take(x, np.array([0]), axis=axis),
    "roll": lambda x, axis: ops.roll(x, 1, axis=axis),
    "split": lambda x, axis: ops.split(x, 1, axis=axis),
    "unstack": lambda x, axis: ops.unstack(x, axis=axis),
    "concatenate": lambda x, axis: ops.concatenate([x, x], axis=axis),
    "stack": lambda x, axis: ops.stack([x, x], axis=axis),
    "one_hot": lambda x, axis: ops.one_hot(ops.cast(x, "int32"), 3, axis=axis),
    "moments": lambda x, axis: ops.moments(x, axes=axis),
}
# how many axes the result has, beyond which an axis is out of bounds
EXTRA_AXES = {"expand_dims": 1, "stack": 1, "one_hot": 1}

# (id, call of T, exception type, phrase of the message)
BOTH = [
    *[(f"{name}-broadcast", lambda T, name=name: getattr(ops, name)(T(2, 3), T(4)),
       ValueError, r"ops\.%s: Cannot broadcast shape, the failure dim has value 3, "
       r"which cannot be broadcasted to 4" % _op(name)) for name in BINARY],
    *[(f"{name}-axis-out-of-bounds", lambda T, call=call, name=name: call(
        T(2, 3), 2 + EXTRA_AXES.get(name, 0)), ValueError,
       r"ops\.%s: ax[ie]s %d is out of bounds for an array with dimension %d" % (
           _op(name), 2 + EXTRA_AXES.get(name, 0), 2 + EXTRA_AXES.get(name, 0)))
      for name, call in AXIS_OPS.items()],
    *[(f"{name}-negative-axis-out-of-bounds", lambda T, call=call, name=name: call(
        T(2, 3), -3 - EXTRA_AXES.get(name, 0)), ValueError,
       r"ops\.%s: ax[ie]s -%d is out of bounds" % (_op(name),
                                                 3 + EXTRA_AXES.get(name, 0)))
      for name, call in AXIS_OPS.items()],
    *[(f"{name}-axis-float", lambda T, call=call: call(T(2, 3), 1.5), TypeError,
       r"ops\.%s: argument `ax[ie]s` must be an integer. Received: ax[ie]s=1.5" % _op(name))
      for name, call in AXIS_OPS.items()],
    *[(f"{name}-axis-repeated", lambda T, name=name: getattr(ops, name)(
        T(2, 3), axis=(0, -2)), ValueError,
       r"ops\.%s: repeated axis in `axis`. Received: axis=\(0, -2\)" % _op(name))
      for name in REDUCTIONS + ["flip"]],
    ("argmax-axis-tuple", lambda T: ops.argmax(T(2, 3), axis=(0, 1)), TypeError,
     r"ops\.argmax: argument `axis` must be an integer. Received: axis=\(0, 1\)"),
    ("where-condition", lambda T: ops.where(T(4, dtype="bool"), T(2, 3), T(2, 3)),
     ValueError, r"ops\.where: Cannot broadcast shape.* 4, which cannot be "
     r"broadcasted to 3"),
    ("clip-bounds", lambda T: ops.clip(T(2, 3), T(5), 1.0), ValueError,
     r"ops\.clip: Cannot broadcast shape"),
    ("reshape-size", lambda T: ops.reshape(T(2, 3), (4, 2)), ValueError,
     r"ops\.reshape: The total size of the tensor must be unchanged. Received: "
     r"input_shape=\(2, 3\), newshape=\(4, 2\)"),
    ("reshape-not-divisible", lambda T: ops.reshape(T(2, 3), (4, -1)), ValueError,
     r"The total size of the tensor must be unchanged"),
    ("reshape-two-unknown", lambda T: ops.reshape(T(2, 3), (-1, -1)), ValueError,
     r"There must be at most one unknown dimension \(-1\) in `newshape`"),
    ("reshape-negative", lambda T: ops.reshape(T(2, 3), (-2, 3)), ValueError,
     r"Each dimension in `newshape` must be a non-negative integer, or `-1`"),
    ("reshape-float", lambda T: ops.reshape(T(2, 3), (2.5, 3)), TypeError,
     r"ops\.reshape: `newshape` must be a tuple of integers"),
    ("transpose-duplicate", lambda T: ops.transpose(T(2, 3), (0, 0)), ValueError,
     r"`axes` must be a valid permutation of the input dimensions \(no duplicates\)"),
    ("transpose-length", lambda T: ops.transpose(T(2, 3), (0, 1, 2)), ValueError,
     r"axis must be a list of the same length as the input shape, expected 2, but "
     r"received 3"),
    ("transpose-out-of-range", lambda T: ops.transpose(T(2, 3), (0, 2)), ValueError,
     r"Each axis in `axes` must be an integer in \[-2, 2\)"),
    ("swapaxes", lambda T: ops.swapaxes(T(2, 3), 0, 2), ValueError,
     r"ops\.swapaxes: axis2 2 is out of bounds"),
    ("squeeze-size", lambda T: ops.squeeze(T(2, 3), axis=0), ValueError,
     r"ops\.squeeze: Cannot squeeze axis 0, because the dimension is not 1"),
    ("concatenate-size", lambda T: ops.concatenate([T(2, 3, 4), T(2, 5, 4)], axis=-1),
     ValueError, r"ops\.concatenate: Every value in `xs` must have the same shape "
     r"except on the `axis` dim. But found element of shape \(2, 5, 4\)"),
    ("concatenate-rank", lambda T: ops.concatenate([T(2, 3), T(2, 3, 1)]),
     ValueError, r"must have the same shape except on the `axis` dim"),
    ("concatenate-empty", lambda T: ops.concatenate([]), ValueError,
     r"ops\.concatenate: `xs` must be a non-empty list of tensors. Received: xs=\[\]"),
    ("concatenate-scalars", lambda T: ops.concatenate([T(), T()]), ValueError,
     r"zero-dimensional arrays cannot be concatenated"),
    ("stack-shape", lambda T: ops.stack([T(2, 3), T(2, 4)]), ValueError,
     r"ops\.stack: Every value in `x` must have the same shape. But found element "
     r"of shape \(2, 4\)"),
    ("stack-empty", lambda T: ops.stack([]), ValueError, r"non-empty list"),
    ("broadcast_to-size", lambda T: ops.broadcast_to(T(2, 3), (3, 3)), ValueError,
     r"ops\.broadcast_to: Cannot broadcast shape, the failure dim has value 2"),
    ("broadcast_to-rank", lambda T: ops.broadcast_to(T(2, 3), (3,)), ValueError,
     r"cannot broadcast a tensor of rank 2 to a shape of rank 1"),
    ("broadcast_to-negative", lambda T: ops.broadcast_to(T(2, 3), (-1, 3)),
     ValueError, r"negative dimensions are not allowed"),
    ("take-string-indices", lambda T: ops.take(T(2, 3), np.array(["a"])), TypeError,
     r"ops\.take: `indices` must be integers"),
    ("pad-negative", lambda T: ops.pad(T(2, 3), ((-1, 1), (0, 0))), ValueError,
     r"ops\.pad: `pad_width` must hold non-negative integers"),
    ("pad-rank", lambda T: ops.pad(T(2, 3), ((1, 1), (0, 0), (0, 0))), ValueError,
     r"ops\.pad: `pad_width` must be an int, a \(before, after\) pair, or one such "
     r"pair per axis"),
    ("pad-mode", lambda T: ops.pad(T(2, 3), 1, mode="median"), ValueError,
     r"ops\.pad: `mode` must be one of"),
    ("pad-constant-values-mode", lambda T: ops.pad(T(2, 3), 1, mode="reflect",
                                                   constant_values=1.0), ValueError,
     r"`constant_values` can only be set when `mode` is 'constant'"),
    ("pad-empty-reflect", lambda T: ops.pad(T(0, 3), 1, mode="reflect"), ValueError,
     r"an empty axis cannot be padded in mode 'reflect'"),
    ("tile-negative", lambda T: ops.tile(T(2, 3), (-1, 1)), ValueError,
     r"ops\.tile: `repeats` must be non-negative"),
    ("tile-float", lambda T: ops.tile(T(2, 3), (1.5, 1)), TypeError,
     r"ops\.tile: `repeats` must be an integer or a tuple of integers"),
    ("repeat-size", lambda T: ops.repeat(T(2, 3), [1, 2], axis=1), ValueError,
     r"ops\.repeat: Size of `repeats` and dimensions of axis 1 of `x` should be "
     r"compatible. Received: 2 and 3"),
    ("repeat-negative", lambda T: ops.repeat(T(2, 3), -1), ValueError,
     r"`repeats` must be non-negative"),
    ("repeat-float", lambda T: ops.repeat(T(2, 3), 1.5), TypeError,
     r"`repeats` must be an integer or a list of integers"),
    ("roll-lengths", lambda T: ops.roll(T(2, 3), (1, 2, 3), axis=(0, 1)), ValueError,
     r"ops\.roll: `shift` and `axis` must have the same length"),
    ("roll-float", lambda T: ops.roll(T(2, 3), 1.5), TypeError,
     r"ops\.roll: `shift` must be an integer"),
    ("split-divisible", lambda T: ops.split(T(2, 3), 2, axis=1), ValueError,
     r"ops\.split: `x` size on given `axis` must be divisible by "
     r"`indices_or_sections` when `indices_or_sections` is an int. But received 3 "
     r"and 2"),
    ("split-indices", lambda T: ops.split(T(2, 6), [4, 2], axis=1), ValueError,
     r"ops\.split: the indices must be increasing and within \[0, 6\]"),
    ("split-zero-sections", lambda T: ops.split(T(2, 6), 0), ValueError,
     r"the number of sections must be at least 1"),
    ("meshgrid-indexing", lambda T: ops.meshgrid(T(2), T(3), indexing="ji"),
     ValueError, r"ops\.meshgrid: Valid values for `indexing` are 'xy' and 'ij'"),
    ("get_item-out-of-bounds", lambda T: ops.get_item(T(2, 3), 5), ValueError,
     r"ops\.get_item: Array has shape \(2, 3\) but out-of-bounds index 5 was "
     r"requested"),
    ("get_item-too-many", lambda T: ops.get_item(T(2, 3), (0, 0, 0)), ValueError,
     r"Array has shape \(2, 3\) but slice has too many indices"),
    ("get_item-two-ellipses", lambda T: ops.get_item(T(2, 3), (Ellipsis, Ellipsis)),
     ValueError, r"Slice should only have one ellipsis"),
    ("get_item-array-out-of-bounds", lambda T: ops.get_item(T(2, 3), np.array([0, 7])),
     ValueError, r"out-of-bounds index 7"),
    ("get_item-zero-step", lambda T: ops.get_item(T(2, 3), slice(None, None, 0)),
     ValueError, r"slice step cannot be zero"),
    ("matmul-inner", lambda T: ops.matmul(T(2, 3), T(4, 5)), ValueError,
     r"^Inner dimensions \(`x1.shape\[-1\]` and `x2.shape\[-2\]`\) must "
     r"be equal, but received `x1.shape=\(2, 3\)` and `x2.shape=\(4, 5\)`.$"),
    ("matmul-vectors", lambda T: ops.matmul(T(3), T(4)), ValueError,
     r"Inner dimensions"),
    ("matmul-scalar", lambda T: ops.matmul(T(), T(2, 3)), ValueError,
     r"ops\.matmul: both tensors must be at least 1D"),
    ("matmul-batch", lambda T: ops.matmul(T(2, 2, 3), T(3, 3, 4)), ValueError,
     r"ops\.matmul: Cannot broadcast shape"),
    ("dot-inner", lambda T: ops.dot(T(2, 3), T(4, 5)), ValueError,
     r"ops\.dot: Shape must match on the last axis of `x1` and second last axis of "
     r"`x2`"),
    ("dot-vector", lambda T: ops.dot(T(2, 3), T(4)), ValueError,
     r"ops\.dot: Shape must match"),
    ("tensordot-mismatch", lambda T: ops.tensordot(T(2, 3), T(4, 5), axes=1),
     ValueError, r"ops\.tensordot: Shape mismatch on `x1\[axes\[0\]\]` and "
     r"`x2\[axes\[1\]\]`, received \[3\] and \[4\]"),
    ("tensordot-too-many", lambda T: ops.tensordot(T(2, 3), T(3, 4), axes=3),
     ValueError, r"ops\.tensordot: `axes` must be between 0 and the smaller rank"),
    ("tensordot-axis", lambda T: ops.tensordot(T(2, 3), T(3, 4), axes=([5], [0])),
     ValueError, r"ops\.tensordot: axes 5 is out of bounds"),
    ("tensordot-lists", lambda T: ops.tensordot(T(2, 3), T(3, 4), axes=([1], [0, 1])),
     ValueError, r"the two lists of `axes` must have the same length"),
    ("einsum-size", lambda T: ops.einsum("ij,jk->ik", T(2, 3), T(4, 5)), ValueError,
     r"ops\.einsum: subscript j has size 4 for operand 1 which does not broadcast "
     r"with previously seen size 3"),
    ("einsum-operands", lambda T: ops.einsum("ij,jk->ik", T(2, 3)), ValueError,
     r"ops\.einsum: Number of operands \(1\) does not match the number of input "
     r"specs \(2\)"),
    ("einsum-rank", lambda T: ops.einsum("ijk,jk->ik", T(2, 3), T(3, 4)), ValueError,
     r"Number of dimensions in the subscript does not match the number of "
     r"dimensions in the operand, received subscript `ijk`"),
    ("einsum-output", lambda T: ops.einsum("ij,jk->iz", T(2, 3), T(3, 4)), ValueError,
     r"every output subscript must appear in the equation"),
    ("einsum-diagonal", lambda T: ops.einsum("ii->i", T(2, 2)), ValueError,
     r"a letter repeated within one operand"),
    ("cast-dtype", lambda T: ops.cast(T(2), "nope"), ValueError,
     r"ops\.cast: Invalid dtype: 'nope'"),
    ("cumsum-dtype", lambda T: ops.cumsum(T(2), dtype="nope"), ValueError,
     r"ops\.cumsum: Invalid dtype"),
    ("zeros_like-dtype", lambda T: ops.zeros_like(T(2), dtype="nope"), ValueError,
     r"ops\.zeros_like: Invalid dtype"),
    ("ones_like-dtype", lambda T: ops.ones_like(T(2), dtype="nope"), ValueError,
     r"ops\.ones_like: Invalid dtype"),
    ("slice-rank", lambda T: ops.slice(T(2, 3), [0, 0], (1,)), ValueError,
     r"ops\.slice: The number of dimensions in `inputs` must match the number of "
     r"dimensions in `shape`"),
    ("slice-start-length", lambda T: ops.slice(T(2, 3), [0], (1, 1)), ValueError,
     r"The number of dimensions in `start_indices` must match"),
    ("slice-outside", lambda T: ops.slice(T(2, 3), [1, 2], (2, 2)), ValueError,
     r"ops\.slice: each slice must lie inside `inputs`"),
    ("slice-shape-float", lambda T: ops.slice(T(2, 3), [0, 0], (1.5, 1)), TypeError,
     r"`shape` must be a tuple of non-negative integers"),
    ("unstack-num", lambda T: ops.unstack(T(2, 3), num=3), ValueError,
     r"ops\.unstack: `num` must be the size of axis 0"),
    ("top_k-k", lambda T: ops.top_k(T(2, 3), 4), ValueError,
     r"ops\.top_k: `k` must not exceed the size of the last axis \(3\)"),
    ("top_k-scalar", lambda T: ops.top_k(T(), 1), ValueError,
     r"ops\.top_k: `x` must have at least one axis"),
    ("top_k-k-float", lambda T: ops.top_k(T(2, 3), 1.5), TypeError,
     r"ops\.top_k: argument `k` must be an integer"),
    ("top_k-sorted", lambda T: ops.top_k(T(2, 3), 1, sorted="yes"), TypeError,
     r"`sorted` must be a boolean"),
    ("fft2-empty", lambda T: ops.fft2((T(0, 3), T(0, 3))), ValueError,
     r"ops\.fft2: the \(-2, -1\) axes of the input must not be empty"),
    ("subtract-booleans", lambda T: ops.subtract(T(2, dtype="bool"),
                                                 T(2, dtype="bool")), TypeError,
     r"ops\.subtract: two booleans cannot be subtracted"),
    ("fft2-not-a-pair", lambda T: ops.fft2(T(2, 3)), ValueError,
     r"ops\.fft2: Input `x` should be a tuple of two tensors - real and imaginary"),
    ("fft2-shapes", lambda T: ops.fft2((T(2, 3), T(3, 2))), ValueError,
     r"Both the real and imaginary parts should have the same shape"),
    ("fft2-rank", lambda T: ops.fft2((T(3), T(3))), ValueError,
     r"ops\.fft2: Input should have rank >= 2"),
    ("softmax-axis-tuple", lambda T: ops.softmax(T(2, 3), axis=(0, 2)), ValueError,
     r"ops\.softmax: axis 2 is out of bounds"),
    ("one_hot-num_classes", lambda T: ops.one_hot(T(2, dtype="int32"), 0), ValueError,
     r"ops\.one_hot: argument `num_classes` must be an integer >= 1"),
    ("one_hot-num_classes-float", lambda T: ops.one_hot(T(2, dtype="int32"), 2.5),
     TypeError, r"argument `num_classes` must be an integer"),
    ("one_hot-dtype", lambda T: ops.one_hot(T(2, dtype="int32"), 3, dtype="nope"),
     ValueError, r"ops\.one_hot: Invalid dtype"),
    ("leaky_relu-slope", lambda T: ops.leaky_relu(T(2), negative_slope="x"),
     TypeError, r"ops\.leaky_relu: argument `negative_slope` must be a number"),
    ("elu-alpha", lambda T: ops.elu(T(2), alpha="x"), TypeError,
     r"ops\.elu: argument `alpha` must be a number"),
    ("gelu-approximate", lambda T: ops.gelu(T(2), approximate="x"), TypeError,
     r"ops\.gelu: argument `approximate` must be a boolean"),
    ("categorical_crossentropy-shapes", lambda T: ops.categorical_crossentropy(
        T(2, 4), T(2, 3)), ValueError,
     r"ops\.categorical_crossentropy: Arguments `target` and `output` must have the "
     r"same shape. Received: target.shape=\(2, 4\), output.shape=\(2, 3\)"),
    ("categorical_crossentropy-axis", lambda T: ops.categorical_crossentropy(
        T(2, 3), T(2, 3), axis=2), ValueError, r"axis 2 is out of bounds"),
    ("binary_crossentropy-shapes", lambda T: ops.binary_crossentropy(T(2, 4), T(2, 3)),
     ValueError, r"ops\.binary_crossentropy: Arguments `target` and `output` must "
     r"have the same shape"),
    ("sparse_categorical_crossentropy-shapes",
     lambda T: ops.sparse_categorical_crossentropy(T(3, dtype="int32"), T(2, 3)),
     ValueError, r"ops\.sparse_categorical_crossentropy: Arguments `target` and "
     r"`output` must have the same shape up until the last dimension"),
    ("sparse_categorical_crossentropy-scalar",
     lambda T: ops.sparse_categorical_crossentropy(T(dtype="int32"), T()),
     ValueError, r"Argument `output` must be at least rank 1"),
    ("conv-rank", lambda T: ops.conv(T(2, 6), T(3, 3, 4)), ValueError,
     r"ops\.conv: kerasmini supports inputs of rank 3, 4 or 5"),
    ("conv-1d-2d-kernel", lambda T: ops.conv(T(2, 6, 3), T(3, 3, 3, 4)), ValueError,
     r"ops\.conv: the kernel must have rank 3 for inputs of rank 3"),
    ("conv-channels", lambda T: ops.conv(T(2, 6, 6, 3), T(3, 3, 2, 4)), ValueError,
     r"ops\.conv: The number of input channels must match the kernel's input "
     r"channels. Received: input channels=3, kernel input channels=2"),
    ("conv-kernel-rank", lambda T: ops.conv(T(2, 6, 6, 3), T(3, 3, 3)), ValueError,
     r"ops\.conv: the kernel must have rank 4 for inputs of rank 4"),
    ("conv-strides", lambda T: ops.conv(T(2, 6, 6, 3), T(3, 3, 3, 4), strides=0),
     ValueError, r"ops\.conv: Expected `strides` to be a positive integer"),
    ("conv-padding", lambda T: ops.conv(T(2, 6, 6, 3), T(3, 3, 3, 4), padding="full"),
     ValueError, r"ops\.conv: Expected `padding` to be 'valid' or 'same'"),
    ("conv-window", lambda T: ops.conv(T(2, 6, 6, 3), T(9, 9, 3, 4)), ValueError,
     r"ops\.conv: Computed output size would be zero or negative"),
    ("conv-data_format", lambda T: ops.conv(T(2, 6, 6, 3), T(3, 3, 3, 4),
                                            data_format="nhwc"), ValueError,
     r"ops\.conv: The `data_format` argument must be one of"),
    ("conv-channels-first", lambda T: ops.conv(T(2, 3, 6, 6), T(3, 3, 6, 4),
                                               data_format="channels_first"),
     ValueError, r"input channels=3, kernel input channels=6"),
    ("conv_transpose-channels", lambda T: ops.conv_transpose(T(2, 6, 6, 3),
                                                             T(3, 3, 4, 2)),
     ValueError, r"ops\.conv_transpose: The number of input channels must match"),
    ("conv_transpose-output_padding", lambda T: ops.conv_transpose(
        T(2, 6, 6, 3), T(3, 3, 4, 3), output_padding=-1), ValueError,
     r"`output_padding` must be None, a non-negative integer"),
    ("depthwise_conv-channels", lambda T: ops.depthwise_conv(T(2, 6, 6, 3),
                                                            T(3, 3, 2, 2)),
     ValueError, r"ops\.depthwise_conv: The number of input channels must match"),
    ("conv_transpose-empty-kernel", lambda T: ops.conv_transpose(
        T(2, 4, 4, 1), T(0, 2, 3, 1)), ValueError,
     r"ops\.conv_transpose: the kernel's spatial sizes must be positive"),
    ("depthwise_conv-window", lambda T: ops.depthwise_conv(T(2, 4, 4, 3),
                                                          T(5, 5, 3, 2)),
     ValueError, r"ops\.depthwise_conv: Computed output size would be zero"),
    ("separable_conv-pointwise", lambda T: ops.separable_conv(
        T(2, 6, 6, 3), T(3, 3, 3, 2), T(1, 1, 5, 4)), ValueError,
     r"ops\.conv: The number of input channels must match"),
    ("separable_conv-strides", lambda T: ops.separable_conv(
        T(2, 6, 6, 3), T(3, 3, 3, 2), T(1, 1, 6, 4), strides=0), ValueError,
     r"ops\.depthwise_conv: Expected `strides` to be a positive integer"),
    ("max_pool-pool_size", lambda T: ops.max_pool(T(2, 6, 6, 3), 0), ValueError,
     r"ops\.max_pool: Expected `pool_size` to be a positive integer"),
    ("max_pool-rank", lambda T: ops.max_pool(T(2, 6), 2), ValueError,
     r"ops\.max_pool: kerasmini supports inputs of rank 3, 4 or 5"),
    ("max_pool-window", lambda T: ops.max_pool(T(2, 6, 6, 3), 8), ValueError,
     r"ops\.max_pool: Computed output size would be zero or negative"),
    ("average_pool-padding", lambda T: ops.average_pool(T(2, 6, 6, 3), 2, padding="x"),
     ValueError, r"ops\.average_pool: Expected `padding` to be 'valid' or 'same'"),
    ("resize-rank", lambda T: ops.image.resize(T(4, 4), (2, 2)), ValueError,
     r"ops\.image\.resize: Invalid images rank: expected rank 3 \(single image\) or "
     r"rank 4 \(batch of images\)"),
    ("resize-size", lambda T: ops.image.resize(T(4, 4, 3), (2,)), ValueError,
     r"ops\.image\.resize: Expected `size` to be a tuple of 2 integers"),
    ("resize-size-zero", lambda T: ops.image.resize(T(4, 4, 3), (0, 2)), ValueError,
     r"`size` must have positive height and width"),
    ("resize-interpolation", lambda T: ops.image.resize(T(4, 4, 3), (2, 2),
                                                        interpolation="cubic"),
     ValueError, r"ops\.image\.resize: Invalid value for argument `interpolation`"),
    ("resize-crop-and-pad", lambda T: ops.image.resize(
        T(4, 4, 3), (2, 2), crop_to_aspect_ratio=True, pad_to_aspect_ratio=True),
     ValueError, r"Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can "
     r"be `True`"),
    ("resize-fill_mode", lambda T: ops.image.resize(T(4, 4, 3), (2, 2),
                                                    fill_mode="reflect"),
     ValueError, r"Only `'constant'` is supported"),
    ("resize-antialias", lambda T: ops.image.resize(T(4, 4, 3), (2, 2),
                                                    antialias="yes"),
     TypeError, r"ops\.image\.resize: argument `antialias` must be a boolean"),
    ("resize-data_format", lambda T: ops.image.resize(T(4, 4, 3), (2, 2),
                                                      data_format="hwc"),
     ValueError, r"The `data_format` argument must be one of"),
    ("extract_patches-size", lambda T: ops.image.extract_patches(T(1, 8, 8, 3),
                                                                 (2, 2, 2)),
     TypeError, r"ops\.image\.extract_patches: Invalid `size` argument"),
    ("extract_patches-too-big", lambda T: ops.image.extract_patches(T(1, 8, 8, 3), 9),
     ValueError, r"ops\.image\.extract_patches: Computed output size would be zero"),
    ("extract_patches-rank", lambda T: ops.image.extract_patches(T(8, 8), 2),
     ValueError, r"Invalid images rank"),
    ("dot_product_attention-rank", lambda T: ops.dot_product_attention(
        T(2, 4, 8), T(2, 6, 2, 8), T(2, 6, 2, 8)), ValueError,
     r"ops\.dot_product_attention: `dot_product_attention` only supports 4D "
     r"inputs. Received: query.shape=\(2, 4, 8\), key.shape=\(2, 6, 2, 8\)"),
    ("dot_product_attention-batch", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(3, 6, 2, 8), T(3, 6, 2, 8)), ValueError,
     r"ops\.dot_product_attention: query, key and value must have the same batch "
     r"size \(axis 0\)"),
    ("dot_product_attention-key-value-length", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 5, 2, 8)), ValueError,
     r"key and value must have the same sequence length \(axis 1\)"),
    ("dot_product_attention-heads", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 3, 8), T(2, 6, 3, 8)), ValueError,
     r"ops\.dot_product_attention: query, key and value must have the same number "
     r"of heads \(axis 2\). Received: query.shape=\(2, 4, 2, 8\)"),
    ("dot_product_attention-depth", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 4), T(2, 6, 2, 8)), ValueError,
     r"query and key must have the same depth \(axis 3\)"),
    ("dot_product_attention-dtype", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8, dtype="int32"), T(2, 6, 2, 8), T(2, 6, 2, 8)), TypeError,
     r"`query` must be a tensor of floats. Received: query.dtype=int32"),
    ("dot_product_attention-mask-shape", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), mask=T(4, 5, dtype="bool")),
     ValueError, r"`mask` must broadcast to the shape of the attention logits "
     r"\(batch, heads, query length, key length\) = \(2, 2, 4, 6\). Received: "
     r"mask.shape=\(4, 5\)"),
    ("dot_product_attention-bias-rank", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), bias=T(1, 2, 2, 4, 6)),
     ValueError, r"`bias` must broadcast to the shape of the attention logits"),
    ("dot_product_attention-bias-and-mask", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), bias=T(4, 6),
        mask=T(4, 6, dtype="bool")), ValueError,
     r"Only one of `bias` and `mask` can be provided. Received: bias.shape=\(4, 6\)"),
    ("dot_product_attention-scale", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), scale="big"), TypeError,
     r"ops\.dot_product_attention: argument `scale` must be a number"),
    ("dot_product_attention-is_causal", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), is_causal="yes"), TypeError,
     r"`is_causal` must be a boolean \(True or False\). Received: is_causal='yes'"),
    ("dot_product_attention-flash_attention", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), flash_attention=1), TypeError,
     r"`flash_attention` must be a boolean"),
    ("dot_product_attention-soft-cap", lambda T: ops.dot_product_attention(
        T(2, 4, 2, 8), T(2, 6, 2, 8), T(2, 6, 2, 8), attn_logits_soft_cap=30.0),
     ValueError, r"attn_logits_soft_cap is only supported for JAX on TPU. Set "
     r"attn_logits_soft_cap=None when not using JAX on TPU. Received: "
     r"attn_logits_soft_cap=30.0"),
]

# calls on keras.Input (unknown batch size) that were wrong or raw before
ON_INPUT = [
    ("concatenate", lambda: ops.concatenate([keras.Input((3, 4)), keras.Input((5, 4))],
                                            axis=-1),
     ValueError, r"ops\.concatenate: Every value in `xs` must have the same shape "
     r"except on the `axis` dim. But found element of shape \(None, 5, 4\)"),
    ("concatenate-axis", lambda: ops.concatenate([keras.Input((3,)),
                                                  keras.Input((3,))], axis=2),
     ValueError, r"axis 2 is out of bounds"),
    ("stack", lambda: ops.stack([keras.Input((3,)), keras.Input((4,))]), ValueError,
     r"ops\.stack: Every value in `x` must have the same shape"),
    ("reshape", lambda: ops.reshape(keras.Input((2, 3)), (-1, -1)), ValueError,
     r"at most one unknown dimension"),
    ("transpose", lambda: ops.transpose(keras.Input((2, 3)), (0, 1)), ValueError,
     r"expected 3, but received 2"),
    ("swapaxes", lambda: ops.swapaxes(keras.Input((3,)), 0, 2), ValueError,
     r"axis2 2 is out of bounds"),
    ("expand_dims", lambda: ops.expand_dims(keras.Input((3,)), 3), ValueError,
     r"axis 3 is out of bounds for an array with dimension 3"),
    ("cumsum", lambda: ops.cumsum(keras.Input((3,)), axis=2), ValueError,
     r"axis 2 is out of bounds"),
    ("softmax", lambda: ops.softmax(keras.Input((3,)), axis=2), ValueError,
     r"axis 2 is out of bounds"),
    ("take", lambda: ops.take(keras.Input((3,)), np.array([0]), axis=2), ValueError,
     r"axis 2 is out of bounds"),
    ("flip", lambda: ops.flip(keras.Input((3,)), axis=2), ValueError,
     r"axis 2 is out of bounds"),
    ("one_hot", lambda: ops.one_hot(keras.Input((3,), dtype="int32"), 4, axis=5),
     ValueError, r"axis 5 is out of bounds"),
    ("broadcast_to", lambda: ops.broadcast_to(keras.Input((3,)), (2, 4)), ValueError,
     r"Cannot broadcast shape, the failure dim has value 3"),
    ("tile", lambda: ops.tile(keras.Input((3,)), (1, -1)), ValueError,
     r"`repeats` must be non-negative"),
    ("pad", lambda: ops.pad(keras.Input((3,)), ((0, 0), (0, 0), (1, 1))), ValueError,
     r"one such pair per axis"),
    ("get_item", lambda: keras.Input((3,))[:, 5], ValueError,
     r"out-of-bounds index 5 was requested"),
    ("get_item-too-many", lambda: keras.Input((3,))[0, 0, 0], ValueError,
     r"slice has too many indices"),
    ("einsum", lambda: ops.einsum("ij,jk->ik", keras.Input((2, 3)),
                                  KerasTensor((3, 4))), ValueError,
     r"received subscript `ij` and operand of shape \(None, 2, 3\)"),
    ("conv-kernel", lambda: ops.conv(keras.Input((6, 6, 3)), KerasTensor((3, 3, 3))),
     ValueError, r"the kernel must have rank 4 for inputs of rank 4"),
    ("conv-channels", lambda: ops.conv(keras.Input((6, 6, 3)),
                                       KerasTensor((3, 3, 2, 4))),
     ValueError, r"input channels=3, kernel input channels=2"),
    ("max_pool", lambda: ops.max_pool(keras.Input((6,)), 2), ValueError,
     r"supports inputs of rank 3, 4 or 5"),
    ("categorical_crossentropy", lambda: ops.categorical_crossentropy(
        keras.Input((4,)), keras.Input((3,))), ValueError,
     r"must have the same shape"),
    ("split", lambda: ops.split(keras.Input((5,)), 2, axis=1), ValueError,
     r"must be divisible by `indices_or_sections`"),
    ("unstack", lambda: ops.unstack(keras.Input((3,))), ValueError,
     r"Cannot infer argument `num` from shape \(None, 3\)"),
    ("fft2", lambda: ops.fft2((keras.Input((3,)), keras.Input((3,)))), ValueError,
     r"Input should have its \(-2, -1\) axes fully-defined"),
    ("dot_product_attention", lambda: ops.dot_product_attention(
        keras.Input((4, 2, 8)), keras.Input((6, 2, 8)), keras.Input((6, 3, 8))),
     ValueError, r"ops\.dot_product_attention: query, key and value must have the "
     r"same number of heads \(axis 2\). Received: query.shape=\(None, 4, 2, 8\)"),
    ("dot_product_attention-mask", lambda: ops.dot_product_attention(
        keras.Input((4, 2, 8)), keras.Input((6, 2, 8)), keras.Input((6, 2, 8)),
        mask=keras.Input((2, 4, 5), dtype="bool")),
     ValueError, r"= \(None, 2, 4, 6\). Received: mask.shape=\(None, 2, 4, 5\)"),
]

STRINGS = np.array([["a", "b"]])
# calls that exist on values only (creation ops, values out of range, strings)
EAGER = [
    *[(f"{name}-strings", lambda name=name: getattr(ops, name)(STRINGS), TypeError,
       r"ops\.%s: `x` must be a tensor of numbers. Received: x of dtype <U1" % _op(name))
      # (moving strings around, as ravel does, is allowed on values)
      for name in UNARY if name not in ("ravel", "stop_gradient", "logical_not")],
    # (NumPy's logic works on strings as on Python's truth values: allowed)
    *[(f"{name}-strings", lambda name=name: getattr(ops, name)(STRINGS, 1.0),
       TypeError, r"ops\.%s: `x1` must be a tensor of numbers" % _op(name))
      for name in BINARY if not name.startswith("logical")],
    ("cast-strings", lambda: ops.cast(np.array(["a"]), "float32"), TypeError,
     r"ops\.cast: `x` must be a tensor of numbers. Received: x of dtype <U1"),
    ("moments-strings", lambda: ops.moments(np.array(["a"]), 0), TypeError,
     r"ops\.moments: `x` must be a tensor of numbers. Received: x of dtype <U1"),
    *[(f"{name}-none", lambda name=name: getattr(ops, name)(None), TypeError,
       r"ops\.%s: `x` must be a tensor of numbers. Received: x=None" % _op(name))
      for name in REDUCTIONS],
    ("take-index", lambda: ops.take(np.ones((2, 3)), np.array([5]), axis=1),
     ValueError, r"ops\.take: `indices` must be in \[-3, 3\) for axis 1 of size 3. "
     r"Received: an index 5"),
    ("one_hot-label", lambda: ops.one_hot(np.array([0, 3]), 3), ValueError,
     r"ops\.one_hot: the labels must be integers in \[0, 3\). Received: 3"),
    ("one_hot-negative-label", lambda: ops.one_hot(np.array([-1]), 3), ValueError,
     r"Received: -1"),
    ("sparse_categorical_crossentropy-label",
     lambda: ops.sparse_categorical_crossentropy(np.array([0, 5]),
                                                 np.full((2, 3), 1 / 3)),
     ValueError, r"must be integers in \[0, 3\)\. Received: 5"),
    ("slice-start-tensor", lambda: ops.slice(np.ones((2, 3)), np.array([0.5, 0]),
                                             (1, 1)), TypeError,
     r"`start_indices` must be a list of integers"),
    ("arange-step", lambda: ops.arange(0, 10, 0), ValueError,
     r"ops\.arange: `step` must be nonzero. Received: step=0"),
    ("arange-string", lambda: ops.arange(0, 10, "a"), TypeError,
     r"ops\.arange: argument `step` must be a number"),
    ("arange-dtype", lambda: ops.arange(3, dtype="nope"), ValueError,
     r"ops\.arange: Invalid dtype"),
    ("zeros-negative", lambda: ops.zeros((-1, 2)), ValueError,
     r"ops\.zeros: argument `shape` must be a tuple of non-negative integers. "
     r"Received: shape=\(-1, 2\): negative dimensions are not allowed"),
    ("zeros-dtype", lambda: ops.zeros((2,), dtype="nope"), ValueError,
     r"ops\.zeros: Invalid dtype: 'nope'"),
    ("ones-float", lambda: ops.ones((2.5,)), TypeError,
     r"ops\.ones: argument `shape` must be a tuple of non-negative integers"),
    ("ones-string", lambda: ops.ones("3"), TypeError, r"ops\.ones: argument `shape`"),
    ("full-negative", lambda: ops.full((-2,), 1.0), ValueError,
     r"negative dimensions are not allowed"),
    ("full-fill-shape", lambda: ops.full((2,), np.ones(3)), ValueError,
     r"ops\.full: Cannot broadcast shape"),
    ("full-string", lambda: ops.full((2,), "a"), TypeError,
     r"Expected a number or an array of numbers"),
    ("eye-negative", lambda: ops.eye(-1), ValueError,
     r"ops\.eye: argument `N` must be an integer >= 0. Received: N=-1"),
    ("eye-float", lambda: ops.eye(2.5), TypeError, r"ops\.eye: argument `N`"),
    ("eye-columns", lambda: ops.eye(2, -3), ValueError, r"ops\.eye: argument `M`"),
    ("linspace-num", lambda: ops.linspace(0, 1, -1), ValueError,
     r"ops\.linspace: argument `num` must be an integer >= 0"),
    ("linspace-start", lambda: ops.linspace("a", 1), TypeError,
     r"ops\.linspace: argument `start` must be a number"),
]


# Rows whose message is Keras 3.15.1's word for word (the chapters show it and
# say the messages are Keras's); they name the shapes but not the op.
KERAS_WORDS = {"matmul-inner", "matmul-vectors"}


def _outcome(run):
    with pytest.raises((ValueError, TypeError)) as excinfo:
        run()
    assert_raised_by_kerasmini(excinfo)
    assert not getattr(excinfo.value, "kerasmini_unexplained", False), excinfo.value
    return excinfo


@pytest.mark.parametrize("name, call, kind, phrase", BOTH, ids=[c[0] for c in BOTH])
def test_the_same_error_eagerly_and_symbolically(name, call, kind, phrase):
    eager = _outcome(lambda: call(_eager_tensor))
    symbolic = _outcome(lambda: call(_symbolic_tensor))
    assert eager.type is kind, f"eager: {eager.typename}: {eager.value}"
    assert symbolic.type is kind, f"symbolic: {symbolic.typename}: {symbolic.value}"
    assert str(eager.value) == str(symbolic.value)
    eager.match(phrase)
    message = str(eager.value)
    if name in KERAS_WORDS:
        return
    assert message.startswith("ops.") and "Received" in message, message


@pytest.mark.parametrize("name, call, kind, phrase", ON_INPUT,
                         ids=[c[0] for c in ON_INPUT])
def test_ops_on_keras_input(name, call, kind, phrase):
    excinfo = _outcome(call)
    assert excinfo.type is kind, f"{excinfo.typename}: {excinfo.value}"
    excinfo.match(phrase)


@pytest.mark.parametrize("name, call, kind, phrase", EAGER, ids=[c[0] for c in EAGER])
def test_eager_only_errors(name, call, kind, phrase):
    excinfo = _outcome(call)
    assert excinfo.type is kind, f"{excinfo.typename}: {excinfo.value}"
    excinfo.match(phrase)
    assert "Received" in str(excinfo.value), excinfo.value


def test_the_table_covers_every_public_op():
    """Every function of ``kerasmini.ops`` that takes tensors has a row."""
    covered = set(UNARY) | set(BINARY) | set(AXIS_OPS)
    for table in (BOTH, ON_INPUT, EAGER):
        covered |= {row[0].split("-")[0] for row in table}
    takes_no_tensor_or_cannot_fail = {
        "cond", "convert_to_numpy", "convert_to_tensor", "dtype", "is_tensor",
        "shape", "symbolic_scope", "image", "builtins"}
    public = {name for name in ops.__all__ if name[0].islower()}
    public |= {f"{name}" for name in ("resize", "extract_patches")}
    missing = sorted(public - covered - takes_no_tensor_or_cannot_fail)
    assert not missing, f"ops without a bad-input case: {missing}"


def test_the_unknown_batch_still_works():
    """The checks refuse what is wrong, not what is merely unknown."""
    x = keras.Input((3, 4))
    assert ops.concatenate([x, keras.Input((5, 4))], axis=1).shape == (None, 8, 4)
    assert ops.reshape(x, (-1, 2)).shape == (None, 2)
    assert ops.matmul(x, KerasTensor((4, 2))).shape == (None, 3, 2)
    assert ops.broadcast_to(KerasTensor((None, 1)), (5, 3)).shape == (5, 3)
    assert ops.split(x, 2, axis=0)[0].shape == (None, 3, 4)
    assert ops.squeeze(x, axis=0).shape == (3, 4)  # an unknown size may be 1
