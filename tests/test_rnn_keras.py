"""The recurrent layers and masking give real Keras 3.15.1's numbers.

The scenarios below are written once and run twice: here with kerasmini, and
by real Keras in a subprocess (the interpreter named by
``KERASMINI_REAL_KERAS_PYTHON``, as ``make interop`` sets it; without it the
tests are skipped). Both sides draw the same weights from a seeded NumPy
generator, so every output, state, loss, metric and trained weight must agree
to 1e-5. Gradients are compared through one SGD step: Keras differentiates
with torch's autograd, kerasmini with its own tape.
"""

import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")

SCENARIOS = textwrap.dedent('''
    TOKENS = np.array([[3, 1, 4, 0, 0], [2, 7, 0, 0, 0], [5, 9, 2, 6, 5]], "int32")
    LABELS = np.array([[0, 1, 2, 0, 0], [1, 1, 0, 0, 0], [2, 2, 2, 2, 2]])
    RECURRENT = {
        "simple_rnn": lambda **kw: layers.SimpleRNN(3, **kw),
        "lstm": lambda **kw: layers.LSTM(3, **kw),
        "gru": lambda **kw: layers.GRU(3, **kw),
        "gru_reset_before": lambda **kw: layers.GRU(3, reset_after=False, **kw),
    }

    def numpy(x):
        return keras.ops.convert_to_numpy(x)

    def set_weights(layers_, seed):
        """The same weights on both sides, whatever the initializers."""
        rng = np.random.default_rng(seed)
        for layer in layers_:
            layer.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32")
                               for w in layer.get_weights()])

    def sequences():
        """return_sequences, return_state and go_backwards, with and without
        a mask (padding at the end and inside a sequence)."""
        x = np.random.default_rng(1).normal(size=(3, 5, 4)).astype("float32")
        mask = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1] * 5], bool)
        out = {}
        for name, make in RECURRENT.items():
            for backwards in (False, True):
                layer = make(return_sequences=True, return_state=True,
                             go_backwards=backwards)
                layer.build((None, 5, 4))
                set_weights([layer], 2)
                for masked in (False, True):
                    values = layer(x, mask=mask) if masked else layer(x)
                    for i, value in enumerate(values):
                        out[f"{name}/{backwards}/{masked}/{i}"] = numpy(value)
                last = make(go_backwards=backwards)
                last.build((None, 5, 4))
                set_weights([last], 2)
                out[f"{name}/{backwards}/last"] = numpy(last(x, mask=mask))
        return out

    def initial_state():
        x = np.random.default_rng(3).normal(size=(2, 4, 3)).astype("float32")
        h, c = np.full((2, 3), 0.5, "float32"), np.full((2, 3), -0.25, "float32")
        out = {}
        for name, make in RECURRENT.items():
            layer = make(return_sequences=True)
            layer.build((None, 4, 3))
            set_weights([layer], 4)
            state = [h, c] if name == "lstm" else [h]
            out[name] = numpy(layer(x, initial_state=state))
        return out

    def stateful():
        """A stateful layer carries its states from batch to batch until
        reset_state() / reset_states()."""
        x = np.random.default_rng(5).normal(size=(2, 6, 3)).astype("float32")
        out = {}
        for name, make in RECURRENT.items():
            layer = make(stateful=True, return_sequences=True)
            layer.build((2, 3, 3))
            set_weights([layer], 6)
            first, second = layer(x[:, :3]), layer(x[:, 3:])
            out[f"{name}/first"], out[f"{name}/second"] = numpy(first), numpy(second)
            out[f"{name}/states"] = [numpy(s) for s in layer.states]
            layer.reset_state()
            out[f"{name}/after_reset_state"] = numpy(layer(x[:, 3:]))
            layer.reset_states()
            out[f"{name}/after_reset_states"] = numpy(layer(x[:, 3:]))
        return out

    def masked_model():
        model = keras.Sequential([keras.Input((5,), dtype="int32"),
                                  layers.Embedding(10, 4, mask_zero=True),
                                  layers.LSTM(4, return_sequences=True),
                                  layers.Dense(3, activation="softmax")])
        set_weights(model.layers, 7)
        return model

    def masked_loss_and_metrics():
        """Losses and metrics count only the unmasked steps."""
        out = {}
        model = masked_model()
        model.compile(loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        out["probs"] = model.predict(TOKENS, verbose=0)
        out["evaluate"] = model.evaluate(TOKENS, LABELS, verbose=0)
        weights = np.linspace(0.5, 2.0, 15).reshape(3, 5).astype("float32")
        out["evaluate_weighted"] = model.evaluate(TOKENS, LABELS, verbose=0,
                                                  sample_weight=weights)
        x = np.random.default_rng(8).normal(size=(3, 5, 2)).astype("float32")
        x[0, 3:], x[1, 1] = 0.0, 0.0
        regression = keras.Sequential([keras.Input((5, 2)), layers.Masking(),
                                       layers.GRU(3, return_sequences=True),
                                       layers.Dense(1)])
        set_weights(regression.layers, 9)
        regression.compile(loss="mse", metrics=["mae"])
        y = np.linspace(-1, 1, 15).reshape(3, 5, 1).astype("float32")
        out["regression"] = regression.evaluate(x, y, verbose=0)
        return out

    def one_sgd_step():
        """The gradient through time with a mask: one SGD step each."""
        model = masked_model()
        model.compile(optimizer=keras.optimizers.SGD(0.5),
                      loss="sparse_categorical_crossentropy")
        model.fit(TOKENS, LABELS, epochs=1, batch_size=3, shuffle=False, verbose=0)
        return {f"weight{i}": w for i, w in enumerate(model.get_weights())}

    def merged_masks():
        """The mask of a merge of masked and unmasked sequences."""
        tokens, others = keras.Input((5,), dtype="int32"), keras.Input((5,), dtype="int32")
        a = layers.Embedding(10, 2, mask_zero=True)(tokens)
        b = layers.Embedding(10, 2, mask_zero=True)(others)
        plain = layers.Embedding(10, 2)(others)
        outputs = [layers.LSTM(2, return_sequences=True)(layers.Add()([a, b])),
                   layers.LSTM(2)(layers.Concatenate()([a, plain])),
                   layers.LSTM(2)(layers.Concatenate(axis=1)([a, b]))]
        model = keras.Model([tokens, others], outputs)
        set_weights([layer for layer in model.layers if layer.weights], 10)
        predicted = model.predict([TOKENS, TOKENS[::-1].copy()], verbose=0)
        return {f"y{i}": y for i, y in enumerate(predicted)}

    SCENARIOS = {f.__name__: f for f in (
        sequences, initial_state, stateful, masked_loss_and_metrics, one_sgd_step,
        merged_masks)}

    def flat(result):
        out = {}
        for key, value in result.items():
            values = value if isinstance(value, list) else [value]
            for i, v in enumerate(values):
                out[f"{key}#{i}"] = np.asarray(v, "float64")
        return out
''')

