"""Checks of what a user passes in, with errors a user can act on.

Every check here raises a ``ValueError`` or ``TypeError`` that names the
argument (and the layer or method it was given to), says what was expected,
and ends with ``Received: ...``, so no bare NumPy or Python message (``could
not convert string to float``, ``index 7 is out of bounds``) reaches a user.
The exception type follows Keras 3: a value of the right kind but out of range
is a ``ValueError``; a value of the wrong kind is a ``TypeError``, except that
a string where a number belongs is a ``ValueError`` (what ``float("x")``
raises, and so what Keras raises for ``BatchNormalization(momentum="x")``).

>>> check_int(3, "units")
3
>>> check_int(0, "units", minimum=1, owner="Dense")
Traceback (most recent call last):
  ...
ValueError: Dense: argument `units` must be an integer >= 1. Received: units=0
"""

import numbers
import os

import numpy as np

from kerasmini import tree
from kerasmini.backend.core import convert_to_tensor, is_tensor, value_of
from kerasmini.backend.keras_tensor import is_keras_tensor

NUMERIC_KINDS = "biuf"  # bool, signed and unsigned integers, floats


def _where(owner):
    return f"{owner}: argument" if owner else "Argument"


def _wrong_kind(value):
    """The exception class for a value of the wrong type (see the module)."""
    return ValueError if isinstance(value, (str, bytes)) else TypeError


def is_int(value):
    """A Python or NumPy integer, not a boolean.

    >>> is_int(3), is_int(np.int64(3)), is_int(True), is_int(3.0)
    (True, True, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


_is_int = is_int


def check_int(value, name, *, minimum=None, allow_none=False, owner=None,
              wrong_type=None):
    """``value`` as a Python ``int`` (``None`` too if ``allow_none``).

    ``wrong_type`` overrides the exception class for a value that is not an
    integer (Keras raises ``ValueError`` for every bad dimension of a shape).

    >>> check_int(None, "steps", allow_none=True) is None
    True
    >>> check_int(2.5, "epochs")
    Traceback (most recent call last):
      ...
    TypeError: Argument `epochs` must be an integer. Received: epochs=2.5 (of type float)
    """
    if value is None and allow_none:
        return None
    expected = "an integer" + (f" >= {minimum}" if minimum is not None else "")
    expected += " or None" if allow_none else ""
    if not _is_int(value):
        raise (wrong_type or _wrong_kind(value))(
            f"{_where(owner)} `{name}` must be {expected}. Received: "
            f"{name}={value!r} (of type {type(value).__name__})"
        )
    if minimum is not None and value < minimum:
        raise ValueError(
            f"{_where(owner)} `{name}` must be {expected}. Received: {name}={value!r}"
        )
    return int(value)


def check_float(value, name, *, low=None, high=None, low_open=False, high_open=False,
                owner=None):
    """``value`` as a Python ``float``, inside ``[low, high]`` (``(`` with
    ``low_open``, ``)`` with ``high_open``).

    >>> check_float(0.9, "momentum", low=0, high=1)
    0.9
    >>> check_float("x", "momentum", owner="BatchNormalization")
    Traceback (most recent call last):
      ...
    ValueError: BatchNormalization: argument `momentum` must be a number. Received: momentum...
    """
    expected = "a number"
    if low is not None and high is not None:
        expected += (f" in {'(' if low_open else '['}{low}, {high}"
                     f"{')' if high_open else ']'}")
    elif low is not None:
        expected += f" {'>' if low_open else '>='} {low}"
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise _wrong_kind(value)(
            f"{_where(owner)} `{name}` must be {expected}. Received: "
            f"{name}={value!r} (of type {type(value).__name__})"
        )
    value = float(value)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high or value != value:  # value != value: NaN
        raise ValueError(
            f"{_where(owner)} `{name}` must be {expected}. Received: {name}={value!r}"
        )
    return value


def check_bool(value, name, owner=None):
    """``value`` as a Python ``bool`` (NumPy booleans accepted).

    >>> check_bool("yes", "shuffle")
    Traceback (most recent call last):
      ...
    TypeError: Argument `shuffle` must be a boolean (True or False). Received: shuffle='yes'...
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(
            f"{_where(owner)} `{name}` must be a boolean (True or False). "
            f"Received: {name}={value!r} (of type {type(value).__name__})"
        )
    return bool(value)


