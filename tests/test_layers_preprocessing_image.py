"""The image preprocessing layers: values against NumPy and closed forms, the
layer contract (symbolic shapes, configs, ``.keras`` round trips), gradients,
random draws (seeded, active only in training, their distributions), errors,
and keras.io's "Image classification from scratch" model on small images.

Keras 3.15.1's own outputs are compared in ``test_layers_preprocessing_keras.py``
(``make interop``)."""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients
from test_backend_ops import check_grads

import kerasmini as keras
from kerasmini import layers
from kerasmini.backend import image_resize

RNG = np.random.default_rng(0)


def _images(*shape, dtype="float32"):
    return RNG.uniform(0, 1, size=shape).astype(dtype)


# ---------------------------------------------------------------- contract
DETERMINISTIC = [
    (lambda: layers.Rescaling(1 / 255.0, offset=-0.5), (2, 4, 5, 3)),
    (lambda: layers.Rescaling(np.array([1.0, 2.0, 3.0])), (2, 4, 5, 3)),
    (lambda: layers.Resizing(3, 7), (2, 5, 6, 3)),
    (lambda: layers.Resizing(4, 4, interpolation="bicubic",
                             crop_to_aspect_ratio=True), (2, 5, 8, 1)),
    (lambda: layers.Resizing(4, 4, pad_to_aspect_ratio=True, fill_value=0.5),
     (2, 5, 8, 1)),
    (lambda: layers.Resizing(3, 2, data_format="channels_first"), (2, 3, 5, 6)),
    (lambda: layers.CenterCrop(3, 4), (2, 5, 6, 3)),
    (lambda: layers.CenterCrop(6, 4), (2, 5, 6, 3)),
]

RANDOM = [  # at inference: the identity, or RandomCrop's crop-and-resize
    (lambda: layers.RandomFlip(seed=1), (2, 4, 5, 3)),
    (lambda: layers.RandomRotation(0.2, seed=2), (2, 4, 5, 3)),
    (lambda: layers.RandomZoom(0.2, 0.3, seed=3), (2, 4, 5, 3)),
    (lambda: layers.RandomTranslation(0.2, (-0.1, 0.3), seed=4), (2, 4, 5, 3)),
    (lambda: layers.RandomCrop(3, 3, seed=5), (2, 4, 5, 3)),
    (lambda: layers.RandomContrast(0.4, seed=6), (2, 4, 5, 3)),
]


@pytest.mark.parametrize("make, shape", DETERMINISTIC)
def test_deterministic_layers_keep_the_layer_contract(tmp_path, make, shape):
    check_layer(make, _images(*shape), tmp_path)


@pytest.mark.parametrize("make, shape", RANDOM)
def test_random_layers_keep_the_layer_contract_at_inference(tmp_path, make, shape):
    x = _images(*shape)
    out = check_layer(make, x, tmp_path, call_kwargs={"training": False})
    if not isinstance(make(), layers.RandomCrop):
        np.testing.assert_array_equal(out, x)


@pytest.mark.parametrize("make, shape", DETERMINISTIC[:7])
def test_deterministic_layers_gradients_match_finite_differences(make, shape):
    layer = type(make()).from_config(dict(make().get_config(), dtype="float64"))
    check_layer_gradients(layer, RNG.normal(size=(1,) + shape[1:]))


# -------------------------------------------------------------- rescaling
def test_rescaling_integers_become_floats_scaled_and_offset():
    out = layers.Rescaling(1 / 127.5, offset=-1)(np.array([[0, 255, 51]], "uint8"))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[-1.0, 1.0, -0.6]], rtol=1e-6)


def test_rescaling_config_writes_an_array_as_keras_does():
    config = layers.Rescaling(np.array([1.0, 2.0])).get_config()
    assert config["scale"] == {"class_name": "__numpy__",
                               "config": {"value": [1.0, 2.0], "dtype": "float64"}}
    assert config["offset"] == 0.0


# --------------------------------------------------------------- resizing
@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic", "area",
                                    "lanczos3", "lanczos5"])
def test_resizing_is_image_resize_for_every_method(method):
    x = _images(2, 5, 7, 3)
    out = layers.Resizing(4, 9, interpolation=method)(x)
    want = np.stack([image_resize.resize(image, (4, 9), method) for image in x])
    np.testing.assert_allclose(out, want, atol=1e-6)


