"""Input() and InputLayer: where a functional graph starts."""

import pytest

import kerasmini as keras
from kerasmini.engine.input_layer import InputLayer


def test_input_returns_keras_tensor_with_batch_none():
    x = keras.Input(shape=(5,))
    assert isinstance(x, keras.KerasTensor) and x.shape == (None, 5)


def test_input_auto_names_are_input_layer():
    # Keras 3: the layers are input_layer, input_layer_1; an unnamed Input's
    # tensor has a name of its own, a named one the given name
    tensors = [keras.Input((1,)), keras.Input((1,))]
    assert [t._keras_history.layer.name for t in tensors] == [
        "input_layer", "input_layer_1"]
    assert [t.name for t in tensors] == ["keras_tensor", "keras_tensor_1"]
    assert keras.Input((1,), name="pixels").name == "pixels"


def test_input_history_points_at_input_layer_node_zero():
    x = keras.Input((3,), name="features")
    layer, node_index, tensor_index = x._keras_history
    assert isinstance(layer, InputLayer) and layer.name == "features"
    assert (node_index, tensor_index) == (0, 0)


def test_input_batch_size_and_batch_shape():
    assert keras.Input((3,), batch_size=8).shape == (8, 3)
    assert keras.Input(batch_shape=(4, 2)).shape == (4, 2)


def test_input_int_shape_accepted():
    assert keras.Input(7).shape == (None, 7)


def test_input_dtype():
    assert keras.Input((2,), dtype="int32").dtype == "int32"


def test_input_layer_is_built_with_no_weights():
    layer = InputLayer(shape=(2,))
    assert layer.built and layer.weights == [] and layer.count_params() == 0


def test_input_layer_output_is_its_tensor():
    layer = InputLayer(shape=(2,))
    assert layer.output.shape == (None, 2) and layer.batch_shape == (None, 2)


def test_input_without_shape_raises():
    with pytest.raises(ValueError, match="You must pass a `shape` argument"):
        keras.Input()


def test_input_with_shape_and_batch_shape_raises():
    with pytest.raises(ValueError, match="cannot pass both `shape` and `batch_shape`"):
        keras.Input(shape=(2,), batch_shape=(None, 2))


def test_input_bad_shape_raises():
    with pytest.raises(ValueError, match="shape"):
        keras.Input(shape=(None, "a"))


def test_input_layer_legacy_input_shape_kwarg():
    assert InputLayer(input_shape=(3,)).batch_shape == (None, 3)


def test_input_exported_under_both_paths():
    assert keras.Input is keras.layers.Input
    assert keras.layers.InputLayer is InputLayer
