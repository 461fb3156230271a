"""The tracer's fast lane: the compiled step swaps in kernels, same numbers.

Eager code runs the taught version (Adam's ``update_step`` written with ops,
the plain label check); a compiled traced step runs the fused kernel or the
faster twin. These tests check that both give the same numbers, that the
kernels are really what a traced ``fit`` runs (and not what an eager one
runs), and that the compiler only fuses a region where nobody can tell.
"""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.backend import Variable, checks, function
from kerasmini.backend import numpy as bnp
from kerasmini.backend.fast import codegen, kernels, twins
from kerasmini.backend.fast.kernels import BLOCK, Fused
from kerasmini.backend.graph import fusible
from kerasmini.optimizers import SGD, Adagrad, Adam, RMSprop

OPTIMIZERS = {
    "adam": lambda: Adam(learning_rate=0.01),
    "adam_amsgrad": lambda: Adam(learning_rate=0.01, amsgrad=True),
    "adam_weight_decay_clipnorm": lambda: Adam(learning_rate=0.01, weight_decay=0.1,
                                               clipnorm=1.0),
    "rmsprop": lambda: RMSprop(learning_rate=0.01),
    "rmsprop_momentum_centered": lambda: RMSprop(learning_rate=0.01, momentum=0.5,
                                                 centered=True),
    "sgd": lambda: SGD(learning_rate=0.1),
    "sgd_nesterov": lambda: SGD(learning_rate=0.1, momentum=0.9, nesterov=True),
    "adagrad": lambda: Adagrad(learning_rate=0.1),
}


def _steps(make_optimizer, traced, shapes=((4, 3), (3,)), steps=5):
    """The variables after ``steps`` updates, eager or in a traced function."""
    rng = np.random.default_rng(0)
    variables = [Variable(rng.normal(size=s).astype("float32"), name=f"w{i}")
                 for i, s in enumerate(shapes)]
    grads = [[rng.normal(size=s).astype("float32") for s in shapes]
             for _ in range(steps)]
    optimizer = make_optimizer()

    def apply(*gs):
        optimizer.apply_gradients(zip(gs, variables))

    step = function(apply) if traced else apply
    for gs in grads:
        step(*gs)
    return [v.numpy() for v in variables], optimizer


# traced, these run Adam's fused kernel, which computes alpha in float64 where
# the formula written with ops computes it in float32 (see adam_update)
FUSED = {"adam", "adam_weight_decay_clipnorm"}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_a_traced_update_gives_the_eager_numbers(name):
    eager, _ = _steps(OPTIMIZERS[name], traced=False, steps=20)
    traced, _ = _steps(OPTIMIZERS[name], traced=True, steps=20)
    for got, want in zip(traced, eager):
        if name in FUSED:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        else:  # the recorded ops themselves, compiled: bit for bit
            np.testing.assert_array_equal(got, want)


