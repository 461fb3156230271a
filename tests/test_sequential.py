"""Sequential: add, pop, input shapes, deferred building and its errors."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers


def _issue_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(input_shape=(10,), units=10, activation="relu"))
    model.add(keras.layers.Dense(units=1))
    return model


def test_sequential_issue_example_runs():
    model = _issue_model()
    assert model.built and model.count_params() == 121
    assert [layer.name for layer in model.layers] == ["dense", "dense_1"]
    assert model.output_shape == (None, 1)


def test_sequential_issue_example_weight_paths():
    model = _issue_model()
    assert [w.path for w in model.weights] == [
        "sequential/dense/kernel", "sequential/dense/bias",
        "sequential/dense_1/kernel", "sequential/dense_1/bias"]


def test_sequential_issue_example_matches_numpy():
    model = _issue_model()
    data = np.random.default_rng(0).normal(size=(3, 10)).astype("float32")
    k1, b1, k2, b2 = model.get_weights()
    expected = np.maximum(data @ k1 + b1, 0) @ k2 + b2
    np.testing.assert_allclose(model(data), expected, rtol=1e-5, atol=1e-6)


def test_sequential_class_chain():
    names = [cls.__name__ for cls in keras.Sequential.__mro__[:6]]
    assert names == ["Sequential", "Functional", "Model", "Trainer", "Layer", "Module"]


def test_sequential_auto_names():
    assert [keras.Sequential().name, keras.Sequential().name] == [
        "sequential", "sequential_1"]


def test_sequential_input_layer_hidden_from_layers():
    model = _issue_model()
    assert [type(layer).__name__ for layer in model._layers] == [
        "InputLayer", "Dense", "Dense"]
    assert model.inputs[0].shape == (None, 10)
    assert model.inputs[0]._keras_history.layer.name == "input_layer"


def test_sequential_add_input_tensor_first():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    assert model.built and model.output_shape == (None, 2)
    assert len(model.layers) == 1


def test_sequential_constructor_list_same_as_add():
    model = keras.Sequential([layers.Dense(4, input_shape=(2,)), layers.Dense(1)])
    assert model.count_params() == 2 * 4 + 4 + 4 + 1


def test_sequential_deferred_build_on_first_call():
    model = keras.Sequential([layers.Dense(4), layers.Dense(1)])
    assert not model.built and model.weights == []
    out = model(np.ones((2, 3)))
    assert out.shape == (2, 1) and model.built
    assert model.count_params() == 3 * 4 + 4 + 4 + 1
    assert model.inputs[0].shape == (None, 3)


def test_sequential_deferred_build_with_build():
    model = keras.Sequential([layers.Dense(4)])
    model.build((None, 7))
    assert model.built and model.count_params() == 32
    assert [w.path for w in model.weights] == ["sequential/dense/kernel",
                                               "sequential/dense/bias"]


def test_sequential_unbuilt_inputs_raise_attribute_error():
    model = keras.Sequential([layers.Dense(4)])
    with pytest.raises(AttributeError, match="Sequential model 'sequential' has no "
                                             "defined inputs yet"):
        _ = model.inputs


def test_sequential_build_without_shape_raises():
    with pytest.raises(ValueError, match="input_shape"):
        keras.Sequential([layers.Dense(1)]).build()


def test_sequential_build_without_layers_raises():
    with pytest.raises(ValueError, match="cannot be built because it has no layers"):
        keras.Sequential().build((None, 2))


def test_sequential_add_after_build_connects_layer():
    model = _issue_model()
    model.add(layers.Dense(5))
    assert model.output_shape == (None, 5) and model.count_params() == 121 + 10


def test_sequential_add_non_layer_raises():
    with pytest.raises(ValueError, match=r"Only instances of `kerasmini.Layer` can be added "
                                         r"to a Sequential model. Received: abc \(of type "
                                         r"<class 'str'>\)"):
        keras.Sequential().add("abc")


def test_sequential_add_duplicate_name_raises():
    model = keras.Sequential([layers.Dense(2, name="x")])
    with pytest.raises(ValueError, match="should have unique names. Name 'x' is already"):
        model.add(layers.Dense(3, name="x"))


def test_sequential_add_second_input_raises():
    model = keras.Sequential([keras.Input((2,))])
    with pytest.raises(ValueError, match="has already been configured to use an input"):
        model.add(keras.Input((3,)))


def test_sequential_multi_output_layer_raises():
    class Split(keras.Layer):
        def call(self, x):
            return [x, x]

    model = keras.Sequential([keras.Input((2,))])
    with pytest.raises(ValueError, match="should have a single output tensor"):
        model.add(Split())


def test_sequential_pop_returns_last_layer_and_rewires():
    model = _issue_model()
    popped = model.pop()
    assert popped.name == "dense_1"
    assert model.output_shape == (None, 10) and model.count_params() == 110
    assert model(np.ones((1, 10))).shape == (1, 10)


def test_sequential_pop_empty_raises():
    with pytest.raises(TypeError, match="There are no layers in the model"):
        keras.Sequential().pop()


def test_sequential_wrong_input_shape_raises():
    with pytest.raises(ValueError, match=r'Input 0 of layer "sequential" is incompatible'):
        _issue_model()(np.ones((2, 5)))


def test_sequential_string_input_raises():
    with pytest.raises(ValueError, match="Inputs to a layer should be tensors"):
        _issue_model()(np.array([["a"] * 10]))


def test_sequential_refuses_nested_python_lists_as_keras_3_does():
    with pytest.raises(ValueError, match="Only input tensors may be passed"):
        _issue_model()([[0.0] * 10, [1.0] * 10])
    assert _issue_model()(np.array([[0.0] * 10, [1.0] * 10])).shape == (2, 1)


def test_sequential_get_layer_skips_input_layer():
    model = _issue_model()
    assert model.get_layer(index=0).name == "dense"


def test_sequential_training_reaches_dropout():
    model = keras.Sequential([keras.Input((40,)), layers.Dropout(0.5)])
    data = np.ones((10, 40), "float32")
    np.testing.assert_array_equal(model(data), data)
    assert set(np.unique(model(data, training=True))) == {0.0, 2.0}


def test_sequential_as_layer_in_functional():
    inner = keras.Sequential([layers.Dense(2, input_shape=(3,))], name="inner")
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(inner(x)))
    assert model(np.ones((4, 3))).shape == (4, 1)
    assert [w.path for w in inner.weights] == ["inner/dense/kernel", "inner/dense/bias"]


def test_sequential_in_graph_mode_matches_eager():
    model = _issue_model()
    fn = keras.function(lambda v: model(v))
    data = np.random.default_rng(1).normal(size=(4, 10)).astype("float32")
    fn(np.zeros((4, 10), "float32"))
    np.testing.assert_allclose(fn(data), model(data), rtol=1e-6)
