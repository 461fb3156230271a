"""The public saving functions: ``save_model``, ``load_model``,
``save_weights``, ``load_weights``.

They check the path (extension, folder, overwrite) and turn every problem
with a file into one ``ValueError`` that names the file and the problem,
with the original error chained as its cause; the work itself is in
:mod:`kerasmini.saving.saving_lib`. Mirrors ``keras/src/saving/saving_api.py``.

>>> import os, tempfile
>>> import numpy as np
>>> from kerasmini import Sequential, layers
>>> model = Sequential([layers.Input((3,)), layers.Dense(2, name="out")])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "model.keras")
...     model.save(path)
...     restored = load_model(path)
>>> np.array_equal(restored.get_layer("out").kernel.numpy(),
...                model.get_layer("out").kernel.numpy())
True
"""

import contextlib
import os
import zipfile

from kerasmini.api_export import keras_export
from kerasmini.saving import limits, saving_lib

# Keras 2's format, which Keras 3 still writes and reads; kerasmini does not.
LEGACY_H5 = (".h5", ".hdf5")


def _path(filepath):
    if not isinstance(filepath, (str, os.PathLike)):
        raise TypeError(
            f"`filepath` must be a string or a path. Received: filepath={filepath!r} "
            f"(of type {type(filepath).__name__})"
        )
    return os.fspath(filepath)


def _check_target(path, overwrite):
    if os.path.isdir(path):
        raise ValueError(f"Cannot save to '{path}': it is a directory.")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"Cannot save to '{path}': folder '{folder}' does not exist.")
    if os.path.exists(path) and not overwrite:
        raise ValueError(
            f"File '{path}' already exists and `overwrite=False`. Pass "
            "`overwrite=True` to replace it."
        )


def _check_source(path, kind):
    if os.path.isdir(path):
        raise ValueError(f"Cannot load {kind} from '{path}': it is a directory, "
                         "not a file.")
    if not os.path.exists(path):
        raise ValueError(f"File not found: filepath={path}. Please ensure the file "
                         f"is an accessible {kind} file.")


def _damaged(path, error):
    """One error naming the file and the problem (``error`` chained): a
    ``TypeError`` for an object the config names but nothing can rebuild (an
    unregistered custom class, as Keras 3 raises), else a ``ValueError``."""
    problem = str(error) or type(error).__name__
    kind = TypeError if isinstance(error, TypeError) else ValueError
    return kind(f"Cannot load '{path}': {problem}")


@keras_export(["kerasmini.saving.save_model", "kerasmini.models.save_model"])
def save_model(model, filepath, overwrite=True, **kwargs):
    """Save ``model`` to a ``.keras`` archive: architecture, weights, compile
    configuration and optimizer state.

    Args:
        model: the model.
        filepath: a path ending in ``.keras``.
        overwrite: replace an existing file (else raise ``ValueError``).

    >>> from kerasmini import Sequential, layers
    >>> save_model(Sequential([layers.Input((2,)), layers.Dense(1)]), "model.h5")
    Traceback (most recent call last):
      ...
    ValueError: kerasmini does not write the legacy HDF5 format. Keras 3 still ...
    """
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: "
                         f"{list(kwargs)}")
    path = _path(filepath)
    if path.endswith(LEGACY_H5):
        raise ValueError(
            "kerasmini does not write the legacy HDF5 format. Keras 3 still "
            "writes a `.h5`/`.hdf5` path as a legacy HDF5 file (Keras 2's "
            "format, with a warning that it is legacy); kerasmini writes only "
            "the native Keras format: use a `.keras` extension. "
            f"Received: filepath={path}"
        )
    if not path.endswith(".keras"):
        raise ValueError(
            "Invalid filepath extension for saving. Please add a `.keras` extension "
            f"for the native Keras format. Received: filepath={path}"
        )
    _check_target(path, overwrite)
    saving_lib.save_model(model, path)


