"""The 8x8 handwritten digits, in the shape of ``keras.datasets.mnist``.

scikit-learn ships 1,797 grey-scale digits of 8x8 pixels (values 0 to 16,
the UCI "optdigits" test set). :func:`load_data` returns them as MNIST does:
``uint8`` images scaled to 0-255 and ``uint8`` labels, split into a fixed
training set (the first 1,500) and test set (the remaining 297), so every run
and every reader sees the same split.

>>> (x_train, y_train), (x_test, y_test) = load_data()
>>> x_train.shape, x_train.dtype, int(x_train.max()), y_train[:10].tolist()
((1500, 8, 8), dtype('uint8'), 255, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
>>> x_test.shape, y_test.shape
((297, 8, 8), (297,))
"""

import numpy as np

from kerasmini.api_export import keras_export

NUM_TRAIN = 1500


@keras_export("kerasmini.datasets.digits.load_data")
def load_data():
    """Load the digits as ``(x_train, y_train), (x_test, y_test)``.

    Returns:
        ``x_*``: ``uint8`` arrays of shape ``(n, 8, 8)`` with values 0-255;
        ``y_*``: ``uint8`` labels 0-9. Train: 1,500 samples, test: 297.

    >>> (x_train, y_train), _ = load_data()
    >>> x_train.shape, int(y_train[0])
    ((1500, 8, 8), 0)
    """
    # imported here so that `import kerasmini` does not import scikit-learn
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise ImportError(
            "The digits ship inside scikit-learn. Install the book's extra: pip "
            "install 'kerasmini[book]' (or pip install scikit-learn)."
        ) from None

    digits = load_digits()
    images = np.round(digits.images * (255.0 / 16.0)).astype("uint8")
    labels = digits.target.astype("uint8")
    return ((images[:NUM_TRAIN], labels[:NUM_TRAIN]),
            (images[NUM_TRAIN:], labels[NUM_TRAIN:]))
