"""How fast does kerasmini train an LSTM? ``fit`` against a hand-written loop.

``python -m benchmarks.fit_lstm`` trains LSTM(32) -> Dense(10, softmax) on
1,024 sequences of 20 steps of 8 features (the label: the decile of the sum
of the first two features over the sequence), Adam(3e-3), batch 32,
float32, from the same initial weights over the same shuffled batches:

1. ``model.fit`` in graph mode: the traced step runs the fused LSTM
   (:mod:`kerasmini.backend.fast.recurrent`), one step forward and one
   backward for the whole sequence;
2. the same with ``LSTM(use_cudnn=False)``: the step records the cell's
   ops, time step by time step (what the fused kernel replaces);
3. a hand-written NumPy loop doing the same work, written plainly (about
   30 NumPy calls a time step): the input projection of every step in one
   matmul, the gates with ``1 / (1 + exp(-z))`` and ``tanh``,
   backpropagation through time with the weights' gradients in one matmul
   each, softmax crossentropy, Adam in Keras's form, and the batch's loss
   and accuracy as ``fit`` computes them;
4. PyTorch on the CPU (``torch.nn.LSTM``, the same weights, batches and
   Adam), when a Python with torch is given (``--torch-python``; ``make
   benchmark`` passes Keras's venv), in a subprocess, one thread.

Then GRU(32) and SimpleRNN(32) in place of the LSTM, graph ``fit`` fused
and looping (their ratios are to the LSTM's hand loop).

CPU time, one BLAS thread (``OPENBLAS_NUM_THREADS=1``), the median of
``--repeat`` interleaved runs: on a shared machine only the ratios count.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

import kerasmini as keras
from benchmarks.fit_digits import SEED, hand_loop, interleaved
from kerasmini import layers

STEPS, FEATURES, UNITS, SAMPLES = 20, 8, 32, 1024


def load_sequences():
    """Seeded sequences and their labels (10 classes, about 100 each)."""
    rng = np.random.default_rng(SEED)
    x = rng.normal(size=(SAMPLES + 512, STEPS, FEATURES)).astype("float32")
    total = x[:, :, :2].sum(axis=(1, 2))
    y = np.digitize(total, np.quantile(total, np.linspace(0.1, 0.9, 9)))
    return (x[:SAMPLES], y[:SAMPLES]), (x[SAMPLES:], y[SAMPLES:])


def make_lstm(use_cudnn="auto", layer=layers.LSTM):
    """The model; ``use_cudnn=False``: the recurrent layer loops over its
    cell (a SimpleRNN, which has no such switch, as ``RNN(SimpleRNNCell)``)."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    if layer is layers.SimpleRNN:
        recurrent = layer(UNITS) if use_cudnn else layers.RNN(
            layers.SimpleRNNCell(UNITS))
    else:
        recurrent = layer(UNITS, use_cudnn=use_cudnn)
    return keras.Sequential([
        keras.Input(shape=(STEPS, FEATURES)),
        recurrent,
        layers.Dense(10, activation="softmax"),
    ])


def train_kerasmini(x, y, weights, epochs, batch_size, use_cudnn="auto",
                    layer=layers.LSTM):
    model = make_lstm(use_cudnn, layer)
    model.set_weights(weights)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    keras.utils.set_random_seed(SEED)
    start = time.process_time()
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0)
    return (time.process_time() - start) / epochs, history.history, model


def lstm_forward(params, xb):
    """The LSTM over ``xb`` (batch, steps, features): what the backward needs
    (the states, the gates, ``tanh(c)``, the gates' derivatives) and the
    logits."""
    w, r, b, wd, bd = params
    n, u = len(xb), UNITS
    xz = (xb.reshape(-1, FEATURES) @ w + b).reshape(n, STEPS, 4 * u)
    h, c = [np.zeros((n, u), xb.dtype)], [np.zeros((n, u), xb.dtype)]
    gates, tanh_c, slopes = [], [], []
    for t in range(STEPS):
        z = xz[:, t] + h[-1] @ r
        s = 1.0 / (1.0 + np.exp(-z))  # the sigmoid gates i, f, o (and unused c)
        g = np.tanh(z[:, 2 * u:3 * u])
        c.append(s[:, u:2 * u] * c[-1] + s[:, :u] * g)
        tanh_c.append(np.tanh(c[-1]))
        h.append(s[:, 3 * u:] * tanh_c[-1])
        slope = s * (1.0 - s)  # d gate / d z, the candidate's block: 1 - g^2
        slope[:, 2 * u:3 * u] = 1.0 - g * g
        gates.append((s, g))
        slopes.append(slope)
    return h, c, gates, tanh_c, slopes, h[-1] @ wd + bd


