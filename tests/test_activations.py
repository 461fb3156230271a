"""Activations by name or callable, against NumPy formulas."""

import math

import numpy as np
import pytest

from kerasmini import activations, ops

X = np.linspace(-3, 3, 13).astype("float32")


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


@pytest.mark.parametrize("name, reference", [
    ("linear", lambda x: x),
    ("relu", lambda x: np.maximum(x, 0)),
    ("sigmoid", _sigmoid),
    ("tanh", np.tanh),
    ("softplus", lambda x: np.log1p(np.exp(x))),
    ("elu", lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    ("selu", lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    ("swish", lambda x: x * _sigmoid(x)),
    ("silu", lambda x: x * _sigmoid(x)),
    ("leaky_relu", lambda x: np.where(x > 0, x, 0.2 * x)),
    ("exponential", np.exp),
    ("gelu", lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / np.sqrt(2)))),
])
def test_activation_matches_numpy(name, reference):
    np.testing.assert_allclose(activations.get(name)(X), reference(X), rtol=1e-5, atol=1e-6)


def test_softmax_rows_sum_to_one_and_match_numpy():
    x = np.random.default_rng(0).normal(size=(3, 5)).astype("float32")
    expected = np.exp(x) / np.exp(x).sum(-1, keepdims=True)
    np.testing.assert_allclose(activations.softmax(x), expected, rtol=1e-5)
    np.testing.assert_allclose(activations.softmax(x).sum(-1), 1.0, rtol=1e-6)


def test_softmax_axis():
    x = np.random.default_rng(1).normal(size=(3, 4)).astype("float32")
    np.testing.assert_allclose(activations.softmax(x, axis=0).sum(0), 1.0, rtol=1e-6)


def test_softmax_stable_for_large_inputs():
    out = activations.softmax(np.array([1000.0, 1000.0], "float32"))
    np.testing.assert_allclose(out, [0.5, 0.5])


def test_log_softmax_matches_log_of_softmax():
    x = np.random.default_rng(2).normal(size=(2, 4)).astype("float32")
    np.testing.assert_allclose(activations.log_softmax(x), np.log(activations.softmax(x)),
                               rtol=1e-5, atol=1e-6)


def test_sigmoid_no_overflow():
    out = activations.sigmoid(np.array([-1000.0, 1000.0], "float32"))
    np.testing.assert_allclose(out, [0.0, 1.0])


def test_get_none_is_linear():
    assert activations.get(None) is activations.linear


def test_get_callable_passes_through():
    def double(x):
        return ops.multiply(x, 2.0)

    assert activations.get(double) is double


def test_get_unknown_name_raises():
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        activations.get("nope")


def test_get_non_callable_raises_type_error():
    with pytest.raises(TypeError, match="Could not interpret activation function identifier"):
        activations.get(5)


def test_serialize_builtin_gives_name():
    assert [activations.serialize(activations.get(n)) for n in ("relu", "softmax")] == [
        "relu", "softmax"]


def test_gelu_is_exact_by_default_and_approximates_on_request():
    exact = activations.gelu(X)
    approximate = activations.gelu(X, approximate=True)
    tanh_form = 0.5 * X * (1 + np.tanh(np.sqrt(2 / np.pi) * (X + 0.044715 * X ** 3)))
    np.testing.assert_allclose(approximate, tanh_form, rtol=1e-5, atol=1e-6)
    assert 1e-5 < np.max(np.abs(exact - approximate)) < 1e-3  # close, not equal
    # keras.ops.gelu approximates by default, the activation does not
    np.testing.assert_allclose(ops.gelu(X), approximate, rtol=1e-6)
    assert activations.serialize(activations.get("gelu")) == "gelu"


def test_gelu_by_name_in_a_layer_trains_with_exact_gradients():
    from kerasmini import GradientTape, Variable
    x = Variable(np.linspace(-4, 4, 9))
    with GradientTape() as tape:
        y = ops.sum(activations.gelu(x))
    grad = np.asarray(tape.gradient(y, x))
    v = np.linspace(-4, 4, 9)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(v / np.sqrt(2)))
    expected = cdf + v * np.exp(-v ** 2 / 2) / np.sqrt(2 * np.pi)  # d(x cdf)/dx
    np.testing.assert_allclose(grad, expected, rtol=1e-7)
