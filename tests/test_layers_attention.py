"""The attention family: EinsumDense, Softmax, MultiHeadAttention, Attention,
AdditiveAttention.

Values against NumPy written from the equations; names, shapes, configs and
messages as real Keras 3.15.1 gives them (its numbers for the same weights
are compared in ``test_attention_keras.py``, its ``.keras`` files in
``test_saving_keras_interop.py``); gradients against finite differences in
float64; and the keras.io example "Text classification with Transformer",
scaled down to synthetic tokens, trained.
"""

import json
import warnings

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers, ops
from kerasmini.backend import clear_session
from kerasmini.backend.masking import get_keras_mask
from kerasmini.saving import load_model

RNG = np.random.default_rng(0)


def normal(*shape, dtype="float32"):
    return RNG.normal(size=shape).astype(dtype)


# ------------------------------------------------------------- NumPy maths
def np_softmax(x, mask=None, zero_masked=True):
    """Softmax over the last axis; masked entries get no weight, and a row
    masked everywhere is zeros (``zero_masked``) or uniform."""
    if mask is not None:
        x = np.where(mask, x, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    if mask is not None and zero_masked:
        p = np.where(mask, p, 0.0)
    return p


def np_mha(layer, query, value, key=None, mask=None, zero_masked=True):
    """Multi-head attention from the weights, written with np.einsum:
    ``(output, scores)``; ``mask`` is ``(B, T, S)``."""
    key = value if key is None else key
    wq, bq, wk, bk, wv, bv, wo, bo = [w.numpy().astype("float64")
                                      for w in layer.weights]
    q = np.einsum("btf,fnh->btnh", query, wq) + bq
    k = np.einsum("bsf,fnh->bsnh", key, wk) + bk
    v = np.einsum("bsf,fnh->bsnh", value, wv) + bv
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(layer.key_dim)
    scores = np_softmax(logits, None if mask is None else mask[:, None],
                        zero_masked)
    heads = np.einsum("bnts,bsnh->btnh", scores, v)
    return np.einsum("btnh,nhf->btf", heads, wo) + bo, scores


def built_mha(query_shape, value_shape, seed=1, **kwargs):
    """A MultiHeadAttention built for the shapes, with biases that are not
    zero (so a test sees them)."""
    layer = layers.MultiHeadAttention(**kwargs)
    layer.build(query_shape, value_shape)
    rng = np.random.default_rng(seed)
    layer.set_weights([rng.normal(scale=0.5, size=w.shape) for w in layer.weights])
    return layer


# ------------------------------------------------------------- EinsumDense
@pytest.mark.parametrize("equation, output_shape, bias_axes, x_shape, out, kernel, bias", [
    # shapes from Keras 3.15.1 for the same layers
    ("ab,bc->ac", 4, "c", (2, 3), (2, 4), (3, 4), (4,)),
    ("abc,cd->abd", (None, 5), "d", (2, 3, 7), (2, 3, 5), (7, 5), (5,)),
    ("abc,cde->abde", (None, 2, 5), "de", (2, 3, 7), (2, 3, 2, 5), (7, 2, 5),
     (2, 5)),
    ("abcd,cde->abe", (None, 5), "e", (2, 3, 2, 7), (2, 3, 5), (2, 7, 5), (5,)),
    ("...x,xy->...y", 6, "y", (2, 5, 7, 4), (2, 5, 7, 6), (4, 6), (6,)),
    ("ab...,bc->ac...", 4, "c", (2, 3, 7, 2), (2, 4, 7, 2), (3, 4), (4, 1, 1)),
    ("ab,bc->ac", 4, None, (2, 3), (2, 4), (3, 4), None),
])
def test_einsum_dense_shapes_and_values(equation, output_shape, bias_axes, x_shape,
                                        out, kernel, bias):
    layer = layers.EinsumDense(equation, output_shape=output_shape,
                               bias_axes=bias_axes, bias_initializer="random_normal")
    x = normal(*x_shape)
    y = layer(x)
    assert y.shape == out and layer.kernel.shape == kernel
    assert (None if layer.bias is None else layer.bias.shape) == bias
    expected = np.einsum(equation, x, layer.kernel.numpy())
    if layer.bias is not None:
        expected = expected + layer.bias.numpy()
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_einsum_dense_symbolic_shapes_as_keras():
    # Keras 3.15.1: an axis given as None stays None; "..." axes come from the input
    assert layers.EinsumDense("abc,cd->abd", (None, 64))(
        keras.Input((32, 128))).shape == (None, None, 64)
    assert layers.EinsumDense("...x,xy->...y", 64)(
        keras.Input((32, 128))).shape == (None, 32, 64)
    assert layers.EinsumDense("ab...,bc->ac...", 4)(
        keras.Input((3, 7, 2))).shape == (None, 4, 7, 2)


def test_einsum_dense_contract(tmp_path):
    x = normal(3, 4, 5)
    check_layer(lambda: layers.EinsumDense("abc,cde->abde", (4, 2, 3),
                                           bias_axes="e", activation="relu"),
                x, tmp_path)


def test_einsum_dense_gradients():
    layer = layers.EinsumDense("abc,cde->abde", (3, 2, 2), bias_axes="de",
                               dtype="float64")
    check_layer_gradients(layer, normal(2, 3, 4, dtype="float64"))


def test_einsum_dense_glorot_uses_the_kernel_axes():
    # a (64, 8, 16) kernel: fan_in 64, fan_out 8 * 16, not a conv's fans
    layer = layers.EinsumDense("abc,cde->abde", (None, 8, 16))
    layer.build((None, 3, 64))
    limit = np.sqrt(6.0 / (64 + 128))
    w = layer.kernel.numpy()
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.9 * limit
    assert layer.get_config()["kernel_initializer"]["config"] == {"seed": None}


def test_einsum_dense_config_as_keras():
    config = layers.EinsumDense("ab,bc->ac", 4, name="e").get_config()
    assert list(config) == [  # Keras 3.15.1's keys, in its order (no quantization)
        "name", "trainable", "dtype", "output_shape", "equation", "activation",
        "bias_axes", "kernel_initializer", "bias_initializer", "kernel_regularizer",
        "bias_regularizer", "activity_regularizer", "kernel_constraint",
        "bias_constraint"]
    assert config["output_shape"] == (4,) and config["activation"] == "linear"
    assert layers.EinsumDense.from_config(config).get_config() == config


@pytest.mark.parametrize("equation, output_shape, bias_axes, x_shape, message", [
    ("ab,bc->ac", 4, "d", (3,), "Bias dimension 'd' was requested, but is not part "
     "of the output spec 'ac'"),
    ("ab,bc->acd", (4, 2), None, (3,), "Dimension 'd' was specified in the output "
     "'acd' but has no corresponding dim in the input spec 'ab' or weight spec 'bc'"),
    ("abc,cd->abd", (5, 4), None, (3, 6), "do not match at shared dimension 'b'. "
     "Input shape is 3, and output shape is 5."),
    ("ab,bcz->ac", 4, None, (3,), "Weight dimension 'z' did not have a match in "
     "either the input spec 'ab' or the output spec 'ac'"),
])
def test_einsum_dense_errors(equation, output_shape, bias_axes, x_shape, message):
    layer = layers.EinsumDense(equation, output_shape, bias_axes=bias_axes)
    with pytest.raises(ValueError, match=message):
        layer(np.ones((2,) + x_shape, "float32"))
    with pytest.raises(ValueError, match=message):
        layers.EinsumDense(equation, output_shape, bias_axes=bias_axes)(
            keras.Input(x_shape))


def test_einsum_dense_refuses_a_bad_equation_and_rank():
    with pytest.raises(ValueError, match=r"Invalid einsum equation 'a\.b,bc->ac'"):
        layers.EinsumDense("a.b,bc->ac", 4)
    layer = layers.EinsumDense("ab,bc->ac", 4)
    layer(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        layer(np.ones((2, 3, 3), "float32"))


# ----------------------------------------------------------------- Softmax
def test_softmax_with_mask_zeroes_the_masked_entries():
    x = normal(2, 3, 4)
    mask = RNG.random((2, 3, 4)) > 0.4
    mask[0, 1] = False  # a row masked everywhere gives zeros, not 1/4
    np.testing.assert_allclose(layers.Softmax()(x, mask=mask),
                               np_softmax(x.astype("float64"), mask), atol=1e-6)
    assert not layers.Softmax()(x, mask=mask)[0, 1].any()


def test_softmax_over_several_axes_and_config():
    x = normal(2, 3, 4)
    y = layers.Softmax(axis=(1, 2))(x)
    np.testing.assert_allclose(y.sum(axis=(1, 2)), 1.0, rtol=1e-6)
    layer = layers.Softmax(axis=[1, 2], name="s")  # kept as given, as Keras keeps it
    assert layer.get_config()["axis"] == [1, 2] and layer.built


def test_softmax_refuses_a_mask_that_does_not_broadcast():
    with pytest.raises(ValueError, match="Each mask dimension must be 1 or match"):
        layers.Softmax()(np.ones((2, 3, 4)), mask=np.ones((2, 3), bool))
    with pytest.raises(ValueError, match="must not have more dimensions"):
        layers.Softmax()(np.ones((3, 4)), mask=np.ones((1, 3, 4), bool))


# -------------------------------------------------- MultiHeadAttention: maths
def test_mha_self_and_cross_attention_against_numpy():
    q, v = normal(2, 4, 6), normal(2, 5, 6)
    layer = built_mha((None, 4, 6), (None, 5, 6), num_heads=3, key_dim=2)
    out, scores = layer(q, v, return_attention_scores=True)
    expected, expected_scores = np_mha(layer, q.astype("float64"), v)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(scores, expected_scores, rtol=1e-5, atol=1e-6)
    # without the scores Keras takes ops.dot_product_attention: same numbers
    np.testing.assert_allclose(layer(q, v), expected, rtol=1e-5, atol=1e-5)


def test_mha_attention_mask_and_causal_mask():
    q = normal(2, 4, 6)
    layer = built_mha((None, 4, 6), (None, 4, 6), num_heads=2, key_dim=3)
    allowed = RNG.random((2, 4, 4)) > 0.3
    allowed[:, :, 0] = True  # every query sees at least one key
    out, scores = layer(q, q, attention_mask=allowed, return_attention_scores=True)
    expected, expected_scores = np_mha(layer, q.astype("float64"), q, mask=allowed)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(scores, expected_scores, atol=1e-6)
    causal = np.tril(np.ones((4, 4), bool))[None]
    out, scores = layer(q, q, use_causal_mask=True, return_attention_scores=True)
    np.testing.assert_allclose(out, np_mha(layer, q.astype("float64"), q,
                                           mask=causal)[0], rtol=1e-5, atol=1e-5)
    assert not np.triu(scores[0, 0], k=1).any()  # nothing from the future
    both = layer(q, q, attention_mask=allowed, use_causal_mask=True)
    np.testing.assert_allclose(both, np_mha(layer, q.astype("float64"), q,
                                            mask=allowed & causal)[0],
                               rtol=1e-5, atol=1e-5)


def test_mha_masks_of_embedding_become_the_attention_mask():
    tokens = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 0]])
    embedding = layers.Embedding(10, 6, mask_zero=True)
    x = embedding(tokens)
    layer = built_mha((None, 5, 6), (None, 5, 6), num_heads=2, key_dim=3)
    keep = tokens != 0
    out = layer(x, x)
    # query mask (B, T, 1) and value mask (B, 1, S); a padded query sees no key:
    # the fused path (Keras's too) averages all values there
    mask = keep[:, :, None] & keep[:, None, :]
    expected, _ = np_mha(layer, x.astype("float64"), x, mask=mask, zero_masked=False)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(get_keras_mask(out), keep)  # the query's mask
    _, scores = layer(x, x, return_attention_scores=True)
    assert not scores[0, :, :, 3:].any() and not scores[0, :, 3:].any()
    # the masks stay on the inputs (Keras 3.15.1 takes them off)
    np.testing.assert_array_equal(get_keras_mask(x), keep)


