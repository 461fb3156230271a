"""Strings without string tensors: NumPy arrays of Python ``str``.

Keras's ``StringLookup`` and ``TextVectorization`` work on TensorFlow's
string tensors (bytes). kerasmini keeps text as NumPy arrays of ``str``
(dtype ``object``, so that every batch of a ``fit`` has the same dtype
whatever the longest string); ``bytes`` are decoded, a ``"<U"`` array is
converted. The symbolic dtype is ``"string"`` (``keras.Input(shape=(1,),
dtype="string")``), as in Keras.

>>> to_string_array(["a", b"caf\\xc3\\xa9"], "inputs", "StringLookup")
array(['a', 'café'], dtype=object)
"""

import numpy as np

from kerasmini.backend.core import value_of


def _describe(values):
    text = repr(values)
    return text if len(text) <= 60 else text[:57] + "..."


def to_string_array(values, name, owner, encoding="utf-8"):
    """``values`` (a string, a list of strings, an array of ``str``, bytes
    or ``object``) as a NumPy ``object`` array of Python ``str``.

    >>> to_string_array(np.array([["a"], ["b"]]), "inputs", "StringLookup").shape
    (2, 1)
    """
    if hasattr(values, "__kerasmini_tensor__"):
        values = value_of(values)
    if isinstance(values, np.ndarray) and values.dtype == object and all(
            type(v) is str for v in values.ravel().tolist()):
        return values
    try:
        array = np.asarray(values, dtype=object)
    except (TypeError, ValueError):
        array = None
    flat = [] if array is None else array.ravel().tolist()
    if array is None or not all(isinstance(v, (str, bytes, np.str_, np.bytes_))
                                for v in flat):
        kind = values.dtype if isinstance(values, np.ndarray) else \
            type(values).__name__
        raise TypeError(
            f"{owner}: `{name}` must hold strings (a string, a list or an array "
            f"of `str` or bytes). Received: {name}={_describe(values)} "
            f"(of type {kind})"
        )
    strings = [v.decode(encoding) if isinstance(v, bytes) else str(v) for v in flat]
    out = np.empty(len(strings), dtype=object)
    out[:] = strings
    return out.reshape(array.shape)


__all__ = ["to_string_array"]
