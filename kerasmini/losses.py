"""Losses: how far predictions are from targets, as one number to minimise.

Two layers, as in Keras 3 (``keras/src/losses/``):

* **loss functions** (``mean_squared_error(y_true, y_pred)``...) return one
  value per sample: the mean or sum over the last axis;
* **``Loss`` objects** (``MeanSquaredError()``...) call a function and then
  *reduce*: multiply by ``sample_weight`` and, by default
  (``"sum_over_batch_size"``), sum and divide by the number of values.

``compile(loss="mse")`` goes through :func:`get`. Crossentropies never take
``log(0)``: probabilities are clipped into ``[epsilon, 1 - epsilon]`` and
logits go through ``log_softmax``/``softplus``.

>>> import numpy as np
>>> y_true = np.array([[0.0, 1.0], [1.0, 1.0]])
>>> y_pred = np.array([[1.0, 1.0], [1.0, 0.0]])
>>> mean_squared_error(y_true, y_pred)
array([0.5, 0.5])
>>> float(MeanSquaredError()(y_true, y_pred))
0.5
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.backend.core import is_tensor
from kerasmini.backend.masking import get_keras_mask
from kerasmini.backend.naming import auto_name
from kerasmini.backend.nn import cached_logits
from kerasmini.saving import serialization
from kerasmini.tree import flatten, is_nested, map_structure, pack_sequence_as

_REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "none", None)


def _shape(x):
    return tuple(np.shape(x))


def _dtype(x):
    return np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype).name


def _as_tensor(x, dtype=None):
    if not is_tensor(x):
        x = ops.convert_to_tensor(x)
    if dtype is not None and _dtype(x) != dtype:
        x = ops.cast(x, dtype)
    return x


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Line up two ranks that differ by a trailing axis of size 1.

    Labels of shape ``(n,)`` against predictions of shape ``(n, 1)`` would
    otherwise broadcast to an ``(n, n)`` matrix of every label against every
    prediction: a wrong loss with no error. Keras 3 lines them up first
    (``keras/src/losses/loss.py``): a rank-1 side gets a trailing axis (if
    ``expand_rank_1``), otherwise the side with the extra axis of 1 loses it.

    >>> [a.shape for a in squeeze_or_expand_to_same_rank(np.zeros(3), np.zeros((3, 1)))]
    [(3, 1), (3, 1)]
    >>> [a.shape for a in squeeze_or_expand_to_same_rank(np.zeros((2, 3, 1)),
    ...                                                   np.zeros((2, 3)))]
    [(2, 3), (2, 3)]
    """
    r1, r2 = len(_shape(x1)), len(_shape(x2))
    if r1 == r2 + 1 and _shape(x1)[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, -1)
        else:
            x1 = ops.squeeze(x1, -1)
    elif r2 == r1 + 1 and _shape(x2)[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, -1)
        else:
            x2 = ops.squeeze(x2, -1)
    return x1, x2


def _check_broadcast(loss_name, y_true, y_pred):
    try:
        np.broadcast_shapes(_shape(y_true), _shape(y_pred))
    except ValueError:
        raise ValueError(
            f"Loss `{loss_name}`: `y_true` and `y_pred` must have the same shape "
            f"(or shapes that broadcast). Received: y_true.shape={_shape(y_true)}, "
            f"y_pred.shape={_shape(y_pred)}"
        ) from None


def _regression_inputs(name, y_true, y_pred):
    y_pred = _as_tensor(y_pred)
    y_true = _as_tensor(y_true, _dtype(y_pred))
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    _check_broadcast(name, y_true, y_pred)
    return y_true, y_pred


# ------------------------------------------------------------- loss functions
@keras_export(["kerasmini.losses.mean_squared_error", "kerasmini.losses.mse"])
def mean_squared_error(y_true, y_pred):
    """``mean((y_true - y_pred) ** 2, axis=-1)``, one value per sample.

    >>> mean_squared_error(np.array([[1.0, 2.0]]), np.array([[1.0, 4.0]]))
    array([2.])
    """
    y_true, y_pred = _regression_inputs("mean_squared_error", y_true, y_pred)
    return ops.mean(ops.square(ops.subtract(y_true, y_pred)), axis=-1)


@keras_export(["kerasmini.losses.mean_absolute_error", "kerasmini.losses.mae"])
def mean_absolute_error(y_true, y_pred):
    """``mean(|y_true - y_pred|, axis=-1)``.

    >>> mean_absolute_error(np.array([[1.0, 2.0]]), np.array([[0.0, 4.0]]))
    array([1.5])
    """
    y_true, y_pred = _regression_inputs("mean_absolute_error", y_true, y_pred)
    return ops.mean(ops.abs(ops.subtract(y_true, y_pred)), axis=-1)