def test_the_fused_adam_kernel_gives_the_formula_on_a_variable_of_several_blocks():
    shapes = ((3, BLOCK // 2 + 7), (5,))  # more than one block, the last partial
    eager, _ = _steps(OPTIMIZERS["adam"], traced=False, shapes=shapes, steps=3)
    traced, optimizer = _steps(OPTIMIZERS["adam"], traced=True, shapes=shapes,
                               steps=3)
    for got, want in zip(traced, eager):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert int(optimizer.iterations.numpy()) == 3


def test_the_fused_adam_kernel_is_the_formula_in_float64_rounded_to_float32():
    # one step from the same state: alpha exact (float64), then float32 passes
    rng = np.random.default_rng(1)
    w, m, g = (rng.normal(size=50).astype("float32") for _ in range(3))
    v = np.abs(rng.normal(size=50)).astype("float32")
    lr, t = 0.01, 7
    want_m = m.astype("float64") + (g - m.astype("float64")) * 0.1
    want_v = v.astype("float64") + (g.astype("float64")**2 - v) * 0.001
    alpha = lr * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
    want_w = w - alpha * want_m / (np.sqrt(want_v) + 1e-7)
    kernels.adam_update(np.float32(lr), np.int64(t - 1), w, m, v, g, beta_1=0.9,
                        beta_2=0.999, epsilon=1e-7)
    for got, want in ((m, want_m), (v, want_v), (w, want_w)):
        np.testing.assert_allclose(got, want, rtol=3e-7, atol=1e-9)


def _adam_fit(run_eagerly, calls, monkeypatch):
    original = kernels.adam_update

    def counted(*args, **kwargs):
        calls.append(len(args))
        return original(*args, **kwargs)

    monkeypatch.setattr(kernels, "adam_update", counted)
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                              keras.layers.Dense(2, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  run_eagerly=run_eagerly)
    x = np.random.default_rng(0).normal(size=(24, 3)).astype("float32")
    model.fit(x, np.arange(24) % 2, batch_size=8, epochs=2, verbose=0)
    return model


def test_graph_fit_runs_the_fused_adam_kernel(monkeypatch):
    calls = []
    model = _adam_fit(False, calls, monkeypatch)
    # 6 batches, one kernel call each for the 4 variables: the five replays
    # of the compiled step, and the traced batch, which records update_step
    # and then takes the kernel's step (so traced and replayed batches round
    # alike)
    assert calls == [2 + 4 * 4] * 6
    (graph,) = model.train_function.graphs.values()
    assert graph.source.count("# adam_update") == 1


def test_eager_fit_runs_the_textbook_update_step(monkeypatch):
    calls = []
    _adam_fit(True, calls, monkeypatch)
    assert calls == []


def test_the_unfused_compile_writes_the_recorded_formula():
    w = Variable(np.ones(3, "float32"), name="w")
    optimizer = Adam(learning_rate=0.1)
    step = function(lambda g: optimizer.apply_gradients([(g, w)]))
    step(np.full(3, 0.5, "float32"))
    (graph,) = step.graphs.values()
    fused = [line.split("# ")[1] for line in graph.source.splitlines() if "# " in line]
    run, source = codegen.compile_graph(graph, fused=False)
    recorded = [line.split("# ")[1] for line in source.splitlines() if "# " in line]
    assert recorded == [s[3] for s in graph.steps]
    assert "adam_update" not in recorded and "adam_update" in fused
    assert {"sqrt", "power", "assign_sub:w", "assign_add:adam/w_momentum"} <= set(
        recorded)
    assert len(fused) < len(recorded) // 2
    # the two versions take the same step
    start = w.numpy()
    g = np.array([0.5, -1.0, 2.0], "float32")
    slots = [v.numpy() for v in optimizer.variables]
    graph.run(g)
    after_fused = w.numpy()
    for variable, value in zip([w, *optimizer.variables], [start, *slots]):
        variable.assign(value)
    run(g)
    np.testing.assert_allclose(w.numpy(), after_fused, rtol=1e-5)


def test_the_traced_adam_step_updates_the_weights_in_place():
    # no new weight arrays per compiled step: the variable keeps its buffer
    w = Variable(np.ones(3, "float32"), name="w")
    step = function(Adam(learning_rate=0.1).apply_gradients)
    step([(np.ones(3, "float32"), w)])  # traced: the formula, new arrays
    buffer = w._value
    step([(np.ones(3, "float32"), w)])  # compiled: the fused kernel
    assert w._value is buffer
    np.testing.assert_allclose(buffer, 0.8, rtol=1e-5)


def test_the_offer_is_not_asked_eagerly():
    def offer():
        raise AssertionError("asked for a kernel outside a trace")

    with fusible(offer):
        result = bnp.add(np.ones(1), 1.0)
    np.testing.assert_array_equal(result, [2.0])


def _count_adder():
    count = Variable([0.0], name="count")

    def add_two(c):
        np.add(c, 2.0, out=c)

    return count, lambda: Fused("add_two", add_two, [count], {}, writes=[0])


def test_a_region_is_fused_when_nothing_after_it_reads_its_values():
    count, offer = _count_adder()

    @function
    def step(x):
        with fusible(offer):
            count.assign_add(1.0)
            count.assign_add(1.0)
        return bnp.multiply(count, x)  # a new read of the variable: fine

    step(np.ones(1))
    result = step(np.ones(1))
    (graph,) = step.graphs.values()
    assert "# add_two" in graph.source and "# assign_add" not in graph.source
    np.testing.assert_array_equal(result, [4.0])


def test_a_region_whose_value_is_read_later_is_not_fused():
    count, offer = _count_adder()

    @function
    def step(x):
        with fusible(offer):
            count.assign_add(1.0)
            inside = bnp.multiply(x, 3.0)
            count.assign_add(1.0)
        return bnp.add(inside, 0.0)  # a value made inside the region

    step(np.ones(1))
    result = step(np.ones(1))
    (graph,) = step.graphs.values()
    assert "# add_two" not in graph.source
    assert graph.source.count("# assign_add") == 2
    np.testing.assert_array_equal(result, [3.0])
    np.testing.assert_array_equal(count.numpy(), [4.0])


def test_a_region_is_not_fused_when_an_array_it_writes_is_read_later():
    count, offer = _count_adder()

    @function
    def step(x):
        before = count.value  # a read of the array the kernel writes into
        with fusible(offer):
            count.assign_add(1.0)
            count.assign_add(1.0)
        return bnp.multiply(before, x)

    step(np.ones(1))
    result = step(np.ones(1))
    (graph,) = step.graphs.values()
    assert "# add_two" not in graph.source
    np.testing.assert_array_equal(result, [2.0])  # the value before the block


LABELS = [
    np.array([0, 2, 1]), np.array([0, 2, 1], "uint8"), np.array([0, 3]),
    np.array([-1, 0], "int32"), np.array([0.0, 2.0]), np.array([1.5]),
    np.array([np.nan]), np.array([np.inf]), np.array([True, False]),
    np.zeros((0,), "int64"), np.zeros((0,)), np.array([[0, 1], [2, 0]])[:, ::-1],
    np.array(["a"]),
]


@pytest.mark.parametrize("labels", LABELS, ids=lambda a: f"{a.dtype}{a.tolist()}")
def test_the_faster_label_check_agrees_with_the_taught_one(labels):
    def outcome(check):
        try:
            return check(labels, size=3, what="Labels")
        except ValueError as error:
            return str(error)

    taught = outcome(checks.checked_indices.forward)
    faster = outcome(kernels.checked_indices)
    if isinstance(taught, str):
        assert faster == taught and taught.startswith("Labels must be integers")
    else:
        assert faster.dtype == taught.dtype == np.int64
        np.testing.assert_array_equal(faster, taught)


def test_a_compiled_step_runs_the_faster_label_check():
    step = function(lambda y: checks.checked_indices(y, size=3, what="Labels"))
    step(np.array([0, 1]))
    (graph,) = step.graphs.values()
    forward = graph.run.__globals__["f0"]
    assert graph.steps[0][3] == "checked_indices"
    assert forward.func is kernels.checked_indices
    with pytest.raises(ValueError, match=r"Received: 3 \(in an array of shape"):
        step(np.array([0, 3]))


def test_graph_and_eager_fit_with_adam_give_the_same_weights():
    weights = []
    for run_eagerly in (False, True):
        keras.utils.set_random_seed(3)
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, "relu"),
                                  keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer=keras.optimizers.Adam(0.01),
                      loss="sparse_categorical_crossentropy", run_eagerly=run_eagerly)
        rng = np.random.default_rng(3)
        x = rng.normal(size=(64, 5)).astype("float32")
        model.fit(x, rng.integers(0, 3, 64), batch_size=16, epochs=3, verbose=0,
                  shuffle=False)
        weights.append(model.get_weights())
    for graph_w, eager_w in zip(*weights):
        np.testing.assert_allclose(graph_w, eager_w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "bool"])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True),
                                            ((0, 2), False), (-1, False)])
