"""Losses: values against NumPy formulas, reductions, stability and errors."""

import numpy as np
import pytest

from kerasmini import losses, ops
from kerasmini.backend import GradientTape

Y_TRUE = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
P = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]])
LOGITS = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_mean_squared_error_matches_numpy():
    np.testing.assert_allclose(losses.mean_squared_error(Y_TRUE, P),
                               ((Y_TRUE - P) ** 2).mean(axis=-1))


def test_mean_absolute_error_matches_numpy():
    np.testing.assert_allclose(losses.mean_absolute_error(Y_TRUE, P),
                               np.abs(Y_TRUE - P).mean(axis=-1))


def test_huber_matches_numpy():
    y, p, delta = np.array([[0.0, 0.0, 0.0]]), np.array([[0.3, -2.0, 5.0]]), 1.5
    e = np.abs(p - y)
    expected = np.where(e <= delta, 0.5 * e**2, delta * e - 0.5 * delta**2).mean(-1)
    np.testing.assert_allclose(losses.huber(y, p, delta=delta), expected)


def test_binary_crossentropy_matches_numpy():
    y, p = np.array([[1.0, 0.0, 1.0]]), np.array([[0.9, 0.2, 0.4]])
    expected = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(-1)
    np.testing.assert_allclose(losses.binary_crossentropy(y, p), expected, rtol=1e-6)


def test_binary_crossentropy_from_logits_matches_sigmoid_formula():
    y, x = np.array([[1.0, 0.0, 1.0]]), np.array([[2.0, -1.0, -3.0]])
    p = 1 / (1 + np.exp(-x))
    expected = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(-1)
    np.testing.assert_allclose(losses.binary_crossentropy(y, x, from_logits=True),
                               expected, rtol=1e-6)


def test_categorical_crossentropy_matches_numpy():
    np.testing.assert_allclose(losses.categorical_crossentropy(Y_TRUE, P),
                               -(Y_TRUE * np.log(P)).sum(-1), rtol=1e-6)


def test_categorical_crossentropy_from_logits_matches_softmax():
    np.testing.assert_allclose(
        losses.categorical_crossentropy(Y_TRUE, LOGITS, from_logits=True),
        -(Y_TRUE * np.log(softmax(LOGITS))).sum(-1), rtol=1e-6)


def test_sparse_categorical_crossentropy_equals_categorical_on_one_hot():
    labels = Y_TRUE.argmax(-1)
    np.testing.assert_allclose(losses.sparse_categorical_crossentropy(labels, P),
                               losses.categorical_crossentropy(Y_TRUE, P))
    np.testing.assert_allclose(
        losses.sparse_categorical_crossentropy(labels[:, None], LOGITS, from_logits=True),
        losses.categorical_crossentropy(Y_TRUE, LOGITS, from_logits=True))


def test_crossentropies_are_finite_at_zero_probability():
    y, p = np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
    assert np.isfinite(losses.categorical_crossentropy(y, p)).all()
    assert np.isfinite(losses.binary_crossentropy(y, p)).all()
    assert np.isfinite(losses.sparse_categorical_crossentropy(np.array([0]), p)).all()


def test_crossentropy_from_large_logits_is_finite():
    x = np.array([[1000.0, -1000.0]])
    assert np.isfinite(losses.categorical_crossentropy(np.array([[0.0, 1.0]]), x,
                                                       from_logits=True)).all()
    assert np.isfinite(losses.binary_crossentropy(np.array([[0.0, 1.0]]), x,
                                                  from_logits=True)).all()


def test_sparse_crossentropy_gradient_is_softmax_minus_one_hot():
    x = LOGITS.copy()
    with GradientTape() as tape:
        tape.watch(x)
        loss = losses.SparseCategoricalCrossentropy(from_logits=True)(
            np.array([1, 2]), x)
    np.testing.assert_allclose(tape.gradient(loss, x), (softmax(x) - Y_TRUE) / 2,
                               rtol=1e-6)


def test_default_reduction_is_sum_over_batch_size():
    per_sample = losses.mean_squared_error(Y_TRUE, P)
    assert float(losses.MeanSquaredError()(Y_TRUE, P)) == pytest.approx(per_sample.mean())


@pytest.mark.parametrize("reduction, expected", [("sum", np.sum), ("none", lambda v: v)])
def test_other_reductions(reduction, expected):
    per_sample = losses.mean_squared_error(Y_TRUE, P)
    np.testing.assert_allclose(losses.MeanSquaredError(reduction=reduction)(Y_TRUE, P),
                               expected(per_sample))


def test_sample_weight_multiplies_then_divides_by_batch_size():
    per_sample = losses.mean_absolute_error(Y_TRUE, P)
    weights = np.array([2.0, 0.0])
    value = losses.MeanAbsoluteError()(Y_TRUE, P, sample_weight=weights)
    assert float(value) == pytest.approx((per_sample * weights).sum() / 2)


def test_invalid_reduction_is_an_error():
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        losses.MeanSquaredError(reduction="average")


def test_labels_as_a_column_line_up_with_predictions():
    value = losses.mean_squared_error(np.array([1.0, 0.0]), np.array([[1.0], [1.0]]))
    np.testing.assert_allclose(value, [0.0, 1.0])


def test_categorical_crossentropy_on_integer_labels_names_the_fix():
    with pytest.raises(ValueError, match="use `sparse_categorical_crossentropy`"):
        losses.categorical_crossentropy(np.array([1, 2]), P)


def test_sparse_crossentropy_on_one_hot_labels_names_the_shapes():
    with pytest.raises(ValueError, match=r"y_true.shape=\(2, 3\), y_pred.shape=\(2, 3\)"):
        losses.sparse_categorical_crossentropy(Y_TRUE, P)


def test_mismatched_regression_shapes_name_the_loss():
    with pytest.raises(ValueError, match="Loss `mean_squared_error`"):
        losses.mean_squared_error(np.zeros((2, 3)), np.zeros((2, 4)))


def test_class_names_and_default_names_are_keras_ones():
    assert losses.Huber().name == "huber_loss"
    assert losses.SparseCategoricalCrossentropy().name == "sparse_categorical_crossentropy"


def test_get_config_holds_constructor_arguments():
    config = losses.CategoricalCrossentropy(from_logits=True).get_config()
    assert config == {"name": "categorical_crossentropy",
                      "reduction": "sum_over_batch_size", "from_logits": True,
                      "label_smoothing": 0.0, "axis": -1}
    assert losses.CategoricalCrossentropy.from_config(config).from_logits is True


def test_get_resolves_aliases_and_lists_known_names():
    assert losses.get("mse") is losses.mean_squared_error
    assert isinstance(losses.get("BinaryCrossentropy"), losses.BinaryCrossentropy)
    with pytest.raises(ValueError, match="Known losses: .*'mean_squared_error'"):
        losses.get("mean_sqared_error")


def test_loss_value_works_with_ops_inputs():
    assert float(losses.MeanSquaredError()(ops.ones((2, 1)), ops.zeros((2, 1)))) == 1.0