def test_mha_value_mask_and_key_mask_arguments():
    q, v = normal(1, 3, 4), normal(1, 5, 4)
    layer = built_mha((None, 3, 4), (None, 5, 4), num_heads=2, key_dim=2)
    value_mask = np.array([[True, True, False, True, False]])
    key_mask = np.array([[True, False, True, True, True]])
    out = layer(q, v, value_mask=value_mask, key_mask=key_mask)
    mask = np.broadcast_to((value_mask & key_mask)[:, None], (1, 3, 5))
    np.testing.assert_allclose(out, np_mha(layer, q.astype("float64"), v,
                                           mask=mask)[0], rtol=1e-5, atol=1e-5)


def test_mha_sliding_window():
    q = normal(1, 6, 4)
    layer = built_mha((None, 6, 4), (None, 6, 4), num_heads=1, key_dim=2,
                      sliding_window=2)
    _, scores = layer(q, q, return_attention_scores=True)
    distance = np.abs(np.arange(6)[:, None] - np.arange(6)[None])
    assert not scores[0, 0][distance >= 2].any()
    assert (scores[0, 0][distance < 2] > 0).all()


def test_mha_attention_axes_over_an_image():
    x = normal(2, 3, 4, 5)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=(1, 2))
    out, scores = layer(x, x, return_attention_scores=True)
    assert out.shape == (2, 3, 4, 5) and scores.shape == (2, 2, 3, 4, 3, 4)
    np.testing.assert_allclose(scores.sum(axis=(-2, -1)), 1.0, rtol=1e-5)
    assert layer.get_config()["attention_axes"] == (1, 2)
    axis_2 = layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=-2)
    assert axis_2(x, x, return_attention_scores=True)[1].shape == (2, 3, 2, 4, 4)
    assert axis_2.attention_axes == (2,)


