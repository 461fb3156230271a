"""Callbacks against Keras 3.15.1: the order of the hooks and the keys of
their logs, ReduceLROnPlateau, ModelCheckpoint by batches, CSVLogger and
BackupAndRestore. The facts in capitals were observed in Keras 3.15.1 (torch
backend) running the same scenario."""

import csv
import json
import os
import zipfile

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import callbacks, layers
from kerasmini.callbacks.callback_list import _HOOKS

X = np.random.default_rng(0).normal(size=(12, 3)).astype("float32")

# Keras 3.15.1: every hook of a callback during fit(epochs=2, batch_size=4,
# validation_data=6 samples) on 10 samples, then evaluate(batch_size=5) and
# predict(batch_size=5) on them, as "hook index: sorted log keys".
KERAS_HOOK_SEQUENCE = [
    'train_begin', 'epoch_begin 0', 'train_batch_begin 0',
    'train_batch_end 0: accuracy loss', 'train_batch_begin 1',
    'train_batch_end 1: accuracy loss', 'train_batch_begin 2',
    'train_batch_end 2: accuracy loss', 'test_begin', 'test_batch_begin 0',
    'test_batch_end 0: accuracy loss', 'test_batch_begin 1',
    'test_batch_end 1: accuracy loss', 'test_end: accuracy loss',
    'epoch_end 0: accuracy loss val_accuracy val_loss', 'epoch_begin 1',
    'train_batch_begin 0', 'train_batch_end 0: accuracy loss', 'train_batch_begin 1',
    'train_batch_end 1: accuracy loss', 'train_batch_begin 2',
    'train_batch_end 2: accuracy loss', 'test_begin', 'test_batch_begin 0',
    'test_batch_end 0: accuracy loss', 'test_batch_begin 1',
    'test_batch_end 1: accuracy loss', 'test_end: accuracy loss',
    'epoch_end 1: accuracy loss val_accuracy val_loss',
    'train_end: accuracy loss val_accuracy val_loss', '--evaluate', 'test_begin',
    'test_batch_begin 0', 'test_batch_end 0: accuracy loss', 'test_batch_begin 1',
    'test_batch_end 1: accuracy loss', 'test_end: accuracy loss', '--predict',
    'predict_begin', 'predict_batch_begin 0', 'predict_batch_end 0: outputs',
    'predict_batch_begin 1', 'predict_batch_end 1: outputs', 'predict_end',
]


class Recorder(callbacks.Callback):
    def __init__(self, events):
        super().__init__()
        self.events = events


def _recording(hook):
    def record(self, *args):
        index = f" {args[0]}" if "batch" in hook or "epoch" in hook else ""
        logs = args[-1] if args and isinstance(args[-1], dict) else None
        keys = f": {' '.join(sorted(logs))}" if logs else ""
        self.events.append(hook[3:] + index + keys)
    return record


for _hook in _HOOKS:
    setattr(Recorder, _hook, _recording(_hook))


def test_hook_sequence_and_log_keys_match_keras():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2, activation="softmax")])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    x, y = X[:10], np.array([0, 1] * 5)
    events = []
    model.fit(x, y, epochs=2, batch_size=4, validation_data=(x[:6], y[:6]),
              callbacks=[Recorder(events)], verbose=0)
    events.append("--evaluate")
    model.evaluate(x, y, batch_size=5, callbacks=[Recorder(events)], verbose=0)
    events.append("--predict")
    model.predict(x, batch_size=5, callbacks=[Recorder(events)], verbose=0)
    assert events == KERAS_HOOK_SEQUENCE


def regression_model(lr=0.1, optimizer="sgd", metrics=None):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    opt = keras.optimizers.SGD(lr) if optimizer == "sgd" else keras.optimizers.Adam(lr)
    model.compile(optimizer=opt, loss="mse", metrics=metrics)
    return model


