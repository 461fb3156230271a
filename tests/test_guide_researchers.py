"""The keras.io guide "Introduction to Keras for researchers" (Keras 3), in our
own scenarios: variables and gradients, layers with state, a hand-written
training loop, metrics, compiled (traced) steps, the training flag, and a
hypernetwork whose weights come from another network."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops

(X, Y), _ = keras.datasets.digits.load_data()
X = (X.reshape(-1, 64).astype("float32") / 255.0)[:512]
Y = Y[:512]


def test_variables_and_gradients():
    a = keras.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], "float32"), name="a")
    b = keras.random.normal((2, 2), seed=0)
    with keras.GradientTape() as tape:
        c = ops.sqrt(ops.square(a) + ops.square(b))
        d = ops.sum(c)
    grad = tape.gradient(d, a)
    np.testing.assert_allclose(grad, a.numpy() / np.sqrt(a.numpy() ** 2 + b ** 2),
                               rtol=1e-5)
    a.assign_add(np.ones((2, 2), "float32"))
    assert a.numpy()[0, 0] == 2.0


def test_second_order_gradients():
    x = keras.Variable(2.0, name="x")
    with keras.GradientTape() as outer:
        with keras.GradientTape() as inner:
            y = x * x * x
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    assert (float(dy_dx), float(d2y_dx2)) == (12.0, 12.0)


class Linear(layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer="random_normal")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b


class MLP(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.linear_1 = Linear(32)
        self.linear_2 = Linear(32)
        self.linear_3 = Linear(10)

    def call(self, inputs):
        x = ops.relu(self.linear_1(inputs))
        x = ops.relu(self.linear_2(x))
        return self.linear_3(x)


def _train(mlp, step, epochs=3):
    losses = []
    for _ in range(epochs):
        for start in range(0, len(X), 64):
            losses.append(float(step(X[start:start + 64], Y[start:start + 64])))
    return losses


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_hand_written_training_loop_with_a_metric(traced):
    keras.utils.set_random_seed(0)
    mlp = MLP()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    accuracy = keras.metrics.SparseCategoricalAccuracy()

    def step(x, y):
        with keras.GradientTape() as tape:
            logits = mlp(x)
            loss = loss_fn(y, logits)
        gradients = tape.gradient(loss, mlp.trainable_weights)
        optimizer.apply_gradients(zip(gradients, mlp.trainable_weights))
        accuracy.update_state(y, logits)
        return loss

    mlp(X[:1])  # build before tracing: variables are not made in a trace
    losses = _train(mlp, keras.function(step) if traced else step)
    assert np.mean(losses[-8:]) < np.mean(losses[:8])
    assert float(accuracy.result()) > 0.25  # ten classes: chance is 0.1
    accuracy.reset_state()
    assert float(accuracy.result()) == 0.0


def test_training_flag_changes_dropout_and_batch_normalization():
    class Block(layers.Layer):
        def __init__(self):
            super().__init__()
            self.bn = layers.BatchNormalization()
            self.dropout = layers.Dropout(0.5)

        def call(self, x, training=False):
            return self.dropout(self.bn(x, training=training), training=training)

    block = Block()
    x = np.random.default_rng(0).normal(size=(16, 4)).astype("float32")
    np.testing.assert_array_equal(block(x), block(x))
    moving_mean = block.bn.moving_mean.numpy().copy()
    block(x, training=True)
    assert not np.array_equal(block.bn.moving_mean.numpy(), moving_mean)


def test_functional_model_from_custom_layers_trains_with_fit():
    keras.utils.set_random_seed(0)
    inputs = keras.Input(shape=(64,))
    outputs = Linear(10)(ops.relu(Linear(32)(inputs)))
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[keras.metrics.SparseCategoricalAccuracy()])
    history = model.fit(X, Y, epochs=3, batch_size=64, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_hypernetwork_produces_the_weights_of_another_layer():
    # a small network outputs the kernel and bias of a Dense-like map
    input_dim, output_dim = 64, 10
    num_weights = input_dim * output_dim + output_dim
    hypernetwork = keras.Sequential([keras.Input((input_dim,)),
                                     layers.Dense(16, activation="relu"),
                                     layers.Dense(num_weights)])
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)

    def step(x, y):
        with keras.GradientTape() as tape:
            weights_pred = ops.mean(hypernetwork(x), axis=0)
            kernel = ops.reshape(weights_pred[:input_dim * output_dim],
                                 (input_dim, output_dim))
            bias = weights_pred[input_dim * output_dim:]
            loss = loss_fn(y, ops.matmul(x, kernel) + bias)
        grads = tape.gradient(loss, hypernetwork.trainable_weights)
        optimizer.apply_gradients(zip(grads, hypernetwork.trainable_weights))
        return loss

    losses = [float(step(X[i:i + 32], Y[i:i + 32])) for i in range(0, 512, 32)]
    assert all(np.isfinite(losses)) and np.mean(losses[-4:]) < np.mean(losses[:4])
