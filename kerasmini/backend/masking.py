"""The mask that travels with a tensor: ``_keras_mask``.

Keras attaches a layer's output mask to the output tensor itself, as the
attribute ``_keras_mask``, so the next layer finds it without anyone passing
it along (Keras 3: ``keras/src/backend/common/masking.py``). A KerasTensor, a
traced :class:`~kerasmini.backend.core.GraphTensor` and an array recorded on
a tape accept the attribute; a plain ``np.ndarray`` does not, so its mask is
kept in a table keyed by the array's ``id`` and dropped when the array is
freed (Keras 3's NumPy backend does the same, in ``tensor_attributes.py``).

>>> import numpy as np
>>> x = np.ones((2, 3))
>>> get_keras_mask(x) is None
True
>>> set_keras_mask(x, np.array([[True, True, False], [True, False, False]]))
>>> get_keras_mask(x).sum()
np.int64(3)
"""

import weakref

_MASKS = {}  # id(array) -> mask, for arrays that take no attributes


def _forget(key):
    _MASKS.pop(key, None)


def set_keras_mask(x, mask):
    """Attach ``mask`` to ``x`` (``None`` removes it).

    >>> import numpy as np
    >>> x = np.zeros(2)
    >>> set_keras_mask(x, np.array([True, False])); set_keras_mask(x, None)
    >>> get_keras_mask(x) is None
    True
    """
    try:
        x._keras_mask = mask
        return
    except AttributeError:
        pass
    key = id(x)
    if mask is None:
        _MASKS.pop(key, None)
        return
    if key not in _MASKS:
        try:
            weakref.finalize(x, _forget, key)
        except TypeError:  # a Python number: nothing to attach a mask to
            return
    _MASKS[key] = mask


def get_keras_mask(x):
    """The mask attached to ``x``, or ``None``.

    >>> get_keras_mask(3.0) is None
    True
    """
    try:
        return x._keras_mask
    except AttributeError:
        return _MASKS.get(id(x))


__all__ = ["get_keras_mask", "set_keras_mask"]