# ------------------------------------------------------ ReduceLROnPlateau
# Keras 3.15.1: ReduceLROnPlateau(factor=0.5, patience=2, cooldown=1,
# min_lr=0.02) on SGD(0.1), fed these val_loss values: logs["learning_rate"]
# at each epoch end, then the optimizer's rate at the end.
PLATEAU_VALUES = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85]
KERAS_PLATEAU_RATES = [0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.025, 0.025, 0.02,
                       0.02, 0.02]


def test_reduce_lr_on_plateau_follows_keras():
    model = regression_model()
    callback = callbacks.ReduceLROnPlateau(factor=0.5, patience=2, cooldown=1,
                                           min_lr=0.02)
    callback.set_model(model)
    callback.on_train_begin()
    rates = []
    for epoch, value in enumerate(PLATEAU_VALUES):
        logs = {"val_loss": value}
        callback.on_epoch_end(epoch, logs)
        rates.append(round(logs["learning_rate"], 6))
    rates.append(round(float(np.asarray(model.optimizer.learning_rate)), 6))
    assert rates == KERAS_PLATEAU_RATES


def test_reduce_lr_on_plateau_reaches_the_traced_step_and_the_history():
    model = regression_model(lr=0.1)
    y = X[:, :1]
    history = model.fit(X, y, epochs=3, batch_size=4, verbose=0, callbacks=[
        callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0,
                                    min_delta=1e9)])  # never "improves" enough
    # Keras 3.15.1: the history has loss then learning_rate, the rate logged
    # before that epoch's reduction; the first epoch always "improves"
    assert list(history.history) == ["loss", "learning_rate"]
    assert history.history["learning_rate"] == pytest.approx([0.1, 0.1, 0.05])
    assert float(np.asarray(model.optimizer.learning_rate)) == pytest.approx(0.025)


def test_reduce_lr_on_plateau_errors_and_warnings():
    with pytest.raises(ValueError, match="does not support a factor >= 1.0"):
        callbacks.ReduceLROnPlateau(factor=1.0)
    callback = callbacks.ReduceLROnPlateau()  # val_loss, without validation
    callback.set_model(regression_model())
    with pytest.warns(UserWarning, match="`val_loss` which is not available. "
                                         "Available metrics are: loss,learning_rate"):
        callback.on_epoch_end(0, {"loss": 1.0})


# ------------------------------------------------------- ModelCheckpoint
def test_model_checkpoint_by_batches_names_files_as_keras(tmp_path):
    model = regression_model()
    path = tmp_path / "m-{epoch:02d}-{batch}.weights.h5"
    model.fit(X, X[:, :1], epochs=2, batch_size=4, verbose=0, shuffle=False,
              callbacks=[callbacks.ModelCheckpoint(path, save_weights_only=True,
                                                   save_freq=2)])
    # Keras 3.15.1: 3 batches per epoch, a save every 2 batches
    assert sorted(os.listdir(tmp_path)) == [
        "m-01-2.weights.h5", "m-02-1.weights.h5", "m-02-3.weights.h5"]
    other = tmp_path / "by5"
    model.fit(X, X[:, :1], epochs=3, batch_size=4, verbose=0, callbacks=[
        callbacks.ModelCheckpoint(other / "e{epoch}.keras", save_freq=5)])
    assert sorted(os.listdir(other)) == ["e2.keras"]  # Keras 3.15.1 too


def test_model_checkpoint_saves_the_best_epoch_with_its_val_loss(tmp_path):
    model = regression_model(lr=0.05)
    path = tmp_path / "best-{epoch}-{val_loss:.4f}.keras"
    checkpoint = callbacks.ModelCheckpoint(path, save_best_only=True)
    history = model.fit(X, X[:, :1], epochs=4, batch_size=4, verbose=0,
                        validation_split=0.25, callbacks=[checkpoint])
    val_losses = history.history["val_loss"]
    best_so_far = np.minimum.accumulate(val_losses)
    expected = sorted(f"best-{epoch + 1}-{value:.4f}.keras"
                      for epoch, value in enumerate(val_losses)
                      if epoch == 0 or value < best_so_far[epoch - 1])
    assert sorted(os.listdir(tmp_path)) == expected
    assert checkpoint.best == min(val_losses)
    loaded = keras.saving.load_model(tmp_path / expected[-1])
    assert loaded.count_params() == model.count_params()


