"""Python generators, validation generators, class and sample weights with
every kind of input (arrays, PyDataset, generator), steps per epoch."""

import warnings

import numpy as np
import pytest

import kerasmini as keras

RNG = np.random.default_rng(3)
X = RNG.normal(size=(48, 3)).astype("float32")
Y = (X[:, :1] > 0).astype("int64").ravel()


def model(seed=0):
    keras.utils.set_random_seed(seed)
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="softmax")])
    m.compile(optimizer=keras.optimizers.SGD(0.1),
              loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return m


def batches(x, y, sw=None, batch_size=8, repeat=True):
    while True:
        for start in range(0, len(x), batch_size):
            part = slice(start, start + batch_size)
            yield (x[part], y[part]) if sw is None else (x[part], y[part], sw[part])
        if not repeat:
            return


class Batches(keras.utils.PyDataset):
    def __init__(self, x, y, sw=None, batch_size=8, shuffle=False):
        super().__init__()
        self.x, self.y, self.sw, self.batch_size = x, y, sw, batch_size
        self.order = np.arange(len(x))
        self.shuffle = shuffle

    def __len__(self):
        return len(self.x) // self.batch_size

    def __getitem__(self, i):
        idx = self.order[i * self.batch_size:(i + 1) * self.batch_size]
        if self.sw is None:
            return self.x[idx], self.y[idx]
        return self.x[idx], self.y[idx], self.sw[idx]

    def on_epoch_end(self):
        if self.shuffle:
            self.order = np.random.default_rng(len(self.order)).permutation(self.order)


def test_fit_on_an_endless_generator_with_steps_per_epoch():
    m = model()
    history = m.fit(batches(X, Y), steps_per_epoch=6, epochs=4, verbose=0)
    assert len(history.history["loss"]) == 4
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert int(m.optimizer.iterations.numpy()) == 24


def test_generator_training_equals_array_training_without_shuffle():
    a, b = model(), model()
    a.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    b.fit(batches(X, Y), steps_per_epoch=6, epochs=2, verbose=0)
    for wa, wb in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_allclose(wa, wb, rtol=1e-6)


def test_a_finite_generator_without_steps_runs_until_exhausted_then_warns():
    m = model()
    with pytest.warns(UserWarning, match="ran out of data"):
        history = m.fit(batches(X, Y, repeat=False), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 1
    assert int(m.optimizer.iterations.numpy()) == 6


def test_validation_data_as_generator_with_validation_steps():
    m = model()
    seen = []

    def val():
        for x, y in batches(X[:16], Y[:16]):
            seen.append(len(x))
            yield x, y

    history = m.fit(X, Y, validation_data=val(), validation_steps=2, epochs=2,
                    verbose=0)
    assert {"val_loss", "val_accuracy"} <= set(history.history)
    assert seen == [8, 8, 8, 8]


def test_validation_data_as_py_dataset_and_evaluate_with_steps():
    m = model()
    history = m.fit(Batches(X, Y), validation_data=Batches(X[:16], Y[:16]),
                    epochs=2, verbose=0)
    assert len(history.history["val_loss"]) == 2
    result = m.evaluate(batches(X, Y), steps=3, return_dict=True, verbose=0)
    expected = m.evaluate(X[:24], Y[:24], batch_size=8, return_dict=True, verbose=0)
    assert result["loss"] == pytest.approx(expected["loss"], rel=1e-6)
    preds = m.predict(batches(X, Y), steps=2, verbose=0)
    assert preds.shape == (16, 2)


def test_py_dataset_shuffles_at_epoch_end():
    data = Batches(X, Y, shuffle=True)
    before = data.order.copy()
    model().fit(data, epochs=1, verbose=0)
    assert not np.array_equal(before, data.order)
    assert sorted(data.order) == list(range(48))


@pytest.mark.parametrize("kind", ["arrays", "py_dataset", "generator"])
def test_sample_weights_from_every_input_kind_weigh_the_loss(kind):
    sw = np.where(Y == 1, 3.0, 0.0).astype("float32")  # only class 1 counts
    m = model()
    if kind == "arrays":
        m.fit(X, Y, sample_weight=sw, batch_size=8, epochs=5, verbose=0)
    elif kind == "py_dataset":
        m.fit(Batches(X, Y, sw), epochs=5, verbose=0)
    else:
        m.fit(batches(X, Y, sw), steps_per_epoch=6, epochs=5, verbose=0)
    probs = m.predict(X, verbose=0)
    # with class 0 weightless, the model learns to say "class 1"
    assert probs[:, 1].mean() > 0.6


@pytest.mark.parametrize("kind", ["arrays", "py_dataset", "generator"])
def test_class_weight_with_every_input_kind_matches_sample_weights(kind):
    class_weight = {0: 0.5, 1: 2.0}
    sw = np.where(Y == 1, 2.0, 0.5).astype("float32")
    a, b = model(), model()
    a.fit(X, Y, sample_weight=sw, batch_size=8, shuffle=False, epochs=2, verbose=0)
    if kind == "arrays":
        b.fit(X, Y, class_weight=class_weight, batch_size=8, shuffle=False, epochs=2,
              verbose=0)
    elif kind == "py_dataset":
        b.fit(Batches(X, Y), class_weight=class_weight, shuffle=False, epochs=2,
              verbose=0)
    else:
        b.fit(batches(X, Y), class_weight=class_weight, steps_per_epoch=6, epochs=2,
              verbose=0)
    for wa, wb in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_allclose(wa, wb, rtol=1e-5)


def test_generator_refuses_y_batch_size_and_validation_split():
    m = model()
    with pytest.raises(ValueError, match="generator it provides the targets"):
        m.fit(batches(X, Y), Y, steps_per_epoch=2, verbose=0)
    with pytest.raises(ValueError, match="Do not specify `batch_size`"):
        m.fit(batches(X, Y), batch_size=4, steps_per_epoch=2, verbose=0)
    with pytest.raises(ValueError, match="validation_split"):
        m.fit(batches(X, Y), validation_split=0.2, steps_per_epoch=2, verbose=0)


def test_steps_per_epoch_on_arrays_caps_the_batches():
    m = model()
    m.fit(X, Y, batch_size=8, steps_per_epoch=2, epochs=3, verbose=0)
    assert int(m.optimizer.iterations.numpy()) == 6


def test_no_warning_when_the_generator_has_enough_batches():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model().fit(batches(X, Y), steps_per_epoch=3, epochs=2, verbose=0)


def test_fit_shuffles_the_batch_order_of_a_py_dataset_unless_told_not_to():
    class Spy(Batches):
        def __getitem__(self, i):
            self.seen.append(i)
            return super().__getitem__(i)

    data = Spy(X, Y)
    m = model()
    for shuffle in (True, False):
        data.seen = []
        keras.utils.set_random_seed(1)
        m.fit(data, epochs=3, shuffle=shuffle, verbose=0)
        # before the epochs, a first fit reads batch 0 to build the compiled
        # loss and metrics from its shapes (Keras 3's _symbolic_build)
        assert len(data.seen) == 18 + (shuffle is True)
        seen = data.seen[-18:]
        epochs = [seen[i:i + 6] for i in range(0, 18, 6)]
        assert all(sorted(epoch) == list(range(6)) for epoch in epochs)
        in_order = [epoch == list(range(6)) for epoch in epochs]
        assert not any(in_order) if shuffle else all(in_order)
    data.seen = []
    m.evaluate(data, verbose=0)  # evaluation keeps the order
    assert data.seen == list(range(6))
