"""kerasmini.book.saving_diagrams: a .keras file drawn from the file, and the
order of loading drawn from what load_model did."""

import json
import sys
import zipfile

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.book.saving_diagrams import (
    STEPS,
    LoadingRecorder,
    plot_keras_archive,
    plot_loading_order,
)


def trained(tmp_path):
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)),
                              keras.layers.Dense(3, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(8, 4)
    model.fit(x, x[:, :1], epochs=1, verbose=0)
    path = tmp_path / "m.keras"
    model.save(path)
    return model, path


@keras.saving.register_keras_serializable(package="diagrams")
class Twice(keras.layers.Layer):
    def call(self, x):
        return x * 2


# ---------------------------------------------------------- the archive
def test_archive_lists_the_members_layers_and_every_array(tmp_path):
    model, path = trained(tmp_path)
    text = repr(plot_keras_archive(path))
    assert text.splitlines()[0] == "plot_keras_archive(m.keras): 3 members"
    assert "config.json: Sequential (module keras)" in text
    assert "layers: InputLayer input_layer, Dense dense, Dense dense_1" in text
    assert "compile_config: optimizer Adam, loss mse" in text
    for layer in model.layers:  # the arrays' shapes are the variables'
        shapes = ", ".join(f"{i} {tuple(v.shape)}" for i, v in enumerate(layer.weights))
        assert f"layers/{layer.name}/vars: {shapes}" in text
    count = len(model.optimizer.variables)
    assert f"optimizer/vars: {count} arrays, 0 to {count - 1}" in text


def test_archive_boxes_follow_the_file(tmp_path):
    _, path = trained(tmp_path)
    with zipfile.ZipFile(path) as archive:
        config = json.loads(archive.read("config.json"))
    source = plot_keras_archive(path).source
    assert source.count("->") == 3  # the archive to each of its members
    for layer in config["config"]["layers"]:
        assert layer["config"]["name"] in source
    assert "... </td>" in source or "...</td>" in source  # the optimizer folded


def test_archive_of_a_subclassed_model_shows_attribute_groups(tmp_path):
    class Net(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = keras.layers.Dense(2)
            self.twice = Twice()

        def call(self, x):
            return self.twice(self.hidden(x))

    net = Net(name="net")
    net(np.ones((1, 3), dtype="float32"))
    net.save(tmp_path / "net.keras")
    text = repr(plot_keras_archive(tmp_path / "net.keras"))
    assert f"config.json: Net (module {Net.__module__})" in text
    # a subclassed model's layers are saved under the attributes holding them
    assert "hidden/vars: 0 (3, 2), 1 (2,)" in text and "twice" not in text


# ------------------------------------------------------- loading, recorded
def test_recorder_sees_the_steps_in_keras_order(tmp_path):
    model, path = trained(tmp_path)
    with LoadingRecorder() as record:
        keras.saving.load_model(path)
    order = [step for step, _ in record.steps()]
    assert order[0] == "read" and order[-1] == "assets"
    first = {step: order.index(step) for step in dict(STEPS)}
    # classes before building, building before compiling, then the weights
    assert first["read"] < first["classes"] < first["build"] < first["compile"] \
        < first["weights"] < first["assets"]
    classes = [d for s, d in record.events if s == "classes"]
    assert classes[:3] == ["Sequential", "InputLayer", "Dense"]


def test_recorder_lists_every_variable_created_and_assigned(tmp_path):
    model, path = trained(tmp_path)
    with LoadingRecorder() as record:
        loaded = keras.saving.load_model(path)
    built = [d for s, d in record.events if s == "build"]
    assert built == [f"{v.path} {tuple(v.shape)}" for v in loaded.weights]
    assert [tuple(v.shape) for v in loaded.weights] == \
        [tuple(v.shape) for v in model.weights]
    assigned = [d for s, d in record.events if s == "weights"]
    assert assigned == ["sequential: none of its own", "dense: 2 arrays",
                        "dense_1: 2 arrays",
                        f"adam: {len(model.optimizer.variables)} arrays"]
    compiled = [d for s, d in record.events if s == "compile"]
    assert compiled == ["finds Adam",
                        f"adam: built, {len(model.optimizer.variables)} variables"]


def test_recorder_marks_registered_classes(tmp_path):
    model = keras.Sequential([keras.Input((2,)), Twice(name="twice")])
    model.save(tmp_path / "t.keras")
    with LoadingRecorder() as record:
        keras.saving.load_model(tmp_path / "t.keras")
    assert "Twice (registered)" in [d for s, d in record.events if s == "classes"]


def test_recorder_puts_back_the_previous_profiler_even_on_error(tmp_path):
    before = sys.getprofile()
    with pytest.raises(ValueError, match="File not found"):
        with LoadingRecorder():
            keras.saving.load_model(tmp_path / "missing.keras")
    assert sys.getprofile() is before


def test_loading_order_draws_one_box_per_step(tmp_path):
    _, path = trained(tmp_path)
    with LoadingRecorder() as record:
        keras.saving.load_model(path)
    dot = plot_loading_order(record)
    steps = record.steps()
    assert repr(dot).splitlines()[0] == f"plot_loading_order: {len(steps)} steps"
    assert dot.source.count("->") == len(steps) - 1
    assert "load the assets: none in this file" in repr(dot)