def test_mha_output_shape_value_dim_gate_and_no_bias():
    q, v = normal(2, 4, 6), normal(2, 5, 3)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4,
                                      output_shape=(2, 5), use_bias=False,
                                      use_gate=True)
    assert layer(q, v).shape == (2, 4, 2, 5)
    assert [(w.path.split("/", 1)[1], w.shape) for w in layer.weights] == [
        ("query/kernel", (6, 2, 3)), ("key/kernel", (3, 2, 3)),
        ("gate/kernel", (6, 2, 4)), ("value/kernel", (3, 2, 4)),
        ("attention_output/kernel", (2, 4, 2, 5))]


def test_mha_dropout_only_when_training():
    q = normal(2, 4, 6)
    layer = built_mha((None, 4, 6), (None, 4, 6), num_heads=2, key_dim=3,
                      dropout=0.5)
    plain = built_mha((None, 4, 6), (None, 4, 6), num_heads=2, key_dim=3)
    plain.set_weights(layer.get_weights())
    # (with dropout the scores are computed explicitly: the same to float32)
    np.testing.assert_allclose(layer(q, q), plain(q, q), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer(q, q, training=False), plain(q, q), rtol=1e-5,
                               atol=1e-6)
    trained, scores = layer(q, q, training=True, return_attention_scores=True)
    assert not np.allclose(trained, plain(q, q))
    # the scores returned are the softmax's, before the dropout
    np.testing.assert_allclose(scores.sum(axis=-1), 1.0, rtol=1e-5)