def test_resizing_integers_round_and_saturate_in_their_dtype():
    x = np.array([[0, 255, 0, 255]], "uint8").reshape(1, 1, 4, 1)
    out = layers.Resizing(1, 8, interpolation="bicubic")(x)
    want = image_resize.resize(x[0].astype("float32"), (1, 8), "bicubic")
    assert out.dtype == np.uint8
    assert out[0].tolist() == np.clip(np.round(want), 0, 255).astype("uint8").tolist()
    assert want.max() > 255 and want.min() < 0  # bicubic overshoots: clipped


def test_resizing_crop_and_pad_keep_the_aspect_ratio():
    x = np.arange(2 * 8.0).reshape(1, 2, 8, 1)
    cropped = layers.Resizing(2, 2, crop_to_aspect_ratio=True,
                              interpolation="nearest")(x)
    assert cropped[0, :, :, 0].tolist() == [[3.0, 4.0], [11.0, 12.0]]
    padded = layers.Resizing(8, 8, pad_to_aspect_ratio=True, fill_value=-1.0,
                             interpolation="nearest")(x)
    # the 2 x 8 image padded to 8 x 8 with 3 rows of fill above and below
    assert (padded[0, :3] == -1).all() and (padded[0, 5:] == -1).all()
    np.testing.assert_array_equal(padded[0, 3:5], x[0])


def test_resizing_unbatched_and_channels_first():
    x = _images(5, 6, 3)
    np.testing.assert_allclose(layers.Resizing(2, 3)(x),
                               layers.Resizing(2, 3)(x[None])[0])
    first = layers.Resizing(2, 3, data_format="channels_first")(x.transpose(2, 0, 1))
    np.testing.assert_allclose(first.transpose(1, 2, 0), layers.Resizing(2, 3)(x),
                               atol=1e-7)


def test_resizing_antialias_filters_when_shrinking():
    x = np.zeros((1, 1, 8, 1), "float32")
    x[0, 0, ::4] = 1.0  # a spike every 4 pixels: plain bilinear reads between them
    plain = layers.Resizing(1, 2)(x)[0, 0, :, 0]
    smooth = layers.Resizing(1, 2, antialias=True)(x)[0, 0, :, 0]
    assert plain.tolist() == [0.0, 0.0]
    assert ((smooth > 0.15) & (smooth < 0.35)).all()  # about the mean, 0.25


# ------------------------------------------------------------- centre crop
def test_center_crop_takes_the_centre_or_resizes_a_small_image():
    x = np.arange(5 * 6.0).reshape(1, 5, 6, 1)
    np.testing.assert_array_equal(layers.CenterCrop(3, 2)(x), x[:, 1:4, 2:4])
    small = layers.CenterCrop(4, 8)(x)  # narrower than wanted: crop 3 x 6, resize
    want = image_resize.resize(x[0, 1:4], (4, 8), "bilinear")
    np.testing.assert_allclose(small[0], want, atol=1e-6)
    assert layers.CenterCrop(3, 2)(x.astype("uint8")).dtype == np.float32


# ---------------------------------------------------------- random layers
def test_random_layers_transform_by_default_and_not_at_inference():
    x = _images(8, 6, 6, 3)
    for layer in (layers.RandomFlip(seed=1), layers.RandomRotation(0.3, seed=1),
                  layers.RandomZoom(0.3, seed=1), layers.RandomTranslation(0.3, 0.3),
                  layers.RandomContrast(0.5)):
        assert not np.allclose(layer(x), x), layer  # Keras 3: training=True default
        np.testing.assert_array_equal(layer(x, training=False), x)


def test_inside_a_model_predict_is_inference_and_fit_augments():
    x = _images(8, 6, 6, 1)
    flip = layers.RandomFlip("horizontal", seed=1)
    model = keras.Sequential([keras.Input((6, 6, 1)), flip])
    np.testing.assert_array_equal(model.predict(x, verbose=0), x)
    np.testing.assert_array_equal(model(x, training=False), x)
    assert not np.array_equal(model(x), x)  # no training given: the layer's default
    model = keras.Sequential([keras.Input((6, 6, 1)), flip, layers.Flatten(),
                              layers.Dense(1)])
    model.compile("sgd", "mse")
    state = flip.generator.state.numpy()[1]
    model.fit(x, np.zeros((8, 1)), batch_size=2, epochs=2, verbose=0)  # traced
    assert flip.generator.state.numpy()[1] == state + 8  # one draw per step


def test_a_seed_repeats_the_draws_and_the_generator_moves_on():
    x = _images(16, 5, 5, 3)
    for make in (lambda: layers.RandomFlip(seed=7), lambda: layers.RandomRotation(
            0.4, seed=7), lambda: layers.RandomContrast(0.5, seed=7),
            lambda: layers.RandomCrop(3, 3, seed=7)):
        a, b = make(), make()
        first = a(x)
        np.testing.assert_array_equal(first, b(x))
        assert not np.array_equal(first, a(x))


