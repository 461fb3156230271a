"""Optimizers: each update rule against NumPy written by hand, plus the
base-class behaviour (iterations, learning rate, schedules, clipping)."""

import numpy as np
import pytest

from kerasmini import optimizers
from kerasmini.backend import Variable, function
from kerasmini.optimizers import SGD, Adagrad, Adam, RMSprop, schedules

GRADS = [np.array([0.5, -1.0, 2.0]), np.array([0.1, 0.3, -0.2]),
         np.array([-1.5, 0.0, 1.0])]
W0 = np.array([1.0, -2.0, 0.5])


def run(optimizer, grads=GRADS, w0=W0):
    w = Variable(w0.astype("float64"), dtype="float64", name="w")
    for g in grads:
        optimizer.apply_gradients([(g, w)])
    return w.numpy()


def test_sgd_plain_matches_numpy():
    expected = W0 - 0.1 * sum(GRADS)
    np.testing.assert_allclose(run(SGD(learning_rate=0.1)), expected, rtol=1e-6)


@pytest.mark.parametrize("nesterov", [False, True])
def test_sgd_momentum_matches_numpy(nesterov):
    w, v = W0.copy(), np.zeros(3)
    for g in GRADS:
        v = 0.9 * v - 0.1 * g
        w = w + (0.9 * v - 0.1 * g if nesterov else v)
    result = run(SGD(learning_rate=0.1, momentum=0.9, nesterov=nesterov))
    np.testing.assert_allclose(result, w, rtol=1e-6)


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam_matches_numpy(amsgrad):
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-7
    w, m, v, v_hat = W0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g**2
        v_hat = np.maximum(v_hat, v)
        # Keras folds the bias correction of v into the step size
        alpha = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
        w = w - alpha * m / (np.sqrt(v_hat if amsgrad else v) + eps)
    np.testing.assert_allclose(run(Adam(learning_rate=lr, amsgrad=amsgrad)), w,
                               rtol=1e-5)


