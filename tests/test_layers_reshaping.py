"""UpSampling, ZeroPadding, Cropping (1D and 2D), Permute and RepeatVector
against NumPy, with Keras 3.15.1's facts."""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(0)


def _data(*shape):
    return RNG.normal(size=shape).astype("float32")


CASES = [
    (lambda: layers.UpSampling1D(3), (2, 4, 3), lambda x: np.repeat(x, 3, axis=1)),
    (lambda: layers.UpSampling2D((2, 3)), (2, 3, 2, 2),
     lambda x: np.repeat(np.repeat(x, 2, axis=1), 3, axis=2)),
    (lambda: layers.ZeroPadding1D((1, 2)), (2, 4, 3),
     lambda x: np.pad(x, ((0, 0), (1, 2), (0, 0)))),
    (lambda: layers.ZeroPadding2D(((1, 0), (2, 3))), (2, 3, 2, 2),
     lambda x: np.pad(x, ((0, 0), (1, 0), (2, 3), (0, 0)))),
    (lambda: layers.ZeroPadding2D((1, 2)), (2, 3, 2, 2),
     lambda x: np.pad(x, ((0, 0), (1, 1), (2, 2), (0, 0)))),
    (lambda: layers.Cropping1D((1, 2)), (2, 6, 3), lambda x: x[:, 1:-2]),
    (lambda: layers.Cropping2D(((1, 0), (2, 1))), (2, 4, 5, 2),
     lambda x: x[:, 1:, 2:-1]),
    (lambda: layers.Cropping2D(1), (2, 4, 5, 2), lambda x: x[:, 1:-1, 1:-1]),
    (lambda: layers.Permute((2, 1)), (2, 4, 3), lambda x: x.transpose(0, 2, 1)),
    (lambda: layers.Permute((3, 1, 2)), (2, 4, 3, 5),
     lambda x: x.transpose(0, 3, 1, 2)),
    (lambda: layers.RepeatVector(3), (2, 4),
     lambda x: np.repeat(x[:, None, :], 3, axis=1)),
]


@pytest.mark.parametrize("make, shape, reference", CASES)
def test_reshaping_layer_matches_numpy_and_the_layer_contract(tmp_path, make, shape,
                                                              reference):
    x = _data(*shape)
    out = check_layer(make, x, tmp_path)
    np.testing.assert_array_equal(out, reference(x))


@pytest.mark.parametrize("make, shape, reference", CASES)
def test_reshaping_layer_gradients_match_finite_differences(make, shape, reference):
    layer = type(make()).from_config(dict(make().get_config(), dtype="float64"))
    check_layer_gradients(layer, RNG.normal(size=shape))


def test_reshaping_facts_from_keras():
    # Keras 3.15.1: output shapes and configs of the default constructors
    cases = [
        (layers.UpSampling2D(), (4, 4, 2), (None, 8, 8, 2),
         {"size": (2, 2), "data_format": "channels_last", "interpolation": "nearest"}),
        (layers.UpSampling1D(), (4, 2), (None, 8, 2), {"size": 2}),
        (layers.ZeroPadding2D(), (4, 4, 2), (None, 6, 6, 2),
         {"padding": ((1, 1), (1, 1)), "data_format": "channels_last"}),
        (layers.ZeroPadding1D(), (4, 2), (None, 6, 2),
         {"padding": (1, 1), "data_format": "channels_last"}),
        (layers.Cropping2D(), (4, 4, 2), (None, 4, 4, 2),
         {"cropping": ((0, 0), (0, 0)), "data_format": "channels_last"}),
        (layers.Cropping1D(), (4, 2), (None, 2, 2), {"cropping": (1, 1)}),
        (layers.Permute((2, 1)), (4, 3), (None, 3, 4), {"dims": (2, 1)}),
        (layers.RepeatVector(3), (4,), (None, 3, 4), {"n": 3}),
    ]
    for layer, shape, out, config in cases:
        assert layer(keras.Input(shape)).shape == out
        own = {k: v for k, v in layer.get_config().items()
               if k not in ("name", "trainable", "dtype")}
        assert own == config, type(layer).__name__


def test_reshaping_layers_keep_unknown_sizes():
    x = keras.Input((None, 3))
    assert layers.UpSampling1D(2)(x).shape == (None, None, 3)
    assert layers.ZeroPadding1D(1)(x).shape == (None, None, 3)
    assert layers.Cropping1D(1)(x).shape == (None, None, 3)
    assert layers.Permute((2, 1))(x).shape == (None, 3, None)


def test_reshaping_layers_reject_bad_arguments():
    with pytest.raises(TypeError, match="Expected an integer value for `size`"):
        layers.UpSampling1D(2.0)
    with pytest.raises(ValueError, match="should be a positive integer"):
        layers.UpSampling1D(0)
    with pytest.raises(ValueError, match="interpolation='nearest'"):
        layers.UpSampling2D(interpolation="bilinear")
    with pytest.raises(ValueError, match="`padding` should have two elements"):
        layers.ZeroPadding2D((1, 2, 3))
    with pytest.raises(ValueError, match="tuple of 2 non-negative integers"):
        layers.ZeroPadding1D((1, -1))
    with pytest.raises(ValueError, match="`cropping` cannot be negative"):
        layers.Cropping2D(-1)
    with pytest.raises(ValueError, match="should be smaller than the corresponding"):
        layers.Cropping2D(2)(keras.Input((4, 5, 1)))
    with pytest.raises(ValueError, match="must be smaller than the input length"):
        layers.Cropping1D((2, 2))(_data(1, 4, 1))
    with pytest.raises(ValueError, match="must be consecutive and start from 1"):
        layers.Permute((0, 1))
    with pytest.raises(ValueError, match="non-batch axes"):
        layers.Permute((2, 1))(keras.Input((2, 3, 4)))
    with pytest.raises(TypeError, match="Expected an integer value for `n`"):
        layers.RepeatVector("3")
    with pytest.raises(ValueError, match="expected ndim=2"):
        layers.RepeatVector(3)(keras.Input((2, 3)))
