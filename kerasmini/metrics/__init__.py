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

from kerasmini.api_export import keras_export
from kerasmini.backend.naming import to_snake_case
from kerasmini.losses import kl_divergence
from kerasmini.metrics.accuracy_metrics import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from kerasmini.metrics.confusion_metrics import (
    AUC,
    FalseNegatives,
    FalsePositives,
    Precision,
    Recall,
    TrueNegatives,
    TruePositives,
)
from kerasmini.metrics.iou_metrics import (
    BinaryIoU,
    IoU,
    MeanIoU,
    OneHotIoU,
    OneHotMeanIoU,
)
from kerasmini.metrics.metric import Metric
from kerasmini.metrics.probabilistic_metrics import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    KLDivergence,
    SparseCategoricalCrossentropy,
)
from kerasmini.metrics.reduction_metrics import Mean, MeanMetricWrapper, Sum
from kerasmini.metrics.regression_metrics import (
    CosineSimilarity,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    RootMeanSquaredError,
)
from kerasmini.saving import serialization

_CLASSES = (Mean, Sum, Accuracy, BinaryAccuracy, CategoricalAccuracy,
            SparseCategoricalAccuracy, SparseTopKCategoricalAccuracy,
            TopKCategoricalAccuracy, MeanSquaredError, MeanAbsoluteError,
            RootMeanSquaredError, MeanAbsolutePercentageError, BinaryCrossentropy,
            CategoricalCrossentropy, SparseCategoricalCrossentropy, AUC, Precision,
            Recall, TruePositives, FalsePositives, TrueNegatives, FalseNegatives,
            CosineSimilarity, KLDivergence, IoU, BinaryIoU, MeanIoU, OneHotIoU,
            OneHotMeanIoU)
ALL_OBJECTS_DICT = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in _CLASSES})
ALL_OBJECTS_DICT.update({
    "mse": MeanSquaredError, "MSE": MeanSquaredError,
    "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
    "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
    "auc": AUC, "AUC": AUC,
    "kld": KLDivergence, "KLD": KLDivergence,
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
    "BinaryIoU", "CosineSimilarity", "IoU", "KLDivergence", "MeanIoU", "OneHotIoU",
    "OneHotMeanIoU", "kl_divergence",
    "AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "CategoricalAccuracy",
    "CategoricalCrossentropy", "FalseNegatives", "FalsePositives", "Mean",
    "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanMetricWrapper",
    "MeanSquaredError", "Metric", "Precision", "Recall", "RootMeanSquaredError",
    "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy", "Sum", "TopKCategoricalAccuracy",
    "TrueNegatives", "TruePositives", "accuracy", "binary_accuracy",
    "categorical_accuracy", "get", "sparse_categorical_accuracy",
    "sparse_top_k_categorical_accuracy", "top_k_categorical_accuracy",
]