def check_choice(value, name, choices, owner=None):
    """``value`` if it is one of ``choices``.

    >>> check_choice("bad", "data_format", ("channels_last",), owner="Flatten")
    Traceback (most recent call last):
      ...
    ValueError: Flatten: argument `data_format` must be one of ('channels_last',). Received:...
    """
    if not any(value is c or (type(value) is type(c) and value == c) for c in choices):
        raise ValueError(
            f"{_where(owner)} `{name}` must be one of {tuple(choices)}. "
            f"Received: {name}={value!r}"
        )
    return value


def check_tuple(value, n, name):
    """``2`` -> ``(2,) * n``; a tuple of ``n`` positive integers stays;
    anything else is refused (kernel sizes, strides, dilation rates, pool
    sizes of ``n`` spatial axes).

    >>> check_tuple(2, 3, "strides"), check_tuple([1, 3], 2, "kernel_size")
    ((2, 2, 2), (1, 3))
    >>> check_tuple(0, 2, "strides")
    Traceback (most recent call last):
      ...
    ValueError: Expected `strides` to be a positive integer or a tuple of 2 positive ...
    """
    values = value
    if _is_int(value):
        values = (value,) * n
    values = tuple(values) if isinstance(values, (tuple, list)) else ()
    if len(values) != n or not all(_is_int(v) and v >= 1 for v in values):
        plural = "integer" if n == 1 else "integers"
        raise ValueError(
            f"Expected `{name}` to be a positive integer or a tuple of {n} positive "
            f"{plural}. Received: {name}={value!r}"
        )
    return tuple(int(v) for v in values)


def check_pair(value, name):
    """:func:`check_tuple` of two (an image's two spatial axes).

    >>> check_pair(2, "strides")
    (2, 2)
    """
    return check_tuple(value, 2, name)


def check_padding(padding):
    """``"valid"`` or ``"same"`` (any case), lower-cased.

    >>> check_padding("SAME")
    'same'
    """
    mode = padding.lower() if isinstance(padding, str) else padding
    if mode not in ("valid", "same"):
        raise ValueError(
            f"Expected `padding` to be 'valid' or 'same'. Received: padding={padding!r}"
        )
    return mode


def check_shape(shape, name="shape", owner=None):
    """A shape: a tuple of non-negative integers or ``None`` (unknown).

    An int is a shape of one axis, as in ``Input(shape=5)``.

    >>> check_shape([None, 3])
    (None, 3)
    >>> check_shape((3.5,), owner="Input")
    Traceback (most recent call last):
      ...
    ValueError: Input: argument `shape` must be a tuple of non-negative integers (or None fo...
    """
    expected = ("must be a tuple of non-negative integers (or None for an unknown "
                f"size). Received: {name}={shape!r}")
    if _is_int(shape):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise ValueError(f"{_where(owner)} `{name}` {expected}")
    for d in shape:
        if d is None:
            continue
        if not _is_int(d):
            raise ValueError(f"{_where(owner)} `{name}` {expected}: {d!r} is not an "
                             "integer")
        if d < 0:
            raise ValueError(f"{_where(owner)} `{name}` {expected}: negative "
                             "dimensions are not allowed")
    return tuple(None if d is None else int(d) for d in shape)


