"""Tests for kerasmini.book.fit_diagrams: hook recording and the two drawings."""

import numpy as np

import kerasmini as keras
from kerasmini.book.fit_diagrams import (
    HookRecorder,
    plot_hook_calls,
    plot_optimizer_slots,
)


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    model.compile(optimizer="adam", loss="mse")
    return model


def test_hook_recorder_sees_fit_in_order():
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 2), "float32")
    recorder = HookRecorder()
    _model().fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[recorder],
                 validation_data=(x, y))
    hooks = [hook for hook, _ in recorder.calls]
    assert hooks[:3] == ["on_train_begin", "on_epoch_begin", "on_train_batch_begin"]
    assert hooks[-2:] == ["on_epoch_end", "on_train_end"]
    assert hooks.index("on_test_end") < hooks.index("on_epoch_end")
    assert ("on_train_batch_end", 1) in recorder.calls


def test_plot_hook_calls_indents_by_nesting():
    calls = [("on_train_begin", None), ("on_epoch_begin", 0),
             ("on_train_batch_begin", 0), ("on_train_batch_end", 0),
             ("on_epoch_end", 0), ("on_train_end", None)]
    lines = repr(plot_hook_calls(calls)).splitlines()
    assert lines[0] == "plot_hook_calls: 6 calls"
    assert lines[3] == "      on_train_batch_begin(0)"
    assert lines[-1] == "  on_train_end"


def test_plot_hook_calls_closes_unfinished_boxes():
    dot = plot_hook_calls([("on_train_begin", None), ("on_epoch_begin", 0)])
    assert "cluster_1" in dot.source


def test_plot_optimizer_slots_pairs_slots_with_variables():
    model = _model()
    model.optimizer.build(model.trainable_variables)
    text = repr(plot_optimizer_slots(model.optimizer))
    assert "sequential/d/kernel (3, 2) -> momentum, velocity" in text
    assert "adam/iteration ()" in text


def test_plot_optimizer_slots_without_slots():
    w = keras.Variable(np.ones(2), name="w")
    sgd = keras.optimizers.SGD()
    sgd.apply_gradients([(np.ones(2, "float32"), w)])
    assert "w (2,) -> (no slots)" in repr(plot_optimizer_slots(sgd))
