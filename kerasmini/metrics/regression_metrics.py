"""Regression metrics: errors between real-valued targets and predictions
(``keras/src/metrics/regression_metrics.py``).

>>> import numpy as np
>>> float(MeanAbsoluteError()(np.array([[0.0, 2.0]]), np.array([[1.0, 1.0]])))
1.0
"""


import numpy as np  # noqa: F401  (the docstring examples use it)

from kerasmini import losses, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.metrics.reduction_metrics import MeanMetricWrapper


@keras_export("kerasmini.metrics.MeanSquaredError")
class MeanSquaredError(MeanMetricWrapper):
    """The mean of :func:`~kerasmini.losses.mean_squared_error` over all samples.

    >>> float(MeanSquaredError()(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]])))
    0.5
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name=name, dtype=dtype)


@keras_export("kerasmini.metrics.MeanAbsoluteError")
class MeanAbsoluteError(MeanMetricWrapper):
    """The mean of :func:`~kerasmini.losses.mean_absolute_error` over all samples.

    >>> float(MeanAbsoluteError()(np.array([[0.0, 2.0]]), np.array([[1.0, 1.0]])))
    1.0
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name=name, dtype=dtype)


@keras_export("kerasmini.metrics.RootMeanSquaredError")
class RootMeanSquaredError(MeanMetricWrapper):
    """The square root of the mean squared error over all samples seen
    (the mean is accumulated; the root is taken in ``result``).

    >>> float(RootMeanSquaredError()(np.array([[0.0, 2.0]]), np.array([[0.0, 0.0]])))
    1.4142135381698608
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(_squared_error, name=name, dtype=dtype)

    def result(self):
        return ops.sqrt(super().result())


def _squared_error(y_true, y_pred):
    y_true, y_pred = losses.squeeze_or_expand_to_same_rank(
        ops.convert_to_tensor(y_true) if not hasattr(y_true, "dtype") else y_true,
        y_pred)
    return ops.square(ops.subtract(ops.cast(y_pred, "float32"),
                                   ops.cast(y_true, "float32")))


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(|y_true - y_pred| / max(|y_true|, eps))`` over the last axis.

    >>> mean_absolute_percentage_error(np.array([[2.0, 4.0]]), np.array([[1.0, 4.0]]))
    array([25.], dtype=float32)
    """
    y_true = ops.cast(ops.convert_to_tensor(y_true) if not hasattr(y_true, "dtype")
                      else y_true, "float32")
    y_pred = ops.cast(y_pred, "float32")
    y_true, y_pred = losses.squeeze_or_expand_to_same_rank(y_true, y_pred)
    diff = ops.divide(ops.abs(ops.subtract(y_true, y_pred)),
                      ops.maximum(ops.abs(y_true), 1e-7))
    return ops.multiply(ops.mean(diff, axis=-1), 100.0)


@keras_export("kerasmini.metrics.MeanAbsolutePercentageError")
class MeanAbsolutePercentageError(MeanMetricWrapper):
    """The mean absolute percentage error over all samples.

    >>> float(MeanAbsolutePercentageError()(np.array([[2.0, 4.0]]),
    ...                                     np.array([[1.0, 4.0]])))
    25.0
    """

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, dtype=dtype)


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between ``y_true`` and ``y_pred`` along
    ``axis``: both scaled to unit length (``x * min(1 / ||x||, 1 / eps)``, so
    a zero vector stays zero), then their dot product.

    >>> cosine_similarity(np.array([[0.0, 1.0], [1.0, 1.0]]),
    ...                   np.array([[1.0, 0.0], [1.0, 1.0]])).round(4)
    array([0., 1.])
    """
    y_pred = ops.convert_to_tensor(y_pred) if not hasattr(y_pred, "dtype") else y_pred
    y_true = ops.cast(ops.convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = losses.squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.sum(ops.multiply(_unit(y_true, axis), _unit(y_pred, axis)), axis=axis)


def _unit(x, axis):
    square_sum = ops.sum(ops.square(x), axis=axis, keepdims=True)
    eps = config.epsilon()  # Keras's normalize: at most 1 / epsilon per unit
    return ops.divide(x, ops.sqrt(ops.maximum(square_sum, eps * eps)))


@keras_export("kerasmini.metrics.CosineSimilarity")
class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity between labels and predictions (1: same
    direction, 0: orthogonal, -1: opposite); larger is better.

    Keras 3.15.1's ``get_config`` leaves ``axis`` out; kerasmini keeps it,
    so a metric rebuilt from its config normalises the same axis.

    >>> float(CosineSimilarity(axis=1)(np.array([[0.0, 1.0], [1.0, 1.0]]),
    ...                                np.array([[1.0, 0.0], [1.0, 1.0]])))
    0.5
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}
