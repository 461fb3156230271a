"""The element-wise merges, Dot and the functional forms (``layers.add``...)
against NumPy, with Keras 3.15.1's facts."""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(0)


def _data(*shape):
    return RNG.normal(size=shape).astype("float32")


MERGES = [
    (layers.Subtract, lambda a, b: a - b),
    (layers.Multiply, lambda a, b: a * b),
    (layers.Average, lambda a, b: (a + b) / 2),
    (layers.Maximum, np.maximum),
    (layers.Minimum, np.minimum),
]


@pytest.mark.parametrize("cls, reference", MERGES)
def test_merge_matches_numpy_and_the_layer_contract(tmp_path, cls, reference):
    a, b = _data(4, 3), _data(4, 3)
    out = check_layer(cls, [a, b], tmp_path)
    np.testing.assert_allclose(out, reference(a, b), rtol=1e-6)


@pytest.mark.parametrize("cls, reduce", [
    (layers.Multiply, np.prod), (layers.Average, np.mean),
    (layers.Maximum, np.max), (layers.Minimum, np.min)])
def test_merge_of_three_inputs(cls, reduce):
    xs = [_data(2, 5) for _ in range(3)]
    np.testing.assert_allclose(cls()(xs), reduce(np.stack(xs), axis=0), rtol=1e-6)


def test_merge_broadcasts_as_keras():
    # Keras 3.15.1: (None, 1, 3) with (None, 4, 3) -> (None, 4, 3), and a lower
    # rank gets axes after the batch axis: Add()([[[5, 6]], [[[1, 2], [3, 4]]]])
    # is [[[6, 8], [8, 10]]] (the same rule here, in Maximum).
    a, b = keras.Input((1, 3)), keras.Input((4, 3))
    assert layers.Maximum()([a, b]).shape == (None, 4, 3)
    assert layers.Subtract()([keras.Input((3,)), b]).shape == (None, 4, 3)
    y, x = np.array([[5.0, 6.0]]), np.array([[[1.0, 2.0], [3.0, 4.0]]])
    assert layers.Maximum()([y, x]).tolist() == [[[5.0, 6.0], [5.0, 6.0]]]
    assert layers.Multiply()([keras.Input((3,))]).shape == (None, 3)  # one is fine


def test_merge_facts_from_keras():
    # Keras 3.15.1: the element-wise merges have only the base config keys
    for cls in (layers.Subtract, layers.Multiply, layers.Average, layers.Maximum,
                layers.Minimum):
        layer = cls()
        assert layer([keras.Input((3,)), keras.Input((3,))]).shape == (None, 3)
        assert sorted(layer.get_config()) == ["dtype", "name", "trainable"]


def test_merge_gradients_match_finite_differences():
    a, b = RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3))
    for cls in (layers.Subtract, layers.Multiply, layers.Average, layers.Maximum,
                layers.Minimum):
        check_layer_gradients(cls(dtype="float64"), [a, b])


def test_merge_errors_are_keras_messages():
    with pytest.raises(ValueError, match=r"Inputs have incompatible shapes. "
                                         r"Received shapes \(3,\) and \(4,\)"):
        layers.Multiply()([keras.Input((3,)), keras.Input((4,))])
    with pytest.raises(ValueError, match="A `Subtract` layer should be called on "
                                         "exactly 2 inputs"):
        layers.Subtract()([keras.Input((3,))])
    with pytest.raises(ValueError, match="should be called on a list of inputs"):
        layers.Average()(keras.Input((3,)))
    with pytest.raises(ValueError, match="different batch sizes"):
        layers.Maximum()([_data(2, 3), _data(3, 3)])


# -------------------------------------------------------------------- Dot
def reference_batch_dot(x, y, axes):
    """One sample at a time: np.tensordot over the two axes (minus the batch)."""
    out = np.stack([np.tensordot(x[i], y[i], axes=(axes[0] - 1, axes[1] - 1))
                    for i in range(len(x))])
    return out[:, None] if out.ndim == 1 else out


@pytest.mark.parametrize("axes, shape1, shape2", [
    (1, (4, 3), (4, 3)), (-1, (4, 2, 3), (4, 5, 3)), ((1, 2), (4, 3, 2), (4, 5, 3)),
    ((2, 1), (4, 2, 3), (4, 3)), (2, (4, 5, 3), (4, 2, 3))])
