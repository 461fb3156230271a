"""``kerasmini.random``: seeded random numbers, as ``keras.random``.

>>> from kerasmini import random
>>> random.normal((2,), seed=0).shape
(2,)
"""

from kerasmini.random.random import (
    categorical,
    dropout,
    normal,
    randint,
    shuffle,
    truncated_normal,
    uniform,
)
from kerasmini.random.seed_generator import SeedGenerator

__all__ = ["SeedGenerator", "categorical", "dropout", "normal", "randint",
           "shuffle", "truncated_normal", "uniform"]
