"""A cap on the bytes of weights a model may create while it is loaded.

A ``.keras`` file holds a config and the weights. A damaged or hostile config
can ask for ``Dense(10**12)``; building it would try to allocate terabytes
before any weight is read. While :func:`~kerasmini.saving.saving_lib.load_model`
rebuilds a model it opens a :class:`weight_budget` of what the weights file
can justify, and every variable creation spends from it (through the
backend's ``CREATION_CHECKS`` hook), so such a file fails with a clear error.

>>> from kerasmini.layers import Dense
>>> with weight_budget(1000):
...     Dense(10**6, name="big").build((None, 4))  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
ValueError: Creating weight 'big/kernel' of shape (4, 1000000) (16000000 bytes) exceeds ...
"""

import numpy as np

from kerasmini.backend.variables import CREATION_CHECKS


class weight_budget:  # noqa: N801 (a context manager, named like one)
    """Refuse variable creations beyond ``max_bytes`` in total while open.

    >>> from kerasmini.layers import Dense
    >>> with weight_budget(64) as budget:
    ...     _ = Dense(4, name="small").build((None, 3))
    >>> budget.remaining
    0
    """

    def __init__(self, max_bytes):
        self.remaining = int(max_bytes)

    def spend(self, path, shape, dtype):
        size = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
        if size > self.remaining:
            raise ValueError(
                f"Creating weight '{path}' of shape {shape} ({size} bytes) exceeds "
                f"what the file being loaded can hold ({self.remaining} bytes "
                "left). The configuration is damaged or hostile."
            )
        self.remaining -= size

    def __enter__(self):
        CREATION_CHECKS.append(self.spend)
        return self

    def __exit__(self, *exc):
        CREATION_CHECKS.remove(self.spend)
        return False