@keras_export("kerasmini.losses.huber")
def huber(y_true, y_pred, delta=1.0):
    """Squared error for small errors, linear beyond ``delta``.

    ``0.5 * e**2`` where ``|e| <= delta``, else ``delta * |e| - 0.5 * delta**2``,
    averaged over the last axis.

    >>> huber(np.array([[0.0, 0.0]]), np.array([[0.5, 3.0]]))
    array([1.3125])
    """
    y_true, y_pred = _regression_inputs("huber_loss", y_true, y_pred)
    error = ops.subtract(y_pred, y_true)
    abs_error = ops.abs(error)
    quadratic = ops.multiply(0.5, ops.square(error))
    linear = ops.subtract(ops.multiply(delta, abs_error), 0.5 * delta**2)
    return ops.mean(ops.where(ops.less_equal(abs_error, delta), quadratic, linear),
                    axis=-1)


@keras_export(["kerasmini.losses.kl_divergence", "kerasmini.metrics.kl_divergence"])
def kl_divergence(y_true, y_pred):
    """Kullback-Leibler divergence ``sum(y_true * log(y_true / y_pred), -1)``.

    Both are probability distributions, clipped to ``[epsilon, 1]`` first (so
    a zero in ``y_true`` contributes nothing and a zero in ``y_pred`` costs a
    large finite amount, not infinity).

    >>> kl_divergence(np.array([[0.5, 0.5]]), np.array([[0.25, 0.75]])).round(4)
    array([0.1438])
    """
    y_true, y_pred = _regression_inputs("kl_divergence", y_true, y_pred)
    eps = config.epsilon()
    y_true, y_pred = ops.clip(y_true, eps, 1.0), ops.clip(y_pred, eps, 1.0)
    return ops.sum(ops.multiply(y_true, ops.log(ops.divide(y_true, y_pred))), axis=-1)


def _check_axis(loss, axis, y_pred, last_only=False):
    """``axis`` names an axis of ``y_pred`` (the last one if ``last_only``)."""
    rank = len(_shape(y_pred))
    if not validation.is_int(axis) or not -rank <= axis < rank or (
            last_only and axis % rank != rank - 1):
        expected = "-1 (the last axis)" if last_only else f"an integer in [-{rank}, {rank})"
        raise ValueError(
            f"Loss `{loss}`: argument `axis` must be {expected} for `y_pred` of "
            f"shape {_shape(y_pred)}. Received: axis={axis!r}"
        )


@keras_export("kerasmini.losses.binary_crossentropy")
def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0,
                        axis=-1):
    """``-(t log p + (1 - t) log(1 - p))``, averaged over ``axis``.

    ``y_pred`` is a probability (clipped away from 0 and 1) or, with
    ``from_logits=True``, a logit ``x``, using the stable form
    ``max(x, 0) - x t + log(1 + exp(-|x|))``.

    >>> binary_crossentropy(np.array([[1.0]]), np.array([[0.5]])).round(4)
    array([0.6931])
    """
    if not from_logits and cached_logits(y_pred) is not None:
        y_pred, from_logits = cached_logits(y_pred), True  # as Keras's TF backend
    y_pred = _as_tensor(y_pred)
    y_true = _as_tensor(y_true, _dtype(y_pred))
    if _shape(y_true) != _shape(y_pred):
        # the function does not line ranks up (Keras 3's neither; its Loss
        # object and compile(loss=...) do, before they call it)
        raise ValueError(
            "Loss `binary_crossentropy`: arguments `target` and `output` must "
            f"have the same shape. Received: target.shape={_shape(y_true)}, "
            f"output.shape={_shape(y_pred)}"
        )
    _check_axis("binary_crossentropy", axis, y_pred)
    if label_smoothing:
        y_true = ops.add(ops.multiply(y_true, 1.0 - label_smoothing),
                         0.5 * label_smoothing)
    return ops.mean(ops.binary_crossentropy(y_true, y_pred, from_logits=from_logits),
                    axis=axis)


