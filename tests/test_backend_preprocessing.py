"""The primitives behind the preprocessing layers (``backend/preprocessing.py``):
forward values against NumPy and closed forms, gradients against central
finite differences (float64), and replays of a traced function."""

import numpy as np
import pytest
from test_backend_ops import check_grads

from kerasmini.backend import Primitive, function
from kerasmini.backend import preprocessing as prep

RNG = np.random.default_rng(0)
COVERED = set()


def covers(*names):
    def mark(test):
        COVERED.update(names)
        return test
    return mark


def _identity():
    return np.array([[1.0, 0, 0, 0, 1, 0, 0, 0]])


def _shift_right(pixels):
    # each output pixel (x, y) reads the input at (x - pixels, y)
    return np.array([[1.0, 0, -pixels, 0, 1, 0, 0, 0]])


# -------------------------------------------------------- affine transform
def test_affine_identity_returns_the_image():
    images = RNG.normal(size=(2, 4, 5, 3)).astype("float32")
    for interpolation in prep.INTERPOLATIONS:
        out = prep.affine_transform(images, _identity(), interpolation=interpolation)
        np.testing.assert_array_equal(out, images)


@pytest.mark.parametrize("fill_mode, want", [
    # the row [0, 1, 2, 3] shifted two pixels right: what enters from the left
    ("reflect", [1, 0, 0, 1]),   # d c b a | a b c d
    ("mirror", [2, 1, 0, 1]),    # d c b | a b c d
    ("wrap", [2, 3, 0, 1]),      # a b c d | a b c d
    ("nearest", [0, 0, 0, 1]),   # a a a a | a b c d
    ("constant", [9, 9, 0, 1]),  # k k k k | a b c d
])
def test_affine_fill_modes(fill_mode, want):
    row = np.arange(4.0).reshape(1, 1, 4, 1)
    for interpolation in prep.INTERPOLATIONS:
        out = prep.affine_transform(row, _shift_right(2), interpolation=interpolation,
                                    fill_mode=fill_mode, fill_value=9.0)
        assert out[0, 0, :, 0].tolist() == want


def test_affine_bilinear_blends_and_constant_blends_the_fill():
    row = np.arange(4.0).reshape(1, 1, 4, 1)
    out = prep.affine_transform(row, _shift_right(0.25), fill_mode="constant",
                                fill_value=8.0)
    # x' = x - 0.25: 0.75 * row[x] + 0.25 * row[x - 1] (the fill left of 0)
    np.testing.assert_allclose(out[0, 0, :, 0], [0.25 * 8.0, 0.75, 1.75, 2.75])


def test_affine_nearest_rounds_half_to_even():
    row = np.arange(4.0).reshape(1, 1, 4, 1)
    out = prep.affine_transform(row, _shift_right(-0.5), interpolation="nearest",
                                fill_mode="nearest")
    # x' = x + 0.5 rounds to 0, 2, 2, 4 (clamped to 3)
    assert out[0, 0, :, 0].tolist() == [0.0, 2.0, 2.0, 3.0]


def test_affine_half_turn_about_the_centre():
    images = RNG.normal(size=(1, 3, 4, 2))
    half_turn = np.array([[-1.0, 0, 3, 0, -1, 2, 0, 0]])  # x' = 3 - x, y' = 2 - y
    out = prep.affine_transform(images, half_turn)
    np.testing.assert_allclose(out, images[:, ::-1, ::-1], atol=1e-6)


def test_affine_keeps_integer_dtypes_rounding():
    image = np.array([[[[1], [2]]]], "uint8")
    out = prep.affine_transform(image, _shift_right(0.5), fill_mode="nearest")
    assert out.dtype == np.uint8 and out[0, 0, :, 0].tolist() == [1, 2]


@covers("affine_transform")
@pytest.mark.parametrize("interpolation", prep.INTERPOLATIONS)
@pytest.mark.parametrize("fill_mode", prep.FILL_MODES)
def test_affine_gradient(interpolation, fill_mode):
    transform = np.array([[0.9, 0.3, 0.4, -0.2, 1.1, 0.7, 0, 0],
                          [1.2, 0.0, -1.3, 0.0, 0.8, 0.45, 0, 0]])
    check_grads(lambda x: prep.affine_transform(
        x, transform, interpolation=interpolation, fill_mode=fill_mode,
        fill_value=0.5), RNG.normal(size=(2, 4, 5, 2)), wrt=[0])


# -------------------------------------------------------------------- crop
def test_crop_images_reads_the_window_at_the_offsets():
    images = RNG.normal(size=(2, 5, 6, 1))
    out = prep.crop_images(images, np.array([1, 2]), height=3, width=2)
    np.testing.assert_array_equal(out, images[:, 1:4, 2:4])


@covers("crop_images")
def test_crop_images_gradient():
    check_grads(lambda x: prep.crop_images(x, np.array([2, 1]), height=2, width=3),
                RNG.normal(size=(2, 4, 5, 2)), wrt=[0])


def test_a_traced_crop_follows_its_offsets_at_every_replay():
    images = RNG.normal(size=(1, 4, 4, 1))
    crop = function(lambda x, at: prep.crop_images(x, at, height=2, width=2))
    for at in ([0, 0], [2, 1], [1, 2]):
        np.testing.assert_array_equal(crop(images, np.array(at)),
                                      images[:, at[0]:at[0] + 2, at[1]:at[1] + 2])
    assert crop.trace_count == 1


# --------------------------------------------------------- numpy function
def test_numpy_function_runs_on_values_and_replays():
    calls = []

    def count(x):
        calls.append(1)
        return np.asarray(x) * 2

    double = function(lambda x: prep.numpy_function(x, fn=count))
    assert double(np.array([1, 2])).tolist() == [2, 4]
    assert double(np.array([3, 4])).tolist() == [6, 8]
    assert double.trace_count == 1 and len(calls) == 2


def test_every_differentiable_primitive_here_has_a_gradient_test():
    names = {obj.name for obj in vars(prep).values()
             if isinstance(obj, Primitive) and obj.vjps is not None}
    assert names == {"affine_transform", "crop_images"}
    assert names <= COVERED
