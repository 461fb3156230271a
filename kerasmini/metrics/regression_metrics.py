"""Regression metrics: errors between real-valued targets and predictions
(``keras/src/metrics/regression_metrics.py``).

>>> import numpy as np
>>> float(MeanAbsoluteError()(np.array([[0.0, 2.0]]), np.array([[1.0, 1.0]])))
1.0
"""


import numpy as np  # noqa: F401  (the docstring examples use it)

from kerasmini import losses, ops
from kerasmini.api_export import keras_export
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
