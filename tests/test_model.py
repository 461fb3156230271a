"""Model: the functional entry point and subclassed models."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.models.functional import Functional
from kerasmini.trainers.trainer import Trainer


class MyModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = layers.Dense(4, name="hidden")
        self.blocks = [layers.Dense(3), {"head": layers.Dense(1, name="head")}]
        self.drop = layers.Dropout(0.5)

    def call(self, x, training=None):
        x = self.blocks[0](self.hidden(x))
        return self.blocks[1]["head"](self.drop(x, training=training))


def test_class_chain_is_module_layer_model_functional_sequential():
    # Keras 2's chain, with Keras 3's two second bases: Model(Trainer, Layer)
    # and Operation under Layer (a Layer is both a Module and an Operation)
    chain = [cls.__name__ for cls in keras.Sequential.__mro__]
    assert chain == ["Sequential", "Functional", "Model", "Trainer", "Layer",
                     "Module", "Operation", "object"]
    assert issubclass(keras.Layer, keras.Operation)
    assert keras.Model.__bases__ == (Trainer, keras.Layer)


def test_model_subclass_name_is_snake_case():
    assert [MyModel().name, MyModel().name] == ["my_model", "my_model_1"]


def test_model_subclass_is_not_functional():
    assert type(MyModel()) is MyModel and not isinstance(MyModel(), Functional)


def test_model_subclass_tracks_layers_in_attribute_order():
    assert [layer.name for layer in MyModel().layers] == [
        "hidden", "dense", "head", "dropout"]


def test_model_subclass_builds_on_first_call():
    model = MyModel()
    out = model(np.ones((2, 5)))
    assert out.shape == (2, 1) and model.built
    assert model.count_params() == 5 * 4 + 4 + 4 * 3 + 3 + 3 + 1


def test_model_subclass_weight_paths_under_model_name():
    model = MyModel()
    model(np.ones((1, 5)))
    assert [w.path for w in model.weights][:2] == ["my_model/hidden/kernel",
                                                   "my_model/hidden/bias"]


def test_model_subclass_build_with_shape():
    model = MyModel()
    model.build((None, 5))
    assert model.built and len(model.weights) == 6


def test_model_subclass_matches_numpy():
    model = MyModel()
    data = np.random.default_rng(0).normal(size=(3, 5)).astype("float32")
    model(data)
    k1, b1, k2, b2, k3, b3 = model.get_weights()
    expected = ((data @ k1 + b1) @ k2 + b2) @ k3 + b3
    np.testing.assert_allclose(model(data), expected, rtol=1e-5, atol=1e-6)


def test_model_subclass_training_forwarded():
    model = MyModel()
    data = np.ones((64, 5), "float32")
    assert np.array_equal(model(data), model(data))
    assert not np.array_equal(model(data, training=True), model(data, training=True))


def test_model_subclass_frozen_sublayer():
    model = MyModel()
    model(np.ones((1, 5)))
    model.hidden.trainable = False
    assert len(model.trainable_weights) == 4 and len(model.non_trainable_weights) == 2


def test_model_subclass_without_super_init_raises():
    class Broken(keras.Model):
        def __init__(self):
            self.dense = layers.Dense(1)

    with pytest.raises(RuntimeError, match="you forgot to call `super"):
        Broken()


def test_model_get_layer_on_subclass():
    assert MyModel().get_layer("head").name == "head"


def test_model_functional_positional_inputs_outputs():
    x = keras.Input((2,))
    model = keras.Model(x, layers.Dense(1)(x), name="net")
    assert isinstance(model, Functional) and model.name == "net"


def test_model_repr():
    assert repr(MyModel()) == "<MyModel name=my_model, built=False>"
