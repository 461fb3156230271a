"""Listing a folder of files by class, and the train/validation split, as
Keras 3's ``keras/src/utils/dataset_utils.py`` does for
``image_dataset_from_directory`` and ``text_dataset_from_directory``.

The order of the files is Keras's, so the same ``seed`` gives the same
files, labels and split:

1. classes: the sub-folders, sorted (or ``class_names``, in that order);
2. files: per class, ``os.walk`` sorted by folder, then by file name, keeping
   the allowed extensions (case-insensitive);
3. shuffled (unless ``shuffle=False``) with ``np.random.RandomState(seed)``,
   the paths and labels each by a generator of the same seed;
4. the validation split is the last ``int(validation_split * n)`` files.

>>> get_training_or_validation_split(list("abcde"), [0, 0, 1, 1, 1], 0.4,
...                                  "validation")  # doctest: +NORMALIZE_WHITESPACE
Using 2 files for validation.
(['d', 'e'], [1, 1])
"""

import os

import numpy as np

from kerasmini.backend import validation

LABEL_MODES = ("int", "categorical", "binary", None)


def check_common_arguments(owner, labels, label_mode, class_names, kind):
    """The checks Keras makes on ``labels``, ``label_mode``, ``class_names``.

    >>> check_common_arguments("demo", [0, 1.5], "int", None, "image")
    Traceback (most recent call last):
      ...
    ValueError: demo: `labels` must hold integers. Received: labels=[0, 1.5]
    """
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                "`labels` argument should be a list/tuple of integer labels, of the "
                f"same size as the number of {kind} files in the target directory. "
                "If you wish to infer the labels from the subdirectory names in "
                'the target directory, pass `labels="inferred"`. If you wish to '
                f"get a dataset that only contains {kind}s (no labels), pass "
                f"`labels=None`. Received: labels={labels}"
            )
        if class_names:
            raise ValueError(
                'You can only pass `class_names` if `labels="inferred"`. '
                f"Received: labels={labels}, and class_names={class_names}"
            )
        if not all(validation.is_int(label) for label in labels):
            raise ValueError(f"{owner}: `labels` must hold integers. Received: "
                             f"labels={list(labels)[:10]}")
    if label_mode not in LABEL_MODES:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if class_names is not None and (not isinstance(class_names, (list, tuple)) or
                                    not all(isinstance(c, str) for c in class_names)):
        raise TypeError(f"{owner}: `class_names` must be a list of folder names "
                        f"(strings) or None. Received: class_names={class_names!r}")


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    """Keras's checks of ``validation_split``, ``subset``, ``shuffle`` and
    ``seed`` (a shuffled split needs a seed, or the two subsets overlap).

    >>> check_validation_split_arg(0.2, "training", True, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: If using `validation_split` and shuffling the data, you must provide a ...
    """
    if validation_split is not None:
        validation.check_float(validation_split, "validation_split")
    if validation_split and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and "
                         f"inversely. Received: validation_split={validation_split}, "
                         f"subset={subset!r}")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be either "training", "validation" or '
                         f'"both", received: {subset}')
    validation.check_bool(shuffle, "shuffle")
    validation.check_int(seed, "seed", allow_none=True)
    if validation_split and shuffle and seed is None:
        raise ValueError(
            "If using `validation_split` and shuffling the data, you must provide a "
            "`seed` argument, to make sure that there is no overlap between the "
            "training and validation subset."
        )


