"""``kerasmini.function``: trace once per signature, then replay the graph."""

import numpy as np
import pytest

from kerasmini.backend import (
    GradientTape,
    GraphTensor,
    Variable,
    executing_eagerly,
    function,
    nn,
    ops,
    random,
)


def test_function_traces_once_per_signature_and_replays():
    calls = []

    @function
    def double(x):
        calls.append(1)  # Python side effects happen on tracing only
        return ops.multiply(x, 2.0)

    first = double(np.array([1.0, 2.0]))
    second = double(np.array([5.0, -1.0]))
    np.testing.assert_array_equal(first, [2.0, 4.0])
    np.testing.assert_array_equal(second, [10.0, -2.0])
    assert double.trace_count == 1 and len(calls) == 1


def test_function_retraces_for_a_new_shape_dtype_or_python_argument():
    scale = function(lambda x, factor: ops.multiply(x, factor))
    scale(np.ones(2), 2.0)
    scale(np.zeros(2), 2.0)
    assert scale.trace_count == 1
    scale(np.ones(3), 2.0)  # new shape
    scale(np.ones(3, "float32"), 2.0)  # new dtype
    np.testing.assert_array_equal(scale(np.ones(3), 5.0), [5.0, 5.0, 5.0])  # new value
    assert scale.trace_count == 4


def test_executing_eagerly_is_false_only_while_tracing():
    seen = []
    f = function(lambda x: seen.append(executing_eagerly()) or ops.square(x))
    f(np.ones(2))
    f(np.ones(2))
    assert seen == [False]
    assert executing_eagerly()


def test_traced_values_are_graph_tensors():
    kinds = []
    f = function(lambda x: kinds.append(type(ops.square(x))) or x)
    f(np.ones(2))
    assert kinds == [GraphTensor]


def test_graph_tensor_refuses_numpy_conversion_and_bool():
    def misuse(x):
        y = ops.square(x)
        with pytest.raises(TypeError, match="no fixed NumPy value"):
            np.asarray(y)
        with pytest.raises(TypeError, match="Python `bool`"):
            bool(ops.greater(y, 0.0))
        return y

    function(misuse)(np.ones(2))


def test_graph_tensor_of_another_function_is_refused():
    leaked = []
    function(lambda x: leaked.append(ops.square(x)) or x)(np.ones(2))
    with pytest.raises(ValueError, match="Pass it as an argument instead"):
        function(lambda x: ops.add(x, leaked[0]))(np.ones(2))


def _mlp_variables(seed):
    rng = np.random.default_rng(seed)
    return [
        Variable(rng.normal(size=(4, 8)) * 0.5, dtype="float32", name="w1"),
        Variable(np.zeros(8, "float32")),
        Variable(rng.normal(size=(8, 3)) * 0.5, dtype="float32", name="w2"),
        Variable(np.zeros(3, "float32")),
    ]


def _sgd_step(variables, x, y):
    w1, b1, w2, b2 = variables
    with GradientTape() as tape:
        hidden = ops.relu(ops.add(ops.matmul(x, w1), b1))  # (batch, 8)
        logits = ops.add(ops.matmul(hidden, w2), b2)  # (batch, 3)
        loss = ops.negative(
            ops.mean(ops.sum(ops.multiply(y, ops.log_softmax(logits)), axis=-1))
        )
    grads = tape.gradient(loss, variables)
    for variable, grad in zip(variables, grads):
        variable.assign_sub(ops.multiply(grad, 0.1))
    return loss


def test_replay_matches_eager_for_an_mlp_training_step():
    eager_vars, graph_vars = _mlp_variables(0), _mlp_variables(0)
    traced_step = function(_sgd_step)
    rng = np.random.default_rng(1)
    for _ in range(4):
        x = rng.normal(size=(5, 4)).astype("float32")
        y = np.eye(3, dtype="float32")[rng.integers(0, 3, size=5)]
        eager_loss = _sgd_step(eager_vars, x, y)
        graph_loss = traced_step(graph_vars, x, y)
        assert graph_loss.dtype == eager_loss.dtype == np.float32
        np.testing.assert_allclose(graph_loss, eager_loss, rtol=1e-6)
        for a, b in zip(eager_vars, graph_vars):
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6)
    assert traced_step.trace_count == 1
    assert not np.allclose(graph_vars[0].numpy(), _mlp_variables(0)[0].numpy())