def test_model_checkpoint_errors():
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        callbacks.ModelCheckpoint("m.keras", save_freq="batch")
    model = regression_model()
    checkpoint = callbacks.ModelCheckpoint("m-{val_accuracy}.keras")
    checkpoint.set_model(model)
    with pytest.raises(KeyError, match="Failed to format this callback filepath"):
        checkpoint.on_epoch_end(0, {"loss": 1.0})


# ------------------------------------------------------------- CSVLogger
def test_csv_logger_writes_keras_columns(tmp_path):
    model = regression_model(metrics=["mae"])
    path = tmp_path / "log.csv"
    history = model.fit(X, X[:, :1], epochs=2, batch_size=4, verbose=0, callbacks=[
        callbacks.CSVLogger(path),
        callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5)])
    with open(path) as f:
        rows = list(csv.reader(f))
    # Keras 3.15.1: the logger comes first, so it sees no learning_rate, and
    # adds val_ columns for a validation that never came
    assert rows[0] == ["epoch", "loss", "mae", "val_loss", "val_mae"]
    assert [row[0] for row in rows[1:]] == ["0", "1"]
    assert [float(row[1]) for row in rows[1:]] == pytest.approx(history.history["loss"])
    assert [row[3] for row in rows[1:]] == ["NA", "NA"]
    assert history.history["learning_rate"] == pytest.approx([0.05, 0.025])


def test_csv_logger_separator_validation_and_append(tmp_path):
    model = regression_model(metrics=["mae"])
    path = tmp_path / "log.csv"
    model.fit(X, X[:, :1], epochs=1, verbose=0, validation_split=0.25,
              callbacks=[callbacks.CSVLogger(path, separator=";")])
    model.fit(X, X[:, :1], epochs=2, verbose=0, validation_split=0.25,
              callbacks=[callbacks.CSVLogger(path, separator=";", append=True)])
    lines = path.read_text().splitlines()
    assert lines[0] == "epoch;loss;mae;val_loss;val_mae"  # Keras 3.15.1 too
    assert len(lines) == 4 and [line.split(";")[0] for line in lines[1:]] == \
        ["0", "0", "1"]


# ------------------------------------------------------ BackupAndRestore
def backup_metadata(folder):
    """The metadata of the backup in ``folder``: what Keras 3.15.1 writes to
    ``training_metadata.json``, kerasmini keeps in the one archive
    ``latest.backup.zip`` beside the weights (a deliberate difference: one
    atomic file, see test_backup_and_restore.py)."""
    with zipfile.ZipFile(folder / "latest.backup.zip") as archive:
        return json.loads(archive.read("training_metadata.json"))


