"""Metrics: numbers that summarise a model's quality over many batches.

A :class:`Metric` is *stateful*: ``update_state(...)`` adds a batch to
running totals kept in non-trainable variables, ``result()`` reads the
summary, ``reset_state()`` starts afresh (``fit`` does that at each epoch).
Because the totals are variables updated with ``assign_add``, a metric
update inside a traced ``train_step`` is replayed with the rest of the step.

>>> import numpy as np
>>> m = Mean()
>>> m.update_state(np.array([1.0, 2.0]))
>>> m.update_state(np.array([6.0]))
>>> float(m.result())
3.0
>>> m.reset_state(); float(m.result())
0.0
"""

import numpy as np

from kerasmini import initializers, losses
from kerasmini.api_export import keras_export
from kerasmini.backend import config, ops
from kerasmini.backend.masking import get_keras_mask
from kerasmini.backend.naming import auto_name, name_scope, to_snake_case
from kerasmini.backend.variables import Variable
from kerasmini.saving import serialization


@keras_export(["kerasmini.metrics.Metric", "kerasmini.Metric"])
class Metric:
    """Base class: state variables plus ``update_state``/``result``/``reset_state``.

    Args:
        name: default: the snake-case class name, uniquified.
        dtype: dtype of the state variables (default floatx).

    >>> class Count(Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable(name="n")
    ...     def update_state(self, values):
    ...         self.n.assign_add(float(np.size(values)))
    ...     def result(self):
    ...         return ops.identity(self.n)
    >>> float(Count()(np.zeros(3)))
    3.0
    """

    def __init__(self, name=None, dtype=None):
        self.name = name or auto_name(type(self).__name__)
        self.dtype = dtype or config.floatx()
        self._variables = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        """Create a state variable (``<metric name>/<name>``), zeros by default."""
        with name_scope(self.name.replace("/", ">"), caller=self):
            variable = Variable(initializers.get(initializer), shape=shape,
                                dtype=dtype or self.dtype, trainable=False, name=name)
        self._variables.append(variable)
        return variable

    add_weight = add_variable

    @property
    def variables(self):
        """The state variables."""
        return list(self._variables)

    def reset_state(self):
        """Set every state variable back to zeros."""
        for v in self._variables:
            v.assign(np.zeros(v.shape, dtype=v.dtype))

    def update_state(self, *args, **kwargs):
        """Add one batch to the state."""
        raise NotImplementedError

    def result(self):
        """The metric's value from the state so far."""
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        """``update_state`` then ``result``."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        """The constructor arguments."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config_):
        """Create a metric from :meth:`get_config`'s output."""
        return cls(**config_)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _as_float(x, dtype):
    if not hasattr(x, "dtype"):
        x = ops.convert_to_tensor(x)
    return x if str(x.dtype) == dtype else ops.cast(x, dtype)


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
        return ops.identity(self.total)


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


_CLASSES = (Mean, Sum, Accuracy, BinaryAccuracy, CategoricalAccuracy,
            SparseCategoricalAccuracy, MeanSquaredError, MeanAbsoluteError)
ALL_OBJECTS_DICT = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in _CLASSES})
ALL_OBJECTS_DICT.update({
    "mse": MeanSquaredError, "MSE": MeanSquaredError,
    "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
})


@keras_export("kerasmini.metrics.get")
def get(identifier):
    """Resolve a metric from a name, a config dict, a ``Metric`` or a function.

    (``"accuracy"`` in ``compile`` is resolved by the model from the shapes of
    its targets; here it means exact-match :class:`Accuracy`.)

    >>> get("mse"), get("sparse_categorical_accuracy")
    (<MeanSquaredError name=mean_squared_error>, <SparseCategoricalAccuracy ...
    """
    return serialization.resolve_identifier(
        identifier, "metric", ALL_OBJECTS_DICT,
        known=[k for k in ALL_OBJECTS_DICT if k[0].islower()],
        hint=", their class names, and 'acc'.")


__all__ = [
    "Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "Mean", "MeanAbsoluteError",
    "MeanMetricWrapper", "MeanSquaredError", "Metric", "SparseCategoricalAccuracy",
    "Sum", "accuracy", "binary_accuracy", "categorical_accuracy", "get",
    "sparse_categorical_accuracy",
]
