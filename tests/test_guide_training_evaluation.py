"""The keras.io guide "Training & evaluation with the built-in methods"
(Keras 3), in our own scenarios on the 8x8 digits: compile/fit/evaluate/
predict, custom losses and metrics, losses from layers, validation by split,
by arrays, by PyDataset and by generator, sample and class weights, several
inputs and outputs with per-output losses, weights and metrics, callbacks,
checkpoints and learning-rate schedules."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops

(X_TRAIN, Y_TRAIN), (X_TEST, Y_TEST) = keras.datasets.digits.load_data()
X_TRAIN = X_TRAIN.reshape(-1, 64).astype("float32") / 255.0
X_TEST = X_TEST.reshape(-1, 64).astype("float32") / 255.0
X_VAL, Y_VAL = X_TRAIN[-300:], Y_TRAIN[-300:]
X_FIT, Y_FIT = X_TRAIN[:-300], Y_TRAIN[:-300]


def classifier(seed=0):
    keras.utils.set_random_seed(seed)
    inputs = keras.Input(shape=(64,), name="digits")
    x = layers.Dense(32, activation="relu", name="dense_1")(inputs)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs)


def compiled(seed=0, **kwargs):
    model = classifier(seed)
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=3e-3),
                  loss=kwargs.pop("loss", keras.losses.SparseCategoricalCrossentropy()),
                  metrics=kwargs.pop("metrics",
                                     [keras.metrics.SparseCategoricalAccuracy()]),
                  **kwargs)
    return model


def test_end_to_end_fit_evaluate_predict():
    model = compiled()
    history = model.fit(X_FIT, Y_FIT, batch_size=64, epochs=3,
                        validation_data=(X_VAL, Y_VAL), verbose=0)
    assert sorted(history.history) == [
        "loss", "sparse_categorical_accuracy", "val_loss",
        "val_sparse_categorical_accuracy"]
    assert history.history["loss"][-1] < history.history["loss"][0]
    results = model.evaluate(X_TEST, Y_TEST, batch_size=128, verbose=0)
    assert len(results) == 2 and results[1] > 0.6
    predictions = model.predict(X_TEST[:3], verbose=0)
    assert predictions.shape == (3, 10)
    np.testing.assert_allclose(predictions.sum(axis=1), 1.0, rtol=1e-5)


def test_metric_instances_from_the_metrics_module():
    metrics = [keras.metrics.SparseCategoricalAccuracy(),
               keras.metrics.SparseTopKCategoricalAccuracy(k=3, name="top3"),
               keras.metrics.SparseCategoricalCrossentropy(name="xent")]
    model = compiled(metrics=metrics)
    logs = model.fit(X_FIT, Y_FIT, batch_size=64, epochs=2, verbose=0).history
    assert sorted(logs) == ["loss", "sparse_categorical_accuracy", "top3", "xent"]
    assert logs["top3"][-1] >= logs["sparse_categorical_accuracy"][-1]
    # the cross-entropy metric is the loss, averaged the same way
    assert logs["xent"][-1] == pytest.approx(logs["loss"][-1], rel=1e-3)


def test_custom_loss_function_and_loss_class():
    def squared_error_on_one_hot(y_true, y_pred):
        one_hot = ops.one_hot(ops.cast(y_true, "int32"), 10)
        return ops.mean(ops.square(one_hot - y_pred), axis=-1)

    class SmoothedError(keras.losses.Loss):
        def __init__(self, smoothing=0.1, name="smoothed_error"):
            super().__init__(name=name)
            self.smoothing = smoothing

        def call(self, y_true, y_pred):
            one_hot = ops.one_hot(ops.cast(y_true, "int32"), 10)
            target = one_hot * (1 - self.smoothing) + self.smoothing / 10
            return ops.mean(ops.square(target - y_pred), axis=-1)

    for loss in (squared_error_on_one_hot, SmoothedError()):
        model = compiled(loss=loss, metrics=None)
        history = model.fit(X_FIT, Y_FIT, batch_size=64, epochs=3, verbose=0)
        assert history.history["loss"][-1] < history.history["loss"][0]


def test_custom_metric_with_state():
    class TruePositivesOfClass(keras.metrics.Metric):
        """How many samples of class `label` were predicted as `label`."""

        def __init__(self, label=0, name="class_true_positives", **kwargs):
            super().__init__(name=name, **kwargs)
            self.label = label
            self.hits = self.add_variable(shape=(), initializer="zeros", name="hits")

        def update_state(self, y_true, y_pred, sample_weight=None):
            predicted = ops.argmax(y_pred, axis=-1)
            hit = ops.logical_and(ops.equal(ops.reshape(y_true, (-1,)), self.label),
                                  ops.equal(predicted, self.label))
            self.hits.assign_add(ops.sum(ops.cast(hit, "float32")))

        def result(self):
            return self.hits

        def reset_state(self):
            self.hits.assign(0.0)

    metric = TruePositivesOfClass(label=3)
    model = compiled(metrics=[metric])
    model.fit(X_FIT, Y_FIT, batch_size=64, epochs=2, verbose=0)
    logs = model.evaluate(X_TEST, Y_TEST, return_dict=True, verbose=0)
    predicted = model.predict(X_TEST, verbose=0).argmax(axis=1)
    assert logs["class_true_positives"] == ((Y_TEST == 3) & (predicted == 3)).sum()


def test_loss_added_by_a_layer_counts_in_the_total():
    class ActivityPenalty(layers.Layer):
        def call(self, inputs):
            self.add_loss(1e-2 * ops.sum(ops.square(inputs)))
            return inputs

    inputs = keras.Input((64,))
    x = ActivityPenalty()(layers.Dense(32, activation="relu")(inputs))
    model = keras.Model(inputs, layers.Dense(10, activation="softmax")(x))
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")
    with_penalty = model.evaluate(X_TEST, Y_TEST, verbose=0)
    plain = keras.losses.sparse_categorical_crossentropy(
        Y_TEST, model.predict(X_TEST, verbose=0)).mean()
    assert with_penalty > plain


def test_validation_split_holds_out_the_last_samples():
    model = compiled()
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=64, validation_split=0.2,
                        epochs=1, verbose=0)
    expected = model.evaluate(X_TRAIN[-300:], Y_TRAIN[-300:], return_dict=True,
                              verbose=0)
    assert history.history["val_loss"][0] == pytest.approx(expected["loss"], rel=1e-5)


class DigitBatches(keras.utils.PyDataset):
    def __init__(self, x, y, batch_size=64, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size

    def __len__(self):
        return int(np.ceil(len(self.x) / self.batch_size))

    def __getitem__(self, index):
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[part], self.y[part]


def test_training_from_a_py_dataset_and_a_generator():
    model = compiled()
    history = model.fit(DigitBatches(X_FIT, Y_FIT), epochs=2,
                        validation_data=DigitBatches(X_VAL, Y_VAL), verbose=0)
    assert history.history["val_sparse_categorical_accuracy"][-1] > 0.5

    def endless(batch_size=64):
        while True:
            order = np.random.default_rng(0).permutation(len(X_FIT))
            for start in range(0, len(order) - batch_size + 1, batch_size):
                part = order[start:start + batch_size]
                yield X_FIT[part], Y_FIT[part]

    model = compiled()
    history = model.fit(endless(), steps_per_epoch=10, epochs=3,
                        validation_data=endless(), validation_steps=2, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert int(model.optimizer.iterations.numpy()) == 30


def test_class_weight_and_sample_weight_agree():
    class_weight = {label: 1.0 for label in range(10)}
    class_weight[5] = 2.0
    sample_weight = np.where(Y_FIT == 5, 2.0, 1.0).astype("float32")
    a, b = compiled(seed=3), compiled(seed=3)
    a.fit(X_FIT, Y_FIT, class_weight=class_weight, batch_size=64, epochs=1,
          shuffle=False, verbose=0)
    b.fit(X_FIT, Y_FIT, sample_weight=sample_weight, batch_size=64, epochs=1,
          shuffle=False, verbose=0)
    for wa, wb in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_allclose(wa, wb, rtol=1e-5, atol=1e-7)


def test_multi_input_multi_output_with_lists_of_losses_and_metrics():
    keras.utils.set_random_seed(4)
    pixels = keras.Input((64,), name="pixels")
    top_half = keras.Input((32,), name="top_half")
    features = layers.Concatenate()([layers.Dense(16, activation="relu")(pixels),
                                     layers.Dense(8, activation="relu")(top_half)])
    digit = layers.Dense(10, activation="softmax")(features)
    mean_ink = layers.Dense(1)(features)
    model = keras.Model([pixels, top_half], [digit, mean_ink])
    model.compile(optimizer=keras.optimizers.Adam(3e-3),
                  loss=[keras.losses.SparseCategoricalCrossentropy(),
                        keras.losses.MeanSquaredError()],
                  loss_weights=[1.0, 0.5],
                  metrics=[[keras.metrics.SparseCategoricalAccuracy()],
                           [keras.metrics.MeanAbsoluteError()]])
    ink = X_FIT.mean(axis=1, keepdims=True)
    history = model.fit([X_FIT, X_FIT[:, :32]], [Y_FIT, ink], batch_size=64,
                        epochs=3, verbose=0)
    # per-output names come from the output layers, as Keras 3 writes them
    names = [lay.name for lay in model.layers if lay.name.startswith("dense")][-2:]
    assert sorted(history.history) == sorted([
        "loss", f"{names[0]}_loss", f"{names[1]}_loss",
        f"{names[0]}_sparse_categorical_accuracy",
        f"{names[1]}_mean_absolute_error"])
    h = history.history
    assert h["loss"][-1] < h["loss"][0]
    assert h["loss"][-1] == pytest.approx(
        h[f"{names[0]}_loss"][-1] + 0.5 * h[f"{names[1]}_loss"][-1], rel=1e-4)


def test_callbacks_early_stopping_checkpoint_and_schedule(tmp_path):
    schedule = keras.optimizers.schedules.ExponentialDecay(
        1e-2, decay_steps=10, decay_rate=0.5)
    model = classifier()
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=schedule),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    callbacks = [
        keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=10.0,
                                      patience=1),
        keras.callbacks.ModelCheckpoint(tmp_path / "best.keras", monitor="val_loss",
                                        save_best_only=True),
    ]
    history = model.fit(X_FIT, Y_FIT, batch_size=64, epochs=10,
                        validation_data=(X_VAL, Y_VAL), callbacks=callbacks,
                        verbose=0)
    assert len(history.history["loss"]) == 2  # no epoch improves by 10
    best = keras.models.load_model(tmp_path / "best.keras")
    assert best.compiled
    assert float(model.optimizer.learning_rate) < 1e-2


def two_headed(seed=5):
    """Pixels and the image's row sums in; the digit and its ink out."""
    keras.utils.set_random_seed(seed)
    pixels = keras.Input((64,), name="pixels")
    row_sums = keras.Input((8,), name="row_sums")
    features = layers.Concatenate()([layers.Dense(16, activation="relu")(pixels),
                                     layers.Dense(4, activation="relu")(row_sums)])
    digit = layers.Dense(10, activation="softmax", name="digit")(features)
    ink = layers.Dense(1, name="ink")(features)
    return keras.Model(inputs=[pixels, row_sums], outputs=[digit, ink])


