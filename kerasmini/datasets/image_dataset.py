"""``keras.utils.image_dataset_from_directory``: a folder of images, one
sub-folder per class, as batches of ``(images, labels)``.

Keras 3 lists the files (:func:`kerasmini.utils.dataset_utils.index_directory`,
the same order and split), then reads and resizes them with TensorFlow.
kerasmini reads them with Pillow and resizes with NumPy
(:mod:`kerasmini.backend.image_resize`, TensorFlow's arithmetic), and returns a
``PyDataset`` (:mod:`kerasmini.datasets.batched`) instead of a
``tf.data.Dataset``: with ``shuffle=False`` its batches are Keras's.

It lives in ``datasets/`` rather than ``utils/`` because it returns a
``PyDataset`` (``trainers/``), and ``utils/`` stands below ``trainers/``.
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import image_resize, validation
from kerasmini.datasets.batched import BatchedDataset
from kerasmini.utils import dataset_utils, image_utils
from kerasmini.utils.errors import names_its_errors

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
CHANNELS = {"grayscale": 1, "rgb": 3, "rgba": 4}
# what Keras's crop path (its TensorFlow backend's resize) accepts
CROP_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def load_image(path, num_channels, image_size, interpolation, data_format,
               crop_to_aspect_ratio=False, pad_to_aspect_ratio=False):
    """One image file as an array of ``image_size``: ``float32``, or ``uint8``
    with ``"nearest"`` (what ``tf.image.resize`` returns).

    >>> import tempfile, os
    >>> from kerasmini.utils.image_utils import save_img
    >>> path = os.path.join(tempfile.mkdtemp(), "red.png")
    >>> save_img(path, np.ones((4, 6, 3)) * [255, 0, 0], scale=False)
    >>> image = load_image(path, 3, (2, 3), "bilinear", "channels_last")
    >>> image.shape, image.dtype, image[0, 0].tolist()
    ((2, 3, 3), dtype('float32'), [255.0, 0.0, 0.0])
    """
    mode = {1: "grayscale", 3: "rgb", 4: "rgba"}[num_channels]
    image = _libpng_grey(path) if num_channels == 1 else None
    if image is None:
        image = np.asarray(image_utils.load_img(path, color_mode=mode))
    if image.ndim == 2:
        image = image[:, :, None]
    if crop_to_aspect_ratio:
        image = image_resize.crop_to_aspect_ratio(image, image_size)
        image = image_resize.resize(image, image_size, interpolation)
    elif pad_to_aspect_ratio:
        image = image_resize.resize_with_pad(image, image_size, interpolation)
    else:
        image = image_resize.resize(image, image_size, interpolation)
    if data_format == "channels_first":
        image = image.transpose(2, 0, 1)
    return image


def _libpng_grey(path):
    """A colour PNG in one channel as TensorFlow's PNG decoder makes it:
    libpng's integer formula (weights 0.299 and 0.587 in 15-bit fixed point,
    truncated; grey pixels kept as they are), where Pillow rounds its own
    weights (one level apart here and there). None for any other file."""
    with image_utils.pil_image.open(path) as raw:
        if raw.format != "PNG" or raw.mode in ("1", "L", "LA", "I", "I;16"):
            return None
        pixels = np.asarray(raw.convert("RGB")).astype(np.int64)
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    grey = np.where((r == g) & (r == b), r, (r * 9797 + g * 19234 + b * 3737) >> 15)
    return grey.astype(np.uint8)


def _check_image_arguments(color_mode, image_size, interpolation, batch_size,
                           crop_to_aspect_ratio, pad_to_aspect_ratio, data_format,
                           format, follow_links, verbose):
    owner = "image_dataset_from_directory"
    if color_mode not in CHANNELS:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if validation.is_int(image_size):
        image_size = (image_size, image_size)
    if not isinstance(image_size, (list, tuple)) or len(image_size) != 2 or \
            not all(validation.is_int(s) and s > 0 for s in image_size):
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    if not isinstance(interpolation, str) or \
            interpolation.lower() not in image_resize.INTERPOLATIONS:
        raise ValueError("Argument `interpolation` should be one of "
                         f"{image_resize.INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    interpolation = interpolation.lower()
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")
    validation.check_int(batch_size, "batch_size", minimum=1, allow_none=True,
                         owner=owner)
    for name, value in (("crop_to_aspect_ratio", crop_to_aspect_ratio),
                        ("pad_to_aspect_ratio", pad_to_aspect_ratio),
                        ("follow_links", follow_links), ("verbose", verbose)):
        validation.check_bool(value, name, owner=owner)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` "
                         "can be set to `True`. Received: both True")
    if crop_to_aspect_ratio and interpolation not in CROP_INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{CROP_INTERPOLATIONS}. Received: interpolation={interpolation}")
    if data_format is not None:
        validation.check_choice(data_format, "data_format",
                                ("channels_last", "channels_first"), owner=owner)
    return tuple(int(s) for s in image_size), interpolation


@keras_export("kerasmini.utils.image_dataset_from_directory")
@names_its_errors
def image_dataset_from_directory(
    directory, labels="inferred", label_mode="int", class_names=None,
    color_mode="rgb", batch_size=32, image_size=(256, 256), shuffle=True, seed=None,
    validation_split=None, subset=None, interpolation="bilinear", follow_links=False,
    crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, data_format=None,
    format="tf", verbose=True,
):
    """Batches of images from ``directory`` (a ``PyDataset``; two with
    ``subset="both"``), labelled by sub-folder.

    Args:
        directory: the folder. With ``labels="inferred"`` each sub-folder is
            a class; otherwise every image below it is read.
        labels: ``"inferred"``, None, or a list of integer labels (one per
            file, in the order of the sorted file paths).
        label_mode: ``"int"`` (``int32`` of shape ``(batch,)``),
            ``"categorical"`` (``float32`` one-hot), ``"binary"``
            (``float32`` of shape ``(batch, 1)``, two classes), or None.
        class_names: the sub-folders to use, in label order.
        color_mode: ``"grayscale"``, ``"rgb"`` or ``"rgba"`` (1, 3, 4 channels).
        batch_size: images per batch; None for single images.
        image_size: ``(height, width)`` every image is resized to.
        shuffle, seed: shuffle the files (a split with shuffling needs a seed).
        validation_split, subset: keep ``"training"``, ``"validation"`` or
            ``"both"`` of a split.
        interpolation: ``"bilinear"``, ``"nearest"``, ``"bicubic"``,
            ``"area"``, ``"lanczos3"``, ``"lanczos5"``, ``"gaussian"``,
            ``"mitchellcubic"``.
        follow_links: walk into linked folders.
        crop_to_aspect_ratio, pad_to_aspect_ratio: keep the aspect ratio by
            cropping the centre, or by padding with zeros.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        format: ``"tf"`` or ``"grain"``: accepted; both give a ``PyDataset``.
        verbose: print how many files and classes were found.

    Returns:
        A ``PyDataset`` of ``(images, labels)`` (``images`` alone without
        labels), with ``class_names`` and ``file_paths``; images are
        ``float32`` (``uint8`` with ``"nearest"``), values 0-255.

    >>> image_dataset_from_directory("photos", label_mode="sparse")
    Traceback (most recent call last):
      ...
    ValueError: image_dataset_from_directory: `label_mode` argument must be one of ...
    """
    dataset_utils.check_common_arguments("image_dataset_from_directory", labels,
                                         label_mode, class_names, "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    image_size, interpolation = _check_image_arguments(
        color_mode, image_size, interpolation, batch_size, crop_to_aspect_ratio,
        pad_to_aspect_ratio, data_format, format, follow_links, verbose)
    image_utils.require_pillow("image_dataset_from_directory")
    dataset_utils.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = dataset_utils.index_directory(
        directory, labels, formats=ALLOWLIST_FORMATS, class_names=class_names,
        shuffle=shuffle, seed=seed, follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    num_classes = len(class_names) if class_names else 0
    if label_mode == "categorical" and any(not 0 <= y < num_classes for y in labels):
        raise ValueError(f'With label_mode="categorical" the labels must be in [0, '
                         f"{num_classes}) (one per class name). Received: labels "
                         f"{sorted(set(int(y) for y in labels))}")
    load = dict(num_channels=CHANNELS[color_mode], image_size=image_size,
                interpolation=interpolation, data_format=data_format or "channels_last",
                crop_to_aspect_ratio=crop_to_aspect_ratio,
                pad_to_aspect_ratio=pad_to_aspect_ratio)

    def make(subset_paths, subset_labels, subset_shuffle):
        samples = list(zip(subset_paths, subset_labels)) if label_mode else subset_paths

        def make_batch(batch):
            if not label_mode:
                return np.stack([load_image(p, **load) for p in batch])
            images = np.stack([load_image(p, **load) for p, _ in batch])
            return images, dataset_utils.encode_labels(
                [y for _, y in batch], label_mode, num_classes)

        dataset = BatchedDataset(samples, make_batch, batch_size, subset_shuffle, seed)
        dataset.class_names = class_names
        dataset.file_paths = list(subset_paths)
        return dataset

    label_list = labels if labels is not None else [None] * len(paths)
    if subset == "both":
        parts = [dataset_utils.get_training_or_validation_split(
            paths, label_list, validation_split, part)
            for part in ("training", "validation")]
        for (part_paths, _), part in zip(parts, ("training", "validation")):
            if not part_paths:
                raise ValueError(f"No {part} images found in directory {directory}. "
                                 f"Allowed formats: {ALLOWLIST_FORMATS}")
        return [make(*parts[0], shuffle), make(*parts[1], False)]
    paths, label_list = dataset_utils.get_training_or_validation_split(
        paths, label_list, validation_split, subset)
    if not paths:
        raise ValueError(f"No images found in directory {directory}. "
                         f"Allowed formats: {ALLOWLIST_FORMATS}")
    return make(paths, label_list, shuffle)


__all__ = ["image_dataset_from_directory", "load_image"]
