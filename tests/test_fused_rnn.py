"""The fused LSTM and GRU of the tracer's fast lane
(``kerasmini/backend/fast/recurrent.py`` and ``gru.py``).

A traced step runs one ``lstm`` (``gru``) step forward and one ``lstm_grad``
(``gru_grad``) step backward in place of the cell's ops, time step by time
step; eagerly the cell loops. Both must give the same numbers: outputs, states and gradients
to 1e-6 in float64 (they differ by rounding only: the fused gates come from
``tanh``), and the same training. Where the kernel cannot fuse (recurrent
dropout, other activations, mixed precision, nested tapes,
``use_cudnn=False``, eagerly) the layer falls back to the loop.
"""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops
from kerasmini.backend import GradientTape, function
from kerasmini.backend.fast import codegen, recurrent
from kerasmini.backend.fast import gru as fused_gru
from kerasmini.backend.fast import simple_rnn as fused_simple_rnn
from kerasmini.dtype_policies.dtype_policy import reset_dtype_policy

RNG = np.random.default_rng(7)
X = RNG.normal(size=(3, 6, 4))
MASK = RNG.random((3, 6)) > 0.4
MASK[0] = False  # a sequence masked everywhere
MASK[1, :2] = False  # masked at the start
STATES = [RNG.normal(size=(3, 5)), RNG.normal(size=(3, 5))]
KINDS = {"lstm": layers.LSTM, "gru": layers.GRU, "simple_rnn": layers.SimpleRNN}


def _layer(kind, units, use_cudnn="auto", **kwargs):
    """An LSTM, GRU or SimpleRNN; ``use_cudnn=False``: one that loops (a
    SimpleRNN has no such switch: ``RNN(SimpleRNNCell)``, the same weights)."""
    if kind != "simple_rnn":
        return KINDS[kind](units, use_cudnn=use_cudnn, **kwargs)
    if use_cudnn is not False:
        return layers.SimpleRNN(units, **kwargs)
    cell_args = {k: kwargs.pop(k) for k in list(kwargs) if k in (
        "dtype", "use_bias", "dropout", "recurrent_dropout", "activation")}
    return layers.RNN(layers.SimpleRNNCell(units, **cell_args), dtype=cell_args.get(
        "dtype"), **kwargs)


def _op_names(fn):
    return [step[3] for step in next(iter(fn.graphs.values())).steps]


