"""Batches pulled from a Python generator (Keras 3's
``generator_data_adapter.py``).

>>> import numpy as np
>>> is_python_iterator(x for x in []), is_python_iterator(np.zeros(2))
(True, False)
"""

import numpy as np

from kerasmini.trainers.data_adapters.data_adapter_utils import as_batch
from kerasmini.trainers.data_adapters.py_dataset_adapter import PyDataset


class GeneratorDataAdapter:
    """Batches pulled from a Python iterator (a generator, say): each epoch
    takes ``steps_per_epoch`` more batches from the same iterator, or runs
    until it is exhausted when ``steps_per_epoch`` is None (then the number
    of batches is unknown: ``num_batches`` is None).

    >>> def batches():
    ...     for i in range(5):
    ...         yield np.full((2, 1), i), np.zeros(2)
    >>> it = GeneratorDataAdapter(batches(), steps_per_epoch=2)
    >>> [[int(b[0][0, 0]) for _, b in it] for epoch in range(3)]
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, iterator, steps_per_epoch=None, class_weight=None):
        self.iterator = iter(iterator)
        self.num_batches = steps_per_epoch
        self.class_weight = class_weight
        self._yielded = False

    def __iter__(self):
        step = 0
        while self.num_batches is None or step < self.num_batches:
            try:
                batch = next(self.iterator)
            except StopIteration:
                if not self._yielded:  # Keras 3's words
                    raise ValueError(
                        "When passing a Python generator to a Keras model, the "
                        "generator must yield at least one batch. Received an "
                        "empty generator.") from None
                return
            self._yielded = True
            yield step, as_batch(batch, self.class_weight, source="generator")
            step += 1


def is_python_iterator(x):
    """A generator or other iterator (not arrays, not a PyDataset).

    >>> is_python_iterator(iter([])), is_python_iterator(np.zeros(2))
    (True, False)
    """
    return hasattr(x, "__next__") and not isinstance(x, (np.ndarray, PyDataset))
