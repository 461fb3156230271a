"""get_config/from_config, serialize/deserialize, custom objects, safe mode."""

import json
import sys

import numpy as np
import pytest

import kerasmini as keras
import kerasmini.losses
import kerasmini.metrics
import kerasmini.optimizers
from kerasmini import activations, initializers, layers, regularizers
from kerasmini.saving import (
    CustomObjectScope,
    deserialize_keras_object,
    object_registration,
    register_keras_serializable,
    serialize_keras_object,
)
from kerasmini.saving.serialization import SafeModeScope


@pytest.fixture(autouse=True)
def clean_registry():
    before = dict(object_registration.GLOBAL_CUSTOM_OBJECTS)
    yield
    object_registration.GLOBAL_CUSTOM_OBJECTS.clear()
    object_registration.GLOBAL_CUSTOM_OBJECTS.update(before)


def roundtrip(obj):
    return deserialize_keras_object(json.loads(json.dumps(serialize_keras_object(obj))))


# ------------------------------------------------------------- the format
def test_serialize_dense_has_keras3_shape():
    layer = layers.Dense(3, activation="relu")
    layer.build((None, 4))
    config = serialize_keras_object(layer)
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "keras.layers", "Dense", None)
    assert config["build_config"] == {"input_shape": (None, 4)}
    assert config["config"]["activation"] == "relu"


def test_layer_dtype_is_written_as_dtype_policy():
    assert layers.Dense(2).get_config()["dtype"] == {
        "module": "keras", "class_name": "DTypePolicy",
        "config": {"name": "float32"}, "registered_name": None}


def test_initializer_is_written_with_keras_module():
    assert layers.Dense(2).get_config()["kernel_initializer"] == {
        "module": "keras.initializers", "class_name": "GlorotUniform",
        "config": {"seed": None}, "registered_name": None}


def test_input_layer_config_matches_keras():
    layer = layers.InputLayer(shape=(3,), name="x")
    # Keras 3.15.1's, key for key and in its order
    assert list(layer.get_config().items()) == [
        ("batch_shape", (None, 3)), ("dtype", "float32"), ("sparse", False),
        ("ragged", False), ("name", "x"), ("optional", False)]


class _Notebook(layers.Layer):
    """A layer as typed in a notebook: its class lives in ``__main__``."""


_Notebook.__module__ = "__main__"


def test_class_from_main_is_written_with_null_module():
    # no other process can import "__main__": Keras writes null and finds the
    # class by its registered name (tests/test_saving_keras_interop.py
    # compares the whole envelope with the one Keras 3.15.1 writes)
    config = serialize_keras_object(_Notebook(name="cell"))
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        None, "_Notebook", "_Notebook")
    assert json.loads(json.dumps(config))["module"] is None
    again = deserialize_keras_object(json.loads(json.dumps(config)),
                                     custom_objects={"_Notebook": _Notebook})
    assert type(again) is _Notebook and again.name == "cell"


class _Imported(layers.Layer):
    """A layer defined in an importable module (this test file)."""


def test_class_from_other_module_keeps_its_module():
    config = serialize_keras_object(_Imported())
    assert config["module"] == __name__ != "__main__"


def test_functional_is_written_as_keras_functional():
    x = layers.Input((2,))
    config = serialize_keras_object(keras.Model(x, layers.Dense(1)(x)))
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "keras.src.models.functional", "Functional", "Functional")


def test_functional_inbound_nodes_use_keras_tensor_placeholders():
    x = layers.Input((2,), name="x")
    config = keras.Model(x, layers.Dense(1, name="d")(x)).get_config()
    node = config["layers"][1]["inbound_nodes"][0]
    assert node["args"][0]["class_name"] == "__keras_tensor__"
    assert node["args"][0]["config"]["keras_history"] == ["x", 0, 0]
    assert node["kwargs"] == {}
    assert config["input_layers"] == ["x", 0, 0]


def test_sequential_config_lists_input_layer_first():
    model = keras.Sequential([layers.Input((3,)), layers.Dense(2)])
    config = model.get_config()
    assert [c["class_name"] for c in config["layers"]] == ["InputLayer", "Dense"]
    assert config["build_input_shape"] == (None, 3)


