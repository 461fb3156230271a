"""Do Adam's moments decay into subnormal numbers, and does it cost time?

``python -m benchmarks.subnormals`` trains the digits MLP of
:mod:`benchmarks.fit_digits` (graph mode) for 30 epochs, one epoch per
``fit`` call, and prints per epoch: the seconds, how many entries of Adam's
``m`` and ``v`` slots are float32 subnormals (nonzero but below
``np.finfo("float32").tiny``, about 1.2e-38), and how long one in-place Adam
update of the first kernel takes on its current slots and on the same slots
with the subnormals flushed to zero. Then it times a matrix product and an
elementwise product on normal and on all-subnormal float32 operands: the
worst case, to tell whether this CPU pays for subnormals at all.

Why it can happen: a pixel that is zero in almost every image gives its
kernel row a zero gradient on almost every step, so that row's ``m`` shrinks
by ``beta_1 = 0.9`` each step (``v`` by ``beta_2 = 0.999``, far slower);
about 800 steps (15 epochs of 56 batches) take a gradient of 1e-3 below
1.2e-38. Some CPUs handle subnormal operands or results in slow microcode.

The decision: kerasmini keeps the maths, as Keras does (no flush to zero, no
larger epsilon); the figures are in the README's Benchmark section.
"""

import argparse
import time
import timeit

import numpy as np

import kerasmini as keras
from benchmarks.fit_digits import SEED, load_digits, make_mlp
from kerasmini.backend.fast.kernels import adam_update_variable

TINY = np.finfo("float32").tiny


def is_subnormal(array):
    return (array != 0) & (np.abs(array) < TINY)


def best_us(function, number=200, repeat=5):
    """The fastest of ``repeat`` runs, in microseconds per call."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number * 1e6


def time_update(m, v):
    """Microseconds for one in-place Adam update with slots ``m`` and ``v``."""
    m, v = m.copy(), v.copy()
    w, g = np.ones_like(m), np.zeros_like(m)

    def update():  # betas of 1: the moments keep their values (and subnormals)
        adam_update_variable(w, m, v, g, np.float32(1e-6), beta_1=1.0, beta_2=1.0,
                             epsilon=1e-7)
    return best_us(update)


def train(epochs):
    """The per-epoch table; returns the count of subnormal ``m`` entries."""
    (x, y), _ = load_digits()
    model = make_mlp()
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    keras.utils.set_random_seed(SEED)
    kernel = model.trainable_weights[0]
    print(f"{'epoch':>5s} {'s/epoch':>8s} {'subnormal m':>12s} {'subnormal v':>12s} "
          f"{'update us':>10s} {'flushed us':>11s} {'loss':>7s}")
    for epoch in range(epochs):
        start = time.perf_counter()
        history = model.fit(x, y, batch_size=32, epochs=1, verbose=0)
        seconds = time.perf_counter() - start
        m_sub = sum(int(is_subnormal(s.numpy()).sum()) for s in optimizer._momentums)
        v_sub = sum(int(is_subnormal(s.numpy()).sum()) for s in optimizer._velocities)
        index = optimizer._get_variable_index(kernel)
        m = optimizer._momentums[index].numpy()
        v = optimizer._velocities[index].numpy()
        flushed = [np.where(is_subnormal(s), np.float32(0), s) for s in (m, v)]
        print(f"{epoch + 1:5d} {seconds:8.4f} {m_sub:12d} {v_sub:12d} "
              f"{time_update(m, v):10.2f} {time_update(*flushed):11.2f} "
              f"{history.history['loss'][-1]:7.4f}")
    size = sum(s.numpy().size for s in optimizer._momentums)
    print(f"(of {size} entries in each of m and v; the update times are of the "
          f"first kernel, {kernel.shape}, best of 5 x 200)\n")
    return m_sub


def worst_case(n=256):
    """Products on normal and on all-subnormal operands, side by side."""
    rng = np.random.default_rng(SEED)
    a = rng.standard_normal((n, n)).astype("float32")
    b = rng.standard_normal((n, n)).astype("float32")
    sub = (np.sign(a) * rng.uniform(0.01, 0.99, (n, n)) * TINY).astype("float32")
    assert is_subnormal(sub).all()
    half = np.float32(0.5)
    print(f"worst case on this CPU, {n}x{n} float32, best of 9 interleaved:")
    print(f"{'':28s} {'normal us':>10s} {'subnormal us':>13s} {'ratio':>6s}")
    for label, op in (("matrix product a @ b", lambda x: x @ b),
                      ("elementwise x * 0.5", lambda x: x * half)):
        normal, slow = [], []
        for _ in range(9):  # interleaved, so a busy moment hurts both alike
            normal.append(best_us(lambda op=op: op(a), number=20, repeat=1))
            slow.append(best_us(lambda op=op: op(sub), number=20, repeat=1))
        normal, slow = min(normal), min(slow)
        print(f"{label:28s} {normal:10.1f} {slow:13.1f} {slow / normal:6.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    args = parser.parse_args(argv)
    train(args.epochs)
    worst_case()


if __name__ == "__main__":
    main()
