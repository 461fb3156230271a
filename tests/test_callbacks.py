"""Callbacks: the order of the hooks, History, the progress line, early
stopping, NaN termination, learning-rate scheduling and checkpoints."""

import re

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import callbacks, layers
from kerasmini.callbacks.callback_list import _HOOKS

X = np.random.default_rng(0).normal(size=(20, 3)).astype("float32")
Y = (X[:, 0] > 0).astype("int64")


def model(lr=0.05, loss="sparse_categorical_crossentropy"):
    m = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(2, activation="softmax")])
    m.compile(optimizer=keras.optimizers.SGD(lr), loss=loss, metrics=["accuracy"])
    return m


class Recorder(callbacks.Callback):
    """Records every hook call as ``(hook,)`` or ``(hook, index)``."""

    def __init__(self):
        super().__init__()
        self.calls = []


def _recording(hook):
    def record(self, *args):
        index = args[:1] if "batch" in hook or "epoch" in hook else ()
        self.calls.append((hook,) + index)
    return record


for _hook in _HOOKS:
    setattr(Recorder, _hook, _recording(_hook))


def test_hooks_are_called_in_keras_order():
    recorder = Recorder()
    model().fit(X, Y, epochs=1, batch_size=10, validation_data=(X[:5], Y[:5]),
                callbacks=[recorder], verbose=0)
    assert recorder.calls == [
        ("on_train_begin",), ("on_epoch_begin", 0),
        ("on_train_batch_begin", 0), ("on_train_batch_end", 0),
        ("on_train_batch_begin", 1), ("on_train_batch_end", 1),
        ("on_test_begin",), ("on_test_batch_begin", 0), ("on_test_batch_end", 0),
        ("on_test_end",), ("on_epoch_end", 0), ("on_train_end",)]


def test_callbacks_get_model_and_params():
    recorder = callbacks.Callback()
    m = model()
    m.fit(X, Y, epochs=2, batch_size=8, callbacks=[recorder], verbose=0)
    assert recorder.model is m
    assert recorder.params == {"verbose": 0, "epochs": 2, "steps": 3}


def test_logs_reach_callbacks_as_sorted_floats():
    seen = []
    cb = callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: seen.append(logs))
    model().fit(X, Y, batch_size=20, callbacks=[cb], verbose=0)
    assert list(seen[0]) == ["accuracy", "loss"]
    assert all(type(v) is float for v in seen[0].values())


def test_on_batch_end_alias_is_called_for_training_batches():
    seen = []
    cb = callbacks.LambdaCallback(on_batch_end=lambda batch, logs: seen.append(batch))
    model().fit(X, Y, batch_size=10, callbacks=[cb], verbose=0)
    assert seen == [0, 1]


def test_progress_line_verbose_1(capsys):
    model().fit(X, Y, epochs=1, batch_size=10)
    out = capsys.readouterr().out
    assert "Epoch 1/" not in out  # only printed when epochs > 1
    assert re.fullmatch(r"2/2 ━{20} \d+s \d+m?u?s/step - accuracy: \d\.\d{4} - "
                        r"loss: \d\.\d{4}\n", out), out