def test_random_flip_flips_each_image_or_not_about_half_the_time():
    x = _images(400, 3, 4, 1)
    out = layers.RandomFlip("horizontal_and_vertical", seed=2)(x)
    both = x[:, ::-1, ::-1]
    same = np.all(out == x, axis=(1, 2, 3))
    flipped = np.all(out == both, axis=(1, 2, 3))
    assert (same | flipped).all()  # one draw decides both flips (Keras 3)
    assert 160 < flipped.sum() < 240
    horizontal = layers.RandomFlip("horizontal", seed=2)(x)
    assert np.all((horizontal == x) | (horizontal == x[:, :, ::-1]))
    vertical = layers.RandomFlip("vertical", seed=2)(x[0])  # one image
    assert vertical.shape == (3, 4, 1)


def test_random_rotation_angles_are_uniform_in_the_factor_range():
    layer = layers.RandomRotation((-0.1, 0.2), seed=3)
    t = layer.get_random_transformation(np.zeros((4000, 5, 5, 1)))
    angles = np.asarray(t["angle"])
    assert angles.min() >= -36.0 and angles.max() <= 72.0
    assert abs(angles.mean() - 18.0) < 1.5 and abs(angles.std() - 108 / 12 ** 0.5) < 2


def test_random_rotation_by_a_fixed_half_turn_and_quarter_turn():
    x = _images(2, 5, 5, 2)
    half = layers.RandomRotation((0.5, 0.5))(x)
    np.testing.assert_allclose(half, x[:, ::-1, ::-1], atol=1e-5)
    quarter = layers.RandomRotation((0.25, 0.25), interpolation="nearest")(x)
    # positive angles turn counter-clockwise
    np.testing.assert_array_equal(quarter, np.rot90(x, k=1, axes=(1, 2)))


def test_random_zoom_with_a_fixed_factor():
    x = _images(1, 5, 5, 1)
    # zoom in by half: x' = 0.5 x + 1, a 3 x 3 centre stretched over 5 x 5
    out = layers.RandomZoom((-0.5, -0.5), interpolation="nearest")(x)
    rows = np.round(0.5 * np.arange(5) + 1).astype(int)
    np.testing.assert_array_equal(out[0], x[0][rows][:, rows])
    wide = layers.RandomZoom((-0.5, -0.5), width_factor=(0.0, 0.0),
                             interpolation="nearest")(x)
    np.testing.assert_array_equal(wide[0], x[0][rows])


def test_random_zoom_draws_width_like_height_without_width_factor():
    t = layers.RandomZoom(0.4, seed=1).get_random_transformation(np.zeros((50, 4, 4, 1)))
    np.testing.assert_array_equal(t["height_zoom"], t["width_zoom"])
    assert 0.6 <= np.min(t["height_zoom"]) and np.max(t["height_zoom"]) <= 1.4


def test_random_translation_by_whole_pixels_shifts_and_fills():
    x = np.arange(12.0).reshape(1, 3, 4, 1)
    layer = layers.RandomTranslation((1 / 3, 1 / 3), (0.5, 0.5), fill_mode="constant",
                                     fill_value=-1.0)
    out = layer(x)[0, :, :, 0]  # one row down, two columns right
    assert out.tolist() == [[-1, -1, -1, -1], [-1, -1, 0, 1], [-1, -1, 4, 5]]


def test_random_crop_takes_a_window_of_the_batch_in_training():
    x = np.arange(2 * 6 * 7.0).reshape(2, 6, 7, 1)
    layer = layers.RandomCrop(3, 4, seed=3)
    corners = set()
    for _ in range(30):
        out = layer(x)
        top, left = divmod(int(out[0, 0, 0, 0]), 7)
        np.testing.assert_array_equal(out, x[:, top:top + 3, left:left + 4])
        corners.add((top, left))
    assert len(corners) > 6 and all(t <= 3 and c <= 3 for t, c in corners)


def test_random_crop_at_inference_and_on_small_images_crops_to_aspect_and_resizes():
    x = _images(2, 6, 9, 1)
    want = np.stack([image_resize.resize(image[:, 1:7], (4, 4), "bilinear")
                     for image in x])  # centred 6 x 6, resized
    np.testing.assert_allclose(layers.RandomCrop(4, 4)(x, training=False), want,
                               atol=1e-6)
    small = _images(2, 3, 9, 1)  # not taller than the target: same in training
    np.testing.assert_allclose(
        layers.RandomCrop(4, 4)(small),
        np.stack([image_resize.resize(i[:, 3:6], (4, 4), "bilinear") for i in small]),
        atol=1e-6)


