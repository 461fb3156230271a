"""Neural-network primitives, with gradients (Keras 3's ``backend/numpy/nn.py``):
activations, softmax and the fused softmax crossentropy, ``one_hot``; the
convolution and pooling of sequences, images and volumes (channels last) are
in :mod:`kerasmini.backend.convolution` and :mod:`kerasmini.backend.pooling`,
re-exported here as Keras 3's backend ``nn`` has them.

Every op here is a :class:`~kerasmini.backend.core.Primitive` like those in
:mod:`kerasmini.backend.numpy`, and every gradient rule is written with
primitives too, so a backward pass through a convolution can be traced by
:func:`kerasmini.function` and differentiated again.

>>> import numpy as np
>>> softmax(np.array([0.0, 0.0]))
array([0.5, 0.5])
>>> max_pool2d(np.arange(16.0).reshape(1, 4, 4, 1), 2)[0, :, :, 0]
array([[ 5.,  7.],
       [13., 15.]])
"""

import numpy as np

from kerasmini.backend import config
from kerasmini.backend.core import value_of
from kerasmini.backend.numpy import (
    _prim,
    add,
    clip,
    divide,
    exp,
    expand_dims,
    greater,
    log,
    multiply,
    negative,
    subtract,
    where,
    zeros_like,
)
from kerasmini.backend.numpy import abs as absolute
from kerasmini.backend.numpy import sum as _sum

shape_of = np.shape  # works for arrays, Variables, GraphTensors


# ---------------------------------------------------------- activations
def _sigmoid(x):
    # exp of a non-positive number only: no overflow for large |x|
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(x.dtype, copy=False)


sigmoid = _prim("sigmoid", _sigmoid,
                lambda g, ans, x: multiply(g, multiply(ans, subtract(1.0, ans))))
relu = _prim("relu", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
             lambda g, ans, x: where(greater(x, 0), g, zeros_like(g)))
softplus = _prim("softplus", lambda x: np.logaddexp(0, x).astype(x.dtype, copy=False),
                 lambda g, ans, x: multiply(g, sigmoid(x)))  # log(1+e^x)' = sigmoid


def _softmax(x, axis=-1):
    # (`initial`: an empty axis has nothing to normalise, and no maximum)
    e = np.exp(x - x.max(axis=axis, keepdims=True, initial=-np.inf))
    return e / e.sum(axis=axis, keepdims=True)


softmax = _prim(
    "softmax", _softmax,
    # J^T g = s * (g - sum(g * s))
    lambda g, ans, x, axis=-1: multiply(
        ans, subtract(g, _sum(multiply(g, ans), axis=axis, keepdims=True))),
)


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True, initial=-np.inf)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


log_softmax = _prim(
    "log_softmax", _log_softmax,
    lambda g, ans, x, axis=-1: subtract(
        g, multiply(exp(ans), _sum(g, axis=axis, keepdims=True))),
)


def _sparse_softmax_crossentropy(labels, logits):
    # -log softmax(logits)[label] = logsumexp(logits) - logits[label]: the
    # same numbers as -sum(one_hot * log_softmax), without the one-hot matrix
    shifted = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(shifted).sum(axis=-1))
    # shifted[..., label] for every sample: index the rows of a 2-D view
    rows = shifted.reshape(-1, shifted.shape[-1])
    labels = np.asarray(labels, dtype="int64").reshape(-1)
    return lse - rows[np.arange(len(rows)), labels].reshape(lse.shape)


def _sparse_softmax_crossentropy_grad(g, ans, labels, logits):
    # d loss / d logits = softmax(logits) - one_hot(labels), per sample. The
    # softmax is the op the model's output layer ran on the same logits, so
    # in a traced step it is taken from the forward pass, not recomputed
    # (Graph.record reuses an identical step: the same axis, written as
    # `ops.softmax` writes it, counted from the front). Written with
    # primitives, so it can be differentiated again.
    probs = softmax(logits, axis=len(shape_of(logits)) - 1)
    targets = one_hot(labels, num_classes=shape_of(logits)[-1],
                      dtype=value_of(logits).dtype.name)
    return multiply(expand_dims(g, -1), subtract(probs, targets))


