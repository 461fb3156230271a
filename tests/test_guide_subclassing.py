"""The keras.io guide "Making new layers and models via subclassing" (Keras 3),
section by section, in our own scenarios, on kerasmini with small local data."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import ops

RNG = np.random.default_rng(0)


class EagerLinear(keras.Layer):
    """Weights made in __init__ from a known input size."""

    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal")
        self.b = self.add_weight(shape=(units,), initializer="zeros")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b


class Linear(keras.Layer):
    """Weights made in build, once the input size is known."""

    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer="random_normal")
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_layer_state_and_computation():
    layer = EagerLinear(4, 2)
    y = layer(np.ones((2, 2), "float32"))
    assert y.shape == (2, 4) and layer.weights == [layer.w, layer.b]
    np.testing.assert_allclose(y, np.ones((2, 2)) @ layer.w.numpy() + layer.b.numpy(),
                               rtol=1e-6)


def test_non_trainable_weight_accumulates():
    class ComputeSum(keras.Layer):
        def __init__(self, input_dim):
            super().__init__()
            self.total = self.add_weight(shape=(input_dim,), initializer="zeros",
                                         trainable=False)

        def call(self, inputs):
            self.total.assign_add(ops.sum(inputs, axis=0))
            return self.total

    my_sum = ComputeSum(2)
    x = np.ones((2, 2), "float32")
    assert np.asarray(my_sum(x)).tolist() == [2.0, 2.0]
    assert np.asarray(my_sum(x)).tolist() == [4.0, 4.0]
    assert (len(my_sum.weights), len(my_sum.non_trainable_weights),
            my_sum.trainable_weights) == (1, 1, [])


def test_deferred_build_and_recursive_composition():
    class MLPBlock(keras.Layer):
        def __init__(self):
            super().__init__()
            self.linear_1 = Linear(32)
            self.linear_2 = Linear(32)
            self.linear_3 = Linear(1)

        def call(self, inputs):
            x = ops.relu(self.linear_1(inputs))
            x = ops.relu(self.linear_2(x))
            return self.linear_3(x)

    mlp = MLPBlock()
    assert mlp.weights == []
    assert mlp(np.ones((3, 64), "float32")).shape == (3, 1)
    assert len(mlp.weights) == len(mlp.trainable_weights) == 6
    assert mlp.count_params() == 64 * 32 + 32 + 32 * 32 + 32 + 32 + 1


class ActivityRegularization(keras.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * ops.mean(inputs))
        return inputs


def test_add_loss_is_reset_at_each_outer_call():
    class Outer(keras.Layer):
        def __init__(self):
            super().__init__()
            self.activity_reg = ActivityRegularization(1e-2)

        def call(self, inputs):
            return self.activity_reg(inputs)

    layer = Outer()
    assert layer.losses == []
    layer(np.ones((1, 1), "float32"))
    assert len(layer.losses) == 1
    layer(np.ones((1, 1), "float32"))
    assert len(layer.losses) == 1 and float(layer.losses[0]) == pytest.approx(0.01)


def test_losses_include_weight_regularizers_of_inner_layers():
    class Outer(keras.Layer):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(32, kernel_regularizer=keras.regularizers.l2(1e-3))

        def call(self, inputs):
            return self.dense(inputs)

    layer = Outer()
    layer(np.zeros((1, 1), "float32"))
    kernel = layer.dense.kernel.numpy()
    assert len(layer.losses) == 1
    assert float(layer.losses[0]) == pytest.approx(1e-3 * float((kernel ** 2).sum()),
                                                   rel=1e-5)


def test_added_losses_train_with_and_without_a_compiled_loss():
    inputs = keras.Input(shape=(3,))
    model = keras.Model(inputs, ActivityRegularization()(inputs))
    x, y = RNG.random((8, 3)).astype("float32"), RNG.random((8, 3)).astype("float32")
    model.compile(optimizer="adam", loss="mse")
    with_mse = model.fit(x, y, verbose=0).history["loss"][0]
    expected = float(((x - y) ** 2).mean() + 0.01 * x.mean())
    assert with_mse == pytest.approx(expected, rel=1e-4)
    model.compile(optimizer="adam")
    only_added = model.fit(x, y, verbose=0).history["loss"][0]
    assert only_added == pytest.approx(0.01 * float(x.mean()), rel=1e-4)


def test_get_config_and_from_config():
    layer = Linear(64, name="projection")
    config = layer.get_config()
    assert config["units"] == 64 and config["name"] == "projection"
    twin = Linear.from_config(config)
    assert (twin.units, twin.name) == (64, "projection")


def test_training_argument_reaches_a_custom_dropout():
    class CustomDropout(keras.Layer):
        def __init__(self, rate, **kwargs):
            super().__init__(**kwargs)
            self.rate = rate
            self.seed_generator = keras.random.SeedGenerator(1337)

        def call(self, inputs, training=None):
            if training:
                return keras.random.dropout(inputs, rate=self.rate,
                                            seed=self.seed_generator)
            return inputs

    inputs = keras.Input((100,))
    model = keras.Model(inputs, CustomDropout(0.5)(keras.layers.Dense(100)(inputs)))
    x = np.ones((2, 100), "float32")
    np.testing.assert_array_equal(model(x), model(x))
    dropped = np.asarray(model(x, training=True))
    assert 0.3 < float((dropped == 0).mean()) < 0.7


def test_model_subclass_fits_and_saves_weights(tmp_path):
    class Classifier(keras.Model):
        def __init__(self, num_classes=10):
            super().__init__()
            self.block = Linear(16)
            self.classifier = keras.layers.Dense(num_classes)

        def call(self, inputs):
            return self.classifier(ops.relu(self.block(inputs)))

    (x, y), _ = keras.datasets.digits.load_data()
    x = (x.reshape(-1, 64) / 255.0).astype("float32")[:256]
    y = y[:256]
    model = Classifier()
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, epochs=5, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    model.save_weights(tmp_path / "classifier.weights.h5")
    twin = Classifier()
    twin(x[:1])
    twin.load_weights(tmp_path / "classifier.weights.h5")
    np.testing.assert_array_equal(model.predict(x, verbose=0), twin.predict(x, verbose=0))


def test_end_to_end_variational_autoencoder():
    # The guide's closing example: an encoder that samples with keras.random,
    # a KL penalty added with add_loss, and a model trained with fit.
    class Sampling(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seed_generator = keras.random.SeedGenerator(1337)

        def call(self, inputs):
            z_mean, z_log_var = inputs
            epsilon = keras.random.normal(ops.shape(z_mean), seed=self.seed_generator)
            return z_mean + ops.exp(0.5 * z_log_var) * epsilon

    class Encoder(keras.Layer):
        def __init__(self, latent_dim=4, intermediate_dim=32, **kwargs):
            super().__init__(**kwargs)
            self.dense_proj = keras.layers.Dense(intermediate_dim, activation="relu")
            self.dense_mean = keras.layers.Dense(latent_dim)
            self.dense_log_var = keras.layers.Dense(latent_dim)
            self.sampling = Sampling()

        def call(self, inputs):
            x = self.dense_proj(inputs)
            z_mean, z_log_var = self.dense_mean(x), self.dense_log_var(x)
            return z_mean, z_log_var, self.sampling((z_mean, z_log_var))

    class VariationalAutoEncoder(keras.Model):
        def __init__(self, original_dim, **kwargs):
            super().__init__(**kwargs)
            self.encoder = Encoder()
            self.decoder = keras.layers.Dense(original_dim, activation="sigmoid")

        def call(self, inputs):
            z_mean, z_log_var, z = self.encoder(inputs)
            reconstructed = self.decoder(z)
            kl = -0.5 * ops.mean(z_log_var - ops.square(z_mean) - ops.exp(z_log_var) + 1)
            self.add_loss(kl)
            return reconstructed

    (x, _), _ = keras.datasets.digits.load_data()
    x = (x.reshape(-1, 64) / 255.0).astype("float32")[:512]
    vae = VariationalAutoEncoder(64)
    vae.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
    history = vae.fit(x, x, epochs=4, batch_size=64, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert vae.predict(x[:3], verbose=0).shape == (3, 64)
    assert len(vae.losses) == 1  # the KL term of the last forward pass
