"""Activation functions, by name or as callables.

Each is a plain function of a tensor built on ``kerasmini.ops``, as Keras 3's
are on ``keras.ops``, so gradients, tracing and KerasTensors come for free.
:func:`get` resolves ``"relu"``, ``None`` (linear) or any callable, and
:func:`serialize` gives back the name.

>>> import numpy as np
>>> get("relu")(np.array([-1.0, 2.0]))
array([0., 2.])
>>> serialize(get("softmax"))
'softmax'
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.saving import serialization


@keras_export("kerasmini.activations.linear")
def linear(x):
    """The identity: ``linear(x) = x``.

    >>> linear(2.0)
    2.0
    """
    return x


@keras_export("kerasmini.activations.relu")
def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``, with Keras's three options.

    Args:
        negative_slope: the slope below ``threshold`` (0: flat).
        max_value: the output is clipped to at most this (``None``: no cap).
        threshold: values at or below it count as "off".

    The output is ``x`` where ``threshold < x``, clipped to ``max_value``,
    plus ``negative_slope * (x - threshold)`` where ``x < threshold``.

    >>> relu(ops.convert_to_tensor([-1.0, 1.0]))
    array([0., 1.], dtype=float32)
    >>> relu(ops.convert_to_tensor([-10.0, 0.5, 8.0]), negative_slope=0.5,
    ...      max_value=6.0, threshold=1.0)
    array([-5.5 , -0.25,  6.  ], dtype=float32)
    """
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return ops.relu(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0.0:
        return ops.leaky_relu(x, negative_slope=negative_slope)
    if threshold != 0.0:  # x above the threshold, else 0
        positive = ops.where(ops.greater(x, threshold), x, ops.zeros_like(x))
    else:
        positive = ops.relu(x)
    if max_value is not None:
        positive = ops.clip(positive, 0.0, max_value)
    if negative_slope == 0.0:
        return positive
    below = ops.relu(ops.subtract(threshold, x))  # how far below the threshold
    return ops.subtract(positive, ops.multiply(negative_slope, below))


@keras_export("kerasmini.activations.sigmoid")
def sigmoid(x):
    """``1 / (1 + exp(-x))``, computed without overflow.

    >>> float(sigmoid(ops.convert_to_tensor(0.0)))
    0.5
    """
    return _with_logits(ops.sigmoid(x), x)


@keras_export("kerasmini.activations.tanh")
def tanh(x):
    """Hyperbolic tangent.

    >>> float(tanh(ops.convert_to_tensor(0.0)))
    0.0
    """
    return ops.tanh(x)


@keras_export("kerasmini.activations.softmax")
def softmax(x, axis=-1):
    """Exponentials normalised to sum to one along ``axis``.

    >>> softmax(ops.convert_to_tensor([0.0, 0.0]))
    array([0.5, 0.5], dtype=float32)
    """
    return _with_logits(ops.softmax(x, axis=axis), x)


def _with_logits(output, logits):
    """Remember ``logits`` on ``output`` so crossentropy losses can use the
    stable logits formula (Keras does this on TensorFlow tensors). NumPy
    arrays take no attributes: eagerly the probabilities are used, as with
    Keras's NumPy and JAX backends."""
    try:
        output._keras_logits = logits
    except AttributeError:
        pass
    return output


@keras_export("kerasmini.activations.log_softmax")
def log_softmax(x, axis=-1):
    """``log(softmax(x))``, computed stably.

    >>> log_softmax(ops.convert_to_tensor([0.0, 0.0])).round(4)
    array([-0.6931, -0.6931], dtype=float32)
    """
    return ops.log_softmax(x, axis=axis)


@keras_export("kerasmini.activations.softplus")
def softplus(x):
    """``log(1 + exp(x))``.

    >>> round(float(softplus(ops.convert_to_tensor(0.0))), 4)
    0.6931
    """
    return ops.softplus(x)


@keras_export("kerasmini.activations.elu")
def elu(x, alpha=1.0):
    """``x`` if positive, else ``alpha * (exp(x) - 1)``.

    >>> elu(ops.convert_to_tensor([1.0, 0.0]))
    array([1., 0.], dtype=float32)
    """
    return ops.elu(x, alpha=alpha)


@keras_export("kerasmini.activations.selu")
def selu(x):
    """Scaled ELU with the self-normalising constants.

    >>> float(selu(ops.convert_to_tensor(0.0)))
    0.0
    """
    return ops.multiply(1.0507009873554805, elu(x, 1.6732632423543772))


@keras_export("kerasmini.activations.swish")
def swish(x):
    """``x * sigmoid(x)`` (also called SiLU).

    >>> float(swish(ops.convert_to_tensor(0.0)))
    0.0
    """
    return ops.silu(x)


@keras_export("kerasmini.activations.leaky_relu")
def leaky_relu(x, negative_slope=0.2):
    """``x`` if positive, else ``negative_slope * x``.

    >>> leaky_relu(ops.convert_to_tensor([-1.0, 1.0]))
    array([-0.2,  1. ], dtype=float32)
    """
    return ops.leaky_relu(x, negative_slope=negative_slope)


@keras_export("kerasmini.activations.gelu")
def gelu(x, approximate=False):
    """Gaussian error linear unit, ``x * P(X <= x)`` for a standard normal
    ``X``: ``0.5 x (1 + erf(x / sqrt(2)))``, or with ``approximate`` the tanh
    form. Exact by default, as Keras 3's activation (``keras.ops.gelu``
    approximates by default).

    >>> gelu(ops.convert_to_tensor([-1.0, 1.0])).round(5)
    array([-0.15866,  0.84134], dtype=float32)
    """
    return ops.gelu(x, approximate=approximate)


@keras_export("kerasmini.activations.exponential")
def exponential(x):
    """``exp(x)``.

    >>> float(exponential(ops.convert_to_tensor(0.0)))
    1.0
    """
    return ops.exp(x)


ALL = {fn.__name__: fn for fn in (
    linear, relu, sigmoid, tanh, softmax, log_softmax, softplus, elu, selu,
    swish, leaky_relu, gelu, exponential)}
ALL["silu"] = swish


@keras_export("kerasmini.activations.get")
def get(identifier):
    """Resolve an activation from a name, ``None`` (linear) or a callable.

    >>> get(None) is linear, get("tanh") is tanh
    (True, True)
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier in ALL:
            return ALL[identifier]
        raise ValueError(
            f"Could not interpret activation function identifier: {identifier!r}. "
            f"Known activations: {sorted(ALL)}"
        )
    if isinstance(identifier, dict):
        identifier = serialization.deserialize_keras_object(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(
        "Could not interpret activation function identifier: "
        f"{identifier!r} (of type {type(identifier).__name__})"
    )


@keras_export("kerasmini.activations.serialize")
def serialize(activation):
    """The name of a built-in activation (others go through serialization).

    >>> serialize(relu)
    'relu'
    """
    for name, fn in ALL.items():
        if fn is activation:
            return name
    return serialization.serialize_keras_object(activation)
