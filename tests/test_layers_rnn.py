"""The recurrent layers: RNN, SimpleRNN, LSTM, GRU and their cells.

Values against NumPy loops written from the equations; names, shapes and
configs as real Keras 3.15.1 gives them (its values for the same weights are
compared in ``test_saving_keras_interop.py``).
"""

import time

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.backend import GradientTape, clear_session, function
from kerasmini.saving import load_model


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def numpy_simple_rnn(x, kernel, recurrent, bias):
    h = np.zeros((x.shape[0], kernel.shape[1]))
    outs = []
    for t in range(x.shape[1]):
        h = np.tanh(x[:, t] @ kernel + h @ recurrent + bias)
        outs.append(h)
    return np.stack(outs, 1), h


def numpy_lstm(x, kernel, recurrent, bias):
    u = recurrent.shape[0]
    h = c = np.zeros((x.shape[0], u))
    outs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ recurrent + bias
        i, f, g, o = (z[:, k * u:(k + 1) * u] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), h, c


def numpy_gru(x, kernel, recurrent, bias, reset_after=True):
    u = recurrent.shape[0]
    h = np.zeros((x.shape[0], u))
    b_in, b_rec = (bias[0], bias[1]) if reset_after else (bias, np.zeros(3 * u))
    outs = []
    for t in range(x.shape[1]):
        xz = x[:, t] @ kernel + b_in
        if reset_after:
            inner = h @ recurrent + b_rec
            z = sigmoid(xz[:, :u] + inner[:, :u])
            r = sigmoid(xz[:, u:2 * u] + inner[:, u:2 * u])
            hh = np.tanh(xz[:, 2 * u:] + r * inner[:, 2 * u:])
        else:
            z = sigmoid(xz[:, :u] + h @ recurrent[:, :u])
            r = sigmoid(xz[:, u:2 * u] + h @ recurrent[:, u:2 * u])
            hh = np.tanh(xz[:, 2 * u:] + (r * h) @ recurrent[:, 2 * u:])
        h = z * h + (1 - z) * hh
        outs.append(h)
    return np.stack(outs, 1), h


@pytest.fixture
def x():
    return np.random.default_rng(0).normal(size=(3, 5, 4)).astype("float32")


def _random_weights(layer, seed=1):
    rng = np.random.default_rng(seed)
    layer.set_weights([rng.normal(size=w.shape).astype("float32") * 0.5
                       for w in layer.weights])
    return [w.numpy().astype("float64") for w in layer.weights]


# ------------------------------------------------------------------ values
def test_simple_rnn_matches_numpy(x):
    layer = layers.SimpleRNN(3, return_sequences=True, return_state=True)
    layer(x)
    weights = _random_weights(layer)
    seq, h = layer(x)
    ref_seq, ref_h = numpy_simple_rnn(x.astype("float64"), *weights)
    np.testing.assert_allclose(seq, ref_seq, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, ref_h, rtol=1e-5, atol=1e-6)