@pytest.mark.parametrize("kwargs", [
    {"return_attention_scores": True},  # the explicit path
    {},  # ops.dot_product_attention
    {"use_causal_mask": True},
])
def test_mha_gradients(kwargs):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2, dtype="float64")
    q = normal(2, 3, 4, dtype="float64")
    v = normal(2, 4, 4, dtype="float64") if not kwargs.get("use_causal_mask") else q
    layer.build(q.shape, v.shape)

    class Wrapped(layers.Layer):  # one input for the finite differences
        def __init__(self):
            super().__init__(dtype="float64")
            self.inner = layer

        def call(self, x):
            out = layer(x, v, **kwargs)
            return out[0] if isinstance(out, tuple) else out

    check_layer_gradients(Wrapped(), q)


def test_mha_gradient_through_masks_and_dot_product_attention():
    q = normal(1, 3, 2, 4, dtype="float64")
    k, v = normal(1, 4, 2, 4, dtype="float64"), normal(1, 4, 2, 4, dtype="float64")
    mask = np.array([[True, True, False, True]])[:, None, None]

    class Attend(layers.Layer):
        def call(self, x):
            return ops.dot_product_attention(x, k, v, mask=mask)

    check_layer_gradients(Attend(dtype="float64"), q)


# ------------------------------------------- MultiHeadAttention: the layer
def test_mha_weights_in_keras_order_and_paths():
    clear_session()
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3)
    layer(normal(1, 5, 8), normal(1, 5, 8))
    # Keras 3.15.1: the sublayers' weights, in the order build creates them
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("multi_head_attention/query/kernel", (8, 2, 3)),
        ("multi_head_attention/query/bias", (2, 3)),
        ("multi_head_attention/key/kernel", (8, 2, 3)),
        ("multi_head_attention/key/bias", (2, 3)),
        ("multi_head_attention/value/kernel", (8, 2, 3)),
        ("multi_head_attention/value/bias", (2, 3)),
        ("multi_head_attention/attention_output/kernel", (2, 3, 8)),
        ("multi_head_attention/attention_output/bias", (8,))]
    assert [sub.name for sub in layer._layers] == [
        "query", "key", "value", "softmax", "dropout", "attention_output"]
    assert layer.query_dense is layer._query_dense and layer.count_params() == 3 * (48 + 6) + 48 + 8


