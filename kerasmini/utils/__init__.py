"""Utilities for the book and for users: summaries, seeds, and (lazily
imported, so ``import kerasmini`` stays cheap) drawing and source display.

>>> from kerasmini import utils
>>> utils.set_random_seed(0)
"""

from kerasmini.api_export import keras_export
from kerasmini.backend.random import set_seed


@keras_export("kerasmini.utils.set_random_seed")
def set_random_seed(seed: int) -> None:
    """Seed every random generator kerasmini uses (and NumPy's, and Python's).

    >>> set_random_seed(42)
    """
    set_seed(seed)


__all__ = ["set_random_seed"]