@keras_export("kerasmini.losses.categorical_crossentropy")
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0,
                             axis=-1):
    """``-sum(y_true * log(y_pred), axis)`` for one-hot ``y_true``.

    >>> categorical_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]])).round(4)
    array([0.6931])
    """
    y_pred = _as_tensor(y_pred)
    y_true = _as_tensor(y_true, _dtype(y_pred))
    if _shape(y_true) != _shape(y_pred):
        hint = ""
        if len(_shape(y_true)) == len(_shape(y_pred)) - 1 or _shape(y_true)[-1:] == (1,):
            hint = (" The labels look like integer class indices: use "
                    "`sparse_categorical_crossentropy` for those, or one-hot "
                    "encode them.")
        raise ValueError(
            "Loss `categorical_crossentropy`: arguments `y_true` and `y_pred` must "
            f"have the same shape. Received: y_true.shape={_shape(y_true)}, "
            f"y_pred.shape={_shape(y_pred)}.{hint}"
        )
    _check_axis("categorical_crossentropy", axis, y_pred)
    if label_smoothing:
        classes = _shape(y_pred)[axis]
        y_true = ops.add(ops.multiply(y_true, 1.0 - label_smoothing),
                         label_smoothing / classes)
    return ops.categorical_crossentropy(y_true, y_pred, from_logits=from_logits,
                                        axis=axis)


