"""Public ops inside a traced step: every value that can change between calls
goes through a recorded op, so a replay reads the new value instead of the
one of the first call."""

import numpy as np

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
    import kerasmini as keras

    kernel = np.random.default_rng(1).normal(size=(2, 2, 2, 1, 3)).astype("float32")
    x = keras.Input((4, 4, 4, 1))
    y = ops.max_pool(ops.conv(x, kernel, padding="same"), 2)
    model = keras.Model(x, y)
    volume = np.random.default_rng(2).normal(size=(2, 4, 4, 4, 1)).astype("float32")
    np.testing.assert_allclose(model.predict(volume, verbose=0),
                               ops.max_pool(ops.conv(volume, kernel, padding="same"),
                                            2), rtol=1e-6)
    assert model.output.shape == (None, 2, 2, 2, 3)
