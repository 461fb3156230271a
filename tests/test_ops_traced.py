"""Public ops inside a traced step: every value that can change between calls
goes through a recorded op, so a replay reads the new value instead of the
one of the first call."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import ops
from kerasmini.backend.graph import function


def test_take_reads_the_indices_of_each_replay():
    rows = function(lambda x, indices: ops.take(x, indices, axis=0))
    table = np.arange(10.0).reshape(5, 2)
    rows(table, np.array([0, 1]))
    np.testing.assert_array_equal(rows(table, np.array([4, 2])), [[8, 9], [4, 5]])
    assert rows.trace_count == 1


def test_take_without_an_axis_flattens_first():
    flat = function(lambda x, indices: ops.take(x, indices))
    table = np.arange(6.0).reshape(2, 3)
    flat(table, np.array([0, 1]))
    np.testing.assert_array_equal(flat(table, np.array([5, -1])), [5.0, 5.0])


def test_argmax_in_a_metric_like_step_follows_the_data():
    hits = function(lambda y, p: ops.sum(ops.cast(
        ops.equal(ops.argmax(p, axis=-1), y), "float32")))
    probs = np.eye(3, dtype="float32")
    assert float(hits(np.array([0, 1, 2]), probs)) == 3.0
    assert float(hits(np.array([2, 1, 0]), probs)) == 1.0


def test_slice_reads_the_start_of_each_replay():
    window = function(lambda x, start: ops.slice(x, start, (2, 2)))
    grid = np.arange(16.0).reshape(4, 4)
    window(grid, np.array([0, 0]))
    np.testing.assert_array_equal(window(grid, np.array([2, 1])), [[9, 10], [13, 14]])
    assert window.trace_count == 1
    with pytest.raises(ValueError, match="ops.slice: each slice must lie inside"):
        window(grid, np.array([3, 0]))  # checked on the replay, not only the trace


def test_value_checks_run_on_every_replay():
    pick = function(lambda x, i: ops.take(x, i, axis=1))
    pick(np.ones((2, 3)), np.array([0, 2]))
    with pytest.raises(ValueError, match=r"ops.take: `indices` must be in \[-3, 3\)"):
        pick(np.ones((2, 3)), np.array([0, 7]))
    encode = function(lambda labels: ops.one_hot(labels, 3))
    encode(np.array([0, 2]))
    with pytest.raises(ValueError, match=r"ops.one_hot: the labels must be integers"):
        encode(np.array([0, 3]))


@pytest.mark.parametrize("call", [
    lambda x: ops.image.resize(x, (5, 3), interpolation="bicubic", antialias=True),
    lambda x: ops.image.extract_patches(x, 2),
    lambda x: ops.top_k(ops.reshape(x, (2, -1)), 3)[0],
    lambda x: ops.concatenate(ops.split(x, 2, axis=1)[::-1], axis=1),
    lambda x: ops.stack(ops.unstack(x, axis=3), axis=1),
    lambda x: ops.roll(ops.repeat(x, 2, axis=2), 1, axis=1),
    lambda x: ops.tensordot(x, ops.ones((3, 2)), axes=1),
    lambda x: ops.fft2((x[..., 0], x[..., 1]))[1],
    lambda x: ops.pad(x, ((0, 0), (1, 1), (2, 0), (0, 0)), mode="reflect"),
    lambda x: ops.gelu(ops.arctan(x), approximate=False),
])
def test_new_ops_replay_on_new_data(call):
    rng = np.random.default_rng(0)
    first, second = (rng.normal(size=(2, 4, 4, 3)).astype("float32") for _ in "ab")
    traced = function(call)
    traced(first)
    np.testing.assert_allclose(traced(second), call(second), rtol=1e-6, atol=1e-6)
    assert traced.trace_count == 1


def test_new_ops_between_layers_of_a_functional_model():
    inputs = keras.Input((8, 8, 1))
    small = ops.image.resize(inputs, (4, 4))
    patches = ops.image.extract_patches(small, 2)  # (batch, 2, 2, 4)
    left, right = ops.split(ops.reshape(patches, (-1, 16)), 2, axis=1)
    outputs = keras.layers.Dense(3)(ops.concatenate([ops.erf(left), right], axis=1))
    model = keras.Model(inputs, outputs)
    names = [op.name for op in model.operations]
    assert {"resize", "extract_patches", "split", "erf"} <= set(names)
    images = np.random.default_rng(1).normal(size=(5, 8, 8, 1)).astype("float32")
    model.compile("adam", "mse")
    history = model.fit(images, np.zeros((5, 3)), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    np.testing.assert_allclose(model.predict(images, verbose=0), model(images),
                               rtol=1e-5, atol=1e-6)


def test_depthwise_and_separable_conv_replay_new_inputs():
    rng = np.random.default_rng(0)
    depthwise, pointwise = rng.normal(size=(3, 3, 2, 2)), rng.normal(size=(1, 1, 4, 3))
    step = function(lambda x: ops.separable_conv(x, depthwise, pointwise,
                                                 padding="same"))
    first, second = rng.normal(size=(2, 5, 5, 2)), rng.normal(size=(2, 5, 5, 2))
    step(first)
    np.testing.assert_allclose(
        step(second), ops.separable_conv(second, depthwise, pointwise,
                                         padding="same"), rtol=1e-12)
    assert step.trace_count == 1


def test_conv_and_pooling_of_volumes_in_a_functional_model():
    kernel = np.random.default_rng(1).normal(size=(2, 2, 2, 1, 3)).astype("float32")
    x = keras.Input((4, 4, 4, 1))
    y = ops.max_pool(ops.conv(x, kernel, padding="same"), 2)
    model = keras.Model(x, y)
    volume = np.random.default_rng(2).normal(size=(2, 4, 4, 4, 1)).astype("float32")
    np.testing.assert_allclose(model.predict(volume, verbose=0),
                               ops.max_pool(ops.conv(volume, kernel, padding="same"),
                                            2), rtol=1e-6)
    assert model.output.shape == (None, 2, 2, 2, 3)