@keras_export(["kerasmini.saving.load_model", "kerasmini.models.load_model"])
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved by :func:`save_model` (or by real Keras 3).

    Nothing in the file is executed: classes come only from kerasmini and
    ``custom_objects``/registered objects, and Python lambdas are refused
    unless ``safe_mode=False``.

    Args:
        filepath: a ``.keras`` file.
        custom_objects: ``{name: class_or_function}`` for custom objects.
        compile: restore the compile configuration and the optimizer state.
        safe_mode: refuse lambdas (the only way a config can carry code).

    Returns:
        The model, with bit-identical weights.

    >>> load_model("missing.keras")
    Traceback (most recent call last):
      ...
    ValueError: File not found: filepath=missing.keras. Please ensure the file is an ...
    """
    path = _path(filepath)
    _check_source(path, "`.keras`")
    if path.endswith(LEGACY_H5):
        raise ValueError(
            "kerasmini cannot load legacy HDF5 model files (`.h5`/`.hdf5`, "
            "Keras 2's format, which Keras 3 still reads and writes). Load it "
            "with Keras, save it again with a `.keras` extension, and load that "
            f"file. Received: filepath={path}"
        )
    if not path.endswith(".keras"):
        raise ValueError(f"Invalid filename: expected a `.keras` extension. "
                         f"Received: filepath={path}")
    try:
        with open(path, "rb") as file, limits.open_archive(file) as archive:
            return saving_lib.load_model(archive, custom_objects=custom_objects,
                                         compile=compile, safe_mode=safe_mode)
    except zipfile.BadZipFile as error:
        raise ValueError(f"Cannot load '{path}': not a valid `.keras` archive "
                         f"(not a zip file: {error})") from error
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        raise _damaged(path, error) from error


@keras_export("kerasmini.saving.save_weights")
def save_weights(model, filepath, overwrite=True):
    """Save the weights alone to ``*.weights.h5`` (Keras's layout) or
    ``*.weights.npz``.

    >>> import os, tempfile
    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Input((2,)), layers.Dense(1)])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_weights(model, os.path.join(folder, "w.weights.h5"))
    ...     os.listdir(folder)
    ['w.weights.h5']
    """
    path = _path(filepath)
    if not path.endswith((".weights.h5", ".weights.npz")):
        raise ValueError(
            "The filename must end in `.weights.h5` (or `.weights.npz`). "
            f"Received: filepath={path}"
        )
    if not model.built:
        raise ValueError(
            "You are saving a model that has not yet been built. Try building the "
            "model first by calling it on some data or by using `build()`."
        )
    _check_target(path, overwrite)
    saving_lib.save_weights(model, path)


@keras_export("kerasmini.saving.load_weights")
def load_weights(model, filepath, skip_mismatch=False):
    """Load weights saved by :func:`save_weights` (or from a ``.keras``).

    Every layer's variables are checked (count, shapes) before assignment;
    if anything fails the model keeps all its previous weights.

    >>> import os, tempfile
    >>> from kerasmini import Sequential, layers
    >>> small = Sequential([layers.Input((2,)), layers.Dense(1, name="out")])
    >>> big = Sequential([layers.Input((2,)), layers.Dense(3, name="out")])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "w.weights.h5")
    ...     save_weights(small, path)
    ...     load_weights(big, path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: Cannot load '...w.weights.h5': Layer 'out': weight 'kernel' has shape ...
    """
    path = _path(filepath)
    if path.endswith(LEGACY_H5) and not path.endswith(".weights.h5"):
        raise ValueError(
            "kerasmini cannot load weights from a legacy HDF5 file (`.h5`/"
            "`.hdf5`, Keras 2's format, which Keras 3 still reads, matching "
            "layers by position): only `.weights.h5`, `.weights.npz` and "
            f"`.keras` files. Received: filepath={path}"
        )
    if not path.endswith((".weights.h5", ".weights.npz", ".keras")):
        raise ValueError(
            "File format not supported: expected a `.weights.h5`, `.weights.npz` "
            f"or `.keras` file. Received: filepath={path}"
        )
    _check_source(path, "weights")
    if not model.built:
        raise ValueError(
            "You are loading weights into a model that has not yet been built. Try "
            "building the model first by calling it on some data or by using "
            "`build()`."
        )
    backup = _snapshot(model)
    try:
        with contextlib.ExitStack() as stack:
            if path.endswith(".keras"):
                file = stack.enter_context(open(path, "rb"))
                archive = stack.enter_context(limits.open_archive(file))
                store = saving_lib.open_weights(archive, model)
            elif path.endswith(".npz"):
                store = saving_lib.NpzStore(path, "r")
            else:
                store = saving_lib.H5Store(path, "r")
            stack.enter_context(store)
            saving_lib.load_state(model, store, skip_mismatch=skip_mismatch)
    except (KeyboardInterrupt, SystemExit):
        _restore(backup)
        raise
    except BaseException as error:
        _restore(backup)
        if isinstance(error, zipfile.BadZipFile):
            error = ValueError(f"not a valid archive ({error})")
        raise _damaged(path, error) from error


def _snapshot(model):
    variables = list(model.weights)
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and hasattr(optimizer, "variables"):
        variables += list(optimizer.variables)
    return [(v, v.numpy()) for v in variables]


def _restore(backup):
    for variable, value in backup:
        variable.assign(value)
