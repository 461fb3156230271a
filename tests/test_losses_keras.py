"""Labels of shape ``(batch,)`` against predictions of shape ``(batch, 1)``.

Broadcast together they make a ``(batch, batch)`` matrix of every label
against every prediction: a loss that trains on the wrong numbers without an
error. Keras 3 lines the ranks up first (``squeeze_or_expand_to_same_rank``)
in the places listed below, and only there; the scenarios run with kerasmini
here and with real Keras 3.15.1 in a subprocess (``tests/real_keras.py``),
and every number must agree to 1e-6.

Where Keras lines ranks up: ``LossFunctionWrapper.call`` (so every built-in
loss object, and every plain function passed to ``compile(loss=...)``), the
built-in loss and metric functions, and ``reduce_weighted_values`` (values
against sample weights). Where it does not: a ``Loss`` subclass's own
``call`` and a plain function passed to ``compile(metrics=...)`` (wrapped in
``MeanMetricWrapper``), which broadcast in Keras too.
"""

import numpy as np
import pytest
from real_keras import differences, needs_keras, observe_mine, run_keras, run_mine

import kerasmini as keras

SCENARIOS = '''
# A pair that gives the issue's numbers: 0.40625 lined up, 0.28125 broadcast.
Y_TRUE = np.array([0.0, 0.0, 0.0, 1.0], "float32")
Y_PRED = np.array([[0.0], [0.25], [0.75], [0.0]], "float32")
WEIGHTS = np.array([1.0, 0.5, 2.0, 0.0], "float32")


def squared_error(y_true, y_pred):
    return ops.square(y_true - y_pred)


def loss_functions():
    out = {name: numbers(getattr(keras.losses, name)(Y_TRUE, Y_PRED))
           for name in ("mean_squared_error", "mean_absolute_error", "huber")}
    # the crossentropy functions line nothing up: an error, in Keras too
    out["binary_crossentropy"] = error_of(
        lambda: keras.losses.binary_crossentropy(Y_TRUE, Y_PRED))
    out["binary_crossentropy/same"] = numbers(
        keras.losses.binary_crossentropy(Y_TRUE[:, None], Y_PRED))
    return out


def wrapper_class():
    # Keras does not export LossFunctionWrapper; kerasmini does
    if hasattr(keras, "src"):
        return keras.src.losses.losses.LossFunctionWrapper
    return keras.losses.LossFunctionWrapper


def loss_objects():
    out = {}
    for name, make in (("mse", keras.losses.MeanSquaredError),
                       ("mae", keras.losses.MeanAbsoluteError),
                       ("huber", keras.losses.Huber),
                       ("bce", keras.losses.BinaryCrossentropy)):
        loss = make()
        out[name] = numbers(loss(Y_TRUE, Y_PRED))
        out[name + "/weighted"] = numbers(loss(Y_TRUE, Y_PRED, sample_weight=WEIGHTS))
        out[name + "/none"] = numbers(make(reduction="none")(Y_TRUE, Y_PRED))
    return out


def wrapped_custom_function():
    wrapper = wrapper_class()(squared_error)
    return {"loss": numbers(wrapper(Y_TRUE, Y_PRED)),
            "swapped": numbers(wrapper(Y_PRED, Y_TRUE)),
            "weighted": numbers(wrapper(Y_TRUE, Y_PRED, sample_weight=WEIGHTS))}


def custom_loss_subclass():
    class SquaredError(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return squared_error(y_true, y_pred)

    return numbers(SquaredError()(Y_TRUE, Y_PRED))


def model(loss, metrics=()):
    inputs = keras.Input((2,))
    net = keras.Model(inputs, layers.Dense(1)(inputs))
    net.layers[-1].set_weights([np.array([[0.5], [-0.25]], "float32"),
                                np.array([0.125], "float32")])
    net.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss, metrics=list(metrics))
    return net


X = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]], "float32")


def compiled_custom_loss():
    net = model(squared_error)
    evaluated = net.evaluate(X, Y_TRUE, batch_size=4, verbose=0)
    net.fit(X, Y_TRUE, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return {"evaluate": evaluated,
            "weights_after_one_step": [numbers(w) for w in net.get_weights()]}


def compiled_metrics():
    net = model("mse", metrics=[squared_error, "mae", "mse", "binary_accuracy",
                                keras.metrics.RootMeanSquaredError()])
    return net.evaluate(X, Y_TRUE, batch_size=4, verbose=0, return_dict=True)


def metric_objects():
    out = {}
    for name in ("MeanSquaredError", "MeanAbsoluteError", "RootMeanSquaredError",
                 "BinaryAccuracy", "Accuracy", "MeanAbsolutePercentageError"):
        metric = getattr(keras.metrics, name)()
        metric.update_state(Y_TRUE, Y_PRED)
        metric.update_state(Y_TRUE, Y_PRED, sample_weight=WEIGHTS)
        out[name] = numbers(metric.result())
    wrapper = keras.metrics.MeanMetricWrapper(squared_error)
    out["MeanMetricWrapper"] = numbers(wrapper(Y_TRUE, Y_PRED))  # broadcast
    out["BinaryCrossentropy"] = error_of(
        lambda: keras.metrics.BinaryCrossentropy()(Y_TRUE, Y_PRED))
    return out


def squeeze_or_expand():
    # Keras keeps it in keras/src/losses/loss.py; kerasmini in kerasmini.losses
    home = keras.src.losses.loss if hasattr(keras, "src") else keras.losses
    line_up = home.squeeze_or_expand_to_same_rank
    shapes = {}
    for a, b in (((4,), (4, 1)), ((4, 1), (4,)), ((2, 3, 1), (2, 3)),
                 ((2, 3), (2, 3, 1)), ((4,), (4,)), ((4, 2), (4,))):
        x1, x2 = line_up(np.zeros(a, "float32"), np.zeros(b, "float32"))
        shapes[f"{a}-{b}"] = [list(x1.shape), list(x2.shape)]
        x1, x2 = line_up(np.zeros(a, "float32"), np.zeros(b, "float32"),
                         expand_rank_1=False)
        shapes[f"{a}-{b}/squeeze"] = [list(x1.shape), list(x2.shape)]
    return shapes


SCENARIOS = {f.__name__: f for f in (
    loss_functions, loss_objects, wrapped_custom_function, custom_loss_subclass,
    compiled_custom_loss, compiled_metrics, metric_objects, squeeze_or_expand)}
'''