@keras_export("kerasmini.losses.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Categorical crossentropy with integer class indices as ``y_true``.

    >>> sparse_categorical_crossentropy(np.array([1]), np.array([[0.5, 0.5]])).round(4)
    array([0.6931])
    """
    y_pred = _as_tensor(y_pred)
    y_true = _as_tensor(y_true)
    true_shape, pred_shape = _shape(y_true), _shape(y_pred)
    _check_axis("sparse_categorical_crossentropy", axis, y_pred, last_only=True)
    if len(true_shape) == len(pred_shape) and true_shape[-1:] == (1,):
        y_true = ops.squeeze(y_true, -1)
        true_shape = true_shape[:-1]
    if true_shape != pred_shape[:-1]:
        hint = ""
        if true_shape == pred_shape:
            hint = (" The labels look one-hot encoded: use "
                    "`categorical_crossentropy` for those.")
        raise ValueError(
            "Loss `sparse_categorical_crossentropy`: `y_true` must hold one class "
            "index per sample, with the shape of `y_pred` without its last axis. "
            f"Received: y_true.shape={_shape(y_true)}, y_pred.shape={pred_shape}."
            f"{hint}"
        )
    # the labels are checked by the op, on every batch of a traced fit
    return ops.sparse_categorical_crossentropy(y_true, y_pred,
                                               from_logits=from_logits, axis=axis)


# -------------------------------------------------------------- reduction
def apply_mask(sample_weight, mask, dtype, reduction):
    """Fold the mask of the predictions into the sample weights.

    Masked entries weigh 0. For a mean (``"sum_over_batch_size"``) the
    others weigh ``total / valid``, so the mean over every entry is the mean
    over the valid ones (Keras 3's ``apply_mask``).

    >>> apply_mask(None, np.array([True, True, False, False]), "float32",
    ...            "sum_over_batch_size").tolist()
    [2.0, 2.0, 0.0, 0.0]
    """
    if mask is None:
        return sample_weight
    float_mask = ops.cast(mask, dtype)
    if reduction in ("mean", "sum_over_batch_size"):
        total = float(np.prod(_shape(mask)))
        valid = ops.maximum(ops.sum(float_mask), 1.0)  # all masked: weights 0
        float_mask = ops.multiply(float_mask, ops.divide(total, valid))
    if sample_weight is None:
        return float_mask
    sample_weight = _as_tensor(sample_weight, dtype)
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask,
                                                               sample_weight)
    while len(_shape(sample_weight)) < len(_shape(float_mask)):
        # one weight per sample, a mask per time step: the weight covers the
        # sample's steps (Keras 3.15 fails to broadcast (batch,) with (batch, T))
        sample_weight = ops.expand_dims(sample_weight, -1)
    return ops.multiply(sample_weight, float_mask)


def reduce_weighted_values(values, sample_weight=None,
                           reduction="sum_over_batch_size", mask=None):
    """Weight per-sample ``values`` and reduce them to the loss; entries
    where ``mask`` is false do not count.

    >>> reduce_weighted_values(np.array([1.0, 3.0]), np.array([1.0, 0.0]))
    array(0.5)
    >>> reduce_weighted_values(np.array([1.0, 3.0]), mask=np.array([True, False]))
    array(1.)
    """
    sample_weight = apply_mask(sample_weight, mask, _dtype(values), reduction)
    if sample_weight is not None:
        sample_weight = _as_tensor(sample_weight, _dtype(values))
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = ops.multiply(values, sample_weight)
    if reduction in ("none", None) or _shape(values) == ():
        return values
    if reduction == "sum" or np.prod(_shape(values)) == 0:
        return ops.sum(values)
    return ops.mean(values)  # sum over the batch size (and any other axes)


# ------------------------------------------------------------ Loss objects
@keras_export(["kerasmini.losses.Loss", "kerasmini.Loss"])
class Loss:
    """Base class: ``call(y_true, y_pred)`` per sample, then the reduction.

    Args:
        name: default: the snake-case class name, uniquified.
        reduction: ``"sum_over_batch_size"`` (default), ``"sum"``,
            ``"mean"`` (the same as the default) or ``"none"``.
        dtype: the dtype both sides are converted to before ``call``
            (default floatx), as in Keras 3.

    >>> class MeanCubicError(Loss):
    ...     def call(self, y_true, y_pred):
    ...         return ops.mean(ops.abs(ops.subtract(y_true, y_pred)) ** 3, axis=-1)
    >>> float(MeanCubicError()(np.array([[0.0, 0.0]]), np.array([[1.0, 2.0]])))
    4.5
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(
                "Invalid value for argument `reduction`. Expected one of "
                f"{list(_REDUCTIONS)}. Received: reduction={reduction!r}"
            )
        self.name = name or auto_name(type(self).__name__)
        self.reduction = reduction
        self.dtype = config.standardize_dtype_policy(dtype)  # default floatx

    def __call__(self, y_true, y_pred, sample_weight=None):
        in_mask = get_keras_mask(y_pred)  # e.g. padded time steps: not counted
        # both sides in the loss's dtype first, as Keras 3's Loss.__call__
        y_pred = map_structure(lambda x: _as_tensor(x, self.dtype), y_pred)
        y_true = map_structure(lambda x: _as_tensor(x, self.dtype), y_true)
        values = self.call(y_true, y_pred)
        out_mask = get_keras_mask(values)  # a `call` may mask its own values
        mask = in_mask if out_mask is None else out_mask if in_mask is None \
            else ops.logical_and(in_mask, out_mask)
        return reduce_weighted_values(values, sample_weight, self.reduction, mask)

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def get_config(self):
        """The constructor arguments."""
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config_):
        """Create a loss from :meth:`get_config`'s output."""
        return cls(**config_)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, reduction={self.reduction}>"


@keras_export("kerasmini.losses.LossFunctionWrapper")
class LossFunctionWrapper(Loss):
    """A :class:`Loss` around a loss function ``fn(y_true, y_pred, **kwargs)``.

    >>> LossFunctionWrapper(mean_absolute_error, name="mae")(np.ones(2), np.zeros(2))
    array(1., dtype=float32)

    The labels and predictions are lined up first: ``(n,)`` labels against
    ``(n, 1)`` predictions give one error per sample, not an ``(n, n)`` matrix.

    >>> def squared(y_true, y_pred):
    ...     return ops.square(y_true - y_pred)
    >>> float(LossFunctionWrapper(squared)(np.array([0.0, 1.0]), np.array([[0.0], [0.0]])))
    0.5
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None,
                 **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", None),
                         reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        # (n,) labels against (n, 1) predictions: line the ranks up before
        # the function sees them (a custom function would broadcast them)
        if is_nested(y_true) or is_nested(y_pred):
            pairs = [squeeze_or_expand_to_same_rank(t, p)
                     for t, p in zip(flatten(y_true), flatten(y_pred))]
            y_true = pack_sequence_as(y_true, [t for t, _ in pairs])
            y_pred = pack_sequence_as(y_pred, [p for _, p in pairs])
        else:
            y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config_ = super().get_config()
        config_.update(self._fn_kwargs)
        if type(self) is LossFunctionWrapper:  # subclasses know their function
            config_["fn"] = serialization.serialize_keras_object(self.fn)
        return config_


@keras_export("kerasmini.losses.MeanSquaredError")
class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors (:func:`mean_squared_error`), reduced.

    >>> float(MeanSquaredError()(np.array([[0.0, 2.0]]), np.array([[0.0, 0.0]])))
    2.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error",
                 dtype=None):
        super().__init__(mean_squared_error, reduction=reduction, name=name,
                         dtype=dtype)


@keras_export("kerasmini.losses.MeanAbsoluteError")
class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors (:func:`mean_absolute_error`), reduced.

    >>> float(MeanAbsoluteError()(np.array([[0.0, 2.0]]), np.array([[0.0, 0.0]])))
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error",
                 dtype=None):
        super().__init__(mean_absolute_error, reduction=reduction, name=name,
                         dtype=dtype)


@keras_export("kerasmini.losses.Huber")
class Huber(LossFunctionWrapper):
    """The Huber loss (:func:`huber`): quadratic below ``delta``, then linear.

    >>> float(Huber(delta=1.0)(np.array([[0.0]]), np.array([[3.0]])))
    2.5
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss",
                 dtype=None):
        delta = validation.check_float(delta, "delta", low=0, low_open=True,
                                       owner="Huber")
        super().__init__(huber, reduction=reduction, name=name, dtype=dtype,
                         delta=delta)
        self.delta = delta