class Interrupt(callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 3:
            raise RuntimeError("Interrupting!")


def test_backup_and_restore_resumes_as_if_never_interrupted(tmp_path):
    y = X[:, :1] * 2
    reference = regression_model(0.05, "adam")
    losses = reference.fit(X, y, epochs=6, batch_size=4, shuffle=False,
                           verbose=0).history["loss"]

    model = regression_model(0.05, "adam")
    backup = callbacks.BackupAndRestore(tmp_path / "backup")
    with pytest.raises(RuntimeError, match="Interrupting"):
        model.fit(X, y, epochs=6, batch_size=4, shuffle=False, verbose=0,
                  callbacks=[backup, Interrupt()])
    metadata = backup_metadata(tmp_path / "backup")
    assert metadata == {"epoch": 3, "batch": 0}  # Keras 3.15.1 writes the same
    model.set_weights([np.zeros_like(w) for w in model.get_weights()])  # lost
    history = model.fit(X, y, epochs=6, batch_size=4, shuffle=False, verbose=0,
                        callbacks=[backup])
    assert history.epoch == [3, 4, 5]
    np.testing.assert_allclose(history.history["loss"], losses[3:], rtol=1e-6)
    for mine, theirs in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_array_equal(mine, theirs)
    assert int(model.optimizer.iterations.numpy()) == 18  # Adam's state restored
    assert not (tmp_path / "backup").exists()  # deleted after a complete fit
    # a later fit starts at epoch 0 again. A deliberate difference: Keras
    # 3.15.1 never clears `model._initial_epoch`, so there the same model's
    # next fit would start at epoch 3 again (here: no epoch at all)
    assert model.fit(X, y, epochs=2, verbose=0).epoch == [0, 1]


def test_backup_and_restore_by_batches_restarts_the_epoch_as_keras(tmp_path):
    y = X[:, :1] * 2
    model = regression_model(0.05, "adam")
    backup = callbacks.BackupAndRestore(tmp_path / "b", save_freq=2,
                                        delete_checkpoint=False)
    with pytest.raises(RuntimeError):
        model.fit(X, y, epochs=6, batch_size=4, shuffle=False, verbose=0,
                  callbacks=[backup, Interrupt()])
    # Keras 3.15.1: the last save came after batch 1 of epoch 2 (index 2)
    assert backup_metadata(tmp_path / "b") == {"epoch": 2, "batch": 1}
    history = model.fit(X, y, epochs=6, batch_size=4, shuffle=False, verbose=0,
                        callbacks=[backup])
    assert history.epoch == [2, 3, 4, 5]
    assert int(model.optimizer.iterations.numpy()) == 20  # as in Keras 3.15.1
    assert (tmp_path / "b" / "latest.backup.zip").exists()


def test_backup_and_restore_errors(tmp_path):
    with pytest.raises(ValueError, match="Empty `backup_dir` argument passed"):
        callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="Expected either 'epoch' or an integer"):
        callbacks.BackupAndRestore("dir", save_freq="batch")
    # an unbuilt model trains (nothing to restore yet), as in Keras 3.15.1 ...
    model = keras.Sequential([layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    backup = callbacks.BackupAndRestore(tmp_path / "b", delete_checkpoint=False)
    model.fit(X, X[:, :1], epochs=2, verbose=0, callbacks=[backup])
    assert (tmp_path / "b" / "latest.backup.zip").exists()
    # ... but an unbuilt model cannot take a backup in: kerasmini builds a
    # model on its first step, Keras before on_train_begin
    fresh = keras.Sequential([layers.Dense(1)])
    fresh.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="must be built before you call `fit\\(\\)`"):
        fresh.fit(X, X[:, :1], verbose=0, callbacks=[backup])


# ----------------------------------------- TerminateOnNaN, LambdaCallback
def test_terminate_on_nan_and_lambda_callback_in_fit(capsys):
    model = regression_model(lr=1e30)  # diverges to inf/nan
    ends = []
    history = model.fit(X * 1e10, X[:, :1], epochs=5, batch_size=4, verbose=0,
                        callbacks=[callbacks.TerminateOnNaN(), callbacks.LambdaCallback(
                            on_epoch_end=lambda epoch, logs: ends.append(epoch))])
    # Keras 3.15.1: the same message, one epoch, a nan loss in the history
    assert "Batch 1: Invalid loss, terminating training" in capsys.readouterr().out
    assert history.epoch == [0] and ends == [0]  # the epoch still ends
    assert list(history.history) == ["loss"] and np.isnan(history.history["loss"][0])


def test_learning_rate_scheduler_wants_a_float_as_keras():
    model = regression_model()
    for bad in (1, "0.1"):  # Keras 3.15.1 refuses an int too
        with pytest.raises(ValueError, match="should be a float. Got: "):
            model.fit(X, X[:, :1], verbose=0, callbacks=[
                callbacks.LearningRateScheduler(lambda epoch, lr, bad=bad: bad)])
    history = model.fit(X, X[:, :1], epochs=2, verbose=0, callbacks=[
        callbacks.LearningRateScheduler(lambda epoch: 0.01 * (epoch + 1))])
    assert history.history["learning_rate"] == pytest.approx([0.01, 0.02])