def test_the_faster_mean_gives_the_taught_numbers(dtype, axis, keepdims):
    rng = np.random.default_rng(5)
    x = (rng.normal(size=(7, 5, 3)) * 100).astype(dtype)
    taught = bnp.mean.forward(x, axis=axis, keepdims=keepdims)
    faster = kernels.mean(x, axis=axis, keepdims=keepdims)
    assert isinstance(faster, np.ndarray)
    assert (faster.dtype, faster.shape) == (taught.dtype, taught.shape)
    np.testing.assert_array_equal(faster, taught)


def test_the_faster_mean_of_nothing_is_the_taught_nan():
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        value = kernels.mean(np.zeros((0, 3), "float32"), axis=0)
    assert value.shape == (3,) and np.isnan(value).all()


def test_a_traced_step_rounds_as_its_replays_so_tracing_again_changes_nothing():
    # the traced call takes the kernel's step too: four steps give the same
    # bits whether the function is traced once or again halfway
    rng = np.random.default_rng(7)
    grads = [rng.normal(size=(6, 4)).astype("float32") for _ in range(4)]
    def traced_step(optimizer, w):
        return function(lambda g: optimizer.apply_gradients([(g, w)]))

    results = []
    for retrace_at in (None, 2):
        w = Variable(np.ones((6, 4), "float32"), name="w")
        optimizer = Adam(learning_rate=0.01)
        for i, g in enumerate(grads):
            if i == 0 or i == retrace_at:
                step = traced_step(optimizer, w)
            step(g)
        results.append(w.numpy())
    np.testing.assert_array_equal(*results)