def test_mha_build_takes_a_shape_per_argument():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3)
    layer(normal(1, 4, 6), normal(1, 5, 3), normal(1, 5, 2))
    assert layer.get_build_config() == {"shapes_dict": {
        "query_shape": (1, 4, 6), "value_shape": (1, 5, 3), "key_shape": (1, 5, 2)}}
    assert layer.key_dense.kernel.shape == (2, 2, 3)
    called = layers.MultiHeadAttention(num_heads=2, key_dim=3)
    called(keras.Input((4, 6)), keras.Input((5, 3)))
    assert called.get_build_config() == {"shapes_dict": {
        "query_shape": (None, 4, 6), "value_shape": (None, 5, 3)}}
    rebuilt = layers.MultiHeadAttention.from_config(called.get_config())
    rebuilt.build_from_config(json.loads(json.dumps(called.get_build_config())))
    assert [w.shape for w in rebuilt.weights] == [w.shape for w in called.weights]


def test_multi_argument_build_rules():
    class Pair(layers.Layer):
        def build(self, first_shape, second_shape):
            self.shapes = (first_shape, second_shape)

        def call(self, first, second):
            return first

    pair = Pair()
    pair(np.ones((2, 3)), np.ones((2, 5)))
    assert pair.shapes == ((2, 3), (2, 5))

    class NoSuffix(Pair):
        def build(self, first, second_shape):
            pass

    with pytest.raises(ValueError, match="argument `first`, which does not end in "
                                         "`_shape`"):
        NoSuffix()(np.ones((2, 3)), np.ones((2, 5)))

    class Unknown(Pair):
        def build(self, first_shape, third_shape):
            pass

    with pytest.raises(ValueError, match="`call\\(\\)` does not have argument `third`"):
        Unknown()(np.ones((2, 3)), np.ones((2, 5)))


