"""Regularizers: penalties against NumPy, lookup, validation."""

import numpy as np
import pytest

from kerasmini import layers, regularizers

W = np.array([[1.0, -2.0], [3.0, -4.0]], "float32")


def test_l1_penalty():
    assert float(regularizers.L1(0.1)(W)) == pytest.approx(0.1 * np.abs(W).sum())


def test_l2_penalty():
    assert float(regularizers.L2(0.1)(W)) == pytest.approx(0.1 * (W ** 2).sum())


def test_l1l2_penalty():
    expected = 0.1 * np.abs(W).sum() + 0.2 * (W ** 2).sum()
    assert float(regularizers.L1L2(l1=0.1, l2=0.2)(W)) == pytest.approx(expected)


def test_l1l2_zero_is_zero():
    assert float(regularizers.L1L2()(W)) == 0.0


def test_defaults_are_keras_defaults():
    assert regularizers.L1().l1 == 0.01 and regularizers.L2().l2 == 0.01


def test_lower_case_aliases():
    assert regularizers.l1 is regularizers.L1 and regularizers.l2 is regularizers.L2
    assert regularizers.l1_l2 is regularizers.L1L2


def test_get_by_name():
    assert type(regularizers.get("l2")) is regularizers.L2
    assert type(regularizers.get("L1")) is regularizers.L1


def test_get_none_and_callable():
    assert regularizers.get(None) is None
    fn = lambda w: 0.0  # noqa: E731
    assert regularizers.get(fn) is fn


def test_get_unknown_raises():
    with pytest.raises(ValueError, match="Could not interpret regularizer identifier"):
        regularizers.get("l3")


@pytest.mark.parametrize("value", [-1.0, "big"])
def test_negative_or_non_number_factor_raises(value):
    with pytest.raises(ValueError, match="must be a non-negative number"):
        regularizers.L2(value)


def test_repr_shows_config():
    assert repr(regularizers.L1L2(l1=0.5)) == "L1L2(l1=0.5, l2=0.0)"


def test_layer_losses_collect_penalties_of_every_weight():
    layer = layers.Dense(2, kernel_initializer="ones", bias_initializer="ones",
                         kernel_regularizer=regularizers.L1(1.0),
                         bias_regularizer=regularizers.L2(1.0))
    layer.build((None, 3))
    assert [float(x) for x in layer.losses] == [6.0, 2.0]
