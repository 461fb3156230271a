"""``keras.datasets.fashion_mnist``: 70,000 clothes images of 28x28 pixels.

Four gzip'd IDX files (Zalando's format, as MNIST's original one): labels
have an 8-byte header (magic number 2049, count), images a 16-byte one (2051,
count, rows, columns), then one byte per value. Keras skips the headers; here
they are also checked, so a damaged or wrong file says so instead of
returning garbage (Keras gives these downloads no hash).
"""

import gzip
import os
import zlib

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILES = ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz")
CLASS_NAMES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal",
               "Shirt", "Sneaker", "Bag", "Ankle boot")


def read_idx(path, magic, header_size):
    """The values after an IDX header, checked against the header.

    >>> import gzip, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "labels.gz")
    >>> with gzip.open(path, "wb") as f:
    ...     _ = f.write(np.array([2049, 3], ">u4").tobytes() + bytes([7, 1, 4]))
    >>> read_idx(path, 2049, 8).tolist()
    [7, 1, 4]
    """
    try:
        with gzip.open(path, "rb") as f:
            raw = f.read()
    except (OSError, EOFError, zlib.error) as e:
        raise ValueError(f"fashion_mnist.load_data: could not read {path!r} as "
                         f"gzip. Received: {type(e).__name__}: {e}") from None
    header = np.frombuffer(raw[:header_size], ">u4") if len(raw) >= header_size else []
    dims = [int(d) for d in header[1:]]
    if len(header) == 0 or int(header[0]) != magic or \
            len(raw) - header_size != int(np.prod(dims)):
        raise ValueError(
            f"fashion_mnist.load_data: {path!r} is not an IDX file with magic "
            f"number {magic} and as many values as its header says. Received: "
            f"{len(raw)} bytes, header {[int(h) for h in header]}"
        )
    return np.frombuffer(raw, np.uint8, offset=header_size).reshape(dims)


@keras_export("kerasmini.datasets.fashion_mnist.load_data")
def load_data():
    """``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
    ``(60000, 28, 28)`` and ``(10000, 28, 28)``, ``uint8`` labels 0-9 (see
    ``CLASS_NAMES``).

    >>> FILES[1], CLASS_NAMES[9]
    ('train-images-idx3-ubyte.gz', 'Ankle boot')
    """
    subdir = os.path.join("datasets", "fashion-mnist")
    paths = [get_file(name, origin=ORIGIN_FOLDER + name, cache_subdir=subdir)
             for name in FILES]
    y_train = read_idx(paths[0], 2049, 8)
    x_train = read_idx(paths[1], 2051, 16)
    y_test = read_idx(paths[2], 2049, 8)
    x_test = read_idx(paths[3], 2051, 16)
    for x, y in ((x_train, y_train), (x_test, y_test)):
        if len(x) != len(y):
            raise ValueError("fashion_mnist.load_data: the image and label files "
                             f"disagree. Received: {len(x)} images, {len(y)} labels")
    return (x_train, y_train), (x_test, y_test)
