"""A wide Dense layer: what a training step costs in time and memory.

``python -m benchmarks.wide_dense`` trains ``width -> width relu -> 10
softmax`` (``width**2`` parameters in the first kernel) on random data,
batch 32, Adam, and prints per batch: the milliseconds of ``fit`` in graph
mode, ``fit`` with ``run_eagerly=True`` and a hand-written NumPy loop (the
median of ``--repeat`` interleaved runs), and the peak memory a step
allocates on top of what stays resident (weights and Adam's two slots),
counted in kernels (``width**2`` float32 entries) with :mod:`tracemalloc`.

With big kernels a step is no longer about Python overhead but about
copies: each kernel-sized array a step allocates costs memory and a pass
over main memory. A traced kerasmini step allocates one: the gradient of
the kernel. The compiled step runs Adam's fused kernel, which updates in
place in cache-sized blocks (see :mod:`kerasmini.backend.fast.kernels`; an
eager step runs the formula written with ops), and nothing keeps a step's
arrays alive after it (no reference cycles). The default width, 3000 (9M parameters),
runs in about 20 s (user time); ``--width 10000`` is the 100M-parameter case
(0.4 GB per kernel, about 2 GB in all, a few minutes).
"""

import argparse
import time
import tracemalloc

import numpy as np

import kerasmini as keras
from benchmarks.fit_digits import SEED, HandAdam, interleaved, softmax_crossentropy
from kerasmini import layers

BATCH = 32


def make_model(width):
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    return keras.Sequential([
        keras.Input(shape=(width,)),
        layers.Dense(width, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ])


def kerasmini_fit(width, weights, run_eagerly):
    """A ``train(x, y)`` that runs one epoch of ``fit`` (traced and built first)."""
    model = make_model(width)
    model.set_weights(weights)
    model.compile(optimizer=keras.optimizers.Adam(1e-4),
                  loss="sparse_categorical_crossentropy", run_eagerly=run_eagerly)

    def train(x, y):
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    return train


def hand_loop(width, weights, run_eagerly=None):
    """A ``train(x, y)`` with the same maths written by hand in NumPy."""
    w1, b1, w2, b2 = params = [np.array(w, dtype="float32") for w in weights]
    adam = HandAdam(params, 1e-4)

    def train(x, y):
        for i in range(0, len(x), BATCH):
            xb, yb = x[i:i + BATCH], y[i:i + BATCH]
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            _, _, g_logits = softmax_crossentropy(h @ w2 + b2, yb)
            g_h = (g_logits @ w2.T) * (h_pre > 0)
            adam.apply((xb.T @ g_h, g_h.sum(axis=0), h.T @ g_logits,
                        g_logits.sum(axis=0)))
    return train


def warmed_up(make, width, weights, x, y, run_eagerly=False):
    """``make``'s ``train`` after one batch (tracing, slots, first touch)."""
    train = make(width, weights, run_eagerly)
    train(x[:BATCH], y[:BATCH])
    return train


def timed(make, width, weights, x, y, run_eagerly=False):
    """Seconds per batch of one epoch."""
    train = warmed_up(make, width, weights, x, y, run_eagerly)
    start = time.perf_counter()
    train(x, y)
    return ((time.perf_counter() - start) / (len(x) // BATCH),)


def peak_memory(make, width, weights, x, y, run_eagerly=False):
    """Peak bytes allocated during one batch above what was allocated before."""
    train = warmed_up(make, width, weights, x, y, run_eagerly)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        train(x[:BATCH], y[:BATCH])
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=3000)
    parser.add_argument("--batches", type=int, default=3,
                        help="batches of 32 per timed epoch")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each way, interleaved; the median is reported")
    args = parser.parse_args(argv)
    width = args.width
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((args.batches * BATCH, width)).astype("float32")
    y = rng.integers(0, 10, len(x))
    weights = make_model(width).get_weights()
    kernel = width * width * 4
    ways = {
        "kerasmini fit (graph)": (kerasmini_fit, False),
        "kerasmini fit (run_eagerly)": (kerasmini_fit, True),
        "hand-written NumPy loop": (hand_loop, None),
    }
    times = interleaved({
        label: (lambda m=make, e=eager: timed(m, width, weights, x, y, e))
        for label, (make, eager) in ways.items()}, args.repeat)
    print(f"Dense {width} -> {width} relu -> 10, {width * width / 1e6:.0f}M "
          f"parameters in the kernel ({kernel / 1e6:.0f} MB), batch {BATCH}, "
          f"Adam; resident: weights + 2 slots = 3 kernels; median of {args.repeat}")
    print(f"{'':30s} {'ms/batch':>9s} {'x hand':>7s} {'peak kernels/step':>18s}")
    hand = times["hand-written NumPy loop"][0]
    for label, (make, eager) in ways.items():
        peak = peak_memory(make, width, weights, x, y, eager)
        print(f"{label:30s} {times[label][0] * 1e3:9.1f} "
              f"{times[label][0] / hand:7.2f} {peak / kernel:18.2f}")


if __name__ == "__main__":
    main()
