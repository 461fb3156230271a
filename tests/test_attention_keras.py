"""The attention layers give real Keras 3.15.1's numbers.

The scenarios below are written once and run twice: here with kerasmini, and
by real Keras in a subprocess (the interpreter named by
``KERASMINI_REAL_KERAS_PYTHON``, as ``make interop`` sets it; without it the
tests are skipped). Both sides draw the same weights from a seeded NumPy
generator, so every output and attention score must agree to 1e-5: masks
(``attention_mask``, causal, sliding window, the masks of an
``Embedding(mask_zero=True)``), ``attention_axes``, ``output_shape``, the
gate, and ``Attention``/``AdditiveAttention``/``EinsumDense``/``Softmax``.
Gradients are compared through one SGD step (Keras differentiates with torch's
autograd, kerasmini with its own tape); names, weight paths, configs and the
build config as facts. The ``.keras`` files cross-load in
``test_saving_keras_interop.py``.
"""

import json
import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.backend.masking import get_keras_mask

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")

SCENARIOS = textwrap.dedent('''
    TOKENS = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 0], [5, 0, 2, 6, 5]], "int32")

    def numpy(x):
        return keras.ops.convert_to_numpy(x)

    def set_weights(layers_, seed):
        """The same weights on both sides, whatever the initializers."""
        rng = np.random.default_rng(seed)
        for layer in layers_:
            layer.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32")
                               for w in layer.get_weights()])

    def mha(query_shape, value_shape, key_shape=None, seed=1, **kwargs):
        layer = layers.MultiHeadAttention(**kwargs)
        layer.build(query_shape, value_shape, key_shape)
        set_weights([layer], seed)
        return layer

    def data(*shape, seed=0):
        return np.random.default_rng(seed).normal(size=shape).astype("float32")

    def multi_head():
        q, v, k = data(2, 4, 6), data(2, 5, 6, seed=1), data(2, 5, 7, seed=2)
        allowed = np.random.default_rng(3).random((2, 4, 5)) > 0.3
        out = {}
        cross = mha(q.shape, v.shape, k.shape, num_heads=3, key_dim=2, value_dim=4)
        out["cross"], out["cross_scores"] = cross(q, v, k, return_attention_scores=True)
        out["cross_fused"] = cross(q, v, k)
        out["mask"], out["mask_scores"] = cross(q, v, k, attention_mask=allowed,
                                                return_attention_scores=True)
        out["mask_fused"] = cross(q, v, k, attention_mask=allowed)
        out["value_key_masks"] = cross(q, v, k, value_mask=allowed[:, 0],
                                       key_mask=allowed[:, 1])
        self_ = mha(q.shape, q.shape, num_heads=2, key_dim=3, seed=4)
        out["causal"], out["causal_scores"] = self_(q, q, use_causal_mask=True,
                                                    return_attention_scores=True)
        out["causal_fused"] = self_(q, q, use_causal_mask=True)
        out["causal_and_mask"] = self_(q, q, use_causal_mask=True,
                                       attention_mask=allowed[:, :, :4])
        window = mha(q.shape, q.shape, num_heads=2, key_dim=3, seed=5,
                     sliding_window=2)
        out["window"], out["window_scores"] = window(q, q, use_causal_mask=True,
                                                     return_attention_scores=True)
        shaped = mha(q.shape, v.shape, num_heads=2, key_dim=3, seed=6, use_bias=False,
                     output_shape=(2, 5), use_gate=True)
        out["output_shape_gate"] = shaped(q, v)
        dropped = mha(q.shape, q.shape, num_heads=2, key_dim=3, seed=7, dropout=0.5)
        out["dropout_inference"] = dropped(q, q)
        return {k: numpy(v) for k, v in out.items()}

    def embedding_masks():
        """The masks of Embedding(mask_zero=True) reach the attention."""
        embedding = layers.Embedding(10, 6, mask_zero=True)
        embedding.build((None, 5))
        set_weights([embedding], 8)
        layer = mha((None, 5, 6), (None, 5, 6), num_heads=2, key_dim=3, seed=9)
        out = {}
        x = embedding(TOKENS)
        out["self"] = layer(x, x)
        x = embedding(TOKENS)
        out["self_causal"] = layer(x, x, use_causal_mask=True)
        x = embedding(TOKENS)
        out["self_scores"] = layer(x, x, return_attention_scores=True)[1]
        x, y = embedding(TOKENS), embedding(TOKENS[::-1].copy())
        out["cross"] = layer(x, y)
        x = embedding(TOKENS)
        out["output_mask"] = keras.ops.cast(mask_of(layer(x, x)), "float32")
        attention = layers.Attention(use_scale=True)
        attention.build([(None, 5, 6), (None, 5, 6)])
        set_weights([attention], 10)
        x, y = embedding(TOKENS), embedding(TOKENS[::-1].copy())
        out["attention"], out["attention_scores"] = attention(
            [x, y], return_attention_scores=True)
        return {k: numpy(v) for k, v in out.items()}

    def attention_axes():
        image = data(2, 3, 4, 5, seed=11)
        out = {}
        for axes in [(1,), (2,), (1, 2), -2]:
            layer = mha(image.shape, image.shape, num_heads=2, key_dim=3, seed=12,
                        attention_axes=axes)
            out[f"{axes}"], out[f"{axes}_scores"] = layer(
                image, image, return_attention_scores=True)
            out[f"{axes}_fused"] = layer(image, image)
        return {k: numpy(v) for k, v in out.items()}

    def dot_product_attention_layers():
        q, v, k = data(2, 3, 4, seed=13), data(2, 5, 4, seed=14), data(2, 5, 4, seed=15)
        q_mask = np.array([[True, True, False], [True, True, True]])
        v_mask = np.array([[True, False, True, True, False], [True] * 5])
        out = {}
        for name, layer in [
                ("dot", layers.Attention()),
                ("scaled", layers.Attention(use_scale=True)),
                ("concat", layers.Attention(score_mode="concat", use_scale=True)),
                ("additive", layers.AdditiveAttention()),
                ("additive_unscaled", layers.AdditiveAttention(use_scale=False))]:
            layer.build([q.shape, v.shape, k.shape])
            set_weights([layer], 16)
            out[name], out[name + "_scores"] = layer(
                [q, v, k], mask=[q_mask, v_mask], return_attention_scores=True)
            out[name + "_causal"] = layer([q, v], use_causal_mask=True)
        return {k: numpy(v) for k, v in out.items()}

    def einsum_dense_and_softmax():
        out = {}
        x3, x4 = data(2, 3, 7, seed=17), data(2, 3, 2, 7, seed=18)
        for name, equation, shape, bias, x in [
                ("dense", "ab,bc->ac", 4, "c", x3[:, 0]),
                ("heads", "abc,cde->abde", (None, 2, 5), "de", x3),
                ("merge", "abcd,cde->abe", (None, 5), "e", x4),
                ("left", "...x,xy->...y", 6, "y", x4),
                ("right", "ab...,bc->ac...", 4, "c", x4),
                ("relu", "abc,cd->abd", (3, 4), None, x3)]:
            layer = layers.EinsumDense(equation, output_shape=shape, bias_axes=bias,
                                       activation="relu" if name == "relu" else None)
            layer.build(x.shape)
            set_weights([layer], 19)
            out[name] = layer(x)
        mask = np.random.default_rng(20).random((2, 3, 7)) > 0.4
        mask[0, 1] = False
        out["softmax"] = layers.Softmax()(x3, mask=mask)
        out["softmax_axes"] = layers.Softmax(axis=(1, 2))(x3)
        return {k: numpy(v) for k, v in out.items()}

    def one_sgd_step():
        """The gradient through the masks and the attention: one SGD step."""
        tokens = keras.Input((5,), dtype="int32")
        x = layers.Embedding(10, 6, mask_zero=True)(tokens)
        h = layers.MultiHeadAttention(2, 3)(x, x, use_causal_mask=True)
        y = layers.Embedding(10, 6, mask_zero=True)(tokens)
        a = layers.Attention(use_scale=True)([h, y])
        z = layers.Embedding(10, 6, mask_zero=True)(tokens)
        c = layers.MultiHeadAttention(2, 2, output_shape=3)(
            a, z, return_attention_scores=True)[0]
        model = keras.Model(tokens, layers.Dense(2)(c))  # masked steps: no loss
        set_weights(model.layers, 21)
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
        labels = np.linspace(-1, 1, 30).reshape(3, 5, 2).astype("float32")
        model.fit(TOKENS, labels, epochs=1, batch_size=3, shuffle=False, verbose=0)
        return {f"weight{i}": w for i, w in enumerate(model.get_weights())}

    def transformer_example():
        """The keras.io classifier's layers (as in test_layers_attention.py)
        with the same weights: the same probabilities."""
        inputs = keras.Input((5,), dtype="int32")
        x = layers.Embedding(10, 8)(inputs)
        attn = layers.MultiHeadAttention(num_heads=2, key_dim=8)(x, x)
        out1 = layers.LayerNormalization(epsilon=1e-6)(layers.Add()([x, attn]))
        ffn = layers.Dense(8)(layers.Dense(8, activation="relu")(out1))
        out2 = layers.LayerNormalization(epsilon=1e-6)(layers.Add()([out1, ffn]))
        pooled = layers.GlobalAveragePooling1D()(out2)
        outputs = layers.Dense(2, activation="softmax")(
            layers.Dense(20, activation="relu")(pooled))
        model = keras.Model(inputs, outputs)
        set_weights(model.layers, 22)
        return {"probabilities": model.predict(TOKENS, verbose=0)}

    SCENARIOS = {f.__name__: f for f in (
        multi_head, embedding_masks, attention_axes, dot_product_attention_layers,
        einsum_dense_and_softmax, one_sgd_step, transformer_example)}

    def flat(result):
        return {key: np.asarray(value, "float64") for key, value in result.items()}

    def facts():
        """Names, shapes, configs: what a reader compares by eye."""
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        layer = layers.MultiHeadAttention(2, 3, value_dim=4, use_gate=True,
                                          name="mha")
        query, value = keras.Input((5, 6)), keras.Input((7, 6))
        out = layer(query, value)
        config = layer.get_config()
        for key in ("kernel_initializer", "bias_initializer", "dtype"):
            config[key] = config[key]["class_name"]
        attention = layers.Attention(use_scale=True, score_mode="concat", name="att")
        attention([query, value])
        return {
            "weights": [[w.path, list(w.shape)] for w in layer.weights],
            "sublayers": [sub.name for sub in layer._layers],
            "build_config": layer.get_build_config(),
            "config": config,
            "output_shape": list(out.shape),
            "count_params": layer.count_params(),
            "attention_weights": [[w.path, list(w.shape)] for w in attention.weights],
            "attention_output": list(attention([query, value]).shape),
            "einsum_config": sorted(layers.EinsumDense("ab,bc->ac", 4).get_config()),
        }

    def masks_after_the_call():
        """Keras 3.15.1 takes the masks off the inputs of MultiHeadAttention
        and leaves them off; kerasmini gives them back (a declared difference)."""
        x = layers.Embedding(10, 4, mask_zero=True)(TOKENS)
        layers.MultiHeadAttention(1, 2)(x, x)
        return mask_of(x) is not None
''')