def _files_under(folder, follow_links, formats):
    """Relative paths of the allowed files under ``folder``, in Keras's order."""
    found = []
    for root, _, files in sorted(os.walk(folder, followlinks=follow_links),
                                 key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(formats):
                found.append(os.path.relpath(os.path.join(root, name), folder))
    return found


def index_directory(directory, labels, formats, class_names=None, shuffle=True,
                    seed=None, follow_links=False, verbose=True):
    """``(file_paths, labels, class_names)`` of the files under ``directory``.

    ``labels``: ``"inferred"`` (one class per sub-folder), None, or a list of
    integers, one per file in the order of the sorted walk.

    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> for name in ("b/2.txt", "b/1.txt", "a/x.txt", "a/skip.csv"):
    ...     os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
    ...     open(os.path.join(root, name), "w").close()
    >>> paths, labels, names = index_directory(root, "inferred", (".txt",),
    ...                                        shuffle=False)
    Found 3 files belonging to 2 classes.
    >>> [os.path.relpath(p, root) for p in paths], labels.tolist(), names
    (['a/x.txt', 'b/1.txt', 'b/2.txt'], [0, 1, 1], ['a', 'b'])
    """
    if not isinstance(directory, (str, os.PathLike)) or not os.path.isdir(directory):
        raise ValueError(f"Expected `directory` to be an existing folder. Received: "
                         f"directory={directory!r}")
    directory = os.fspath(directory)
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(subdirs):
                raise ValueError(
                    "The `class_names` passed did not match the names of the "
                    "subdirectories of the target directory. Expected: "
                    f"{subdirs} (or a subset of it), but received: "
                    f"class_names={class_names}"
                )
            subdirs = list(class_names)  # the order given
    else:  # one pass over the whole folder
        subdirs = [""]
        if class_names is not None:
            raise ValueError(
                "When `labels=None` (no labels), argument `class_names` cannot be "
                "specified." if labels is None else
                "When argument `labels` is specified, argument `class_names` cannot "
                "be specified (the `class_names` will be the sorted list of labels)."
            )
    filenames, inferred = [], []
    for index, subdir in enumerate(subdirs):
        found = _files_under(os.path.join(directory, subdir), follow_links, formats)
        filenames += [os.path.join(subdir, name) for name in found]
        inferred += [index] * len(found)

    if labels == "inferred":
        labels, names = np.array(inferred, dtype="int32"), subdirs
    elif labels is None:
        names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(
                "Expected the lengths of `labels` to match the number of files in "
                f"the target directory. len(labels) is {len(labels)} while we found "
                f"{len(filenames)} files in directory {directory}."
            )
        labels = list(labels)  # Keras shuffles the caller's list in place
        names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print(f"Found {len(filenames)} files.")
        else:
            print(f"Found {len(filenames)} files belonging to {len(names)} classes.")
    file_paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:  # globally, with one generator per list, as Keras
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(file_paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, names


def get_training_or_validation_split(samples, labels, validation_split, subset):
    """The training part (all but the last ``int(validation_split * n)``) or
    the validation part (those last ones) of ``samples`` and ``labels``.

    >>> get_training_or_validation_split([1, 2, 3, 4], None, 0.25, "training")
    Using 3 files for training.
    ([1, 2, 3], None)
    """
    if not validation_split:
        return samples, labels
    num_val = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - num_val} files for training.")
        keep = slice(None, -num_val)
    else:
        print(f"Using {num_val} files for validation.")
        keep = slice(-num_val, None)
    # as Keras: with num_val == 0 the training part is [:-0], empty
    return samples[keep], (labels[keep] if labels is not None else None)


def encode_labels(labels, label_mode, num_classes):
    """A batch of integer labels as ``label_mode`` asks: ``int32`` of shape
    ``(n,)``, ``"binary"`` ``float32`` ``(n, 1)``, ``"categorical"``
    ``float32`` one-hot ``(n, num_classes)``.

    >>> encode_labels([1, 0], "categorical", 3).tolist()
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    labels = np.asarray(labels, dtype="int64")
    if label_mode == "binary":
        return labels.astype("float32")[:, None]
    if label_mode == "categorical":
        out = np.zeros((len(labels), num_classes), dtype="float32")
        out[np.arange(len(labels)), labels] = 1
        return out
    return labels.astype("int32")


__all__ = ["check_common_arguments", "check_validation_split_arg", "encode_labels",
           "get_training_or_validation_split", "index_directory"]
