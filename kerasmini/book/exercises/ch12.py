"""Checks of chapter 12's exercises (optimizers, losses and metrics)."""

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail


def _momentum_by_hand(start, gradients, learning_rate, momentum):
    """NumPy reference: velocity = momentum * velocity - lr * g; w += velocity."""
    w, velocity = np.array(start, dtype="float64"), np.zeros_like(start, "float64")
    for g in gradients:
        velocity = momentum * velocity - learning_rate * g
        w = w + velocity
    return w


def _linear_fit_by_hand(kernel, bias, x, y, epochs, learning_rate, momentum):
    """NumPy reference of fit: a Dense(1) on the whole batch, mean squared error,
    the momentum update, ``epochs`` steps."""
    w, b = np.array(kernel, "float64"), np.array(bias, "float64")
    vw, vb = np.zeros_like(w), np.zeros_like(b)
    for _ in range(epochs):
        error = x @ w + b - y
        gw = 2.0 * x.T @ error / error.size   # d mean(error^2) / dw
        gb = 2.0 * error.sum(axis=0) / error.size
        vw, vb = momentum * vw - learning_rate * gw, momentum * vb - learning_rate * gb
        w, b = w + vw, b + vb
    return w, b


@exercise("ch12-momentum", "Momentum.build/update_step")
def check_momentum(optimizer_class):
    rng = np.random.default_rng(3)
    start = rng.normal(size=(3, 2)).astype("float32")
    gradients = [rng.normal(size=(3, 2)).astype("float32") for _ in range(5)]
    variable = keras.Variable(start.copy(), name="mine")
    optimizer = optimizer_class(learning_rate=0.1, momentum=0.9)
    refused = {keras.optimizers.SGD.update_step: "SGD.update_step"}
    for step, g in enumerate(gradients, start=1):
        with Refuse("ch12-momentum", refused):
            optimizer.apply_gradients([(g, variable)])
        want = _momentum_by_hand(start, gradients[:step], 0.1, 0.9)
        got = variable.numpy()
        if step == 2 and np.allclose(got, _momentum_by_hand(start, gradients[:2],
                                                            0.1, 0.0), atol=1e-5):
            fail("after 2 steps the variable moved as plain SGD does: keep the "
                 "velocity between steps and decay it by momentum")
        expect(np.allclose(got, want, atol=1e-5), (
            f"after step {step} the variable is {np.round(got.ravel(), 4)}, expected "
            f"{np.round(want.ravel(), 4)}: velocity = momentum * velocity - "
            "learning_rate * gradient, then variable += velocity"))
    slots = [v.name for v in optimizer.variables if "velocity" in v.name]
    expect(slots == ["mine_velocity"], (
        f"expected one slot variable named 'mine_velocity', found {slots}: make it "
        "with self.add_optimizer_variables(var_list, 'velocity') in build"))

    # inside fit the step is traced: NumPy on the side cannot run there
    x = rng.normal(size=(16, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")
    keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    kernel, bias = (w.numpy() for w in model.trainable_weights)
    model.compile(optimizer=optimizer_class(learning_rate=0.05, momentum=0.9),
                  loss="mse")
    try:
        model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0)
    except (TypeError, ValueError, AttributeError) as error:
        raise Mistake(f"model.fit with your optimizer fails ({type(error).__name__}: "
                      f"{error}): fit traces update_step, so use ops and "
                      "assign/assign_add on the slot variables, not NumPy") from error
    want_w, want_b = _linear_fit_by_hand(kernel, bias, x, y, 4, 0.05, 0.9)
    got_w, got_b = (w.numpy() for w in model.trainable_weights)
    expect(np.allclose(got_w, want_w, atol=1e-4) and np.allclose(got_b, want_b,
                                                                  atol=1e-4), (
        "after 4 steps of fit the weights differ from momentum's by hand"))


def _xent_by_hand(labels, logits):
    """NumPy reference: -sum(labels * (logits - logsumexp(logits))), with the
    log-sum-exp from np.logaddexp (no exponent is ever taken of a large value)."""
    logits = np.asarray(logits, "float64")
    log_norm = np.logaddexp.reduce(logits, axis=-1, keepdims=True)
    return -np.sum(np.asarray(labels, "float64") * (logits - log_norm), axis=-1)


@exercise("ch12-logits-xent", "softmax_crossentropy")
def check_logits_xent(softmax_crossentropy):
    rng = np.random.default_rng(4)
    logits = rng.normal(scale=3.0, size=(6, 5)).astype("float32")
    labels = np.eye(5, dtype="float32")[rng.integers(0, 5, size=6)]
    soft = rng.dirichlet(np.ones(5), size=6).astype("float32")  # soft labels
    extreme = np.array([[1000.0, 0.0, -1000.0], [-500.0, 800.0, 0.0]])
    extreme_labels = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    refused = {name: name for name in ("categorical_crossentropy", "log_softmax",
                                       "softmax")}
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            with Refuse("ch12-logits-xent", refused):
                got = np.asarray(softmax_crossentropy(labels, logits))
                got_soft = np.asarray(softmax_crossentropy(soft, logits))
                got_extreme = np.asarray(softmax_crossentropy(extreme_labels,
                                                              extreme))
    except FloatingPointError as error:
        raise Mistake(f"NumPy overflowed or took log(0) ({error}): subtract each "
                      "row's maximum from the logits before exponentiating, and take "
                      "the log of the sum, not of the softmax") from None
    want = _xent_by_hand(labels, logits)
    expect(got.shape == (6,), f"expected one loss per row, shape (6,), got shape "
           f"{got.shape}")
    if np.allclose(got, -want, atol=1e-5):
        fail("the losses have the wrong sign: the loss is -sum(labels * log_softmax)")
    expect(np.allclose(got, want, atol=1e-5), (
        f"expected {np.round(want, 4)}, got {np.round(got, 4)}"))
    expect(np.allclose(got_soft, _xent_by_hand(soft, logits), atol=1e-5), (
        "with soft labels (rows of probabilities) the losses are wrong: weight "
        "every class's log-probability by its label"))
    want = _xent_by_hand(extreme_labels, extreme)
    expect(np.allclose(got_extreme, want), (
        f"for the logits [1000, 0, -1000] and [-500, 800, 0] expected "
        f"{want.tolist()}, got {got_extreme.tolist()}"))


@exercise("ch12-rmse-metric", "RootMeanSquaredError.update_state/result")
def check_rmse_metric(metric_class):
    rng = np.random.default_rng(5)
    metric = metric_class()
    with np.errstate(invalid="ignore", divide="ignore"):
        before = float(metric.result())
    expect(before == 0.0, f"before any update the result is 0, got {before}")
    truths, preds = [], []
    for size in (3, 7, 1):
        t = rng.normal(size=(size, 2)).astype("float32")
        p = rng.normal(size=(size, 2)).astype("float32")
        metric.update_state(t, p)
        truths.append(t)
        preds.append(p)
    got = float(metric.result())
    errors = np.concatenate(truths) - np.concatenate(preds)
    want = float(np.sqrt(np.mean(errors ** 2)))
    batch_means = np.mean([np.sqrt(np.mean((t - p) ** 2))
                           for t, p in zip(truths, preds)])
    if np.isclose(got, batch_means, rtol=1e-5):
        fail(f"got {got:.5f}, the mean of the batches' RMSEs; over all values the "
             f"RMSE is {want:.5f}: keep a total and a count, not a mean of results")
    if np.isclose(got, want ** 2, rtol=1e-5):
        fail(f"got {got:.5f}, the mean squared error: take the square root")
    expect(np.isclose(got, want, rtol=1e-5), (
        f"over all batches the RMSE is {want:.5f}, got {got:.5f}: total += sum of "
        "squared errors, count += number of values"))
    metric.reset_state()
    with np.errstate(invalid="ignore", divide="ignore"):
        after = float(metric.result())
    expect(after == 0.0, f"after reset_state the result is 0, got {after}")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse", metrics=[metric_class()])
    xs = rng.normal(size=(10, 3)).astype("float32")
    ys = rng.normal(size=(10, 2)).astype("float32")
    try:
        _, rmse = model.evaluate(xs, ys, batch_size=4, verbose=0)
    except (TypeError, ValueError, AttributeError) as error:
        raise Mistake(f"evaluate fails with your metric ({type(error).__name__}: "
                      f"{error}): it runs traced, so use ops and assign_add") from error
    by_hand = float(np.sqrt(np.mean((model.predict(xs, verbose=0) - ys) ** 2)))
    expect(np.isclose(rmse, by_hand, rtol=1e-4), (
        f"inside evaluate (batches of 4, 4 and 2) the metric gave {rmse:.5f}, "
        f"expected {by_hand:.5f}"))