KERAS_SIDE = textwrap.dedent('''
    import json
    import sys
    import numpy as np
    import keras
    from keras import layers

    def mask_of(x):
        return getattr(x, "_keras_mask", None)
''') + SCENARIOS + textwrap.dedent('''
    arrays = {}
    for name, scenario in SCENARIOS.items():
        for key, value in flat(scenario()).items():
            arrays[f"{name}:{key}"] = value
    np.savez(sys.argv[1], **arrays)
    with open(sys.argv[2], "w") as file:
        json.dump({"facts": facts(), "masks_kept": masks_after_the_call()}, file)
''')

MINE = {"keras": keras, "layers": layers, "np": np, "mask_of": get_keras_mask}
exec(SCENARIOS, MINE)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("attention_keras")
    env = dict(os.environ, KERAS_BACKEND="torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, folder / "out.npz",
                              folder / "facts.json", env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    with open(folder / "facts.json") as file:
        return dict(np.load(folder / "out.npz")), json.load(file)


@needs_keras
@pytest.mark.parametrize("name", list(MINE["SCENARIOS"]))
def test_same_numbers_as_keras(keras_results, name):
    mine = MINE["flat"](MINE["SCENARIOS"][name]())
    theirs = {key.split(":", 1)[1]: value for key, value in keras_results[0].items()
              if key.startswith(name + ":")}
    assert sorted(mine) == sorted(theirs)
    for key, value in mine.items():
        assert value.shape == theirs[key].shape, f"{name}: {key}"
        np.testing.assert_allclose(value, theirs[key], rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name}: {key}")


@needs_keras
def test_same_names_shapes_and_configs_as_keras(keras_results):
    mine = json.loads(json.dumps(MINE["facts"]()))
    theirs = keras_results[1]["facts"]
    theirs["einsum_config"].remove("quantization_config")  # kerasmini has none
    assert mine == theirs


@needs_keras
def test_declared_difference_masks_stay_on_the_inputs(keras_results):
    assert keras_results[1]["masks_kept"] is False
    assert MINE["masks_after_the_call"]() is True


def test_the_scenarios_see_masks_and_options():
    """The scenarios would catch a mask or an option that is ignored."""
    heads = MINE["multi_head"]()
    assert not np.allclose(heads["cross"], heads["mask"])
    assert not np.allclose(heads["cross"], heads["value_key_masks"])
    assert not np.allclose(heads["causal"], heads["causal_and_mask"])
    masks = MINE["embedding_masks"]()
    assert not np.allclose(masks["self"], masks["self_causal"])
    axes = MINE["attention_axes"]()
    assert axes["(1, 2)_scores"].ndim == 6
    assert not np.allclose(axes["(1,)"], axes["(2,)"])