def test_random_crop_records_a_drawn_seed_in_its_config():
    config = layers.RandomCrop(2, 2).get_config()
    assert isinstance(config["seed"], int)
    assert layers.RandomCrop.from_config(config).seed == config["seed"]


def test_random_contrast_keeps_the_means_and_stretches_within_the_range():
    x = RNG.uniform(100, 150, size=(200, 4, 4, 3)).astype("float32")
    layer = layers.RandomContrast((0.3, 0.5), seed=4)
    factor = np.asarray(layer.get_random_transformation(x)["contrast_factor"])
    assert factor.shape == (200, 1, 1, 1)
    assert 0.7 <= factor.min() and factor.max() <= 1.5
    out = layer.transform_images(x, {"contrast_factor": factor})
    np.testing.assert_allclose(out.mean(axis=(1, 2)), x.mean(axis=(1, 2)), atol=1e-3)
    spread = out.std(axis=(1, 2)) / x.std(axis=(1, 2))
    np.testing.assert_allclose(spread, np.broadcast_to(factor[:, 0, 0], spread.shape),
                               rtol=1e-4)
    bright = layers.RandomContrast((0, 1), value_range=(0, 1), seed=1)(x / 150)
    assert bright.min() >= 0 and bright.max() <= 1
    # a single factor f means (0, f): the contrast only grows (as in Keras 3)
    assert layers.RandomContrast(0.2).factor == (0, 0.2)


def test_random_contrast_at_inference_keeps_the_dtype():
    x = np.array([[[[50], [150]]]], "uint8")
    assert layers.RandomContrast(0.5)(x, training=False).dtype == np.uint8
    assert layers.RandomContrast(0.5)(x).dtype == np.float32


@pytest.mark.parametrize("make, key", [
    (lambda: layers.RandomRotation(0.3, fill_mode="constant"), None),
    (lambda: layers.RandomZoom(0.3, fill_mode="wrap"), None),
    (lambda: layers.RandomTranslation(0.3, 0.2, interpolation="nearest"), None),
    (lambda: layers.RandomContrast(0.3), None),
    (lambda: layers.RandomFlip(), None),
])
def test_a_drawn_transformation_transforms_differentiably(make, key):
    layer = make()
    layer = type(layer).from_config(dict(layer.get_config(), dtype="float64"))
    x = RNG.normal(size=(2, 4, 5, 2))
    transformation = layer.get_random_transformation(x, training=True)
    check_grads(lambda images: layer.transform_images(images, transformation), x,
                wrt=[0])


