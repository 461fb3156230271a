"""How fast is kerasmini's ``fit``? The same training, several ways.

``python -m benchmarks.fit_digits`` trains 64 -> 64 relu -> 10 softmax on the
8x8 digits (1,500 training images), Adam(1e-3), float32, at batch 32 and
at batch 1024:

1. ``model.fit`` in graph mode (the default): the first batch traces
   ``train_step`` and every later batch runs the recorded NumPy steps,
   compiled to straight-line Python with the fast lane's kernels;
2. ``model.fit`` with ``compile(run_eagerly=True)`` (batch 32 only): every
   batch runs the Python of every layer, the tape and the optimizer;
3. a hand-written NumPy loop doing the same work: the same initial weights,
   the same shuffled batches in the same order, softmax crossentropy with
   its textbook gradient ``(p - onehot) / n``, Adam in the same form, and
   each batch's loss and accuracy, as ``fit`` computes them for its logs;
4. JAX on the CPU, when it is installed (``make venv-jax``): the same step
   written with ``jax.numpy`` and compiled by ``jax.jit``;
5. PyTorch on the CPU, when a Python with torch is given
   (``--torch-python``; ``make benchmark`` passes Keras's venv): the same
   model, weights, batches and Adam, in a subprocess, one thread.

Then the same MLP with hidden widths 512 and 2048 (graph fit against the
hand loop); a wider and deeper MLP, 784 -> 512 -> 512 -> 10 on the digits
enlarged to 28 x 28 (MNIST's size), against the hand loop, JAX and PyTorch;
and a small CNN (Conv2D-MaxPooling2D-Dense) against a hand-written NumPy
CNN and PyTorch.

Every figure is CPU time (``time.process_time``) of the epochs after the
first, per batch: the first epoch holds kerasmini's trace (printed apart,
in milliseconds), JAX compiles before its clock starts. Run it with one
BLAS thread (``OPENBLAS_NUM_THREADS=1``, as ``make benchmark`` does). Each
figure is the median of ``--repeat`` runs, the ways interleaved so that a
busy moment on a shared machine hurts all alike: on a shared machine only
the ratios count. Timings vary from machine to machine, which is why they
are not tests.
"""

import argparse
import importlib.util
import os
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import kerasmini as keras
from kerasmini import layers

SEED = 1337


def load_digits():
    """Digits as flat float32 vectors in [0, 1] and integer labels."""
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 255.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 255.0
    return (x_train, y_train.astype("int64")), (x_test, y_test.astype("int64"))


def load_digits_784():
    """The digits as 28 x 28 images, flat (784 features): each pixel three by
    three, two blank pixels around, the size of MNIST's images."""
    def enlarge(x):
        x = np.kron(x.reshape(len(x), 8, 8), np.ones((3, 3), "float32"))
        return np.pad(x, ((0, 0), (2, 2), (2, 2))).reshape(len(x), 784)

    (x_train, y_train), (x_test, y_test) = load_digits()
    return (enlarge(x_train), y_train), (enlarge(x_test), y_test)


def make_mlp(width=64, inputs=64, depth=1):
    """``inputs -> width relu (depth times) -> 10 softmax``."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    model = keras.Sequential(
        [keras.Input(shape=(inputs,))]
        + [layers.Dense(width, activation="relu") for _ in range(depth)]
        + [layers.Dense(10, activation="softmax")])
    return model


class _EpochClock(keras.callbacks.Callback):
    """Notes the CPU time when the second epoch begins (after the trace)."""

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 1:
            self.second_epoch = time.process_time()


def train_kerasmini(x, y, initial_weights, epochs, batch_size, run_eagerly,
                    make_model=make_mlp, learning_rate=1e-3):
    """``fit`` from ``initial_weights``; returns (CPU seconds per epoch after
    the first, history, model); the history's ``first_epoch`` holds the
    first epoch's CPU seconds (the trace and the first batches)."""
    model = make_model()
    model.set_weights(initial_weights)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=learning_rate),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"],
                  run_eagerly=run_eagerly)
    keras.utils.set_random_seed(SEED)  # the shuffling order
    clock = _EpochClock()
    start = time.process_time()
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0,
                        callbacks=[clock])
    seconds = (time.process_time() - clock.second_epoch) / (epochs - 1)
    logs = dict(history.history, first_epoch=clock.second_epoch - start)
    return seconds, logs, model


