"""What a training step allocates: the memory side of ``fit``'s speed.

A traced step of a wide Dense layer should allocate one kernel-sized array
(the kernel's gradient) and keep nothing once it is over: the compiled step
runs Adam's fused kernel, which updates in place in small blocks, and no
reference cycle holds a step's arrays until the garbage collector runs. Memory is counted with :mod:`tracemalloc`, which
sees NumPy's allocations; figures, not timings, so they can be tested.
"""

import gc
import tracemalloc
import weakref

import numpy as np

import kerasmini as keras
from kerasmini import tree
from kerasmini.backend.fast.kernels import BLOCK

WIDTH = 400  # a 400 x 400 kernel: 160,000 entries, more than one Adam block


class Leaf:
    pass


def test_pack_sequence_as_keeps_no_reference_to_its_values():
    # a recursive closure would be a cycle holding the values until gc runs
    gc.disable()
    try:
        leaf = Leaf()
        alive = weakref.ref(leaf)
        packed = tree.pack_sequence_as([0, (0, {"a": 0})], [leaf, 1, 2])
        assert packed[0] is leaf
        del packed, leaf
        assert alive() is None
    finally:
        gc.enable()


def _wide_model(run_eagerly):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([
        keras.Input(shape=(WIDTH,)),
        keras.layers.Dense(WIDTH, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-4),
                  loss="sparse_categorical_crossentropy", run_eagerly=run_eagerly)
    return model


def _step_memory(run_eagerly):
    """(peak, kept) of a training step beyond what was resident, in kernels."""
    assert WIDTH * WIDTH > BLOCK
    kernel_bytes = WIDTH * WIDTH * 4
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, WIDTH)).astype("float32")
    y = rng.integers(0, 10, 32)
    model = _wide_model(run_eagerly)
    model.fit(x, y, batch_size=32, epochs=1, verbose=0)  # trace, build slots
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        model.fit(x, y, batch_size=32, epochs=1, verbose=0)
        after, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.enable()
    return (peak - before) / kernel_bytes, (after - before) / kernel_bytes


def test_a_wide_training_step_allocates_one_kernel_and_keeps_none():
    peak, kept = _step_memory(run_eagerly=False)
    # the gradient of the kernel, and small arrays (a batch, activations,
    # one Adam block of the fused kernel); the formula written with ops
    # would allocate a few kernels more
    block = BLOCK / WIDTH**2
    assert 1 <= peak < 1 + block + 0.25
    # nothing kernel-sized survives the step (a reference cycle kept the
    # gradients of an eager step alive until the garbage collector ran)
    assert kept < 0.1


def test_an_eager_wide_step_keeps_only_the_new_weights_and_slots():
    # eager runs Adam's formula written with ops: the kernel and its two
    # slots get new arrays (tracemalloc counts them, not the old ones they
    # replace, which were allocated before it started); nothing else stays
    peak, kept = _step_memory(run_eagerly=True)
    assert 3 <= kept < 3.25
    assert peak < 8