def test_mha_symbolic_call_and_compute_output_shape():
    q, v = keras.Input((4, 6)), keras.Input((5, 6))
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, output_shape=7)
    out, scores = layer(q, v, return_attention_scores=True)
    assert out.shape == (None, 4, 7)
    # Keras 3.15.1 says (None, 2, 4, 4): it takes the query's length twice
    assert scores.shape == (None, 2, 4, 5)
    assert layer.compute_output_shape((None, 4, 6), (None, 5, 6)) == (None, 4, 7)
    model = keras.Model([q, v], [out, scores])
    eager = model.predict([normal(2, 4, 6), normal(2, 5, 6)], verbose=0)
    assert [y.shape for y in eager] == [(2, 4, 7), (2, 2, 4, 5)]


def test_mha_symbolic_masks_reach_the_layer():
    tokens = keras.Input((5,), dtype="int32")
    x = layers.Embedding(10, 4, mask_zero=True)(tokens)
    mha = layers.MultiHeadAttention(num_heads=1, key_dim=2)
    out = mha(x, x)
    assert get_keras_mask(out).shape == (None, 5)
    model = keras.Model(tokens, out)
    ids = np.array([[1, 2, 0, 0, 0]])
    x_eager = model.layers[1](ids)
    np.testing.assert_allclose(model.predict(ids, verbose=0), mha(x_eager, x_eager),
                               rtol=1e-6)
    assert not mha._inbound_nodes[0].call_kwargs  # masks found again at run time


def test_mha_config_round_trip_and_keras_keys():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.1,
                                      kernel_regularizer="l2", seed=3, name="mha")
    config = layer.get_config()
    assert list(config) == [  # Keras 3.15.1's keys, in its order
        "name", "trainable", "dtype", "num_heads", "key_dim", "value_dim",
        "dropout", "use_bias", "use_gate", "output_shape", "attention_axes",
        "sliding_window", "kernel_initializer", "bias_initializer",
        "kernel_regularizer", "bias_regularizer", "activity_regularizer",
        "kernel_constraint", "bias_constraint", "seed"]
    assert config["value_dim"] == 3 and config["attention_axes"] is None
    assert layers.MultiHeadAttention.from_config(config).get_config() == config
    again = layers.MultiHeadAttention.from_config(json.loads(json.dumps(config)))
    assert again.get_config()["kernel_regularizer"] == config["kernel_regularizer"]


def test_mha_regularizers_and_constraints_reach_every_projection():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2, kernel_regularizer="l2",
                                      kernel_constraint="non_neg")
    layer(normal(1, 3, 4), normal(1, 3, 4))
    assert len(layer.losses) == 4  # one penalty per projection kernel
    assert all(w.constraint is not None for w in layer.weights if "kernel" in w.path)


def test_mha_save_and_load(tmp_path):
    q, v = keras.Input((4, 6)), keras.Input((3, 6))
    model = keras.Model([q, v], layers.MultiHeadAttention(2, 3, use_gate=True)(q, v))
    x = [normal(2, 4, 6), normal(2, 3, 6)]
    model.save(tmp_path / "m.keras")
    loaded = load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_heads": 0, "key_dim": 2}, "argument `num_heads`, expected a positive "
     "integer. Received: num_heads=0"),
    ({"num_heads": 2, "key_dim": "8"}, "argument `key_dim`, expected a positive "
     "integer. Received: key_dim='8'"),
    ({"num_heads": 2, "key_dim": 2, "value_dim": -1}, "expected a positive integer "
     "or `None`. Received: value_dim=-1"),
    ({"num_heads": 2, "key_dim": 2, "output_shape": "wide"}, "Invalid `output_shape`"),
    ({"num_heads": 2, "key_dim": 2, "attention_axes": "1"}, "`attention_axes` must "
     "be an int, list, or tuple"),
    ({"num_heads": 2, "key_dim": 2, "sliding_window": 0}, "`sliding_window` must be "
     "`None` or a positive integer"),
    ({"num_heads": 2, "key_dim": 2, "dropout": 0.1, "flash_attention": True},
     "Dropout is not supported when flash attention is enabled"),
])
def test_mha_constructor_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        layers.MultiHeadAttention(**kwargs)