class HandAdam:
    """Adam in Keras's form, on a list of NumPy parameters, updated in place."""

    def __init__(self, params, lr, beta_1=0.9, beta_2=0.999, eps=1e-7):
        self.params, self.lr, self.eps = params, lr, eps
        self.beta_1, self.beta_2 = beta_1, beta_2
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.step = 0

    def apply(self, grads):
        self.step += 1
        beta_1, beta_2 = self.beta_1, self.beta_2
        alpha = self.lr * np.sqrt(1 - beta_2**self.step) / (1 - beta_1**self.step)
        for param, grad, m_i, v_i in zip(self.params, grads, self.m, self.v):
            m_i += (grad - m_i) * (1 - beta_1)
            v_i += (grad * grad - v_i) * (1 - beta_2)
            param -= alpha * m_i / (np.sqrt(v_i) + self.eps)


def softmax_crossentropy(logits, labels):
    """(probabilities, mean loss, d loss / d logits = (p - onehot) / batch)."""
    rows = np.arange(len(labels))
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.log(np.clip(p[rows, labels], 1e-7, 1.0)).mean()
    g_logits = p.copy()
    g_logits[rows, labels] -= 1.0
    g_logits /= len(labels)
    return p, loss, g_logits


def hand_loop(x, y, params, epochs, batch_size, lr, step, clock=time.process_time,
              skip_first=False):
    """Shuffle, batch and train with ``step(xb, yb) -> (probs, loss, grads)``;
    ``clock`` times it (CPU time), from the second epoch on if
    ``skip_first`` (as :func:`train_kerasmini` does)."""
    adam = HandAdam(params, lr)
    rng = np.random.default_rng(SEED)  # the same generator fit shuffles with
    n = len(x)
    logs = {"accuracy": [], "loss": []}
    start = clock()
    for epoch in range(epochs):
        if skip_first and epoch == 1:
            logs["first_epoch"] = clock() - start
            start = clock()
        order = rng.permutation(n)
        xs, ys = x[order], y[order]
        loss_sum = hits = 0.0
        for i in range(0, n, batch_size):
            xb, yb = xs[i:i + batch_size], ys[i:i + batch_size]
            p, loss, grads = step(xb, yb)
            loss_sum += loss * len(xb)
            hits += (p.argmax(axis=1) == yb).sum()
            adam.apply(grads)
        logs["loss"].append(loss_sum / n)
        logs["accuracy"].append(hits / n)
    seconds = (clock() - start) / (epochs - 1 if skip_first else epochs)
    return seconds, logs, params


def train_numpy(x, y, initial_weights, epochs, batch_size):
    """The MLP trained by hand; returns (seconds per epoch, logs, weights)."""
    w1, b1, w2, b2 = params = [np.array(w, dtype="float32") for w in initial_weights]

    def step(xb, yb):
        h_pre = xb @ w1 + b1  # forward
        h = np.maximum(h_pre, 0)
        p, loss, g_logits = softmax_crossentropy(h @ w2 + b2, yb)
        g_h = (g_logits @ w2.T) * (h_pre > 0)  # backward
        return p, loss, (xb.T @ g_h, g_h.sum(axis=0), h.T @ g_logits,
                         g_logits.sum(axis=0))

    return hand_loop(x, y, params, epochs, batch_size, 1e-3, step, skip_first=True)


def mlp_forward(params, xb):
    """Any depth: the layers' inputs, their pre-activations, the logits."""
    inputs, before = [xb], []
    for i in range(0, len(params) - 2, 2):
        before.append(inputs[-1] @ params[i] + params[i + 1])
        inputs.append(np.maximum(before[-1], 0))
    return inputs, before, inputs[-1] @ params[-2] + params[-1]


