"""compile / fit / evaluate / predict: behaviour on tiny data."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.backend import GradientTape

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 3)).astype("float32")
Y = (X[:, 0] + X[:, 1] > 0).astype("int64")


def mlp(units=2, activation="softmax"):
    return keras.Sequential([keras.Input(shape=(3,)),
                             layers.Dense(8, activation="relu"),
                             layers.Dense(units, activation=activation)])


def compiled(run_eagerly=False, **kwargs):
    model = mlp()
    kwargs.setdefault("metrics", ["accuracy"])
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss="sparse_categorical_crossentropy", run_eagerly=run_eagerly,
                  **kwargs)
    return model


def test_fit_before_compile_is_an_error():
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before using"):
        mlp().fit(X, Y)


def test_fit_returns_history_with_keras_keys_and_lowers_the_loss():
    history = compiled().fit(X, Y, epochs=5, batch_size=8, verbose=0)
    assert list(history.history) == ["accuracy", "loss"]
    assert history.epoch == [0, 1, 2, 3, 4]
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_model_history_is_the_returned_history():
    model = compiled()
    assert model.fit(X, Y, verbose=0) is model.history


def test_graph_and_eager_fit_give_the_same_weights():
    # to float32 precision: the compiled step runs Adam's fused kernel (alpha
    # in float64), the eager one Adam's formula written with ops (in float32)
    results = []
    for eager in (False, True):
        keras.backend.clear_session()
        keras.utils.set_random_seed(1)
        model = compiled(run_eagerly=eager)
        model.fit(X, Y, epochs=2, batch_size=16, verbose=0)
        results.append(model.get_weights())
    for graph_w, eager_w in zip(*results):
        np.testing.assert_allclose(graph_w, eager_w, rtol=1e-5, atol=1e-5)


def test_graph_fit_losses_match_eager_over_many_steps_in_float32():
    # the optimised graph step (fused crossentropy from the logits, reused
    # softmax, Adam's fused kernel, compiled replay) against run_eagerly, 50 steps
    histories = []
    for eager in (False, True):
        keras.backend.clear_session()
        keras.utils.set_random_seed(2)
        model = compiled(run_eagerly=eager)
        histories.append(model.fit(X, Y, epochs=10, batch_size=8, verbose=0).history)
    graph, eager = histories
    np.testing.assert_allclose(graph["loss"], eager["loss"], rtol=1e-4)
    assert graph["accuracy"] == eager["accuracy"]


def test_frozen_layer_stays_frozen_in_the_optimised_step():
    model = compiled()
    model.fit(X, Y, epochs=1, batch_size=8, verbose=0)
    model.layers[0].trainable = False
    frozen = model.layers[0].get_weights()
    trained = model.layers[1].get_weights()
    model.fit(X, Y, epochs=2, batch_size=8, verbose=0)
    for before, after in zip(frozen, model.layers[0].get_weights()):
        np.testing.assert_array_equal(before, after)
    assert not np.allclose(trained[0], model.layers[1].get_weights()[0])


def test_train_function_traces_once_per_batch_shape():
    model = compiled()
    model.fit(X, Y, epochs=3, batch_size=16, verbose=0)  # 16, 16, 8
    assert model.train_function.trace_count == 2


def test_run_eagerly_calls_train_step_directly():
    model = compiled(run_eagerly=True)
    model.fit(X, Y, verbose=0)
    assert not hasattr(model.train_function, "trace_count")


def test_loss_is_the_mean_of_the_batch_losses_weighted_by_size():
    model = compiled()
    loss, acc = model.evaluate(X, Y, batch_size=16, verbose=0)
    probs = model.predict(X, verbose=0)
    expected = -np.log(np.clip(probs[np.arange(40), Y], 1e-7, 1)).mean()
    assert loss == pytest.approx(expected, rel=1e-5)
    assert acc == pytest.approx((probs.argmax(1) == Y).mean())


def test_evaluate_returns_a_scalar_without_metrics_and_a_dict_on_request():
    model = compiled(metrics=None)
    assert isinstance(model.evaluate(X, Y, verbose=0), float)
    assert list(model.evaluate(X, Y, verbose=0, return_dict=True)) == ["loss"]


def test_predict_concatenates_batches():
    model = compiled()
    assert model.predict(X, batch_size=16, verbose=0).shape == (40, 2)
    np.testing.assert_allclose(model.predict(X, verbose=0), model(X), rtol=1e-6)


def test_on_batch_methods():
    model = compiled()
    before = model.test_on_batch(X, Y)
    logs = model.train_on_batch(X, Y, return_dict=True)
    assert set(logs) == {"accuracy", "loss"}
    assert logs["loss"] == pytest.approx(before[0])
    assert model.predict_on_batch(X[:4]).shape == (4, 2)


def test_validation_split_uses_the_last_samples_and_prefixes_val():
    model = compiled()
    history = model.fit(X, Y, epochs=2, validation_split=0.25, verbose=0)
    assert list(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    val_loss = model.evaluate(X[30:], Y[30:], verbose=0)[0]
    assert history.history["val_loss"][-1] == pytest.approx(val_loss, rel=1e-5)


def test_validation_data_is_evaluated_each_epoch():
    history = compiled().fit(X, Y, epochs=2, validation_data=(X[:10], Y[:10]),
                             verbose=0)
    assert len(history.history["val_loss"]) == 2


def test_initial_epoch_skips_epochs():
    history = compiled().fit(X, Y, epochs=3, initial_epoch=2, verbose=0)
    assert history.epoch == [2]


def test_x_y_length_mismatch_is_an_error():
    with pytest.raises(ValueError, match="'x' sizes: 40, 'y' sizes: 39"):
        compiled().fit(X, Y[:-1], verbose=0)


def test_wrong_label_shape_names_the_loss_and_shapes():
    one_hot = np.eye(2)[Y]
    with pytest.raises(ValueError, match=r"sparse_categorical_crossentropy.*"
                                         r"y_true.shape=\(32, 2\)"):
        compiled().fit(X, one_hot, verbose=0)


@pytest.mark.parametrize("kwargs, match", [
    ({"loss": "mean_sqared_error"}, "Could not interpret loss identifier"),
    ({"loss": "mse", "optimizer": "adamm"}, "Known optimizers"),
    ({"loss": "mse", "metrics": ["acuracy"]}, "Known metrics"),
])
def test_unknown_names_are_errors_listing_known_ones(kwargs, match):
    model = mlp()
    with pytest.raises(ValueError, match=match):
        model.compile(**kwargs)
        model.fit(X, np.eye(2)[Y], verbose=0)


def test_no_loss_is_an_error():
    model = mlp()
    model.compile(optimizer="sgd")
    with pytest.raises(ValueError, match="No loss to compute"):
        model.fit(X, Y, verbose=0)


def test_accuracy_resolves_to_categorical_for_one_hot_labels():
    model = mlp()
    model.compile(loss="categorical_crossentropy", metrics=["accuracy"])
    model.fit(X, np.eye(2)[Y], verbose=0)
    assert type(model._compile_metrics.metrics[0]).__name__ == "CategoricalAccuracy"


def test_crossentropy_string_resolves_from_shapes():
    model = mlp(units=1, activation="sigmoid")
    model.compile(loss="crossentropy", metrics=["acc"])
    history = model.fit(X, Y.astype("float32"), verbose=0)
    assert list(history.history) == ["acc", "loss"]
    assert model._compile_loss.losses[0].fn is keras.losses.binary_crossentropy


def test_sample_weight_zero_ignores_samples():
    weights = np.r_[np.ones(20), np.zeros(20)].astype("float32")
    model = compiled()
    loss_weighted = model.evaluate(X, Y, sample_weight=weights, batch_size=40,
                                   verbose=0)[0]
    loss_first = model.evaluate(X[:20], Y[:20], verbose=0)[0]
    assert loss_weighted == pytest.approx(loss_first / 2, rel=1e-5)


def test_class_weight_is_the_same_as_per_sample_weights():
    weights = np.where(Y == 1, 3.0, 1.0).astype("float32")
    runs = []
    for kwargs in ({"class_weight": {0: 1.0, 1: 3.0}}, {"sample_weight": weights}):
        keras.backend.clear_session()
        keras.utils.set_random_seed(3)
        model = compiled()
        runs.append(model.fit(X, Y, verbose=0, shuffle=False, **kwargs).history["loss"])
    assert runs[0] == pytest.approx(runs[1])


def test_class_weight_missing_a_class_is_an_error():
    with pytest.raises(ValueError, match="must contain all classes"):
        compiled().fit(X, Y, class_weight={0: 1.0}, verbose=0)


def test_model_loss_includes_add_loss_and_regularizers():
    class Penalised(layers.Layer):
        def call(self, x):
            self.add_loss(0.5)
            return x

    model = keras.Sequential([keras.Input(shape=(3,)), Penalised(),
                              layers.Dense(2, kernel_regularizer="l2")])
    model.compile(loss="mse")
    y = np.zeros((40, 2), "float32")
    loss = model.evaluate(X, y, batch_size=40, verbose=0)
    mse = ((model.predict(X, verbose=0) - y) ** 2).mean()
    kernel = model.layers[-1].kernel.numpy()
    assert loss == pytest.approx(mse + 0.5 + 0.01 * (kernel**2).sum(), rel=1e-5)


def test_multi_input_multi_output_with_per_output_losses_and_metrics():
    a, b = keras.Input(shape=(3,), name="a"), keras.Input(shape=(2,), name="b")
    h = layers.Concatenate()([a, b])
    cls = layers.Dense(2, activation="softmax", name="cls")(h)
    reg = layers.Dense(1, name="reg")(h)
    model = keras.Model([a, b], [cls, reg])
    model.compile(optimizer="adam",
                  loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
                  loss_weights={"cls": 1.0, "reg": 0.5},
                  metrics={"cls": ["accuracy"], "reg": ["mae"]})
    xb = RNG.normal(size=(40, 2)).astype("float32")
    y_reg = X[:, :1] * 2
    history = model.fit([X, xb], {"cls": Y, "reg": y_reg}, epochs=2, verbose=0)
    assert list(history.history) == ["cls_accuracy", "cls_loss", "loss", "reg_loss",
                                     "reg_mae"]
    logs = model.evaluate({"a": X, "b": xb}, [Y, y_reg], return_dict=True, verbose=0)
    assert logs["loss"] == pytest.approx(logs["cls_loss"] + 0.5 * logs["reg_loss"],
                                         rel=1e-5)


def test_custom_train_step_is_used_by_fit():
    class CustomModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)
            self.loss_tracker = keras.metrics.Mean(name="my_loss")
            self.steps = 0

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            self.steps += 1  # Python: runs only while tracing (once per shape)
            with GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = keras.ops.mean(keras.ops.square(y_pred - y))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            return {"my_loss": self.loss_tracker.result()}

    model = CustomModel()
    model.compile(optimizer=keras.optimizers.SGD(0.1))
    y = X @ np.array([[1.0], [-2.0], [0.5]], "float32")
    history = model.fit(X, y, epochs=30, batch_size=8, verbose=0)
    assert list(history.history) == ["my_loss"]
    assert history.history["my_loss"][-1] < 0.01 * history.history["my_loss"][0]
    assert model.steps == 1


def test_dropout_is_active_in_training_steps_only():
    model = keras.Sequential([keras.Input(shape=(3,)), layers.Dropout(0.5),
                              layers.Dense(1, kernel_initializer="ones")])
    model.compile(loss="mse", optimizer=keras.optimizers.SGD(0.0))
    y = np.zeros((40, 1), "float32")
    train, test = [], []
    for _ in range(2):  # metrics accumulate across *_on_batch calls, as in Keras 3
        model.reset_metrics()
        train.append(model.train_on_batch(X, y))  # a fresh mask on every replay
        model.reset_metrics()
        test.append(model.test_on_batch(X, y))
    assert train[0] != train[1]
    assert test[0] == test[1]