# ----------------------------------------------------- objects round trip
@pytest.mark.parametrize("obj", [
    initializers.RandomNormal(mean=1.0, stddev=2.0, seed=3),
    initializers.Constant(0.5), regularizers.L1L2(l1=0.1, l2=0.2),
    regularizers.L2(0.3),
], ids=repr)
def test_roundtrip_keeps_config(obj):
    restored = roundtrip(obj)
    assert type(restored) is type(obj)
    assert restored.get_config() == obj.get_config()


def test_roundtrip_activation_function():
    assert roundtrip(activations.tanh) is activations.tanh


def test_roundtrip_optimizer():
    optimizer = keras.optimizers.Adam(learning_rate=0.5, beta_1=0.8)
    restored = roundtrip(optimizer)
    assert type(restored).__name__ == "Adam"
    assert restored.get_config() == optimizer.get_config()


def test_roundtrip_loss_and_metric():
    loss = keras.losses.Huber(delta=2.0)
    metric = keras.metrics.Mean(name="m")
    assert roundtrip(loss).get_config() == loss.get_config()
    assert roundtrip(metric).get_config() == metric.get_config()


def test_roundtrip_dense_with_regularizer_and_constraint():
    layer = layers.Dense(2, kernel_regularizer="l2", kernel_constraint="non_neg",
                         activity_regularizer=regularizers.L1(0.1))
    restored = roundtrip(layer)
    assert restored.get_config() == layer.get_config()


def test_reads_keras_only_options_at_their_defaults():
    config = serialize_keras_object(layers.Dense(2))
    config["config"]["quantization_config"] = None
    config["config"]["kernel_initializer"]["config"]["input_axes"] = None
    assert deserialize_keras_object(config).units == 2


def test_refuses_keras_only_options_it_cannot_honour():
    config = serialize_keras_object(layers.Dense(2))
    config["config"]["lora_rank"] = 4
    with pytest.raises(ValueError, match="does not support the Keras option `lora_rank`"):
        deserialize_keras_object(config)


# --------------------------------------------------- model architectures
def names_and_shapes(model):
    return [(layer.name, type(layer).__name__,
             [tuple(w.shape) for w in layer.weights]) for layer in model.layers]


def test_sequential_from_config_same_architecture():
    model = keras.Sequential([layers.Input((4,)), layers.Dense(3, activation="relu"),
                              layers.Dropout(0.2), layers.Dense(1)], name="seq")
    restored = keras.Sequential.from_config(model.get_config())
    assert restored.name == "seq"
    assert names_and_shapes(restored) == names_and_shapes(model)


