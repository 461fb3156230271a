"""Accuracy metrics: how often predictions match labels
(``keras/src/metrics/accuracy_metrics.py``).

>>> import numpy as np
>>> float(SparseCategoricalAccuracy()(np.array([1, 0]), np.array([[0.2, 0.8], [0.3, 0.7]])))
0.5
"""

import numpy as np

from kerasmini import losses, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.metrics.reduction_metrics import MeanMetricWrapper


# ------------------------------------------------------ accuracy functions
def _labels_like(y_true, y_pred):
    """Line up ``(n,)`` labels with ``(n, 1)`` predictions."""
    if not hasattr(y_true, "dtype"):
        y_true = ops.convert_to_tensor(y_true)
    return losses.squeeze_or_expand_to_same_rank(y_true, y_pred)


@keras_export("kerasmini.metrics.accuracy")
def accuracy(y_true, y_pred):
    """1.0 where ``y_true == y_pred`` exactly, else 0.0.

    >>> accuracy(np.array([1, 2]), np.array([1, 3]))
    array([1., 0.], dtype=float32)
    """
    y_true, y_pred = _labels_like(y_true, y_pred)
    return ops.cast(ops.equal(y_true, y_pred), config.floatx())


@keras_export("kerasmini.metrics.binary_accuracy")
def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where ``(y_pred > threshold) == y_true``, averaged over the last axis.

    >>> binary_accuracy(np.array([[1.0], [0.0]]), np.array([[0.7], [0.6]]))
    array([1., 0.], dtype=float32)
    """
    y_true, y_pred = _labels_like(y_true, y_pred)
    predicted = ops.cast(ops.greater(y_pred, threshold), config.floatx())
    hits = ops.cast(ops.equal(ops.cast(y_true, config.floatx()), predicted),
                    config.floatx())
    return ops.mean(hits, axis=-1)


@keras_export("kerasmini.metrics.categorical_accuracy")
def categorical_accuracy(y_true, y_pred):
    """1.0 where the one-hot ``y_true`` and ``y_pred`` agree on the arg-max.

    >>> categorical_accuracy(np.array([[0, 1], [1, 0]]), np.array([[0.2, 0.8], [0.3, 0.7]]))
    array([1., 0.], dtype=float32)
    """
    return ops.cast(ops.equal(ops.argmax(y_true, axis=-1), ops.argmax(y_pred, axis=-1)),
                    config.floatx())


@keras_export("kerasmini.metrics.sparse_categorical_accuracy")
def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the integer label ``y_true`` is the arg-max of ``y_pred``.

    >>> sparse_categorical_accuracy(np.array([1, 0]), np.array([[0.2, 0.8], [0.3, 0.7]]))
    array([1., 0.], dtype=float32)
    """
    if not hasattr(y_true, "dtype"):
        y_true = ops.convert_to_tensor(y_true)
    if len(np.shape(y_true)) == len(np.shape(y_pred)) and np.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    if np.shape(y_true) != np.shape(y_pred)[:-1]:
        raise ValueError(
            "Metric `sparse_categorical_accuracy`: `y_true` must hold one class index "
            "per sample, with the shape of `y_pred` without its last axis. "
            f"Received: y_true.shape={np.shape(y_true)}, "
            f"y_pred.shape={np.shape(y_pred)}"
        )
    predicted = ops.argmax(y_pred, axis=-1)
    if str(y_true.dtype).startswith("float"):
        predicted = ops.cast(predicted, str(y_true.dtype))
    return ops.cast(ops.equal(y_true, predicted), config.floatx())


# --------------------------------------------------------- metric classes
@keras_export("kerasmini.metrics.Accuracy")
class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels exactly (:func:`accuracy`).

    >>> float(Accuracy()(np.array([1, 2, 3, 4]), np.array([0, 2, 3, 4])))
    0.75
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


@keras_export("kerasmini.metrics.BinaryAccuracy")
class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` matches binary labels.

    >>> float(BinaryAccuracy()(np.array([[1], [1], [0], [0]]),
    ...                        np.array([[0.98], [1], [0], [0.6]])))
    0.75
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold


@keras_export("kerasmini.metrics.CategoricalAccuracy")
class CategoricalAccuracy(MeanMetricWrapper):
    """How often the arg-max of ``y_pred`` matches one-hot labels.

    >>> float(CategoricalAccuracy()(np.array([[0, 0, 1], [0, 1, 0]]),
    ...                             np.array([[0.1, 0.9, 0.8], [0.05, 0.95, 0]])))
    0.5
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


@keras_export("kerasmini.metrics.SparseCategoricalAccuracy")
class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the arg-max of ``y_pred`` matches integer labels.

    >>> float(SparseCategoricalAccuracy()(np.array([[2], [1]]),
    ...                                   np.array([[0.1, 0.6, 0.3], [0.05, 0.95, 0]])))
    0.5
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


def _target_rank(scores, target_scores):
    """How many classes score strictly higher than the target (per sample)."""
    higher = ops.greater(scores, ops.expand_dims(target_scores, -1))
    return ops.sum(ops.cast(higher, config.floatx()), axis=-1)


@keras_export("kerasmini.metrics.sparse_top_k_categorical_accuracy")
def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer label is among the ``k`` highest scores (a tie
    with the ``k``-th score counts as a hit).

    >>> sparse_top_k_categorical_accuracy(np.array([2, 0]),
    ...     np.array([[0.1, 0.6, 0.3], [0.04, 0.9, 0.06]]), k=2)
    array([1., 0.], dtype=float32)
    """
    y_pred = ops.convert_to_tensor(y_pred) if not hasattr(y_pred, "dtype") else y_pred
    if not hasattr(y_true, "dtype"):
        y_true = ops.convert_to_tensor(y_true)
    if len(np.shape(y_true)) == len(np.shape(y_pred)) and np.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    num_classes = np.shape(y_pred)[-1]
    one_hot = ops.one_hot(ops.cast(y_true, "int64"), num_classes)
    target = ops.sum(ops.multiply(ops.cast(one_hot, str(y_pred.dtype)), y_pred), axis=-1)
    return ops.cast(ops.less(_target_rank(y_pred, target), float(k)), config.floatx())


@keras_export("kerasmini.metrics.top_k_categorical_accuracy")
def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot label's class is among the ``k`` highest scores.

    >>> top_k_categorical_accuracy(np.array([[0, 0, 1], [1, 0, 0]]),
    ...     np.array([[0.1, 0.6, 0.3], [0.04, 0.9, 0.06]]), k=2)
    array([1., 0.], dtype=float32)
    """
    return sparse_top_k_categorical_accuracy(ops.argmax(y_true, axis=-1), y_pred, k=k)


@keras_export("kerasmini.metrics.SparseTopKCategoricalAccuracy")
class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the ``k`` highest predictions.

    >>> float(SparseTopKCategoricalAccuracy(k=1)(np.array([2, 1]),
    ...       np.array([[0.1, 0.9, 0.8], [0.05, 0.95, 0]])))
    0.5
    """

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k


@keras_export("kerasmini.metrics.TopKCategoricalAccuracy")
class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the ``k`` highest predictions.

    >>> float(TopKCategoricalAccuracy(k=1)(np.array([[0, 0, 1], [0, 1, 0]]),
    ...       np.array([[0.1, 0.9, 0.8], [0.05, 0.95, 0]])))
    0.5
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k