def test_channels_first_random_layers_match_channels_last():
    x = _images(3, 4, 5, 2)
    for make in (lambda f: layers.RandomRotation(0.3, seed=1, data_format=f),
                 lambda f: layers.RandomZoom(0.3, seed=1, data_format=f),
                 lambda f: layers.RandomFlip(seed=1, data_format=f),
                 lambda f: layers.RandomContrast(0.3, seed=1, data_format=f)):
        last = make("channels_last")(x)
        first = make("channels_first")(x.transpose(0, 3, 1, 2))
        np.testing.assert_allclose(first.transpose(0, 2, 3, 1), last, atol=1e-6)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("make, error, match", [
    (lambda: layers.Resizing(0, 3), ValueError, "Resizing: argument `height`"),
    (lambda: layers.Resizing(3, 2.5), TypeError, "argument `width` must be an int"),
    (lambda: layers.Resizing(3, 3, interpolation="cubic"), ValueError,
     "argument `interpolation` must be one of"),
    (lambda: layers.Resizing(3, 3, crop_to_aspect_ratio=True,
                             pad_to_aspect_ratio=True), ValueError, "only one of"),
    (lambda: layers.Resizing(3, 3, fill_mode="reflect"), ValueError, "`fill_mode`"),
    (lambda: layers.Resizing(3, 3, data_format="NHWC"), ValueError, "`data_format`"),
    (lambda: layers.CenterCrop(-1, 3), ValueError, "CenterCrop: argument `height`"),
    (lambda: layers.RandomFlip("diagonal"), ValueError,
     "RandomFlip: argument `mode` must be one of"),
    (lambda: layers.RandomRotation(1.5), ValueError,
     r"RandomRotation: the `factor` argument .* \[-1, 1\]. Received: factor=1.5"),
    (lambda: layers.RandomRotation("a"), ValueError, "Received: factor='a'"),
    (lambda: layers.RandomRotation(0.1, fill_mode="edge"), ValueError, "`fill_mode`"),
    (lambda: layers.RandomRotation(0.1, interpolation="bicubic"), ValueError,
     "`interpolation`"),
    (lambda: layers.RandomZoom(-1.0), ValueError,
     r"RandomZoom: .* \(-1.0, 1.0\]. Received: height_factor=-1.0"),
    (lambda: layers.RandomZoom(0.1, (0.1, 0.2, 0.3)), ValueError,
     "Received: width_factor"),
    (lambda: layers.RandomTranslation(0.1, 1.2), ValueError,
     r"\[-1.0, 1.0\]. Received: width_factor=1.2"),
    (lambda: layers.RandomCrop(2, 0), ValueError, "RandomCrop: argument `width`"),
    (lambda: layers.RandomContrast(-0.5), ValueError, r"in the range \[0, 1\]"),
    (lambda: layers.RandomContrast(0.5, value_range=(0,)), ValueError,
     "argument `value_range`"),
    (lambda: layers.Rescaling("x"), ValueError, "Rescaling: argument `scale`"),
    (lambda: layers.Rescaling(1.0, offset=[None]), TypeError, "argument `offset`"),
    (lambda: layers.RandomFlip(bounding_box_format="xyxy"), ValueError,
     "transform images only"),
])
def test_constructor_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.parametrize("layer", [
    layers.Resizing(2, 2), layers.CenterCrop(2, 2), layers.RandomFlip(),
    layers.RandomRotation(0.1), layers.RandomZoom(0.1), layers.RandomCrop(2, 2),
    layers.RandomContrast(0.1), layers.RandomTranslation(0.1, 0.1),
])
def test_images_of_the_wrong_rank_are_refused_eagerly_and_symbolically(layer):
    match = r"expected image tensor to have rank 3 .* data.shape=\(4, 4\)"
    with pytest.raises(ValueError, match=match):
        layer(np.zeros((4, 4), "float32"))
    with pytest.raises(ValueError, match=r"rank 3 .* data.shape=\(None, 4\)"):
        layer(keras.Input((4,)))
    with pytest.raises(ValueError, match="not a dict of images"):
        layer({"images": np.zeros((1, 4, 4, 1))})


# ------------------------------------------------------------------- keras.io
def test_keras_io_image_classification_from_scratch_model_trains(tmp_path):
    # keras.io/examples/vision/image_classification_from_scratch/: the data
    # augmentation and the model's entry block as written there (its
    # SeparableConv2D blocks replaced by one Conv2D block: kerasmini has
    # none), on 32 digits (zeros and ones) upscaled to 18 x 18 x 3
    (x, y), _ = keras.datasets.digits.load_data()
    keep = np.flatnonzero(y < 2)[:32]
    images = np.repeat(x[keep][:, :, :, None], 3, axis=-1).astype("float32")
    images = layers.Resizing(18, 18)(images)
    labels = y[keep].astype("int64")
    image_size = (18, 18)

    data_augmentation_layers = [
        layers.RandomFlip("horizontal"),
        layers.RandomRotation(0.1),
    ]

    def data_augmentation(images):
        for layer in data_augmentation_layers:
            images = layer(images)
        return images

    augmented = data_augmentation(images)
    assert augmented.shape == images.shape and not np.allclose(augmented, images)

    def make_model(input_shape, num_classes):
        inputs = keras.Input(shape=input_shape)

        # Entry block
        x = layers.Rescaling(1.0 / 255)(inputs)
        x = layers.Conv2D(8, 3, strides=2, padding="same")(x)
        x = layers.BatchNormalization()(x)
        x = layers.Activation("relu")(x)
        x = layers.GlobalAveragePooling2D()(x)
        if num_classes == 2:
            units = 1
        else:
            units = num_classes

        x = layers.Dropout(0.25)(x)
        # We specify activation=None so as to return logits
        outputs = layers.Dense(units, activation=None)(x)
        return keras.Model(inputs, outputs)

    model = make_model(input_shape=image_size + (3,), num_classes=2)
    augmented_model = keras.Sequential([keras.Input(image_size + (3,))] +
                                       data_augmentation_layers + [model])
    augmented_model.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy(name="acc")],
    )
    history = augmented_model.fit(images, labels, epochs=20, batch_size=8, verbose=0)
    losses = history.history["loss"]
    assert np.mean(losses[-3:]) < losses[0] - 0.05  # noisy (augmented) but falling
    augmented_model.save(tmp_path / "augmented.keras")
    restored = keras.saving.load_model(tmp_path / "augmented.keras")
    np.testing.assert_allclose(restored.predict(images, verbose=0),
                               augmented_model.predict(images, verbose=0), atol=1e-5)