def _traced(use_cudnn, mask=None, initial_state=None, training=True, kind="lstm",
            **kwargs):
    """Outputs and gradients (inputs, states, weights) of a float64 LSTM in
    a traced function, and the function."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    if kind != "lstm":
        kwargs.pop("unit_forget_bias", None)
        initial_state = initial_state and initial_state[:1]
    layer = _layer(kind, 5, use_cudnn, dtype="float64", **kwargs)
    layer.build(X.shape)

    def loss_and_grads(x, *states):
        with GradientTape() as tape:
            tape.watch(x)
            for state in states:
                tape.watch(state)
            out = layer(x, mask=mask, initial_state=list(states) or None,
                        training=training)
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            # a different weight for every entry of every result
            loss = sum(ops.sum(ops.multiply(o, np.cos(np.arange(
                int(np.prod(o.shape))).reshape(o.shape)))) for o in outs)
        return outs, tape.gradient(loss, [x, *states, *layer.trainable_weights])

    fn = function(loss_and_grads)
    args = (X, *(initial_state or ()))
    fn(*args)  # the trace
    return fn(*args), fn  # a compiled replay


CASES = {
    "last": {},
    "sequences": {"return_sequences": True},
    "state": {"return_state": True},
    "backwards": {"go_backwards": True, "return_sequences": True},
    "mask": {"mask": MASK, "return_sequences": True, "return_state": True},
    "mask_backwards": {"mask": MASK, "go_backwards": True, "return_state": True},
    "mask_zero_output": {"mask": MASK, "zero_output_for_mask": True,
                         "return_sequences": True},
    "no_bias": {"use_bias": False, "return_state": True},
    "initial_state": {"initial_state": STATES, "mask": MASK, "return_state": True,
                      "return_sequences": True},
    "no_forget_bias_backwards": {"unit_forget_bias": False, "go_backwards": True,
                                 "return_sequences": True},
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", CASES)
def test_fused_equals_loop_float64(case, kind):
    (fused, fused_grads), fused_fn = _traced("auto", kind=kind, **CASES[case])
    (loop, loop_grads), loop_fn = _traced(False, kind=kind, **CASES[case])
    assert kind in _op_names(fused_fn) and f"{kind}_grad" in _op_names(fused_fn)
    assert kind not in _op_names(loop_fn)
    assert len(fused) == len(loop)
    for a, b in zip(fused, loop):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    assert len(fused_grads) == len(loop_grads)
    for a, b in zip(fused_grads, loop_grads):
        assert a is not None and b is not None
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
        assert np.abs(a).max() > 0


@pytest.mark.parametrize("kind", KINDS)
def test_fused_gradients_vs_finite_differences(kind):
    (_, grads), _ = _traced("auto", mask=MASK, return_sequences=True,
                            return_state=True, go_backwards=True, kind=kind)
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    layer = KINDS[kind](5, dtype="float64", return_sequences=True,
                        return_state=True, go_backwards=True)
    layer.build(X.shape)

    def loss(x):
        outs = layer(x, mask=MASK)
        return sum(float(np.sum(np.asarray(o) * np.cos(np.arange(o.size).reshape(
            o.shape)))) for o in outs)

    eps = 1e-6
    rng = np.random.default_rng(0)
    for flat in rng.choice(X.size, 8, replace=False):  # the inputs
        index = np.unravel_index(flat, X.shape)
        up, down = X.copy(), X.copy()
        up[index] += eps
        down[index] -= eps
        assert abs((loss(up) - loss(down)) / (2 * eps) - grads[0][index]) < 1e-6
    for k, weight in enumerate(layer.trainable_weights):  # the weights
        value = np.asarray(weight.numpy())
        for flat in rng.choice(value.size, 4, replace=False):
            index = np.unravel_index(flat, value.shape)
            for sign, store in ((1, "up"), (-1, "down")):
                changed = value.copy()
                changed[index] += sign * eps
                weight.assign(changed)
                if store == "up":
                    up = loss(X)
                else:
                    down = loss(X)
            weight.assign(value)
            assert abs((up - down) / (2 * eps) - grads[1 + k][index]) < 1e-6


def _fit(use_cudnn, dtype="float32", epochs=3, run_eagerly=False, kind="lstm",
         **kwargs):
    keras.backend.clear_session()
    keras.utils.set_random_seed(11)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 7, 3)).astype(dtype)
    y = rng.integers(0, 4, 40)
    model = keras.Sequential([
        keras.Input(shape=(7, 3)),
        _layer(kind, 6, use_cudnn, dtype=dtype, **kwargs),
        layers.Dense(4, activation="softmax", dtype=dtype),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"], run_eagerly=run_eagerly)
    history = model.fit(x, y, batch_size=16, epochs=epochs, verbose=0)
    return model, history.history


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kwargs", [{}, {"dropout": 0.3}, {"go_backwards": True}],
                         ids=["plain", "dropout", "backwards"])
def test_fit_same_weights_as_the_loop(kwargs, kind):
    fused, fused_history = _fit("auto", dtype="float64", kind=kind, **kwargs)
    loop, loop_history = _fit(False, dtype="float64", kind=kind, **kwargs)
    assert kind in _op_names(fused.train_function)
    assert kind not in _op_names(loop.train_function)
    for a, b in zip(fused.get_weights(), loop.get_weights()):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    np.testing.assert_allclose(fused_history["loss"], loop_history["loss"], atol=1e-8)


@pytest.mark.parametrize("kind", KINDS)
def test_fit_float32_close_to_eager(kind):
    fused, history = _fit("auto", kind=kind)
    eager, eager_history = _fit("auto", run_eagerly=True, kind=kind)
    for a, b in zip(fused.get_weights(), eager.get_weights()):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-4)
    np.testing.assert_allclose(history["loss"], eager_history["loss"], rtol=1e-4)


def test_eager_runs_the_cell(monkeypatch):
    calls = []
    monkeypatch.setattr(recurrent, "lstm", lambda *a, **k: calls.append(1))
    monkeypatch.setattr(fused_gru, "gru", lambda *a, **k: calls.append(1))
    monkeypatch.setattr(fused_simple_rnn, "simple_rnn",
                        lambda *a, **k: calls.append(1))
    for kind in KINDS:
        _fit("auto", run_eagerly=True, epochs=1, kind=kind)
        _layer(kind, 3)(np.ones((2, 4, 3), "float32"))  # eagerly, on arrays
    assert calls == []


@pytest.mark.parametrize("kwargs", [
    {"recurrent_dropout": 0.3},
    {"activation": "relu"},
    {"recurrent_activation": "silu"},
    {"use_cudnn": False},
    {"kind": "gru", "reset_after": False},
    {"kind": "gru", "recurrent_dropout": 0.3},
    {"kind": "simple_rnn", "activation": "relu"},
    {"kind": "simple_rnn", "recurrent_dropout": 0.3},
], ids=["recurrent_dropout", "relu", "silu", "use_cudnn_false", "gru_reset_before",
        "gru_recurrent_dropout", "simple_rnn_relu", "simple_rnn_recurrent_dropout"])
def test_falls_back_to_the_loop(kwargs):
    kwargs = dict(kwargs)
    use_cudnn = kwargs.pop("use_cudnn", "auto")
    model, history = _fit(use_cudnn, epochs=1, **kwargs)
    names = _op_names(model.train_function)
    assert not {"lstm", "gru", "simple_rnn"} & set(names)
    assert names.count("matmul") > 7
    assert np.isfinite(history["loss"]).all()


def test_falls_back_under_mixed_precision_and_nested_tapes():
    keras.backend.clear_session()
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([keras.Input(shape=(4, 3)), layers.LSTM(2)])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(np.ones((4, 4, 3), "float32"), np.ones((4, 2)), verbose=0)
        assert "lstm" not in _op_names(model.train_function)
    finally:
        reset_dtype_policy()  # back to following floatx
    layer = layers.LSTM(2, dtype="float64")
    x = RNG.normal(size=(2, 3, 2))

    def second_order(x):
        with GradientTape() as outer:
            outer.watch(x)
            with GradientTape() as inner:
                inner.watch(x)
                y = ops.sum(ops.square(layer(x)))
            g = ops.sum(ops.square(inner.gradient(y, x)))
        return outer.gradient(g, x)

    traced = function(second_order)
    np.testing.assert_allclose(traced(x), second_order(x), atol=1e-10)
    assert "lstm" not in _op_names(traced)


@pytest.mark.parametrize("kind", KINDS)
def test_stateful_carries_the_same_states(kind):
    def run(use_cudnn):
        keras.backend.clear_session()
        keras.utils.set_random_seed(5)
        layer = _layer(kind, 3, use_cudnn, stateful=True, dtype="float64")
        fn = function(lambda x: layer(x))
        outs = [fn(RNG_STATEFUL[i]) for i in range(3)]
        return outs, [np.asarray(s.numpy()) for s in layer.states], fn

    fused, fused_states, fused_fn = run("auto")
    loop, loop_states, _ = run(False)
    assert kind in _op_names(fused_fn)
    for a, b in zip(fused + fused_states, loop + loop_states):
        np.testing.assert_allclose(a, b, atol=1e-10)


RNG_STATEFUL = np.random.default_rng(1).normal(size=(3, 2, 4, 3))


def test_predict_and_bidirectional_fuse():
    keras.backend.clear_session()
    model = keras.Sequential([
        keras.Input(shape=(5, 3)),
        layers.Bidirectional(layers.LSTM(4, return_sequences=True)),
        layers.GRU(3, return_sequences=True),
        layers.LSTM(2),
    ])
    x = RNG.normal(size=(6, 5, 3)).astype("float32")
    eager = model(x)
    np.testing.assert_allclose(model.predict(x, verbose=0), eager, atol=1e-6)
    names = _op_names(model.predict_function)
    assert names.count("lstm") == 3 and names.count("gru") == 1
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, np.zeros((6, 2)), verbose=0)
    plan = [step[3] for step in codegen.plan(
        next(iter(model.train_function.graphs.values())))]
    assert plan.count("lstm") == 3 and plan.count("lstm_grad") == 3
    assert plan.count("gru") == 1 and plan.count("gru_grad") == 1


def test_not_fused_eagerly_and_explains():
    with pytest.raises(NotImplementedError, match="only while a step is traced"):
        recurrent.lstm(X, *STATES, None, X[0, :4], STATES[0], None,
                       activation=keras.activations.tanh,
                       recurrent_activation=keras.activations.sigmoid)


@pytest.mark.parametrize("kind", KINDS)
def test_an_empty_mask_list_is_no_mask(kind):
    # RNN.compute_mask read the first of no masks (an IndexError); the fuzzer
    # of tests/test_errors_fuzz.py draws mask=() now and then
    layer = KINDS[kind](3, return_sequences=True)
    x = np.ones((2, 4, 2), "float32")
    np.testing.assert_allclose(layer(x, mask=()), layer(x))
