"""The training backup of ``BackupAndRestore``: one file, written atomically.

A backup is a zip of two members: ``model.weights.h5`` (every layer's and
the optimizer's variables, the layout of a ``.keras`` archive) and
``training_metadata.json`` (``{"epoch": ..., "batch": ...}``, what Keras 3
writes in a file of its own). Keras 3 writes the two as separate files, one
after the other, so a process killed between them leaves new weights with
old metadata (the resumed run trains an epoch twice), and one killed while
writing the metadata leaves a file that every later start fails to parse.
Here both go in one file written by
:func:`~kerasmini.saving.files.atomic_write`: the backup on disk is the old
one or the new one, whole.

Reading checks everything before anything is assigned: the archive, the
metadata (a JSON object with integer ``epoch`` and ``batch`` >= 0), each
weight's shape against the model's; if any variable cannot be loaded, the
model keeps all its values. Every problem is a ``ValueError`` naming the
file.

>>> import os, tempfile
>>> from kerasmini import Sequential, layers
>>> model = Sequential([layers.Input((2,)), layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "latest.backup.zip")
>>> save_backup(model, path, {"epoch": 3, "batch": 0})
>>> load_backup(model, path)
{'epoch': 3, 'batch': 0}
"""

import io
import json
import zipfile

from kerasmini.saving import limits, saving_lib
from kerasmini.saving.files import atomic_write
from kerasmini.saving.stores import H5Store

METADATA_FILENAME = "training_metadata.json"


def save_backup(model, filepath, metadata):
    """Write ``model``'s variables (optimizer included) and ``metadata`` to
    the zip ``filepath``, atomically.

    >>> import os, tempfile
    >>> from kerasmini import Sequential, layers
    >>> path = os.path.join(tempfile.mkdtemp(), "latest.backup.zip")
    >>> save_backup(Sequential([layers.Input((2,)), layers.Dense(1)]), path,
    ...             {"epoch": 1, "batch": 0})
    >>> sorted(zipfile.ZipFile(path).namelist())
    ['model.weights.h5', 'training_metadata.json']
    """
    weights = io.BytesIO()
    with H5Store(weights, "w") as store:
        saving_lib.save_state(model, store)
    text = json.dumps(metadata)

    def write(file):
        with zipfile.ZipFile(file, "w") as archive:
            archive.writestr(METADATA_FILENAME, text)
            archive.writestr(saving_lib.WEIGHTS_H5, weights.getvalue())

    atomic_write(filepath, write)


def _checked_metadata(metadata):
    for key in ("epoch", "batch"):
        value = metadata.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(
                f"'{METADATA_FILENAME}' must give `{key}` as an integer >= 0. "
                f"Received: {key}={value!r}")
    return {"epoch": metadata["epoch"], "batch": metadata["batch"]}


def load_backup(model, filepath):
    """Restore ``model``'s variables from the backup ``filepath`` and return
    its metadata; on any problem, a ``ValueError`` naming the file, and the
    model unchanged.

    >>> import os, tempfile
    >>> from kerasmini import Sequential, layers
    >>> path = os.path.join(tempfile.mkdtemp(), "latest.backup.zip")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"half a zip")
    >>> load_backup(Sequential([layers.Input((2,)), layers.Dense(1)]), path)
    Traceback (most recent call last):
      ...
    ValueError: Cannot restore the backup '...latest.backup.zip': not a valid zip ...
    """
    snapshot = [(v, v.numpy()) for v in _variables(model)]
    try:
        with open(filepath, "rb") as file, limits.open_archive(file) as archive:
            metadata = _checked_metadata(limits.read_json(limits.read_member(
                archive, METADATA_FILENAME, saving_lib.MAX_METADATA_BYTES),
                METADATA_FILENAME))
            with saving_lib.open_weights(archive, model,
                                         saving_lib.WEIGHTS_H5) as store:
                saving_lib.load_state(model, store)
    except (KeyboardInterrupt, SystemExit):
        _restore(snapshot)
        raise
    except (zipfile.BadZipFile, EOFError) as error:
        _restore(snapshot)
        raise ValueError(f"Cannot restore the backup '{filepath}': not a valid zip "
                         f"archive ({error})") from error
    except Exception as error:  # noqa: BLE001 (every problem names the file)
        _restore(snapshot)
        problem = str(error) or type(error).__name__
        raise ValueError(f"Cannot restore the backup '{filepath}': {problem}") \
            from error
    return metadata


def _variables(model):
    variables = list(model.weights)
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and hasattr(optimizer, "variables"):
        variables += list(optimizer.variables)
    return variables


def _restore(snapshot):
    for variable, value in snapshot:
        variable.assign(value)