def two_headed_data(x, y):
    inputs = {"pixels": x, "row_sums": x.reshape(-1, 8, 8).sum(axis=2)}
    targets = {"digit": y, "ink": x.mean(axis=1, keepdims=True)}
    return inputs, targets


def test_dicts_of_losses_loss_weights_and_metrics_by_output_name():
    model = two_headed()
    model.compile(optimizer=keras.optimizers.Adam(3e-3),
                  loss={"digit": "sparse_categorical_crossentropy", "ink": "mse"},
                  loss_weights={"digit": 1.0, "ink": 0.2},
                  metrics={"digit": ["accuracy"], "ink": ["mae"]})
    inputs, targets = two_headed_data(X_FIT, Y_FIT)
    history = model.fit(inputs, targets, batch_size=64, epochs=4, verbose=0,
                        validation_data=two_headed_data(X_VAL, Y_VAL))
    h = history.history
    assert sorted(h) == sorted(
        ["loss", "digit_loss", "ink_loss", "digit_accuracy", "ink_mae",
         "val_loss", "val_digit_loss", "val_ink_loss", "val_digit_accuracy",
         "val_ink_mae"])
    assert h["loss"][-1] < h["loss"][0]
    assert h["val_digit_accuracy"][-1] > h["val_digit_accuracy"][0]
    assert h["loss"][-1] == pytest.approx(
        h["digit_loss"][-1] + 0.2 * h["ink_loss"][-1], rel=1e-4)
    digit, ink = model.predict(inputs, verbose=0)
    assert digit.shape == (len(X_FIT), 10) and ink.shape == (len(X_FIT), 1)


