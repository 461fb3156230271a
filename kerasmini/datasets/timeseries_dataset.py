"""``keras.utils.timeseries_dataset_from_array``: sliding windows over a
series, as batches of ``(sequences, targets)``.

Window ``i`` starts at ``start_positions[i]`` (every ``sequence_stride``
steps, shuffled by ``np.random.RandomState(seed)`` if asked) and takes
``sequence_length`` steps ``sampling_rate`` apart; its target is
``targets[start]``. The windows and checks are Keras 3's; the result is a
``PyDataset`` whose batches, with ``shuffle=False``, are Keras's.

>>> ds = timeseries_dataset_from_array(np.arange(10), None, sequence_length=3,
...                                    sequence_stride=3, batch_size=2)
>>> [batch.tolist() for batch in ds]
[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8]]]
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.datasets.batched import BatchedDataset
from kerasmini.utils.errors import names_its_errors

OWNER = "timeseries_dataset_from_array"


def _as_array(values, name):
    try:
        array = np.asarray(values)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{OWNER}: argument `{name}` must be an array (or a list of "
                         f"equally shaped values). Received: {e}") from None
    if array.ndim == 0 or array.dtype == object:
        raise ValueError(f"{OWNER}: argument `{name}` must be an array with a time "
                         f"axis first. Received: {name} of shape {array.shape} and "
                         f"dtype {array.dtype}")
    return array


def _check_indices(start_index, end_index, sampling_rate, sequence_stride, length):
    """Keras's checks, in Keras's order and words."""
    if start_index:
        if start_index < 0:
            raise ValueError("`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= length:
            raise ValueError("`start_index` must be lower than the length of the "
                             f"data. Received: start_index={start_index}, for data "
                             f"of length {length}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. "
                             f"Received: start_index={start_index}, and "
                             f"end_index={end_index} ")
        if end_index >= length:
            raise ValueError("`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length "
                             f"{length}")
        if end_index <= 0:
            raise ValueError("`end_index` must be higher than 0. "
                             f"Received: end_index={end_index}")
    for name, value in (("sampling_rate", sampling_rate),
                        ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: "
                             f"{name}={value}")
        if value >= length:
            raise ValueError(f"`{name}` must be lower than the length of the data. "
                             f"Received: {name}={value}, for data of length {length}")


@keras_export("kerasmini.utils.timeseries_dataset_from_array")
@names_its_errors
def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False,
                                  seed=None, start_index=None, end_index=None,
                                  format="tf"):
    """Windows of ``data`` (a ``PyDataset``).

    Args:
        data: an array with time first, ``(steps, ...)``.
        targets: ``targets[i]`` goes with the window starting at ``i``; or
            None (batches are the windows alone).
        sequence_length: steps per window.
        sequence_stride: steps between the starts of two windows.
        sampling_rate: steps between two samples of a window.
        batch_size: windows per batch; None for single windows.
        shuffle, seed: shuffle the windows.
        start_index, end_index: use ``data[start_index:end_index]`` only.
        format: ``"tf"`` or ``"grain"``: accepted; both give a ``PyDataset``.

    Returns:
        A ``PyDataset`` of ``(sequences, targets)`` or ``sequences``, shaped
        ``(batch, sequence_length) + data.shape[1:]`` and
        ``(batch,) + targets.shape[1:]``.

    >>> timeseries_dataset_from_array(np.arange(10), None, sequence_length=3,
    ...                               sampling_rate=0)
    Traceback (most recent call last):
      ...
    ValueError: timeseries_dataset_from_array: `sampling_rate` must be higher than 0. ...
    """
    data = _as_array(data, "data")
    if targets is not None:
        targets = _as_array(targets, "targets")
    sequence_length = validation.check_int(sequence_length, "sequence_length",
                                           minimum=1, owner=OWNER)
    for name, value in (("sequence_stride", sequence_stride),
                        ("sampling_rate", sampling_rate)):
        validation.check_int(value, name, owner=OWNER)
    for name, value in (("start_index", start_index), ("end_index", end_index),
                        ("seed", seed)):
        validation.check_int(value, name, allow_none=True, owner=OWNER)
    validation.check_int(batch_size, "batch_size", minimum=1, allow_none=True,
                         owner=OWNER)
    validation.check_bool(shuffle, "shuffle", owner=OWNER)
    _check_indices(start_index, end_index, sampling_rate, sequence_stride, len(data))
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")

    start = start_index or 0
    end = len(data) if end_index is None else end_index
    num_seqs = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    positions = np.arange(0, max(num_seqs, 0), sequence_stride)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(positions)
    window = np.arange(sequence_length) * sampling_rate  # offsets inside a window
    steps = data[start:end]
    target_steps = None if targets is None else targets[start:end]

    def make_batch(batch_positions):
        batch_positions = np.asarray(batch_positions, dtype=np.int64)
        sequences = steps[batch_positions[:, None] + window]
        if target_steps is None:
            return sequences
        return sequences, target_steps[batch_positions]

    return BatchedDataset(positions.tolist(), make_batch, batch_size, shuffle, seed)


__all__ = ["timeseries_dataset_from_array"]