def test_lstm_matches_numpy(x):
    layer = layers.LSTM(3, return_sequences=True, return_state=True)
    layer(x)
    weights = _random_weights(layer)
    seq, h, c = layer(x)
    ref_seq, ref_h, ref_c = numpy_lstm(x.astype("float64"), *weights)
    np.testing.assert_allclose(seq, ref_seq, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, ref_h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c, ref_c, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reset_after", [True, False])
def test_gru_matches_numpy(x, reset_after):
    layer = layers.GRU(3, return_sequences=True, reset_after=reset_after)
    layer(x)
    weights = _random_weights(layer)
    ref_seq, _ = numpy_gru(x.astype("float64"), *weights, reset_after=reset_after)
    np.testing.assert_allclose(layer(x), ref_seq, rtol=1e-5, atol=1e-6)


def test_last_output_is_the_last_step_of_the_sequence(x):
    layer = layers.GRU(3, return_sequences=True)
    seq = layer(x)
    last = layers.RNN(layer.cell)(x)  # the same cell, its weights shared
    np.testing.assert_allclose(last, seq[:, -1], rtol=1e-6)


def test_go_backwards_reads_the_sequence_reversed(x):
    forward = layers.LSTM(3, return_sequences=True)
    backward = layers.LSTM(3, return_sequences=True, go_backwards=True)
    forward(x)
    backward(x)
    backward.set_weights(forward.get_weights())
    # outputs come in the order processed, as Keras returns them
    np.testing.assert_allclose(backward(x), forward(x[:, ::-1]), rtol=1e-6)


def test_lstm_forget_bias_starts_at_one():
    layer = layers.LSTM(2)
    layer(np.zeros((1, 3, 4), "float32"))
    assert layer.cell.bias.numpy().tolist() == [0, 0, 1, 1, 0, 0, 0, 0]


def test_initial_state_is_used(x):
    layer = layers.SimpleRNN(3, return_state=True)
    zero_out, _ = layer(x)
    out, _ = layer(x, initial_state=[np.ones((3, 3), "float32")])
    assert not np.allclose(out, zero_out)


def test_recurrent_kernel_is_orthogonal_by_default():
    layer = layers.SimpleRNN(6)
    layer(np.zeros((1, 2, 3), "float32"))
    w = layer.cell.recurrent_kernel.numpy()
    np.testing.assert_allclose(w @ w.T, np.eye(6), atol=1e-5)


# -------------------------------------------------------------- masking
def test_masked_steps_carry_the_state_and_repeat_the_output(x):
    layer = layers.LSTM(3, return_sequences=True, return_state=True)
    mask = np.array([[True] * 5, [True, True, False, False, False],
                     [True, False, True, False, True]])
    seq, h, c = layer(x, mask=mask)
    # a right-padded sequence ends as its unpadded prefix ends
    short, h_short, c_short = layer(x[1:2, :2])
    np.testing.assert_allclose(h[1], h_short[0], rtol=1e-6)
    np.testing.assert_allclose(c[1], c_short[0], rtol=1e-6)
    np.testing.assert_allclose(seq[1, 2:], np.repeat(short[:, -1], 3, axis=0))
    np.testing.assert_allclose(seq[2, 1], seq[2, 0])  # step 1 masked: repeated
    full, _, _ = layer(x[:1])
    np.testing.assert_allclose(seq[0], full[0], rtol=1e-6)


def test_zero_output_for_mask(x):
    layer = layers.RNN(layers.SimpleRNNCell(2), return_sequences=True,
                       zero_output_for_mask=True)
    out = layer(x, mask=np.array([[True, False, True, True, False]] * 3))
    assert np.all(out[:, [1, 4]] == 0) and np.all(out[:, 0] != 0)


def test_rnn_output_mask_follows_return_sequences():
    inputs = keras.Input((4,), dtype="int32")
    embedded = layers.Embedding(5, 2, mask_zero=True)(inputs)
    seq = layers.GRU(2, return_sequences=True)(embedded)
    last, state = layers.GRU(2, return_state=True)(embedded)
    assert seq._keras_mask is embedded._keras_mask
    assert getattr(last, "_keras_mask", None) is None
    assert getattr(state, "_keras_mask", None) is None


# --------------------------------------------------------- shapes, names
@pytest.mark.parametrize("cls", [layers.SimpleRNN, layers.LSTM, layers.GRU])
@pytest.mark.parametrize("return_sequences", [False, True])
@pytest.mark.parametrize("return_state", [False, True])
def test_symbolic_shapes_match_eager(cls, return_sequences, return_state, x):
    layer = cls(3, return_sequences=return_sequences, return_state=return_state)
    symbolic = layer(keras.Input((5, 4)))
    eager = layer(x)
    flat_symbolic = symbolic if return_state else [symbolic]
    flat_eager = eager if return_state else [eager]
    assert len(flat_symbolic) == len(flat_eager)
    for kt, value in zip(flat_symbolic, flat_eager):
        assert kt.shape[1:] == value.shape[1:] and kt.shape[0] is None


@pytest.mark.parametrize("cls, name, gates, bias", [
    (layers.SimpleRNN, "simple_rnn", 1, (3,)), (layers.LSTM, "lstm", 4, (12,)),
    (layers.GRU, "gru", 3, (2, 9))])
def test_weight_paths_shapes_and_order_as_keras(cls, name, gates, bias):
    clear_session()
    layer = cls(3)
    layer(np.zeros((2, 5, 4), "float32"))
    assert [(w.path, w.shape) for w in layer.weights] == [
        (f"{name}/{name}_cell/kernel", (4, 3 * gates)),
        (f"{name}/{name}_cell/recurrent_kernel", (3, 3 * gates)),
        (f"{name}/{name}_cell/bias", bias)]
    assert layer.count_params() == sum(int(np.prod(w.shape)) for w in layer.weights)


def test_parameter_counts_as_keras():
    # Keras 3.15.1 summary: Embedding(10, 4) 40, LSTM(5) 200, GRU(4) 132
    # (two bias rows with reset_after), SimpleRNN(3) 24
    model = keras.Sequential([keras.Input((6,), dtype="int32"),
                              layers.Embedding(10, 4), layers.LSTM(5),
                              layers.Reshape((5, 1)), layers.GRU(4),
                              layers.Reshape((4, 1)), layers.SimpleRNN(3)])
    counts = [layer.count_params() for layer in model.layers]
    assert counts == [40, 200, 0, 84, 0, 15]
    gru = layers.GRU(4)
    gru(np.zeros((1, 6, 5), "float32"))
    assert gru.count_params() == 132


# ---------------------------------------------------------------- config
@pytest.mark.parametrize("layer", [
    layers.LSTM(3, return_sequences=True, go_backwards=True, dropout=0.1),
    layers.GRU(2, reset_after=False, return_state=True),
    layers.SimpleRNN(4, activation="relu", stateful=False),
    layers.RNN(layers.LSTMCell(2), return_sequences=True)])
def test_config_round_trip(layer):
    config = layer.get_config()
    copy = type(layer).from_config(config)
    assert copy.get_config() == config


def test_lstm_config_keys_as_keras():
    keys = list(layers.LSTM(3).get_config())
    assert keys[:9] == ["name", "trainable", "dtype", "return_sequences",
                        "return_state", "go_backwards", "stateful", "unroll",
                        "zero_output_for_mask"]
    assert set(keys) >= {"units", "unit_forget_bias", "recurrent_initializer",
                         "activity_regularizer", "seed"} and "cell" not in keys
    assert "seed" not in layers.SimpleRNN(2).get_config()
    assert layers.GRU(2).get_config()["reset_after"] is True


def test_keras_file_round_trip(tmp_path, x):
    model = keras.Sequential([keras.Input((5, 4)),
                              layers.LSTM(3, return_sequences=True),
                              layers.GRU(2), layers.Dense(1)])
    model.save(tmp_path / "m.keras")
    copy = load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(copy.predict(x, verbose=0),
                                  model.predict(x, verbose=0))


# --------------------------------------------------------------- stateful
def test_stateful_keeps_state_between_batches_and_reset_clears_it(x):
    layer = layers.LSTM(3, stateful=True)
    model = keras.Sequential([keras.Input((5, 4), batch_size=3), layer])
    first = model.predict(x, verbose=0)
    second = model.predict(x, verbose=0)
    assert not np.allclose(first, second)  # started from the kept state
    layer.reset_states()
    np.testing.assert_allclose(model.predict(x, verbose=0), first, rtol=1e-6)
    assert [v.shape for v in layer.states] == [(3, 3), (3, 3)]
    assert all(v.path.endswith("rnn_state") for v in layer.states)
    assert layer.states[0] not in model.weights  # not saved, as in Keras


def test_stateful_needs_a_fixed_batch_size():
    with pytest.raises(ValueError, match="batch size must be static"):
        layers.GRU(2, stateful=True)(keras.Input((5, 4)))
    layer = layers.GRU(2, stateful=True)
    layer(np.zeros((3, 5, 4), "float32"))
    with pytest.raises(ValueError, match="Expected batch size: 3"):
        layer(np.zeros((2, 5, 4), "float32"))


# ------------------------------------------------------------------ errors
def test_wrong_rank_is_a_clear_error():
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        layers.LSTM(2)(np.zeros((2, 3), "float32"))
    with pytest.raises(ValueError, match=r"shape \(batch_size, timesteps, features\)"):
        layers.RNN(layers.GRUCell(2))(np.zeros((2, 3), "float32"))


def test_invalid_arguments():
    with pytest.raises(ValueError, match="expected a positive integer, got 0"):
        layers.SimpleRNN(0)
    with pytest.raises(ValueError, match="use_cudnn"):
        layers.LSTM(2, use_cudnn="yes")
    with pytest.raises(ValueError, match="state_size"):
        layers.RNN(layers.Dense(2))


# ------------------------------------------------------- custom cell, dropout
def test_rnn_with_a_custom_cell_as_in_the_keras_guide():
    class MinimalRNNCell(layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units))
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units))

        def call(self, inputs, states):
            h = keras.ops.matmul(inputs, self.kernel)
            output = h + keras.ops.matmul(states[0], self.recurrent_kernel)
            return output, [output]

    layer = layers.RNN(MinimalRNNCell(3), return_sequences=True)
    model = keras.Model(inp := keras.Input((None, 5)), layer(inp))
    assert model.output_shape == (None, None, 3)
    assert model.predict(np.ones((2, 4, 5), "float32"), verbose=0).shape == (2, 4, 3)


