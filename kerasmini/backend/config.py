"""Global settings: the default float type, the fuzz factor, the image layout.

Keras keeps these in ``keras/src/backend/config.py`` (``floatx``,
``epsilon``, ``image_data_format``) and exports them as ``keras.config``;
kerasmini keeps them here, the only place the rest of the package asks, and
exports them as :mod:`kerasmini.config`.

>>> from kerasmini.backend import config
>>> config.floatx()
'float32'
>>> config.standardize_dtype("float64")
'float64'
"""

import numpy as np

from kerasmini.api_export import keras_export

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"

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


@keras_export(["kerasmini.config.floatx", "kerasmini.backend.floatx"])
def floatx() -> str:
    """Return the default float type, ``'float32'`` unless changed.

    >>> floatx()
    'float32'
    """
    return _FLOATX


@keras_export(["kerasmini.config.set_floatx", "kerasmini.backend.set_floatx"])
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


@keras_export(["kerasmini.config.epsilon", "kerasmini.backend.epsilon"])
def epsilon() -> float:
    """Return the small constant that keeps logs and divisions finite.

    >>> epsilon()
    1e-07
    """
    return _EPSILON


@keras_export(["kerasmini.config.set_epsilon", "kerasmini.backend.set_epsilon"])
def set_epsilon(value: float) -> None:
    """Set the fuzz factor :func:`epsilon` returns (crossentropies clip
    probabilities into ``[epsilon, 1 - epsilon]`` with it).

    >>> set_epsilon(1e-5); epsilon()
    1e-05
    >>> set_epsilon(1e-7)
    """
    global _EPSILON
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
            or not np.isfinite(value) or value < 0:
        raise ValueError(
            "Expected `epsilon` to be a finite, non-negative float. "
            f"Received: value={value!r} (of type {type(value).__name__})"
        )
    _EPSILON = float(value)


@keras_export(["kerasmini.config.image_data_format",
               "kerasmini.backend.image_data_format"])
def image_data_format() -> str:
    """Where images keep their channels: ``'channels_last'`` (``(batch,
    height, width, channels)``, the default) or ``'channels_first'``.

    Layers that take ``data_format`` use it when given ``None``.

    >>> image_data_format()
    'channels_last'
    """
    return _IMAGE_DATA_FORMAT


@keras_export(["kerasmini.config.set_image_data_format",
               "kerasmini.backend.set_image_data_format"])
def set_image_data_format(data_format: str) -> None:
    """Set the default image layout :func:`image_data_format` returns.

    >>> set_image_data_format("channels_first"); image_data_format()
    'channels_first'
    >>> set_image_data_format("channels_last")
    """
    global _IMAGE_DATA_FORMAT
    _IMAGE_DATA_FORMAT = _check_data_format(data_format)


def standardize_data_format(data_format) -> str:
    """``data_format`` in lower case, or :func:`image_data_format` for ``None``.

    >>> standardize_data_format(None), standardize_data_format("Channels_First")
    ('channels_last', 'channels_first')
    """
    if data_format is None:
        return image_data_format()
    return _check_data_format(data_format)


def _check_data_format(data_format):
    value = str(data_format).lower() if isinstance(data_format, str) else data_format
    if value not in ("channels_first", "channels_last"):
        raise ValueError(
            "The `data_format` argument must be one of "
            "{'channels_first', 'channels_last'}. "
            f"Received: data_format={data_format!r}"
        )
    return value


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
    except (TypeError, ValueError):  # e.g. a dict: NumPy's own words mislead
        name = None
    if name not in _ALLOWED:
        raise ValueError(
            f"Invalid dtype: {dtype!r}. Expected one of {list(_ALLOWED)}."
        )
    return name


_POLICY_CLASSES = ("DTypePolicy", "FloatDTypePolicy")


def standardize_dtype_policy(dtype) -> str:
    """The dtype a layer (or loss) works in, from what its ``dtype=`` takes.

    Keras 3 takes a dtype policy there: a dtype name, ``None`` (the default,
    :func:`floatx`), or the policy's config dict, which is what
    ``layer.get_config()["dtype"]`` holds, so ``Dense(**config)`` works
    (``keras/src/dtype_policies/__init__.py``, ``get``). Here (losses and
    metrics) a policy is the one dtype it names; layers take mixed policies
    through ``kerasmini.dtype_policies.get``.

    >>> standardize_dtype_policy({"module": "keras", "class_name": "DTypePolicy",
    ...                           "config": {"name": "float64"},
    ...                           "registered_name": None})
    'float64'
    >>> standardize_dtype_policy("mixed_float16")
    Traceback (most recent call last):
      ...
    ValueError: Cannot interpret `dtype` argument. ... Received: dtype='mixed_float16'
    """
    if isinstance(dtype, dict):
        inner = dtype.get("config")
        if dtype.get("class_name") not in _POLICY_CLASSES or \
                not isinstance(inner, dict) or "name" not in inner:
            raise ValueError(
                "Cannot interpret `dtype` argument: a dict must be a "
                "`DTypePolicy` config, `{'class_name': 'DTypePolicy', "
                f"'config': {{'name': ...}}}}`. Received: dtype={dtype!r}"
            )
        dtype = inner["name"]
    elif hasattr(dtype, "compute_dtype") and hasattr(dtype, "variable_dtype"):
        if dtype.compute_dtype != dtype.variable_dtype:  # a mixed policy object
            dtype = getattr(dtype, "name", dtype)
        else:
            dtype = dtype.compute_dtype
    try:
        return standardize_dtype(dtype)
    except ValueError:
        raise ValueError(
            "Cannot interpret `dtype` argument. Expected a dtype name "
            f"({', '.join(_ALLOWED)}), None or a `DTypePolicy` config dict "
            f"(kerasmini has no mixed precision). Received: dtype={dtype!r}"
        ) from None


def is_float_dtype(dtype) -> bool:
    """Whether ``dtype`` is a floating point type.

    >>> is_float_dtype("float32"), is_float_dtype("int32")
    (True, False)
    """
    return standardize_dtype(dtype).startswith("float")


@keras_export(["kerasmini.config.backend", "kerasmini.backend.backend"])
def backend() -> str:
    """The name of the array library the backend runs on, as
    ``keras.backend.backend()`` (Keras 3 reads ``KERAS_BACKEND`` to choose
    among numpy, jax, torch, tensorflow; kerasmini has NumPy only).

    >>> backend()
    'numpy'
    """
    return "numpy"
