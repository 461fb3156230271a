"""kerasmini.trainers.compile_utils: what compile(loss=..., metrics=...) becomes."""

import numpy as np
import pytest

from kerasmini import losses, metrics
from kerasmini.trainers.compile_utils import (
    CompileLoss,
    CompileMetrics,
    get_loss,
    get_metric,
    is_binary_or_sparse_categorical,
)


@pytest.mark.parametrize("y_true, y_pred, expected", [
    ((8, 1), (8, 1), "BinaryAccuracy"),             # one unit: binary
    ((8,), (8, 3), "SparseCategoricalAccuracy"),    # labels of lower rank
    ((8, 1), (8, 3), "SparseCategoricalAccuracy"),  # (n, 1) labels, 3 classes
    ((8, 3), (8, 3), "CategoricalAccuracy"),        # one-hot
])
def test_accuracy_resolved_from_shapes_as_keras3(y_true, y_pred, expected):
    metric = get_metric("accuracy", np.zeros(y_true), np.zeros(y_pred))
    assert type(metric).__name__ == expected and metric.name == "accuracy"


def test_acc_alias_keeps_its_name():
    assert get_metric("acc", np.zeros((4, 1)), np.zeros((4, 1))).name == "acc"


def test_binary_or_sparse_flags():
    assert is_binary_or_sparse_categorical(np.zeros((4, 1)), np.zeros((4, 1))) == \
        (True, False)


@pytest.mark.parametrize("y_true, y_pred, fn", [
    ((4, 1), (4, 1), "binary_crossentropy"),
    ((4,), (4, 5), "sparse_categorical_crossentropy"),
    ((4, 5), (4, 5), "categorical_crossentropy"),
])
def test_crossentropy_resolved_from_shapes(y_true, y_pred, fn):
    loss = get_loss("crossentropy", np.zeros(y_true), np.zeros(y_pred))
    assert loss.fn.__name__ == fn


def test_named_metric_becomes_a_mean_wrapper_named_as_given():
    metric = get_metric("mae", np.zeros((2, 1)), np.zeros((2, 1)))
    assert isinstance(metric, metrics.Metric) and metric.name == "mae"


def test_compile_loss_weighted_sum_over_outputs():
    loss = CompileLoss(["mse", "mae"], loss_weights=[1.0, 0.5],
                       output_names=["a", "b"])
    y_true = [np.zeros((2, 1)), np.zeros((2, 1))]
    y_pred = [np.full((2, 1), 2.0), np.full((2, 1), 2.0)]
    assert float(loss(y_true, y_pred)) == pytest.approx(4.0 + 0.5 * 2.0)
    assert [m.name for m in loss.metrics] == ["a_loss", "b_loss"]


def test_compile_loss_dict_by_output_name():
    loss = CompileLoss({"b": "mse"}, output_names=["a", "b"])
    value = loss({"a": np.zeros((2, 1)), "b": np.zeros((2, 1))},
                 {"a": np.ones((2, 1)), "b": np.full((2, 1), 3.0)})
    assert float(value) == pytest.approx(9.0)  # only "b" has a loss


def test_compile_loss_unknown_output_name_raises():
    loss = CompileLoss({"c": "mse"}, output_names=["a", "b"])
    with pytest.raises(ValueError, match="Unknown output names in `loss`"):
        loss([np.zeros((1, 1))] * 2, [np.zeros((1, 1))] * 2)


def test_compile_loss_single_output_one_tracker_less():
    loss = CompileLoss("mse")
    loss(np.zeros((2, 1)), np.ones((2, 1)))
    assert loss.metrics == []


def test_compile_metrics_names_with_several_outputs():
    # Keras 3: with several outputs, a list of metrics has one entry per output
    compiled = CompileMetrics([["mae"], ["mae"]], None, output_names=["a", "b"])
    compiled.update_state([np.zeros((2, 1)), np.zeros((2, 1))],
                          [np.ones((2, 1)), np.full((2, 1), 2.0)])
    result = {k: float(v) for k, v in compiled.result().items()}
    assert result == {"a_mae": 1.0, "b_mae": 2.0}


