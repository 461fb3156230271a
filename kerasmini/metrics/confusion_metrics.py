"""Confusion-matrix metrics: counts of true/false positives/negatives at
thresholds, and what is computed from them: ``Precision``, ``Recall``,
``AUC`` (``keras/src/metrics/confusion_metrics.py`` and ``metrics_utils.py``).

Every prediction is compared with every threshold: ``y_pred > threshold``
is a positive. The counts are variables of shape ``(num_thresholds,)``,
updated with ``assign_add`` so a traced ``train_step`` replays them. Without
``multi_label``, all entries of ``y_true``/``y_pred`` count as separate
binary decisions (a ``(batch, 3)`` prediction gives ``3 * batch``).

>>> import numpy as np
>>> p = Precision()
>>> p.update_state(np.array([0, 1, 1, 1]), np.array([1.0, 0.0, 1.0, 1.0]))
>>> round(float(p.result()), 4)
0.6667
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.metrics.metric import Metric, _as_float

NEG_INF = -1e10
EPSILON = 1e-7


def _thresholds(thresholds, default):
    """A list of floats in [0, 1] (one float is a list of one)."""
    values = [default] if thresholds is None else (
        [thresholds] if np.isscalar(thresholds) else list(thresholds))
    for t in values:
        if t is None or not (t == NEG_INF or 0 <= float(t) <= 1):
            raise ValueError(
                "Threshold values must be in [0, 1]. "
                f"Received: thresholds={thresholds}"
            )
    return [float(t) for t in values]


def _keep_top_k(y_pred, k):
    """Entries outside each row's ``k`` largest become ``NEG_INF``: an entry
    is kept when fewer than ``k`` entries of its row are strictly larger."""
    larger = ops.greater(ops.expand_dims(y_pred, -2), ops.expand_dims(y_pred, -1))
    rank = ops.sum(ops.cast(larger, "float32"), axis=-1)  # (batch, classes)
    return ops.where(ops.less(rank, float(k)), y_pred,
                     ops.multiply(ops.ones_like(y_pred), NEG_INF))


def confusion_counts(y_true, y_pred, thresholds, sample_weight=None, top_k=None,
                     class_id=None):
    """Weighted ``{"tp", "fp", "tn", "fn"}`` counts, each of shape
    ``(len(thresholds),)`` (what Keras's ``update_confusion_matrix_variables``
    adds to the variables).

    >>> counts = confusion_counts(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.2]),
    ...                           [0.5])
    >>> {k: v.tolist() for k, v in counts.items()}
    {'tp': [1.0], 'fp': [1.0], 'tn': [0.0], 'fn': [1.0]}
    """
    y_pred = _as_float(y_pred, "float32")
    y_true = _as_float(y_true, "float32")
    if np.shape(y_true) != np.shape(y_pred):
        if len(np.shape(y_true)) + 1 == len(np.shape(y_pred)) and \
                np.shape(y_pred)[-1] == 1:
            y_true = ops.expand_dims(y_true, -1)
        elif len(np.shape(y_true)) == len(np.shape(y_pred)) + 1 and \
                np.shape(y_true)[-1] == 1:
            y_true = ops.squeeze(y_true, -1)
        if np.shape(y_true) != np.shape(y_pred):
            raise ValueError(
                "`y_true` and `y_pred` must have the same shape for a confusion "
                f"metric. Received: y_true.shape={np.shape(y_true)}, "
                f"y_pred.shape={np.shape(y_pred)}"
            )
    if top_k is not None:
        y_pred = _keep_top_k(y_pred, top_k)
    if class_id is not None:
        y_true = ops.get_item(y_true, (Ellipsis, slice(class_id, class_id + 1)))
        y_pred = ops.get_item(y_pred, (Ellipsis, slice(class_id, class_id + 1)))
    shape = np.shape(y_pred)
    size = int(np.prod(shape))
    if sample_weight is None:
        weights = ops.ones((1, size), "float32")
    else:
        sample_weight = _as_float(sample_weight, "float32")
        while len(np.shape(sample_weight)) < len(shape):
            sample_weight = ops.expand_dims(sample_weight, -1)
        weights = ops.reshape(ops.broadcast_to(sample_weight, shape), (1, size))
    preds = ops.reshape(y_pred, (1, size))  # (1, N)
    labels = ops.greater(ops.reshape(y_true, (1, size)), 0.5)
    thresh = np.asarray(thresholds, "float32").reshape(-1, 1)  # (T, 1)
    is_pos = ops.greater(preds, thresh)  # (T, N)
    is_neg = ops.logical_not(is_pos)
    not_label = ops.logical_not(labels)

    def count(mask):
        return ops.sum(ops.multiply(ops.cast(mask, "float32"), weights), axis=1)

    return {"tp": count(ops.logical_and(is_pos, labels)),
            "fp": count(ops.logical_and(is_pos, not_label)),
            "tn": count(ops.logical_and(is_neg, not_label)),
            "fn": count(ops.logical_and(is_neg, labels))}


def _divide_no_nan(a, b):
    safe = ops.where(ops.equal(b, 0.0), ops.ones_like(b), b)
    return ops.where(ops.equal(b, 0.0), ops.zeros_like(b), ops.divide(a, safe))


class _ConfusionMatrixCount(Metric):
    """One count (``tp``, ``fp``, ``tn`` or ``fn``) at each threshold."""

    _kind = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, 0.5)
        self.accumulator = self.add_variable(shape=(len(self.thresholds),),
                                             name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(y_true, y_pred, self.thresholds, sample_weight)
        self.accumulator.assign_add(counts[self._kind])

    def result(self):
        if len(self.thresholds) == 1:
            return ops.get_item(self.accumulator, 0)
        return ops.cast(self.accumulator, self.dtype)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype,
                "thresholds": self.init_thresholds}


@keras_export("kerasmini.metrics.TruePositives")
class TruePositives(_ConfusionMatrixCount):
    """The (weighted) number of true positives: label 1, ``y_pred > threshold``.

    >>> float(TruePositives()(np.array([0, 1, 1, 1]), np.array([1, 0, 1, 1])))
    2.0
    """

    _kind = "tp"


@keras_export("kerasmini.metrics.FalsePositives")
class FalsePositives(_ConfusionMatrixCount):
    """The (weighted) number of false positives: label 0, predicted positive.

    >>> float(FalsePositives()(np.array([0, 1, 0, 0]), np.array([0, 0, 1, 1])))
    2.0
    """

    _kind = "fp"


@keras_export("kerasmini.metrics.TrueNegatives")
class TrueNegatives(_ConfusionMatrixCount):
    """The (weighted) number of true negatives: label 0, predicted negative.

    >>> float(TrueNegatives()(np.array([0, 1, 0, 0]), np.array([1, 1, 0, 0])))
    2.0
    """

    _kind = "tn"


@keras_export("kerasmini.metrics.FalseNegatives")
class FalseNegatives(_ConfusionMatrixCount):
    """The (weighted) number of false negatives: label 1, predicted negative.

    >>> float(FalseNegatives()(np.array([0, 1, 1, 1]), np.array([0, 1, 0, 0])))
    2.0
    """

    _kind = "fn"


class _PrecisionRecall(Metric):
    """Shared body of ``Precision`` and ``Recall``: two counts per threshold."""

    _counts = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None,
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        if top_k is not None and (not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"Argument `top_k` must be a positive integer. "
                             f"Received: top_k={top_k}")
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        default = NEG_INF if top_k is not None else 0.5
        self.thresholds = _thresholds(thresholds, default)
        names = {"tp": "true_positives", "fp": "false_positives",
                 "fn": "false_negatives"}
        for kind in self._counts:
            setattr(self, names[kind], self.add_variable(
                shape=(len(self.thresholds),), name=names[kind]))

    def _count_vars(self):
        second = "fp" if "fp" in self._counts else "fn"
        return [self.true_positives, self.false_positives if second == "fp" else
                self.false_negatives]

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(y_true, y_pred, self.thresholds, sample_weight,
                                  top_k=self.top_k, class_id=self.class_id)
        for kind, variable in zip(self._counts, self._count_vars()):
            variable.assign_add(counts[kind])

    def result(self):
        tp, other = self._count_vars()
        value = _divide_no_nan(tp, ops.add(tp, other))
        return ops.get_item(value, 0) if len(self.thresholds) == 1 else value

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype,
                "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


@keras_export("kerasmini.metrics.Precision")
class Precision(_PrecisionRecall):
    """``tp / (tp + fp)``: of the predicted positives, how many are right.

    Args:
        thresholds: a float or a list of floats in [0, 1] (default 0.5; one
            result per threshold when a list).
        top_k: only the ``k`` largest predictions of each row count as
            positives.
        class_id: look at this class (column) only.

    >>> float(Precision(top_k=1)(np.array([[0, 0, 1], [0, 1, 0]]),
    ...                          np.array([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])))
    0.5
    """

    _counts = ("tp", "fp")


@keras_export("kerasmini.metrics.Recall")
class Recall(_PrecisionRecall):
    """``tp / (tp + fn)``: of the real positives, how many were found.

    Same arguments as :class:`Precision`.

    >>> r = Recall(thresholds=[0.3, 0.6])
    >>> r(np.array([1, 1, 0]), np.array([0.4, 0.9, 0.8])).tolist()
    [1.0, 0.5]
    """

    _counts = ("tp", "fn")


@keras_export("kerasmini.metrics.AUC")
class AUC(Metric):
    """The area under the ROC (or precision-recall) curve, by a Riemann sum
    over ``num_thresholds`` thresholds spread evenly over [0, 1].

    Args:
        num_thresholds: default 200 (must be > 1).
        curve: ``"ROC"`` (true positive rate against false positive rate)
            or ``"PR"`` (precision against recall).
        summation_method: ``"interpolation"`` (trapezoids; for PR the
            interpolation of Davis & Goadrich, 2006), ``"minoring"`` or
            ``"majoring"`` (lower or upper rectangles).
        from_logits: apply a sigmoid to ``y_pred`` first.
        multi_label: one curve per label column, averaged (``label_weights``).

    >>> round(float(AUC(num_thresholds=3)(np.array([0, 0, 1, 1]),
    ...                                   np.array([0.0, 0.5, 0.3, 0.9]))), 4)
    0.75
    """

    def __init__(self, num_thresholds=200, curve="ROC",
                 summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        super().__init__(name=name, dtype=dtype)
        if str(curve).upper() not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values '
                             'are ["ROC", "PR"] (PRGAIN is not supported). '
                             f"Received: curve={curve}")
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(
                f'Invalid AUC summation method value: "{summation_method}". '
                'Expected values are ["interpolation", "majoring", "minoring"]. '
                f"Received: summation_method={summation_method}")
        self.curve = str(curve).upper()
        self.summation_method = summation_method
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else np.asarray(
            label_weights, "float32")
        self.from_logits = from_logits
        if thresholds is not None:
            inner = sorted(_thresholds(thresholds, 0.5))
            self.num_thresholds = len(inner) + 2
        else:
            if not isinstance(num_thresholds, int) or num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._given_thresholds = thresholds is not None
        # below 0 and above 1, so that predictions of exactly 0 or 1 count
        self._all_thresholds = [0.0 - EPSILON] + inner + [1.0 + EPSILON]
        self._built_labels = None
        shape = (self.num_thresholds,)
        if multi_label and num_labels is not None:
            shape = (self.num_thresholds, num_labels)
            self._built_labels = num_labels
        self._make_variables(shape)

    @property
    def thresholds(self):
        """The thresholds, endpoints included."""
        return list(self._all_thresholds)

    def _make_variables(self, shape):
        self._variables = []
        self.true_positives = self.add_variable(shape=shape, name="true_positives")
        self.false_positives = self.add_variable(shape=shape, name="false_positives")
        self.true_negatives = self.add_variable(shape=shape, name="true_negatives")
        self.false_negatives = self.add_variable(shape=shape, name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _as_float(y_pred, "float32")
        if self.from_logits:
            y_pred = ops.sigmoid(y_pred)
        if not self.multi_label:
            counts = confusion_counts(y_true, y_pred, self._all_thresholds,
                                      sample_weight)
            for key, variable in self._pairs():
                variable.assign_add(counts[key])
            return
        num_labels = np.shape(y_pred)[-1]
        if self._built_labels is None:
            self._built_labels = num_labels
            self._make_variables((self.num_thresholds, num_labels))
        columns = [confusion_counts(
            ops.get_item(_as_float(y_true, "float32"), (Ellipsis, j)),
            ops.get_item(y_pred, (Ellipsis, j)), self._all_thresholds,
            sample_weight) for j in range(num_labels)]
        for key, variable in self._pairs():
            variable.assign_add(ops.stack([c[key] for c in columns], axis=1))

    def _pairs(self):
        return [("tp", self.true_positives), ("fp", self.false_positives),
                ("tn", self.true_negatives), ("fn", self.false_negatives)]

    def _average(self, by_label):
        if not self.multi_label:
            return ops.sum(by_label)
        by_label = ops.sum(by_label, axis=0)
        if self.label_weights is None:
            return ops.mean(by_label)
        return ops.divide(ops.sum(ops.multiply(by_label, self.label_weights)),
                          float(np.sum(self.label_weights)))

    def _interpolate_pr_auc(self):
        # precision varies linearly with the number of predicted positives
        # inside each bucket; integrate it exactly (see Keras's docstring)
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        n = self.num_thresholds
        head, tail = slice(0, n - 1), slice(1, n)
        tp_a, tp_b = ops.get_item(tp, head), ops.get_item(tp, tail)
        p = ops.add(tp, fp)
        p_a, p_b = ops.get_item(p, head), ops.get_item(p, tail)
        dtp = ops.subtract(tp_a, tp_b)
        slope = _divide_no_nan(dtp, ops.maximum(ops.subtract(p_a, p_b), 0.0))
        intercept = ops.subtract(tp_b, ops.multiply(slope, p_b))
        both = ops.logical_and(ops.greater(p_a, 0.0), ops.greater(p_b, 0.0))
        ratio = ops.where(both, _divide_no_nan(p_a, ops.maximum(p_b, 0.0)),
                          ops.ones_like(p_b))
        increment = _divide_no_nan(
            ops.multiply(slope, ops.add(dtp, ops.multiply(intercept, ops.log(ratio)))),
            ops.maximum(ops.add(tp_b, ops.get_item(fn, tail)), 0.0))
        return self._average(increment)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        tp, fp = self.true_positives, self.false_positives
        tn, fn = self.true_negatives, self.false_negatives
        recall = _divide_no_nan(tp, ops.add(tp, fn))
        if self.curve == "ROC":
            x, y = _divide_no_nan(fp, ops.add(fp, tn)), recall
        else:
            x, y = recall, _divide_no_nan(tp, ops.add(tp, fp))
        n = self.num_thresholds
        y_a, y_b = ops.get_item(y, slice(0, n - 1)), ops.get_item(y, slice(1, n))
        if self.summation_method == "interpolation":
            heights = ops.divide(ops.add(y_a, y_b), 2.0)
        elif self.summation_method == "minoring":
            heights = ops.minimum(y_a, y_b)
        else:
            heights = ops.maximum(y_a, y_b)
        widths = ops.subtract(ops.get_item(x, slice(0, n - 1)),
                              ops.get_item(x, slice(1, n)))
        return self._average(ops.multiply(widths, heights))

    def reset_state(self):
        for _, variable in self._pairs():
            variable.assign(np.zeros(variable.shape, "float32"))

    def get_config(self):
        config_ = {
            "name": self.name, "dtype": self.dtype,
            "num_thresholds": self.num_thresholds, "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label, "num_labels": self.num_labels,
            "label_weights": None if self.label_weights is None else
            self.label_weights.tolist(),
            "from_logits": self.from_logits,
        }
        if self._given_thresholds:
            config_["thresholds"] = self._all_thresholds[1:-1]
        return config_


__all__ = ["AUC", "FalseNegatives", "FalsePositives", "Precision", "Recall",
           "TrueNegatives", "TruePositives", "confusion_counts"]
