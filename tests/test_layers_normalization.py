"""BatchNormalization and Embedding."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops
from kerasmini.backend import GradientTape

RNG = np.random.default_rng(0)


def test_batch_norm_training_uses_batch_statistics():
    x = RNG.normal(2.0, 3.0, size=(16, 4)).astype("float32")
    bn = layers.BatchNormalization(epsilon=1e-3)
    out = bn(x, training=True)
    expected = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_batch_norm_updates_moving_statistics_in_training_only():
    x = RNG.normal(2.0, 3.0, size=(16, 4)).astype("float32")
    bn = layers.BatchNormalization(momentum=0.9)
    bn(x, training=True)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.1 * x.mean(0), rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.9 + 0.1 * x.var(0),
                               rtol=1e-5)
    before = bn.moving_mean.numpy()
    out = bn(x)  # inference: moving statistics, no update
    np.testing.assert_array_equal(bn.moving_mean.numpy(), before)
    expected = (x - before) / np.sqrt(bn.moving_variance.numpy() + 1e-3)
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_batch_norm_moving_statistics_are_non_trainable_weights():
    bn = layers.BatchNormalization()
    bn.build((None, 3))
    assert [w.name for w in bn.trainable_weights] == ["gamma", "beta"]
    assert [w.name for w in bn.non_trainable_weights] == ["moving_mean",
                                                          "moving_variance"]


def test_batch_norm_channels_last_images():
    x = RNG.normal(size=(4, 3, 3, 2)).astype("float32")
    out = layers.BatchNormalization()(x, training=True)
    np.testing.assert_allclose(np.asarray(out).mean(axis=(0, 1, 2)), 0, atol=1e-5)


def test_batch_norm_in_fit_updates_moving_statistics_through_the_traced_step():
    x = RNG.normal(5.0, 1.0, size=(64, 2)).astype("float32")
    model = keras.Sequential([keras.Input(shape=(2,)), layers.BatchNormalization(),
                              layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.zeros((64, 1), "float32"), epochs=5, batch_size=16, verbose=0)
    moving_mean = model.layers[0].moving_mean.numpy()
    assert np.all(moving_mean > 0.5)  # 20 updates of 1% towards ~5
    assert model.train_function.trace_count == 1


def test_batch_norm_gradient_matches_finite_differences():
    x = RNG.normal(size=(5, 2)).astype("float64")
    bn = layers.BatchNormalization(dtype="float64")
    bn.build((None, 2))
    weights = RNG.normal(size=(5, 2))

    def loss(inputs):
        return ops.sum(ops.multiply(bn(inputs, training=True), weights))

    with GradientTape() as tape:
        tape.watch(x)
        value = loss(x)
    grad = tape.gradient(value, x)
    eps = 1e-6
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        numeric[index] = (float(loss(plus)) - float(loss(minus))) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


def test_embedding_gathers_rows():
    layer = layers.Embedding(5, 3)
    indices = np.array([[0, 4], [4, 1]])
    out = layer(indices)
    np.testing.assert_array_equal(out, layer.embeddings.numpy()[indices])


def test_embedding_gradient_adds_into_used_rows():
    layer = layers.Embedding(4, 2)
    layer.build(None)
    with GradientTape() as tape:
        loss = ops.sum(layer(np.array([1, 1, 3])))
    grad = tape.gradient(loss, layer.embeddings)
    np.testing.assert_array_equal(grad, [[0, 0], [2, 2], [0, 0], [1, 1]])


def test_embedding_rejects_bad_sizes():
    with pytest.raises(ValueError, match="should be positive integers"):
        layers.Embedding(0, 3)


def test_embedding_model_trains_with_fit():
    x = RNG.integers(0, 10, size=(64, 3))
    y = (x.sum(1) > 13).astype("int64")
    model = keras.Sequential([keras.Input(shape=(3,), dtype="int64"),
                              layers.Embedding(10, 4), layers.Flatten(),
                              layers.Dense(2, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=20, batch_size=16, verbose=0)
    assert history.history["accuracy"][-1] > 0.9


# ----------------------------------------------------- LayerNormalization
from layer_contract import check_layer, check_layer_gradients  # noqa: E402


@pytest.mark.parametrize("axis, shape", [(-1, (4, 6)), (-1, (3, 4, 5)),
                                         ([1, 2], (3, 4, 5)), ((1, 3), (2, 3, 2, 4))])
def test_layer_norm_matches_numpy_and_the_layer_contract(tmp_path, axis, shape):
    x = RNG.normal(2.0, 3.0, size=shape).astype("float32")

    def make():
        return layers.LayerNormalization(axis=axis, epsilon=1e-3,
                                         gamma_initializer="random_normal",
                                         beta_initializer="random_normal")

    keras.utils.set_random_seed(3)
    out = check_layer(make, x, tmp_path, rtol=1e-5, atol=1e-5)
    keras.utils.set_random_seed(3)
    layer = make()
    layer(x)
    axes = tuple(a % len(shape) for a in ([axis] if isinstance(axis, int) else axis))
    broadcast = [shape[a] if a in axes else 1 for a in range(len(shape))]
    normalised = (x - x.mean(axes, keepdims=True)) / np.sqrt(
        x.var(axes, keepdims=True) + 1e-3)
    expected = normalised * layer.gamma.numpy().reshape(broadcast) + \
        layer.beta.numpy().reshape(broadcast)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_layer_norm_is_the_same_in_training_and_inference():
    x = RNG.normal(size=(4, 3)).astype("float32")
    layer = layers.LayerNormalization()
    np.testing.assert_array_equal(layer(x, training=True), layer(x))
    assert layer.non_trainable_weights == []


def test_layer_norm_facts_from_keras():
    # Keras 3.15.1: LayerNormalization() on (None, 10, 2)
    layer = layers.LayerNormalization()
    assert layer.get_config()["axis"] == -1
    assert layer(keras.Input((10, 2))).shape == (None, 10, 2)
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("layer_normalization/gamma", (2,)), ("layer_normalization/beta", (2,))]
    config = layer.get_config()
    assert sorted(config) == [
        "axis", "beta_constraint", "beta_initializer", "beta_regularizer", "center",
        "dtype", "epsilon", "gamma_constraint", "gamma_initializer",
        "gamma_regularizer", "name", "rms_scaling", "scale", "trainable"]
    assert (config["axis"], config["epsilon"], config["rms_scaling"]) == \
        ([-1], 0.001, False)
    no_beta = layers.LayerNormalization(center=False)
    no_beta(keras.Input((3,)))
    assert [w.name for w in no_beta.weights] == ["gamma"]


def test_layer_norm_gradients_match_finite_differences():
    keras.utils.set_random_seed(0)
    layer = layers.LayerNormalization(axis=(1, 2), dtype="float64",
                                      gamma_initializer="random_normal",
                                      beta_initializer="random_normal")
    check_layer_gradients(layer, RNG.normal(size=(2, 3, 2)))


def test_layer_norm_rejects_bad_arguments():
    with pytest.raises(TypeError, match="Expected an int or a list/tuple of ints"):
        layers.LayerNormalization(axis="last")
    with pytest.raises(ValueError, match="Axis 3 is out of bounds"):
        layers.LayerNormalization(axis=3)(keras.Input((4,)))
    with pytest.raises(ValueError, match="must have a known size"):
        layers.LayerNormalization()(keras.Input((None,)))
