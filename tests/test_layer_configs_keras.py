"""Every layer's config goes back through its constructor, as in Keras 3.15.1.

``Dense(**Dense(2).get_config())`` must work: a custom ``from_config``
written the Keras way calls the constructor with the config, dtype policy
dict included. The layers are read from the ``keras_export`` registry
(every ``kerasmini.layers.X`` that is a ``Layer`` class), so a layer added
later is covered without editing this file; if its constructor has required
arguments, it needs a row in ``MAKE`` below (the first test says so).

For each layer the test checks, with kerasmini alone, that
``cls(**config)`` and ``cls.from_config(config)`` give back the same config,
and then compares with real Keras 3.15.1 run in a subprocess
(``tests/real_keras.py``): the config's keys and values, whether the layer
is built at construction (Keras builds its weightless layers in
``__init__``), and what the constructor does with the config (works, or
raises the same type of error where Keras's raises too).
"""

import copy
import inspect
import json

import pytest
from real_keras import differences, needs_keras, run_keras, run_mine

from kerasmini import api_export, layers
from kerasmini.saving import serialization

# How to make each layer whose constructor has required arguments; the text
# runs with kerasmini here and with Keras in the subprocess.
MAKE = '''
def simple_function(x):
    return x


MAKE = {
    "Activation": lambda: layers.Activation("relu"),
    "AveragePooling1D": lambda: layers.AveragePooling1D(2),
    "AveragePooling2D": lambda: layers.AveragePooling2D(2),
    "CenterCrop": lambda: layers.CenterCrop(4, 5),
    "AveragePooling3D": lambda: layers.AveragePooling3D(2),
    "Bidirectional": lambda: layers.Bidirectional(layers.LSTM(2)),
    "Conv1DTranspose": lambda: layers.Conv1DTranspose(2, 3),
    "Conv3D": lambda: layers.Conv3D(2, 3),
    "ConvLSTM1D": lambda: layers.ConvLSTM1D(2, 3),
    "ConvLSTM2D": lambda: layers.ConvLSTM2D(2, 3),
    "ConvLSTM3D": lambda: layers.ConvLSTM3D(2, 3),
    "DepthwiseConv1D": lambda: layers.DepthwiseConv1D(3),
    "DepthwiseConv2D": lambda: layers.DepthwiseConv2D(3),
    "Conv1D": lambda: layers.Conv1D(2, 3),
    "Conv2D": lambda: layers.Conv2D(2, 3),
    "Conv2DTranspose": lambda: layers.Conv2DTranspose(2, 3),
    "Dense": lambda: layers.Dense(2),
    "Discretization": lambda: layers.Discretization(bin_boundaries=[0.0, 1.0]),
    "Dot": lambda: layers.Dot(axes=1),
    "Dropout": lambda: layers.Dropout(0.5),
    "EinsumDense": lambda: layers.EinsumDense("ab,bc->ac", output_shape=4),
    "Embedding": lambda: layers.Embedding(5, 2),
    "GRU": lambda: layers.GRU(2),
    "GRUCell": lambda: layers.GRUCell(2),
    "InputLayer": lambda: layers.InputLayer(shape=(3,)),
    "LSTM": lambda: layers.LSTM(2),
    "LSTMCell": lambda: layers.LSTMCell(2),
    "Lambda": lambda: layers.Lambda(keras.activations.relu),
    "MultiHeadAttention": lambda: layers.MultiHeadAttention(2, 4),
    "Permute": lambda: layers.Permute((2, 1)),
    "RNN": lambda: layers.RNN(layers.SimpleRNNCell(2)),
    "RandomContrast": lambda: layers.RandomContrast(0.2),
    "RandomCrop": lambda: layers.RandomCrop(4, 5),
    "RandomRotation": lambda: layers.RandomRotation(0.1),
    "RandomTranslation": lambda: layers.RandomTranslation(0.1, 0.2),
    "RandomZoom": lambda: layers.RandomZoom(0.2),
    "RepeatVector": lambda: layers.RepeatVector(3),
    "Rescaling": lambda: layers.Rescaling(1 / 255),
    "Reshape": lambda: layers.Reshape((2, 3)),
    "Resizing": lambda: layers.Resizing(4, 5),
    "SimpleRNN": lambda: layers.SimpleRNN(2),
    "SimpleRNNCell": lambda: layers.SimpleRNNCell(2),
    "SeparableConv1D": lambda: layers.SeparableConv1D(2, 3),
    "SeparableConv2D": lambda: layers.SeparableConv2D(2, 3),
}


def make(name):
    return MAKE[name]() if name in MAKE else getattr(layers, name)()


def observe(name):
    layer = make(name)
    cls = type(layer)
    config = layer.get_config()
    # Keras's from_config may edit the dict it is given: each use gets a copy
    same = {}
    for how, rebuild in (("init", lambda c: cls(**c)),
                         ("from_config", lambda c: cls.from_config(c))):
        try:
            same[how] = rebuild(copy.deepcopy(config)).get_config() == config
        except Exception as error:  # noqa: BLE001 (the type is the observation)
            same[how] = type(error).__name__
    return {"built": layer.built, "config": config, **same}
'''


def layer_classes():
    """``{canonical name: class}`` of every layer in the export registry."""
    found = {}
    for path, obj in api_export.REGISTERED_NAMES_TO_OBJS.items():
        if path.startswith("kerasmini.layers.") and inspect.isclass(obj) \
                and issubclass(obj, layers.Layer):
            name = api_export.get_name_from_symbol(obj).rpartition(".")[2]
            found[name] = obj
    return dict(sorted(found.items()))


