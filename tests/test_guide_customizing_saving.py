"""The keras.io guide "Customizing saving and serialization" (Keras 3), in our
own scenarios: state that is not a weight saved by ``save_own_variables``,
files saved next to the weights by ``save_assets``, a lazily built layer
rebuilt from ``get_build_config`` before its weights are read, and a model
that comes back compiled, by default or through its own
``get_compile_config``/``compile_from_config``."""

import json
import zipfile

import h5py
import numpy as np

import kerasmini as keras
from kerasmini import layers, ops
from kerasmini.ops import convert_to_numpy as numpy

X = np.random.default_rng(5).normal(size=(12, 4)).astype("float32")

CALLS = []  # the order in which the loader calls the hooks


@keras.saving.register_keras_serializable(package="guide_custom")
class RunningCentre(layers.Layer):
    """Subtracts the mean of the batches it saw while training; the running
    mean and count are plain NumPy values, not variables, so they are saved
    by hand under keys of our choosing."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.count = 0
        self.mean = None

    def build(self, input_shape):
        self.mean = np.zeros(input_shape[-1], "float32")

    def call(self, inputs, training=False):
        if training:
            batch = numpy(inputs)
            total = self.count + len(batch)
            self.mean = (self.mean * self.count + batch.sum(axis=0)) / total
            self.count = total
        return inputs - self.mean

    def save_own_variables(self, store):
        CALLS.append("save_own_variables")
        store["running_mean"] = self.mean
        store["seen"] = np.array(self.count)

    def load_own_variables(self, store):
        CALLS.append("load_own_variables")
        self.mean = np.array(store["running_mean"])
        self.count = int(np.array(store["seen"]))


def test_state_that_is_not_a_weight_is_saved_under_its_own_keys(tmp_path):
    inputs = keras.Input((4,))
    centre = RunningCentre(name="centre")
    model = keras.Model(inputs, layers.Dense(2)(centre(inputs)))
    model(X[:6], training=True)
    model(X[6:], training=True)
    assert centre.count == 12
    np.testing.assert_allclose(centre.mean, X.mean(axis=0), rtol=1e-5)
    assert centre.weights == []  # nothing of it is a weight

    path = tmp_path / "centred.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        archive.extract("model.weights.h5", tmp_path)
    with h5py.File(tmp_path / "model.weights.h5") as file:
        stored = file["layers/running_centre/vars"]
        assert sorted(stored) == ["running_mean", "seen"]
        assert int(stored["seen"][()]) == 12

    loaded = keras.models.load_model(path)
    restored = loaded.get_layer("centre")
    assert restored.count == 12
    np.testing.assert_allclose(restored.mean, centre.mean, rtol=1e-6)
    np.testing.assert_allclose(numpy(loaded(X)), numpy(model(X)), rtol=1e-6)


@keras.saving.register_keras_serializable(package="guide_custom")
class WordIndex(layers.Layer):
    """Maps word ids to row numbers of a vocabulary kept in a text file."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.vocabulary = []

    def adapt(self, words):
        self.vocabulary = sorted(set(words))

    def call(self, ids):
        return ops.cast(ids, "float32") / max(len(self.vocabulary), 1)

    def save_assets(self, dir_path):
        with open(f"{dir_path}/vocabulary.txt", "w") as file:
            file.write("\n".join(self.vocabulary))

    def load_assets(self, dir_path):
        with open(f"{dir_path}/vocabulary.txt") as file:
            self.vocabulary = file.read().split("\n")


def test_files_saved_with_the_model_go_to_its_assets_folder(tmp_path):
    inputs = keras.Input((3,), dtype="int32")
    words = WordIndex(name="words")
    model = keras.Model(inputs, words(inputs))
    words.adapt("the cat sat on the mat".split())
    path = tmp_path / "words.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        assert "assets/layers/word_index/vocabulary.txt" in archive.namelist()
        text = archive.read("assets/layers/word_index/vocabulary.txt").decode()
    assert text.split("\n") == ["cat", "mat", "on", "sat", "the"]

    loaded = keras.models.load_model(path)
    assert loaded.get_layer("words").vocabulary == ["cat", "mat", "on", "sat", "the"]
    ids = np.array([[0, 1, 4]], "int32")
    np.testing.assert_allclose(numpy(loaded(ids)), numpy(model(ids)))


