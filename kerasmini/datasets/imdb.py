"""``keras.datasets.imdb``: 50,000 movie reviews as word indices, labelled by
sentiment (25,000 to train, 25,000 to test).

The same download as Keras 3.15.1 (``imdb.npz``, sha256-checked): ragged
sequences stored as NumPy object arrays, read by the restricted unpickler of
:mod:`kerasmini.datasets.safe_pickle`. ``get_word_index`` gives the
``{word: rank}`` dictionary.
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.datasets import sequences
from kerasmini.datasets.safe_pickle import load_arrays
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


@keras_export("kerasmini.datasets.imdb.load_data")
def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: ``x`` an object array of
    lists of word indices, ``y`` the labels (1 positive, 0 negative).

    Args:
        path: the file name in the cache.
        num_words: keep the ``num_words`` most frequent words (others become
            ``oov_char``); None keeps all.
        skip_top: the most frequent words to skip (they become ``oov_char``).
        maxlen: drop sequences of ``maxlen`` words or more; None keeps all.
        seed: the shuffling seed.
        start_char: the index put at the start of every sequence (or None).
        oov_char: the index of words cut by ``num_words``/``skip_top`` (None:
            drop them).
        index_from: the offset added to every word's rank.

    >>> load_data(num_words=0)
    Traceback (most recent call last):
      ...
    ValueError: imdb.load_data: argument `num_words` must be an integer >= 1 or None. ...
    """
    if kwargs:  # Keras ignores them; a misspelt argument should not go unseen
        raise TypeError(f"imdb.load_data: unrecognized keyword arguments: "
                        f"{sorted(kwargs)}. Received: {kwargs}")
    sequences.check_arguments("imdb.load_data", num_words, skip_top, maxlen, seed,
                              start_char, oov_char, index_from)
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb.npz", file_hash=FILE_HASH)
    x_train, labels_train, x_test, labels_test = load_arrays(
        path, ("x_train", "y_train", "x_test", "y_test"), "imdb.load_data")

    rng = np.random.RandomState(seed)  # one generator for both shuffles
    order = np.arange(len(x_train))
    rng.shuffle(order)
    x_train, labels_train = x_train[order], labels_train[order]
    order = np.arange(len(x_test))
    rng.shuffle(order)
    x_test, labels_test = x_test[order], labels_test[order]

    x_train = sequences.shift(x_train, start_char, index_from)
    x_test = sequences.shift(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = sequences.remove_long(maxlen, x_train, labels_train)
        x_test, labels_test = sequences.remove_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(
                "imdb.load_data: after filtering for sequences shorter than "
                f"maxlen={maxlen}, no "
                "sequence was kept. Increase maxlen."
            )
    xs = sequences.limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    split = len(x_train)
    return ((_object_array(xs[:split]), labels[:split]),
            (_object_array(xs[split:]), labels[split:]))


def _object_array(lists):
    """A 1-D object array of lists (``np.array`` would make a 2-D array of
    lists that happen to have the same length)."""
    out = np.empty(len(lists), dtype="object")
    out[:] = lists
    return out


@keras_export("kerasmini.datasets.imdb.get_word_index")
def get_word_index(path="imdb_word_index.json"):
    """``{word: rank}``; in ``load_data``'s output a word is ``rank +
    index_from``.

    >>> get_word_index(path=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    TypeError: get_file: argument `fname` must be a file name (str) or None. Received: ...
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb_word_index.json",
                    file_hash=WORD_INDEX_HASH)
    return sequences.load_word_index(path, "imdb.get_word_index")