def lstm_step(params, xb, yb):
    """Forward, loss and gradients of the hand LSTM (backpropagation
    through time; the weights' gradients in one matmul each)."""
    from benchmarks.fit_digits import softmax_crossentropy

    w, r, b, wd, bd = params
    u = UNITS
    h, c, gates, tanh_c, slopes, logits = lstm_forward(params, xb)
    p, loss, g_logits = softmax_crossentropy(logits, yb)
    dh = g_logits @ wd.T
    dc = np.zeros_like(dh)
    dz = [None] * STEPS
    for t in range(STEPS - 1, -1, -1):
        s, g = gates[t]
        i, f, o = s[:, :u], s[:, u:2 * u], s[:, 3 * u:]
        dc = dc + dh * o * (1.0 - tanh_c[t] ** 2)
        d_gates = np.concatenate([dc * g, dc * c[t], dc * i, dh * tanh_c[t]], axis=1)
        dz[t] = d_gates * slopes[t]
        dc = dc * f
        dh = dz[t] @ r.T
    flat = np.concatenate(dz)  # time major
    x_steps = xb.transpose(1, 0, 2).reshape(-1, FEATURES)
    return p, loss, [x_steps.T @ flat, np.concatenate(h[:-1]).T @ flat,
                     flat.sum(axis=0), h[-1].T @ g_logits, g_logits.sum(axis=0)]


def train_numpy(x, y, weights, epochs, batch_size):
    params = [np.array(w, dtype="float32") for w in weights]
    seconds, logs, params = hand_loop(x, y, params, epochs, batch_size, 3e-3,
                                      lambda xb, yb: lstm_step(params, xb, yb),
                                      clock=time.process_time)
    return seconds, logs, params


def numpy_accuracy(params, x, y):
    return float((lstm_forward(params, x)[-1].argmax(axis=1) == y).mean())


def hand_gradients_check(weights, xb, yb):
    """The hand loop's gradients against kerasmini's on one batch (the
    largest difference; they compute the same maths in float32)."""
    import kerasmini.backend as kb

    model = make_lstm()
    model.set_weights(weights)
    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    with kb.GradientTape() as tape:
        loss = loss_fn(yb, model(xb, training=True))
    theirs = tape.gradient(loss, model.trainable_weights)
    ours = lstm_step([np.array(w) for w in weights], xb, yb)[2]
    return max(float(np.abs(np.asarray(a) - b).max()) for a, b in zip(theirs, ours))


# ------------------------------------------------------------------ PyTorch
TORCH_SCRIPT = r"""
import json, sys, time
import numpy as np
import torch
torch.set_num_threads(1)
data = np.load(sys.argv[1])
epochs, batch_size, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
x, y, order = (torch.from_numpy(data[k]) for k in ("x", "y", "order"))
w, r, b, wd, bd = (torch.from_numpy(data[f"w{i}"]) for i in range(5))
lstm = torch.nn.LSTM(w.shape[0], r.shape[0], batch_first=True)
dense = torch.nn.Linear(r.shape[0], 10)
with torch.no_grad():  # Keras's gates i, f, c, o are torch's i, f, g, o
    lstm.weight_ih_l0.copy_(w.T); lstm.weight_hh_l0.copy_(r.T)
    lstm.bias_ih_l0.copy_(b); lstm.bias_hh_l0.zero_()
    dense.weight.copy_(wd.T); dense.bias.copy_(bd)
lstm.bias_hh_l0.requires_grad_(False)  # Keras has one bias: train it once
params = [p for p in lstm.parameters() if p.requires_grad] + list(dense.parameters())
opt = torch.optim.Adam(params, lr=3e-3, eps=1e-7)
n = len(x)
start = time.process_time()
for epoch in range(epochs):
    xs, ys = x[order[epoch]], y[order[epoch]]
    loss_sum = hits = 0.0
    for i in range(0, n, batch_size):
        xb, yb = xs[i:i + batch_size], ys[i:i + batch_size]
        logits = dense(lstm(xb)[0][:, -1])
        loss = torch.nn.functional.cross_entropy(logits, yb)
        opt.zero_grad(); loss.backward(); opt.step()
        loss_sum += loss.item() * len(xb)
        hits += (logits.argmax(1) == yb).sum().item()
seconds = (time.process_time() - start) / epochs
print(json.dumps({"seconds": seconds, "accuracy": hits / n}))
"""