@keras.saving.register_keras_serializable(package="guide_custom")
class Widen(layers.Layer):
    """Creates a kernel from the input width it first meets; its build config
    also remembers how many times wider the output is."""

    def __init__(self, factor=2, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        CALLS.append("build")
        width = input_shape[-1]
        self.kernel = self.add_weight(shape=(width, width * self.factor),
                                      initializer="glorot_uniform", name="kernel")

    def call(self, inputs):
        return ops.matmul(inputs, self.kernel)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}

    def get_build_config(self):
        return {"input_shape": (None, self.kernel.shape[0]),
                "output_width": self.kernel.shape[1]}

    def build_from_config(self, config):
        CALLS.append("build_from_config")
        self.build(config["input_shape"])
        assert self.kernel.shape[1] == config["output_width"]


def test_a_lazily_built_layer_is_rebuilt_before_its_weights_are_read(tmp_path):
    model = keras.Sequential([Widen(factor=3, name="widen")])
    model(X)  # builds: kernel (4, 12)
    config = model.layers[0].get_build_config()
    assert config == {"input_shape": (None, 4), "output_width": 12}

    path = tmp_path / "widen.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        saved = json.loads(archive.read("config.json"))
    layer_config, = [layer for layer in saved["config"]["layers"]
                     if layer["class_name"] == "Widen"]
    assert layer_config["build_config"]["output_width"] == 12

    CALLS.clear()
    loaded = keras.models.load_model(path)
    assert CALLS[:2] == ["build_from_config", "build"]
    assert tuple(loaded.layers[0].kernel.shape) == (4, 12)
    np.testing.assert_allclose(numpy(loaded(X)), numpy(model(X)), rtol=1e-6)


def test_a_loaded_model_comes_back_compiled(tmp_path):
    keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((4,)), layers.Dense(3), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.05, momentum=0.5),
                  loss="mse", metrics=["mae"])
    y = X @ np.arange(1, 5, dtype="float32")[:, None]
    model.fit(X, y, epochs=3, verbose=0)
    compile_config = model.get_compile_config()
    assert {"optimizer", "loss", "metrics"} <= set(compile_config)

    model.save(tmp_path / "compiled.keras")
    loaded = keras.models.load_model(tmp_path / "compiled.keras")
    assert loaded.compiled
    assert type(loaded.optimizer).__name__ == "SGD"
    assert numpy(loaded.optimizer.learning_rate) == np.float32(0.05)
    assert loaded.optimizer.momentum == 0.5
    assert loaded.evaluate(X, y, return_dict=True, verbose=0) == \
        model.evaluate(X, y, return_dict=True, verbose=0)
    before = loaded.evaluate(X, y, verbose=0)[0]
    loaded.fit(X, y, epochs=3, verbose=0)
    assert loaded.evaluate(X, y, verbose=0)[0] < before


@keras.saving.register_keras_serializable(package="guide_custom")
class Regressor(keras.Model):
    """Remembers only its learning rate when saved, and rebuilds its own
    optimizer and loss from it when loaded."""

    def __init__(self, units=1, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.head = layers.Dense(units)

    def call(self, inputs):
        return self.head(inputs)

    def get_config(self):
        return {**super().get_config(), "units": self.units}

    def compile(self, learning_rate=0.01, **kwargs):
        self.learning_rate = learning_rate
        super().compile(optimizer=keras.optimizers.Adam(learning_rate),
                        loss="mean_absolute_error", **kwargs)

    def get_compile_config(self):
        return {"learning_rate": self.learning_rate}

    def compile_from_config(self, config):
        CALLS.append("compile_from_config")
        self.compile(**config)


def test_a_model_chooses_what_its_compile_config_holds(tmp_path):
    model = Regressor(name="regressor")
    model.compile(learning_rate=0.02)
    model.fit(X, X[:, :1], epochs=1, verbose=0)
    model.save(tmp_path / "regressor.keras")
    with zipfile.ZipFile(tmp_path / "regressor.keras") as archive:
        saved = json.loads(archive.read("config.json"))
    assert saved["compile_config"] == {"learning_rate": 0.02}

    CALLS.clear()
    loaded = keras.models.load_model(tmp_path / "regressor.keras")
    assert "compile_from_config" in CALLS
    assert isinstance(loaded, Regressor) and loaded.compiled
    assert loaded.learning_rate == 0.02
    assert numpy(loaded.optimizer.learning_rate) == np.float32(0.02)
    np.testing.assert_allclose(numpy(loaded(X)), numpy(model(X)), rtol=1e-6)