def test_adam_matches_the_formula_in_float32():
    # Keras's form of the formula, computed in float32 NumPy: 50 steps
    rng = np.random.default_rng(0)
    grads = [rng.normal(size=(4, 3)).astype("float32") for _ in range(50)]
    w0 = rng.normal(size=(4, 3)).astype("float32")
    variable = Variable(w0.copy(), name="w")
    opt = Adam(learning_rate=0.01)
    for g in grads:
        opt.apply_gradients([(g, variable)])
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for t, g in enumerate(grads, start=1):
        alpha = np.float32(0.01 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t))
        m = m + (g - m) * np.float32(0.1)
        v = v + (g * g - v) * np.float32(0.001)
        w = w - (m * alpha) / (np.sqrt(v) + np.float32(1e-7))
    assert variable.dtype == "float32"
    np.testing.assert_allclose(variable.numpy(), w, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(opt._momentums[0].numpy(), m, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(opt._velocities[0].numpy(), v, rtol=1e-5, atol=1e-9)


def test_adam_does_not_write_into_the_gradient():
    for traced in (False, True):
        g = np.array([0.5, -1.0], "float32")
        w = Variable(np.zeros(2), name="w")
        opt = Adam(learning_rate=0.1)
        step = function(opt.apply_gradients) if traced else opt.apply_gradients
        for _ in range(2):  # traced: the second call runs the fused kernel
            step([(g, w)])
        np.testing.assert_array_equal(g, [0.5, -1.0])


def test_adam_update_step_is_the_formula_in_ops_and_the_traced_step_is_one_kernel():
    w1, w2 = Variable(np.ones(2), name="a"), Variable(np.ones(3), name="b")
    opt = Adam()
    step = function(lambda g1, g2: opt.apply_gradients([(g1, w1), (g2, w2)]))
    step(np.ones(2), np.ones(3))
    (graph,) = step.graphs.values()
    names = [s[3] for s in graph.steps]  # what the trace recorded: the formula
    assert names.count("assign_sub:b") == 1 and "sqrt" in names
    assert "adam_update" not in names
    compiled = [line.split("# ")[1] for line in graph.source.splitlines()
                if "# " in line]  # what a replay runs: one kernel for both
    assert compiled.count("adam_update") == 1
    assert not any(name.startswith(("assign_sub:", "sqrt")) for name in compiled)


def test_traced_adam_follows_a_changed_learning_rate():
    w = Variable(np.zeros(1), dtype="float64", name="w")
    opt = Adam(learning_rate=1.0)
    step = function(lambda g: opt.apply_gradients([(g, w)]))
    step(np.ones(1))
    opt.learning_rate = 0.0
    before = w.numpy()
    step(np.ones(1))
    np.testing.assert_array_equal(w.numpy(), before)


@pytest.mark.parametrize("momentum, centered", [(0.0, False), (0.5, False),
                                                (0.0, True)])
def test_rmsprop_matches_numpy(momentum, centered):
    lr, rho, eps = 0.01, 0.9, 1e-7
    w, s, mom, avg = W0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        s = rho * s + (1 - rho) * g**2
        avg = rho * avg + (1 - rho) * g
        denominator = s - avg**2 + eps if centered else s + eps
        increment = lr * g / np.sqrt(denominator)
        if momentum:
            mom = momentum * mom + increment
            w = w - mom
        else:
            w = w - increment
    result = run(RMSprop(learning_rate=lr, momentum=momentum, centered=centered))
    np.testing.assert_allclose(result, w, rtol=1e-5)


def test_adagrad_matches_numpy():
    lr, eps = 0.1, 1e-7
    w, acc = W0.copy(), np.full(3, 0.1)
    for g in GRADS:
        acc = acc + g**2
        w = w - lr * g / np.sqrt(acc + eps)
    np.testing.assert_allclose(run(Adagrad(learning_rate=lr)), w, rtol=1e-6)


@pytest.mark.parametrize("cls, lr", [(SGD, 0.01), (Adam, 0.001), (RMSprop, 0.001),
                                     (Adagrad, 0.001)])
def test_default_learning_rates_are_keras_defaults(cls, lr):
    assert cls().get_config()["learning_rate"] == pytest.approx(lr)


def test_default_epsilons_and_betas_are_keras_defaults():
    adam = Adam()
    assert (adam.beta_1, adam.beta_2, adam.epsilon) == (0.9, 0.999, 1e-7)
    rms = RMSprop()
    assert (rms.rho, rms.momentum, rms.epsilon) == (0.9, 0.0, 1e-7)
    assert Adagrad().initial_accumulator_value == 0.1


def test_iterations_count_updates():
    opt = SGD()
    run(opt)
    assert int(opt.iterations.numpy()) == 3


def test_slot_variables_are_named_after_the_model_variable():
    opt = Adam()
    run(opt)
    assert [v.path for v in opt.variables] == [
        "adam/iteration", "adam/learning_rate", "adam/w_momentum", "adam/w_velocity"]


def test_learning_rate_setter_assigns_the_variable():
    opt = SGD(learning_rate=0.1)
    opt.learning_rate = 0.5
    assert float(opt.learning_rate.numpy()) == 0.5


def test_learning_rate_of_a_schedule_is_not_settable():
    opt = SGD(learning_rate=schedules.ExponentialDecay(0.1, 10, 0.5))
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.5


def test_schedule_is_evaluated_at_the_current_iteration():
    schedule = schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    result = run(SGD(learning_rate=schedule), grads=[np.ones(3)] * 2)
    np.testing.assert_allclose(result, W0 - 0.1 - 0.05, rtol=1e-6)


def test_piecewise_constant_decay_values():
    s = schedules.PiecewiseConstantDecay([2], [1.0, 0.1])
    assert [float(s(np.array(k))) for k in (1, 2, 3)] == pytest.approx([1.0, 1.0, 0.1])


def test_update_in_a_traced_function_matches_eager():
    eager_w = run(Adam(learning_rate=0.1))
    w = Variable(W0, dtype="float64", name="w")
    opt = Adam(learning_rate=0.1)
    step = function(lambda g: opt.apply_gradients([(g, w)]))
    for g in GRADS:
        step(g)
    assert step.trace_count == 1
    np.testing.assert_allclose(w.numpy(), eager_w, rtol=1e-6)


def test_traced_update_sees_a_new_learning_rate():
    w = Variable(np.zeros(1), dtype="float64", name="w")
    opt = SGD(learning_rate=1.0)
    step = function(lambda g: opt.apply_gradients([(g, w)]))
    step(np.ones(1))
    opt.learning_rate = 0.5
    step(np.ones(1))
    np.testing.assert_allclose(w.numpy(), [-1.5])


def test_clipnorm_limits_each_gradient():
    result = run(SGD(learning_rate=1.0, clipnorm=1.0), grads=[np.array([3.0, 4.0, 0.0])])
    np.testing.assert_allclose(result, W0 - [0.6, 0.8, 0.0], rtol=1e-6)


def test_clipvalue_limits_each_value():
    result = run(SGD(learning_rate=1.0, clipvalue=0.5), grads=[np.array([3.0, -4.0, 0.1])])
    np.testing.assert_allclose(result, W0 - [0.5, -0.5, 0.1], rtol=1e-6)


def test_constraint_is_applied_after_the_update():
    w = Variable(np.array([1.0, 1.0]), name="w")
    w.constraint = lambda x: x * 0.0
    SGD().apply_gradients([(np.ones(2, "float32"), w)])
    np.testing.assert_array_equal(w.numpy(), [0.0, 0.0])


def test_none_gradient_is_skipped_with_a_warning():
    w, unused = Variable([1.0], name="w"), Variable([1.0], name="u")
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        SGD(learning_rate=1.0).apply_gradients([(np.ones(1, "float32"), w),
                                                (None, unused)])
    assert float(w.numpy()[0]) == 0.0 and float(unused.numpy()[0]) == 1.0


def test_all_gradients_none_is_an_error():
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        SGD().apply_gradients([(None, Variable([1.0]))])


def test_unknown_variable_after_build_is_an_error():
    opt = SGD()
    opt.apply_gradients([(np.ones(1, "float32"), Variable([1.0]))])
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply_gradients([(np.ones(1, "float32"), Variable([1.0]))])


def test_get_resolves_names_and_lists_known_ones():
    assert isinstance(optimizers.get("rmsprop"), RMSprop)
    assert type(optimizers.get("adamw")).__name__ == "AdamW"
    with pytest.raises(ValueError, match=r"Known optimizers: \['adagrad', 'adam'"):
        optimizers.get("nadam")


def test_get_config_round_trips():
    opt = SGD(learning_rate=0.5, momentum=0.9, nesterov=True)
    clone = SGD.from_config(opt.get_config())
    assert clone.get_config() == opt.get_config()
    assert clone.get_config()["nesterov"] is True


def test_unknown_argument_is_an_error():
    with pytest.raises(ValueError, match="not recognized"):
        Adam(lr=0.1)
