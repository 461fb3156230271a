"""The image helpers (Pillow) and ``image_dataset_from_directory``: files,
labels, splits and batches as Keras makes them; the resizing arithmetic
against closed-form results (``make interop`` compares it with TensorFlow)."""

import os

import numpy as np
import pytest
from PIL import Image

import kerasmini as keras
from kerasmini.backend import image_resize
from kerasmini.datasets import image_dataset
from kerasmini.utils import image_utils
from kerasmini.utils.image_utils import array_to_img, img_to_array, load_img, save_img


def write_images(root, counts, size=(6, 8), mode="RGB", ext="png", seed=0):
    """``{class: n}`` -> root/class/img_i.ext with random pixels; returns arrays."""
    rng = np.random.RandomState(seed)
    arrays = {}
    channels = {"RGB": 3, "L": 1, "RGBA": 4}[mode]
    for cls, n in counts.items():
        os.makedirs(root / cls, exist_ok=True)
        for i in range(n):
            pixels = rng.randint(0, 256, size + (channels,)).astype("uint8")
            img = Image.fromarray(pixels[..., 0] if mode == "L" else pixels, mode)
            path = root / cls / f"img_{i}.{ext}"
            img.save(path)
            arrays[str(path)] = pixels
    return arrays


# ----------------------------------------------------------- image helpers


def test_save_and_load_round_trip(tmp_path):
    pixels = np.random.RandomState(1).randint(0, 256, (5, 7, 3)).astype("float32")
    path = tmp_path / "a.png"
    save_img(path, pixels, scale=False)
    img = load_img(path)
    assert img.size == (7, 5) and img.mode == "RGB"
    np.testing.assert_array_equal(img_to_array(img), pixels)
    assert img_to_array(img).dtype == np.float32


def test_array_to_img_scales_to_0_255_and_picks_the_mode():
    x = np.array([[[-1.0], [1.0]]])
    assert np.asarray(array_to_img(x)).tolist() == [[0, 255]]
    assert array_to_img(np.zeros((2, 2, 4))).mode == "RGBA"
    assert array_to_img(np.full((2, 2, 1), 1000.0), scale=False).mode == "I"
    first = array_to_img(np.zeros((3, 2, 5)), data_format="channels_first")
    assert first.size == (5, 2)  # (width, height) of a (3, 2, 5)... channels first
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        array_to_img(np.zeros((2, 2, 2)))


def test_img_to_array_channels_first_and_grey():
    img = Image.fromarray(np.arange(6, dtype="uint8").reshape(2, 3), "L")
    assert img_to_array(img).shape == (2, 3, 1)
    assert img_to_array(img, data_format="channels_first").shape == (1, 2, 3)
    assert img_to_array(img, dtype="uint8").dtype == np.uint8


def test_load_img_color_modes_and_target_size(tmp_path):
    path = tmp_path / "c.png"
    Image.fromarray(np.full((4, 6, 3), 200, "uint8")).save(path)
    assert load_img(path, color_mode="grayscale").mode == "L"
    assert load_img(str(path), color_mode="rgba").mode == "RGBA"
    assert load_img(path, target_size=(2, 3)).size == (3, 2)
    with open(path, "rb") as f:
        import io
        assert load_img(io.BytesIO(f.read())).size == (6, 4)


def test_load_img_keep_aspect_ratio_crops_the_centre(tmp_path):
    pixels = np.zeros((4, 8, 3), "uint8")
    pixels[:, 2:6] = 255  # a white centre square, black sides
    path = tmp_path / "wide.png"
    Image.fromarray(pixels).save(path)
    kept = img_to_array(load_img(path, target_size=(2, 2), keep_aspect_ratio=True))
    squeezed = img_to_array(load_img(path, target_size=(2, 2)))
    assert kept.min() == 255 and squeezed.min() == 0


def test_save_img_jpeg_from_rgba_warns_and_converts(tmp_path):
    with pytest.warns(UserWarning, match="JPEG format does not support RGBA"):
        save_img(tmp_path / "x.jpg", np.ones((3, 3, 4)))
    assert load_img(tmp_path / "x.jpg").mode == "RGB"


