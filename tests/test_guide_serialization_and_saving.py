"""The keras.io guide "Save, serialize, and export models" (Keras 3), in our
own scenarios on the 8x8 digits: the whole model in one ``.keras`` file and
what is inside it, custom objects found by registration, by
``custom_objects`` or by a scope, configs of layers and models (get_config,
from_config, JSON, cloning), weights alone (in memory, in ``.weights.h5``,
between models of the same shape) and export, which a NumPy library refuses
with a clear error."""

import json
import zipfile

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops
from kerasmini.ops import convert_to_numpy as numpy

(X_TRAIN, Y_TRAIN), _ = keras.datasets.digits.load_data()
X = X_TRAIN.reshape(-1, 64).astype("float32") / 255.0
Y = Y_TRAIN


def trained_classifier(seed=0):
    keras.utils.set_random_seed(seed)
    inputs = keras.Input(shape=(64,), name="pixels")
    x = layers.Dense(24, activation="relu", name="hidden")(inputs)
    outputs = layers.Dense(10, activation="softmax", name="probabilities")(x)
    model = keras.Model(inputs, outputs, name="digit_reader")
    model.compile(optimizer=keras.optimizers.Adam(5e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(X, Y, batch_size=64, epochs=2, verbose=0)
    return model


def test_one_keras_file_holds_config_weights_and_optimizer(tmp_path):
    model = trained_classifier()
    path = tmp_path / "reader.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        config = json.loads(archive.read("config.json"))
        metadata = json.loads(archive.read("metadata.json"))
    assert {"config.json", "metadata.json", "model.weights.h5"} <= names
    assert config["class_name"] == "Functional"
    assert config["config"]["name"] == "digit_reader"
    assert "compile_config" in config and "keras_version" in metadata

    loaded = keras.models.load_model(path)
    assert loaded.name == "digit_reader"
    np.testing.assert_allclose(loaded.predict(X[:20], verbose=0),
                               model.predict(X[:20], verbose=0), rtol=1e-6)
    # the optimizer comes back with its state: training simply continues
    assert int(loaded.optimizer.iterations.numpy()) == \
        int(model.optimizer.iterations.numpy())
    before = loaded.evaluate(X, Y, verbose=0)[0]
    loaded.fit(X, Y, batch_size=64, epochs=2, verbose=0)
    assert loaded.evaluate(X, Y, verbose=0)[0] < before


@keras.saving.register_keras_serializable(package="guide_saving")
class Rescale(layers.Layer):
    """Multiplies by a fixed factor given to the constructor."""

    def __init__(self, factor=1.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, inputs):
        return inputs * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.saving.register_keras_serializable(package="guide_saving",
                                          name="soft_relu")
def soft_relu(x):
    return ops.log(1.0 + ops.exp(x))


class Unregistered(layers.Layer):
    """Adds one; known to no registry."""

    def call(self, inputs):
        return inputs + 1.0


def model_with_custom_pieces():
    inputs = keras.Input(shape=(64,))
    x = Rescale(factor=2.0, name="rescale")(inputs)
    x = layers.Dense(8, activation=soft_relu, name="soft")(x)
    return keras.Model(inputs, Unregistered(name="plus_one")(x))


def test_registered_objects_are_found_by_their_package_name(tmp_path):
    assert keras.saving.get_registered_name(Rescale) == "guide_saving>Rescale"
    assert keras.saving.get_registered_object("guide_saving>soft_relu") is soft_relu
    config = keras.saving.serialize_keras_object(Rescale(factor=3.0))
    assert config["registered_name"] == "guide_saving>Rescale"
    assert config["config"]["factor"] == 3.0
    again = keras.saving.deserialize_keras_object(config)
    assert isinstance(again, Rescale) and again.factor == 3.0


def test_an_unregistered_class_needs_custom_objects_or_a_scope(tmp_path):
    model = model_with_custom_pieces()
    path = tmp_path / "custom.keras"
    model.save(path)
    with pytest.raises((TypeError, ValueError), match="Unregistered"):
        keras.models.load_model(path)

    by_argument = keras.models.load_model(
        path, custom_objects={"Unregistered": Unregistered})
    with keras.saving.custom_object_scope({"Unregistered": Unregistered}):
        by_scope = keras.models.load_model(path)
    expected = numpy(model(X[:4]))
    for loaded in (by_argument, by_scope):
        assert loaded.get_layer("rescale").factor == 2.0
        assert loaded.get_layer("soft").activation is soft_relu
        np.testing.assert_allclose(numpy(loaded(X[:4])), expected, rtol=1e-6)


def test_configs_rebuild_layers_and_models_without_weights():
    dense = layers.Dense(5, activation="tanh", name="five")
    config = dense.get_config()
    assert {"name", "units", "activation", "use_bias", "kernel_initializer",
            "trainable", "dtype"} <= set(config)
    copy = layers.Dense.from_config(config)
    assert (copy.name, copy.units, copy.built) == ("five", 5, False)

    stack = keras.Sequential([keras.Input((64,)), layers.Dense(6), layers.Dense(3)])
    stack_copy = keras.Sequential.from_config(stack.get_config())
    assert [lay.name for lay in stack_copy.layers] == \
        [lay.name for lay in stack.layers]

    model = trained_classifier()
    rebuilt = keras.Model.from_config(model.get_config())
    from_json = keras.models.model_from_json(model.to_json())
    for other in (rebuilt, from_json):
        assert [lay.name for lay in other.layers] == [lay.name for lay in model.layers]
        assert other.count_params() == model.count_params()
        # same architecture, fresh weights
        assert not np.allclose(numpy(other.get_layer("hidden").kernel),
                               numpy(model.get_layer("hidden").kernel))


def test_clone_model_copies_the_architecture_not_the_weights():
    model = trained_classifier()
    clone = keras.models.clone_model(model)
    assert clone is not model and clone.count_params() == model.count_params()
    assert clone.get_layer("hidden") is not model.get_layer("hidden")
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(numpy(clone(X[:5])), numpy(model(X[:5])), rtol=1e-6)


def test_weights_move_in_memory_between_models_of_the_same_shape():
    model = trained_classifier()
    weights = model.get_weights()
    assert [w.shape for w in weights] == [(64, 24), (24,), (24, 10), (10,)]

    class SameShape(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = layers.Dense(24, activation="relu")
            self.out = layers.Dense(10, activation="softmax")

        def call(self, x):
            return self.out(self.hidden(x))

    subclassed = SameShape()
    subclassed(X[:1])
    subclassed.set_weights(weights)
    np.testing.assert_allclose(numpy(subclassed(X[:7])), numpy(model(X[:7])),
                               rtol=1e-6)

    # a frozen layer's weights move the same way: order, not trainability, counts
    frozen = trained_classifier(seed=9)
    frozen.get_layer("hidden").trainable = False
    frozen.set_weights(weights)
    np.testing.assert_allclose(numpy(frozen(X[:3])), numpy(model(X[:3])), rtol=1e-6)


def test_weights_file_alone(tmp_path):
    model = trained_classifier()
    path = tmp_path / "reader.weights.h5"
    model.save_weights(path)
    fresh = trained_classifier(seed=3)
    assert not np.allclose(numpy(fresh(X[:5])), numpy(model(X[:5])))
    fresh.load_weights(path)
    np.testing.assert_allclose(numpy(fresh(X[:5])), numpy(model(X[:5])), rtol=1e-6)

    with pytest.raises(ValueError):
        model.save_weights(tmp_path / "reader.h5")  # must end in .weights.h5


def test_weights_go_to_the_layer_at_the_same_position(tmp_path):
    # a weights file is matched layer by layer, by position, not by name
    model = trained_classifier()
    path = tmp_path / "reader.weights.h5"
    model.save_weights(path)

    inputs = keras.Input(shape=(64,))
    trunk_only = keras.Model(inputs, layers.Dense(24, name="renamed")(inputs))
    trunk_only.load_weights(path)  # the file's extra head is left unread
    np.testing.assert_array_equal(numpy(trunk_only.get_layer("renamed").kernel),
                                  numpy(model.get_layer("hidden").kernel))

    inputs = keras.Input(shape=(64,))
    x = layers.Dense(3)(layers.Dense(10)(layers.Dense(24)(inputs)))
    with pytest.raises(ValueError, match="expected 2 variables"):
        keras.Model(inputs, x).load_weights(path)  # a layer finds nothing


@pytest.mark.skipif(keras.__name__ != "kerasmini",
                    reason="real Keras exports SavedModels with TensorFlow")
def test_export_for_serving_is_refused_with_a_reason(tmp_path):
    model = trained_classifier()
    with pytest.raises(NotImplementedError, match="NumPy-only"):
        model.export(tmp_path / "serving")
    with pytest.raises(NotImplementedError, match="onnx"):
        model.export(tmp_path / "model.onnx", format="onnx")
