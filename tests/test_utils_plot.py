"""kerasmini.utils.plot: Graphviz drawings of models, nodes and classes."""

import re
import shutil

import pytest

import kerasmini as keras
from kerasmini.book.diagrams import plot_classes, plot_nodes
from kerasmini.utils import plot as plot_module
from kerasmini.utils.plot import plot_model

needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed")


@pytest.fixture(autouse=True)
def fresh_session():
    keras.backend.clear_session()


def small_functional():
    x = keras.Input(shape=(4,), name="features")
    h = keras.layers.Dense(8, activation="relu", name="hidden")(x)
    y = keras.layers.Dense(2, name="logits")(h)
    return keras.Model(x, y)


def shared_layer_model():
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(3,), name="b")
    shared = keras.layers.Dense(2, name="shared")
    out = keras.layers.Add(name="add")([shared(a), shared(b)])
    return keras.Model([a, b], out)


@needs_dot
def test_plot_model_dot_source_has_layer_names_and_shapes():
    dot = plot_model(small_functional(), show_shapes=True)
    source = dot.source
    for name in ("features", "hidden", "logits"):
        assert name in source
    assert "(None, 4)" in source and "(None, 8)" in source and "(None, 2)" in source
    assert source.count("->") == 2


@needs_dot
def test_plot_model_is_deterministic_and_has_no_addresses():
    first = plot_model(small_functional(), show_shapes=True).source
    keras.backend.clear_session()
    second = plot_model(small_functional(), show_shapes=True).source
    assert first == second
    assert not re.search(r"\b\d{9,}\b", first)  # no id() numbers as node ids


@needs_dot
def test_plot_model_repr_describes_the_drawing():
    text = repr(plot_model(small_functional()))
    assert text.splitlines()[0] == "plot_model(functional): 3 boxes, 2 arrows"
    assert "  features -> hidden" in text and "  hidden -> logits" in text
    assert "0x" not in text


@needs_dot
def test_plot_model_sequential_is_a_chain_without_input_layer():
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(2,), name="one"),
                              keras.layers.Dense(1, name="two")])
    text = repr(plot_model(model))
    assert text.splitlines()[1:] == ["  one -> two"]
    assert "input_layer" not in plot_model(model).source


@needs_dot
def test_plot_model_options_add_rows():
    model = small_functional()
    source = plot_model(model, show_dtype=True, show_layer_activations=True,
                        show_trainable=True).source
    assert "float32" in source and "relu" in source and "Trainable" in source
    assert "features" not in plot_model(model, show_layer_names=False).source


@needs_dot
def test_plot_model_unbuilt_model_raises():
    with pytest.raises(ValueError, match="not yet been built"):
        plot_model(keras.Sequential([keras.layers.Dense(2)]))


@needs_dot
def test_plot_model_to_file(tmp_path):
    plot_model(small_functional(), to_file=tmp_path / "model.svg")
    assert (tmp_path / "model.svg").read_text().lstrip().startswith("<?xml")
    plot_model(small_functional(), to_file=tmp_path / "model.dot")
    assert "digraph" in (tmp_path / "model.dot").read_text()


@needs_dot
def test_plot_model_expand_nested():
    inner = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), name="inner_dense")],
                             name="inner")
    x = keras.Input(shape=(4,), name="x")
    y = keras.layers.Dense(1, name="head")(inner(x))
    outer = keras.Model(x, y)
    flat = plot_model(outer).source
    nested = plot_model(outer, expand_nested=True).source
    assert "inner_dense" not in flat
    assert "cluster_" in nested and "inner_dense" in nested


@needs_dot
def test_plot_nodes_one_node_per_call_of_a_shared_layer():
    dot = plot_nodes(shared_layer_model())
    source = dot.source
    assert source.count("Node #") == 5  # a, b, shared twice, add
    assert "node_index=0" in source and "node_index=1" in source
    text = repr(dot)
    assert "shared node_index=0" in text and "shared node_index=1" in text
    assert text.splitlines()[0] == "plot_nodes(functional): 4 layers, 5 nodes, 5 tensors"


@needs_dot
def test_plot_nodes_from_tensors():
    x = keras.Input(shape=(2,), name="x")
    y = keras.layers.Dense(1, name="d")(x)
    dot = plot_nodes(y)
    assert "tensor_index=0" in dot.source
    with pytest.raises(ValueError, match="KerasTensors"):
        plot_nodes([1.0])


@needs_dot
def test_plot_classes_sequential_chain_in_order():
    dot = plot_classes(keras.Sequential)
    first = repr(dot).splitlines()[0]
    assert first == ("plot_classes(Sequential): Sequential -> Functional -> Model "
                     "-> Trainer -> Layer -> Module -> Operation")
    source = dot.source
    positions = [source.index(f"<b>{name}</b>") for name in
                 ("Sequential", "Functional", "Model", "Layer", "Module")]
    assert positions == sorted(positions)
    assert "add()" in source and "add_weight()" in source
    assert "object" not in first


@needs_dot
def test_plot_classes_lists_only_what_each_class_defines():
    text = repr(plot_classes(keras.Sequential))
    sequential = next(line for line in text.splitlines()
                      if line.startswith("  Sequential"))
    assert "add()" in sequential and "add_weight" not in sequential
    assert "build()*" in sequential  # overrides Layer.build


def test_missing_dot_gives_one_clear_error(monkeypatch):
    monkeypatch.setattr(plot_module.shutil, "which", lambda name: None)
    for draw in (lambda: plot_model(small_functional()),
                 lambda: plot_nodes(small_functional()),
                 lambda: plot_classes(keras.Layer)):
        with pytest.raises(OSError, match="Graphviz's `dot` program was not found") as info:
            draw()
        message = str(info.value)
        assert "apt-get install graphviz" in message
        assert "brew install graphviz" in message
        assert "https://graphviz.org/download/" in message


def test_missing_dot_on_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(OSError, match="conda install graphviz"):
        plot_classes(keras.Layer)


def test_import_kerasmini_does_not_import_drawing_libraries():
    import subprocess
    import sys

    code = ("import kerasmini, sys; print([m for m in ('graphviz', 'matplotlib', "
            "'pygments') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"