@pytest.mark.parametrize("call, error, match", [
    (lambda p: load_img(p, color_mode="cmyk"), ValueError,
     'color_mode must be "grayscale", "rgb", or "rgba". Received: color_mode=\'cmyk\''),
    (lambda p: load_img(p, target_size=(2, 3), interpolation="cubic"), ValueError,
     "Invalid interpolation method cubic specified"),
    (lambda p: load_img(p, target_size=(0, 3)), ValueError,
     "`target_size` must be None or a pair of positive integers"),
    (lambda p: load_img(42), TypeError, "path should be path-like or io.BytesIO"),
    (lambda p: img_to_array(str(p)), TypeError, "use load_img"),
    (lambda p: array_to_img(np.zeros((2, 2))), ValueError, "rank 3"),
    (lambda p: array_to_img(np.zeros((2, 2, 3)), data_format="nhwc"), ValueError,
     "argument `data_format` must be one of"),
    (lambda p: save_img(p.parent / "x.unknownext", np.zeros((2, 2, 3))), ValueError,
     "Pillow cannot write the format 'unknownext'"),
])
def test_image_helpers_check_their_arguments(tmp_path, call, error, match):
    path = tmp_path / "ok.png"
    Image.fromarray(np.zeros((4, 6, 3), "uint8")).save(path)
    with pytest.raises(error, match=match):
        call(path)


def test_load_img_of_a_file_that_is_no_image(tmp_path):
    path = tmp_path / "fake.png"
    path.write_bytes(b"no image here")
    with pytest.raises(ValueError, match="cannot identify the image in .*fake.png"):
        load_img(path)


def test_without_pillow_the_error_names_the_extra(monkeypatch):
    monkeypatch.setattr(image_utils, "pil_image", None)
    with pytest.raises(ImportError, match=r"`load_img` requires Pillow.*"
                       r"pip install kerasmini\[image\]"):
        load_img("x.png")
    with pytest.raises(ImportError, match="`image_dataset_from_directory` requires"):
        keras.utils.image_dataset_from_directory(".")


# ------------------------------------------------------------------ resizing


def test_resize_bilinear_of_a_ramp_is_the_ramp_at_the_new_centres():
    ramp = np.arange(8, dtype="float64").reshape(1, 8, 1)
    out = image_resize.resize(ramp, (1, 4), "bilinear")[0, :, 0]
    # pixel centres of the 4 outputs sit at 1.5, 3.5, 5.5, 7.5 halves: 0.5 + 2 o
    np.testing.assert_allclose(out, [0.5, 2.5, 4.5, 6.5])


def test_resize_area_by_two_is_the_block_mean():
    image = np.random.RandomState(0).rand(6, 4, 2)
    out = image_resize.resize(image, (3, 2), "area")
    want = image.reshape(3, 2, 2, 2, 2).mean(axis=(1, 3))
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_resize_nearest_keeps_the_dtype_and_repeats_pixels():
    image = np.arange(4, dtype="uint8").reshape(2, 2, 1)
    out = image_resize.resize(image, (4, 4), "nearest")
    assert out.dtype == np.uint8
    assert out[..., 0].tolist() == [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]


@pytest.mark.parametrize("method", image_resize.INTERPOLATIONS)
def test_every_method_keeps_a_constant_image_constant(method):
    out = image_resize.resize(np.full((5, 7, 3), 42, "uint8"), (3, 9), method)
    np.testing.assert_allclose(out, 42, rtol=1e-6)


def test_crop_and_pad_keep_the_aspect_ratio():
    wide = np.ones((4, 8, 1))
    assert image_resize.crop_to_aspect_ratio(wide, (2, 2)).shape == (4, 4, 1)
    padded = image_resize.resize_with_pad(wide, (4, 4))
    assert padded[..., 0].tolist() == [[0] * 4, [1] * 4, [1] * 4, [0] * 4]


# ------------------------------------------------ image_dataset_from_directory


def test_image_dataset_batches_labels_and_class_names(tmp_path, capsys):
    arrays = write_images(tmp_path, {"cats": 3, "dogs": 2})
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, image_size=(6, 8), batch_size=2, shuffle=False)
    assert "Found 5 files belonging to 2 classes." in capsys.readouterr().out
    assert isinstance(ds, keras.utils.PyDataset) and len(ds) == 3
    assert ds.class_names == ["cats", "dogs"]
    assert [os.path.basename(p) for p in ds.file_paths] == \
        ["img_0.png", "img_1.png", "img_2.png", "img_0.png", "img_1.png"]
    x, y = ds[0]
    assert x.shape == (2, 6, 8, 3) and x.dtype == np.float32
    assert y.dtype == np.int32 and y.tolist() == [0, 0]
    np.testing.assert_array_equal(x[0], arrays[ds.file_paths[0]])  # same size: as is
    batches = list(ds)
    assert [b[1].tolist() for b in batches] == [[0, 0], [0, 1], [1]]


