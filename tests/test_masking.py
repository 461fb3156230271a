"""Masking: a mask made by ``Embedding(mask_zero=True)`` or ``Masking`` rides
on the tensors (``_keras_mask``) through ``compute_mask`` to the layers that
use it and to the loss, in eager, symbolic and traced calls, as in Keras 3.
"""

import warnings

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.backend import function
from kerasmini.backend.masking import get_keras_mask, set_keras_mask
from kerasmini.book.steps import call_steps
from kerasmini.saving import load_model

TOKENS = np.array([[3, 1, 4, 0, 0], [2, 7, 0, 0, 0], [5, 9, 2, 6, 5]], "int32")


def test_mask_attaches_to_arrays_and_is_forgotten_with_them():
    x = np.ones(3)
    set_keras_mask(x, np.array([True, False, True]))
    assert get_keras_mask(x).tolist() == [True, False, True]
    assert get_keras_mask(np.ones(3)) is None  # another array, no mask
    set_keras_mask(x, None)
    assert get_keras_mask(x) is None


# ---------------------------------------------------------- making masks
def test_embedding_mask_zero_eager_and_symbolic():
    layer = layers.Embedding(10, 3, mask_zero=True)
    assert layer.supports_masking
    np.testing.assert_array_equal(get_keras_mask(layer(TOKENS)), TOKENS != 0)
    kt = layer(keras.Input((5,), dtype="int32"))
    assert kt._keras_mask.shape == (None, 5) and kt._keras_mask.dtype == "bool"
    assert get_keras_mask(layers.Embedding(10, 3)(TOKENS)) is None


def test_masking_layer_masks_and_zeroes_padded_steps():
    x = np.array([[[1.0, 2.0], [0.0, 0.0], [0.0, 3.0]]], "float32")
    layer = layers.Masking(mask_value=0.0)
    out = layer(x)
    assert get_keras_mask(out).tolist() == [[True, False, True]]
    assert layer.compute_mask(x).tolist() == [[True, False, True]]
    x[0, 1] = [-1.0, -1.0]
    out = layers.Masking(mask_value=-1.0)(x)
    assert out[0, 1].tolist() == [0.0, 0.0]
    assert layers.Masking(-1.0).get_config()["mask_value"] == -1.0


def test_compute_mask_default_passes_the_mask_on():
    layer = layers.Layer()
    mask = np.array([[True, False]])
    assert layer.compute_mask(np.ones((1, 2, 3)), mask) is mask
    assert not layer.supports_masking
    assert layers.Dense(2).supports_masking and layers.Dropout(0.1).supports_masking
    assert layers.LSTM(2).supports_masking


def test_the_masking_step_is_step_six_of_call():
    steps = {step.label: step.title for step in call_steps(layers.Layer.__call__)}
    assert steps["6"].startswith("Populate mask arguments")
    assert list(steps) == ["1", "2", "3", "4", "5", "6", "7", "8"]


# ------------------------------------------------- propagation to the RNN
def _reference_last_outputs(lstm, embedding):
    """Each sequence run without its padding: what the mask must give."""
    return np.concatenate([lstm(embedding(row[None, :int((row != 0).sum())]))
                           for row in TOKENS])


def _check_masked_model(model, embedding, lstm):
    got = model(TOKENS)
    assert got.shape == (3, 2)
    dense = model.layers[-1]
    expected = dense(_reference_last_outputs(lstm, embedding))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_mask_flows_through_sequential():
    embedding = layers.Embedding(10, 4, mask_zero=True)
    lstm = layers.LSTM(3)
    model = keras.Sequential([keras.Input((5,), dtype="int32"), embedding, lstm,
                              layers.Dense(2)])
    _check_masked_model(model, embedding, lstm)


def test_mask_flows_through_functional():
    inputs = keras.Input((5,), dtype="int32")
    embedding = layers.Embedding(10, 4, mask_zero=True)
    lstm = layers.LSTM(3)
    model = keras.Model(inputs, layers.Dense(2)(lstm(embedding(inputs))))
    _check_masked_model(model, embedding, lstm)
    # the automatic mask is not recorded as a call argument of the node
    assert "mask" not in lstm._inbound_nodes[0].call_kwargs
    assert lstm.input_mask is embedding.output_mask  # Keras 2's names
    assert lstm.output_mask is None


