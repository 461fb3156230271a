"""``EpochIterator``: the batches of one epoch, whatever the data is
(Keras 3's ``trainers/epoch_iterator.py``).

``fit``, ``evaluate`` and ``predict`` take arrays, a ``PyDataset`` or a
Python generator. :func:`get_data_adapter` picks the adapter that batches
each kind (``trainers/data_adapters/``); the trainer loops over an
:class:`EpochIterator`, which hands the batches out ``steps_per_execution``
at a time, as ``(begin_step, end_step, batches)``: one call of the train
function per item, which runs one step per batch of the list. Its
``num_batches`` is what the progress bar counts to.

>>> import numpy as np
>>> it = EpochIterator(np.arange(5), np.arange(5), batch_size=2)
>>> it.num_batches, [(b, e, [x.tolist() for x, y in data]) for b, e, data in it]
(3, [(0, 0, [[0, 1]]), (1, 1, [[2, 3]]), (2, 2, [[4]])])
"""

from kerasmini.backend import validation
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
    """One epoch's batches, ``steps_per_execution`` at a time.

    Iterating it gives ``(begin_step, end_step, batches)``: ``batches`` a list
    of ``steps_per_execution`` batches (the last list of an epoch may be
    shorter), ``begin_step`` and ``end_step`` the numbers of its first and
    last batch in the epoch, which the callbacks receive. Every iteration is
    a new epoch (reshuffled if ``shuffle``).

    Args:
        x, y, sample_weight: arrays (or lists/dicts of arrays), or ``x`` a
            ``PyDataset`` or a generator that brings its own targets.
        batch_size: for arrays only (default 32).
        steps_per_epoch: stop an epoch after this many batches.
        shuffle: a new order every epoch (samples of arrays, batches of a
            ``PyDataset``).
        class_weight: ``{class: weight}``, turned into sample weights.
        steps_per_execution: how many batches each item holds (``compile``'s
            argument: the train function runs that many steps per call).
        allow_empty: accept arrays with no samples (``predict``).

    >>> import numpy as np
    >>> it = EpochIterator(np.zeros((100, 2)), steps_per_execution=3)
    >>> it.num_batches, [(begin, end, len(data)) for begin, end, data in it]
    (4, [(0, 2, 3), (3, 3, 1)])
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=None,
                 steps_per_epoch=None, shuffle=False, class_weight=None,
                 steps_per_execution=1, allow_empty=False):
        self.steps_per_execution = validation.check_int(
            steps_per_execution, "steps_per_execution", minimum=1)
        self.data_adapter = get_data_adapter(
            x, y, sample_weight, batch_size=batch_size,
            steps_per_epoch=steps_per_epoch, shuffle=shuffle,
            class_weight=class_weight, allow_empty=allow_empty)
        self.num_batches = self.data_adapter.num_batches  # None: unknown

    def __iter__(self):
        batches = []
        for step, batch in self.data_adapter:  # one epoch of the adapter
            batches.append(batch)
            if len(batches) == self.steps_per_execution:
                yield step - len(batches) + 1, step, batches
                batches = []
        if batches:  # the epoch ran out before the list was full
            yield step - len(batches) + 1, step, batches

    def peek(self):
        """One batch to read shapes from, taking nothing from the epochs."""
        return self.data_adapter.peek()

    def __repr__(self):
        return (f"<EpochIterator {type(self.data_adapter).__name__}, "
                f"batches={self.num_batches}, "
                f"steps_per_execution={self.steps_per_execution}>")


__all__ = ["EpochIterator", "get_data_adapter"]
