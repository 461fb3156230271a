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


# ---------------------------------------------------------------- Conv1D
from layer_contract import check_layer, check_layer_gradients  # noqa: E402


def reference_conv1d(x, k, stride, dilation, padding):
    """Output step t = sum over taps j of x[t * stride + j * dilation] . k[j]."""
    span = (k.shape[0] - 1) * dilation + 1
    steps = x.shape[1]
    if padding == "causal":
        x = np.pad(x, ((0, 0), (span - 1, 0), (0, 0)))
    elif padding == "same":
        out = -(-steps // stride)
        total = max((out - 1) * stride + span - steps, 0)
        x = np.pad(x, ((0, 0), (total // 2, total - total // 2), (0, 0)))
    out = (x.shape[1] - span) // stride + 1
    y = np.zeros((x.shape[0], out, k.shape[2]))
    for t in range(out):
        for j in range(k.shape[0]):
            y[:, t] += x[:, t * stride + j * dilation] @ k[j]
    return y


@pytest.mark.parametrize("strides, dilation, padding", [
    (1, 1, "valid"), (2, 1, "valid"), (2, 1, "same"), (1, 2, "same"),
    (1, 2, "causal"), (3, 1, "causal")])
def test_conv1d_matches_numpy_and_the_layer_contract(tmp_path, strides, dilation,
                                                     padding):
    x = RNG.normal(size=(2, 11, 3)).astype("float32")

    def make():
        return layers.Conv1D(4, 3, strides=strides, dilation_rate=dilation,
                             padding=padding, bias_initializer="random_normal")

    keras.utils.set_random_seed(1)
    out = check_layer(make, x, tmp_path)
    keras.utils.set_random_seed(1)
    layer = make()
    layer(x)
    expected = reference_conv1d(x, layer.kernel.numpy(), strides, dilation, padding)
    np.testing.assert_allclose(out, expected + layer.bias.numpy(), rtol=1e-4,
                               atol=1e-5)


def test_conv1d_causal_output_does_not_see_the_future():
    layer = layers.Conv1D(1, 3, padding="causal", kernel_initializer="ones")
    x = np.zeros((1, 6, 1), "float32")
    x[0, 4, 0] = 1.0
    assert layer(x)[0, :, 0].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def test_conv1d_facts_from_keras():
    # Keras 3.15.1: Conv1D(4, 3) on (None, 10, 2)
    layer = layers.Conv1D(4, 3)
    assert layer(keras.Input((10, 2))).shape == (None, 8, 4)
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("conv1d/kernel", (3, 2, 4)), ("conv1d/bias", (4,))]
    assert sorted(layer.get_config()) == [
        "activation", "activity_regularizer", "bias_constraint", "bias_initializer",
        "bias_regularizer", "data_format", "dilation_rate", "dtype", "filters",
        "groups", "kernel_constraint", "kernel_initializer", "kernel_regularizer",
        "kernel_size", "name", "padding", "strides", "trainable", "use_bias"]
    config = layer.get_config()
    assert (config["kernel_size"], config["strides"], config["dilation_rate"]) == \
        ((3,), (1,), (1,))


def test_conv1d_gradients_match_finite_differences():
    keras.utils.set_random_seed(0)
    layer = layers.Conv1D(2, 3, strides=2, padding="causal", dtype="float64",
                          bias_initializer="random_normal")
    check_layer_gradients(layer, RNG.normal(size=(2, 7, 2)))


def test_conv1d_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Expected a strictly positive value"):
        layers.Conv1D(0, 3)
    with pytest.raises(ValueError, match="'valid', 'same', 'causal'"):
        layers.Conv1D(2, 3, padding="full")
    with pytest.raises(ValueError, match="tuple of 1 positive integer"):
        layers.Conv1D(2, (3, 3))
    with pytest.raises(ValueError, match="channels_last"):
        layers.Conv1D(2, 3, data_format="channels_first")
    with pytest.raises(ValueError, match="negative or zero"):
        layers.Conv1D(2, 5)(keras.Input((3, 1)))
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.Conv1D(2, 3)(keras.Input((3, 4, 1)))


# -------------------------------------------------------- Conv2DTranspose
def reference_conv_transpose(x, k, stride, dilation, padding, out_hw):
    """Scatter each input pixel times the kernel onto a canvas, then crop the
    padding the forward convolution of ``out_hw`` would have used."""
    n, h, w, _ = x.shape
    kh, kw = (k.shape[0] - 1) * dilation + 1, (k.shape[1] - 1) * dilation + 1
    canvas = np.zeros((n, (h - 1) * stride + kh + stride, (w - 1) * stride + kw + stride,
                       k.shape[2]))
    for i in range(h):
        for j in range(w):
            for a in range(k.shape[0]):
                for b in range(k.shape[1]):
                    canvas[:, i * stride + a * dilation, j * stride + b * dilation] += \
                        x[:, i, j] @ k[a, b].T
    tops = []
    for size, span, out in ((h, kh, out_hw[0]), (w, kw, out_hw[1])):
        total = max((size - 1) * stride + span - out, 0) if padding == "same" else 0
        tops.append(total // 2)
    return canvas[:, tops[0]:tops[0] + out_hw[0], tops[1]:tops[1] + out_hw[1]]


# (kernel, strides, padding, output_padding, dilation) -> output (h, w) for a
# (5, 4) input, as Keras 3.15.1 computes them (its values match too: see
# tests/test_saving_keras_interop.py)
TRANSPOSE_FACTS = [
    ((3, 2, "valid", None, 1), (11, 9)), ((3, 2, "same", None, 1), (10, 8)),
    ((2, 2, "same", None, 1), (10, 8)), ((4, 3, "valid", None, 1), (16, 13)),
    ((3, 2, "same", 1, 1), (10, 8)), ((3, 2, "valid", 1, 1), (12, 10)),
    ((3, 1, "same", None, 2), (5, 4)), ((1, 3, "valid", None, 1), (15, 12)),
]


@pytest.mark.parametrize("args, out_hw", TRANSPOSE_FACTS)
def test_conv2d_transpose_matches_numpy_keras_shapes_and_contract(tmp_path, args,
                                                                  out_hw):
    kernel, strides, padding, output_padding, dilation = args
    x = RNG.normal(size=(2, 5, 4, 3)).astype("float32")

    def make():
        return layers.Conv2DTranspose(2, kernel, strides=strides, padding=padding,
                                      output_padding=output_padding,
                                      dilation_rate=dilation)

    keras.utils.set_random_seed(2)
    out = check_layer(make, x, tmp_path, atol=1e-5)
    assert out.shape == (2,) + out_hw + (2,)
    keras.utils.set_random_seed(2)
    layer = make()
    layer(x)
    expected = reference_conv_transpose(x, layer.kernel.numpy(), strides, dilation,
                                        padding, out_hw)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    # <conv2d(y, k), x> == <y, conv2d_transpose(x, k)> for the same kernel
    x = RNG.normal(size=(1, 4, 4, 3))
    layer = layers.Conv2DTranspose(2, 3, strides=2, padding="same", use_bias=False,
                                   dtype="float64")
    y_t = layer(x)
    y = RNG.normal(size=y_t.shape)
    forward = keras.backend.nn.conv2d(y, layer.kernel.numpy(), strides=2,
                                      padding="same")
    assert np.isclose(np.sum(forward * x), np.sum(y * y_t))


def test_conv2d_transpose_facts_from_keras():
    # Keras 3.15.1: Conv2DTranspose(4, 3, strides=2) on (None, 5, 5, 2)
    layer = layers.Conv2DTranspose(4, 3, strides=2)
    assert layer(keras.Input((5, 5, 2))).shape == (None, 11, 11, 4)
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("conv2d_transpose/kernel", (3, 3, 4, 2)), ("conv2d_transpose/bias", (4,))]
    assert sorted(layer.get_config()) == [
        "activation", "activity_regularizer", "bias_constraint", "bias_initializer",
        "bias_regularizer", "data_format", "dilation_rate", "dtype", "filters",
        "kernel_constraint", "kernel_initializer", "kernel_regularizer",
        "kernel_size", "name", "output_padding", "padding", "strides", "trainable",
        "use_bias"]


def test_conv2d_transpose_gradients_match_finite_differences():
    keras.utils.set_random_seed(0)
    layer = layers.Conv2DTranspose(2, 3, strides=2, padding="same", dtype="float64",
                                   bias_initializer="random_normal")
    check_layer_gradients(layer, RNG.normal(size=(1, 3, 2, 2)))


def test_conv2d_transpose_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Expected a strictly positive value"):
        layers.Conv2DTranspose(-1, 3)
    with pytest.raises(ValueError, match="smaller than the stride"):
        layers.Conv2DTranspose(2, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match="maps back to 5"):
        layers.Conv2DTranspose(2, 4, strides=2, padding="same",
                               output_padding=0)(keras.Input((5, 4, 1)))
    with pytest.raises(ValueError, match="expected ndim=4"):
        layers.Conv2DTranspose(2, 3)(keras.Input((5, 1)))


def test_conv2d_facts_from_keras():
    # Keras 3.15.1: Conv2D(4, 3) on (None, 6, 6, 2); the same config keys as
    # Conv1D (activity_regularizer included, which kerasmini's Conv2D once left out)
    layer = layers.Conv2D(4, 3, activity_regularizer="l2")
    assert layer(keras.Input((6, 6, 2))).shape == (None, 4, 4, 4)
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("conv2d/kernel", (3, 3, 2, 4)), ("conv2d/bias", (4,))]
    config = layer.get_config()
    assert sorted(config) == sorted(layers.Conv1D(4, 3).get_config())
    copy = layers.Conv2D.from_config(config)
    assert type(copy.activity_regularizer).__name__ == "L2"
    assert copy.input_spec.min_ndim == 4


def test_transposed_kernel_swaps_the_channel_axes():
    layer = layers.Conv2DTranspose(5, 2)
    layer.build((None, 4, 4, 3))
    assert layer.kernel.shape == (2, 2, 5, 3)
    assert layer.input_spec.ndim == 4 and layer.input_spec.axes == {-1: 3}