def test_functional_multi_io_shared_layer_from_config():
    a, b = layers.Input((4,), name="a"), layers.Input((4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate()([shared(a), shared(b)])
    model = keras.Model([a, b], [layers.Dense(1, name="o1")(merged),
                                 layers.Add()([shared(a), shared(b)])])
    restored = keras.Model.from_config(model.get_config())
    assert names_and_shapes(restored) == names_and_shapes(model)
    assert len(restored.get_layer("shared")._inbound_nodes) == 4
    assert restored.output_shape == model.output_shape
    assert restored.get_config() == model.get_config()


def test_nested_models_from_config():
    inner = keras.Sequential([layers.Input((3,)), layers.Dense(2)], name="inner")
    x = layers.Input((3,))
    mid = keras.Model(x, layers.Dense(3)(x), name="mid")
    y = layers.Input((3,))
    outer = keras.Model(y, inner(mid(y)), name="outer")
    restored = keras.Model.from_config(outer.get_config())
    assert [type(layer).__name__ for layer in restored.layers] == [
        "InputLayer", "Functional", "Sequential"]
    assert restored.get_config() == outer.get_config()


def test_nested_model_as_output_uses_keras_node_index():
    x = layers.Input((3,))
    inner = keras.Model(x, layers.Dense(2)(x), name="inner")
    y = layers.Input((3,))
    outer = keras.Model(y, inner(y))
    assert outer.get_config()["output_layers"] == ["inner", 1, 0]
    assert keras.Model.from_config(outer.get_config()).output_shape == (None, 2)


def test_registered_custom_layer_roundtrip():
    @register_keras_serializable(package="test")
    class Scale(layers.Layer):
        def __init__(self, factor, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    config = serialize_keras_object(Scale(3.0))
    assert config["registered_name"] == "test>Scale"
    assert roundtrip(Scale(3.0)).factor == 3.0


def test_subclassed_model_with_get_config_roundtrip():
    class Wide(keras.Model):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = layers.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    restored = deserialize_keras_object(serialize_keras_object(Wide(4, name="w")),
                                        custom_objects={"Wide": Wide})
    assert (type(restored), restored.units, restored.name) == (Wide, 4, "w")


def test_layer_with_init_args_must_override_get_config():
    class NoConfig(layers.Layer):
        def __init__(self, factor, **kwargs):
            super().__init__(**kwargs)

    with pytest.raises(NotImplementedError, match="must override `get_config"):
        NoConfig(2).get_config()


# -------------------------------------------------------- custom objects
def custom_layer_class():
    class Twice(layers.Layer):
        def call(self, x):
            return x * 2

    return Twice


def test_unknown_class_could_not_locate():
    config = serialize_keras_object(custom_layer_class()())
    with pytest.raises(TypeError, match="Could not locate class 'Twice'"):
        deserialize_keras_object(config)


def test_custom_objects_argument_resolves_class():
    cls = custom_layer_class()
    config = serialize_keras_object(cls())
    assert type(deserialize_keras_object(config, custom_objects={"Twice": cls})) is cls


def test_custom_object_scope_resolves_class():
    cls = custom_layer_class()
    config = serialize_keras_object(cls())
    with CustomObjectScope({"Twice": cls}):
        assert type(deserialize_keras_object(config)) is cls


def test_register_requires_get_config():
    with pytest.raises(ValueError, match="does not have a get_config"):
        register_keras_serializable()(type("Plain", (), {}))


def test_module_in_config_is_never_imported():
    config = {"module": "kerasmini_never_imported", "class_name": "Evil",
              "config": {}, "registered_name": None}
    with pytest.raises(TypeError, match="Could not locate class 'Evil'"):
        deserialize_keras_object(config)
    assert "kerasmini_never_imported" not in sys.modules


def test_non_modeling_functions_are_not_resolvable():
    config = {"module": "keras.models", "class_name": "function",
              "config": "load_model", "registered_name": None}
    with pytest.raises(TypeError, match="Could not locate function 'load_model'"):
        deserialize_keras_object(config)


def test_non_modeling_classes_are_not_resolvable():
    config = {"module": "keras", "class_name": "GradientTape", "config": {},
              "registered_name": None}
    with pytest.raises(TypeError, match="Could not locate class 'GradientTape'"):
        deserialize_keras_object(config)


# -------------------------------------------------------------- safe mode
def test_lambda_refused_in_safe_mode():
    config = serialize_keras_object(lambda x: x + 1)
    with pytest.raises(ValueError, match="Requested the deserialization of a Python "
                                         "lambda"):
        deserialize_keras_object(config)


def test_lambda_loaded_with_safe_mode_off():
    fn = deserialize_keras_object(serialize_keras_object(lambda x: x + 1),
                                  safe_mode=False)
    assert fn(1) == 2


def test_lambda_layer_refused_in_safe_mode():
    config = json.loads(json.dumps(serialize_keras_object(
        layers.Lambda(lambda x: x * 3.0))))
    with pytest.raises(ValueError, match="Requested the deserialization of a "
                                         "`Lambda` layer"):
        deserialize_keras_object(config)


def test_lambda_layer_direct_from_config_is_safe_by_default():
    config = layers.Lambda(lambda x: x * 3.0).get_config()
    with pytest.raises(ValueError, match="`Lambda` layer"):
        layers.Lambda.from_config(config)


def test_lambda_layer_loaded_with_safe_mode_off():
    config = json.loads(json.dumps(serialize_keras_object(
        layers.Lambda(lambda x: x * 3.0))))
    with SafeModeScope(False):
        layer = deserialize_keras_object(config)
    assert np.array_equal(layer(np.ones((1, 2), "float32")), np.full((1, 2), 3.0))
