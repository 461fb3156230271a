"""Checks of chapter 15's exercises (attention: a layer made of layers)."""

import inspect

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail, fresh_name_scope

_KERNEL_CASES = [  # equation, input shape (batch first), output shape (no batch)
    ("abc,cde->abde", (None, 6, 8), (None, 2, 4)),
    ("ab,bc->ac", (None, 3), (4,)),
    ("abc,cd->abd", (None, 7, 5), (None, 2)),
    ("abcd,cde->abe", (None, 3, 2, 7), (None, 5)),
    ("abc,bd->adc", (None, 5, 4), (9, 4)),
]


def _expected_kernel(equation, input_shape, output_shape, batch=1):
    """Sizes by letter, read from the input and from the output (its letters
    after the batch letter), then the kernel's letters looked up. (``batch=0``
    is the slip of reading the output's letters from output_shape[0].)"""
    inputs, rest = equation.split(",")
    kernel, output = rest.split("->")
    size = dict(zip(inputs, input_shape))
    size.update({c: n for c, n in zip(output[batch:], output_shape) if n is not None})
    return tuple(size.get(c) for c in kernel)


@exercise("ch15-kernel-shape", "kernel_shape")
def check_kernel_shape(kernel_shape):
    refused = {"analyze_equation": "analyze_equation",
               keras.layers.EinsumDense.build: "EinsumDense.build"}
    for equation, input_shape, output_shape in _KERNEL_CASES:
        with Refuse("ch15-kernel-shape", refused):
            got = kernel_shape(equation, input_shape, output_shape)
        expected = _expected_kernel(equation, input_shape, output_shape)
        where = f"kernel_shape({equation!r}, {input_shape}, {output_shape})"
        expect(got is not None, f"{where} returned None: return a tuple")
        expect(isinstance(got, tuple), (
            f"{where} returned a {type(got).__name__}: return a tuple, as "
            "Variable.shape is"))
        hint = ""
        if len(got) != len(expected):
            hint = ": one size per letter of the kernel's part of the equation"
        elif got == _expected_kernel(equation, input_shape, output_shape, batch=0):
            hint = (": output_shape has no batch axis, so the output's letter i "
                    "is output_shape[i - 1]")
        elif any(n is None for n in got):
            hint = (": a kernel letter that is also an output letter takes its "
                    "size from output_shape")
        expect(got == expected, f"{where} gave {got}, expected {expected}{hint}")


def _attention(query, key, value, mask):
    """Scaled dot-product attention, in float64, the check's own way."""
    q, k, v = (np.asarray(x, "float64") for x in (query, key, value))
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(q.shape[-1])
    if mask is not None:
        logits = np.where(mask[:, None], logits, -np.inf)
    weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", weights, v), weights


def _attention_data(seed, b=2, t=3, s=4, n=2, h=3, masked=True):
    rng = np.random.default_rng(seed)
    query, key, value = (rng.normal(size=shape).astype("float32") for shape in
                         ((b, t, n, h), (b, s, n, h), (b, s, n, h)))
    mask = None
    if masked:
        mask = rng.random((b, t, s)) > 0.4
        mask[..., 0] = True  # every query may attend to something
    return query, key, value, mask


@exercise("ch15-attention", "attention")
def check_attention(attention):
    refused = {"_dot_product_attention": "ops.dot_product_attention",
               "_compute_attention": "MultiHeadAttention._compute_attention"}
    for seed, masked in ((0, False), (1, True), (2, True)):
        query, key, value, mask = _attention_data(seed, masked=masked)
        with Refuse("ch15-attention", refused):
            result = attention(query, key, value, mask)
        expect(isinstance(result, tuple) and len(result) == 2, (
            "attention should return a pair (output, weights), got "
            f"{type(result).__name__}"))
        output, weights = (np.asarray(x) for x in result)
        expected, expected_weights = _attention(query, key, value, mask)
        expect(output.shape == expected.shape, (
            f"the output has shape {output.shape}, expected {expected.shape}, "
            "the query's (B, T, N, H)"))
        if weights.shape != expected_weights.shape:
            fail(f"the weights have shape {weights.shape}, expected "
                 f"{expected_weights.shape}: (B, N, T, S), one row per head and "
                 "query position")
        if not np.allclose(weights.sum(axis=-1), 1.0, atol=1e-4):
            fail("the weights of a query position should sum to one over the keys "
                 "(a softmax over the last axis, S)")
        if mask is not None and np.abs(weights[~np.broadcast_to(
                mask[:, None], weights.shape)]).max() > 1e-6:
            fail("a masked key (mask False) must get no weight: set its logit to "
                 "a large negative number before the softmax")
        if not np.allclose(weights, expected_weights, atol=1e-5):
            unscaled, _ = _attention(query * np.sqrt(query.shape[-1]), key, value, mask)
            if np.allclose(output, unscaled, atol=1e-4):
                fail("the weights are too sharp: divide the logits by sqrt(H), "
                     "the size of a head")
            fail("the weights differ from softmax(query . key / sqrt(H)) over the "
                 "keys")
        expect(np.allclose(output, expected, atol=1e-4), (
            "the output should be the weights applied to the value: "
            "sum over s of weights[b, n, t, s] * value[b, s, n, h]"))