def mlp_step(params, xb, yb):
    """Forward, loss and gradients of an MLP of any depth (the step of
    :func:`train_numpy` written as loops over the layers)."""
    inputs, before, logits = mlp_forward(params, xb)
    p, loss, g = softmax_crossentropy(logits, yb)
    grads = [None] * len(params)
    grads[-2], grads[-1] = inputs[-1].T @ g, g.sum(axis=0)
    for i in range(len(before) - 1, -1, -1):
        g = (g @ params[2 * i + 2].T) * (before[i] > 0)
        grads[2 * i], grads[2 * i + 1] = inputs[i].T @ g, g.sum(axis=0)
    return p, loss, grads


def train_numpy_deep(x, y, initial_weights, epochs, batch_size):
    """An MLP of any depth trained by hand (:func:`mlp_step`)."""
    params = [np.array(w, dtype="float32") for w in initial_weights]
    return hand_loop(x, y, params, epochs, batch_size, 1e-3,
                     lambda xb, yb: mlp_step(params, xb, yb), skip_first=True)


def jax_available():
    """True when JAX is importable (``make venv-jax``): an optional contender."""
    return importlib.util.find_spec("jax") is not None


def train_jax(x, y, initial_weights, epochs, batch_size):
    """The MLP as one ``jax.jit`` step on the CPU: forward, softmax
    crossentropy, gradients, Adam in Keras's form and the batch's hits, with
    the hand loop's batches; returns (seconds per epoch, logs, weights).

    Each batch's loss and hits stay on the device until the epoch ends
    (``fit`` reads them every batch). The step is compiled for both batch
    shapes before the clock starts: XLA's compilation takes about a second
    of CPU, which would swamp a short run (``fit``'s trace, a few
    milliseconds, is timed).
    """
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp

    lr, beta_1, beta_2, eps = 1e-3, 0.9, 0.999, 1e-7

    def loss_and_logits(params, xb, yb):
        h = xb
        for i in range(0, len(params) - 2, 2):
            h = jnp.maximum(h @ params[i] + params[i + 1], 0)
        logits = h @ params[-2] + params[-1]
        log_p = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(log_p, yb[:, None], axis=1).mean(), logits

    @jax.jit
    def step(params, m, v, t, xb, yb):
        (loss, logits), grads = jax.value_and_grad(
            loss_and_logits, has_aux=True)(params, xb, yb)
        t = t + 1
        alpha = lr * jnp.sqrt(1 - beta_2**t) / (1 - beta_1**t)
        m = [m_i + (g - m_i) * (1 - beta_1) for m_i, g in zip(m, grads)]
        v = [v_i + (g * g - v_i) * (1 - beta_2) for v_i, g in zip(v, grads)]
        params = [p - alpha * m_i / (jnp.sqrt(v_i) + eps)
                  for p, m_i, v_i in zip(params, m, v)]
        hits = (logits.argmax(axis=1) == yb).sum()
        return params, m, v, t, loss * len(yb), hits

    params = [jnp.asarray(w, dtype="float32") for w in initial_weights]
    m = [jnp.zeros_like(p) for p in params]
    v = [jnp.zeros_like(p) for p in params]
    t = jnp.asarray(0.0, dtype="float32")
    rng = np.random.default_rng(SEED)  # the hand loop's batches
    n = len(x)
    for size in {batch_size, n % batch_size or batch_size}:  # compile, untimed
        jax.block_until_ready(step(params, m, v, t, x[:size], y[:size]))
    logs = {"accuracy": [], "loss": []}
    start = time.process_time()
    for epoch in range(epochs):
        if epoch == 1:
            logs["first_epoch"] = time.process_time() - start
            start = time.process_time()
        order = rng.permutation(n)
        xs, ys = x[order], y[order]
        loss_sum = hits = 0.0
        for i in range(0, n, batch_size):
            params, m, v, t, loss, hit = step(params, m, v, t, xs[i:i + batch_size],
                                              ys[i:i + batch_size])
            loss_sum, hits = loss_sum + loss, hits + hit
        logs["loss"].append(float(loss_sum) / n)
        logs["accuracy"].append(float(hits) / n)
    seconds = (time.process_time() - start) / (epochs - 1)
    return seconds, logs, [np.asarray(p) for p in params]


