"""What every data adapter shares (Keras 3's ``data_adapter_utils.py``).

A batch is a tuple ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``, each
part an array or a list/dict of arrays: :func:`unpack_x_y_sample_weight`
takes one apart, as ``train_step`` does. The rest checks and reshapes the
arrays given to ``fit``: the same number of samples everywhere,
``class_weight`` turned into per-sample weights, the hold-out of
``validation_split``, and the outputs of ``predict`` joined batch by batch.

>>> import numpy as np
>>> unpack_x_y_sample_weight((np.zeros(2), np.ones(2)))[2] is None
True
"""

import math

import numpy as np

from kerasmini import tree
from kerasmini.backend import validation
from kerasmini.trainers import fit_checks


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


def as_batch(batch, class_weight=None, source="PyDataset"):
    """A batch from Python code as a tuple of arrays; ``class_weight`` turned
    into (or multiplied into) its sample weights.

    >>> [a.tolist() for a in as_batch(([1.0], [0]), class_weight={0: 2.0})]
    [[1.0], [0], [2.0]]
    """
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
