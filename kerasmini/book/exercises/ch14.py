"""Checks of chapter 14's exercises (the capstone on the 8x8 digits)."""

import numpy as np

import kerasmini as keras

from ._support import Mistake, exercise, expect, fail


def _digits():
    """The digits as load_data gives them (uint8 images), and prepared as the
    chapter's model expects them: floats in [0, 1] with a channel axis."""
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()

    def prepare(images):
        return (images.astype("float32") / 255.0)[..., None]

    return (x_train, y_train), (x_test, y_test), prepare


def _linear_classifier():
    """A Flatten -> Dense(10) model with fixed weights whose biases matter, so
    that images not scaled as expected give other labels."""
    rng = np.random.default_rng(14)
    model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Flatten(),
                              keras.layers.Dense(10)])
    kernel = rng.normal(size=(64, 10)).astype("float32")
    bias = rng.normal(scale=3.0, size=(10,)).astype("float32")
    model.layers[-1].set_weights([kernel, bias])
    return model, kernel, bias


@exercise("ch14-predict-labels", "predict_labels")
def check_predict_labels(predict_labels):
    _, (raw_test, _), prepare = _digits()
    model, kernel, bias = _linear_classifier()
    raw = raw_test[:60]
    by_hand = (prepare(raw).reshape(len(raw), 64) @ kernel + bias).argmax(axis=1)
    try:
        got = predict_labels(model, raw)
    except ValueError as error:
        raise Mistake(f"the model refused the images ({error}): it expects "
                      "(n, 8, 8, 1), so add the channel axis") from error
    got = np.asarray(got)
    expect(got.shape == (60,), (
        f"expected 60 labels, got shape {got.shape}: one label per image, the "
        "argmax over the 10 classes"))
    expect(got.dtype.kind in "iu", f"expected integers, got {got.dtype}")
    unscaled = (raw.reshape(len(raw), 64).astype("float32") @ kernel
                + bias).argmax(axis=1)
    if np.array_equal(got, unscaled):
        fail("the labels are those of unscaled images: scale the uint8 pixels to "
             "[0, 1] (divide by 255) as the model expects")
    expect(np.array_equal(got, by_hand), (
        f"{int(np.sum(got != by_hand))} of 60 labels differ from the model's: scale "
        "to [0, 1] (/ 255), add the channel axis, take the argmax"))


@exercise("ch14-per-class", "per_class_accuracy")
def check_per_class(per_class_accuracy):
    rng = np.random.default_rng(15)
    y_true = rng.integers(0, 10, size=300)
    y_pred = np.where(rng.random(300) < 0.7, y_true, rng.integers(0, 10, size=300))
    y_pred[y_pred == 3] = 5  # no image is predicted a 3
    matrix = np.zeros((10, 10), dtype=int)
    np.add.at(matrix, (y_true, y_pred), 1)  # rows: true digit, columns: predicted
    want = matrix.diagonal() / matrix.sum(axis=1)
    got = per_class_accuracy(y_true, y_pred)
    expect(got is not None, "per_class_accuracy returned None: return ten floats")
    got = np.asarray(got, dtype=float)
    expect(got.shape == (10,), f"expected ten values, got shape {got.shape}")
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = matrix.diagonal() / matrix.sum(axis=0)
    if np.allclose(got, np.nan_to_num(precision)) or np.isnan(got).any():
        fail("these are fractions of the predictions of each digit (precision): "
             "divide by the number of test images of the digit")
    if np.allclose(got, matrix.diagonal()):
        fail("these are counts: divide by the number of images of each digit")
    expect(np.allclose(got, want), f"expected {want.round(3)}, got {got.round(3)}")
    overall = np.average(got, weights=matrix.sum(axis=1))
    expect(np.isclose(overall, np.mean(y_true == y_pred)), (
        "weighted by class sizes they should average to the accuracy"))


@exercise("ch14-small-net", "make_small_net")
def check_small_net(make_small_net):
    (x_train, y_train), (x_test, y_test), prepare = _digits()
    x_train, x_test = prepare(x_train), prepare(x_test)
    keras.utils.set_random_seed(0)
    small = make_small_net()
    expect(isinstance(small, keras.Model), (
        f"make_small_net should return a model, got {type(small).__name__}"))
    expect(small.compiled, "compile the model inside make_small_net")
    try:
        small(x_train[:1])
    except ValueError as error:
        raise Mistake(f"the model refused a batch of images of shape (1, 8, 8, 1) "
                      f"({error}): take the images as the chapter prepares them"
                      ) from error
    params = small.count_params()
    expect(params < 1000, f"{params} parameters: stay under 1,000")
    small.fit(x_train, y_train, epochs=10, batch_size=32, verbose=0)
    scores = np.asarray(small.predict(x_test, verbose=0))
    expect(scores.shape == (len(x_test), 10), (
        f"the model's output has shape {scores.shape}: one score per digit, "
        "(n, 10)"))
    accuracy = float(np.mean(scores.argmax(axis=1) == y_test))
    expect(accuracy >= 0.85, f"test accuracy {accuracy:.3f}, need at least 0.85")
    return f"{params} parameters, accuracy {accuracy:.3f}"
