"""``keras.utils.text_dataset_from_directory``: a folder of ``.txt`` files,
one sub-folder per class, as batches of ``(texts, labels)``.

The files, labels and split are Keras's
(:func:`kerasmini.utils.dataset_utils.index_directory`). Keras yields
``tf.string`` tensors (bytes); kerasmini yields NumPy arrays of ``str``
(``dtype=object``), decoded from UTF-8 (undecodable bytes become U+FFFD).
``max_length`` cuts each file's bytes as ``tf.strings.substr`` does, before
decoding.

It lives in ``datasets/`` for the reason given in
:mod:`kerasmini.datasets.image_dataset`.
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.datasets.batched import BatchedDataset
from kerasmini.utils import dataset_utils
from kerasmini.utils.errors import names_its_errors


def read_text(path, max_length=None):
    """A file's text (``max_length`` counts bytes, as TensorFlow does).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write("caf\u00e9 au lait".encode("utf-8"))
    >>> read_text(f.name), read_text(f.name, max_length=3)
    ('café au lait', 'caf')
    """
    with open(path, "rb") as f:
        raw = f.read() if max_length is None else f.read(max_length)
    return raw.decode("utf-8", errors="replace")


@keras_export("kerasmini.utils.text_dataset_from_directory")
@names_its_errors
def text_dataset_from_directory(
    directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
    max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
    follow_links=False, format="tf", verbose=True,
):
    """Batches of texts from the ``.txt`` files of ``directory`` (a
    ``PyDataset``; two with ``subset="both"``), labelled by sub-folder.

    The arguments are :func:`image_dataset_from_directory`'s, without the
    image ones, plus ``max_length``: keep at most that many bytes of each
    file. Batches are ``(texts, labels)``: ``texts`` a NumPy array of ``str``
    (``dtype=object``) of shape ``(batch,)``; labels as in
    ``image_dataset_from_directory``.

    >>> text_dataset_from_directory("reviews", validation_split=0.2)
    Traceback (most recent call last):
      ...
    ValueError: text_dataset_from_directory: If `subset` is set, `validation_split` must ...
    """
    owner = "text_dataset_from_directory"
    dataset_utils.check_common_arguments(owner, labels, label_mode, class_names, "text")
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")
    if labels is None or label_mode is None:
        labels = label_mode = None
    validation.check_int(batch_size, "batch_size", minimum=1, allow_none=True,
                         owner=owner)
    validation.check_int(max_length, "max_length", minimum=0, allow_none=True,
                         owner=owner)
    validation.check_bool(follow_links, "follow_links", owner=owner)
    validation.check_bool(verbose, "verbose", owner=owner)
    dataset_utils.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = dataset_utils.index_directory(
        directory, labels, formats=(".txt",), class_names=class_names, shuffle=shuffle,
        seed=seed, follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    num_classes = len(class_names) if class_names else 0
    if label_mode == "categorical" and any(not 0 <= y < num_classes for y in labels):
        raise ValueError(f'With label_mode="categorical" the labels must be in [0, '
                         f"{num_classes}) (one per class name). Received: labels "
                         f"{sorted(set(int(y) for y in labels))}")

    def make(subset_paths, subset_labels, subset_shuffle):
        samples = list(zip(subset_paths, subset_labels)) if label_mode else subset_paths

        def texts(batch_paths):
            out = np.empty(len(batch_paths), dtype=object)
            out[:] = [read_text(p, max_length) for p in batch_paths]
            return out

        def make_batch(batch):
            if not label_mode:
                return texts(batch)
            return texts([p for p, _ in batch]), dataset_utils.encode_labels(
                [y for _, y in batch], label_mode, num_classes)

        dataset = BatchedDataset(samples, make_batch, batch_size, subset_shuffle, seed)
        dataset.class_names = class_names  # (Keras gives no file_paths here)
        return dataset

    label_list = labels if labels is not None else [None] * len(paths)
    if subset == "both":
        parts = [dataset_utils.get_training_or_validation_split(
            paths, label_list, validation_split, part)
            for part in ("training", "validation")]
        for (part_paths, _), part in zip(parts, ("training", "validation")):
            if not part_paths:
                raise ValueError(f"No {part} text files found in directory "
                                 f"{directory}. Allowed format: .txt")
        return [make(*parts[0], shuffle), make(*parts[1], False)]
    paths, label_list = dataset_utils.get_training_or_validation_split(
        paths, label_list, validation_split, subset)
    if not paths:
        raise ValueError(f"No text files found in directory {directory}. "
                         "Allowed format: .txt")
    return make(paths, label_list, shuffle)


__all__ = ["read_text", "text_dataset_from_directory"]
