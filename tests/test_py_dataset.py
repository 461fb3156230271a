"""keras.utils.PyDataset through fit, evaluate and predict."""

import numpy as np
import pytest

import kerasmini as keras

X = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
Y = X.sum(axis=1, keepdims=True)


class Batches(keras.utils.PyDataset):
    def __init__(self, x, y=None, batch_size=16, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size
        self.epochs_ended = 0

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, index):
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[part] if self.y is None else (self.x[part], self.y[part])

    def on_epoch_end(self):
        self.epochs_ended += 1


def model():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return m


def test_fit_on_a_py_dataset_with_validation_dataset():
    train, val = Batches(X, Y), Batches(X[:32], Y[:32])
    history = model().fit(train, validation_data=val, epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert "val_loss" in history.history and train.epochs_ended == 3


def test_same_training_as_arrays_without_shuffling():
    keras.utils.set_random_seed(1)
    a = model()
    keras.utils.set_random_seed(1)
    b = model()
    from_arrays = a.fit(X, Y, batch_size=16, shuffle=False, epochs=2, verbose=0)
    from_dataset = b.fit(Batches(X, Y), shuffle=False, epochs=2, verbose=0)
    np.testing.assert_allclose(from_arrays.history["loss"],
                               from_dataset.history["loss"], rtol=1e-6)


def test_evaluate_and_predict_on_py_datasets():
    m = model()
    loss = m.evaluate(Batches(X, Y), verbose=0)
    assert loss == pytest.approx(m.evaluate(X, Y, verbose=0), rel=1e-6)
    predictions = m.predict(Batches(X), verbose=0)
    np.testing.assert_allclose(predictions, m.predict(X, verbose=0), rtol=1e-6)


def test_steps_per_epoch_caps_a_py_dataset():
    history = model().fit(Batches(X, Y), epochs=1, steps_per_epoch=2, verbose=0)
    assert len(history.history["loss"]) == 1


def test_py_dataset_refuses_y_and_validation_split():
    with pytest.raises(ValueError, match="provides the targets"):
        model().fit(Batches(X, Y), Y, verbose=0)
    with pytest.raises(ValueError, match="only supported for arrays"):
        model().fit(Batches(X, Y), validation_split=0.2, verbose=0)


def test_py_dataset_without_len_says_so():
    with pytest.raises(NotImplementedError, match="must implement `__len__`"):
        model().fit(keras.utils.PyDataset(), verbose=0)