@pytest.mark.parametrize("label_mode, shape, dtype", [
    ("categorical", (5, 3), np.float32), ("int", (5,), np.int32)])
def test_image_dataset_label_modes(tmp_path, label_mode, shape, dtype):
    write_images(tmp_path, {"a": 2, "b": 2, "c": 1})
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, label_mode=label_mode, image_size=(3, 3), batch_size=8, shuffle=False,
        verbose=False)
    _, y = ds[0]
    assert y.shape == shape and y.dtype == dtype
    if label_mode == "categorical":
        assert y.argmax(axis=1).tolist() == [0, 0, 1, 1, 2]


def test_image_dataset_binary_needs_two_classes(tmp_path):
    write_images(tmp_path, {"a": 1, "b": 1, "c": 1})
    with pytest.raises(ValueError, match="there must be exactly 2 class_names"):
        keras.utils.image_dataset_from_directory(tmp_path, label_mode="binary")
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, label_mode="binary", class_names=["c", "a"], image_size=(2, 2),
        shuffle=False, verbose=False)
    assert ds.class_names == ["c", "a"] and ds[0][1].tolist() == [[0.0], [1.0]]


def test_image_dataset_without_labels_and_with_given_labels(tmp_path):
    write_images(tmp_path, {"a": 2, "b": 1})
    plain = keras.utils.image_dataset_from_directory(
        tmp_path, labels=None, image_size=(2, 2), shuffle=False, verbose=False)
    assert plain[0].shape == (3, 2, 2, 3) and plain.class_names is None
    given = keras.utils.image_dataset_from_directory(
        tmp_path, labels=[5, 7, 5], image_size=(2, 2), shuffle=False, verbose=False)
    assert given.class_names == ["5", "7"] and given[0][1].tolist() == [5, 7, 5]


def test_image_dataset_shuffle_is_keras_s_seeded_order(tmp_path):
    write_images(tmp_path, {"a": 4, "b": 4})
    ordered = keras.utils.image_dataset_from_directory(
        tmp_path, shuffle=False, image_size=(2, 2), verbose=False).file_paths
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, seed=42, image_size=(2, 2), batch_size=3, verbose=False)
    order = list(ordered)
    np.random.RandomState(42).shuffle(order)
    assert ds.file_paths == order
    first = [p for batch in ds for p in batch[1].tolist()]
    second = [p for batch in ds for p in batch[1].tolist()]  # reshuffled
    assert sorted(first) == sorted(second) == [0] * 4 + [1] * 4


def test_image_dataset_validation_split_both(tmp_path, capsys):
    write_images(tmp_path, {"a": 5, "b": 5})
    train, val = keras.utils.image_dataset_from_directory(
        tmp_path, validation_split=0.2, subset="both", seed=1337, image_size=(4, 4),
        batch_size=4)
    out = capsys.readouterr().out
    assert "Using 8 files for training." in out and "Using 2 files for validation." in out
    assert len(train.file_paths) == 8 and len(val.file_paths) == 2
    assert not set(train.file_paths) & set(val.file_paths)
    alone = keras.utils.image_dataset_from_directory(
        tmp_path, validation_split=0.2, subset="validation", seed=1337,
        image_size=(4, 4), verbose=False)
    assert alone.file_paths == val.file_paths


@pytest.mark.parametrize("kwargs, method", [
    ({"crop_to_aspect_ratio": True}, "crop"), ({"pad_to_aspect_ratio": True}, "pad"),
    ({"interpolation": "nearest"}, "nearest"), ({}, "plain")])
def test_image_dataset_resizes_as_image_resize(tmp_path, kwargs, method):
    arrays = write_images(tmp_path, {"a": 1}, size=(5, 9))
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, image_size=(4, 4), shuffle=False, verbose=False, **kwargs)
    got = ds[0][0][0]
    image = arrays[ds.file_paths[0]]
    if method == "crop":
        want = image_resize.resize(image_resize.crop_to_aspect_ratio(image, (4, 4)),
                                   (4, 4), "bilinear")
    elif method == "pad":
        want = image_resize.resize_with_pad(image, (4, 4))
    else:
        want = image_resize.resize(image, (4, 4), kwargs.get("interpolation", "bilinear"))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == (np.uint8 if method == "nearest" else np.float32)


