"""The saving hooks a custom object can override, and the configs a model
writes: to_json/model_from_json, layers.serialize, build and compile configs,
save/load_own_variables, save/load_assets, subclass-as-functional."""

import json
import zipfile

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

X = np.random.default_rng(2).normal(size=(6, 3)).astype("float32")


@keras.saving.register_keras_serializable(package="hooks_test")
class Vocabulary(layers.Layer):
    """Keeps a word list in the archive's assets, not in the weights."""

    def __init__(self, words=(), **kwargs):
        super().__init__(**kwargs)
        self.words = list(words)

    def call(self, x):
        return x

    def get_config(self):
        return {**super().get_config(), "words": []}  # the words are assets

    def save_assets(self, folder):
        with open(f"{folder}/words.txt", "w") as file:
            file.write("\n".join(self.words))

    def load_assets(self, folder):
        with open(f"{folder}/words.txt") as file:
            self.words = file.read().split("\n")


@keras.saving.register_keras_serializable(package="hooks_test")
class Scale(layers.Layer):
    """Stores its weight under its own key, plus a counter that is no weight."""

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones")
        self.calls_seen = 0

    def call(self, x):
        return x * self.scale

    def save_own_variables(self, store):
        store["scale"] = self.scale.numpy()
        store["calls_seen"] = np.array(self.calls_seen)

    def load_own_variables(self, store):
        self.scale.assign(store["scale"])
        self.calls_seen = int(np.asarray(store["calls_seen"]))


def model_with_hooks():
    inputs = keras.Input((3,), name="x")
    vocab = Vocabulary(name="vocab")
    out = layers.Dense(2, name="head")(Scale(name="scale")(vocab(inputs)))
    model = keras.Model(inputs, out)
    vocab.words = ["alpha", "beta", "gamma"]
    model.get_layer("scale").scale.assign(np.array([1.0, 2.0, 3.0], "float32"))
    model.get_layer("scale").calls_seen = 7
    return model


def test_assets_go_to_the_layers_path_in_the_archive(tmp_path):
    model_with_hooks().save(tmp_path / "m.keras")
    names = zipfile.ZipFile(tmp_path / "m.keras").namelist()
    assert "assets/layers/vocabulary/words.txt" in names
    restored = keras.models.load_model(tmp_path / "m.keras")
    assert restored.get_layer("vocab").words == ["alpha", "beta", "gamma"]


def test_own_variables_round_trip_with_custom_keys(tmp_path):
    model = model_with_hooks()
    model.save(tmp_path / "m.keras")
    restored = keras.models.load_model(tmp_path / "m.keras")
    scale = restored.get_layer("scale")
    assert scale.scale.numpy().tolist() == [1.0, 2.0, 3.0]
    assert scale.calls_seen == 7
    np.testing.assert_allclose(restored.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def test_assets_with_a_dangerous_name_are_refused(tmp_path):
    model_with_hooks().save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as source, \
            zipfile.ZipFile(tmp_path / "bad.keras", "w") as target:
        for name in source.namelist():
            target.writestr(name, source.read(name))
        target.writestr("assets/../../escape.txt", "no")
    with pytest.raises(ValueError, match="refusing the archive member"):
        keras.models.load_model(tmp_path / "bad.keras")


def test_to_json_and_model_from_json_rebuild_the_architecture():
    model = model_with_hooks()
    text = model.to_json()
    config = json.loads(text)
    assert config["class_name"] == "Functional"
    assert [lay["name"] for lay in config["config"]["layers"]] == [
        "x", "vocab", "scale", "head"]
    copy = keras.models.model_from_json(text)
    assert [lay.name for lay in copy.layers] == [lay.name for lay in model.layers]
    assert copy.count_params() == model.count_params()
    assert json.loads(model.to_json(indent=2)) == config
    with pytest.raises(ValueError, match="expects the JSON text"):
        keras.models.model_from_json("not json")


def test_layers_serialize_and_deserialize():
    dense = layers.Dense(4, activation="relu", name="d")
    config = keras.layers.serialize(dense)
    assert config["module"] == "keras.layers" and config["class_name"] == "Dense"
    again = keras.layers.deserialize(config)
    assert (again.name, again.units, again.built) == ("d", 4, False)
    custom = keras.layers.deserialize(keras.layers.serialize(Vocabulary(name="v")))
    assert isinstance(custom, Vocabulary)


def test_a_subclassed_model_saved_built_comes_back_built(tmp_path):
    class Twice(keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = layers.Dense(units)

        def call(self, x):
            return self.dense(self.dense(x) if self.units == 3 else x)

        def get_config(self):
            return {"units": self.units, **super().get_config()}

    model = Twice()
    model(X)
    assert model.get_build_config() == {"input_shape": (6, 3)}
    model.save(tmp_path / "t.keras")
    restored = keras.models.load_model(tmp_path / "t.keras",
                                       custom_objects={"Twice": Twice})
    assert restored.built and len(restored.weights) == 2
    np.testing.assert_allclose(restored(X), model(X), rtol=1e-6)


def test_loaded_model_comes_back_compiled_or_not(tmp_path):
    model = model_with_hooks()
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse",
                  metrics=["mae", keras.metrics.RootMeanSquaredError()])
    model.fit(X, np.zeros((6, 2)), epochs=1, verbose=0)
    config = model.get_compile_config()
    assert {"optimizer", "loss", "metrics", "loss_weights"} <= set(config)
    model.save(tmp_path / "c.keras")
    restored = keras.models.load_model(tmp_path / "c.keras")
    assert restored.compiled
    assert type(restored.optimizer).__name__ == "Adam"
    assert int(restored.optimizer.iterations.numpy()) == 1
    logs = restored.evaluate(X, np.zeros((6, 2)), return_dict=True, verbose=0)
    assert sorted(logs) == ["loss", "mae", "root_mean_squared_error"]
    bare = keras.models.load_model(tmp_path / "c.keras", compile=False)
    assert not bare.compiled and bare.optimizer is None


def test_subclass_calling_super_with_inputs_and_outputs_is_functional(tmp_path):
    class Head(keras.Model):
        def __init__(self, units=2, **kwargs):
            inputs = keras.Input((3,), name="x")
            outputs = layers.Dense(units, name="out")(inputs)
            super().__init__(inputs=inputs, outputs=outputs, **kwargs)
            self.units = units

        def get_config(self):
            return {"units": self.units, "name": self.name}

    model = Head(units=4, name="head")
    assert isinstance(model, keras.Model) and isinstance(model, keras.models.Functional)
    assert type(model).__mro__[1] is keras.models.Functional
    assert [lay.name for lay in model.layers] == ["x", "out"]
    assert model.built and model.output_shape == (None, 4)
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(X, np.ones((6, 4)), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    model.save(tmp_path / "h.keras")
    restored = keras.models.load_model(tmp_path / "h.keras",
                                       custom_objects={"Head": Head})
    assert type(restored) is Head and restored.units == 4
    np.testing.assert_allclose(restored.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)
    with pytest.raises(ValueError, match="keyword arguments only"):
        keras.Model(3)
