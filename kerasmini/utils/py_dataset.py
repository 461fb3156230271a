"""``PyDataset``: batches produced by Python code, as ``keras.utils.PyDataset``.

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

from kerasmini.api_export import keras_export


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


__all__ = ["PyDataset"]
