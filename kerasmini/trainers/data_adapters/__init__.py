"""Data adapters: from what ``fit`` is given to batches (Keras 3's
``trainers/data_adapters/``).

One adapter per kind of data, each with ``num_batches`` and ``(step, batch)``
pairs: :mod:`~kerasmini.trainers.data_adapters.array_data_adapter` (NumPy
arrays), :mod:`~kerasmini.trainers.data_adapters.py_dataset_adapter`
(``PyDataset``) and :mod:`~kerasmini.trainers.data_adapters.generator_data_adapter`
(Python generators); :mod:`~kerasmini.trainers.data_adapters.data_adapter_utils`
holds what they share. :class:`~kerasmini.trainers.epoch_iterator.EpochIterator`
picks one.
"""