NAMES = list(layer_classes())
SCENARIOS = (MAKE + "\nimport copy\n" + "".join(
    f"\ndef _{name}():\n    return observe({name!r})\n" for name in NAMES)
    + "\nSCENARIOS = {" + ", ".join(f"{n!r}: _{n}" for n in NAMES) + "}\n")
MINE = run_mine(SCENARIOS)  # the namespace: MAKE, make, the scenarios

# A config key that holds a serialized object the constructor does not
# deserialize (only `from_config` does), in Keras as in kerasmini: there
# `cls(**config)` raises, in both (the comparison with Keras checks it).
NESTED = {"RNN": ("cell",), "Lambda": ("function",),
          "Bidirectional": ("layer", "backward_layer")}

# Values that differ from Keras's, each with its reason.
DIFFERENT_VALUES = {
    ("Lambda", "function"): (
        "a public function (keras.activations.relu): Keras 3.15.1 writes "
        "module 'builtins' and registered_name 'function' (the function's "
        "class), kerasmini its public module and name; each loads the other's"),
}


def observe(name):
    return json.loads(json.dumps(MINE["SCENARIOS"][name](), default=str))


def test_every_layer_can_be_made():
    for name, cls in layer_classes().items():
        required = [p.name for p in inspect.signature(cls.__init__).parameters.values()
                    if p.default is p.empty and p.name != "self"
                    and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        assert not required or name in MINE["MAKE"], (
            f"{name} needs {required}: add a row for it to MAKE in {__file__}")
        assert type(MINE["make"](name)) is cls


@pytest.mark.parametrize("name", NAMES)
def test_the_config_goes_back_through_the_constructor(name):
    layer = MINE["make"](name)
    config = layer.get_config()
    cls = type(layer)
    assert cls.from_config(copy.deepcopy(config)).get_config() == config
    if name in NESTED:  # as in Keras: only from_config deserializes it
        with pytest.raises((TypeError, ValueError)):
            cls(**copy.deepcopy(config))
        config = dict(config)
        with serialization.SafeModeScope(True):
            for key in NESTED[name]:
                config[key] = serialization.deserialize_keras_object(config[key])
    assert cls(**config).get_config() == layer.get_config()


def test_dense_from_its_own_config():
    # the line of issue 28, and a custom from_config written the Keras way
    config = layers.Dense(2).get_config()
    assert layers.Dense(**config).get_config() == config

    class Scaled(layers.Dense):
        def __init__(self, units, factor=2.0, **kwargs):
            super().__init__(units, **kwargs)
            self.factor = factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

        @classmethod
        def from_config(cls, config):
            return cls(**config)

    twin = Scaled.from_config(Scaled(3, dtype="float64").get_config())
    assert (twin.units, twin.factor, twin.dtype) == (3, 2.0, "float64")


def test_a_wrong_dtype_policy_is_refused_clearly():
    with pytest.raises(ValueError, match="Cannot interpret `dtype` argument"):
        layers.Dense(2, dtype={"class_name": "Nope", "config": {}})
    with pytest.raises(ValueError, match="Cannot convert 'mixed_int8'.*Received"):
        layers.Dense(2, dtype="mixed_int8")
    mixed = layers.Dense(2, dtype="mixed_float16")  # a mixed precision policy
    assert (mixed.compute_dtype, mixed.variable_dtype) == ("float16", "float32")


@pytest.fixture(scope="module")
def keras_results():
    return run_keras(SCENARIOS)


def _without_keras_only_keys(theirs, mine):
    """Keras's config without the Keras-only options kerasmini's classes lack
    (quantization, renorm, the initializers' einsum axes...), which may
    appear only at Keras's defaults (the same table loading uses)."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        out = {}
        for key, value in theirs.items():
            defaults = serialization._KERAS_ONLY_DEFAULTS.get(key)
            if key not in mine and defaults is not None:
                assert value in defaults, (key, value)  # a default: droppable
                continue
            out[key] = _without_keras_only_keys(value, mine.get(key))
        return out
    if isinstance(theirs, list) and isinstance(mine, list) and len(theirs) == len(mine):
        return [_without_keras_only_keys(t, m) for t, m in zip(theirs, mine)]
    return theirs


# Keras's lookups need TensorFlow even to be made (the interpreter here has
# torch only): tests/test_layers_preprocessing_keras.py compares their configs
# with Keras and TensorFlow.
NEED_TENSORFLOW = ("IntegerLookup", "StringLookup", "TextVectorization")


@needs_keras
@pytest.mark.parametrize("name", NAMES)
def test_same_config_and_built_flag_as_keras(keras_results, name):
    if name in NEED_TENSORFLOW:
        pytest.skip(f"Keras's {name} needs TensorFlow: compared in "
                    "test_layers_preprocessing_keras.py")
    theirs = keras_results[name]
    assert "crash" not in theirs, theirs
    theirs, mine = theirs["value"], observe(name)
    theirs["config"] = _without_keras_only_keys(theirs["config"], mine["config"])
    for (layer, key), _reason in DIFFERENT_VALUES.items():
        if layer == name:
            assert mine["config"][key] != theirs["config"][key]  # still differs
            mine["config"][key] = theirs["config"][key]
    assert sorted(mine["config"]) == sorted(theirs["config"])  # the keys
    assert differences(mine, theirs) == []
