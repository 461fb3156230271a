"""Initializers: values, statistics on big draws, seeds, lookup by name."""

import numpy as np
import pytest

from kerasmini import initializers, utils

SHAPE = (400, 600)  # fan_in 400, fan_out 600


def test_zeros_ones_constant():
    assert not initializers.get("zeros")((2, 2)).any()
    np.testing.assert_array_equal(initializers.get("ones")((2,)), [1, 1])
    np.testing.assert_array_equal(initializers.Constant(3.0)((2,)), [3, 3])


def test_dtype_respected():
    assert initializers.get("zeros")((2,), "int32").dtype == np.int32
    assert initializers.get("glorot_uniform")((2, 2), "float64").dtype == np.float64
    assert initializers.get("he_normal")((2, 2)).dtype == np.float32


def test_glorot_uniform_limits_and_variance():
    w = initializers.get("glorot_uniform")(SHAPE)
    limit = np.sqrt(6 / (400 + 600))
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.99 * limit
    assert w.var() == pytest.approx(limit ** 2 / 3, rel=0.02)


def test_glorot_normal_std():
    w = initializers.get("glorot_normal")(SHAPE)
    assert w.std() == pytest.approx(np.sqrt(2 / 1000), rel=0.02)


def test_he_normal_std_and_truncation():
    w = initializers.get("he_normal")(SHAPE)
    std = np.sqrt(2 / 400)
    assert w.std() == pytest.approx(std, rel=0.02)
    assert abs(w.mean()) < 0.01 * std * 10
    # truncated at two standard deviations of the underlying normal
    assert np.abs(w).max() <= 2 * std / 0.87962566103423978 + 1e-6


def test_he_uniform_limit():
    w = initializers.get("he_uniform")(SHAPE)
    assert np.abs(w).max() <= np.sqrt(6 / 400)


def test_lecun_normal_std():
    assert initializers.get("lecun_normal")(SHAPE).std() == pytest.approx(np.sqrt(1 / 400),
                                                                           rel=0.02)


def test_random_normal_mean_and_std():
    w = initializers.RandomNormal(mean=1.0, stddev=0.5)(SHAPE)
    assert w.mean() == pytest.approx(1.0, abs=0.01) and w.std() == pytest.approx(0.5, rel=0.02)


def test_random_uniform_bounds():
    w = initializers.RandomUniform(-0.2, 0.3)(SHAPE)
    assert w.min() >= -0.2 and w.max() < 0.3 and w.mean() == pytest.approx(0.05, abs=0.01)


def test_truncated_normal_within_two_std():
    w = initializers.TruncatedNormal(stddev=0.1)(SHAPE)
    assert np.abs(w).max() <= 0.2


def test_variance_scaling_fan_out_uniform():
    w = initializers.VarianceScaling(scale=3.0, mode="fan_out", distribution="uniform")(SHAPE)
    assert w.var() == pytest.approx(3.0 / 600, rel=0.02)


def test_variance_scaling_conv_kernel_uses_receptive_field():
    w = initializers.VarianceScaling(2.0, "fan_in", "untruncated_normal")((3, 3, 64, 128))
    assert w.std() == pytest.approx(np.sqrt(2 / (3 * 3 * 64)), rel=0.02)


def test_variance_scaling_bad_mode_raises():
    with pytest.raises(ValueError, match="Invalid `mode` argument"):
        initializers.VarianceScaling(mode="fan_sideways")


def test_variance_scaling_bad_distribution_raises():
    with pytest.raises(ValueError, match="Invalid `distribution` argument"):
        initializers.VarianceScaling(distribution="cauchy")


def test_seeded_initializer_repeats():
    a = initializers.GlorotUniform(seed=3)((5, 5))
    b = initializers.GlorotUniform(seed=3)((5, 5))
    np.testing.assert_array_equal(a, b)


def test_unseeded_initializer_follows_global_seed():
    utils.set_random_seed(11)
    a = initializers.get("he_normal")((5, 5))
    utils.set_random_seed(11)
    b = initializers.get("he_normal")((5, 5))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, initializers.get("he_normal")((5, 5)))


def test_get_by_snake_name_class_name_and_object():
    assert type(initializers.get("glorot_uniform")) is initializers.GlorotUniform
    assert type(initializers.get("GlorotUniform")) is initializers.GlorotUniform
    obj = initializers.Ones()
    assert initializers.get(obj) is obj


def test_get_callable_passes_through():
    def fill(shape, dtype=None):
        return np.full(shape, 2.0)

    assert initializers.get(fill) is fill


def test_get_none_is_none():
    assert initializers.get(None) is None


def test_get_unknown_raises():
    with pytest.raises(ValueError, match="Could not interpret initializer identifier"):
        initializers.get("glorot_sideways")


def test_initializer_repr_shows_config():
    assert repr(initializers.RandomNormal(stddev=0.1)) == (
        "RandomNormal(mean=0.0, stddev=0.1, seed=None)")
    assert repr(initializers.get("he_normal")) == "HeNormal(seed=None)"
