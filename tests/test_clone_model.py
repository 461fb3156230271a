"""keras.models.clone_model: new layers, same architecture; clone_function,
input_tensors, shared layers, nested models, compiled models."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

X = np.random.default_rng(0).normal(size=(5, 4)).astype("float32")


def functional():
    keras.utils.set_random_seed(1)
    inputs = keras.Input((4,), name="features")
    shared = layers.Dense(4, name="shared")
    h = shared(shared(inputs))
    out = layers.Dense(2, activation="softmax", name="probs")(h)
    return keras.Model(inputs, out, name="net")


def test_functional_clone_has_new_layers_and_same_structure():
    model = functional()
    clone = keras.models.clone_model(model)
    assert type(clone).__name__ == "Functional" and clone.name == "net"
    assert [lay.name for lay in clone.layers] == [lay.name for lay in model.layers]
    assert all(a is not b for a, b in zip(clone.layers, model.layers))
    assert clone.count_params() == model.count_params()
    assert clone.get_layer("shared") is not model.get_layer("shared")
    # the shared layer is cloned once and still called twice
    assert len(clone.get_layer("shared")._inbound_nodes) == 2
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(X, verbose=0), model.predict(X, verbose=0),
                               rtol=1e-6)


def test_clone_weights_are_fresh():
    model = functional()
    clone = keras.models.clone_model(model)
    assert not np.allclose(clone.get_layer("probs").kernel.numpy(),
                           model.get_layer("probs").kernel.numpy())


def test_clone_function_can_change_or_share_layers():
    model = functional()

    def clone_function(layer):
        if layer.name == "probs":
            return layer  # share this one
        config = layer.get_config()
        config["name"] = config["name"] + "_copy"
        return layer.__class__.from_config(config)

    clone = keras.models.clone_model(model, clone_function=clone_function)
    assert [lay.name for lay in clone.layers] == ["features", "shared_copy", "probs"]
    assert clone.get_layer("probs") is model.get_layer("probs")


def test_input_tensors_build_the_clone_on_given_inputs():
    model = functional()
    new_input = keras.Input((4,), name="other")
    clone = keras.models.clone_model(model, input_tensors=new_input)
    assert clone.inputs[0] is new_input
    assert clone.layers[0].name == "other"
    with pytest.raises(ValueError, match="must be KerasTensors"):
        keras.models.clone_model(model, input_tensors=np.zeros((1, 4)))


def test_sequential_clone_keeps_its_input_and_names():
    model = keras.Sequential([keras.Input((4,), name="x"), layers.Dense(3, name="a"),
                              layers.Dense(1, name="b")], name="seq")
    clone = keras.models.clone_model(model)
    assert type(clone).__name__ == "Sequential" and clone.name == "seq"
    assert [lay.name for lay in clone.layers] == ["a", "b"]
    assert clone.input_shape == (None, 4) and clone.built
    new_input = keras.Input((4,))
    on_input = keras.models.clone_model(model, input_tensors=[new_input])
    assert on_input.inputs[0] is new_input


def test_nested_models_are_cloned_whole_or_recursively():
    inner = keras.Sequential([keras.Input((4,)), layers.Dense(3, name="inner_dense")],
                             name="inner")
    x = keras.Input((4,))
    outer = keras.Model(x, layers.Dense(1)(inner(x)))
    plain = keras.models.clone_model(outer)
    deep = keras.models.clone_model(outer, recursive=True,
                                    clone_function=lambda layer: layer)
    assert plain.layers[1] is not inner
    # recursive: the nested model is rebuilt, its leaves go to clone_function
    assert deep.layers[1] is not inner
    assert deep.layers[1].layers[0] is inner.layers[0]


def test_compiled_model_gives_a_compiled_clone():
    model = functional()
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    clone = keras.models.clone_model(model)
    assert clone.compiled and type(clone.optimizer).__name__ == "Adam"
    assert clone.optimizer is not model.optimizer
    logs = clone.evaluate(X, np.zeros((5, 2)), return_dict=True, verbose=0)
    assert sorted(logs) == ["loss", "mae"]


def test_subclassed_model_is_cloned_through_its_config():
    @keras.saving.register_keras_serializable(package="clone_test")
    class Tiny(keras.Model):
        def __init__(self, units=3, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = layers.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {"units": self.units, **super().get_config()}

    clone = keras.models.clone_model(Tiny(units=5))
    assert type(clone).__name__ == "Tiny" and clone.units == 5
    with pytest.raises(ValueError, match="only supported for Sequential"):
        keras.models.clone_model(Tiny(), clone_function=lambda layer: layer)
    with pytest.raises(NotImplementedError, match="call_function"):
        keras.models.clone_model(functional(), call_function=print)
    with pytest.raises(ValueError, match="Unexpected keyword"):
        keras.models.clone_model(functional(), colne_function=None)
