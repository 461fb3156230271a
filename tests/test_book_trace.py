"""kerasmini.book.trace: the call tree of a piece of code."""

import sys

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.book.trace import Trace, trace


@pytest.fixture(autouse=True)
def fresh_session():
    keras.backend.clear_session()


def names_in_order(frames, wanted):
    """The method names of ``frames`` that are in ``wanted``, in call order."""
    return [f.name for f in frames if f.name in wanted]


def test_trace_first_dense_call_builds_then_calls():
    layer = keras.layers.Dense(3)
    with trace() as t:
        layer(np.ones((2, 4)))
    wanted = ["__call__", "_maybe_build", "build", "add_weight", "call"]
    seen = names_in_order(t.frames, wanted)
    # each in this order, add_weight twice (kernel and bias); `call` is
    # reached through Operation.__call__, as in Keras 3
    assert seen == ["__call__", "_maybe_build", "build", "add_weight",
                    "add_weight", "__call__", "call"]
    assert "Operation.__call__" in t.names
    assert "Dense.build" in t.names and "Dense.call" in t.names
    assert "Variable.__init__" in t.names


def test_trace_second_call_does_not_build():
    layer = keras.layers.Dense(3)
    layer(np.ones((2, 4)))
    with trace() as t:
        layer(np.ones((2, 4)))
    assert "build" not in [f.name for f in t.frames]
    assert "add_weight" not in [f.name for f in t.frames]
    assert "Dense.call" in t.names


def test_trace_depths_nest_under_their_callers():
    layer = keras.layers.Dense(3)
    with trace() as t:
        layer(np.ones((2, 4)))
    depth = {f.qualname: f.depth for f in t.frames}
    assert depth["Layer.__call__"] == 0
    assert depth["Layer._maybe_build"] == 1
    assert depth["Layer.add_weight"] > depth["Dense.build"] > depth["Layer._maybe_build"]


def test_trace_tree_format():
    layer = keras.layers.Dense(3)
    with trace() as t:
        layer(np.ones((2, 4)))
    lines = t.tree().splitlines()
    assert lines[0].startswith("Layer.__call__")
    assert lines[0].rstrip().endswith(")")
    assert "(kerasmini/engine/base_layer.py:" in lines[0]
    assert any(line.startswith("  Layer._maybe_build") for line in lines)
    assert repr(t) == t.tree()
    assert "(" not in t.tree(locations=False)


def test_trace_frames_have_relative_files():
    with trace() as t:
        keras.layers.Dense(3)(np.ones((1, 2)))
    for frame in t.frames:
        assert frame.file.startswith("kerasmini/"), frame
        assert frame.line > 0


def test_trace_records_user_subclass_methods():
    class Scale(keras.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return keras.ops.multiply(x, self.w)

    with trace() as t:
        Scale()(np.ones((1, 2)))
    assert "test_trace_records_user_subclass_methods.Scale.build" in t.names or \
        any(name.endswith("Scale.build") for name in t.names)
    assert any(name.endswith("Scale.call") for name in t.names)


def test_trace_skips_noise():
    with trace() as t:
        keras.layers.Dense(3)(np.ones((1, 2)))
    names = set(t.names)
    for noisy in ("flatten", "map_structure", "Layer.trainable", "Module.name"):
        assert noisy not in names
    assert not any("<" in name for name in names)


def test_trace_max_depth():
    with trace(max_depth=1) as t:
        keras.layers.Dense(3)(np.ones((1, 2)))
    assert {f.depth for f in t.frames} == {0}


def test_trace_include_pattern():
    with trace(include=["kerasmini.backend.variables",
                        "kerasmini.engine.base_layer:Layer.add_weight"]) as t:
        keras.layers.Dense(3)(np.ones((1, 2)))
    assert "Layer.add_weight" in t.names and "Variable.__init__" in t.names
    assert "Layer.__call__" not in t.names


def test_trace_restores_previous_profiler_after_exception():
    calls = []

    def outer(frame, event, arg):
        calls.append(event)

    sys.setprofile(outer)
    try:
        with pytest.raises(ValueError), trace():
            keras.layers.Dense(3)(np.ones(3))  # rank 1: input_spec error
        restored = sys.getprofile()
    finally:
        sys.setprofile(None)
    assert restored is outer


def test_trace_restores_none():
    assert sys.getprofile() is None
    with trace():
        pass
    assert sys.getprofile() is None


def test_trace_plot_is_deterministic():
    def run():
        keras.backend.clear_session()
        with trace() as t:
            keras.layers.Dense(3)(np.ones((1, 2)))
        return t.plot().source

    assert run() == run()
    assert "Dense.build" in run()


def test_trace_is_reachable_as_kerasmini_book_trace():
    import kerasmini.book
    import kerasmini.book.trace  # noqa: F401  (the submodule shadows the name)

    with kerasmini.book.trace() as t:
        keras.layers.Dense(3)(np.ones((1, 2)))
    assert isinstance(t, Trace)
    assert "Dense.call" in t.names