def test_compile_metrics_flat_list_with_several_outputs_raises():
    compiled = CompileMetrics(["mae"], None, output_names=["a", "b"])
    with pytest.raises(ValueError, match="one entry per output"):
        compiled.update_state([np.zeros((2, 1))] * 2, [np.ones((2, 1))] * 2)


def test_compile_metrics_weighted_metrics_see_sample_weight():
    compiled = CompileMetrics(None, ["mae"])
    compiled.update_state(np.zeros((2, 1)), np.array([[1.0], [3.0]]),
                          sample_weight=np.array([1.0, 0.0]))
    assert float(compiled.result()["mae"]) == pytest.approx(1.0)


def test_compile_metrics_reset_state():
    compiled = CompileMetrics(["mae"], None)
    compiled.update_state(np.zeros((2, 1)), np.ones((2, 1)))
    compiled.reset_state()
    compiled.update_state(np.zeros((2, 1)), np.full((2, 1), 4.0))
    assert float(compiled.result()["mae"]) == pytest.approx(4.0)


def test_compile_metrics_must_be_a_list():
    with pytest.raises(ValueError, match="Expected `metrics` argument to be a list"):
        CompileMetrics("accuracy", None)


def test_get_loss_accepts_loss_objects():
    obj = losses.MeanSquaredError()
    assert get_loss(obj, np.zeros(1), np.zeros(1)) is obj


def test_compile_loss_dict_must_name_every_output_of_a_list():
    # as Keras 3: outputs returned as a list need a key each (None: no loss)
    outputs = [np.zeros((2, 1)), np.ones((2, 1))]
    with pytest.raises(ValueError, match=r"Expected keys \['a', 'b'\] in loss dict"):
        CompileLoss({"b": "mse"}, output_names=["a", "b"])(outputs, outputs)
    loss = CompileLoss({"a": None, "b": "mse"}, output_names=["a", "b"])
    assert float(loss(outputs, [np.ones((2, 1)), np.ones((2, 1))])) == 0.0


def test_one_output_takes_its_loss_weight_and_metrics_wrapped_in_lists():
    # Keras 3.15.1 accepts loss=["mse"], loss_weights=[2.0] and
    # metrics=[["mae", "mse"]] for a one-output model: the lists hold the
    # values of its single output (history keys: loss, mae, mse).
    import kerasmini as keras

    x, y = np.ones((4, 3), "float32"), np.full((4, 1), 3.0, "float32")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(loss=["mse"], metrics=[["mae", "mse"]], loss_weights=[2.0])
    history = model.fit(x, y, verbose=0)
    assert sorted(history.history) == ["loss", "mae", "mse"]
    loss, mae, mse = model.evaluate(x, y, verbose=0)
    np.testing.assert_allclose(loss, 2.0 * mse, rtol=1e-6)


@pytest.mark.parametrize("loss", ["mse", ["mse"], {"output_a": "mse"},
                                  {"output_a": ["mse"]}])
def test_one_output_named_in_dicts_as_keras_model_test_does(loss):
    # keras/src/models/model_test.py, test_functional_single_output: every
    # form of the loss, metrics by output name; Keras 3.15.1's history keys
    import kerasmini as keras

    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(1, name="output_a")(inputs))
    model.compile(optimizer="sgd", loss=loss,
                  metrics={"output_a": ["mean_squared_error", "mean_absolute_error"]},
                  weighted_metrics={"output_a": "mean_squared_error"})
    rng = np.random.default_rng(0)
    history = model.fit(rng.random((8, 3)), rng.random((8, 1)), batch_size=2, verbose=0)
    assert sorted(history.history) == ["loss", "mean_absolute_error",
                                       "mean_squared_error", "weighted_mean_squared_error"]
