"""What the two housing loaders share: a shuffled train/test split of an
``.npz`` holding ``x`` and ``y``, as Keras makes it."""

import numpy as np

from kerasmini.backend import validation


def check_test_split(test_split, seed, owner):
    """Keras's rule: ``0 <= test_split < 1``.

    >>> check_test_split(-0.1, 113, "demo")
    Traceback (most recent call last):
      ...
    ValueError: demo: invalid `test_split` argument: it must be between 0 and 1 (exclusive ...
    """
    validation.check_int(seed, "seed", owner=owner)
    validation.check_float(test_split, "test_split", owner=owner)
    if not 0 <= test_split < 1:
        raise ValueError(f"{owner}: invalid `test_split` argument: it must be between "
                         f"0 and 1 (exclusive of 1). Received: test_split={test_split}")


def split(x, y, test_split, seed):
    """Shuffle with ``RandomState(seed)``, then the first ``1 - test_split``
    to train, the rest to test.

    >>> (x_train, _), (x_test, _) = split(np.arange(5), np.arange(5), 0.4, 0)
    >>> x_train.tolist(), x_test.tolist()
    ([2, 0, 1], [3, 4])
    """
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))
