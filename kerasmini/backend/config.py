"""Global numeric settings: the default float type and the fuzz factor.

Keras keeps these in ``keras/backend/config.py`` (``floatx``, ``epsilon``);
kerasmini keeps them here, the only place the rest of the package asks.

>>> from kerasmini.backend import config
>>> config.floatx()
'float32'
>>> config.standardize_dtype("float64")
'float64'
"""

import numpy as np

_FLOATX = "float32"
_EPSILON = 1e-7

# The sizes a dry run gives a dimension that is not known yet (a batch of
# None): two, so that an output dimension that follows it shows up as
# changing (kerasmini.engine.shape_inference); saving refuses configs whose
# dry runs would allocate too much at the larger one.
DRY_RUN_SIZES = (83, 89)

_ALLOWED = (
    "float16", "float32", "float64",
    "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool",
)


def floatx() -> str:
    """Return the default float type, ``'float32'`` unless changed.

    >>> floatx()
    'float32'
    """
    return _FLOATX


def set_floatx(value: str) -> None:
    """Set the default float type (``'float16'``, ``'float32'`` or ``'float64'``).

    >>> set_floatx("float64"); floatx()
    'float64'
    >>> set_floatx("float32")
    """
    global _FLOATX
    value = standardize_dtype(value)
    if not value.startswith("float"):
        raise ValueError(
            f"Unknown `floatx` value: {value}. Expected one of "
            f"{{'float16', 'float32', 'float64'}}"
        )
    _FLOATX = value


def epsilon() -> float:
    """Return the small constant that keeps logs and divisions finite.

    >>> epsilon()
    1e-07
    """
    return _EPSILON


def standardize_dtype(dtype) -> str:
    """Turn a dtype spec (``None``, a string, a NumPy dtype or type) into a name.

    ``None`` means :func:`floatx`. Unknown dtypes raise ``ValueError``.

    >>> standardize_dtype(np.int32), standardize_dtype(None), standardize_dtype(float)
    ('int32', 'float32', 'float32')
    >>> standardize_dtype("string")
    'string'
    """
    if dtype is None:
        return floatx()
    if dtype is float:
        return floatx()
    if dtype is int:
        return "int64"
    if dtype is bool:
        return "bool"
    if dtype is str or dtype == "string":
        # Keras's dtype of text: a KerasTensor's, never a NumPy array's (text
        # is held in arrays of Python str, dtype object)
        return "string"
    try:
        name = np.dtype(getattr(dtype, "name", dtype)).name
    except TypeError:
        name = None
    if name not in _ALLOWED:
        raise ValueError(
            f"Invalid dtype: {dtype!r}. Expected one of {list(_ALLOWED)}."
        )
    return name


def is_float_dtype(dtype) -> bool:
    """Whether ``dtype`` is a floating point type.

    >>> is_float_dtype("float32"), is_float_dtype("int32")
    (True, False)
    """
    return standardize_dtype(dtype).startswith("float")


def backend() -> str:
    """The name of the array library the backend runs on, as
    ``keras.backend.backend()`` (Keras 3 reads ``KERAS_BACKEND`` to choose
    among numpy, jax, torch, tensorflow; kerasmini has NumPy only).

    >>> backend()
    'numpy'
    """
    return "numpy"