# ------------------------------------------------------------------ PyTorch
TORCH_SCRIPT = r"""
import json, sys, time
import numpy as np
import torch
torch.set_num_threads(1)
data = np.load(sys.argv[1])
epochs, batch_size = int(sys.argv[2]), int(sys.argv[3])
x, y, order = (torch.from_numpy(data[k]) for k in ("x", "y", "order"))
kind, lr = sys.argv[4], float(sys.argv[5])
weights = [torch.from_numpy(data[f"w{i}"]) for i in range(int(data["count"]))]


class KerasCNN(torch.nn.Module):
    # Conv2D(16, 3, same, relu) - MaxPooling2D - Flatten - Dense(10), on
    # channels-last images, flattened in Keras's (height, width, channels) order
    def __init__(self, kernel, bias, dense, dense_bias):
        super().__init__()
        self.conv = torch.nn.Conv2d(kernel.shape[2], kernel.shape[3], kernel.shape[0],
                                    padding="same")
        self.dense = torch.nn.Linear(*dense.shape)
        with torch.no_grad():  # (kh, kw, in, out) -> (out, in, kh, kw)
            self.conv.weight.copy_(kernel.permute(3, 2, 0, 1)); self.conv.bias.copy_(bias)
            self.dense.weight.copy_(dense.T); self.dense.bias.copy_(dense_bias)

    def forward(self, x):
        h = torch.relu(self.conv(x.permute(0, 3, 1, 2)))
        h = torch.nn.functional.max_pool2d(h, 2)
        return self.dense(h.permute(0, 2, 3, 1).flatten(1))

    def keras_weights(self):
        return [self.conv.weight.permute(2, 3, 1, 0), self.conv.bias,
                self.dense.weight.T, self.dense.bias]


if kind == "cnn":
    model = KerasCNN(*weights)
else:
    layers = []
    for i in range(0, len(weights), 2):  # Dense(relu) ..., Dense (the logits)
        layers += [torch.nn.Linear(*weights[i].shape), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers[:-1])
    linears = [m for m in model if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():  # Keras's kernels are (inputs, units): torch's transposed
        for linear, kernel, bias in zip(linears, weights[::2], weights[1::2]):
            linear.weight.copy_(kernel.T); linear.bias.copy_(bias)
    model.keras_weights = lambda: [p for linear in linears
                                   for p in (linear.weight.T, linear.bias)]
opt = torch.optim.Adam(model.parameters(), lr=lr, eps=1e-7)
n = len(x)
begin = time.process_time()
for epoch in range(epochs):
    if epoch == 1:
        start = time.process_time()
        first = start - begin
    xs, ys = x[order[epoch]], y[order[epoch]]
    loss_sum = hits = 0.0
    for i in range(0, n, batch_size):
        xb, yb = xs[i:i + batch_size], ys[i:i + batch_size]
        logits = model(xb)
        loss = torch.nn.functional.cross_entropy(logits, yb)
        opt.zero_grad(); loss.backward(); opt.step()
        loss_sum += loss.item() * len(xb)  # the batch's loss and accuracy,
        hits += (logits.argmax(1) == yb).sum().item()  # read as fit reads them
seconds = (time.process_time() - start) / (epochs - 1)
params = model.keras_weights()
np.savez(sys.argv[1] + ".out.npz", *[p.detach().contiguous().numpy() for p in params])
print(json.dumps({"seconds": seconds, "accuracy": hits / n, "first": first}))
"""


