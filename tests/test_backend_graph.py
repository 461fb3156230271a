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
    random,
)
from kerasmini.backend import numpy as bnp


def test_function_traces_once_per_signature_and_replays():
    calls = []

    @function
    def double(x):
        calls.append(1)  # Python side effects happen on tracing only
        return bnp.multiply(x, 2.0)

    first = double(np.array([1.0, 2.0]))
    second = double(np.array([5.0, -1.0]))
    np.testing.assert_array_equal(first, [2.0, 4.0])
    np.testing.assert_array_equal(second, [10.0, -2.0])
    assert double.trace_count == 1 and len(calls) == 1


def test_function_retraces_for_a_new_shape_dtype_or_python_argument():
    scale = function(lambda x, factor: bnp.multiply(x, factor))
    scale(np.ones(2), 2.0)
    scale(np.zeros(2), 2.0)
    assert scale.trace_count == 1
    scale(np.ones(3), 2.0)  # new shape
    scale(np.ones(3, "float32"), 2.0)  # new dtype
    np.testing.assert_array_equal(scale(np.ones(3), 5.0), [5.0, 5.0, 5.0])  # new value
    assert scale.trace_count == 4


def test_executing_eagerly_is_false_only_while_tracing():
    seen = []
    f = function(lambda x: seen.append(executing_eagerly()) or bnp.square(x))
    f(np.ones(2))
    f(np.ones(2))
    assert seen == [False]
    assert executing_eagerly()


def test_traced_values_are_graph_tensors():
    kinds = []
    f = function(lambda x: kinds.append(type(bnp.square(x))) or x)
    f(np.ones(2))
    assert kinds == [GraphTensor]


def test_graph_tensor_refuses_numpy_conversion_and_bool():
    def misuse(x):
        y = bnp.square(x)
        with pytest.raises(TypeError, match="no fixed NumPy value"):
            np.asarray(y)
        with pytest.raises(TypeError, match="Python `bool`"):
            bool(bnp.greater(y, 0.0))
        return y

    function(misuse)(np.ones(2))


def test_graph_tensor_of_another_function_is_refused():
    leaked = []
    function(lambda x: leaked.append(bnp.square(x)) or x)(np.ones(2))
    with pytest.raises(ValueError, match="Pass it as an argument instead"):
        function(lambda x: bnp.add(x, leaked[0]))(np.ones(2))


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
        hidden = nn.relu(bnp.add(bnp.matmul(x, w1), b1))  # (batch, 8)
        logits = bnp.add(bnp.matmul(hidden, w2), b2)  # (batch, 3)
        loss = bnp.negative(
            bnp.mean(bnp.sum(bnp.multiply(y, nn.log_softmax(logits)), axis=-1))
        )
    grads = tape.gradient(loss, variables)
    for variable, grad in zip(variables, grads):
        variable.assign_sub(bnp.multiply(grad, 0.1))
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
            y = nn.max_pool2d(bnp.tanh(y), 2)  # (2, 2, 2, 4)
            y = nn.avg_pool2d(y, 2, padding="same")  # (2, 1, 1, 4)
            loss = bnp.sum(
                bnp.matmul(bnp.reshape(y, (2, 4)), bnp.reshape(dense, (4, 4)))
            )
        return tape.gradient(loss, [kernel, dense])

    traced = function(grads)
    for _ in range(2):  # trace, then replay
        x = rng.normal(size=(2, 4, 4, 2))
        for got, expected in zip(traced(x), grads(x)):
            np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_random_ops_draw_fresh_values_on_replay():
    noise = function(lambda x: bnp.add(x, random.uniform((3,), dtype="float64")))
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
    f = function(lambda x: bnp.add(bnp.multiply(x, 2), 1.0))
    x = np.ones(2, "float32")
    assert f(x).dtype == f(x).dtype == np.float32


def test_replay_returns_arrays_for_0d_results():
    f = function(lambda x: bnp.square(x))
    assert isinstance(f(np.array(2.0)), np.ndarray)
    assert isinstance(f(np.array(3.0)), np.ndarray)


def test_output_structure_is_kept_and_none_stays_none():
    f = function(lambda x: {"y": bnp.negative(x), "nothing": None, "pair": (x, 2.0)})
    for _ in range(2):
        out = f(np.array([1.0]))
        assert out["nothing"] is None
        np.testing.assert_array_equal(out["y"], [-1.0])
        assert isinstance(out["pair"], tuple) and float(out["pair"][1]) == 2.0


