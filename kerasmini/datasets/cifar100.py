"""``keras.datasets.cifar100``: 60,000 colour images of 32x32 pixels in 100
fine classes grouped into 20 coarse ones (``label_mode``).

The archive Keras downloads (``cifar-100-python.tar.gz``, checked by sha256)
unpacks into ``~/.keras/datasets/cifar-100-python-target/``; its ``train``
and ``test`` files are pickles read by :func:`cifar.load_batch`.
"""

import os

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.datasets.cifar import load_batch
from kerasmini.utils.file_utils import get_file

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


@keras_export("kerasmini.datasets.cifar100.load_data")
def load_data(label_mode="fine"):
    """``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
    ``(50000, 32, 32, 3)`` and ``(10000, 32, 32, 3)``, labels of shape
    ``(n, 1)``: 0-99 with ``label_mode="fine"``, 0-19 with ``"coarse"``.

    >>> load_data(label_mode="medium")
    Traceback (most recent call last):
      ...
    ValueError: cifar100.load_data: `label_mode` must be one of `"fine"`, `"coarse"`. ...
    """
    if label_mode not in ("fine", "coarse"):
        raise ValueError('cifar100.load_data: `label_mode` must be one of `"fine"`, '
                         '`"coarse"`. '
                         f"Received: label_mode={label_mode}.")
    path = get_file(fname="cifar-100-python-target", origin=ORIGIN, extract=True,
                    file_hash=FILE_HASH)
    path = os.path.join(path, "cifar-100-python")
    key = f"{label_mode}_labels"
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=key)
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=key)
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    return ((x_train.transpose(0, 2, 3, 1), y_train),
            (x_test.transpose(0, 2, 3, 1), y_test))
