"""Cross-entropy metrics: the mean of a cross-entropy loss over all samples
seen (``keras/src/metrics/probabilistic_metrics.py``).

>>> import numpy as np
>>> m = SparseCategoricalCrossentropy()
>>> round(float(m(np.array([1]), np.array([[0.5, 0.5]]))), 4)
0.6931
"""

import numpy as np  # noqa: F401  (the docstring examples use it)

from kerasmini import losses
from kerasmini.api_export import keras_export
from kerasmini.metrics.reduction_metrics import MeanMetricWrapper


@keras_export("kerasmini.metrics.BinaryCrossentropy")
class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary cross-entropy (``from_logits``, ``label_smoothing``).

    >>> round(float(BinaryCrossentropy()(np.array([[1.0]]), np.array([[0.5]]))), 4)
    0.6931
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(losses.binary_crossentropy, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


@keras_export("kerasmini.metrics.CategoricalCrossentropy")
class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical cross-entropy of one-hot labels.

    >>> round(float(CategoricalCrossentropy()(np.array([[0, 1.0]]),
    ...                                       np.array([[0.5, 0.5]]))), 4)
    0.6931
    """

    def __init__(self, name="categorical_crossentropy", dtype=None,
                 from_logits=False, label_smoothing=0, axis=-1):
        super().__init__(losses.categorical_crossentropy, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing,
                         axis=axis)


@keras_export("kerasmini.metrics.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean sparse categorical cross-entropy of integer labels.

    >>> round(float(SparseCategoricalCrossentropy(from_logits=True)(
    ...     np.array([0]), np.array([[0.0, 0.0]]))), 4)
    0.6931
    """

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None,
                 from_logits=False, axis=-1):
        super().__init__(losses.sparse_categorical_crossentropy, name=name,
                         dtype=dtype, from_logits=from_logits, axis=axis)


@keras_export("kerasmini.metrics.KLDivergence")
class KLDivergence(MeanMetricWrapper):
    """The mean Kullback-Leibler divergence (:func:`~kerasmini.losses.kl_divergence`).

    >>> round(float(KLDivergence()(np.array([[0.0, 1.0], [0.0, 0.0]]),
    ...                            np.array([[0.6, 0.4], [0.4, 0.6]]))), 4)
    0.4581
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name=name, dtype=dtype)
