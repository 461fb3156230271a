"""The benchmarks' hand-written loops compute the same maths as kerasmini.

A benchmark that compares ``fit`` with a hand loop means something only when
the hand loop computes the same gradients: these tests hold the hand CNN of
``benchmarks/fit_digits.py`` to kerasmini's gradients of the same model, and
to finite differences.
"""

import numpy as np
import pytest

import kerasmini as keras
from benchmarks import fit_digits


def _batch(n=6, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.random((n, 8, 8, 1)).astype("float32")
    y = rng.integers(0, 10, n)
    return x, y


def _kerasmini_gradients(model, x, y):
    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    with keras.backend.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    weights = model.trainable_weights
    return float(loss), [np.asarray(g) for g in tape.gradient(loss, weights)]


def test_hand_cnn_gradients_are_kerasminis():
    model = fit_digits.make_cnn()
    x, y = _batch()
    loss, expected = _kerasmini_gradients(model, x, y)
    params = [np.array(w) for w in model.get_weights()]
    _, hand_loss, grads = fit_digits.cnn_step(params, x, y)
    assert hand_loss == pytest.approx(loss, rel=1e-5)
    for got, want in zip(grads, expected):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_hand_cnn_pool_gradient_stays_in_its_window():
    # the bug this guards against: windows mixed up in the max pool's backward
    params = [np.array(w, "float64") for w in fit_digits.make_cnn().get_weights()]
    x, y = _batch(n=2, seed=1)
    cols, conv, blocks, pooled, _ = fit_digits.cnn_forward(params, x.astype("float64"))
    _, _, grads = fit_digits.cnn_step(params, x.astype("float64"), y)
    # one kernel entry by central differences, float64
    k = params[0]
    for index in [(0, 0, 0, 0), (1, 1, 0, 3), (2, 1, 0, 7)]:
        eps = 1e-6
        k[index] += eps
        up = fit_digits.softmax_crossentropy(
            fit_digits.cnn_forward(params, x.astype("float64"))[-1], y)[1]
        k[index] -= 2 * eps
        down = fit_digits.softmax_crossentropy(
            fit_digits.cnn_forward(params, x.astype("float64"))[-1], y)[1]
        k[index] += eps
        assert grads[0][index] == pytest.approx((up - down) / (2 * eps), rel=1e-5,
                                                abs=1e-9)


def test_hand_lstm_gradients_are_kerasminis():
    from benchmarks import fit_lstm

    (x, y), _ = fit_lstm.load_sequences()
    x, y = x[:8], y[:8]
    model = fit_lstm.make_lstm(use_cudnn=False)  # eagerly: the cell's loop anyway
    loss, theirs = _kerasmini_gradients(model, x, y)
    _, hand_loss, ours = fit_lstm.lstm_step(model.get_weights(), x, y)
    assert hand_loss == pytest.approx(loss, rel=1e-6)
    for a, b in zip(theirs, ours):
        assert a.shape == b.shape
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-6 * max(1, np.abs(a).max()))


def test_hand_lstm_gradients_vs_finite_differences():
    from benchmarks import fit_lstm

    (x, y), _ = fit_lstm.load_sequences()
    x, y = x[:4].astype("float64"), y[:4]
    params = [np.array(w, "float64") for w in fit_lstm.make_lstm().get_weights()]
    _, _, grads = fit_lstm.lstm_step(params, x, y)
    rng = np.random.default_rng(0)
    eps = 1e-6
    for k, param in enumerate(params):
        for flat in rng.choice(param.size, 5, replace=False):
            index = np.unravel_index(flat, param.shape)
            saved = param[index]
            param[index] = saved + eps
            up = fit_lstm.lstm_step(params, x, y)[1]
            param[index] = saved - eps
            down = fit_lstm.lstm_step(params, x, y)[1]
            param[index] = saved
            assert (up - down) / (2 * eps) == pytest.approx(grads[k][index], abs=1e-7)


@pytest.mark.parametrize("inputs, depth", [(64, 1), (784, 2)])
def test_hand_mlp_gradients_are_kerasminis(inputs, depth):
    model = fit_digits.make_mlp(16, inputs=inputs, depth=depth)
    rng = np.random.default_rng(2)
    x = rng.random((6, inputs)).astype("float32")
    y = rng.integers(0, 10, 6)
    loss, expected = _kerasmini_gradients(model, x, y)
    params = [np.array(w) for w in model.get_weights()]
    _, hand_loss, grads = fit_digits.mlp_step(params, x, y)
    assert hand_loss == pytest.approx(loss, rel=1e-5)
    for got, want in zip(grads, expected):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_the_enlarged_digits_are_the_digits_pixel_by_pixel():
    (small, labels), _ = fit_digits.load_digits()
    (large, same_labels), _ = fit_digits.load_digits_784()
    assert large.shape == (len(small), 784)
    np.testing.assert_array_equal(labels, same_labels)
    images = large.reshape(-1, 28, 28)
    np.testing.assert_array_equal(images[:, 2:26:3, 2:26:3].reshape(-1, 64), small)
    assert not images[:, :2].any() and not images[:, 26:].any()
