"""How fast is kerasmini's ``fit``? Three ways to train the same MLP.

``python -m benchmarks.fit_digits`` trains 64 -> 64 relu -> 10 softmax on the
8x8 digits (1,500 training images), Adam(1e-3), batch 32, float32, 20 epochs:

1. ``model.fit`` in graph mode (the default): the first batch traces
   ``train_step`` and every later batch replays the recorded NumPy steps;
2. ``model.fit`` with ``compile(run_eagerly=True)``: every batch runs the
   Python of every layer, the tape and the optimizer;
3. a hand-written NumPy loop with the same maths: the same initial weights,
   the same shuffled batches in the same order, softmax crossentropy with its
   textbook gradient ``(p - onehot) / n``, and Adam in the same form.

It prints seconds per epoch, the ratio to the NumPy loop and the accuracies.
``--epochs`` and ``--repeat`` change the run; timings vary from machine to
machine, which is why they are not tests.
"""

import argparse
import time

import numpy as np

import kerasmini as keras
from kerasmini import layers

SEED = 1337


def load_digits():
    """Digits as flat float32 vectors in [0, 1] and integer labels."""
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 255.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 255.0
    return (x_train, y_train.astype("int64")), (x_test, y_test.astype("int64"))


def make_mlp():
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    model = keras.Sequential([
        keras.Input(shape=(64,)),
        layers.Dense(64, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ])
    return model


def train_kerasmini(x, y, initial_weights, epochs, batch_size, run_eagerly):
    """``fit`` from ``initial_weights``; returns (seconds per epoch, history)."""
    model = make_mlp()
    model.set_weights(initial_weights)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"],
                  run_eagerly=run_eagerly)
    keras.utils.set_random_seed(SEED)  # the shuffling order
    start = time.perf_counter()
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0)
    seconds = (time.perf_counter() - start) / epochs
    return seconds, history.history, model


def train_numpy(x, y, initial_weights, epochs, batch_size):
    """The same training written by hand; returns (seconds per epoch, logs, weights)."""
    w1, b1, w2, b2 = (np.array(w, dtype="float32") for w in initial_weights)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, beta_1, beta_2, eps = 1e-3, 0.9, 0.999, 1e-7
    rng = np.random.default_rng(SEED)  # the same generator fit shuffles with
    n = len(x)
    step = 0
    logs = {"accuracy": [], "loss": []}
    start = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(n)
        xs, ys = x[order], y[order]
        loss_sum = hits = 0.0
        for i in range(0, n, batch_size):
            xb, yb = xs[i:i + batch_size], ys[i:i + batch_size]
            rows = np.arange(len(xb))
            # forward
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            logits = h @ w2 + b2
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            loss = -np.log(np.clip(p[rows, yb], 1e-7, 1.0)).mean()
            loss_sum += loss * len(xb)
            hits += (p.argmax(axis=1) == yb).sum()
            # backward: d loss / d logits = (p - onehot) / batch
            g_logits = p
            g_logits[rows, yb] -= 1.0
            g_logits /= len(xb)
            g_w2 = h.T @ g_logits
            g_b2 = g_logits.sum(axis=0)
            g_h = (g_logits @ w2.T) * (h_pre > 0)
            g_w1 = xb.T @ g_h
            g_b1 = g_h.sum(axis=0)
            # Adam, in Keras's form
            step += 1
            alpha = lr * np.sqrt(1 - beta_2**step) / (1 - beta_1**step)
            for param, grad, m_i, v_i in zip(params, (g_w1, g_b1, g_w2, g_b2), m, v):
                m_i += (grad - m_i) * (1 - beta_1)
                v_i += (grad * grad - v_i) * (1 - beta_2)
                param -= alpha * m_i / (np.sqrt(v_i) + eps)
        logs["loss"].append(loss_sum / n)
        logs["accuracy"].append(hits / n)
    seconds = (time.perf_counter() - start) / epochs
    return seconds, logs, params


def numpy_accuracy(params, x, y):
    w1, b1, w2, b2 = params
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    return float((logits.argmax(axis=1) == y).mean())


def train_cnn(epochs=10):
    """Conv2D-MaxPool-Dense on the 8x8 images; returns (seconds, train acc, test acc)."""
    (x, y), (x_test, y_test) = keras.datasets.digits.load_data()
    x = (x[..., None] / 255.0).astype("float32")
    x_test = (x_test[..., None] / 255.0).astype("float32")
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    model = keras.Sequential([
        keras.Input(shape=(8, 8, 1)),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    start = time.perf_counter()
    history = model.fit(x, y, batch_size=32, epochs=epochs, verbose=0)
    seconds = time.perf_counter() - start
    test_acc = model.evaluate(x_test, y_test, verbose=0)[1]
    return seconds, history.history["accuracy"][-1], test_acc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of each way, interleaved; the fastest is reported")
    args = parser.parse_args(argv)
    (x_train, y_train), (x_test, y_test) = load_digits()
    initial_weights = make_mlp().get_weights()
    ways = {
        "kerasmini fit (graph)": lambda: train_kerasmini(
            x_train, y_train, initial_weights, args.epochs, args.batch_size, False),
        "kerasmini fit (run_eagerly)": lambda: train_kerasmini(
            x_train, y_train, initial_weights, args.epochs, args.batch_size, True),
        "hand-written NumPy loop": lambda: train_numpy(
            x_train, y_train, initial_weights, args.epochs, args.batch_size),
    }
    best = {}
    for _ in range(args.repeat):  # interleaved, so a busy moment hurts all alike
        for label, run in ways.items():
            result = run()
            if label not in best or result[0] < best[label][0]:
                best[label] = result
    numpy_seconds = best["hand-written NumPy loop"][0]
    print(f"MLP 64-64-10 on digits: {len(x_train)} samples, batch "
          f"{args.batch_size}, {args.epochs} epochs, Adam 1e-3, float32, "
          f"best of {args.repeat}")
    print(f"{'':30s} {'s/epoch':>8s} {'x NumPy':>8s} {'train acc':>10s} "
          f"{'test acc':>9s}")
    for label, (seconds, history, trained) in best.items():
        if isinstance(trained, list):  # the NumPy loop's parameters
            test_acc = numpy_accuracy(trained, x_test, y_test)
        else:
            test_acc = trained.evaluate(x_test, y_test, verbose=0)[1]
        print(f"{label:30s} {seconds:8.4f} {seconds / numpy_seconds:8.2f} "
              f"{history['accuracy'][-1]:10.4f} {test_acc:9.4f}")
    seconds, train_acc, test_acc = train_cnn()
    print(f"\nCNN Conv2D(16, 3)-MaxPooling2D-Dense(10), Adam 3e-3, 10 epochs: "
          f"{seconds:.1f} s in all, train acc {train_acc:.4f}, test acc {test_acc:.4f}")


if __name__ == "__main__":
    main()