def test_mha_key_and_value_must_agree():
    message = "All dimensions of `value` and `key`, except the last one, must be equal"
    layer = layers.MultiHeadAttention(2, 2)
    with pytest.raises(ValueError, match=message):
        layer(normal(1, 3, 4), normal(1, 5, 4), normal(1, 6, 4))
    with pytest.raises(ValueError, match=message):
        layers.MultiHeadAttention(2, 2)(keras.Input((3, 4)), keras.Input((5, 4)),
                                        keras.Input((6, 4)))


# ------------------------------------------------- Attention, AdditiveAttention
def np_attention(q, v, k=None, scale=1.0, score_mode="dot", concat_weight=1.0,
                 additive_scale=None, q_mask=None, v_mask=None, causal=False):
    k = v if k is None else k
    if additive_scale is not None:
        scores = (additive_scale * np.tanh(q[:, :, None] + k[:, None])).sum(-1)
    elif score_mode == "dot":
        scores = scale * np.einsum("btd,bsd->bts", q, k)
    else:
        scores = concat_weight * np.tanh(scale * (q[:, :, None] + k[:, None])).sum(-1)
    mask = np.ones(scores.shape, bool)
    if v_mask is not None:
        mask &= v_mask[:, None]
    if causal:
        mask &= np.tril(np.ones(scores.shape[1:], bool))
    weights = np_softmax(np.where(mask, scores, scores - 1e9))
    out = weights @ v
    if q_mask is not None:
        out = np.where(q_mask[:, :, None], out, 0.0)
    return out, weights


@pytest.mark.parametrize("kwargs", [{}, {"use_scale": True},
                                    {"score_mode": "concat"},
                                    {"score_mode": "concat", "use_scale": True}])
