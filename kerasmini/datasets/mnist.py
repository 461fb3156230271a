"""``keras.datasets.mnist``: 70,000 handwritten digits of 28x28 pixels.

The same download as Keras 3.15.1 (``mnist.npz``, checked by its sha256)
through :func:`kerasmini.utils.get_file`, cached in ``~/.keras/datasets``.
The book's own chapters use :mod:`kerasmini.datasets.digits` instead (8x8
digits shipped by scikit-learn, no download).
"""

from kerasmini.api_export import keras_export
from kerasmini.datasets.safe_pickle import load_arrays
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


@keras_export("kerasmini.datasets.mnist.load_data")
def load_data(path="mnist.npz"):
    """``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
    ``(60000, 28, 28)`` and ``(10000, 28, 28)`` (values 0-255), ``uint8``
    labels 0-9.

    Args:
        path: the file name in the cache (``~/.keras/datasets/<path>``).

    The download (about 11 MB) and its sha256:

    >>> ORIGIN_FOLDER + "mnist.npz", FILE_HASH[:12]
    ('https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz', '731c5ac60275')
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}mnist.npz", file_hash=FILE_HASH)
    x_train, y_train, x_test, y_test = load_arrays(
        path, ("x_train", "y_train", "x_test", "y_test"), "mnist.load_data")
    return (x_train, y_train), (x_test, y_test)
