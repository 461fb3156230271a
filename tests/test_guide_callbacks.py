"""The keras.io guide "Writing your own callbacks" (Keras 3), in our own
scenarios on the 8x8 digits (a linear regression of the digit's value): a
callback on every hook of fit, evaluate and predict, what its logs hold,
stopping at the lowest loss with the best weights put back, a learning-rate
table applied from a callback, and ``model.stop_training`` set from a batch or
an epoch. Facts marked Keras 3.15.1 were observed running the same scenario
with real Keras (torch backend)."""

import collections

import numpy as np
import pytest

import kerasmini as keras

(X_TRAIN, Y_TRAIN), (X_TEST, Y_TEST) = keras.datasets.digits.load_data()
X_TRAIN = X_TRAIN.reshape(-1, 64).astype("float32")[:512] / 255.0
Y_TRAIN = Y_TRAIN.astype("float32")[:512]
X_TEST = X_TEST.reshape(-1, 64).astype("float32") / 255.0  # 297 samples
Y_TEST = Y_TEST.astype("float32")


def regressor(learning_rate=0.1, optimizer=None):
    """One Dense unit, built on its first batch, as the guide's model is."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential()
    model.add(keras.layers.Dense(1))
    model.compile(
        optimizer=optimizer or keras.optimizers.RMSprop(learning_rate=learning_rate),
        loss="mean_squared_error", metrics=["mean_absolute_error"])
    return model


HOOKS = [
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
    "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
    "on_predict_batch_begin", "on_predict_batch_end",
]


class Journal(keras.callbacks.Callback):
    """Writes down every hook that runs, with its index and a copy of its logs."""

    def __init__(self, entries):
        super().__init__()
        self.entries = entries


def _journal_hook(hook):
    def hook_method(self, *args, logs=None):
        if args and isinstance(args[-1], dict) or (args and args[-1] is None):
            *args, logs = args
        assert isinstance(logs, dict), f"{hook} got logs={logs!r}"  # .keys() works
        self.entries.append((hook, args[0] if args else None, dict(logs)))
    return hook_method


for _hook in HOOKS:
    setattr(Journal, _hook, _journal_hook(_hook))


# ------------------------------------------------ every hook, and the order
def journal_of_fit_evaluate_predict():
    entries = []
    model = regressor()
    model.fit(X_TRAIN, Y_TRAIN, batch_size=128, epochs=1, verbose=0,
              validation_split=0.5, callbacks=[Journal(entries)])  # 2 + 2 batches
    result = model.evaluate(X_TEST, Y_TEST, batch_size=128, verbose=0,
                            callbacks=[Journal(entries)], return_dict=True)
    predictions = model.predict(X_TEST, batch_size=128, verbose=0,
                                callbacks=[Journal(entries)])
    return entries, result, predictions


def test_each_hook_runs_as_often_as_the_loops_say():
    entries, _, _ = journal_of_fit_evaluate_predict()
    counts = collections.Counter(hook for hook, _, _ in entries)
    assert set(counts) == set(HOOKS)
    assert counts["on_train_begin"] == counts["on_train_end"] == 1
    assert counts["on_epoch_begin"] == counts["on_epoch_end"] == 1
    assert counts["on_train_batch_begin"] == counts["on_train_batch_end"] == 2
    # one validation pass inside fit, one evaluate
    assert counts["on_test_begin"] == counts["on_test_end"] == 2
    assert counts["on_test_batch_end"] == 2 + 3  # 256 samples, then 297, by 128
    assert counts["on_predict_batch_end"] == 3
    # Keras 3.15.1: the same outline around the batches
    outline = [hook for hook, _, _ in entries if "batch" not in hook]
    assert outline == [
        "on_train_begin", "on_epoch_begin", "on_test_begin", "on_test_end",
        "on_epoch_end", "on_train_end", "on_test_begin", "on_test_end",
        "on_predict_begin", "on_predict_end"]
    batch_indices = [index for hook, index, _ in entries
                     if hook == "on_test_batch_begin"]
    assert batch_indices == [0, 1, 0, 1, 2]  # counted from 0 in every loop


def test_what_the_logs_hold_at_each_hook():
    entries, result, predictions = journal_of_fit_evaluate_predict()
    keys = {}
    for hook, _, logs in entries:
        keys.setdefault(hook, set()).add(tuple(logs))
    metrics = ("loss", "mean_absolute_error")
    with_val = metrics + ("val_loss", "val_mean_absolute_error")
    # Keras 3.15.1: empty dicts at the beginnings, metrics at the ends
    for hook in ("on_train_begin", "on_epoch_begin", "on_test_begin",
                 "on_predict_begin", "on_predict_end", "on_train_batch_begin",
                 "on_test_batch_begin", "on_predict_batch_begin"):
        assert keys[hook] == {()}, hook
    assert keys["on_train_batch_end"] == keys["on_test_batch_end"] == {metrics}
    assert keys["on_test_end"] == {metrics}
    assert keys["on_epoch_end"] == keys["on_train_end"] == {with_val}
    assert keys["on_predict_batch_end"] == {("outputs",)}
    # the end of training repeats the last epoch's logs; evaluate returns
    # what its on_test_end saw
    epoch_logs = next(logs for hook, _, logs in entries if hook == "on_epoch_end")
    train_logs = next(logs for hook, _, logs in entries if hook == "on_train_end")
    assert train_logs == epoch_logs
    assert [logs for hook, _, logs in entries if hook == "on_test_end"][-1] == result
    assert all(isinstance(value, float) for value in result.values())
    outputs = [logs["outputs"] for hook, _, logs in entries
               if hook == "on_predict_batch_end"]
    assert [o.shape for o in outputs] == [(128, 1), (128, 1), (41, 1)]
    np.testing.assert_allclose(np.concatenate(outputs), predictions)


class LossAndErrorLog(keras.callbacks.Callback):
    """Keeps the loss of every batch and the loss and error of every epoch."""

    def __init__(self):
        super().__init__()
        self.train_batches, self.test_batches, self.epochs = [], [], []

    def on_train_batch_end(self, batch, logs=None):
        self.train_batches.append(logs["loss"])

    def on_test_batch_end(self, batch, logs=None):
        self.test_batches.append((logs["loss"], logs["mean_absolute_error"]))

    def on_epoch_end(self, epoch, logs=None):
        self.epochs.append((logs["loss"], logs["mean_absolute_error"]))


def test_batch_logs_are_running_means_and_training_lowers_the_loss():
    model = regressor()
    log = LossAndErrorLog()
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=128, epochs=2, verbose=0,
                        callbacks=[log])
    assert len(log.train_batches) == 2 * 4
    assert all(isinstance(loss, float) for loss in log.train_batches)
    # an epoch's logs are the mean so far after its last batch
    assert [log.train_batches[3], log.train_batches[7]] == \
        [loss for loss, _ in log.epochs] == history.history["loss"]
    assert [error for _, error in log.epochs] == history.history["mean_absolute_error"]
    assert log.epochs[1][0] < log.epochs[0][0]

    evaluation = LossAndErrorLog()
    loss, error = model.evaluate(X_TEST, Y_TEST, batch_size=128, verbose=0,
                                 callbacks=[evaluation])
    # each test batch reports the mean over the samples seen so far
    residual = model.predict(X_TEST, verbose=0)[:, 0] - Y_TEST
    for i, (batch_loss, batch_error) in enumerate(evaluation.test_batches):
        seen = residual[:128 * (i + 1)]
        assert batch_loss == pytest.approx(np.mean(seen ** 2), rel=1e-5)
        assert batch_error == pytest.approx(np.mean(np.abs(seen)), rel=1e-5)
    assert evaluation.test_batches[-1] == (loss, error)


# --------------------------------------------- stopping at the lowest loss
class StopAtLowestLoss(keras.callbacks.Callback):
    """Stop once the loss has not gone below its lowest value for
    ``patience`` epochs after it, and put the best weights back."""

    def __init__(self, patience=0):
        super().__init__()
        self.patience = patience
        self.best_weights = None

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best = 0, 0, np.inf

    def on_epoch_end(self, epoch, logs=None):
        if np.less(logs["loss"], self.best):
            self.best, self.wait = logs["loss"], 0
            self.best_weights = self.model.get_weights()
            return
        self.wait += 1
        if self.wait > self.patience:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            self.model.set_weights(self.best_weights)


class WeightsAtEpochEnd(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.snapshots = []

    def on_epoch_end(self, epoch, logs=None):
        self.snapshots.append(self.model.get_weights())


@pytest.mark.parametrize("patience", [0, 2])
def test_stopping_at_the_lowest_loss_restores_its_weights(patience):
    reference, snapshots = regressor(), WeightsAtEpochEnd()
    losses = reference.fit(X_TRAIN, Y_TRAIN, batch_size=64, epochs=30, verbose=0,
                           callbacks=[snapshots]).history["loss"]
    # the first epoch that ends `patience` + 1 epochs without a new lowest loss
    expected_stop = next(
        epoch for epoch in range(patience + 1, len(losses))
        if min(losses[:epoch - patience]) <= min(losses[epoch - patience:epoch + 1]))
    best_epoch = int(np.argmin(losses[:expected_stop + 1]))

    model, stopper = regressor(), StopAtLowestLoss(patience)
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=64, epochs=30, verbose=0,
                        callbacks=[stopper])
    assert history.epoch == list(range(expected_stop + 1)) and expected_stop < 29
    assert stopper.stopped_epoch == expected_stop
    np.testing.assert_allclose(history.history["loss"], losses[:expected_stop + 1],
                               rtol=1e-6)
    assert stopper.best == losses[best_epoch] < losses[0]
    for mine, best in zip(model.get_weights(), snapshots.snapshots[best_epoch]):
        np.testing.assert_allclose(mine, best, rtol=1e-6)


# --------------------------------------------------- a learning-rate table
RATE_TABLE = {3: 0.05, 6: 0.01, 9: 0.005, 12: 0.001}  # epoch -> new rate


def rate_from_table(epoch, rate):
    """The table's rate from its epoch on; ``rate`` (maybe the optimizer's
    variable itself) otherwise."""
    return RATE_TABLE.get(epoch, rate)


class RateFromTable(keras.callbacks.Callback):
    def __init__(self, schedule):
        super().__init__()
        self.schedule = schedule

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "learning_rate"):
            raise ValueError('The optimizer must have a "learning_rate" attribute.')
        rate = self.model.optimizer.learning_rate
        self.model.optimizer.learning_rate = self.schedule(epoch, rate)


# Keras 3.15.1: the rate in force during each of 15 epochs (float32 values)
KERAS_RATES = [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.005, 0.005,
               0.005, 0.001, 0.001, 0.001]


def test_a_callback_sets_the_learning_rate_of_each_epoch():
    model = regressor()
    rates = []
    read_rate = keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: rates
                                               .append(float(np.array(
                                                   model.optimizer.learning_rate))))
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=128, epochs=15, verbose=0,
                        callbacks=[RateFromTable(rate_from_table), read_rate])
    np.testing.assert_allclose(rates, KERAS_RATES, rtol=1e-6)
    assert isinstance(model.optimizer.learning_rate, keras.Variable)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert sorted(history.history) == ["loss", "mean_absolute_error"]

    # the built-in LearningRateScheduler does the same, and logs the rate
    builtin = regressor()
    builtin_history = builtin.fit(
        X_TRAIN, Y_TRAIN, batch_size=128, epochs=15, verbose=0,
        callbacks=[keras.callbacks.LearningRateScheduler(rate_from_table)])
    np.testing.assert_allclose(builtin_history.history["learning_rate"], KERAS_RATES,
                               rtol=1e-6)
    np.testing.assert_allclose(builtin_history.history["loss"],
                               history.history["loss"], rtol=1e-6)


def test_the_new_rate_is_the_one_the_updates_use():
    model = regressor(optimizer=keras.optimizers.SGD(0.01))
    snapshots = WeightsAtEpochEnd()
    model.fit(X_TRAIN, Y_TRAIN, batch_size=128, epochs=3, verbose=0, callbacks=[
        RateFromTable(lambda epoch, rate: 0.0 if epoch == 1 else 0.01), snapshots])
    first, frozen, last = snapshots.snapshots
    for before, during in zip(first, frozen):
        np.testing.assert_array_equal(before, during)  # a zero rate: no step
    assert not np.array_equal(frozen[0], last[0])


# ------------------------------------------------ model.stop_training, params
class StopAfterBatch(keras.callbacks.Callback):
    def __init__(self, batch):
        super().__init__()
        self.stop_batch, self.seen = batch, []

    def on_train_begin(self, logs=None):
        self.seen.append(("params", dict(self.params)))

    def on_train_batch_end(self, batch, logs=None):
        self.seen.append(("batch", batch))
        if batch == self.stop_batch:
            self.model.stop_training = True

    def on_epoch_end(self, epoch, logs=None):
        self.seen.append(("epoch", epoch))


def test_stop_training_from_a_batch_ends_that_epoch_then_fit():
    model = regressor()
    stopper = StopAfterBatch(2)
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=64, epochs=3, verbose=0,
                        validation_split=0.25, callbacks=[stopper])
    assert stopper.model is model
    # Keras 3.15.1: the params; the epoch still ends (with validation), then
    # fit returns
    assert stopper.seen == [("params", {"verbose": 0, "epochs": 3, "steps": 6}),
                            ("batch", 0), ("batch", 1), ("batch", 2), ("epoch", 0)]
    assert history.epoch == [0] and "val_loss" in history.history
    assert model.stop_training is True


def test_stop_training_from_an_epoch_and_a_fresh_fit_resets_it():
    model = regressor()
    stop_after_second = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: setattr(model, "stop_training", epoch == 1))
    assert model.fit(X_TRAIN, Y_TRAIN, epochs=5, verbose=0,
                     callbacks=[stop_after_second]).epoch == [0, 1]
    assert model.fit(X_TRAIN, Y_TRAIN, epochs=2, verbose=0).epoch == [0, 1]
    assert keras.callbacks.Callback().params is None  # until a loop sets them


# ------------------------------------------------------ the built-in ones
def test_the_built_in_callbacks_the_guide_points_to():
    for name in ["BackupAndRestore", "CSVLogger", "EarlyStopping", "History",
                 "LambdaCallback", "LearningRateScheduler", "ModelCheckpoint",
                 "ProgbarLogger", "ReduceLROnPlateau", "TerminateOnNaN"]:
        assert issubclass(getattr(keras.callbacks, name), keras.callbacks.Callback)
    with pytest.raises(NotImplementedError, match="no TensorBoard callback"):
        keras.callbacks.TensorBoard(log_dir="./logs")