def train_torch(python, x, y, initial_weights, epochs, batch_size, workdir,
                kind="mlp", learning_rate=1e-3):
    """The MLP (``kind="mlp"``, any depth) or the CNN (``"cnn"``) in PyTorch,
    run by ``python`` in a subprocess (one thread); the hand loop's batches.
    Returns (seconds per epoch, logs, weights in Keras's layout)."""
    import json
    import subprocess

    rng = np.random.default_rng(SEED)  # the hand loop's batches
    order = np.stack([rng.permutation(len(x)) for _ in range(epochs)])
    data = os.path.join(workdir, "mlp_data.npz")
    np.savez(data, x=x, y=y.astype("int64"), order=order, count=len(initial_weights),
             **{f"w{i}": np.asarray(w, "float32")
                for i, w in enumerate(initial_weights)})
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([python, "-c", TORCH_SCRIPT, data, str(epochs),
                           str(batch_size), kind, str(learning_rate)],
                          capture_output=True, text=True, env=env, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    with np.load(data + ".out.npz") as trained:
        params = [trained[f"arr_{i}"] for i in range(len(initial_weights))]
    return result["seconds"], {"accuracy": [result["accuracy"]],
                               "first_epoch": result["first"]}, params


def torch_python(given):
    """The Python that has torch: ``given``, if it runs, else ``None``."""
    import subprocess

    if not given or not os.path.exists(given):
        return None
    found = subprocess.run([given, "-c", "import torch"], capture_output=True)
    return given if found.returncode == 0 else None


def numpy_accuracy(params, x, y):
    logits = mlp_forward(params, x)[-1]
    return float((logits.argmax(axis=1) == y).mean())


# ------------------------------------------------------------------ the CNN
def load_images():
    (x, y), (x_test, y_test) = keras.datasets.digits.load_data()
    x = (x[..., None] / 255.0).astype("float32")
    x_test = (x_test[..., None] / 255.0).astype("float32")
    return (x, y.astype("int64")), (x_test, y_test.astype("int64"))


def make_cnn():
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    return keras.Sequential([
        keras.Input(shape=(8, 8, 1)),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(10, activation="softmax"),
    ])


def cnn_forward(params, xb):
    """Conv 3x3 'same' (im2col by a window view), relu, 2x2 max pool, dense."""
    k, b, w, c = params
    xp = np.pad(xb, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = sliding_window_view(xp, (3, 3), axis=(1, 2))  # (n, 8, 8, 1, 3, 3)
    conv = np.tensordot(cols, k, axes=((3, 4, 5), (2, 0, 1))) + b  # (n, 8, 8, 16)
    a = np.maximum(conv, 0)
    n = len(xb)
    blocks = a.reshape(n, 4, 2, 4, 2, 16)
    pooled = blocks.max(axis=(2, 4))  # (n, 4, 4, 16)
    logits = pooled.reshape(n, 256) @ w + c
    return cols, conv, blocks, pooled, logits


def cnn_step(params, xb, yb):
    """The hand CNN's forward and backward: (probabilities, loss, gradients).

    The max pool's gradient goes to the first maximum of each 2x2 window
    (the order of ``argmax`` over the window's four entries, row by row).
    """
    cols, conv, blocks, pooled, logits = cnn_forward(params, xb)
    p, loss, g_logits = softmax_crossentropy(logits, yb)
    w = params[2]
    n = len(xb)
    g_pooled = (g_logits @ w.T).reshape(n, 4, 4, 1, 16)
    # each window's four entries on one axis: (n, 4, 4, 2 * 2, 16)
    windows = blocks.transpose(0, 1, 3, 2, 4, 5).reshape(n, 4, 4, 4, 16)
    first = windows.argmax(axis=3)[:, :, :, None, :] == np.arange(4)[:, None]
    g_windows = first * g_pooled  # (n, 4, 4, 4, 16)
    g_conv = g_windows.reshape(n, 4, 4, 2, 2, 16).transpose(0, 1, 3, 2, 4, 5)
    g_conv = g_conv.reshape(n, 8, 8, 16) * (conv > 0)
    g_k = np.tensordot(cols, g_conv, axes=((0, 1, 2), (0, 1, 2)))  # (1, 3, 3, 16)
    return p, loss, [g_k.transpose(1, 2, 0, 3), g_conv.sum(axis=(0, 1, 2)),
                     pooled.reshape(n, 256).T @ g_logits, g_logits.sum(axis=0)]


def train_numpy_cnn(x, y, initial_weights, epochs, batch_size):
    """The CNN trained by hand (:func:`cnn_step`)."""
    params = [np.array(w, dtype="float32") for w in initial_weights]
    return hand_loop(x, y, params, epochs, batch_size, 3e-3,
                     lambda xb, yb: cnn_step(params, xb, yb), skip_first=True)


def numpy_cnn_accuracy(params, x, y):
    logits = cnn_forward(params, x)[-1]
    return float((logits.argmax(axis=1) == y).mean())


# ------------------------------------------------------------------ running
def interleaved(ways, repeat):
    """Run every way ``repeat`` times, interleaved; keep the median run of each."""
    runs = {label: [] for label in ways}
    for _ in range(repeat):  # interleaved, so a busy moment hurts all alike
        for label, run in ways.items():
            runs[label].append(run())
    return {label: sorted(results, key=lambda r: r[0])[len(results) // 2]
            for label, results in runs.items()}


def report(title, results, batches, accuracy, epochs=None):
    """Print one table: us per batch (the epochs after the first), ratios to
    the hand loop and to the other contenders, accuracies, the first epoch
    (kerasmini's trace) and, given ``epochs``, the ratio to the hand loop
    of the whole run, first epoch included."""
    hand = [label for label in results if label.startswith("hand")][0]
    peers = [label for label in results if label.startswith(("JAX", "PyTorch"))]
    print(title)
    print(f"{'':30s} {'us/batch':>9s} {'x hand':>7s}"
          + "".join(f" {'x ' + p.split()[0]:>9s}" for p in peers)
          + f" {'train acc':>10s} {'test acc':>9s} {'1st epoch':>10s}"
          + (f" {'all x hand':>10s}" if epochs else ""))

    def whole_run(label):
        seconds, history, _ = results[label]
        return seconds * (epochs - 1) + history["first_epoch"]

    for label, (seconds, history, trained) in results.items():
        ratios = "".join(f" {seconds / results[p][0]:9.2f}" for p in peers)
        first = history.get("first_epoch")
        first = f"{first * 1e3:8.1f}ms" if first is not None else ""
        line = (f"{label:30s} {seconds / batches * 1e6:9.1f} "
                f"{seconds / results[hand][0]:7.2f}{ratios} "
                f"{history['accuracy'][-1]:10.4f} {accuracy(trained):9.4f} {first:>10s}")
        if epochs:
            line += f" {whole_run(label) / whole_run(hand):10.2f}"
        print(line)
    print()


def wide_mlp(width, x, y, args):
    """Graph fit and the hand loop on 64-``width``-10 (a quarter of the epochs)."""
    epochs = max(2, args.epochs // 4)
    weights = make_mlp(width).get_weights()
    ways = {
        "kerasmini fit (graph)": lambda: train_kerasmini(
            x, y, weights, epochs, args.batch_size, False,
            make_model=lambda: make_mlp(width)),
        "hand-written NumPy loop": lambda: train_numpy(
            x, y, weights, epochs, args.batch_size),
    }
    return interleaved(ways, args.repeat)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20,
                        help="epochs at batch 32 (at batch 1024: 8 times as many)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--large-batch", type=int, default=1024,
                        help="the MLP's second batch size (0: none)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of each way, interleaved; the median is reported")
    parser.add_argument("--widths", type=int, nargs="*", default=[512, 2048],
                        help="other hidden widths of the MLP (graph fit only)")
    parser.add_argument("--torch-python", default=None,
                        help="a Python with torch installed (a PyTorch row)")
    parser.add_argument("--no-deep", dest="deep", action="store_false",
                        help="skip the MLP 784-512-512-10")
    args = parser.parse_args(argv)
    import tempfile

    (x_train, y_train), (x_test, y_test) = load_digits()
    batches = -(-len(x_train) // args.batch_size)

    def accuracy(trained):
        if isinstance(trained, list):  # the NumPy loop's parameters
            return numpy_accuracy(trained, x_test, y_test)
        return trained.evaluate(x_test, y_test, verbose=0)[1]

    initial_weights = make_mlp().get_weights()
    python = torch_python(args.torch_python)
    workdir = tempfile.mkdtemp()
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "all")
    sizes = [(args.batch_size, max(2, args.epochs))]
    if args.large_batch:
        sizes.append((args.large_batch, max(2, args.epochs * 8)))
    for batch_size, epochs in sizes:
        def ways_for(batch_size=batch_size, epochs=epochs):
            ways = {
                "kerasmini fit (graph)": lambda: train_kerasmini(
                    x_train, y_train, initial_weights, epochs, batch_size, False),
            }
            if batch_size == args.batch_size:
                ways["kerasmini fit (run_eagerly)"] = lambda: train_kerasmini(
                    x_train, y_train, initial_weights, epochs, batch_size, True)
            ways["hand-written NumPy loop"] = lambda: train_numpy(
                x_train, y_train, initial_weights, epochs, batch_size)
            if jax_available():  # an optional contender: make venv-jax
                ways["JAX jit loop (CPU)"] = lambda: train_jax(
                    x_train, y_train, initial_weights, epochs, batch_size)
            if python:
                ways["PyTorch CPU loop"] = lambda: train_torch(
                    python, x_train, y_train, initial_weights, epochs, batch_size,
                    workdir)
            return ways

        report(f"MLP 64-64-10 on digits: {len(x_train)} samples, batch "
               f"{batch_size}, {epochs} epochs, Adam 1e-3, float32; CPU time of "
               f"epochs 2 to {epochs}, BLAS threads: {threads}, median of "
               f"{args.repeat}", interleaved(ways_for(), args.repeat),
               -(-len(x_train) // batch_size), accuracy, epochs)

    for width in args.widths:
        report(f"MLP 64-{width}-10, {max(2, args.epochs // 4)} epochs, median of "
               f"{args.repeat}", wide_mlp(width, x_train, y_train, args), batches,
               accuracy)

    if args.deep:  # 784-512-512-10 on the digits enlarged to 28 x 28
        (xd_train, yd_train), (xd_test, yd_test) = load_digits_784()
        epochs = max(2, args.epochs // 4)

        def make_deep():
            return make_mlp(512, inputs=784, depth=2)

        deep_weights = make_deep().get_weights()
        ways = {
            "kerasmini fit (graph)": lambda: train_kerasmini(
                xd_train, yd_train, deep_weights, epochs, args.batch_size, False,
                make_model=make_deep),
            "hand-written NumPy loop": lambda: train_numpy_deep(
                xd_train, yd_train, deep_weights, epochs, args.batch_size),
        }
        if jax_available():
            ways["JAX jit loop (CPU)"] = lambda: train_jax(
                xd_train, yd_train, deep_weights, epochs, args.batch_size)
        if python:
            ways["PyTorch CPU loop"] = lambda: train_torch(
                python, xd_train, yd_train, deep_weights, epochs, args.batch_size,
                workdir)

        def deep_accuracy(trained):
            if isinstance(trained, list):
                return numpy_accuracy(trained, xd_test, yd_test)
            return trained.evaluate(xd_test, yd_test, verbose=0)[1]

        report(f"MLP 784-512-512-10 on the digits enlarged to 28 x 28, batch "
               f"{args.batch_size}, {epochs} epochs, Adam 1e-3, median of "
               f"{args.repeat}", interleaved(ways, args.repeat), batches,
               deep_accuracy, epochs)

    (xi_train, yi_train), (xi_test, yi_test) = load_images()
    epochs = max(2, args.epochs // 2)
    cnn_weights = make_cnn().get_weights()
    ways = {
        "kerasmini fit (graph)": lambda: train_kerasmini(
            xi_train, yi_train, cnn_weights, epochs, args.batch_size, False,
            make_model=make_cnn, learning_rate=3e-3),
        "hand-written NumPy loop": lambda: train_numpy_cnn(
            xi_train, yi_train, cnn_weights, epochs, args.batch_size),
    }
    if python:
        ways["PyTorch CPU loop"] = lambda: train_torch(
            python, xi_train, yi_train, cnn_weights, epochs, args.batch_size, workdir,
            kind="cnn", learning_rate=3e-3)

    def cnn_accuracy(trained):
        if isinstance(trained, list):
            return numpy_cnn_accuracy(trained, xi_test, yi_test)
        return trained.evaluate(xi_test, yi_test, verbose=0)[1]

    report(f"CNN Conv2D(16, 3)-MaxPooling2D-Dense(10), Adam 3e-3, {epochs} "
           f"epochs, median of {args.repeat}", interleaved(ways, args.repeat),
           batches, cnn_accuracy, epochs)


if __name__ == "__main__":
    main()