def test_loss_weights_as_a_list_scale_each_output():
    model = two_headed()
    model.compile(optimizer="sgd", loss=["sparse_categorical_crossentropy", "mse"],
                  loss_weights=[0.0, 3.0])
    inputs, targets = two_headed_data(X_TEST, Y_TEST)
    logs = model.evaluate(inputs, targets, return_dict=True, verbose=0)
    assert logs["loss"] == pytest.approx(3.0 * logs["ink_loss"], rel=1e-5)


def test_weighted_metrics_see_the_sample_weights():
    model = compiled(metrics=["accuracy"],
                     weighted_metrics=[keras.metrics.SparseCategoricalAccuracy(
                         name="weighted_acc")])
    only_fives = (Y_TEST == 5).astype("float32")
    logs = model.evaluate(X_TEST, Y_TEST, sample_weight=only_fives,
                          return_dict=True, verbose=0)
    predicted = model.predict(X_TEST, verbose=0).argmax(axis=1)
    assert logs["accuracy"] == pytest.approx((predicted == Y_TEST).mean(), rel=1e-5)
    assert logs["weighted_acc"] == pytest.approx(
        (predicted == 5)[Y_TEST == 5].mean(), rel=1e-5)


class WeightedDigitBatches(DigitBatches):
    """Batches of (pixels, labels, weights)."""

    def __init__(self, x, y, weights, batch_size=64):
        super().__init__(x, y, batch_size)
        self.weights = weights

    def __getitem__(self, index):
        x, y = super().__getitem__(index)
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return x, y, self.weights[part]


