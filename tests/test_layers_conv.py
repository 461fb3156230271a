"""Conv2D and the pooling layers against direct NumPy loops."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(0)


def reference_conv(x, k, stride, padding):
    """Cross-correlation by loops over output pixels (the textbook definition)."""
    kh, kw = k.shape[:2]
    if padding == "same":
        out_h, out_w = -(-x.shape[1] // stride), -(-x.shape[2] // stride)
        ph = max((out_h - 1) * stride + kh - x.shape[1], 0)
        pw = max((out_w - 1) * stride + kw - x.shape[2], 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    out_h = (x.shape[1] - kh) // stride + 1
    out_w = (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], out_h, out_w, k.shape[3]))
    for i in range(out_h):
        for j in range(out_w):
            window = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(window, k, axes=([1, 2, 3], [0, 1, 2]))
    return out


@pytest.mark.parametrize("strides, padding", [(1, "valid"), (2, "valid"), (1, "same"),
                                              (2, "same")])
def test_conv2d_matches_a_loop_over_pixels(strides, padding):
    x = RNG.normal(size=(2, 7, 6, 3)).astype("float32")
    layer = layers.Conv2D(4, (3, 2), strides=strides, padding=padding)
    out = layer(x)
    expected = reference_conv(x, layer.kernel.numpy(), strides, padding) + \
        layer.bias.numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    assert layer.compute_output_shape((None, 7, 6, 3)) == (None,) + out.shape[1:]


def test_conv2d_weights_and_symbolic_shape():
    x = keras.Input(shape=(8, 8, 1))
    layer = layers.Conv2D(16, 3, padding="same", activation="relu")
    assert layer(x).shape == (None, 8, 8, 16)
    assert [w.path for w in layer.weights] == ["conv2d/kernel", "conv2d/bias"]
    assert layer.count_params() == 3 * 3 * 16 + 16


def test_conv2d_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Expected a strictly positive value"):
        layers.Conv2D(0, 3)
    with pytest.raises(ValueError, match="channels_last"):
        layers.Conv2D(2, 3, data_format="channels_first")
    with pytest.raises(ValueError, match="negative or zero"):
        layers.Conv2D(2, 5).compute_output_shape((None, 3, 3, 1))


def test_conv2d_get_config_round_trips():
    layer = layers.Conv2D(4, 3, strides=2, padding="same", name="c")
    clone = layers.Conv2D.from_config(layer.get_config())
    assert (clone.filters, clone.kernel_size, clone.strides, clone.padding) == \
        (4, (3, 3), (2, 2), "same")


@pytest.mark.parametrize("cls, reduce", [(layers.MaxPooling2D, np.max),
                                         (layers.AveragePooling2D, np.mean)])
def test_pooling_matches_numpy_blocks(cls, reduce):
    x = RNG.normal(size=(2, 6, 4, 3)).astype("float32")
    blocks = x.reshape(2, 3, 2, 2, 2, 3)  # (b, out_h, 2, out_w, 2, c)
    np.testing.assert_allclose(cls(pool_size=2)(x), reduce(blocks, axis=(2, 4)),
                               rtol=1e-6)


def test_pooling_same_padding_and_strides_shape():
    layer = layers.MaxPooling2D(pool_size=3, strides=2, padding="same")
    assert layer(np.zeros((1, 7, 7, 2), "float32")).shape == (1, 4, 4, 2)
    assert layer.compute_output_shape((None, 7, 7, 2)) == (None, 4, 4, 2)


def test_global_average_pooling():
    x = RNG.normal(size=(2, 3, 4, 5)).astype("float32")
    np.testing.assert_allclose(layers.GlobalAveragePooling2D()(x), x.mean(axis=(1, 2)),
                               rtol=1e-6)
    assert layers.GlobalAveragePooling2D(keepdims=True)(x).shape == (2, 1, 1, 5)


def test_small_cnn_trains_on_digits_in_graph_and_eager_mode_alike():
    (x, y), _ = keras.datasets.digits.load_data()
    x = (x[:256, :, :, None] / 255.0).astype("float32")
    y = y[:256].astype("int64")
    weights = []
    for eager in (False, True):
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        model = keras.Sequential([
            keras.Input(shape=(8, 8, 1)), layers.Conv2D(4, 3, activation="relu"),
            layers.MaxPooling2D(), layers.Flatten(), layers.Dense(10, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                      run_eagerly=eager)
        model.fit(x, y, epochs=1, batch_size=64, verbose=0)
        weights.append(model.get_weights())
    for a, b in zip(*weights):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
