"""Intersection over union: ``IoU``, ``MeanIoU``, ``BinaryIoU``, ``OneHotIoU``,
``OneHotMeanIoU`` (``keras/src/metrics/iou_metrics.py``).

For class ``c``, ``IoU = TP / (TP + FP + FN)``: the pixels (or samples)
that are ``c`` in both the labels and the predictions, over those that are
``c`` in either. The metrics keep a ``(num_classes, num_classes)`` confusion
matrix (row: true class, column: predicted class) and compute the IoUs from
it in ``result``; classes that never appear in either count for nothing.
Segmentation models (keras.io's U-Net and DeepLab examples) report it.

As in Keras 3, the matrix is ``int32`` unless ``dtype`` says otherwise, so
fractional ``sample_weight`` values are truncated (pass
``dtype="float32"`` to weigh by fractions).

>>> import numpy as np
>>> m = MeanIoU(num_classes=2)
>>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
>>> round(float(m.result()), 4)  # each class: 1 / (2 + 2 - 1)
0.3333
"""

import numpy as np  # noqa: F401 (the examples use it)

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.metrics.metric import Metric


def confusion_matrix(labels, predictions, num_classes, weights, dtype):
    """``cm[i, j]``: the total weight of entries with label ``i`` predicted
    ``j`` (one-hot rows of the labels times weighted one-hot predictions).

    >>> confusion_matrix(np.array([0, 1, 1]), np.array([0, 0, 1]), 2,
    ...                  np.array([1, 1, 1]), "int32").tolist()
    [[1, 0], [1, 1]]
    """
    true_rows = ops.one_hot(labels, num_classes, dtype=dtype)  # (n, classes)
    predicted = ops.one_hot(predictions, num_classes, dtype=dtype)
    weighted = ops.multiply(predicted, ops.expand_dims(weights, -1))
    return ops.matmul(ops.transpose(true_rows), weighted)  # (classes, classes)


class _IoUBase(Metric):
    """The confusion matrix every IoU metric accumulates (not exported)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype or "int32")
        owner = type(self).__name__
        self.num_classes = validation.check_int(num_classes, "num_classes",
                                                minimum=1, owner=owner)
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable(name="total_confusion_matrix",
                                          shape=(self.num_classes, self.num_classes),
                                          dtype=self.dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        # one-hot or probabilities along `axis` become class indices
        y_true = y_true if self.sparse_y_true else ops.argmax(y_true, axis=self.axis)
        y_pred = y_pred if self.sparse_y_pred else ops.argmax(y_pred, axis=self.axis)
        y_true = ops.reshape(ops.cast(ops.convert_to_tensor(y_true), "int64"), (-1,))
        y_pred = ops.reshape(ops.cast(ops.convert_to_tensor(y_pred), "int64"), (-1,))
        if int(y_true.shape[0]) != int(y_pred.shape[0]):
            raise ValueError(
                f"{type(self).__name__}: `y_true` and `y_pred` must hold the same "
                f"number of entries. Received: {y_true.shape[0]} and "
                f"{y_pred.shape[0]} (after flattening)"
            )
        weights = 1 if sample_weight is None else sample_weight
        weights = ops.cast(ops.convert_to_tensor(weights), self.dtype)
        weights = ops.broadcast_to(ops.reshape(weights, (-1,)) if len(
            weights.shape) > 1 else weights, y_true.shape)
        # labels or predictions outside [0, num_classes), and the ignored
        # class, are counted nowhere (class 0 with weight 0)
        inside = ops.logical_and(
            ops.logical_and(ops.greater_equal(y_true, 0),
                            ops.less(y_true, self.num_classes)),
            ops.logical_and(ops.greater_equal(y_pred, 0),
                            ops.less(y_pred, self.num_classes)))
        if self.ignore_class is not None:
            inside = ops.logical_and(inside, ops.not_equal(y_true, self.ignore_class))
        y_true = ops.where(inside, y_true, 0)
        y_pred = ops.where(inside, y_pred, 0)
        weights = ops.where(inside, weights, ops.zeros_like(weights))
        current = confusion_matrix(y_true, y_pred, self.num_classes, weights,
                                   self.dtype)
        self.total_cm.assign_add(current)

    def reset_state(self):
        self.total_cm.assign(ops.zeros(self.total_cm.shape, self.total_cm.dtype))


@keras_export("kerasmini.metrics.IoU")
class IoU(_IoUBase):
    """The mean IoU over ``target_class_ids``.

    Args:
        num_classes: the number of classes (the confusion matrix's size).
        target_class_ids: the classes whose IoUs are averaged.
        name, dtype: as every metric (``dtype``: the confusion matrix's,
            default ``"int32"``).
        ignore_class: a label whose entries are not counted (a "void" class).
        sparse_y_true, sparse_y_pred: ``False`` for one-hot (or probability)
            vectors along ``axis``, turned into classes by ``argmax``.
        axis: the class axis of dense labels or predictions.

    >>> m = IoU(num_classes=3, target_class_ids=[0])
    >>> m.update_state([0, 1, 2, 2], [0, 2, 2, 1])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes=num_classes, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)
        target_class_ids = list(target_class_ids)
        if max(target_class_ids) >= self.num_classes:
            raise ValueError(
                f"Target class id {max(target_class_ids)} is out of range, which is "
                f"[0, {self.num_classes})."
            )
        self.target_class_ids = target_class_ids

    def result(self):
        cm = ops.cast(self.total_cm, "float32")
        true_positives = ops.sum(ops.multiply(cm, ops.eye(self.num_classes)), axis=0)
        # row sums + column sums = 2 TP + FP + FN
        denominator = ops.subtract(ops.add(ops.sum(cm, axis=0), ops.sum(cm, axis=1)),
                                   true_positives)
        targets = ops.convert_to_tensor(self.target_class_ids, "int32")
        true_positives = ops.take(true_positives, targets)
        denominator = ops.take(denominator, targets)
        present = ops.greater(denominator, 1e-9)  # a class seen in either
        iou = ops.divide(true_positives, ops.add(denominator, config.epsilon()))
        iou = ops.where(present, iou, 0.0)
        count = ops.sum(ops.cast(present, "float32"))
        return ops.divide(ops.sum(iou), ops.add(count, config.epsilon()))

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype,
                "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids,
                "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@keras_export("kerasmini.metrics.BinaryIoU")
