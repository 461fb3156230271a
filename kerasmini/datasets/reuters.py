"""``keras.datasets.reuters``: 11,228 Reuters newswires as word indices,
labelled by 46 topics; the test split is taken from the shuffled whole.

The same download as Keras 3.15.1 (``reuters.npz``, sha256-checked), read as
:mod:`kerasmini.datasets.imdb` reads its file.
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.datasets import sequences
from kerasmini.datasets.imdb import _object_array
from kerasmini.datasets.safe_pickle import load_arrays
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"
LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
    "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton",
    "carcass", "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp",
    "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal", "livestock",
    "retail", "ipi", "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc",
    "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog", "lead",
)


@keras_export("kerasmini.datasets.reuters.load_data")
def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None,
              test_split=0.2, seed=113, start_char=1, oov_char=2, index_from=3):
    """``(x_train, y_train), (x_test, y_test)``: ``x`` an object array of
    lists of word indices, ``y`` topic indices (see ``get_label_names``).
    The arguments are :func:`kerasmini.datasets.imdb.load_data`'s, plus
    ``test_split``, the fraction of the shuffled data kept for testing.

    >>> load_data(test_split=1.5)
    Traceback (most recent call last):
      ...
    ValueError: reuters.load_data: argument `test_split` must be a number in [0, 1]. ...
    """
    sequences.check_arguments("reuters.load_data", num_words, skip_top, maxlen, seed,
                              start_char, oov_char, index_from)
    test_split = validation.check_float(test_split, "test_split", low=0, high=1,
                                        owner="reuters.load_data")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}reuters.npz", file_hash=FILE_HASH)
    xs, labels = load_arrays(path, ("x", "y"), "reuters.load_data")

    order = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(order)
    xs, labels = xs[order], labels[order]
    if start_char is not None or index_from:
        xs = sequences.shift(xs, start_char, index_from)
    else:
        xs = [list(x) for x in xs]
    if maxlen:
        xs, labels = sequences.remove_long(maxlen, xs, labels)
    xs = sequences.limit_vocabulary(xs, num_words, skip_top, oov_char)
    split = int(len(xs) * (1 - test_split))
    return ((_object_array(xs[:split]), np.array(labels[:split])),
            (_object_array(xs[split:]), np.array(labels[split:])))


@keras_export("kerasmini.datasets.reuters.get_word_index")
def get_word_index(path="reuters_word_index.json"):
    """``{word: rank}``; in ``load_data``'s output a word is ``rank +
    index_from``.

    >>> get_word_index(path=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    TypeError: get_file: argument `fname` must be a file name (str) or None. Received: ...
    """
    path = get_file(path, origin=f"{ORIGIN_FOLDER}reuters_word_index.json",
                    file_hash=WORD_INDEX_HASH)
    return sequences.load_word_index(path, "reuters.get_word_index")


@keras_export("kerasmini.datasets.reuters.get_label_names")
def get_label_names():
    """The 46 topic names, in the order of the labels.

    >>> get_label_names()[:3]
    ('cocoa', 'grain', 'veg-oil')
    """
    return LABEL_NAMES