def test_mask_flows_through_a_subclassed_model():
    class Classifier(keras.Model):
        def __init__(self):
            super().__init__()
            self.embedding = layers.Embedding(10, 4, mask_zero=True)
            self.lstm = layers.LSTM(3)
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(self.lstm(self.embedding(x)))

    model = Classifier()
    got = model(TOKENS)
    expected = model.dense(_reference_last_outputs(model.lstm, model.embedding))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_sequence_mask_reaches_dense_and_the_output():
    model = keras.Sequential([keras.Input((5,), dtype="int32"),
                              layers.Embedding(10, 4, mask_zero=True),
                              layers.GRU(3, return_sequences=True),
                              layers.Dense(2), layers.Activation("softmax")])
    out = model(TOKENS)
    np.testing.assert_array_equal(get_keras_mask(out), TOKENS != 0)
    assert model.output._keras_mask.shape == (None, 5)


def test_explicit_mask_argument_and_functional_mask_argument():
    x = np.random.default_rng(0).normal(size=(3, 5, 2)).astype("float32")
    lstm = layers.LSTM(2)
    mask = TOKENS != 0
    np.testing.assert_allclose(lstm(x, mask=mask)[1], lstm(x[1:2, :2])[0], rtol=1e-6)
    inputs = keras.Input((5, 2))
    model = keras.Model(inputs, lstm(inputs))
    # a Functional does not compute a mask itself (Keras 3 warns the same)
    with pytest.warns(UserWarning, match="'functional'"):
        np.testing.assert_allclose(model(x, mask=mask), lstm(x, mask=mask),
                                   rtol=1e-6)


def test_layer_without_masking_support_warns_and_drops_the_mask():
    embedded = layers.Embedding(10, 2, mask_zero=True)(keras.Input((5,), dtype="int32"))
    with pytest.warns(UserWarning, match="does not support masking"):
        flat = layers.Flatten()(embedded)
    assert getattr(flat, "_keras_mask", None) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no mask, no warning
        layers.Flatten()(keras.Input((5, 2)))


def test_mask_survives_input_conversion():
    x = np.ones((1, 3, 2), "float64")
    set_keras_mask(x, np.array([[True, True, False]]))
    seen = {}

    class Spy(layers.Layer):
        supports_masking = True

        def call(self, inputs, mask=None):
            seen["mask"], seen["dtype"] = mask, inputs.dtype
            return inputs

    Spy()(x)
    assert seen["dtype"] == "float32" and seen["mask"].tolist() == [[True, True, False]]


def test_masks_inside_a_traced_function():
    embedding = layers.Embedding(10, 4, mask_zero=True)
    lstm = layers.LSTM(3)
    traced = function(lambda tokens: lstm(embedding(tokens)))
    np.testing.assert_allclose(traced(TOKENS), lstm(embedding(TOKENS)), rtol=1e-6)
    other = TOKENS[::-1].copy()
    np.testing.assert_allclose(traced(other), lstm(embedding(other)), rtol=1e-6)
    assert traced.trace_count == 1


# ---------------------------------------------------------- loss, metrics
def _sequence_model():
    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.Input((5,), dtype="int32"),
                             layers.Embedding(10, 4, mask_zero=True),
                             layers.LSTM(4, return_sequences=True),
                             layers.Dense(3, activation="softmax")])


def test_loss_and_metrics_count_only_unmasked_steps():
    model = _sequence_model()
    labels = np.array([[0, 1, 2, 0, 0], [1, 1, 0, 0, 0], [2, 2, 2, 2, 2]])
    model.compile(loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    loss, accuracy = model.evaluate(TOKENS, labels, verbose=0)
    probs = model.predict(TOKENS, verbose=0)
    valid = TOKENS != 0
    per_step = -np.log(np.take_along_axis(probs, labels[..., None], -1)[..., 0])
    np.testing.assert_allclose(loss, per_step[valid].mean(), rtol=1e-5)
    hits = probs.argmax(-1) == labels
    np.testing.assert_allclose(accuracy, hits[valid].mean(), rtol=1e-6)


def test_masked_loss_with_sample_weight():
    model = _sequence_model()
    model.compile(loss="sparse_categorical_crossentropy")
    labels = np.zeros((3, 5), "int32")
    weights = np.array([1.0, 0.0, 2.0], "float32")
    probs = model.predict(TOKENS, verbose=0)
    per_step = -np.log(probs[..., 0])
    valid = TOKENS != 0
    # weights (sample x mask * total/valid), then the mean of all; Keras
    # 3.15.1 fails to broadcast a (batch,) weight with a (batch, T) mask (a
    # documented difference), a (batch, T) weight gives its numbers (see
    # tests/test_rnn_keras.py)
    scaled = per_step * weights[:, None] * valid * valid.size / valid.sum()
    loss = model.evaluate(TOKENS, labels, sample_weight=weights, verbose=0)
    np.testing.assert_allclose(loss, scaled.mean(), rtol=1e-5)


def test_masked_training_in_graph_mode_lowers_the_loss():
    model = _sequence_model()
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss="sparse_categorical_crossentropy")
    labels = np.where(TOKENS % 2 == 0, 0, 1)
    history = model.fit(TOKENS, labels, epochs=20, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0]