def test_dropout_only_when_training(x):
    layer = layers.LSTM(3, dropout=0.5, recurrent_dropout=0.5, unroll=True)
    inference = layer(x)
    np.testing.assert_array_equal(layer(x), inference)
    assert not np.allclose(layer(x, training=True), inference)


# -------------------------------------------------------- gradients, training
@pytest.mark.parametrize("cls", [layers.SimpleRNN, layers.LSTM, layers.GRU])
def test_gradient_through_time_matches_finite_differences(cls):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 4, 3))
    mask = np.array([[True, True, False, True], [True, False, False, False]])
    layer = cls(2, return_sequences=True, dtype="float64")
    layer(x)
    weights = layer.cell.weights

    def loss():
        return float(np.sum(np.sin(np.asarray(layer(x, mask=mask)))))

    with GradientTape() as tape:
        out = layer(x, mask=mask)
        total = keras.ops.sum(keras.ops.sin(out))
    grads = tape.gradient(total, weights)
    eps = 1e-6
    for w, g in zip(weights, grads):
        value = w.numpy()
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            bumped = value.copy()
            bumped[index] += eps
            w.assign(bumped)
            up = loss()
            bumped[index] -= 2 * eps
            w.assign(bumped)
            numeric[index] = (up - loss()) / (2 * eps)
            w.assign(value)
        np.testing.assert_allclose(np.asarray(g), numeric, rtol=1e-5, atol=1e-7)


