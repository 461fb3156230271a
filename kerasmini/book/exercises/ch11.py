"""Checks of chapter 11's exercises (compile and fit)."""

import numpy as np

import kerasmini as keras

from ._support import Refuse, exercise, expect, fail


def _data():
    """The chapter's regression data: 200 rows, y = x w + 0.3 + noise."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 3)).astype("float32")
    true_w = np.array([[1.5], [-2.0], [0.5]], dtype="float32")
    y = x @ true_w + 0.3 + 0.1 * rng.normal(size=(200, 1)).astype("float32")
    return x, y


def _mlp():
    return keras.Sequential([keras.Input((3,)),
                             keras.layers.Dense(8, activation="relu", name="hidden"),
                             keras.layers.Dense(1, name="out")])


@exercise("ch11-step-counter", "StepCounter.train_step")
def check_step_counter(model_class):
    x, y = _data()
    for run_eagerly in (False, True):
        keras.utils.set_random_seed(0)
        model = model_class([keras.Input((3,)), keras.layers.Dense(1)])
        keras.utils.set_random_seed(0)
        reference = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        for mine, ref in zip(model.layers, reference.layers):
            ref.set_weights(mine.get_weights())
        for m in (model, reference):
            m.compile(optimizer=keras.optimizers.SGD(learning_rate=0.05), loss="mse",
                      run_eagerly=run_eagerly)
        untrained = float(model.evaluate(x, y, verbose=0))
        model.fit(x, y, batch_size=64, epochs=3, shuffle=False, verbose=0)
        reference.fit(x, y, batch_size=64, epochs=3, shuffle=False, verbose=0)
        steps = int(model.steps.numpy())
        mode = "eagerly" if run_eagerly else "traced"
        if steps != 12 and not run_eagerly:
            traces = getattr(model.train_function, "trace_count", "?")
            fail(f"{mode}: 3 epochs of 4 batches should count 12 steps, got {steps}; "
                 f"train_step was traced {traces} time(s): count in the variable "
                 "(self.steps.assign_add(1)), not in Python")
        expect(steps == 12, f"{mode}: 3 epochs of 4 batches should count 12 steps, "
               f"got {steps}")
        trained = float(model.evaluate(x, y, verbose=0))
        expect(trained < 0.5 * untrained, (
            f"{mode}: the model did not train (loss {untrained:.3f} before fit, "
            f"{trained:.3f} after): call super().train_step(data)"))
        for mine, ref in zip(model.trainable_weights, reference.trainable_weights):
            expect(np.allclose(mine.numpy(), ref.numpy(), atol=1e-5), (
                f"{mode}: the weights differ from a plain Sequential's after the same "
                "fit: hand over to super().train_step(data), once per batch"))


def _one_epoch_by_hand(weights, x, y, batch_size, learning_rate):
    """NumPy reference: one epoch of SGD on Dense(8, relu) -> Dense(1) with the
    mean squared error, batches in order; the epoch loss as fit reports it."""
    w1, b1, w2, b2 = (np.array(w, dtype="float64") for w in weights)
    total = 0.0
    for start in range(0, len(x), batch_size):
        xb = x[start:start + batch_size].astype("float64")
        yb = y[start:start + batch_size].astype("float64")
        h = xb @ w1 + b1
        a = np.maximum(h, 0.0)
        p = a @ w2 + b2
        total += float(np.mean((p - yb) ** 2)) * len(xb)
        dp = 2.0 * (p - yb) / p.size           # d mean((p - y)^2) / dp
        dw2, db2 = a.T @ dp, dp.sum(axis=0)
        dh = (dp @ w2.T) * (h > 0)             # back through relu
        dw1, db1 = xb.T @ dh, dh.sum(axis=0)
        w1, b1 = w1 - learning_rate * dw1, b1 - learning_rate * db1
        w2, b2 = w2 - learning_rate * dw2, b2 - learning_rate * db2
    return total / len(x), [w1, b1, w2, b2]


@exercise("ch11-own-loop", "train_one_epoch")
def check_own_loop(train_one_epoch):
    x, y = _data()
    keras.utils.set_random_seed(1)
    mine = _mlp()
    mine.compile(optimizer=keras.optimizers.SGD(learning_rate=0.05), loss="mse")
    want, weights = _one_epoch_by_hand(mine.get_weights(), x, y, 48, 0.05)
    refused = {keras.Model.fit: "Model.fit", keras.Model.train_step:
               "Model.train_step", keras.Model.train_on_batch: "Model.train_on_batch"}
    with Refuse("ch11-own-loop", refused):
        got = train_one_epoch(mine, x, y, batch_size=48)
    steps = int(mine.optimizer.iterations.numpy())
    expect(steps == 5, f"200 rows in batches of 48 make 5 steps (the last of 8 "
           f"rows), not {steps}")
    for a, b in zip(weights, mine.get_weights()):
        expect(np.allclose(a, b, atol=1e-4), (
            "the weights differ from five SGD steps on the batches in order: same "
            "batches, in order, one optimizer step each?"))
    expect(got is not None, "train_one_epoch returned None: return the epoch's loss")
    got = float(got)
    if np.isclose(got, want, rtol=1e-3):
        return
    fail(f"fit would report a loss of {want:.6f}, your loop {got:.6f}: the mean of "
         "the batch losses, each weighted by its batch's size, each taken before "
         "its update")


@exercise("ch11-stop-at-loss", "StopAtLoss.on_epoch_end")
def check_stop_at_loss(callback_class):
    x, y = _data()
    details = []
    for threshold in (0.5, 2.0):
        keras.utils.set_random_seed(0)
        reference = _mlp()
        start = reference.get_weights()
        reference.compile(optimizer=keras.optimizers.Adam(learning_rate=0.02),
                          loss="mse")
        losses = reference.fit(x, y, batch_size=32, epochs=40, shuffle=False,
                               verbose=0).history["loss"]
        below = [i for i, value in enumerate(losses) if value < threshold]
        assert below, "the reference run never reaches the threshold"
        expected = below[0] + 1  # epochs run, the first one below included
        keras.utils.set_random_seed(0)
        model = _mlp()
        model.set_weights(start)
        model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.02),
                      loss="mse")
        history = model.fit(x, y, batch_size=32, epochs=100, shuffle=False, verbose=0,
                            callbacks=[callback_class(threshold=threshold)])
        got = history.history["loss"]
        where = f"threshold {threshold}"
        expect(len(got) < 100, f"{where}: training ran all 100 epochs: nothing stopped "
               "it (set self.model.stop_training = True)")
        expect(got[-1] < threshold, (
            f"{where}: stopped after {len(got)} epoch(s) at a loss of {got[-1]:.4f}, "
            f"not below {threshold}"))
        expect(len(got) == expected, (
            f"{where}: stopped after {len(got)} epochs; the loss first went below "
            f"{threshold} at epoch {expected}: stop at the first one"))
        details.append(f"stopped after {len(got)} epochs")
    return ", ".join(details)