# The fused loss of a softmax output layer with integer labels (what
# TensorFlow calls sparse_softmax_cross_entropy_with_logits), over the last
# axis: one forward step and a short gradient instead of one_hot,
# log_softmax, multiply, sum, negative and their five gradient steps.
sparse_softmax_crossentropy = _prim(
    "sparse_softmax_crossentropy", _sparse_softmax_crossentropy,
    None, _sparse_softmax_crossentropy_grad,
)


def _one_hot(x, num_classes, dtype="float32"):
    labels = np.asarray(x).astype("int64")
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        bad = labels[(labels < 0) | (labels >= num_classes)].flat[0]
        raise ValueError(  # checked here: on every replay of a traced step too
            f"ops.one_hot: the labels must be integers in [0, {num_classes}). "
            f"Received: {bad} (in an array of shape {labels.shape})"
        )
    return np.eye(num_classes, dtype=dtype)[labels]


one_hot = _prim("one_hot", _one_hot)


# ------------------------------------------------------------ crossentropy
# Composites of the primitives above, as Keras 3's backend writes them: the
# public ops (kerasmini.ops) and the losses are built on these.
def cached_logits(output):
    """The logits a softmax or sigmoid output remembers (traced tensors only:
    Keras's TensorFlow backend does the same with its ``_keras_logits``).

    >>> cached_logits(np.zeros(2)) is None
    True
    """
    return getattr(output, "_keras_logits", None)


def _log_probabilities(output, from_logits, axis):
    if not from_logits and cached_logits(output) is not None:
        output, from_logits = cached_logits(output), True
    if from_logits:
        return log_softmax(output, axis=axis)
    # rescale so each row sums to one, then keep away from log(0)
    output = divide(output, _sum(output, axis=axis, keepdims=True))
    eps = config.epsilon()
    return log(clip(output, eps, 1.0 - eps))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """``-sum(target * log(output), axis)``, one value per sample; ``output``
    holds probabilities (rescaled to sum to one and clipped away from 0) or,
    with ``from_logits``, logits.

    >>> categorical_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]]))
    array([0.69314718])
    """
    log_p = _log_probabilities(output, from_logits, axis)
    return negative(_sum(multiply(target, log_p), axis=axis))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """:func:`categorical_crossentropy` of integer class indices ``target``
    (checked by the caller). From logits over the last axis it is one fused
    step, :data:`sparse_softmax_crossentropy`.

    >>> sparse_categorical_crossentropy(np.array([1]), np.array([[0.5, 0.5]]))
    array([0.69314718])
    """
    logits = output if from_logits else cached_logits(output)
    if logits is not None and axis in (-1, len(shape_of(output)) - 1):
        return sparse_softmax_crossentropy(target, logits)
    targets = one_hot(target, num_classes=shape_of(output)[axis],
                      dtype=value_of(output).dtype.name)
    return categorical_crossentropy(targets, output, from_logits=from_logits,
                                    axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    """``-(t log p + (1 - t) log(1 - p))``, element by element; from logits
    ``z`` in the stable form ``max(z, 0) - z t + log(1 + exp(-|z|))``.

    >>> binary_crossentropy(np.array([1.0]), np.array([0.0]), from_logits=True)
    array([0.69314718])
    """
    if not from_logits and cached_logits(output) is not None:
        output, from_logits = cached_logits(output), True
    if from_logits:
        return add(subtract(relu(output), multiply(output, target)),
                   softplus(negative(absolute(output))))
    eps = config.epsilon()
    p = clip(output, eps, 1.0 - eps)
    return negative(add(multiply(target, log(p)),
                        multiply(subtract(1.0, target), log(subtract(1.0, p)))))


# ------------------------------------------------- convolution and pooling
# One concept per file: they live in convolution.py and pooling.py (every
# rank: sequences, images, volumes); Keras 3's backend nn has them here.
from kerasmini.backend.convolution import (  # noqa: E402
    conv,
    conv2d,
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv_backprop_filter,
    conv_backprop_input,
    depthwise_conv,
)
from kerasmini.backend.pooling import (  # noqa: E402
    avg_pool,
    avg_pool2d,
    max_pool,
    max_pool2d,
)

__all__ = [
    "avg_pool", "avg_pool2d", "conv", "conv2d", "conv2d_backprop_filter",
    "conv2d_backprop_input", "conv_backprop_filter", "conv_backprop_input",
    "depthwise_conv", "max_pool", "max_pool2d",
]
