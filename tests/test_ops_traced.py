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
