"""Metrics: state, results against NumPy, resolution of "accuracy"."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import metrics
from kerasmini.backend import function
from kerasmini.trainers.compile_utils import get_metric


def test_mean_is_weighted_and_resets():
    m = metrics.Mean()
    m.update_state(np.array([1.0, 3.0]), sample_weight=np.array([1.0, 3.0]))
    assert float(m.result()) == pytest.approx(10.0 / 4.0)
    m.reset_state()
    assert float(m.result()) == 0.0


def test_mean_state_variables_are_non_trainable_and_named():
    m = metrics.Mean(name="loss")
    assert [(v.path, v.trainable) for v in m.variables] == [
        ("loss/total", False), ("loss/count", False)]


def test_sparse_categorical_accuracy_over_batches():
    m = metrics.SparseCategoricalAccuracy()
    m.update_state(np.array([0, 1]), np.array([[0.9, 0.1], [0.8, 0.2]]))
    m.update_state(np.array([[1]]), np.array([[0.3, 0.7]]))
    assert float(m.result()) == pytest.approx(2 / 3)


def test_categorical_binary_and_exact_accuracy():
    assert float(metrics.CategoricalAccuracy()(
        np.eye(3), np.array([[0.5, 0.2, 0.3], [0.1, 0.1, 0.8], [0, 0, 1.0]]))) == \
        pytest.approx(2 / 3)
    assert float(metrics.BinaryAccuracy(threshold=0.7)(
        np.array([[1.0], [0.0]]), np.array([[0.6], [0.2]]))) == 0.5
    assert float(metrics.Accuracy()(np.array([1, 2]), np.array([1, 2]))) == 1.0


def test_mean_squared_error_metric_matches_numpy():
    y, p = np.array([[0.0, 1.0], [2.0, 2.0]]), np.array([[1.0, 1.0], [0.0, 2.0]])
    assert float(metrics.MeanSquaredError()(y, p)) == pytest.approx(((y - p) ** 2).mean())


def test_update_inside_a_traced_function_is_replayed():
    m = metrics.Mean()
    update = function(lambda x: m.update_state(x) or m.result())
    for value in (1.0, 2.0, 6.0):
        out = update(np.array([value], "float32"))
    assert update.trace_count == 1
    assert float(out) == pytest.approx(3.0)


@pytest.mark.parametrize("y_true, y_pred, expected", [
    (np.zeros((2,)), np.zeros((2, 3)), metrics.SparseCategoricalAccuracy),
    (np.zeros((2, 1)), np.zeros((2, 3)), metrics.SparseCategoricalAccuracy),
    (np.zeros((2, 3)), np.zeros((2, 3)), metrics.CategoricalAccuracy),
    (np.zeros((2, 1)), np.zeros((2, 1)), metrics.BinaryAccuracy),
])
def test_accuracy_string_is_resolved_from_shapes(y_true, y_pred, expected):
    metric = get_metric("accuracy", y_true, y_pred)
    assert type(metric) is expected and metric.name == "accuracy"


def test_metric_name_follows_the_string_given():
    assert get_metric("mse", np.zeros((2, 1)), np.zeros((2, 1))).name == "mse"


def test_plain_function_is_wrapped_in_a_mean():
    def double_error(y_true, y_pred):
        return 2 * keras.losses.mean_absolute_error(y_true, y_pred)
    metric = get_metric(double_error, None, None)
    assert isinstance(metric, metrics.MeanMetricWrapper) and metric.name == "double_error"
    assert float(metric(np.array([[1.0]]), np.array([[0.0]]))) == 2.0


def test_get_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="Known metrics: .*'binary_accuracy'"):
        metrics.get("acuracy")


def test_get_config_round_trips():
    m = metrics.BinaryAccuracy(name="acc", threshold=0.3)
    clone = metrics.BinaryAccuracy.from_config(m.get_config())
    assert (clone.name, clone.threshold) == ("acc", 0.3)