class BinaryIoU(IoU):
    """IoU of two classes, predictions thresholded: ``>= threshold`` is 1.

    >>> m = BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    >>> m.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None,
                 dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids,
                         name=name, dtype=dtype)
        self.threshold = validation.check_float(threshold, "threshold",
                                                owner="BinaryIoU")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.cast(ops.convert_to_tensor(y_pred), "float32")
        y_pred = ops.cast(ops.greater_equal(y_pred, self.threshold), "int32")
        return super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids,
                "threshold": self.threshold, "name": self.name, "dtype": self.dtype}


@keras_export("kerasmini.metrics.MeanIoU")
class MeanIoU(IoU):
    """The IoU averaged over every class (that appears).

    >>> m = MeanIoU(num_classes=3, ignore_class=0)
    >>> m.update_state([0, 1, 2, 2], [0, 2, 2, 1])
    >>> round(float(m.result()), 4)
    0.1667
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        num_classes = validation.check_int(num_classes, "num_classes", minimum=1,
                                           owner=type(self).__name__)
        super().__init__(num_classes=num_classes,
                         target_class_ids=list(range(num_classes)), name=name,
                         dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred,
                         axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@keras_export("kerasmini.metrics.OneHotIoU")
class OneHotIoU(IoU):
    """:class:`IoU` of one-hot labels (and probabilities, unless
    ``sparse_y_pred``), classes taken by ``argmax`` along ``axis``.

    >>> m = OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    >>> m.update_state(np.eye(3)[[2, 0, 1, 0]], np.eye(3)[[2, 2, 0, 2]])
    >>> round(float(m.result()), 4)
    0.1667
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes=num_classes, target_class_ids=target_class_ids,
                         name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@keras_export("kerasmini.metrics.OneHotMeanIoU")
class OneHotMeanIoU(MeanIoU):
    """:class:`MeanIoU` of one-hot labels (and probabilities).

    >>> m = OneHotMeanIoU(num_classes=3)
    >>> m.update_state(np.eye(3)[[0, 1, 2, 2]], np.eye(3)[[0, 2, 2, 1]] * 0.8)
    >>> round(float(m.result()), 4)
    0.4444
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes=num_classes, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