def _combined(query_mask, value_mask, causal):
    rows = np.asarray(query_mask, bool)[:, :, None]
    cols = np.asarray(value_mask, bool)[:, None, :]
    mask = rows & cols
    if causal:
        t, s = mask.shape[1:]
        mask = mask & (np.arange(t)[:, None] >= np.arange(s)[None, :])
    return mask


@exercise("ch15-attention-mask", "combine_masks")
def check_attention_mask(combine_masks):
    refused = {"_compute_attention_mask": "MultiHeadAttention._compute_attention_mask",
               "_compute_causal_mask": "MultiHeadAttention._compute_causal_mask"}
    rng = np.random.default_rng(15)
    for t, s, causal in ((3, 3, False), (4, 4, True), (3, 5, False), (5, 5, True)):
        query_mask = rng.random((2, t)) > 0.3
        value_mask = rng.random((2, s)) > 0.3
        query_mask[0, -1] = value_mask[1, 0] = False  # some padding on each side
        value_mask[0, 0] = True
        with Refuse("ch15-attention-mask", refused):
            got = combine_masks(query_mask, value_mask, causal)
        expected = _combined(query_mask, value_mask, causal)
        got = np.asarray(got)
        where = f"for T={t}, S={s}, causal={causal}"
        expect(got.shape == expected.shape, (
            f"{where} the mask has shape {got.shape}, expected {expected.shape}: "
            "(B, T, S), the query's positions as rows, the value's as columns"))
        expect(got.dtype == bool, f"{where} the mask should be booleans, got "
               f"{got.dtype}")
        if got.shape == expected.shape and np.array_equal(got, expected):
            continue
        plain = _combined(query_mask, value_mask, False)
        upper = np.arange(t)[:, None] <= np.arange(s)[None, :]
        if causal and np.array_equal(got, plain & upper):
            fail(f"{where} the causal part is upside down: position i may see "
                 "j <= i (the lower triangle), not the future")
        if np.array_equal(got, _combined(np.ones_like(query_mask), value_mask,
                                         causal)):
            fail(f"{where} the query's mask is missing: a padded query position "
                 "attends to nothing (its row is all False)")
        loose = query_mask[:, :, None] | value_mask[:, None, :]
        if causal:
            loose = loose & (np.arange(t)[:, None] >= np.arange(s)[None, :])
        if np.array_equal(got, loose):
            fail(f"{where} a pair may attend only if both positions are kept: "
                 "combine the masks with a logical and, not or")
        expect(np.array_equal(got, expected), f"{where} the mask differs from the "
               "query mask (B, T, 1) and the value mask (B, 1, S) combined with "
               "and" + (", then the lower triangle" if causal else ""))


@exercise("ch15-made-of-layers", "PairScores")
def check_made_of_layers(PairScores):  # noqa: N803
    names = list(inspect.signature(PairScores.build).parameters)[1:]
    expect(names[:2] == ["query_shape", "value_shape"], (
        f"build takes {names}: give it two shapes, build(self, query_shape, "
        "value_shape), so that it is handed the shape of each argument of call"))
    fresh_name_scope()
    layer = PairScores(4, name="pair")
    expect(not layer.weights, "the layer has weights before build: create the "
           "sublayers in build, when the shapes are known")
    layer.build((None, 3, 6), (None, 5, 2))
    subs = [sub.name for sub in layer._layers]
    expect(subs == ["query", "value"], (
        f"after build the sublayers are {subs}, expected ['query', 'value'] in "
        "that order: create Dense(units, name='query') first, then 'value'"))
    paths = [(w.path, tuple(w.shape)) for w in layer.weights]
    if not paths:
        fail("after build the sublayers have no weights: call each sublayer's "
             "build with its shape inside build")
    expected_paths = [("pair/query/kernel", (6, 4)), ("pair/query/bias", (4,)),
                      ("pair/value/kernel", (2, 4)), ("pair/value/bias", (4,))]
    expect(paths == expected_paths, f"the weights are {paths}, expected "
           f"{expected_paths}: query is built with query_shape, value with "
           "value_shape")
    rng = np.random.default_rng(4)
    query = rng.normal(size=(2, 3, 6)).astype("float32")
    value = rng.normal(size=(2, 5, 2)).astype("float32")
    try:
        scores = np.asarray(layer(query, value))
    except (TypeError, ValueError) as error:
        raise Mistake(f"layer(query, value) fails ({type(error).__name__}: "
                      f"{error})") from error
    wq, bq, wv, bv = (w.numpy() for w in layer.weights)
    expected = np.einsum("btu,bsu->bts", query @ wq + bq, value @ wv + bv)
    expect(scores.shape == expected.shape, (
        f"the scores have shape {scores.shape}, expected {expected.shape} "
        "(batch, query steps, value steps)"))
    expect(np.allclose(scores, expected, rtol=1e-4, atol=1e-4), (
        "the scores should be the projected query times the projected value, "
        "transposed: matmul(q, swapaxes(v, -2, -1))"))
    fresh_name_scope()
    called = PairScores(4, name="called")
    called(keras.Input((3, 6)), keras.Input((5, 2)))
    config = called.get_build_config()
    expect(config == {"shapes_dict": {"query_shape": (None, 3, 6),
                                      "value_shape": (None, 5, 2)}}, (
        f"after a symbolic call get_build_config() is {config}: build should "
        "receive a shape for each tensor argument of call(query, value)"))