def test_save_and_load_keeps_mask_zero(tmp_path):
    model = _sequence_model()
    model.save(tmp_path / "m.keras")
    copy = load_model(tmp_path / "m.keras")
    assert copy.layers[0].mask_zero is True
    np.testing.assert_array_equal(get_keras_mask(copy(TOKENS)), TOKENS != 0)


# ----------------------------------------------------------- merge layers
def _masked_pair():
    a = np.arange(1, 16, dtype="float32").reshape(3, 5, 1)
    b = np.ones((3, 5, 1), "float32")
    mask_a = TOKENS != 0
    mask_b = TOKENS[::-1] != 0
    set_keras_mask(a, mask_a)
    set_keras_mask(b, mask_b)
    return a, b, mask_a, mask_b


def test_elementwise_merge_keeps_a_step_any_input_keeps():
    a, b, mask_a, mask_b = _masked_pair()
    out = layers.Add()([a, b])
    np.testing.assert_array_equal(get_keras_mask(out), mask_a | mask_b)
    assert layers.Add().supports_masking
    # one unmasked input: no mask at all (Keras 3)
    assert get_keras_mask(layers.Add()([a, np.ones((3, 5, 1), "float32")])) is None


def test_concatenate_joins_masks_along_its_axis():
    a, b, mask_a, mask_b = _masked_pair()
    features = layers.Concatenate()([a, b])  # axis -1: one flag per step
    np.testing.assert_array_equal(get_keras_mask(features), mask_a | mask_b)
    steps = layers.Concatenate(axis=1)([a, b])  # the time axis grows
    np.testing.assert_array_equal(get_keras_mask(steps),
                                  np.concatenate([mask_a, mask_b], axis=1))
    plain = np.zeros((3, 5, 1), "float32")  # unmasked: every step kept
    assert get_keras_mask(layers.Concatenate()([a, plain])).all()


def test_merged_mask_reaches_an_lstm_in_a_functional_model():
    tokens, others = keras.Input((5,), dtype="int32"), keras.Input((5,), dtype="int32")
    embed_a, embed_b = (layers.Embedding(10, 2, mask_zero=True) for _ in "ab")
    merged = layers.Concatenate(axis=1)([embed_a(tokens), embed_b(others)])
    assert merged._keras_mask.shape == (None, 10)
    lstm = layers.LSTM(3)
    model = keras.Model([tokens, others], lstm(merged))
    other_tokens = TOKENS[::-1].copy()
    got = model([TOKENS, other_tokens])
    joined = np.concatenate([embed_a(TOKENS), embed_b(other_tokens)], axis=1)
    mask = np.concatenate([TOKENS != 0, other_tokens != 0], axis=1)
    expected = np.concatenate([lstm(joined[i:i + 1, mask[i]])
                               for i in range(3)])  # the kept steps only
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_masking_then_a_layer_without_masking_support_warns():
    x = np.zeros((2, 3, 2), "float32")
    x[0, 0] = 1.0
    with pytest.warns(UserWarning, match="will therefore destroy the mask"):
        out = keras.Sequential([keras.Input((3, 2)), layers.Masking(),
                                layers.Flatten()])(x)
    assert get_keras_mask(out) is None


@pytest.mark.parametrize("merge", [layers.Subtract, layers.Multiply, layers.Average,
                                   layers.Maximum, layers.Minimum])
def test_every_elementwise_merge_combines_masks_like_add(merge):
    ids = np.array([[1, 2, 0], [3, 0, 0]])
    other = np.array([[1, 0, 0], [3, 4, 0]])
    embed = layers.Embedding(5, 2, mask_zero=True)
    merged = merge()([embed(ids), embed(other)])
    np.testing.assert_array_equal(get_keras_mask(merged), (ids != 0) | (other != 0))


def test_dot_drops_the_mask_as_keras_does():
    embed = layers.Embedding(5, 2, mask_zero=True)
    ids = np.array([[1, 2, 0]])
    assert get_keras_mask(layers.Dot(axes=-1)([embed(ids), embed(ids)])) is None