def test_gradients_inside_a_traced_function_equal_eager_ones():
    rng = np.random.default_rng(2)
    kernel = Variable(rng.normal(size=(3, 3, 2, 4)), name="kernel")
    dense = Variable(rng.normal(size=(16, 1)), name="dense")

    def grads(x):
        with GradientTape() as tape:
            y = nn.conv2d(x, kernel, padding="same")  # (2, 4, 4, 4)
            y = nn.max_pool2d(ops.tanh(y), 2)  # (2, 2, 2, 4)
            y = nn.avg_pool2d(y, 2, padding="same")  # (2, 1, 1, 4)
            loss = ops.sum(
                ops.matmul(ops.reshape(y, (2, 4)), ops.reshape(dense, (4, 4)))
            )
        return tape.gradient(loss, [kernel, dense])

    traced = function(grads)
    for _ in range(2):  # trace, then replay
        x = rng.normal(size=(2, 4, 4, 2))
        for got, expected in zip(traced(x), grads(x)):
            np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_random_ops_draw_fresh_values_on_replay():
    noise = function(lambda x: ops.add(x, ops.random_uniform((3,), dtype="float64")))
    first, second = noise(np.zeros(3)), noise(np.zeros(3))
    assert noise.trace_count == 1
    assert not np.array_equal(first, second)


def test_variable_updates_replay_even_when_their_result_is_unused():
    counter = Variable(0.0)

    @function
    def tick(x):
        counter.assign_add(1.0)
        return x

    for _ in range(3):
        tick(np.ones(1))
    assert float(counter.numpy()) == 3.0 and tick.trace_count == 1


def test_replay_keeps_float32_with_python_constants():
    f = function(lambda x: ops.add(ops.multiply(x, 2), 1.0))
    x = np.ones(2, "float32")
    assert f(x).dtype == f(x).dtype == np.float32


def test_replay_returns_arrays_for_0d_results():
    f = function(lambda x: ops.square(x))
    assert isinstance(f(np.array(2.0)), np.ndarray)
    assert isinstance(f(np.array(3.0)), np.ndarray)


def test_output_structure_is_kept_and_none_stays_none():
    f = function(lambda x: {"y": ops.negative(x), "nothing": None, "pair": (x, 2.0)})
    for _ in range(2):
        out = f(np.array([1.0]))
        assert out["nothing"] is None
        np.testing.assert_array_equal(out["y"], [-1.0])
        assert isinstance(out["pair"], tuple) and float(out["pair"][1]) == 2.0


def test_nested_function_is_inlined_into_the_outer_trace():
    inner = function(lambda x: ops.square(x))
    outer = function(lambda x: inner(ops.add(x, 1.0)))
    np.testing.assert_array_equal(outer(np.array([1.0])), [4.0])
    np.testing.assert_array_equal(outer(np.array([2.0])), [9.0])
    assert outer.trace_count == 1


def test_function_on_a_method_traces_once_per_instance():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @function
        def call(self, x):
            return ops.multiply(x, self.scale)

    model, other = Model(2.0), Model(3.0)
    model.call(np.ones(2))
    np.testing.assert_array_equal(model.call(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(other.call(np.ones(2)), [3.0, 3.0])
    assert model.call.trace_count == 1 and other.call.trace_count == 1


def test_function_repr_counts_traces():
    @function
    def step(x):
        return x

    step(np.ones(1))
    assert repr(step) == "<kerasmini.function step: 1 trace(s)>"


def test_set_seed_makes_traced_random_ops_repeatable():
    noise = function(lambda x: ops.add(x, ops.random_normal((2,), dtype="float64")))
    random.set_seed(7)
    first = noise(np.zeros(2))
    random.set_seed(7)
    np.testing.assert_array_equal(noise(np.zeros(2)), first)


def test_public_argmax_and_argmin_are_replayed_not_baked_in():
    from kerasmini import ops as public_ops  # the ops a user's metric calls

    @function
    def winners(x):
        return public_ops.argmax(x, axis=-1), public_ops.argmin(x, keepdims=True)

    winners(np.array([[1.0, 5.0], [7.0, 0.0]]))
    best, worst = winners(np.array([[9.0, 5.0], [0.0, 7.0]]))
    np.testing.assert_array_equal(best, [0, 1])
    np.testing.assert_array_equal(worst, [[2]])
    assert winners.trace_count == 1
