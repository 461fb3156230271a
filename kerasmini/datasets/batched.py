"""The ``PyDataset`` that ``image_dataset_from_directory``,
``text_dataset_from_directory`` and ``timeseries_dataset_from_array`` return.

Keras 3 returns a ``tf.data.Dataset`` (or a Grain dataset); kerasmini has
neither, so these return a :class:`~kerasmini.utils.PyDataset` that ``fit``,
``evaluate`` and ``predict`` take as they are, and that a ``for`` loop walks
batch by batch. The samples (files, or start positions of sequences) are
listed once; a batch is read when it is asked for.

Order: the first pass goes through the samples in the order Keras lists them
(shuffled by ``np.random.RandomState(seed)`` when ``shuffle=True``). With
``shuffle=True`` every later pass reshuffles them, from a generator seeded
with ``seed``, so runs repeat. (TensorFlow's ``shuffle`` buffer, which Keras
adds on top, cannot be reproduced without TensorFlow: the same samples, in
another order.)

>>> import numpy as np
>>> ds = BatchedDataset(list(range(5)), lambda ids: np.array(ids), batch_size=2)
>>> len(ds), [batch.tolist() for batch in ds]
(3, [[0, 1], [2, 3], [4]])
"""

import numpy as np

from kerasmini.trainers.data_adapters.py_dataset_adapter import PyDataset


class BatchedDataset(PyDataset):
    """Batches of ``make_batch(sample_ids)`` over ``samples``.

    Args:
        samples: what identifies each sample (paths, start positions...).
        make_batch: ``f(list of samples) -> batch``.
        batch_size: samples per batch, or None: one sample at a time, as
            ``make_sample(sample)`` (``make_batch`` of one, then unbatched).
        shuffle: reshuffle the samples after every pass.
        seed: the reshuffling seed.

    >>> ds = BatchedDataset(["a", "b", "c"], lambda ids: "".join(ids))
    >>> len(ds), ds[0], ds[-1]
    (3, 'a', 'c')
    """

    def __init__(self, samples, make_batch, batch_size=None, shuffle=False, seed=None,
                 make_sample=None):
        super().__init__()
        self.samples = list(samples)
        self.make_batch = make_batch
        self.make_sample = make_sample
        self.batch_size = batch_size
        self.shuffle = shuffle
        self._rng = np.random.RandomState(seed)

    def __len__(self):
        if self.batch_size is None:
            return len(self.samples)
        return -(-len(self.samples) // self.batch_size)  # ceil

    def __getitem__(self, index):
        if not isinstance(index, (int, np.integer)) or not -len(self) <= index < len(self):
            raise IndexError(f"{type(self).__name__} has {len(self)} batches. "
                             f"Received: index={index!r}")
        index = int(index) % len(self)
        if self.batch_size is None:
            sample = self.samples[index]
            if self.make_sample is not None:
                return self.make_sample(sample)
            return _unbatch(self.make_batch([sample]))
        start = index * self.batch_size
        return self.make_batch(self.samples[start:start + self.batch_size])

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]
        self.on_epoch_end()

    def on_epoch_end(self):
        if self.shuffle:
            order = self._rng.permutation(len(self.samples))
            self.samples = [self.samples[i] for i in order]

    def __repr__(self):
        return (f"<{type(self).__name__} batches={len(self)}, "
                f"samples={len(self.samples)}, batch_size={self.batch_size}>")


def _unbatch(batch):
    if isinstance(batch, tuple):
        return tuple(part[0] for part in batch)
    return batch[0]