def test_dot_matches_numpy_and_the_layer_contract(tmp_path, axes, shape1, shape2):
    x, y = _data(*shape1), _data(*shape2)
    out = check_layer(lambda: layers.Dot(axes=axes), [x, y], tmp_path, rtol=1e-5)
    axes_pair = (axes, axes) if isinstance(axes, int) else axes
    axes_pair = (axes_pair[0] % len(shape1), axes_pair[1] % len(shape2))
    np.testing.assert_allclose(out, reference_batch_dot(x, y, axes_pair), rtol=1e-5,
                               atol=1e-6)


def test_dot_normalize_is_the_cosine_similarity():
    x, y = _data(5, 4), _data(5, 4)
    cosine = np.sum(x * y, 1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    out = layers.Dot(axes=1, normalize=True)([x, y])
    np.testing.assert_allclose(out[:, 0], cosine, rtol=1e-5)
    # Keras 3.15.1: Dot(axes=1, normalize=True)([[3, 4]], [[1, 0]]) == [[0.6]]
    out = layers.Dot(axes=1, normalize=True)([np.array([[3.0, 4.0]]),
                                               np.array([[1.0, 0.0]])])
    np.testing.assert_allclose(out, [[0.6]], rtol=1e-6)


def test_dot_facts_from_keras():
    # Keras 3.15.1
    layer = layers.Dot(axes=1)
    assert layer([keras.Input((3,)), keras.Input((3,))]).shape == (None, 1)
    config = layer.get_config()
    assert sorted(config) == ["axes", "dtype", "name", "normalize", "trainable"]
    assert (config["axes"], config["normalize"]) == (1, False)
    assert layers.Dot(axes=(1, 2))([keras.Input((3, 4)), keras.Input((5, 3))]).shape \
        == (None, 4, 5)
    assert layers.dot([keras.Input((3,)), keras.Input((3,))]).shape == (None, 1)


def test_dot_gradients_match_finite_differences():
    x, y = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 4))
    check_layer_gradients(layers.Dot(axes=(2, 1), dtype="float64"), [x, y])
    check_layer_gradients(layers.Dot(axes=-1, normalize=True, dtype="float64"),
                          [RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))])


def test_dot_errors_are_keras_messages():
    with pytest.raises(ValueError, match="it should contain two elements"):
        layers.Dot(axes=(1,))
    with pytest.raises(TypeError, match="it should be a list or an int"):
        layers.Dot(axes="a")
    with pytest.raises(ValueError, match=r"axis values 3 \(at axis 1\) != 4"):
        layers.Dot(axes=1)([keras.Input((3,)), keras.Input((4,))])
    with pytest.raises(ValueError, match="should be called on a list of 2 inputs"):
        layers.Dot(axes=1)([keras.Input((3,))])
    with pytest.raises(ValueError, match="over axis 0"):
        layers.Dot(axes=0)([keras.Input((3,)), keras.Input((3,))])


# ------------------------------------------------------- functional forms
@pytest.mark.parametrize("function, cls, kwargs", [
    (layers.add, layers.Add, {}), (layers.subtract, layers.Subtract, {}),
    (layers.multiply, layers.Multiply, {}), (layers.average, layers.Average, {}),
    (layers.maximum, layers.Maximum, {}), (layers.minimum, layers.Minimum, {}),
    (layers.concatenate, layers.Concatenate, {"axis": 1}),
    (layers.dot, layers.Dot, {"axes": 1})])
def test_functional_forms_build_the_layer_and_call_it(function, cls, kwargs):
    a, b = keras.Input((3,)), keras.Input((3,))
    out = function([a, b], name="merged", **kwargs)
    layer = out._keras_history[0]
    assert type(layer) is cls and layer.name == "merged"
    model = keras.Model([a, b], out)
    x, y = _data(2, 3), _data(2, 3)
    np.testing.assert_allclose(model.predict([x, y], verbose=0),
                               cls(**kwargs)([x, y]), rtol=1e-6)
    assert function([x, y], **kwargs).shape == model.predict([x, y], verbose=0).shape
