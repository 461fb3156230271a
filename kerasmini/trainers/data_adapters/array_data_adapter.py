"""Batches of NumPy arrays (Keras 3's ``array_data_adapter.py``).

``fit(x, y, batch_size=32)`` does not loop over ``x`` itself: an
:class:`ArrayDataAdapter` checks that every array has the same number of
samples, turns ``class_weight`` into per-sample weights, shuffles once per
epoch and hands out ``(x, y, sample_weight)`` batches (only the parts that
were given: ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``, as Keras's
data adapters do). ``x`` may be one array, a list of arrays or a dict of
arrays for a multi-input model; so may ``y``.

>>> import numpy as np
>>> batches = ArrayDataAdapter(np.arange(5), np.arange(5), batch_size=2)
>>> batches.num_batches, [b[0].tolist() for _, b in batches]
(3, [[0, 1], [2, 3], [4]])
"""

import math

import numpy as np

from kerasmini.backend import random, validation
from kerasmini.trainers import fit_checks
from kerasmini.trainers.data_adapters.data_adapter_utils import (
    batch_size_of,
    check_data_cardinality,
    class_weight_to_sample_weights,
    flat_arrays,
    map_arrays,
    pack_x_y_sample_weight,
)


class ArrayDataAdapter:
    """Batches of NumPy arrays, reshuffled at each pass.

    Iterating yields ``(step, batch)`` with ``batch`` a tuple ``(x,)``,
    ``(x, y)`` or ``(x, y, sample_weight)``.

    Args:
        x, y, sample_weight: arrays, or lists/dicts of arrays.
        batch_size: default 32.
        shuffle: shuffle the samples at the start of every epoch.
        class_weight: ``{class: weight}``, turned into ``sample_weight``.
        steps_per_epoch: stop an epoch after this many batches.
        allow_empty: accept ``x`` with no samples (one empty batch, for
            ``predict``); ``fit`` and ``evaluate`` refuse it.

    >>> it = ArrayDataAdapter(np.zeros((5, 2)), np.arange(5), batch_size=4)
    >>> [(step, batch[0].shape, batch[1].tolist()) for step, batch in it]
    [(0, (4, 2), [0, 1, 2, 3]), (1, (1, 2), [4])]
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                 class_weight=None, steps_per_epoch=None, allow_empty=False):
        if x is None:
            raise ValueError("Expected input data `x`. Received: x=None")
        x = fit_checks.data_leaves(x, "x")
        y = fit_checks.data_leaves(y, "y")
        sample_weight = fit_checks.data_leaves(sample_weight, "sample_weight")
        check_data_cardinality(x, y, sample_weight)
        fit_checks.check_sample_weight_shape(y, sample_weight)
        if class_weight is not None:
            fit_checks.check_class_weight(class_weight)
            if y is None:
                raise ValueError("`class_weight` needs targets `y`. Received: y=None")
            weights = class_weight_to_sample_weights(y, class_weight)
            sample_weight = weights if sample_weight is None else sample_weight * weights
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
            raise ValueError(
                "`batch_size` must be a positive integer. Received: "
                f"batch_size={batch_size!r}"
            )
        self.data = pack_x_y_sample_weight(x, y, sample_weight)
        self.num_samples = len(flat_arrays(x)[0])
        if not allow_empty:
            fit_checks.check_not_empty(self.num_samples, x, "fit` and `evaluate")
        self.batch_size = batch_size or 32
        self.shuffle = shuffle
        # no samples (predict only): one empty batch, so outputs have a shape
        self.num_batches = max(1, math.ceil(self.num_samples / self.batch_size))
        if validation.check_int(steps_per_epoch, "steps_per_epoch", minimum=1,
                                allow_none=True) is not None:
            self.num_batches = min(self.num_batches, steps_per_epoch)

    def __iter__(self):
        data = self.data
        if self.shuffle:
            order = random.generator().permutation(self.num_samples)
            data = map_arrays(lambda a: a[order], data)  # one copy per epoch
        # fast path: (x, y) as plain arrays are sliced directly, not mapped
        flat = all(type(a) is np.ndarray for a in data)
        for step in range(self.num_batches):
            start = step * self.batch_size
            end = start + self.batch_size
            if flat:
                yield step, tuple(a[start:end] for a in data)
            else:
                yield step, map_arrays(lambda a, s=start, e=end: a[s:e], data)

    def peek(self):
        """The first batch in the order of the data, without starting an
        epoch (no shuffle, so no random draw): what ``fit`` reads the shapes
        of to build the model before training.

        >>> ArrayDataAdapter(np.zeros((5, 2)), batch_size=4).peek()[0].shape
        (4, 2)
        """
        end = min(self.batch_size, self.num_samples)
        return map_arrays(lambda a: a[:end], self.data)

    def __repr__(self):
        return (f"<ArrayDataAdapter samples={self.num_samples}, "
                f"batch_size={self.batch_size}, batches={self.num_batches}>")


def single_batch(x, y=None, sample_weight=None, class_weight=None, allow_empty=False):
    """All of ``x`` (and ``y``...) as one batch, for ``train_on_batch`` & co.

    >>> [a.shape for a in single_batch(np.zeros((3, 2)), np.zeros(3))]
    [(3, 2), (3,)]
    """
    if x is None:
        raise ValueError("Expected input data `x`. Received: x=None")
    x = fit_checks.data_leaves(x, "x")
    batches = ArrayDataAdapter(x, y, sample_weight,
                               batch_size=max(1, batch_size_of(x)),
                               class_weight=class_weight, allow_empty=allow_empty)
    return next(iter(batches))[1]