def _sequence_task(n=256, steps=10, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(1, 8, size=(n, steps)).astype("int32")
    for i, length in enumerate(rng.integers(3, steps + 1, size=n)):
        x[i, length:] = 0  # right padding
    y = ((x == 3).sum(axis=1) > 1).astype("float32")  # token 3 at least twice?
    return x, y


def test_lstm_learns_a_sequence_task_in_graph_mode_in_seconds():
    keras.utils.set_random_seed(0)
    x, y = _sequence_task()
    model = keras.Sequential([keras.Input((10,), dtype="int32"),
                              layers.Embedding(8, 8, mask_zero=True),
                              layers.LSTM(16), layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy",
                  metrics=["accuracy"])
    start = time.perf_counter()
    history = model.fit(x, y, epochs=10, batch_size=32, verbose=0)
    seconds = time.perf_counter() - start
    losses = history.history["loss"]
    assert losses[-1] < 0.5 * losses[0]
    assert history.history["accuracy"][-1] > 0.85
    assert seconds < 20, seconds


def test_graph_mode_and_eager_training_agree():
    x, y = _sequence_task(n=64)
    results = []
    for run_eagerly in (False, True):
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((10,), dtype="int32"),
                                  layers.Embedding(8, 4, mask_zero=True),
                                  layers.GRU(4, return_sequences=True),
                                  layers.SimpleRNN(3), layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
        results.append(model.fit(x, y, epochs=2, batch_size=16,
                                 verbose=0).history["loss"])
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5)


def test_traced_function_replays_the_loop(x):
    layer = layers.LSTM(3)
    traced = function(lambda v: layer(v))
    np.testing.assert_allclose(traced(x), layer(x), rtol=1e-6)
    np.testing.assert_allclose(traced(x * 2), layer(x * 2), rtol=1e-6)
    assert traced.trace_count == 1


@pytest.mark.parametrize("make", [
    lambda: layers.SimpleRNN(2, go_backwards=True, return_state=True, dtype="float64"),
    lambda: layers.LSTM(2, go_backwards=True, return_state=True, dtype="float64"),
    lambda: layers.GRU(2, reset_after=False, return_state=True, dtype="float64"),
], ids=["simple_rnn", "lstm", "gru_reset_before"])
def test_gradient_to_inputs_and_initial_state_matches_finite_differences(make):
    """Backwards, masked, with states in and out: the gradient reaches the
    sequence and the initial states (zero at the masked steps)."""
    rng = np.random.default_rng(1)
    layer = make()
    x = rng.normal(size=(2, 4, 3))
    mask = np.array([[True, False, True, True], [True, True, False, False]])
    states = [rng.normal(size=(2, 2)) for _ in layer.state_size]

    def total(x_, states_):
        out, *final = layer(x_, initial_state=states_, mask=mask)
        parts = [keras.ops.sum(keras.ops.sin(v)) for v in [out, *final]]
        return parts[0] + sum(parts[1:])

    sources = [keras.Variable(v, dtype="float64") for v in [x, *states]]
    with GradientTape() as tape:
        value = total(sources[0], sources[1:])
    grads = tape.gradient(value, sources)
    arrays = [x, *states]
    eps = 1e-6
    for k, (array, grad) in enumerate(zip(arrays, grads)):
        numeric = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            bumped = [a.copy() for a in arrays]
            bumped[k][index] += eps
            up = float(total(bumped[0], bumped[1:]))
            bumped[k][index] -= 2 * eps
            numeric[index] = (up - float(total(bumped[0], bumped[1:]))) / (2 * eps)
        np.testing.assert_allclose(np.asarray(grad), numeric, rtol=1e-5, atol=1e-7)
    masked_steps = np.asarray(grads[0])[~mask]
    assert np.all(masked_steps == 0)  # a skipped step does not matter
