"""``PyDataset``: batches produced by Python code, as ``keras.utils.PyDataset``
(Keras 3 defines it in ``trainers/data_adapters/py_dataset_adapter.py``, with
the adapter that reads it, :class:`PyDatasetAdapter`).

Subclass it, give ``__len__`` (the number of batches) and ``__getitem__``
(batch ``i`` as ``x``, ``(x, y)`` or ``(x, y, sample_weight)``), and pass an
instance to ``fit``, ``evaluate`` or ``predict`` in place of arrays;
``on_epoch_end`` runs after every epoch (to reshuffle, say). Keras can load
batches in worker threads or processes; kerasmini accepts those arguments and
loads batches in order, in the calling thread.

>>> import numpy as np
>>> class Squares(PyDataset):
...     def __len__(self):
...         return 2
...     def __getitem__(self, index):
...         x = np.full((3, 1), float(index))
...         return x, x ** 2
>>> len(Squares()), Squares()[1][1].ravel().tolist()
(2, [1.0, 1.0, 1.0])
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import random, validation
from kerasmini.trainers.data_adapters.data_adapter_utils import as_batch


@keras_export("kerasmini.utils.PyDataset")
class PyDataset:
    """Base class of datasets written in Python.

    Args:
        workers, use_multiprocessing, max_queue_size: accepted for Keras's
            signature; kerasmini reads batches in order, in this thread.

    >>> PyDataset().num_batches
    Traceback (most recent call last):
      ...
    NotImplementedError: PyDataset subclasses must implement `__len__` (the number of batches).
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self.workers = workers
        self.use_multiprocessing = use_multiprocessing
        self.max_queue_size = max_queue_size

    def __getitem__(self, index):
        raise NotImplementedError(
            "PyDataset subclasses must implement `__getitem__` (batch number "
            f"`index`). Received: index={index}"
        )

    def __len__(self):
        raise NotImplementedError(
            "PyDataset subclasses must implement `__len__` (the number of batches)."
        )

    @property
    def num_batches(self):
        """The number of batches in an epoch (``len(self)``)."""
        return len(self)

    def on_epoch_end(self):
        """Called after each epoch; override to reshuffle."""


class PyDatasetAdapter:
    """Batches of a :class:`PyDataset`, one pass per epoch (``on_epoch_end``
    after each), in order or, with ``shuffle=True`` (what ``fit`` passes by
    default, as Keras does), in a fresh order of the batch indices every
    epoch; the interface of every adapter: ``num_batches`` and ``(step,
    batch)`` pairs.

    >>> import numpy as np
    >>> class Two(PyDataset):
    ...     def __len__(self):
    ...         return 2
    ...     def __getitem__(self, i):
    ...         return np.full((2, 1), i), np.zeros(2)
    >>> [(step, batch[0].ravel().tolist()) for step, batch in PyDatasetAdapter(Two())]
    [(0, [0, 0]), (1, [1, 1])]
    >>> sorted(int(b[0][0, 0]) for _, b in PyDatasetAdapter(Two(), shuffle=True))
    [0, 1]
    """

    def __init__(self, dataset, steps_per_epoch=None, class_weight=None,
                 shuffle=False):
        self.dataset = dataset
        self.class_weight = class_weight
        self.shuffle = shuffle
        self.num_batches = len(dataset)
        if self.num_batches == 0:  # Keras 3 fails later, on a batch of None
            raise ValueError(
                "A PyDataset must have at least one batch. Received: x of type "
                f"{type(dataset).__name__}, with len(x)=0")
        if validation.check_int(steps_per_epoch, "steps_per_epoch", minimum=1,
                                allow_none=True) is not None:
            self.num_batches = min(self.num_batches, steps_per_epoch)

    def __iter__(self):
        order = np.arange(len(self.dataset))
        if self.shuffle:
            order = random.generator().permutation(order)
        for step in range(self.num_batches):
            yield step, as_batch(self.dataset[int(order[step])], self.class_weight)
        self.dataset.on_epoch_end()


__all__ = ["PyDataset", "PyDatasetAdapter"]
