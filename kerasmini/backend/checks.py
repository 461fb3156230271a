"""Checks on values, as primitives: they run on every call of a traced graph.

``fit`` runs its steps as a :func:`kerasmini.function`: the Python code of a
loss or a layer runs once, when the step is traced, and later batches replay
the recorded NumPy steps. A check written in that Python code would see the
first batch only. A check that is a :class:`~kerasmini.backend.core.Primitive`
is recorded like any op, so it looks at every batch: a class label ``7`` in
the tenth batch still raises a clear ``ValueError`` instead of NumPy's
``IndexError`` (or, for ``-1``, silently reading the last row). A compiled
step runs a faster twin of the same check (one reduction for integer labels,
:mod:`kerasmini.backend.fast.kernels`).

>>> import numpy as np
>>> checked_indices(np.array([0.0, 2.0]), size=3, what="Labels")
array([0, 2])
>>> checked_indices(np.array([0, 7]), size=3, what="Labels")
Traceback (most recent call last):
  ...
ValueError: Labels must be integers in [0, 3). Received: 7 (in an array of shape (2,))
"""

import numpy as np

from kerasmini.backend.core import Primitive


def _checked_indices(x, size, what):
    x = np.asarray(x)
    if x.dtype.kind not in "biuf":
        explain_bad_indices(x, size, what)
    valid = (x >= 0) & (x < size)  # NaN is neither
    if x.dtype.kind == "f":
        valid &= x == np.round(x)  # whole numbers only
    if not valid.all():
        explain_bad_indices(x, size, what)
    return x.astype("int64", copy=False)


def explain_bad_indices(x, size, what):
    """Raise the ``ValueError`` naming the first bad entry of ``x``.

    >>> explain_bad_indices(np.array([0.0, 1.5]), size=2, what="Labels")
    Traceback (most recent call last):
      ...
    ValueError: Labels must be integers in [0, 2). Received: 1.5 (in an array of shape (2,))
    """
    expected = f"{what} must be integers in [0, {size})."
    where = f"(in an array of shape {x.shape})"
    if x.dtype.kind not in "biuf":
        raise ValueError(f"{expected} Received: values of dtype {x.dtype} {where}")
    if x.dtype.kind == "f":
        bad = ~np.isfinite(x) | (x != np.round(x))
        if bad.any():
            raise ValueError(f"{expected} Received: {x[bad].flat[0].item()!r} {where}")
    bad = (x < 0) | (x >= size)
    value = x[bad].flat[0].item()
    value = int(value) if x.dtype.kind == "f" else value
    raise ValueError(f"{expected} Received: {value} {where}")


checked_indices = Primitive("checked_indices", _checked_indices)
checked_indices.__doc__ = """``x`` as int64 indices into an axis of ``size``
entries, or a ``ValueError`` starting with ``what`` (a float that is a whole
number is accepted; ``1.5``, NaN, ``-1`` and ``size`` are not)."""
