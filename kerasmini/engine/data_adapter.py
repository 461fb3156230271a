"""From the arrays given to ``fit``/``evaluate``/``predict`` to batches.

``fit(x, y, batch_size=32)`` does not loop over ``x`` itself: an
:class:`EpochIterator` checks that every array has the same number of
samples, turns ``class_weight`` into per-sample weights, shuffles once per
epoch and hands out ``(x, y, sample_weight)`` batches (only the parts that
were given: ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``, as Keras's
data adapters do). ``x`` may be one array, a list of arrays or a dict of
arrays for a multi-input model; so may ``y``.

>>> import numpy as np
>>> batches = EpochIterator(np.arange(5), np.arange(5), batch_size=2, shuffle=False)
>>> batches.num_batches, [b[0].tolist() for _, b in batches]
(3, [[0, 1], [2, 3], [4]])
"""

import math

import numpy as np

from kerasmini import tree
from kerasmini.backend import random
from kerasmini.engine import fit_checks, validation
from kerasmini.utils.py_dataset import PyDataset


def unpack_x_y_sample_weight(data):
    """Split a batch (``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sw)``) in three.

    >>> unpack_x_y_sample_weight((1, 2))
    (1, 2, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
        f"`(x, y, sample_weight)`, found: {data}"
    )


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The inverse of :func:`unpack_x_y_sample_weight` (``None`` parts dropped).

    >>> pack_x_y_sample_weight(1, 2)
    (1, 2)
    """
    if y is None:
        return (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def map_arrays(fn, structure):
    """Apply ``fn`` to every array of a nest, leaving ``None`` parts alone.

    >>> map_arrays(lambda a: a * 2, [1, {"b": 2, "c": None}])
    [2, {'b': 4, 'c': None}]
    """
    return tree.map_structure(lambda a: None if a is None else fn(a), structure)


def flat_arrays(structure):
    """The arrays of a nest, in :func:`kerasmini.tree.flatten` order.

    >>> flat_arrays({"a": 1, "b": [2, None, 3]})
    [1, 2, 3]
    """
    return [a for a in tree.flatten(structure) if a is not None]


def _to_array(x, name="x"):
    return validation.to_data_array(x, name)


def check_data_cardinality(x, y=None, sample_weight=None):
    """Every array must have the same number of samples (first axis).

    >>> check_data_cardinality(np.zeros((4, 2)), np.zeros(3))
    Traceback (most recent call last):
      ...
    ValueError: Data cardinality is ambiguous. Make sure all arrays contain the same ...
    """
    parts = [("x", x), ("y", y), ("sample_weight", sample_weight)]
    sizes = {label: [len(a) for a in flat_arrays(data)] for label, data in parts
             if data is not None}
    if len({n for ns in sizes.values() for n in ns}) > 1:
        detail = ", ".join(f"'{label}' sizes: {', '.join(map(str, ns))}"
                           for label, ns in sizes.items())
        raise ValueError(
            "Data cardinality is ambiguous. Make sure all arrays contain the same "
            f"number of samples. {detail}"
        )


def class_weight_to_sample_weights(y, class_weight):
    """One weight per sample, looked up by its class.

    ``y`` holds integer labels (``(n,)`` or ``(n, 1)``) or one-hot rows.

    >>> class_weight_to_sample_weights(np.array([0, 1, 1]), {0: 1.0, 1: 3.0})
    array([1., 3., 3.], dtype=float32)
    """
    if isinstance(y, (list, tuple, dict)):
        raise ValueError(
            "`class_weight` is only supported for models with a single output. "
            f"Received: class_weight={class_weight}"
        )
    y = np.asarray(y)
    labels = y.argmax(axis=-1) if y.ndim == 2 and y.shape[1] > 1 else y.reshape(len(y))
    labels = labels.astype("int64")
    missing = sorted(set(np.unique(labels).tolist()) - set(class_weight))
    if missing:
        raise ValueError(
            f"`class_weight` must contain all classes in the data. The classes "
            f"{missing} exist in the data but not in `class_weight`. Received: "
            f"class_weight={class_weight}"
        )
    table = np.zeros(max(max(class_weight), labels.max()) + 1, dtype="float32")
    for label, weight in class_weight.items():
        table[label] = weight
    return table[labels]


def train_validation_split(arrays, validation_split):
    """Keep the first ``1 - validation_split`` of the samples for training and
    the rest for validation (no shuffling, as in Keras).

    >>> (train, val) = train_validation_split((np.arange(10), None), 0.2)
    >>> train[0].tolist(), val[0].tolist()
    ([0, 1, 2, 3, 4, 5, 6, 7], [8, 9])
    """
    validation.check_float(validation_split, "validation_split")
    arrays = tuple(fit_checks.data_leaves(part, name) for part, name in
                   zip(arrays, ("x", "y", "sample_weight")))
    if not 0 < validation_split < 1:
        raise ValueError(
            "`validation_split` must be between 0 and 1 (exclusive). Received: "
            f"validation_split={validation_split}"
        )
    num_samples = len(flat_arrays(arrays)[0])
    split_at = int(math.floor(num_samples * (1.0 - validation_split)))
    if split_at == 0 or split_at == num_samples:
        raise ValueError(
            f"Training data contains {num_samples} samples, which is not "
            "sufficient to split it into a validation and training set as "
            f"specified by `validation_split={validation_split}`. Either provide "
            "more data, or a different value for the `validation_split` argument."
        )
    train = map_arrays(lambda a: a[:split_at], arrays)
    val = map_arrays(lambda a: a[split_at:], arrays)
    return train, val


class EpochIterator:
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

    >>> it = EpochIterator(np.zeros((5, 2)), np.arange(5), batch_size=4)
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

    def __repr__(self):
        return (f"<EpochIterator samples={self.num_samples}, "
                f"batch_size={self.batch_size}, batches={self.num_batches}>")


def _as_batch(batch, class_weight=None, source="PyDataset"):
    """A batch from Python code as a tuple of arrays; ``class_weight`` turned
    into (or multiplied into) its sample weights."""
    if isinstance(batch, (tuple, list)) and not 1 <= len(batch) <= 3:
        # Keras 3's words for each source; a fourth item was dropped silently
        received = f"a {type(batch).__name__} of {len(batch)} items"
        if source == "PyDataset":
            raise ValueError(
                "PyDataset.__getitem__() must return a tuple or a dict. If a tuple, "
                "it must be ordered either (input,) or (inputs, targets) or "
                f"(inputs, targets, sample_weights). Received: {received}")
        raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, "
                         f"or `(x, y, sample_weight)`, found: {received}")
    batch = tuple(batch) if isinstance(batch, (tuple, list)) else (batch,)
    batch = tuple(fit_checks.data_leaves(part, name)
                  for part, name in zip(batch, ("x", "y", "sample_weight")))
    if class_weight is not None:
        x, y, sample_weight = unpack_x_y_sample_weight(batch)
        if y is None:
            raise ValueError("`class_weight` needs targets: the batches must be "
                             "`(x, y)` or `(x, y, sample_weight)`.")
        weights = class_weight_to_sample_weights(y, class_weight)
        sample_weight = weights if sample_weight is None else sample_weight * weights
        batch = (x, y, sample_weight)
    return batch


