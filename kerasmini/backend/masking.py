"""The mask that travels with a tensor: ``_keras_mask``.

Keras attaches a layer's output mask to the output tensor itself, as the
attribute ``_keras_mask``, so the next layer finds it without anyone passing
it along (Keras 3: ``keras/src/backend/common/masking.py``). A KerasTensor, a
traced :class:`~kerasmini.backend.core.GraphTensor` and an array recorded on
a tape accept the attribute; a plain ``np.ndarray`` does not, so its mask is
kept in a table keyed by the array's ``id`` and dropped when the array is
freed (Keras 3's NumPy backend does the same, in ``tensor_attributes.py``).

A layer's eager output that carries a mask is handed back as an
:class:`ArrayWithMask` (:func:`expose_mask`): a view of the same array that
holds ``_keras_mask`` as an attribute, so ``output._keras_mask`` works as the
masking guide teaches (on TensorFlow and torch tensors, which take
attributes; Keras 3's NumPy backend has only the table).

>>> import numpy as np
>>> x = np.ones((2, 3))
>>> get_keras_mask(x) is None
True
>>> set_keras_mask(x, np.array([[True, True, False], [True, False, False]]))
>>> get_keras_mask(x).sum()
np.int64(3)
"""

import weakref

import numpy as np

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


class ArrayWithMask(np.ndarray):
    """A NumPy array that carries its mask as the attribute ``_keras_mask``.

    It prints as a plain array, and NumPy's arithmetic on it gives plain
    arrays (a mask belongs to one layer's output, not to what is computed
    from it, as on Keras's tensors).

    >>> out = expose_mask(_masked(np.ones((2, 3)), np.array([True, False])))
    >>> type(out).__name__, out._keras_mask, out + 1
    ('ArrayWithMask', array([ True, False]), array([[2., 2., 2.],
           [2., 2., 2.]]))
    """

    def __array_wrap__(self, array, context=None, return_scalar=False):
        if return_scalar:
            return array[()]
        return array.view(np.ndarray)

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


def _masked(x, mask):
    set_keras_mask(x, mask)
    return x


def expose_mask(x):
    """``x``, or, if it is a plain array with a mask in the table, a view of
    it that holds the mask as ``_keras_mask`` (:class:`ArrayWithMask`).

    >>> x = np.zeros(2)
    >>> expose_mask(x) is x
    True
    >>> expose_mask(_masked(x, np.array([True, False])))._keras_mask
    array([ True, False])
    """
    if type(x) is not np.ndarray:
        return x
    mask = _MASKS.get(id(x))
    if mask is None:
        return x
    view = x.view(ArrayWithMask)
    view._keras_mask = mask
    return view


__all__ = ["ArrayWithMask", "expose_mask", "get_keras_mask", "set_keras_mask"]
