"""1D pooling and global pooling against NumPy, with Keras 3.15.1's facts."""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(0)


def reference_pool1d(x, size, stride, padding, reduce):
    steps = x.shape[1]
    if padding == "same":
        out = -(-steps // stride)
        total = max((out - 1) * stride + size - steps, 0)
        before = total // 2
    else:
        out, before = (steps - size) // stride + 1, 0
    rows = []
    for t in range(out):
        lo = max(t * stride - before, 0)
        hi = min(t * stride - before + size, steps)
        rows.append(reduce(x[:, lo:hi], axis=1))  # padding never counts
    return np.stack(rows, axis=1)


@pytest.mark.parametrize("size, strides, padding", [
    (2, None, "valid"), (3, 1, "valid"), (3, 2, "same"), (2, None, "same")])
@pytest.mark.parametrize("cls, reduce", [(layers.MaxPooling1D, np.max),
                                         (layers.AveragePooling1D, np.mean)])
def test_pooling1d_matches_numpy(tmp_path, cls, reduce, size, strides, padding):
    x = RNG.normal(size=(2, 7, 3)).astype("float32")
    out = check_layer(lambda: cls(size, strides=strides, padding=padding), x,
                      tmp_path)
    expected = reference_pool1d(x, size, strides or size, padding, reduce)
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("cls, reduce, shape", [
    (layers.GlobalMaxPooling1D, np.max, (2, 5, 3)),
    (layers.GlobalAveragePooling1D, np.mean, (2, 5, 3)),
    (layers.GlobalMaxPooling2D, np.max, (2, 4, 3, 3))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_global_pooling_matches_numpy(tmp_path, cls, reduce, shape, keepdims):
    x = RNG.normal(size=shape).astype("float32")
    out = check_layer(lambda: cls(keepdims=keepdims), x, tmp_path)
    axes = tuple(range(1, len(shape) - 1))
    np.testing.assert_allclose(out, reduce(x, axis=axes, keepdims=keepdims),
                               rtol=1e-6)


def test_pooling_facts_from_keras():
    # Keras 3.15.1: output shapes and config keys
    base = ["data_format", "dtype", "name", "trainable"]
    cases = [
        (layers.MaxPooling1D(), (10, 2), (None, 5, 2),
         base + ["padding", "pool_size", "strides"]),
        (layers.AveragePooling1D(2), (10, 2), (None, 5, 2),
         base + ["padding", "pool_size", "strides"]),
        (layers.GlobalMaxPooling1D(), (10, 2), (None, 2), base + ["keepdims"]),
        (layers.GlobalMaxPooling2D(), (4, 4, 2), (None, 2), base + ["keepdims"]),
        (layers.GlobalAveragePooling1D(), (10, 2), (None, 2), base + ["keepdims"]),
    ]
    for layer, shape, out, keys in cases:
        assert layer(keras.Input(shape)).shape == out
        assert sorted(layer.get_config()) == sorted(keys)
    config = layers.MaxPooling1D().get_config()
    assert (config["pool_size"], config["strides"], config["padding"]) == \
        ((2,), (2,), "valid")
    assert layers.MaxPool1D is layers.MaxPooling1D
    assert layers.GlobalMaxPool2D is layers.GlobalMaxPooling2D


def test_pooling1d_gradients_match_finite_differences():
    x = RNG.normal(size=(2, 7, 2))
    check_layer_gradients(layers.MaxPooling1D(3, strides=2, padding="same",
                                              dtype="float64"), x)
    check_layer_gradients(layers.AveragePooling1D(2, dtype="float64"), x)
    check_layer_gradients(layers.GlobalMaxPooling2D(dtype="float64"),
                          RNG.normal(size=(2, 3, 3, 2)))


def test_pooling1d_rejects_bad_arguments():
    with pytest.raises(TypeError, match="pool_size"):
        layers.AveragePooling1D()  # required, as in Keras 3
    with pytest.raises(ValueError, match="tuple of 1 positive integer"):
        layers.MaxPooling1D(0)
    with pytest.raises(ValueError, match="'valid' or 'same'"):
        layers.MaxPooling1D(2, padding="causal")
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.MaxPooling1D()(keras.Input((4, 4, 1)))
    with pytest.raises(ValueError, match="expected ndim=4"):
        layers.GlobalMaxPooling2D()(keras.Input((4, 1)))
    with pytest.raises(ValueError, match="channels_last"):
        layers.GlobalMaxPooling1D(data_format="channels_first")
