"""``DataLayer``: what the preprocessing layers share.

Keras 3 gives its preprocessing layers a base, ``DataLayer``, so that they
also run inside a ``tf.data`` or ``grain`` pipeline whatever the backend.
kerasmini has neither pipeline: a dataset here is a ``keras.utils.PyDataset``
(or any iterable of batches), and its batches are NumPy arrays that reach
the layer through ``fit``, or through ``adapt``. So the base keeps two
things: how ``adapt`` reads its data (:func:`batches_of`), and the encoding
of integer indices into ``one_hot``/``multi_hot``/``count`` vectors that the
lookups and ``Discretization`` share (:func:`encode_categorical_inputs`).

>>> [b.shape for b in batches_of(np.zeros((5, 2)))]
[(5, 2)]
>>> encode_categorical_inputs(np.array([[1, 1, 3]]), "count", depth=4)
array([[0., 2., 0., 1.]], dtype=float32)
"""

import numpy as np

from kerasmini.backend.core import is_tensor
from kerasmini.engine.base_layer import Layer

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count")


def first_of(batch):
    """The inputs of a batch: ``x`` of an ``(x, y)`` or ``(x, y, w)`` tuple.

    >>> first_of((np.ones(2), np.zeros(2))).tolist()
    [1.0, 1.0]
    """
    if isinstance(batch, tuple) and batch:
        return batch[0]
    return batch


def batches_of(data, steps=None, owner="adapt"):
    """The batches ``adapt`` reads from ``data``: an array (or a list of
    values) is one batch; a ``PyDataset`` gives ``data[0]``, ``data[1]``...;
    any other iterable (a generator, a list of arrays) its items. ``steps``
    stops after that many batches.

    >>> list(batches_of([np.ones(1), np.zeros(1)], steps=1))
    [array([1.])]
    """
    if isinstance(data, np.ndarray) or is_tensor(data) or isinstance(data, str):
        yield data
        return
    if hasattr(data, "num_batches") and hasattr(data, "__getitem__"):
        items = (data[i] for i in range(len(data)))  # a PyDataset
    elif isinstance(data, (list, tuple)) and not any(
            isinstance(item, np.ndarray) or is_tensor(item) for item in data):
        yield data  # a list of values is one batch of them
        return
    elif hasattr(data, "__iter__"):
        items = iter(data)
    else:
        raise TypeError(
            f"`{owner}` takes a NumPy array, a `keras.utils.PyDataset` or an "
            "iterable of batches (a list of arrays, a generator). Received: "
            f"data={data!r} (of type {type(data).__name__})"
        )
    for step, batch in enumerate(items):
        if steps is not None and step >= steps:
            return
        yield first_of(batch)


def encode_categorical_inputs(indices, output_mode, depth, dtype="float32"):
    """Integer indices (a NumPy array) as Keras's ``output_mode`` vectors of
    size ``depth``: ``"one_hot"`` one vector per index (a last axis of size 1
    is replaced), ``"multi_hot"`` and ``"count"`` one vector per sample (the
    last axis is summed away), ``"int"`` the indices unchanged, cast to
    ``dtype``. An index outside ``[0, depth)`` (a mask) sets no position.

    >>> encode_categorical_inputs(np.array([2, 0]), "one_hot", depth=3).tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    indices = np.asarray(indices)
    if output_mode == "int":
        return indices.astype(dtype)
    if indices.ndim == 0:
        indices = indices[None]
    if output_mode == "one_hot" and indices.ndim > 1 and indices.shape[-1] == 1:
        indices = indices[..., 0]
    valid = (indices >= 0) & (indices < depth)
    one_hot = (np.arange(depth) == np.where(valid, indices, -1)[..., None])
    one_hot = one_hot.astype(dtype)  # (..., depth)
    if output_mode == "one_hot":
        return one_hot
    axis = -2 if indices.ndim > 1 else 0  # the sample's steps
    if output_mode == "multi_hot":
        return one_hot.max(axis=axis)
    return one_hot.sum(axis=axis)


class DataLayer(Layer):
    """Base class of the preprocessing layers (Keras 3's ``DataLayer``).

    A subclass that draws random numbers sets ``self.seed`` and
    ``self.generator`` (a :class:`~kerasmini.random.SeedGenerator`) in its
    ``__init__``, as Keras's do.

    >>> DataLayer(name="d").name
    'd'
    """

    def _get_seed_generator(self, backend=None):
        if not hasattr(self, "seed") or not hasattr(self, "generator"):
            raise ValueError(
                "The `seed` and `generator` variable must be set in the "
                "`__init__` method before calling `_get_seed_generator()`."
            )
        return self.generator


__all__ = ["DataLayer", "OUTPUT_MODES", "batches_of", "encode_categorical_inputs",
           "first_of"]