def test_image_dataset_grayscale_rgba_and_channels_first(tmp_path):
    write_images(tmp_path, {"a": 2}, mode="RGBA")
    grey = keras.utils.image_dataset_from_directory(
        tmp_path, color_mode="grayscale", image_size=(3, 3), verbose=False)
    rgba = keras.utils.image_dataset_from_directory(
        tmp_path, color_mode="rgba", image_size=(3, 3), verbose=False,
        data_format="channels_first")
    assert grey[0][0].shape == (2, 3, 3, 1) and rgba[0][0].shape == (2, 4, 3, 3)


def test_image_dataset_reads_every_allowed_format(tmp_path):
    for ext in ("png", "jpg", "bmp", "gif"):
        write_images(tmp_path / ext, {"c": 1}, ext=ext)
    (tmp_path / "png" / "c" / "notes.txt").write_text("not an image")
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, labels=None, image_size=(2, 2), verbose=False)
    assert len(ds.file_paths) == 4


def test_image_dataset_trains_a_model(tmp_path):
    write_images(tmp_path, {"a": 4, "b": 4}, size=(8, 8))
    ds = keras.utils.image_dataset_from_directory(
        tmp_path, image_size=(8, 8), batch_size=4, seed=0, verbose=False)
    model = keras.Sequential([keras.Input((8, 8, 3)), keras.layers.Flatten(),
                              keras.layers.Dense(2, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy")
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


@pytest.mark.parametrize("kwargs, error, match", [
    ({"labels": "auto"}, ValueError, "`labels` argument should be a list/tuple"),
    ({"labels": [0, 1], "class_names": ["a"]}, ValueError,
     "You can only pass `class_names` if `labels=\"inferred\"`"),
    ({"color_mode": "cmyk"}, ValueError, "`color_mode` must be one of"),
    ({"image_size": (4,)}, ValueError, "Invalid `image_size` value"),
    ({"interpolation": "cubic"}, ValueError, "Argument `interpolation` should be"),
    ({"crop_to_aspect_ratio": True, "interpolation": "gaussian"}, ValueError,
     "Invalid value for argument `interpolation`"),
    ({"crop_to_aspect_ratio": True, "pad_to_aspect_ratio": True}, ValueError,
     "Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio`"),
    ({"validation_split": 0.2, "subset": "training"}, ValueError,
     "you must provide a `seed`"),
    ({"validation_split": 1.5, "subset": "training", "seed": 1}, ValueError,
     "`validation_split` must be between 0 and 1"),
    ({"subset": "test", "validation_split": 0.2, "seed": 1}, ValueError,
     "`subset` must be either"),
    ({"class_names": ["zebra"]}, ValueError,
     "The `class_names` passed did not match"),
    ({"batch_size": 0}, ValueError, "argument `batch_size` must be an integer >= 1"),
    ({"format": "torch"}, ValueError, '`format` should be either "tf" or "grain"'),
    ({"labels": [0]}, ValueError, "Expected the lengths of `labels` to match"),
])
def test_image_dataset_checks_its_arguments(tmp_path, kwargs, error, match):
    write_images(tmp_path, {"a": 1, "b": 1})
    with pytest.raises(error, match=match):
        keras.utils.image_dataset_from_directory(tmp_path, verbose=False, **kwargs)


def test_image_dataset_of_an_empty_or_missing_folder(tmp_path):
    (tmp_path / "a").mkdir()
    with pytest.raises(ValueError, match="No images found in directory"):
        keras.utils.image_dataset_from_directory(tmp_path, verbose=False)
    with pytest.raises(ValueError, match="Expected `directory` to be an existing folder"):
        keras.utils.image_dataset_from_directory(tmp_path / "nothing")


def test_keras_io_image_classification_example_data_part_runs_unchanged(tmp_path,
                                                                       monkeypatch):
    # keras.io/examples/vision/image_classification_from_scratch/, "Generate a
    # Dataset" and "Visualize the data" without the plot: PetImages scaled down
    write_images(tmp_path / "PetImages", {"Cat": 6, "Dog": 4}, size=(12, 10), ext="jpg")
    monkeypatch.chdir(tmp_path)
    image_size = (18, 18)
    batch_size = 4

    train_ds, val_ds = keras.utils.image_dataset_from_directory(
        "PetImages",
        validation_split=0.2,
        subset="both",
        seed=1337,
        image_size=image_size,
        batch_size=batch_size,
    )
    images, labels = train_ds[0]
    assert images.shape == (4, 18, 18, 3) and labels.shape == (4,)
    assert len(val_ds.file_paths) == 2 and train_ds.class_names == ["Cat", "Dog"]
    assert image_dataset.ALLOWLIST_FORMATS[2] == ".jpeg"