class DatasetIterator:
    """Batches of a :class:`~kerasmini.utils.PyDataset`, one pass per epoch
    (``on_epoch_end`` after each), in order or, with ``shuffle=True`` (what
    ``fit`` passes by default, as Keras does), in a fresh order of the batch
    indices every epoch; same interface as :class:`EpochIterator`.

    >>> from kerasmini.utils import PyDataset
    >>> class Two(PyDataset):
    ...     def __len__(self):
    ...         return 2
    ...     def __getitem__(self, i):
    ...         return np.full((2, 1), i), np.zeros(2)
    >>> [(step, batch[0].ravel().tolist()) for step, batch in DatasetIterator(Two())]
    [(0, [0, 0]), (1, [1, 1])]
    >>> sorted(int(b[0][0, 0]) for _, b in DatasetIterator(Two(), shuffle=True))
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
            yield step, _as_batch(self.dataset[int(order[step])], self.class_weight)
        self.dataset.on_epoch_end()


class GeneratorIterator:
    """Batches pulled from a Python iterator (a generator, say): each epoch
    takes ``steps_per_epoch`` more batches from the same iterator, or runs
    until it is exhausted when ``steps_per_epoch`` is None (then the number
    of batches is unknown: ``num_batches`` is None).

    >>> def batches():
    ...     for i in range(5):
    ...         yield np.full((2, 1), i), np.zeros(2)
    >>> it = GeneratorIterator(batches(), steps_per_epoch=2)
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
            yield step, _as_batch(batch, self.class_weight, source="generator")
            step += 1