def test_sample_weights_from_arrays_a_py_dataset_and_a_generator_agree():
    weights = np.where(Y_FIT == 7, 3.0, 1.0).astype("float32")

    def batches():
        for start in range(0, len(X_FIT), 64):
            part = slice(start, start + 64)
            yield X_FIT[part], Y_FIT[part], weights[part]

    steps = int(np.ceil(len(X_FIT) / 64))
    by_arrays, by_dataset, by_generator = compiled(7), compiled(7), compiled(7)
    by_arrays.fit(X_FIT, Y_FIT, sample_weight=weights, batch_size=64, shuffle=False,
                  epochs=1, verbose=0)
    by_dataset.fit(WeightedDigitBatches(X_FIT, Y_FIT, weights), shuffle=False,
                   epochs=1, verbose=0)
    by_generator.fit(batches(), steps_per_epoch=steps, epochs=1, verbose=0)
    for a, b, c in zip(by_arrays.get_weights(), by_dataset.get_weights(),
                       by_generator.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-7)


def test_class_weight_with_a_py_dataset_equals_sample_weights():
    class_weight = {label: 0.5 + label / 10 for label in range(10)}
    weights = np.array([class_weight[int(label)] for label in Y_FIT], "float32")
    a, b = compiled(8), compiled(8)
    a.fit(DigitBatches(X_FIT, Y_FIT), class_weight=class_weight, shuffle=False,
          epochs=1, verbose=0)
    b.fit(X_FIT, Y_FIT, sample_weight=weights, batch_size=64, shuffle=False,
          epochs=1, verbose=0)
    for wa, wb in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_allclose(wa, wb, rtol=1e-5, atol=1e-7)


