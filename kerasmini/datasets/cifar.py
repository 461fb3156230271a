"""The CIFAR batches: pickled dicts, read without running code from them.

Each batch file of ``cifar-10-python.tar.gz`` and ``cifar-100-python.tar.gz``
is a Python 2 pickle of a dict with byte-string keys: ``b"data"``, a
``uint8`` array of shape ``(n, 3072)`` (1,024 red, then green, then blue
values of a 32x32 image), and the labels (``b"labels"``, or
``b"fine_labels"``/``b"coarse_labels"`` for CIFAR-100) as a list. Keras
unpickles them with a restricted unpickler; so does :func:`load_batch`
(:mod:`kerasmini.datasets.safe_pickle`).
"""

import numpy as np

from kerasmini.datasets.safe_pickle import load_pickle


def load_batch(fpath, label_key="labels"):
    """``(data, labels)`` of one batch file: ``data`` of shape ``(n, 3, 32, 32)``.

    >>> import pickle, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "data_batch_1")
    >>> with open(path, "wb") as f:
    ...     pickle.dump({b"data": np.zeros((2, 3072), "uint8"), b"labels": [3, 5]}, f)
    >>> data, labels = load_batch(path)
    >>> data.shape, labels
    ((2, 3, 32, 32), [3, 5])
    """
    what = f"the CIFAR batch {fpath!r}"
    try:
        with open(fpath, "rb") as f:
            batch = load_pickle(f, what, encoding="bytes")
    except FileNotFoundError:
        raise ValueError(f"The CIFAR archive lacks {fpath!r}: damaged or not the "
                         "expected archive.") from None
    if not isinstance(batch, dict):
        raise ValueError(f"Expected {what} to hold a dict. Received: "
                         f"{type(batch).__name__}")
    batch = {k.decode("utf8") if isinstance(k, bytes) else k: v
             for k, v in batch.items()}
    if "data" not in batch or label_key not in batch:
        raise ValueError(f"Expected {what} to hold 'data' and {label_key!r}. "
                         f"Received: keys {sorted(batch)}")
    data = np.asarray(batch["data"])
    labels = batch[label_key]
    if data.dtype != np.uint8 or data.ndim != 2 or data.shape[1] != 3 * 32 * 32 \
            or len(labels) != len(data):
        raise ValueError(
            f"Expected {what} to hold uint8 data of shape (n, 3072) and n labels. "
            f"Received: data of dtype {data.dtype} and shape {data.shape}, "
            f"{len(labels)} labels"
        )
    return data.reshape(data.shape[0], 3, 32, 32), labels