def test_nested_function_is_inlined_into_the_outer_trace():
    inner = function(lambda x: bnp.square(x))
    outer = function(lambda x: inner(bnp.add(x, 1.0)))
    np.testing.assert_array_equal(outer(np.array([1.0])), [4.0])
    np.testing.assert_array_equal(outer(np.array([2.0])), [9.0])
    assert outer.trace_count == 1


def test_function_on_a_method_traces_once_per_instance():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @function
        def call(self, x):
            return bnp.multiply(x, self.scale)

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
    noise = function(lambda x: bnp.add(x, random.normal((2,), dtype="float64")))
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


def test_an_identical_op_is_recorded_once_and_reused():
    @function
    def twice(x):
        return bnp.add(nn.softmax(x, axis=-1), nn.softmax(x, axis=-1))

    result = twice(np.array([[1.0, 2.0]]))
    (graph,) = twice.graphs.values()
    assert [step[3] for step in graph.steps] == ["softmax", "add"]
    np.testing.assert_allclose(twice(np.array([[0.0, 0.0]])), [[1.0, 1.0]])
    np.testing.assert_allclose(result, 2 * nn.softmax(np.array([[1.0, 2.0]])))


def test_ops_with_other_parameters_or_random_ops_are_not_reused():
    @function
    def f(x):
        a = bnp.sum(x, axis=0)
        b = bnp.sum(x, axis=1)
        noise = bnp.add(random.uniform((2,), dtype="float64"),
                        random.uniform((2,), dtype="float64"))
        return a, b, noise

    f(np.ones((2, 2)))
    names = [step[3] for step in next(iter(f.graphs.values())).steps]
    assert names.count("sum") == 2
    assert sum("random" in name for name in names) == 2


def test_no_reuse_across_an_in_place_write():
    # Adam writes into the variable's array: an op after it must run again
    from kerasmini.optimizers import Adam

    w = Variable(np.ones(2), dtype="float64", name="w")
    opt = Adam(learning_rate=0.5)

    @function
    def step(g):
        before = bnp.multiply(w, 1.0)
        opt.apply_gradients([(g, w)])
        after = bnp.multiply(w, 1.0)
        return before, after

    step(np.ones(2))
    before, after = step(np.ones(2))
    np.testing.assert_allclose(after, w.numpy())
    assert not np.allclose(before, after)


def _traced_mlp_step():
    variables = _mlp_variables(0)
    step = function(lambda x, y: _sgd_step(variables, x, y))
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 4)).astype("float32")
    y = np.eye(3, dtype="float32")[rng.integers(0, 3, size=5)]
    step(x, y)
    (graph,) = step.graphs.values()
    return graph, variables, x, y


def test_compiled_run_matches_the_interpreted_replay():
    graph, variables, x, y = _traced_mlp_step()
    start = [v.numpy() for v in variables]
    interpreted = graph.replay([x, y])[graph.outputs[1][0]]
    after_replay = [v.numpy() for v in variables]
    for v, value in zip(variables, start):
        v.assign(value)
    compiled = graph.run(x, y)
    np.testing.assert_array_equal(compiled, interpreted)
    for v, value in zip(variables, after_replay):
        np.testing.assert_array_equal(v.numpy(), value)


def test_compiled_source_is_one_line_per_step_and_frees_dead_values():
    graph, _, _, _ = _traced_mlp_step()
    lines = graph.source.splitlines()
    assert lines[0] == "def _lambda_(s0, s1):"
    calls = [line for line in lines if "# " in line]
    assert [line.split("# ")[1] for line in calls] == [s[3] for s in graph.steps]
    assert any(line.strip().startswith("del ") for line in lines)
    assert lines[-1].startswith("    return ")


def test_compiled_run_rebuilds_dicts_lists_and_named_tuples():
    import collections

    Pair = collections.namedtuple("Pair", "a b")

    @function
    def f(x):
        return {"z": bnp.add(x, 1.0), "a": [bnp.multiply(x, 2.0), None]}, Pair(x, x)

    f(np.ones(2))
    out, pair = f(np.zeros(2))
    assert list(out) == ["z", "a"] and out["a"][1] is None
    np.testing.assert_array_equal(out["z"], [1.0, 1.0])
    assert type(pair) is Pair


def test_tuple_of_arrays_and_separate_arrays_share_the_fast_path():
    calls = []

    @function
    def f(batch):
        calls.append(1)
        x, y = batch
        return bnp.add(x, y)

    f((np.ones(2), np.ones(2)))
    np.testing.assert_array_equal(f((np.zeros(2), np.ones(2))), [1.0, 1.0])
    assert len(calls) == 1
    f((np.ones(3), np.ones(3)))  # a new shape traces again
    assert len(calls) == 2