MINE = run_mine(SCENARIOS)["SCENARIOS"]


@pytest.fixture(scope="module")
def keras_results():
    return run_keras(SCENARIOS)


@needs_keras
@pytest.mark.parametrize("name", list(MINE))
def test_same_numbers_as_keras(keras_results, name):
    theirs = keras_results[name]
    assert "crash" not in theirs, theirs
    assert differences(observe_mine(MINE[name]), theirs["value"]) == []


def test_the_issue_pair_gives_the_lined_up_loss():
    # the numbers of issue 28: 0.40625 (Keras) where broadcasting gave 0.28125
    y_true = np.array([0.0, 0.0, 0.0, 1.0], "float32")
    y_pred = np.array([[0.0], [0.25], [0.75], [0.0]], "float32")
    broadcast = float(np.mean(np.square(y_true - y_pred)))
    assert broadcast == pytest.approx(0.28125)

    def squared_error(t, p):
        return keras.ops.square(t - p)

    wrapper = keras.losses.LossFunctionWrapper(squared_error)
    assert float(wrapper(y_true, y_pred)) == pytest.approx(0.40625, abs=1e-7)


def test_compile_with_a_custom_function_lines_labels_up():
    inputs = keras.Input((1,))
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="zeros",
                                                   bias_initializer="zeros")(inputs))
    model.compile(optimizer="sgd", loss=lambda t, p: keras.ops.square(t - p))
    x = np.zeros((4, 1), "float32")
    y = np.array([1.0, 2.0, 3.0, 4.0], "float32")
    # predictions are all 0: the loss is mean(y**2), not a mean over 16 pairs
    assert model.evaluate(x, y, verbose=0) == pytest.approx(7.5)


def test_a_loss_subclass_call_is_not_lined_up():
    # Keras 3 aligns in LossFunctionWrapper only: a subclass's `call` sees the
    # shapes it was given (the scenario above checks Keras does the same)
    seen = []

    class Shapes(keras.losses.Loss):
        def call(self, y_true, y_pred):
            seen.append((y_true.shape, y_pred.shape))
            return keras.ops.zeros((4,))

    Shapes()(np.zeros(4), np.zeros((4, 1)))
    assert seen == [((4,), (4, 1))]


def test_the_loss_converts_both_sides_to_its_dtype():
    loss = keras.losses.MeanSquaredError(dtype="float64")
    assert loss(np.zeros(2, "float32"), np.ones(2, "float32")).dtype == np.float64
    assert keras.losses.MeanSquaredError()(np.zeros(2), np.ones(2)).dtype == np.float32