def check_path(path, name, owner=None):
    """A file path (a string or an ``os.PathLike``) as a string.

    >>> check_path(None, "filename", owner="CSVLogger")
    Traceback (most recent call last):
      ...
    TypeError: CSVLogger: argument `filename` must be a string or a path. Received: ...
    """
    if isinstance(path, (str, os.PathLike)):
        path = os.fspath(path)
        if isinstance(path, str) and path:
            return path
    if isinstance(path, str):
        raise ValueError(f"{_where(owner)} `{name}` must be a non-empty string or "
                         f"a path. Received: {name}={path!r}")
    raise TypeError(
        f"{_where(owner)} `{name}` must be a string or a path. Received: "
        f"{name}={path!r} (of type {type(path).__name__})"
    )


def check_folder_of(path, owner):
    """Create the folder ``path`` will be written in (if missing), or raise a
    ``ValueError`` naming the file and what is in the way (a file where a
    folder should be), not a bare ``FileExistsError``.

    >>> import tempfile
    >>> blocker = os.path.join(tempfile.mkdtemp(), "a_file")
    >>> open(blocker, "w").close()
    >>> check_folder_of(os.path.join(blocker, "m.keras"), "ModelCheckpoint")
    Traceback (most recent call last):
      ...
    ValueError: ModelCheckpoint cannot write '...m.keras': '.../a_file' is a file, not ...
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        blocker = folder
        while blocker and not os.path.exists(blocker):
            blocker = os.path.dirname(blocker)
        if blocker and not os.path.isdir(blocker):
            problem = f"'{blocker}' is a file, not a folder"
        else:
            problem = f"cannot create the folder '{folder}' ({error.strerror})"
        raise ValueError(f"{owner} cannot write '{path}': {problem}.") from error


def check_verbose(verbose, owner=None):
    """``"auto"``, 0 (silent), 1 (progress bar) or 2 (one line per epoch).

    >>> check_verbose(5)
    Traceback (most recent call last):
      ...
    ValueError: Argument `verbose` must be "auto", 0, 1 or 2. Received: verbose=5
    """
    if verbose == "auto" or (_is_int(verbose) and verbose in (0, 1, 2)) or \
            verbose is True or verbose is False:
        return verbose
    raise ValueError(
        f'{_where(owner)} `verbose` must be "auto", 0, 1 or 2. Received: '
        f"verbose={verbose!r}"
    )


# --------------------------------------------------------------- model data
def _describe(x):
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape} and dtype {x.dtype}"
    text = repr(x)
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{text} (of type {type(x).__name__})"


def is_number_list(x):
    """A (nested) list or tuple of Python numbers: one array of data, not a
    list of several inputs.

    >>> is_number_list([[1, 2], [3, 4]]), is_number_list([np.ones(2)])
    (True, False)
    """
    if not isinstance(x, (list, tuple)) or not x:
        return False
    return all(isinstance(leaf, numbers.Number) and not isinstance(leaf, np.ndarray)
               for leaf in tree.flatten(x))


def _text_array(array):
    """An array of strings as an ``object`` array of Python ``str`` (bytes
    decoded as UTF-8): one dtype for every batch, whatever its longest text."""
    if array.ndim == 0:
        raise ValueError(
            "Model data must have a first (batch) axis, one entry per sample. "
            f"Received a scalar: {_describe(array)}"
        )
    flat = [v.decode("utf-8") if isinstance(v, bytes) else str(v)
            for v in array.ravel().tolist()]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(array.shape)


def to_data_array(x, name="x"):
    """``x`` (an array or a nested list of numbers) as a NumPy array of
    numbers with a batch axis; Python floats become float32 (floatx). An
    array of strings given as the inputs ``x`` becomes an ``object`` array of
    ``str`` (the text layers take it; a model without them refuses it).

    >>> to_data_array([[1.0, 2.0]]).dtype.name
    'float32'
    >>> to_data_array([[1, 2], [3]], "x")
    Traceback (most recent call last):
      ...
    ValueError: Argument `x` must be an array of numbers (or a list of lists of numbers of e...
    """
    expected = (f"Argument `{name}` must be an array of numbers (or a list of lists "
                "of numbers of equal lengths).")
    array = x
    if not isinstance(x, np.ndarray):
        try:
            array = np.asarray(x)
        except (ValueError, TypeError):
            raise ValueError(f"{expected} Received a ragged list: {_describe(x)}") \
                from None
        if array.dtype == np.float64 and not isinstance(x, np.generic):
            array = array.astype("float32")  # Python floats become floatx
    inputs = name == "x" or name.startswith("x[")  # never labels or weights
    if inputs and (array.dtype.kind in "US" or (
            array.dtype == object and array.size and all(
                isinstance(v, (str, bytes)) for v in array.ravel().tolist()))):
        return _text_array(array)  # text, for StringLookup or TextVectorization
    if array.dtype.kind not in NUMERIC_KINDS:
        kind = "a ragged list" if array.dtype == object and is_number_list(x) \
            else _describe(x)
        raise ValueError(f"{expected} Received: {kind}")
    if array.ndim == 0:
        raise ValueError(
            f"Argument `{name}` must have a first (batch) axis, one entry per "
            f"sample. Received a scalar: {_describe(x)}"
        )
    return array


# ------------------------------------------------------------- layers
def check_layer_arguments(owner, name, trainable, kwargs, allowed):
    """The arguments every ``Layer.__init__`` takes, with Keras 3's messages.

    >>> check_layer_arguments("Dense", None, True, {"unit": 3}, ("input_shape",))
    Traceback (most recent call last):
      ...
    ValueError: Unrecognized keyword arguments passed to Dense: {'unit': 3}
    """
    unknown = set(kwargs) - set(allowed)
    if unknown:
        raise ValueError(
            f"Unrecognized keyword arguments passed to {owner}: "
            f"{ {k: kwargs[k] for k in sorted(unknown)} }"
        )
    if name is not None and not isinstance(name, str):
        raise TypeError(f"Expected `name` argument to be a string, but got: {name!r}")
    if name is not None and "/" in name:
        raise ValueError(
            f"Argument `name` must be a string and cannot contain character "
            f"`/`. Received: name={name} (of type {type(name)})"
        )
    if not isinstance(trainable, bool):
        raise TypeError(
            f"Expected `trainable` argument to be a boolean, but got: {trainable!r}"
        )


def check_layer_inputs(inputs, layer_name):
    """``inputs`` if they hold at least one value, no ``None`` and no Python
    number (Keras 3 takes arrays, not numbers, as a layer's first argument).

    >>> check_layer_inputs([np.ones(2), None], "add")
    Traceback (most recent call last):
      ...
    ValueError: Inputs to a layer should be tensors. Got 'None' (of type <class 'NoneType'>)...
    """
    if inputs is None:
        raise ValueError(
            "Inputs to a layer should be tensors. Got 'None' (of type "
            f"{type(None)}) as input for layer '{layer_name}'."
        )
    leaves = tree.flatten(inputs)
    if not leaves:
        raise ValueError(
            f"Layer '{layer_name}' received no input tensors. "
            f"Received: inputs={inputs!r}"
        )
    for leaf in leaves:
        if leaf is None:
            raise ValueError(
                f"Inputs to a layer should be tensors. Got 'None' (of type "
                f"{type(None)}) as input for layer '{layer_name}'. Received: "
                f"inputs={_describe(inputs)}"
            )
        if isinstance(leaf, (bool, int, float, complex)):
            raise ValueError(
                "Only input tensors may be passed as positional arguments. "
                "The following argument value should be passed as a keyword "
                f"argument: {leaf} (of type {type(leaf)}). Layer "
                f"'{layer_name}' takes arrays: convert Python lists of "
                "numbers with np.array(...) first."
            )
    return inputs


def _is_numeric_like(x):
    dtype = getattr(x, "dtype", None)
    if dtype is not None and is_tensor(x):  # no copy for arrays and Variables
        return np.dtype(dtype).kind in NUMERIC_KINDS
    try:
        return np.asarray(x).dtype.kind in NUMERIC_KINDS
    except (TypeError, ValueError):
        return False


def is_text(x):
    """Whether ``x`` is an array of text: ``str`` or ``bytes`` (NumPy
    ``"<U"``/``"S"`` arrays, or ``object`` arrays of them), the inputs of
    ``StringLookup`` and ``TextVectorization``.

    >>> is_text(np.array(["a"])), is_text(np.array(["a"], object)), is_text(np.ones(1))
    (True, True, False)
    """
    if not is_tensor(x):
        return False
    value = value_of(x)
    if value.dtype.kind in "US":
        return True
    if value.dtype != object:
        return False
    values = value.ravel().tolist()
    return bool(values) and all(isinstance(v, (str, bytes)) for v in values)


def layer_input_value(x, layer_name):
    """One input value of a layer as a tensor of numbers (a KerasTensor or
    ``None`` passes as it is).

    >>> layer_input_value([[1, 2]], "dense")
    array([[1, 2]])
    >>> layer_input_value("a", "dense")
    Traceback (most recent call last):
      ...
    ValueError: Inputs to a layer should be tensors of numbers. Got 'a' (of type <class 'str'>...
    """
    if x is None or is_keras_tensor(x):
        return x
    if not is_tensor(x) or not _is_numeric_like(x):
        if isinstance(x, (str, bytes)) or not _is_numeric_like(x):
            raise ValueError(
                f"Inputs to a layer should be tensors of numbers. Got '{x}' "
                f"(of type {type(x)}"
                + (f", dtype {x.dtype}" if hasattr(x, "dtype") else "")
                + f") as input for layer '{layer_name}'."
            )
        x = convert_to_tensor(x)
    return x


def check_positional_args(rest):
    """Every positional argument of a layer call after the inputs must be a
    tensor (or ``None``); anything else belongs in a keyword argument.

    >>> check_positional_args([np.ones(2), None])
    >>> check_positional_args([3])
    Traceback (most recent call last):
      ...
    ValueError: Only input tensors may be passed as positional arguments. The following ...
    """
    for arg in rest:
        if arg is not None and not all(
                is_tensor(x) or is_keras_tensor(x) for x in tree.flatten(arg)):
            raise ValueError(
                "Only input tensors may be passed as positional arguments. "
                "The following argument value should be passed as a keyword "
                f"argument: {arg} (of type {type(arg)})"
            )


def check_layer_outputs(outputs, layer):
    """Refuse a ``call`` that returned strings or objects (Keras 3 returns
    them, and a later layer fails on them).

    >>> from kerasmini.layers import Layer
    >>> check_layer_outputs(["a"], Layer(name="custom"))
    Traceback (most recent call last):
      ...
    TypeError: Layer 'custom' (of type Layer): `call` must return tensors of numbers (or a ...
    """
    if getattr(layer, "_returns_text", False):  # StringLookup(invert=True)
        return
    for out in tree.flatten(outputs):
        if isinstance(out, (str, bytes)) or getattr(
                getattr(out, "dtype", None), "kind", "f") in "USO":
            raise TypeError(
                f"Layer '{layer.name}' (of type {type(layer).__name__}): `call` "
                "must return tensors of numbers (or a structure of them). "
                f"Received: {out!r} (of type {type(out).__name__})"
            )


def weight_shape(shape, layer_name, name=None):
    """The shape of a new weight, as a tuple of non-negative ints (``None``
    is a scalar's, ``()``).

    >>> weight_shape([2, 3], "dense"), weight_shape(None, "dense")
    ((2, 3), ())
    >>> weight_shape((-1, 3), "dense", "kernel")
    Traceback (most recent call last):
      ...
    ValueError: Layer 'dense': the shape of weight 'kernel' must be a tuple of non-negati...
    """
    weight = f"weight '{name}'" if name else "a weight"
    shape = () if shape is None else shape  # a scalar weight
    try:
        shape = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise ValueError(
            f"Layer '{layer_name}': the shape of {weight} must be a tuple of "
            f"integers. Received: shape={shape!r}"
        ) from None
    if any(d < 0 for d in shape):  # Keras 3: "Negative dimensions are not allowed"
        raise ValueError(
            f"Layer '{layer_name}': the shape of {weight} must be a tuple of "
            "non-negative integers; negative dimensions are not allowed. "
            f"Received: shape={shape}"
        )
    return shape


def weight_value(value, layer_name, variable):
    """A value for ``set_weights``: an array (or nested list) of numbers.

    >>> from kerasmini.backend import Variable
    >>> weight_value("a", "dense", Variable(np.zeros(2), name="kernel"))
    Traceback (most recent call last):
      ...
    ValueError: Layer 'dense': weight 'kernel' needs an array of numbers of shape (2,). Rece...
    """
    expected = (f"Layer '{layer_name}': weight '{variable.path}' needs an array of "
                f"numbers of shape {tuple(variable.shape)}.")
    if value is None or not (isinstance(value, (np.ndarray, np.generic, list, tuple))
                             or isinstance(value, numbers.Number)
                             or hasattr(value, "__array__")):
        raise _wrong_kind(value)(f"{expected} Received: {_describe(value)}")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        raise ValueError(f"{expected} Received a ragged list: {_describe(value)}") \
            from None
    if array.dtype.kind not in NUMERIC_KINDS:
        raise ValueError(f"{expected} Received: {_describe(value)}")
    return array


def weight_values(weights, variables, layer_name):
    """The arrays of ``layer.set_weights(weights)``: a list with one array of
    numbers per variable, each of its variable's shape.

    >>> from kerasmini.backend import Variable
    >>> weight_values([np.zeros(3)], [Variable(np.zeros(2), name="b")], "d")
    Traceback (most recent call last):
      ...
    ValueError: Layer d weight shape (2,) is not compatible with provided weight shape (3,).
    """
    if not isinstance(weights, (list, tuple)):
        raise TypeError(
            f"`set_weights` on layer '{layer_name}' expects a list of arrays. "
            f"Received: weights={weights!r} (of type {type(weights).__name__})"
        )
    if len(weights) != len(variables):
        raise ValueError(
            f"You called `set_weights(weights)` on layer '{layer_name}' with a "
            f"weight list of length {len(weights)}, but the layer was "
            f"expecting {len(variables)} weights."
        )
    values = [weight_value(value, layer_name, variable)
              for variable, value in zip(variables, weights)]
    for variable, value in zip(variables, values):
        if value.shape != variable.shape:
            raise ValueError(
                f"Layer {layer_name} weight shape {variable.shape} is not "
                f"compatible with provided weight shape {value.shape}."
            )
    return values


def check_stored_variables(store, variables, layer_name):
    """Values read from a weights file fit ``variables``: as many, each of
    its variable's shape (checked before anything is assigned).

    >>> from kerasmini.backend import Variable
    >>> check_stored_variables({"0": np.zeros(3)}, [Variable(np.zeros(2), name="b")], "d")
    Traceback (most recent call last):
      ...
    ValueError: Layer 'd': weight 'b' has shape (2,), but the saved value has shape (3,).
    """
    if len(store.keys()) != len(variables):
        raise ValueError(
            f"Layer '{layer_name}' expected {len(variables)} variables, but received "
            f"{len(store.keys())} variables during loading. Expected: "
            f"{[v.name for v in variables]}"
        )
    for i, variable in enumerate(variables):
        shape = tuple(store.shape(str(i))) if hasattr(store, "shape") \
            else np.shape(store[str(i)])
        if shape != variable.shape:
            raise ValueError(
                f"Layer '{layer_name}': weight '{variable.name}' has shape "
                f"{variable.shape}, but the saved value has shape {shape}."
            )