def train_torch(python, x, y, weights, epochs, batch_size, workdir):
    """PyTorch in ``python`` (a subprocess): (seconds per epoch, logs)."""
    rng = np.random.default_rng(SEED)
    order = np.stack([rng.permutation(len(x)) for _ in range(epochs)])
    data = os.path.join(workdir, "lstm_data.npz")
    np.savez(data, x=x, y=y.astype("int64"), order=order,
             **{f"w{i}": np.asarray(w, "float32") for i, w in enumerate(weights)})
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([python, "-c", TORCH_SCRIPT, data, str(epochs),
                           str(batch_size), str(SEED)], capture_output=True,
                          text=True, env=env, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["seconds"], {"accuracy": [result["accuracy"]]}, None


def torch_python(given):
    """The Python that has torch: ``given``, if it runs, else ``None``."""
    if not given or not os.path.exists(given):
        return None
    found = subprocess.run([given, "-c", "import torch"], capture_output=True)
    return given if found.returncode == 0 else None


def ops_per_step(model):
    """Steps of the compiled train step (what a replay runs)."""
    from kerasmini.backend.fast import codegen

    graph = next(iter(model.train_function.graphs.values()))
    return len(codegen.plan(graph))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--torch-python", default=None,
                        help="a Python with torch installed (a PyTorch row)")
    args = parser.parse_args(argv)
    import tempfile

    (x, y), (x_test, y_test) = load_sequences()
    weights = make_lstm().get_weights()
    batches = -(-len(x) // args.batch_size)
    ways = {
        "kerasmini fit (graph, fused)": lambda: train_kerasmini(
            x, y, weights, args.epochs, args.batch_size),
        "kerasmini fit (graph, loop)": lambda: train_kerasmini(
            x, y, weights, args.epochs, args.batch_size, use_cudnn=False),
        "hand-written NumPy loop": lambda: train_numpy(
            x, y, weights, args.epochs, args.batch_size),
    }
    python = torch_python(args.torch_python)
    workdir = tempfile.mkdtemp()
    if python:
        ways["PyTorch CPU loop"] = lambda: train_torch(
            python, x, y, weights, args.epochs, args.batch_size, workdir)
    results = interleaved(ways, args.repeat)
    hand = results["hand-written NumPy loop"][0]
    print(f"LSTM({UNITS}) over {STEPS} steps -> Dense(10): {len(x)} sequences, "
          f"batch {args.batch_size}, {args.epochs} epochs, Adam 3e-3, float32, "
          f"CPU time, median of {args.repeat}")
    print(f"{'':30s} {'us/batch':>9s} {'x hand':>7s} {'train acc':>10s} "
          f"{'test acc':>9s} {'steps':>6s}")
    for label, (seconds, history, trained) in results.items():
        if isinstance(trained, list):
            test = f"{numpy_accuracy(trained, x_test, y_test):9.4f}"
        elif trained is None:
            test = f"{'-':>9s}"
        else:
            test = f"{trained.evaluate(x_test, y_test, verbose=0)[1]:9.4f}"
        steps = f"{ops_per_step(trained):6d}" if hasattr(trained, "fit") else ""
        print(f"{label:30s} {seconds / batches * 1e6:9.1f} {seconds / hand:7.2f} "
              f"{history['accuracy'][-1]:10.4f} {test} {steps}")
    difference = hand_gradients_check(weights, x[:32], y[:32])
    print(f"(hand loop's gradients vs kerasmini's on one batch: {difference:.1e})")
    print()

    for layer in (layers.GRU, layers.SimpleRNN):
        name = layer.__name__
        weights = make_lstm(layer=layer).get_weights()
        ways = {
            label: lambda use_cudnn=use_cudnn, layer=layer, weights=weights: (
                train_kerasmini(x, y, weights, args.epochs, args.batch_size,
                                use_cudnn, layer))
            for label, use_cudnn in ((f"{name} fit (graph, fused)", "auto"),
                                     (f"{name} fit (graph, loop)", False))}
        results = interleaved(ways, args.repeat)
        print(f"{name}({UNITS}), the same data: graph fit, fused or looping over "
              "the cell (x hand: the LSTM's hand loop)")
        for label, (seconds, history, trained) in results.items():
            print(f"{label:30s} {seconds / batches * 1e6:9.1f} "
                  f"{seconds / hand:7.2f} {history['accuracy'][-1]:10.4f} "
                  f"{'':9s} {ops_per_step(trained):6d}")
        print()


if __name__ == "__main__":
    sys.exit(main())
