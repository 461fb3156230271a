"""Reading the datasets stored as pickles without running code from them.

Two of Keras's downloads hold pickles: the CIFAR batches (a pickled ``dict``
of a ``uint8`` array and lists, written by Python 2) and the ragged sequences
of IMDB and Reuters (NumPy object arrays inside an ``.npz``, which NumPy can
only store as a pickle). A pickle names the functions that rebuild its
objects, and ``pickle.load`` calls whatever it names: ``os.system`` as well as
``numpy.ndarray``. So the unpickler here resolves only the three names a NumPy
array needs (``numpy.ndarray``, ``numpy.dtype`` and ``multiarray._reconstruct``,
under NumPy 1's and NumPy 2's module names) and refuses every other name
before anything is called. Keras 3.15.1 restricts its unpickler the same way.

>>> import io, pickle
>>> arr = load_pickle(io.BytesIO(pickle.dumps(np.arange(3))), "demo")
>>> arr.tolist()
[0, 1, 2]
>>> load_pickle(io.BytesIO(pickle.dumps(print)), "demo")
Traceback (most recent call last):
  ...
kerasmini.datasets.safe_pickle.UnsafePickleError: Refusing to deserialize `builtins.print` ...
"""

import io
import pickle
import zipfile

import numpy as np

# NumPy's array reconstructors, by every module name a pickle may use for them
_RECONSTRUCT = np.ndarray.__reduce__(np.zeros(0))[0]
_ALLOWED = {
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): np.dtype,
    ("numpy.core.multiarray", "_reconstruct"): _RECONSTRUCT,
    ("numpy._core.multiarray", "_reconstruct"): _RECONSTRUCT,
}


class UnsafePickleError(pickle.UnpicklingError, ValueError):
    """A pickle that names something other than a NumPy array's parts.

    >>> issubclass(UnsafePickleError, ValueError)
    True

    Both a ``pickle.UnpicklingError`` (what Keras raises) and a ``ValueError``
    (what kerasmini raises for bad files)."""


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that resolves only NumPy's array reconstructors.

    >>> data = pickle.dumps({"data": np.zeros(2, "uint8")})
    >>> RestrictedUnpickler(io.BytesIO(data), "demo").load()["data"].tolist()
    [0, 0]
    """

    def __init__(self, file, what, **kwargs):
        super().__init__(file, **kwargs)
        self.what = what

    def find_class(self, module, name):
        found = _ALLOWED.get((module, name))
        if found is None:
            raise UnsafePickleError(
                f"Refusing to deserialize `{module}.{name}` while loading "
                f"{self.what}: only NumPy arrays, lists, dicts, strings and "
                "numbers are allowed, and the file may be corrupted or "
                f"malicious. Received: a pickle naming {module}.{name}"
            )
        return found


def load_pickle(file, what, encoding="ASCII"):
    """Unpickle ``file`` (an open binary file) with :class:`RestrictedUnpickler`;
    ``what`` names the file in error messages.

    >>> load_pickle(io.BytesIO(b"junk"), "demo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: Could not read demo: not a valid pickle of NumPy data (damaged or ...
    """
    try:
        return RestrictedUnpickler(file, what, encoding=encoding).load()
    except UnsafePickleError:
        raise
    except (pickle.UnpicklingError, EOFError, TypeError, ValueError, AttributeError,
            IndexError, KeyError) as e:
        raise ValueError(
            f"Could not read {what}: not a valid pickle of NumPy data (damaged or "
            f"truncated?). Received: {type(e).__name__}: {e}"
        ) from None


def _read_npy(buffer, what):
    """One ``.npy`` member: plain arrays with pickles disabled, object arrays
    through the restricted unpickler."""
    try:
        return np.lib.format.read_array(buffer, allow_pickle=False)
    except ValueError as e:
        if "allow_pickle" not in str(e):
            raise ValueError(f"Could not read {what}: {e}") from None
    buffer.seek(0)
    version = np.lib.format.read_magic(buffer)
    if version == (1, 0):
        np.lib.format.read_array_header_1_0(buffer)
    else:  # 2.0 and 3.0 share the header layout (3.0 is UTF-8 text)
        np.lib.format.read_array_header_2_0(buffer)
    array = load_pickle(buffer, what)
    if not isinstance(array, np.ndarray):
        raise ValueError(f"Could not read {what}: the member holds a "
                         f"{type(array).__name__}, not an array.")
    return array


def load_npz(path, what):
    """Every array of an ``.npz`` file, as a dict, without ``allow_pickle``.

    ``np.load(path, allow_pickle=True)`` would run any pickle inside; object
    arrays are read here by the restricted unpickler instead.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "ragged.npz")
    >>> ragged = np.empty(2, dtype=object); ragged[:] = [[1, 2], [3]]
    >>> np.savez(path, x=ragged, y=np.array([0, 1]))
    >>> arrays = load_npz(path, "demo")
    >>> arrays["x"].tolist(), arrays["y"].tolist()
    ([[1, 2], [3]], [0, 1])
    """
    arrays = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                if member.endswith(".npy"):
                    with archive.open(member) as raw:
                        buffer = io.BytesIO(raw.read())
                    arrays[member[:-4]] = _read_npy(buffer, f"{what} ({member})")
    except zipfile.BadZipFile as e:
        raise ValueError(f"Could not read {what} from {path!r}: not an .npz "
                         f"archive. Received: {e}") from None
    return arrays


def load_arrays(path, keys, what):
    """The arrays ``keys`` of an ``.npz`` file, with a clear error for a key
    that is missing.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.npz")
    >>> np.savez(path, x=np.zeros(1))
    >>> load_arrays(path, ("x", "y"), "demo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: demo: the file '...a.npz' lacks the arrays ['y']. Expected the arrays ['x', ...
    """
    arrays = load_npz(path, what)
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise ValueError(
            f"{what}: the file {path!r} lacks the arrays {missing}. Expected the "
            f"arrays {list(keys)}. Received: {sorted(arrays)}"
        )
    return [arrays[k] for k in keys]


__all__ = ["RestrictedUnpickler", "UnsafePickleError", "load_arrays", "load_npz",
           "load_pickle"]
