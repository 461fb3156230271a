"""``keras.datasets.cifar10``: 60,000 colour images of 32x32 pixels, 10 classes.

The archive Keras downloads (``cifar-10-python.tar.gz``, checked by sha256)
is unpacked by :func:`kerasmini.utils.get_file` into
``~/.keras/datasets/cifar-10-batches-py-target/``; its five training batches
and its test batch are pickles, read by :func:`cifar.load_batch` without
running code from them.
"""

import os

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.datasets.cifar import load_batch
from kerasmini.utils.file_utils import get_file

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
FILE_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"
CLASS_NAMES = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog",
               "horse", "ship", "truck")


@keras_export("kerasmini.datasets.cifar10.load_data")
def load_data():
    """``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
    ``(50000, 32, 32, 3)`` and ``(10000, 32, 32, 3)`` (channels last, as
    Keras's default ``image_data_format``), ``uint8`` labels of shape
    ``(n, 1)``.

    >>> ORIGIN.rsplit("/", 1)[-1], CLASS_NAMES[:3]
    ('cifar-10-python.tar.gz', ('airplane', 'automobile', 'bird'))
    """
    path = get_file(fname="cifar-10-batches-py-target", origin=ORIGIN, extract=True,
                    file_hash=FILE_HASH)
    path = os.path.join(path, "cifar-10-batches-py")  # the archive's own folder
    batches = [load_batch(os.path.join(path, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([data for data, _ in batches]).astype("uint8")
    y_train = np.concatenate([np.asarray(labels) for _, labels in batches])
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train = y_train.astype("uint8").reshape(-1, 1)
    y_test = np.asarray(y_test).astype("uint8").reshape(-1, 1)
    # (n, 3, 32, 32) -> (n, 32, 32, 3)
    return ((x_train.transpose(0, 2, 3, 1), y_train),
            (x_test.astype("uint8").transpose(0, 2, 3, 1), y_test))