def test_progress_line_verbose_2_with_validation(capsys):
    model().fit(X, Y, epochs=2, batch_size=10, validation_split=0.5, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    number = r"\d\.\d{4}(e[+-]\d\d)?"  # values below 1e-3 in e-notation
    assert re.fullmatch(rf"1/1 - \d+s - \d+m?u?s/step - accuracy: {number} - "
                        rf"loss: {number} - val_accuracy: {number} - "
                        rf"val_loss: {number}", lines[1]), lines[1]


def test_evaluate_and_predict_print_one_line_each(capsys):
    m = model()
    m.evaluate(X, Y)
    m.predict(X)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1/1 ━") and "loss:" in lines[0]
    assert lines[1].startswith("1/1 ━") and "loss" not in lines[1]


def test_verbose_0_prints_nothing(capsys):
    model().fit(X, Y, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""


def test_history_records_every_epoch():
    history = model().fit(X, Y, epochs=3, verbose=0)
    assert history.epoch == [0, 1, 2]
    assert len(history.history["loss"]) == 3


def test_early_stopping_stops_after_patience_and_restores_best_weights():
    m = model(lr=0.05)
    # validation loss increases from the first epoch: targets of the other class
    stopper = callbacks.EarlyStopping(patience=2, restore_best_weights=True)
    snapshots = callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: weights.append(m.get_weights()))
    weights = []
    history = m.fit(X, Y, epochs=20, validation_data=(X, 1 - Y),
                    callbacks=[snapshots, stopper], verbose=0)
    assert len(history.epoch) == 3  # best at epoch 0, then 2 epochs of patience
    assert stopper.stopped_epoch == 2 and stopper.best_epoch == 0
    for restored, best in zip(m.get_weights(), weights[0]):
        np.testing.assert_array_equal(restored, best)


def test_early_stopping_mode_auto_maximises_accuracy():
    assert callbacks.EarlyStopping(monitor="val_accuracy").monitor_op is np.greater
    assert callbacks.EarlyStopping().monitor_op is np.less


def test_early_stopping_warns_about_a_missing_metric():
    with pytest.warns(UserWarning, match="val_loss` which is not available"):
        model().fit(X, Y, callbacks=[callbacks.EarlyStopping()], verbose=0)


@pytest.mark.filterwarnings("ignore:overflow")
def test_terminate_on_nan_stops_at_the_first_bad_batch(capsys):
    m = model(lr=1e30, loss="mse")
    history = m.fit(X, np.eye(2)[Y] * 1e30, epochs=5, batch_size=5,
                    callbacks=[callbacks.TerminateOnNaN()], verbose=0)
    assert re.search(r"Batch \d: Invalid loss, terminating training", capsys.readouterr().out)
    assert len(history.epoch) == 1


@pytest.mark.filterwarnings("ignore:overflow")
def test_terminate_on_nan_can_raise():
    m = model(lr=1e30, loss="mse")
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at batch"):
        m.fit(X, np.eye(2)[Y] * 1e30, epochs=5, batch_size=5, verbose=0,
              callbacks=[callbacks.TerminateOnNaN(raise_error=True)])


def test_learning_rate_scheduler_reaches_the_traced_step():
    m = model(lr=0.1)
    scheduler = callbacks.LearningRateScheduler(lambda epoch, lr: 0.0 if epoch else lr)
    m.fit(X, Y, epochs=1, callbacks=[scheduler], verbose=0)
    before = m.get_weights()
    history = m.fit(X, Y, epochs=3, initial_epoch=1, callbacks=[scheduler], verbose=0)
    for w0, w1 in zip(before, m.get_weights()):
        np.testing.assert_array_equal(w0, w1)  # learning rate 0: nothing moves
    assert history.history["learning_rate"] == [0.0, 0.0]


def test_lambda_callback_rejects_unknown_hooks():
    with pytest.raises(ValueError, match="Unknown hook"):
        callbacks.LambdaCallback(on_epoch_finish=print)


def test_model_checkpoint_saves_weights_each_epoch(tmp_path):
    m = model()
    path = str(tmp_path / "ckpt-{epoch:02d}.weights.h5")
    m.fit(X, Y, epochs=2, verbose=0,
          callbacks=[callbacks.ModelCheckpoint(path, save_weights_only=True)])
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "ckpt-01.weights.h5", "ckpt-02.weights.h5"]
    fresh = model()
    fresh.load_weights(str(tmp_path / "ckpt-02.weights.h5"))
    for a, b in zip(fresh.get_weights(), m.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_model_checkpoint_save_best_only_keeps_improvements(tmp_path):
    m = model()
    path = str(tmp_path / "best.keras")
    checkpoint = callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True)
    m.fit(X, Y, epochs=2, callbacks=[checkpoint], verbose=0)
    assert (tmp_path / "best.keras").exists()
    assert checkpoint.best == pytest.approx(m.history.history["loss"][-1])


def test_model_checkpoint_checks_the_file_extension():
    with pytest.raises(ValueError, match=r"must end in `\.keras`"):
        callbacks.ModelCheckpoint("model.h5")
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        callbacks.ModelCheckpoint("model.keras", save_weights_only=True)
