"""Metrics that reduce values: ``Mean``, ``Sum``, ``MeanMetricWrapper``
(``keras/src/metrics/reduction_metrics.py``).

>>> import numpy as np
>>> float(Mean()(np.array([1.0, 2.0, 6.0])))
3.0
"""

import numpy as np

from kerasmini import losses, ops
from kerasmini.api_export import keras_export
from kerasmini.backend.masking import get_keras_mask
from kerasmini.metrics.metric import Metric, _as_float
from kerasmini.saving import serialization


@keras_export("kerasmini.metrics.Mean")
class Mean(Metric):
    """The (weighted) mean of the values seen: ``total / count``.

    With ``sample_weight`` each value counts that many times; ``fit`` tracks
    the loss this way, passing the batch size as the weight.

    >>> m = Mean(); m.update_state(2.0, sample_weight=3); m.update_state(6.0)
    >>> float(m.result())
    3.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values = _as_float(values, self.dtype)
        if sample_weight is None:
            self.total.assign_add(ops.sum(values))
            self.count.assign_add(float(np.prod(np.shape(values))))
            return
        sample_weight = _as_float(sample_weight, self.dtype)
        values, sample_weight = losses.squeeze_or_expand_to_same_rank(
            values, sample_weight)
        weight_rank = len(np.shape(sample_weight))
        if len(np.shape(values)) > weight_rank > 0:
            # per-sample weights on per-entry values: average each sample first
            axes = tuple(range(weight_rank, len(np.shape(values))))
            values = ops.mean(values, axis=axes)
        shape = np.broadcast_shapes(np.shape(values), np.shape(sample_weight))
        if shape == ():  # one value (a batch loss) with its weight
            self.total.assign_add(ops.multiply(values, sample_weight))
            self.count.assign_add(sample_weight)
            return
        self.total.assign_add(ops.sum(ops.multiply(values, sample_weight)))
        self.count.assign_add(ops.sum(ops.broadcast_to(sample_weight, shape)))

    def result(self):
        # before any update count is 0: 0 / tiny gives 0 (Keras's divide_no_nan)
        return ops.divide(self.total, ops.maximum(self.count, 1e-12))


@keras_export("kerasmini.metrics.Sum")
class Sum(Metric):
    """The (weighted) sum of the values seen.

    >>> s = Sum(); s.update_state(np.array([1.0, 2.0])); float(s.result())
    3.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = _as_float(values, self.dtype)
        if sample_weight is not None:
            values = ops.multiply(values, _as_float(sample_weight, self.dtype))
        self.total.assign_add(ops.sum(values))

    def result(self):
        return ops.cast(self.total, self.dtype)


@keras_export("kerasmini.metrics.MeanMetricWrapper")
class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred)`` over all samples seen.

    >>> m = MeanMetricWrapper(losses.mean_absolute_error, name="mae")
    >>> float(m(np.array([[1.0], [2.0]]), np.array([[0.0], [0.0]])))
    1.5
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", "mean_metric_wrapper"),
                         dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        mask = get_keras_mask(y_pred)  # masked entries are not counted
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        sample_weight = losses.apply_mask(sample_weight, mask, self.dtype, "sum")
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config_ = super().get_config()
        config_.update(self._fn_kwargs)
        if type(self) is MeanMetricWrapper:
            config_["fn"] = serialization.serialize_keras_object(self._fn)
        return config_