@keras_export("kerasmini.losses.KLDivergence")
class KLDivergence(LossFunctionWrapper):
    """The Kullback-Leibler divergence (:func:`kl_divergence`), reduced.

    >>> round(float(KLDivergence()(np.array([[0.5, 0.5]]), np.array([[0.25, 0.75]]))), 4)
    0.1438
    """

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence",
                 dtype=None):
        super().__init__(kl_divergence, reduction=reduction, name=name, dtype=dtype)


@keras_export("kerasmini.losses.BinaryCrossentropy")
class BinaryCrossentropy(LossFunctionWrapper):
    """Binary crossentropy (:func:`binary_crossentropy`), reduced.

    >>> round(float(BinaryCrossentropy(from_logits=True)(np.array([[1.0]]),
    ...                                                  np.array([[0.0]]))), 4)
    0.6931
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy",
                 dtype=None):
        label_smoothing = validation.check_float(label_smoothing, "label_smoothing",
                                                 low=0, high=1, owner="BinaryCrossentropy")
        super().__init__(binary_crossentropy, reduction=reduction, name=name,
                         dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis


@keras_export("kerasmini.losses.CategoricalCrossentropy")
class CategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy for one-hot labels (:func:`categorical_crossentropy`).

    >>> round(float(CategoricalCrossentropy()(np.array([[0.0, 1.0]]),
    ...                                       np.array([[0.2, 0.8]]))), 4)
    0.2231
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy",
                 dtype=None):
        label_smoothing = validation.check_float(label_smoothing, "label_smoothing",
                                                 low=0, high=1, owner="CategoricalCrossentropy")
        super().__init__(categorical_crossentropy, reduction=reduction, name=name,
                         dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis


@keras_export("kerasmini.losses.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy for integer labels (:func:`sparse_categorical_crossentropy`).

    >>> round(float(SparseCategoricalCrossentropy(from_logits=True)(
    ...     np.array([0]), np.array([[0.0, 0.0]]))), 4)
    0.6931
    """

    def __init__(self, from_logits=False, axis=-1, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction,
                         name=name, dtype=dtype, from_logits=from_logits, axis=axis)
        self.from_logits = from_logits
        self.axis = axis


mse = mean_squared_error  # the short names Keras also exports
mae = mean_absolute_error

ALL_OBJECTS_DICT = {
    obj.__name__: obj for obj in (
        MeanSquaredError, MeanAbsoluteError, Huber, BinaryCrossentropy,
        CategoricalCrossentropy, SparseCategoricalCrossentropy, KLDivergence,
        mean_squared_error, mean_absolute_error, huber, binary_crossentropy,
        categorical_crossentropy, sparse_categorical_crossentropy, kl_divergence)
}
ALL_OBJECTS_DICT.update({
    "mse": mean_squared_error, "MSE": mean_squared_error,
    "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "bce": binary_crossentropy, "BCE": binary_crossentropy,
    "kld": kl_divergence, "KLD": kl_divergence,
})


@keras_export("kerasmini.losses.get")
def get(identifier):
    """Resolve a loss from a name, a config dict, a ``Loss`` or a function.

    Names of functions give the function, class names an instance.

    >>> get("mse").__name__, get("Huber")
    ('mean_squared_error', <Huber name=huber_loss, reduction=sum_over_batch_size>)
    """
    return serialization.resolve_identifier(
        identifier, "loss", ALL_OBJECTS_DICT,
        known=[k for k in ALL_OBJECTS_DICT if k[0].islower()],
        hint=", their class names, and 'crossentropy' (picked from the shapes "
        "of the targets).")


__all__ = [
    "BinaryCrossentropy", "CategoricalCrossentropy", "Huber", "KLDivergence", "Loss",
    "LossFunctionWrapper", "MeanAbsoluteError", "MeanSquaredError",
    "SparseCategoricalCrossentropy", "binary_crossentropy",
    "categorical_crossentropy", "get", "huber", "kl_divergence", "mae",
    "mean_absolute_error",
    "mean_squared_error", "mse", "reduce_weighted_values",
    "sparse_categorical_crossentropy",
]