# ------------------------------------------------------------ peepholes
from kerasmini.backend import nn as bnn  # noqa: E402
from kerasmini.backend.fast import peephole  # noqa: E402


def _mlp_fit(run_eagerly, batch_size=8, epochs=2, dtype="float32"):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(5, activation="relu"),
                              keras.layers.Dense(4, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"], run_eagerly=run_eagerly)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3)).astype(dtype)
    history = model.fit(x, np.arange(40) % 4, batch_size=batch_size, epochs=epochs,
                        verbose=0, shuffle=False)
    return model, history.history


def test_a_graph_fit_with_the_peepholes_gives_the_eager_numbers():
    graph_model, graph_logs = _mlp_fit(False)
    eager_model, eager_logs = _mlp_fit(True)
    for key in eager_logs:
        np.testing.assert_allclose(graph_logs[key], eager_logs[key], rtol=1e-5)
    for got, want in zip(graph_model.get_weights(), eager_model.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    source = next(iter(graph_model.train_function.graphs.values())).source
    assert source.count("# softmax_crossentropy") == 1
    assert "# softmax\n" not in source and "# checked_indices" in source
    assert "# cast" in source  # the accuracy's, not the labels'


def test_the_crossentropy_gradient_reuses_the_forward_softmax():
    model, _ = _mlp_fit(False, epochs=1)
    graph = next(iter(model.train_function.graphs.values()))
    assert [s[3] for s in graph.steps].count("softmax") == 1


def test_softmax_crossentropy_is_the_two_taught_ops_in_float64():
    rng = np.random.default_rng(3)
    for rows in (5, 300):  # by rows, and by columns (a tall batch)
        logits = rng.normal(scale=5.0, size=(rows, 7))
        labels = rng.integers(0, 7, rows)
        probs, loss = peephole.softmax_crossentropy(labels, logits, axis=1)
        np.testing.assert_allclose(probs, bnn._softmax(logits, axis=1), rtol=1e-12)
        np.testing.assert_allclose(
            loss, bnn._sparse_softmax_crossentropy(labels, logits), rtol=1e-12)


def test_softmax_crossentropy_falls_back_on_the_taught_ops():
    logits = np.random.default_rng(0).normal(size=(2, 3, 4))
    labels = np.zeros((2, 3), "int64")
    probs, loss = peephole.softmax_crossentropy(labels, logits, axis=2)
    np.testing.assert_array_equal(probs, bnn._softmax(logits, axis=2))
    np.testing.assert_array_equal(loss, bnn._sparse_softmax_crossentropy(labels, logits))


def test_row_max_and_row_sum_by_columns_propagate_nan():
    x = np.random.default_rng(0).normal(size=(200, 5))
    x[3, 2] = np.nan
    np.testing.assert_array_equal(peephole.row_max(x), x.max(axis=1))
    np.testing.assert_allclose(peephole.row_sum(x), x.sum(axis=1), rtol=1e-12)


def test_where_zero_keeps_the_bits_np_where_gives():
    rng = np.random.default_rng(1)
    for dtype in ("float32", "float64"):
        x = rng.normal(size=(6, 5)).astype(dtype)
        x[0, :3] = [np.nan, np.inf, -0.0]
        condition = rng.random((6, 5)) > 0.5
        condition[0, :3] = [False, False, True]
        zeros = np.zeros_like(x)
        got = peephole.where_zero(condition, x, zeros)
        want = np.where(condition, x, zeros)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_where_zero_falls_back_on_np_where():
    condition = np.array([True, False])
    got = peephole.where_zero(condition, np.array([1, 2]), np.zeros(2, "int64"))
    np.testing.assert_array_equal(got, [1, 0])  # integers: np.where


@pytest.mark.parametrize("zeros, joined", [
    (np.broadcast_to(np.zeros((1, 1), "float32"), (3, 4)), True),  # strides 0
    (np.zeros((4, 3), "float32").T, True),  # not C-contiguous
    (np.full((3, 4), -0.0, "float32"), False),  # a sign bit: np.where's -0.0
    (np.full((3, 4), np.nan, "float32"), False),
])
def test_a_where_on_constant_zeros_of_any_layout_is_traced(zeros, joined):
    # a constant is whatever the traced code made it: a broadcast view once
    # stopped the compiler ("the last axis must be contiguous")
    step = function(lambda c, x: bnp.where(c, x, zeros))
    condition = np.arange(12).reshape(3, 4) % 3 == 0
    x = np.arange(12, dtype="float32").reshape(3, 4) - 5
    for _ in range(2):  # the trace, then the compiled replay
        np.testing.assert_array_equal(step(condition, x), np.where(condition, x, zeros))
    graph = next(iter(step.graphs.values()))
    forwards = [s[0] for s in codegen.plan(graph)]
    assert (peephole.where_zero in forwards) is joined


def test_the_relu_gradient_is_compiled_as_where_zero():
    model, _ = _mlp_fit(False, epochs=1)
    graph = next(iter(model.train_function.graphs.values()))
    forwards = [step[0] for step in codegen.plan(graph)]
    assert peephole.where_zero in forwards
    assert peephole.where_zero not in [s[0] for s in graph.steps]


def test_checked_cast_indices_gives_the_taught_check_and_its_error():
    labels = np.array([3, 0, 2])
    np.testing.assert_array_equal(
        peephole.checked_cast_indices(labels, "float32", size=4, what="Labels"),
        checks.checked_indices.forward(labels.astype("float32"), size=4, what="Labels"))
    for bad in (-1, 4):
        with pytest.raises(ValueError, match=f"Received: {bad} "):
            peephole.checked_cast_indices(np.array([0, bad]), "float32", size=4,
                                          what="Labels")


def test_a_bad_label_in_a_later_batch_of_a_graph_fit_is_refused():
    model, _ = _mlp_fit(False, epochs=1)
    x = np.zeros((16, 3), "float32")
    y = np.zeros(16, "int64")
    y[12] = 9
    with pytest.raises(ValueError, match="Received: 9"):
        model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)


def test_floored_divide_is_the_two_ufuncs():
    for total, count in ((3.0, 4.0), (1.0, 0.0), (2.0, np.nan)):
        t, c = np.array(total, "float32"), np.array(count, "float32")
        got = peephole.floored_divide(t, c, 1e-12)
        want = np.true_divide(t, np.maximum(c, 1e-12))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_add_to_number_is_the_taught_write():
    a, b = Variable(1.5, name="a"), Variable(1.5, name="b")
    for delta in (np.float32(2.0), np.array(0.25, "float32"), np.float64(1.0)):
        peephole.add_to_number(a, delta)
        b.assign_add(delta)
        assert a._value.dtype == b._value.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    with pytest.raises(ValueError, match="must match"):
        peephole.add_to_number(a, np.ones(2, "float32"))


# --------------------------------------------------------------- twins
def test_one_hot_twin_is_the_taught_op_and_refuses_bad_labels():
    labels = np.array([2, 0, 1])
    np.testing.assert_array_equal(twins.one_hot(labels, num_classes=3),
                                  bnn.one_hot.forward(labels, num_classes=3))
    for bad in (-1, 3):
        with pytest.raises(ValueError, match="must be integers in"):
            twins.one_hot(np.array([0, bad]), num_classes=3)


def test_relu_transpose_argmax_twins_are_the_taught_ops():
    x = np.random.default_rng(0).normal(size=(4, 3)).astype("float32")
    np.testing.assert_array_equal(twins.relu(x), bnn.relu.forward(x))
    assert twins.relu(x).dtype == x.dtype
    np.testing.assert_array_equal(twins.relu(np.array([-1, 2], "int8")), [0, 2])
    np.testing.assert_array_equal(twins.transpose(x, axes=(1, 0)),
                                  bnp._transpose(x, (1, 0)))
    y = np.zeros((2, 3, 4))
    assert twins.transpose(y, axes=(2, 0, 1)).shape == (4, 2, 3)
    got, want = twins.argmax(x, axis=1), bnp.argmax.forward(x, axis=1)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


# ---------------------------------------------------------- packed Adam
def test_packed_adam_gives_the_unpacked_kernels_numbers():
    shapes = ((6, 4), (4,), (4, 3), (3,))
    rng = np.random.default_rng(0)
    start = [rng.normal(size=s).astype("float32") for s in shapes]
    grads = [[rng.normal(size=s).astype("float32") for s in shapes] for _ in range(4)]
    triples = [[Variable(w.copy(), name="w"), Variable(np.zeros_like(w), name="m"),
                Variable(np.zeros_like(w), name="v")] for w in start]
    packing = kernels.Packing(triples)
    plain = [[w.copy(), np.zeros_like(w), np.zeros_like(w)] for w in start]
    for t, gs in enumerate(grads):
        packed_groups = [a for (w, m, v), g in zip(triples, gs)
                         for a in (w._value, m._value, v._value, g)]
        kernels.adam_update(np.float32(0.01), np.int64(t), *packed_groups, beta_1=0.9,
                            beta_2=0.999, epsilon=1e-7, packing=packing)
        plain_groups = [a for triple, g in zip(plain, gs) for a in (*triple, g)]
        kernels.adam_update(np.float32(0.01), np.int64(t), *plain_groups, beta_1=0.9,
                            beta_2=0.999, epsilon=1e-7)
        if t == 1:  # a new array, as set_weights gives: packed again
            triples[2][0].assign(triples[2][0].numpy())
    for triple, want in zip(triples, plain):
        for variable, array in zip(triple, want):
            np.testing.assert_array_equal(variable.numpy(), array)
    assert triples[0][0]._value.base is packing.flat[0]


def test_packed_adam_is_not_used_for_one_variable_twice_or_mixed_dtypes():
    w = Variable(np.ones(3, "float32"), name="w")
    slots = [Variable(np.zeros(3, "float32"), name=n) for n in "mvab"]
    twice = kernels.Packing([[w, slots[0], slots[1]], [w, slots[2], slots[3]]])
    g = np.ones(3, "float32")
    groups = [w._value, slots[0]._value, slots[1]._value, g,
              w._value, slots[2]._value, slots[3]._value, g]
    assert twice.update(groups, 0.1, 0.9, 0.999, 1e-7) == ()
    d = Variable(np.ones(2, "float64"), name="d", dtype="float64")
    mixed = kernels.Packing([[w, slots[0], slots[1]], [d, slots[2], slots[3]]])
    groups[4] = d._value
    assert mixed.update(groups, 0.1, 0.9, 0.999, 1e-7) == ()


def test_a_graph_fit_after_set_weights_trains_from_the_new_weights():
    model, _ = _mlp_fit(False, epochs=1)
    weights = [np.full_like(w, 0.1) for w in model.get_weights()]
    model.set_weights(weights)
    eager, _ = _mlp_fit(True, epochs=1)
    eager.set_weights(weights)
    eager.optimizer.variables[0].assign(model.optimizer.variables[0])  # iteration
    for got, want in zip(model.optimizer.variables, eager.optimizer.variables):
        want.assign(got.numpy())
    x = np.random.default_rng(5).normal(size=(16, 3)).astype("float32")
    y = np.arange(16) % 4
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    eager.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    for got, want in zip(model.get_weights(), eager.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_a_crossentropy_from_logits_takes_the_gradient_softmax_into_its_step():
    # from_logits: the only softmax is the gradient's, recorded after the loss
    def fit(run_eagerly):
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        model.compile(optimizer="sgd", run_eagerly=run_eagerly,
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        x = np.random.default_rng(0).normal(size=(16, 3)).astype("float32")
        history = model.fit(x, np.arange(16) % 4, batch_size=8, epochs=2, verbose=0,
                            shuffle=False)
        return model, history.history["loss"]

    graph_model, graph_loss = fit(False)
    _, eager_loss = fit(True)
    np.testing.assert_allclose(graph_loss, eager_loss, rtol=1e-6)
    source = next(iter(graph_model.train_function.graphs.values())).source
    assert "# softmax_crossentropy" in source and "# softmax\n" not in source


def test_the_traces_of_two_batch_shapes_share_one_packing():
    model, _ = _mlp_fit(False, batch_size=16, epochs=1)  # batches of 16, 16, 8
    assert len(model.train_function.graphs) == 2
    arrays = [w._value for w in model.trainable_weights]
    x = np.zeros((40, 3), "float32")
    model.fit(x, np.arange(40) % 4, batch_size=16, epochs=2, verbose=0)
    assert all(w._value is a for w, a in zip(model.trainable_weights, arrays))


# ------------------------------------------------------- 2-D max pooling
from kerasmini.backend import pooling  # noqa: E402
from kerasmini.backend.fast import pooling as fast_pooling  # noqa: E402


def _pool_cases():
    rng = np.random.default_rng(7)
    for dtype in ("float32", "float64"):
        x = np.maximum(rng.normal(size=(3, 6, 8, 5)), 0).astype(dtype)  # ties at 0
        x[0, 0, 0, 0] = -0.0
        yield x, (2, 2), (2, 2), "valid"
        yield x, (3, 2), (3, 2), "valid"
        yield x, (2, 2), (1, 1), "valid"  # overlapping windows: the taught path
        yield x, (2, 2), (2, 2), "same"
        yield x[:, :5], (2, 2), (2, 2), "valid"  # a row left over


@pytest.mark.parametrize("case", range(10))
def test_max_pool_twins_give_the_taught_values_and_gradients(case):
    x, pool_size, strides, padding = list(_pool_cases())[case]
    want = pooling._max_pool(x, pool_size, strides, padding)
    np.testing.assert_array_equal(fast_pooling.max_pool(x, pool_size, strides, padding),
                                  want)
    g = np.random.default_rng(case).normal(size=want.shape).astype(x.dtype)
    g.flat[0] = -0.0
    got = fast_pooling.max_pool_backprop(x, g, pool_size, strides, padding)
    expected = pooling._max_pool_backprop_fwd(x, g, pool_size, strides, padding)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_the_max_pool_gradient_twin_sends_a_nan_window_to_the_taught_path():
    x = np.zeros((1, 2, 2, 1))
    x[0, 1, 0, 0] = np.nan
    g = np.ones((1, 1, 1, 1))
    np.testing.assert_array_equal(
        fast_pooling.max_pool_backprop(x, g, (2, 2), (2, 2), "valid"),
        pooling._max_pool_backprop_fwd(x, g, (2, 2), (2, 2), "valid"))


def test_a_graph_fit_of_a_cnn_runs_the_pooling_twins_and_gives_the_eager_numbers():
    def fit(run_eagerly):
        keras.utils.set_random_seed(0)
        model = keras.Sequential([
            keras.Input((6, 6, 1)),
            keras.layers.Conv2D(3, 3, padding="same", activation="relu"),
            keras.layers.MaxPooling2D(), keras.layers.Flatten(),
            keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                      run_eagerly=run_eagerly)
        x = np.random.default_rng(0).normal(size=(12, 6, 6, 1)).astype("float32")
        model.fit(x, np.arange(12) % 3, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return model

    graph, eager = fit(False), fit(True)
    for got, want in zip(graph.get_weights(), eager.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    forwards = [getattr(s[0], "func", s[0]) for s in
                codegen.plan(next(iter(graph.train_function.graphs.values())))]
    assert fast_pooling.max_pool in forwards and fast_pooling.max_pool_backprop in forwards