def test_validation_data_with_sample_weights_and_steps_per_epoch_on_arrays():
    model = compiled()
    ignore_most = np.where(Y_VAL == 0, 1.0, 0.0).astype("float32")
    history = model.fit(X_FIT, Y_FIT, batch_size=32, steps_per_epoch=5, epochs=2,
                        validation_data=(X_VAL, Y_VAL, ignore_most), verbose=0)
    assert int(model.optimizer.iterations.numpy()) == 10
    # a weighted loss is still averaged over every sample of the batch
    per_sample = keras.losses.sparse_categorical_crossentropy(
        Y_VAL, model.predict(X_VAL, verbose=0))
    assert history.history["val_loss"][-1] == pytest.approx(
        float(np.mean(ignore_most * ops.convert_to_numpy(per_sample))), rel=1e-4)


def test_an_endpoint_layer_adds_the_loss_and_compile_needs_none():
    class ParityEndpoint(layers.Layer):
        """Takes the targets and the logits, adds the loss, returns probabilities."""

        def __init__(self, name=None):
            super().__init__(name=name)
            self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)

        def call(self, targets, logits):
            self.add_loss(self.loss_fn(targets, logits))
            return ops.sigmoid(logits)

    keras.utils.set_random_seed(6)
    pixels = keras.Input((64,), name="pixels")
    targets = keras.Input((1,), name="targets")
    logits = layers.Dense(1)(layers.Dense(16, activation="relu")(pixels))
    probabilities = ParityEndpoint(name="endpoint")(targets, logits)
    model = keras.Model(inputs=[pixels, targets], outputs=probabilities)
    model.compile(optimizer=keras.optimizers.Adam(1e-2))  # no loss: the layer has it
    is_odd = (Y_FIT % 2).astype("float32")[:, None]
    history = model.fit({"pixels": X_FIT, "targets": is_odd}, batch_size=64,
                        epochs=4, verbose=0)
    assert list(history.history) == ["loss"]
    assert history.history["loss"][-1] < history.history["loss"][0]
    guesses = model.predict({"pixels": X_FIT, "targets": is_odd}, verbose=0)
    assert guesses.shape == (len(X_FIT), 1)
    assert ((guesses > 0.5) == (is_odd > 0.5)).mean() > 0.7


def test_an_output_without_a_loss_is_not_trained_for():
    model = two_headed()
    with pytest.raises(ValueError, match="in loss dict"):  # every output named
        model.compile(optimizer="adam",
                      loss={"digit": "sparse_categorical_crossentropy"})
        model.fit(*two_headed_data(X_FIT[:8], Y_FIT[:8]), verbose=0)
    model = two_headed()
    model.compile(optimizer=keras.optimizers.Adam(3e-3),
                  loss={"digit": "sparse_categorical_crossentropy", "ink": None})
    inputs, targets = two_headed_data(X_FIT, Y_FIT)
    ink_kernel = model.get_layer("ink").kernel.numpy().copy()
    history = model.fit(inputs, targets, batch_size=64, epochs=2, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert not any(key.startswith("ink") for key in history.history)
    # no loss reaches the ink head, so its weights get no gradient
    np.testing.assert_array_equal(model.get_layer("ink").kernel.numpy(), ink_kernel)
