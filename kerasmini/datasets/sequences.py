"""What the IMDB and Reuters loaders share: their arguments' checks and the
way Keras turns the stored word indices into the sequences it returns.

The files store each review or newswire as a list of word ranks (1 = the most
frequent word). The loaders shuffle with ``np.random.RandomState(seed)``, add
``index_from`` to every rank (0, 1, 2 stay free for padding, start and
out-of-vocabulary), put ``start_char`` in front, drop sequences of ``maxlen``
words or more, and replace words outside ``[skip_top, num_words)`` by
``oov_char`` (or drop them when ``oov_char`` is None).
"""

import json

from kerasmini.backend import validation


def check_arguments(owner, num_words, skip_top, maxlen, seed, start_char, oov_char,
                    index_from):
    """The loaders' integer arguments, checked with messages naming ``owner``.

    >>> check_arguments("demo", None, -1, None, 113, 1, 2, 3)
    Traceback (most recent call last):
      ...
    ValueError: demo: argument `skip_top` must be an integer >= 0. Received: skip_top=-1
    """
    validation.check_int(num_words, "num_words", minimum=1, allow_none=True,
                         owner=owner)
    validation.check_int(skip_top, "skip_top", minimum=0, owner=owner)
    validation.check_int(maxlen, "maxlen", minimum=1, allow_none=True, owner=owner)
    validation.check_int(seed, "seed", owner=owner)
    validation.check_int(start_char, "start_char", allow_none=True, owner=owner)
    validation.check_int(oov_char, "oov_char", allow_none=True, owner=owner)
    validation.check_int(index_from, "index_from", minimum=0, owner=owner)


def shift(sequences, start_char, index_from):
    """Add ``index_from`` to every word, ``start_char`` in front (if not None).

    >>> shift([[1, 2], [3]], start_char=1, index_from=3)
    [[1, 4, 5], [1, 6]]
    """
    head = [] if start_char is None else [start_char]
    return [head + [w + index_from for w in seq] for seq in sequences]


def remove_long(maxlen, sequences, labels):
    """Keep the sequences shorter than ``maxlen`` (as Keras: strictly shorter).

    >>> remove_long(2, [[1], [1, 2], []], ["a", "b", "c"])
    ([[1], []], ['a', 'c'])
    """
    kept = [(s, y) for s, y in zip(sequences, labels) if len(s) < maxlen]
    return [s for s, _ in kept], [y for _, y in kept]


def limit_vocabulary(sequences, num_words, skip_top, oov_char):
    """Words outside ``[skip_top, num_words)`` become ``oov_char`` (or go).

    >>> limit_vocabulary([[1, 5, 9]], num_words=6, skip_top=2, oov_char=2)
    [[2, 5, 2]]
    >>> limit_vocabulary([[1, 5, 9]], num_words=6, skip_top=2, oov_char=None)
    [[5]]
    """
    if not num_words:
        num_words = max((max(s) for s in sequences if s), default=0)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in s]
                for s in sequences]
    return [[w for w in s if skip_top <= w < num_words] for s in sequences]


def load_word_index(path, owner):
    """A ``{word: rank}`` JSON file.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write('["not", "a", "dict"]')
    >>> load_word_index(f.name, "demo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: demo: expected ... to hold a JSON object of word: index. Received: a list
    """
    try:
        with open(path, encoding="utf-8") as f:
            index = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"{owner}: {path!r} is not a JSON word index. Received: "
                         f"{type(e).__name__}: {e}") from None
    if not isinstance(index, dict):
        raise ValueError(f"{owner}: expected {path!r} to hold a JSON object of "
                         f"word: index. Received: a {type(index).__name__}")
    return index