def is_python_iterator(x):
    """A generator or other iterator (not arrays, not a PyDataset).

    >>> is_python_iterator(iter([])), is_python_iterator(np.zeros(2))
    (True, False)
    """
    return hasattr(x, "__next__") and not isinstance(x, (np.ndarray, PyDataset))


def epoch_iterator(x, y=None, sample_weight=None, **kwargs):
    """An :class:`EpochIterator` over arrays, a :class:`DatasetIterator` over
    a ``PyDataset`` or a :class:`GeneratorIterator` over a Python generator
    (the last two bring their own targets: ``y`` must be None).

    >>> epoch_iterator(np.zeros((5, 1)), batch_size=2).num_batches
    3
    """
    if isinstance(x, PyDataset) or is_python_iterator(x):
        kind = "a PyDataset" if isinstance(x, PyDataset) else "a generator"
        if y is not None or sample_weight is not None:
            raise ValueError(
                f"When `x` is {kind} it provides the targets (and sample "
                "weights): do not pass `y` or `sample_weight`. Received: "
                f"y={type(y).__name__}, sample_weight={type(sample_weight).__name__}"
            )
        if kwargs.get("batch_size") is not None:
            raise ValueError(
                f"Do not specify `batch_size` when `x` is {kind}: it makes its own "
                f"batches. Received: batch_size={kwargs['batch_size']}")
        cls = DatasetIterator if isinstance(x, PyDataset) else GeneratorIterator
        if cls is DatasetIterator:  # a generator's order is its own
            return cls(x, steps_per_epoch=kwargs.get("steps_per_epoch"),
                       class_weight=kwargs.get("class_weight"),
                       shuffle=kwargs.get("shuffle", False))
        return cls(x, steps_per_epoch=kwargs.get("steps_per_epoch"),
                   class_weight=kwargs.get("class_weight"))
    return EpochIterator(x, y, sample_weight, **kwargs)


def single_batch(x, y=None, sample_weight=None, class_weight=None, allow_empty=False):
    """All of ``x`` (and ``y``...) as one batch, for ``train_on_batch`` & co.

    >>> [a.shape for a in single_batch(np.zeros((3, 2)), np.zeros(3))]
    [(3, 2), (3,)]
    """
    if x is None:
        raise ValueError("Expected input data `x`. Received: x=None")
    x = fit_checks.data_leaves(x, "x")
    batches = EpochIterator(x, y, sample_weight, batch_size=max(1, batch_size_of(x)),
                            class_weight=class_weight, allow_empty=allow_empty)
    return next(iter(batches))[1]


def batch_size_of(x):
    """The number of samples in ``x`` (an array or a nest of arrays).

    >>> batch_size_of([np.zeros((3, 2)), np.zeros((3,))])
    3
    """
    return np.shape(flat_arrays(x)[0])[0]


def concatenate_batches(outputs):
    """Join per-batch outputs (arrays, or lists/dicts of arrays) along axis 0.

    >>> concatenate_batches([np.zeros((2, 1)), np.ones((1, 1))]).ravel().tolist()
    [0.0, 0.0, 1.0]
    """
    first = outputs[0]
    if isinstance(first, dict):
        return {k: np.concatenate([np.asarray(o[k]) for o in outputs]) for k in first}
    if isinstance(first, (list, tuple)):
        return [np.concatenate([np.asarray(o[i]) for o in outputs])
                for i in range(len(first))]
    return np.concatenate([np.asarray(o) for o in outputs])
