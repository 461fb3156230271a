"""Masks on eager outputs, and a BatchNormalization that counts only kept steps.

The masking guide reads ``output._keras_mask`` after an eager call; Keras 3's
``BatchNormalization.call`` takes the mask and computes its batch statistics
over the kept entries only. The scenarios run with kerasmini here and with
real Keras 3.15.1 in a subprocess (``tests/real_keras.py``); every number
must agree to 1e-6.
"""

import numpy as np
import pytest
from real_keras import differences, needs_keras, observe_mine, run_keras, run_mine

import kerasmini as keras
from kerasmini import layers

SCENARIOS = '''
TOKENS = np.array([[3, 1, 4, 0, 0], [2, 7, 0, 0, 0], [5, 9, 2, 6, 5]], "int32")
STEPS = np.random.default_rng(0).normal(size=(3, 5, 4)).astype("float32")
STEPS[0, 3:] = 0.0
STEPS[1, 2:] = 0.0


def bools(mask):
    return np.asarray(keras.ops.convert_to_numpy(mask)).astype(bool).tolist()


def embedding(**kw):
    layer = layers.Embedding(10, 4, mask_zero=True, **kw)
    layer.build((None, 5))
    rng = np.random.default_rng(1)
    layer.set_weights([rng.normal(size=(10, 4)).astype("float32")])
    return layer


def eager_masks():
    out = {}
    out["embedding"] = bools(embedding()(TOKENS)._keras_mask)
    out["masking"] = bools(layers.Masking()(STEPS)._keras_mask)
    masked = layers.Masking()(STEPS)
    for name, layer in (("dropout", layers.Dropout(0.5)),
                        ("activation", layers.Activation("relu")),
                        ("dense", layers.Dense(2))):
        out[name] = bools(layer(masked)._keras_mask)
    inputs = keras.Input((5,), dtype="int32")
    model = keras.Model(inputs, layers.Dense(3)(embedding()(inputs)))
    out["functional"] = bools(model(TOKENS)._keras_mask)
    return out


def batch_norm(**kw):
    layer = layers.BatchNormalization(momentum=0.5, **kw)
    layer.build((None, 5, 4))
    rng = np.random.default_rng(2)
    layer.set_weights([rng.uniform(0.5, 2.0, size=4).astype("float32"),
                       rng.normal(size=4).astype("float32"),
                       rng.normal(size=4).astype("float32"),
                       rng.uniform(0.5, 2.0, size=4).astype("float32")])
    return layer


def batch_norm_with_a_mask():
    out = {}
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 1, 1]], bool)
    for how in ("argument", "attached", "none"):
        layer = batch_norm()
        if how == "argument":
            y = layer(STEPS, training=True, mask=mask)
        elif how == "attached":
            y = layer(layers.Masking()(STEPS), training=True)
        else:
            y = layer(STEPS, training=True)
        out[how] = {"output": numbers(y),
                    "moving_mean": numbers(layer.moving_mean),
                    "moving_variance": numbers(layer.moving_variance)}
    layer = batch_norm()
    out["inference"] = numbers(layer(STEPS, training=False, mask=mask))
    out["bad_mask"] = error_of(lambda: batch_norm()(STEPS, training=True,
                                                    mask=mask[:, :, None]))
    return out


def batch_norm_after_embedding_in_fit():
    inputs = keras.Input((5,), dtype="int32")
    h = embedding()(inputs)
    bn = batch_norm()
    h = bn(h)
    outputs = layers.GlobalAveragePooling1D()(h)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    model.fit(TOKENS, np.ones((3, 4), "float32"), batch_size=3, epochs=1,
              shuffle=False, verbose=0)
    return {"moving_mean": numbers(bn.moving_mean),
            "moving_variance": numbers(bn.moving_variance),
            "predictions": numbers(model.predict(TOKENS, verbose=0))}


def global_average_pooling_with_a_mask():
    masked = layers.Masking()(STEPS)
    pooled = layers.GlobalAveragePooling1D()(masked)
    kept = layers.GlobalAveragePooling1D(keepdims=True)(masked)
    return {"pooled": numbers(pooled), "keepdims": numbers(kept),
            "mask_dropped": getattr(pooled, "_keras_mask", None) is None,
            "unmasked": numbers(layers.GlobalAveragePooling1D()(STEPS))}


SCENARIOS = {f.__name__: f for f in (
    eager_masks, batch_norm_with_a_mask, batch_norm_after_embedding_in_fit,
    global_average_pooling_with_a_mask)}
'''

MINE = run_mine(SCENARIOS)["SCENARIOS"]


@pytest.fixture(scope="module")
def keras_results():
    return run_keras(SCENARIOS)


@needs_keras
@pytest.mark.parametrize("name", list(MINE))
def test_same_numbers_as_keras(keras_results, name):
    theirs = keras_results[name]
    assert "crash" not in theirs, theirs
    assert differences(observe_mine(MINE[name]), theirs["value"]) == []


def test_the_mask_changes_the_batch_statistics():
    # the scenario would catch a BatchNormalization that ignores the mask
    got = observe_mine(MINE["batch_norm_with_a_mask"])
    assert got["argument"] == got["attached"]
    assert not np.allclose(got["argument"]["moving_mean"], got["none"]["moving_mean"])


def test_masked_statistics_are_those_of_the_kept_steps():
    x = np.random.default_rng(3).normal(size=(2, 4, 3)).astype("float32")
    mask = np.array([[True, True, False, False], [True, True, True, False]])
    bn = layers.BatchNormalization(momentum=0.0, epsilon=0.0, center=False,
                                   scale=False)
    bn(x, training=True, mask=mask)
    kept = x[mask]  # (5, 3): the five kept steps
    np.testing.assert_allclose(bn.moving_mean.numpy(), kept.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), kept.var(axis=0),
                               rtol=1e-5)


def test_an_eager_output_carries_its_mask_as_an_attribute():
    tokens = np.array([[1, 2, 0]])
    out = layers.Embedding(3, 2, mask_zero=True)(tokens)
    np.testing.assert_array_equal(out._keras_mask, [[True, True, False]])
    assert repr(out).startswith("array(")  # prints as a NumPy array
    assert type(out + 1) is np.ndarray  # arithmetic gives plain arrays
    assert not hasattr(layers.Dense(2)(np.ones((1, 3))), "_keras_mask")


def test_a_mask_of_the_wrong_rank_is_refused():
    with pytest.raises(ValueError, match="one dimension less than the inputs"):
        layers.BatchNormalization()(np.ones((2, 3, 4)), training=True,
                                    mask=np.ones((2, 3, 4), bool))
    assert keras.backend.masking.get_keras_mask(np.ones(2)) is None