KERAS_SIDE = textwrap.dedent('''
    import sys
    import numpy as np
    import keras
    from keras import layers
''') + SCENARIOS + textwrap.dedent('''
    arrays = {}
    for name, scenario in SCENARIOS.items():
        for key, value in flat(scenario()).items():
            arrays[f"{name}:{key}"] = value
    np.savez(sys.argv[1], **arrays)
''')

MINE = {"keras": keras, "layers": layers, "np": np}
exec(SCENARIOS, MINE)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    path = tmp_path_factory.mktemp("rnn_keras") / "out.npz"
    env = dict(os.environ, KERAS_BACKEND="torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, path, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(np.load(path))


@needs_keras
@pytest.mark.parametrize("name", list(MINE["SCENARIOS"]))
def test_same_numbers_as_keras(keras_results, name):
    mine = MINE["flat"](MINE["SCENARIOS"][name]())
    theirs = {key.split(":", 1)[1]: value for key, value in keras_results.items()
              if key.startswith(name + ":")}
    assert sorted(mine) == sorted(theirs)
    for key, value in mine.items():
        np.testing.assert_allclose(value, theirs[key], rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name}: {key}")


def test_the_scenarios_see_masks_and_states():
    """The scenarios would catch a mask or a state that is ignored."""
    got = MINE["sequences"]()
    assert not np.allclose(got["lstm/False/False/0"], got["lstm/False/True/0"])
    assert not np.allclose(got["gru/False/False/0"], got["gru/True/False/0"])
    states = MINE["stateful"]()
    assert not np.allclose(states["lstm/second"], states["lstm/after_reset_state"])
    np.testing.assert_allclose(states["lstm/after_reset_state"],
                               states["lstm/after_reset_states"], rtol=1e-6)
