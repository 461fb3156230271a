"""trainable = False through fit, train_on_batch and a hand-written loop.

Frozen weights must come out bit-identical and trainable ones must change,
whatever the model kind and whether the train step is traced or eager; and
freezing must not reorder ``model.weights`` (Keras 3).
"""

import numpy as np
import pytest

import kerasmini as keras

X = np.random.default_rng(0).random((64, 12)).astype("float32")
Y = np.random.default_rng(1).random((64, 3)).astype("float32")


def sequential():
    return keras.Sequential([keras.Input((12,)), keras.layers.Dense(16),
                             keras.layers.Dense(8), keras.layers.Dense(3)])


def functional():
    inputs = keras.Input((12,))
    h = keras.layers.Dense(16)(inputs)
    h = keras.layers.Dense(8)(h)
    return keras.Model(inputs, keras.layers.Dense(3)(h))


def nested():
    inner = keras.Sequential([keras.Input((12,)), keras.layers.Dense(16),
                              keras.layers.Dense(8)])
    inputs = keras.Input((12,))
    return keras.Model(inputs, keras.layers.Dense(3)(inner(inputs)))


class Subclassed(keras.Model):
    def __init__(self):
        super().__init__()
        self.first = keras.layers.Dense(16)
        self.second = keras.layers.Dense(8)
        self.head = keras.layers.Dense(3)

    def call(self, x):
        return self.head(self.second(self.first(x)))


def subclassed():
    model = Subclassed()
    model(X[:1])
    return model


def freeze_all_but_head(model):
    for layer in model.layers[:-1]:
        layer.trainable = False
    return model.layers[-1]


def snapshot(variables):
    return [v.numpy().copy() for v in variables]


def assert_frozen_kept_and_head_changed(model, head, frozen_before, head_before):
    frozen = [w for w in model.weights if not any(w is h for h in head.weights)]
    for before, w in zip(frozen_before, frozen):
        np.testing.assert_array_equal(w.numpy(), before, err_msg=w.path)
    assert all(not np.array_equal(h.numpy(), b)
               for h, b in zip(head.weights, head_before))


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["graph", "eager"])
@pytest.mark.parametrize("make", [sequential, functional, nested, subclassed])
def test_fit_keeps_frozen_weights_bit_identical(make, run_eagerly):
    model = make()
    head = freeze_all_but_head(model)
    frozen = [w for w in model.weights if not any(w is h for h in head.weights)]
    frozen_before, head_before = snapshot(frozen), snapshot(head.weights)
    model.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
    model.fit(X, Y, epochs=2, batch_size=16, verbose=0)
    assert_frozen_kept_and_head_changed(model, head, frozen_before, head_before)


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["graph", "eager"])
def test_freezing_after_a_first_fit_is_honoured(run_eagerly):
    model = sequential()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    model.fit(X, Y, epochs=1, verbose=0)  # traces (in graph mode) with all trainable
    head = freeze_all_but_head(model)
    frozen = [w for w in model.weights if not any(w is h for h in head.weights)]
    frozen_before, head_before = snapshot(frozen), snapshot(head.weights)
    model.fit(X, Y, epochs=1, verbose=0)
    assert_frozen_kept_and_head_changed(model, head, frozen_before, head_before)


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["graph", "eager"])
def test_train_on_batch_keeps_frozen_weights(run_eagerly):
    model = functional()
    model.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
    model.train_on_batch(X, Y)
    head = freeze_all_but_head(model)
    frozen = [w for w in model.weights if not any(w is h for h in head.weights)]
    frozen_before, head_before = snapshot(frozen), snapshot(head.weights)
    model.train_on_batch(X, Y)
    assert_frozen_kept_and_head_changed(model, head, frozen_before, head_before)


def test_hand_written_tape_loop_updates_only_trainable_weights():
    model = sequential()
    head = freeze_all_but_head(model)
    frozen = [w for w in model.weights if not any(w is h for h in head.weights)]
    frozen_before, head_before = snapshot(frozen), snapshot(head.weights)
    optimizer = keras.optimizers.Adam(1e-2)
    for _ in range(3):
        with keras.GradientTape() as tape:
            loss = keras.losses.mean_squared_error(Y, model(X, training=True))
            loss = keras.ops.mean(loss)
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
    assert len(model.trainable_weights) == 2
    assert_frozen_kept_and_head_changed(model, head, frozen_before, head_before)


def test_optimizer_state_is_keyed_by_variable_not_position():
    a = keras.Variable(np.ones(2), name="a")
    b = keras.Variable(np.ones(3), name="b")
    optimizer = keras.optimizers.Adam(0.1)
    optimizer.build([a, b])
    # the gradients come in the other order: each must reach its own slots
    optimizer.apply_gradients([(np.ones(3), b), (np.ones(2), a)])
    optimizer.apply_gradients([(np.ones(2), a)])
    assert a.numpy().tolist() != b.numpy()[:2].tolist()


def test_unfreezing_after_the_optimizer_was_built_needs_a_new_optimizer():
    model = sequential()
    freeze_all_but_head(model)
    model.compile(optimizer="adam", loss="mse")
    model.fit(X, Y, epochs=1, verbose=0)
    model.layers[0].trainable = True
    with pytest.raises(ValueError, match="Unknown variable"):
        model.fit(X, Y, epochs=1, verbose=0)  # as Keras 3: recompile first


def test_frozen_batch_normalization_keeps_its_statistics_in_fit():
    model = keras.Sequential([keras.Input((12,)), keras.layers.BatchNormalization(),
                              keras.layers.Dense(3)])
    bn = model.layers[0]
    bn.trainable = False
    before = snapshot(bn.weights)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(X * 5.0 + 2.0, Y, epochs=1, verbose=0)
    for b, w in zip(before, bn.weights):
        np.testing.assert_array_equal(w.numpy(), b)


def test_freezing_moves_weights_between_lists_without_reordering():
    model = nested()
    before = [w.path for w in model.weights]
    model.layers[1].trainable = False  # the inner Sequential
    assert [w.path for w in model.weights] == before
    assert len(model.non_trainable_weights) == 4
    assert [w.path for w in model.trainable_weights] == before[4:]
