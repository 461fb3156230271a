"""The trainer floor: ``compile``, ``fit``, ``evaluate``, ``predict``
(Keras 3's ``keras/src/trainers/``).

:mod:`~kerasmini.trainers.trainer` (``Trainer``, the second base of
``Model``), :mod:`~kerasmini.trainers.compile_utils` (what ``compile(loss=,
metrics=)`` becomes), :mod:`~kerasmini.trainers.epoch_iterator` and the
:mod:`~kerasmini.trainers.data_adapters` (from arrays, a ``PyDataset`` or a
generator to batches), :mod:`~kerasmini.trainers.fit_checks` (the arguments
of ``fit`` checked before anything runs).
"""
