"""Seeded random numbers for the whole of kerasmini.

One NumPy ``Generator`` serves initializers, dropout and shuffling, so
:func:`set_seed` (``kerasmini.utils.set_random_seed``) makes a run repeatable.

>>> set_seed(0); a = generator().random()
>>> set_seed(0); a == generator().random()
True
"""

import random as _py_random

import numpy as np

from kerasmini.backend import config
from kerasmini.backend.core import Primitive

# Made on first use: `numpy.random` (with `secrets` and `hashlib`) costs
# about 8 ms to import, which `import kerasmini` does not need to pay.
_GENERATOR = None


def set_seed(seed: int) -> None:
    """Seed kerasmini's generator, NumPy's global one and Python's ``random``.

    >>> set_seed(1)
    """
    global _GENERATOR
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(
            f"Expected `seed` to be an integer. Received: seed={seed!r} "
            f"(of type {type(seed).__name__})"
        )
    _GENERATOR = np.random.default_rng(int(seed))
    np.random.seed(int(seed) % (2**32))
    _py_random.seed(int(seed))


def generator(seed=None) -> "np.random.Generator":
    """The shared generator, or a fresh one made from ``seed`` if given.

    >>> bool(generator(3).integers(10) == generator(3).integers(10))
    True
    """
    global _GENERATOR
    if seed is not None:
        return np.random.default_rng(seed)
    if _GENERATOR is None:
        _GENERATOR = np.random.default_rng()
    return _GENERATOR


# Draws as primitives: stateful, so a traced graph draws afresh at every replay
def _uniform(shape, minval, maxval, dtype):
    return generator().uniform(minval, maxval, size=shape).astype(dtype)


def _normal(shape, mean, stddev, dtype):
    return generator().normal(mean, stddev, size=shape).astype(dtype)


_uniform_prim = Primitive("random_uniform", _uniform, stateful=True)
_normal_prim = Primitive("random_normal", _normal, stateful=True)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None):
    """Uniform random numbers from the shared seeded generator (fresh each
    time a traced graph is replayed).

    >>> set_seed(0); float(uniform((1,))[0]) < 1.0
    True
    """
    return _uniform_prim(shape=tuple(shape), minval=minval, maxval=maxval,
                         dtype=config.standardize_dtype(dtype))


def normal(shape, mean=0.0, stddev=1.0, dtype=None):
    """Normal random numbers from the shared seeded generator.

    >>> normal((2, 3)).shape
    (2, 3)
    """
    return _normal_prim(shape=tuple(shape), mean=mean, stddev=stddev,
                        dtype=config.standardize_dtype(dtype))