def test_attention_against_numpy(kwargs):
    q, v, k = normal(2, 3, 4), normal(2, 5, 4), normal(2, 5, 4)
    layer = layers.Attention(**kwargs)
    layer.build([q.shape, v.shape, k.shape])
    for w in layer.weights:
        w.assign(np.array(1.7, "float32"))
    q_mask = np.array([[True, True, False], [True, True, True]])
    v_mask = np.array([[True, False, True, True, False], [True] * 5])
    out, weights = layer([q, v, k], mask=[q_mask, v_mask],
                         return_attention_scores=True, use_causal_mask=True)
    scale = 1.7 if kwargs.get("use_scale") else 1.0
    concat = 1.7 if kwargs.get("score_mode") == "concat" else 1.0
    e_out, e_weights = np_attention(q.astype("float64"), v, k, scale=scale,
                                    score_mode=kwargs.get("score_mode", "dot"),
                                    concat_weight=concat, q_mask=q_mask,
                                    v_mask=v_mask, causal=True)
    np.testing.assert_allclose(out, e_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(weights, e_weights, rtol=1e-5, atol=1e-6)


def test_additive_attention_against_numpy_and_config():
    q, v = normal(2, 3, 4), normal(2, 5, 4)
    layer = layers.AdditiveAttention()
    out = layer([q, v])
    assert layer.scale.shape == (4,)
    expected, _ = np_attention(q.astype("float64"), v,
                               additive_scale=layer.scale.numpy())
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    assert list(layer.get_config()) == ["name", "trainable", "dtype", "use_scale",
                                        "dropout", "seed"]
    unscaled = layers.AdditiveAttention(use_scale=False)
    np.testing.assert_allclose(
        unscaled([q, v]), np_attention(q.astype("float64"), v,
                                       additive_scale=np.ones(4))[0],
        rtol=1e-5, atol=1e-6)


def test_attention_masks_from_embedding_and_output_mask():
    tokens = np.array([[1, 2, 0], [3, 0, 0]])
    x = layers.Embedding(5, 4, mask_zero=True)(tokens)
    out = layers.Attention()([x, x])
    keep = tokens != 0
    expected, _ = np_attention(x.astype("float64"), x, q_mask=keep, v_mask=keep)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(get_keras_mask(out), keep)


@pytest.mark.parametrize("make", [lambda **kw: layers.Attention(use_scale=True, **kw),
                                  lambda **kw: layers.AdditiveAttention(**kw)])
def test_attention_contract_and_gradients(make, tmp_path):
    inputs = [normal(2, 3, 4), normal(2, 5, 4)]
    check_layer(make, inputs, tmp_path)
    check_layer_gradients(make(dtype="float64"), inputs)


def test_attention_dropout_only_when_training():
    q, v = normal(2, 3, 4), normal(2, 5, 4)
    layer = layers.Attention(dropout=0.5, seed=1)
    np.testing.assert_allclose(layer([q, v]), layers.Attention()([q, v]), rtol=1e-6)
    assert not np.allclose(layer([q, v], training=True), layer([q, v]))


def test_attention_symbolic_shapes():
    q, v = keras.Input((3, 4)), keras.Input((5, 2))
    out, scores = layers.Attention()([q, v, keras.Input((5, 2))],
                                     return_attention_scores=True)
    assert out.shape == (None, 3, 2) and scores.shape == (None, 3, 5)


@pytest.mark.parametrize("call, message", [
    (lambda: layers.Attention()(np.ones((1, 3, 4))),
     r"must be called on a list of inputs, namely \[query, value\] or "
     r"\[query, value, key\]. Received: inputs=\(1, 3, 4\)"),
    (lambda: layers.Attention()([np.ones((1, 3, 4))]),
     "accepts inputs list of length 2 or 3"),
    (lambda: layers.Attention()([np.ones((1, 3, 4))] * 2, mask=np.ones((1, 3))),
     r"mask must be a list, namely \[query_mask, value_mask\]"),
    (lambda: layers.Attention(score_mode="x"),
     r"Expected one of \{'dot', 'concat'\}. Received: score_mode=x"),
])
def test_attention_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------- keras.io: "Text classification with Transformer"
# The example's two layers and model as keras.io writes them (Apoorv Nandan,
# Apache License 2.0; one list joined on a line), run unchanged; the IMDB
# reviews are replaced by synthetic token sequences labelled by whether token
# 7 occurs.
class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = ops.shape(x)[-1]
        positions = ops.arange(start=0, stop=maxlen, step=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


def test_keras_io_text_classification_with_transformer_trains():
    keras.utils.set_random_seed(0)
    vocab_size, maxlen = 30, 10  # scaled down from 20000 and 200
    rng = np.random.default_rng(0)
    x_train = rng.integers(1, vocab_size, size=(256, maxlen))
    y_train = (x_train == 7).any(axis=1).astype("int32")
    x_val, y_val = x_train[:64], y_train[:64]

    embed_dim = 8  # scaled down from 32
    num_heads = 2
    ff_dim = 8
    inputs = layers.Input(shape=(maxlen,))
    embedding_layer = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)
    x = embedding_layer(inputs)
    transformer_block = TransformerBlock(embed_dim, num_heads, ff_dim)
    x = transformer_block(x)
    x = layers.GlobalAveragePooling1D()(x)
    x = layers.Dropout(0.1)(x)
    x = layers.Dense(20, activation="relu")(x)
    x = layers.Dropout(0.1)(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)

    model.compile(
        optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no mask or build warning on the way
        history = model.fit(
            x_train, y_train, batch_size=32, epochs=8, validation_data=(x_val, y_val),
            verbose=0,
        )
    losses = history.history["loss"]
    assert losses[-1] < 0.8 * losses[0], losses
    assert history.history["val_accuracy"][-1] > 0.8
    # the block's attention is the library's, with Keras's parameter count
    assert transformer_block.att.count_params() == 3 * (8 * 16 + 16) + 16 * 8 + 8
