"""``EpochIterator``: the batches of one epoch, whatever the data is
(Keras 3's ``trainers/epoch_iterator.py``).

``fit``, ``evaluate`` and ``predict`` take arrays, a ``PyDataset`` or a
Python generator. :func:`get_data_adapter` picks the adapter that batches
each kind (``trainers/data_adapters/``); the trainer loops over the
``(step, batch)`` pairs of an :class:`EpochIterator` and reads its
``num_batches`` for the progress bar.

>>> import numpy as np
>>> batches = EpochIterator(np.arange(5), np.arange(5), batch_size=2)
>>> batches.num_batches, [b[0].tolist() for _, b in batches]
(3, [[0, 1], [2, 3], [4]])
"""

from kerasmini.trainers.data_adapters.array_data_adapter import ArrayDataAdapter
from kerasmini.trainers.data_adapters.generator_data_adapter import (
    GeneratorDataAdapter,
    is_python_iterator,
)
from kerasmini.trainers.data_adapters.py_dataset_adapter import (
    PyDataset,
    PyDatasetAdapter,
)


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None,
                     steps_per_epoch=None, shuffle=False, class_weight=None,
                     allow_empty=False):
    """An :class:`ArrayDataAdapter` over arrays, a :class:`PyDatasetAdapter`
    over a ``PyDataset`` or a :class:`GeneratorDataAdapter` over a Python
    generator (the last two bring their own targets: ``y`` must be None).

    >>> import numpy as np
    >>> type(get_data_adapter(np.zeros((5, 1)), batch_size=2)).__name__
    'ArrayDataAdapter'
    """
    if isinstance(x, PyDataset) or is_python_iterator(x):
        kind = "a PyDataset" if isinstance(x, PyDataset) else "a generator"
        if y is not None or sample_weight is not None:
            raise ValueError(
                f"When `x` is {kind} it provides the targets (and sample "
                "weights): do not pass `y` or `sample_weight`. Received: "
                f"y={type(y).__name__}, sample_weight={type(sample_weight).__name__}"
            )
        if batch_size is not None:
            raise ValueError(
                f"Do not specify `batch_size` when `x` is {kind}: it makes its own "
                f"batches. Received: batch_size={batch_size}")
        if isinstance(x, PyDataset):
            return PyDatasetAdapter(x, steps_per_epoch=steps_per_epoch,
                                    class_weight=class_weight, shuffle=shuffle)
        # a generator's order is its own: no shuffling
        return GeneratorDataAdapter(x, steps_per_epoch=steps_per_epoch,
                                    class_weight=class_weight)
    return ArrayDataAdapter(x, y, sample_weight, batch_size=batch_size,
                            shuffle=shuffle, class_weight=class_weight,
                            steps_per_epoch=steps_per_epoch, allow_empty=allow_empty)


class EpochIterator:
    """The ``(step, batch)`` pairs of an epoch, and how many there are.

    Args:
        x, y, sample_weight: arrays (or lists/dicts of arrays), or ``x`` a
            ``PyDataset`` or a generator that brings its own targets.
        batch_size: for arrays only (default 32).
        steps_per_epoch: stop an epoch after this many batches.
        shuffle: a new order every epoch (samples of arrays, batches of a
            ``PyDataset``).
        class_weight: ``{class: weight}``, turned into sample weights.
        allow_empty: accept arrays with no samples (``predict``).

    >>> import numpy as np
    >>> EpochIterator(np.zeros((100, 2))).num_batches
    4
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=None,
                 steps_per_epoch=None, shuffle=False, class_weight=None,
                 allow_empty=False):
        self.data_adapter = get_data_adapter(
            x, y, sample_weight, batch_size=batch_size,
            steps_per_epoch=steps_per_epoch, shuffle=shuffle,
            class_weight=class_weight, allow_empty=allow_empty)
        self.num_batches = self.data_adapter.num_batches  # None: unknown

    def __iter__(self):
        return iter(self.data_adapter)

    def __repr__(self):
        return (f"<EpochIterator {type(self.data_adapter).__name__}, "
                f"batches={self.num_batches}>")


__all__ = ["EpochIterator", "get_data_adapter"]
