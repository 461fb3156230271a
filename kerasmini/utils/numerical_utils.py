"""``to_categorical`` and ``normalize``: labels to one-hot rows, rows to unit
length (Keras 3: ``keras/src/utils/numerical_utils.py``).

>>> to_categorical([0, 2, 1])
array([[1., 0., 0.],
       [0., 0., 1.],
       [0., 1., 0.]])
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation


def _class_indices(x):
    """``x`` as an int64 array of labels; whole floats are accepted (Keras
    casts), fractions and anything not numeric are refused."""
    try:
        array = np.asarray(x)
    except (ValueError, TypeError):  # ragged nested lists
        array = None
    if array is None or array.dtype.kind not in "biuf":
        raise ValueError(
            "to_categorical: argument `x` must be an array-like of integer class "
            f"indices. Received: x={x!r}"[:300]
        )
    if array.dtype.kind == "f" and not np.all(np.isfinite(array) & (array == np.floor(array))):
        raise ValueError(
            "to_categorical: argument `x` must hold whole numbers (class "
            f"indices); Keras would silently truncate them. Received: x={x!r}"[:300]
        )
    return array.astype("int64")


@keras_export("kerasmini.utils.to_categorical")
def to_categorical(x, num_classes=None):
    """One-hot rows (``float64``, as Keras 3 returns) for class indices ``x``.

    The class axis is added last; a trailing axis of size 1 is replaced by it
    (labels of shape ``(n, 1)`` give ``(n, num_classes)``, as Keras does).

    Args:
        x: integer class indices in ``[0, num_classes)``, any shape.
        num_classes: the number of classes; None: ``max(x) + 1``.

    >>> to_categorical([[1], [3]], num_classes=4).shape
    (2, 4)
    >>> to_categorical([0, 4], num_classes=3)
    Traceback (most recent call last):
      ...
    ValueError: to_categorical: class indices must be in [0, num_classes=3). Received: 4 ...
    """
    num_classes = validation.check_int(num_classes, "num_classes", minimum=1,
                                       allow_none=True, owner="to_categorical")
    x = _class_indices(x)
    shape = x.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    flat = x.reshape(-1)
    if num_classes is None:
        if not flat.size:
            raise ValueError("to_categorical: cannot infer `num_classes` from no "
                             "labels; pass `num_classes`. Received: x of shape "
                             f"{x.shape}")
        num_classes = int(flat.max()) + 1
    bad = (flat < 0) | (flat >= num_classes)
    if bad.any():
        raise ValueError(
            f"to_categorical: class indices must be in [0, num_classes={num_classes}). "
            f"Received: {flat[bad][0]} (in x of shape {x.shape})"
        )
    categorical = np.zeros((flat.size, num_classes))
    categorical[np.arange(flat.size), flat] = 1
    return categorical.reshape(shape + (num_classes,))


@keras_export("kerasmini.utils.normalize")
def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (rows of norm 0 stay 0).

    >>> normalize([[3.0, 4.0], [0.0, 0.0]]).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    validation.check_int(axis, "axis", owner="normalize")
    validation.check_int(order, "order", minimum=1, owner="normalize")
    x = np.asarray(x)
    if x.dtype.kind not in "biuf":
        raise TypeError(f"normalize: argument `x` must be numeric. Received: x of "
                        f"dtype {x.dtype}")
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"normalize: argument `axis` must be in [-{x.ndim}, {x.ndim}). "
                         f"Received: axis={axis} for x of shape {x.shape}")
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


__all__ = ["normalize", "to_categorical"]
