"""The ``.keras`` archive: a zip of ``config.json``, ``metadata.json`` and
``model.weights.h5``, in Keras 3's exact layout.

Saving: ``config.json`` is :func:`serialize_keras_object` of the model
(architecture, ``build_config``, ``compile_config``); the weights file is
filled by walking the model (:func:`save_state`): each layer writes its own
variables under a path made of attribute names and snake-case class names
(``layers/dense``, ``layers/dense_1``, ``optimizer``), never layer names,
which are not reproducible. An object with ``save_assets(folder)`` (a
vocabulary, say) writes files under ``assets/<its path>/``. Every write goes
to a temporary file in the target folder, renamed over the target only when
complete (:func:`atomic_write`), so a crash never leaves half a file.

Loading reads the archive members by their exact names into memory (never
extracting anything to disk but the ``assets/`` files, into a temporary
folder that ``load_assets`` reads), refuses oversized or inflated members,
rebuilds the model from the config under a weight budget (no layer may
allocate more than the weights file can hold), then loads the weights.

>>> import os, tempfile
>>> from kerasmini import Sequential, layers
>>> model = Sequential([layers.Input((4,)), layers.Dense(2)])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "m.keras")
...     save_model(model, path)
...     sorted(zipfile.ZipFile(path).namelist())
['config.json', 'metadata.json', 'model.weights.h5']
"""

import datetime
import io
import json
import os
import tempfile
import warnings
import zipfile

from kerasmini.backend.naming import to_snake_case
from kerasmini.backend.variables import Variable
from kerasmini.engine.base_layer import Layer
from kerasmini.optimizers.optimizer import Optimizer
from kerasmini.random.seed_generator import SeedGenerator
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    serialize_keras_object,
)
from kerasmini.saving.stores import H5Store, NpzStore
from kerasmini.saving.weight_budget import weight_budget

CONFIG_FILENAME = "config.json"
METADATA_FILENAME = "metadata.json"
WEIGHTS_H5 = "model.weights.h5"
WEIGHTS_NPZ = "model.weights.npz"
ASSETS_DIRNAME = "assets"
KERAS_VERSION = "3.15.1"  # the format version kerasmini writes

MAX_JSON_BYTES = 64 << 20
MAX_MEMBER_BYTES = 8 << 30
MAX_MEMBER_RATIO = 100  # a stored (or deflated) member cannot inflate more
MAX_INPUT_BYTES = 256 << 20  # one input batch of zeros for shape inference


# ----------------------------------------------------------------- writing
def atomic_write(filepath, write):
    """Call ``write(file_object)`` on a temporary file beside ``filepath``,
    then rename it over ``filepath``; on any error remove the temporary file
    and leave ``filepath`` as it was.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "f.txt")
    >>> atomic_write(path, lambda f: f.write(b"good"))
    >>> def crash(f):
    ...     f.write(b"half")
    ...     raise OSError("disk full")
    >>> atomic_write(path, crash)
    Traceback (most recent call last):
      ...
    OSError: disk full
    >>> open(path, "rb").read(), os.listdir(folder)
    (b'good', ['f.txt'])
    """
    folder = os.path.dirname(os.path.abspath(filepath))
    handle = tempfile.NamedTemporaryFile(
        dir=folder, prefix="." + os.path.basename(filepath) + ".", suffix=".tmp",
        delete=False)
    try:
        with handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)
        os.replace(handle.name, filepath)
    except BaseException:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        raise


def save_model(model, filepath):
    """Write ``model`` to the ``.keras`` archive ``filepath`` (atomically).

    :func:`kerasmini.saving.save_model` checks the path first.

    >>> import tempfile
    >>> from kerasmini import Sequential, layers
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> save_model(Sequential([layers.Input((2,)), layers.Dense(1)]), path)
    >>> json.loads(zipfile.ZipFile(path).read("metadata.json"))["keras_version"]
    '3.15.1'
    """
    config_json = json.dumps(serialize_keras_object(model))
    metadata_json = json.dumps({
        "keras_version": KERAS_VERSION,
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
    })
    weights = io.BytesIO()
    with H5Store(weights, "w") as store:
        save_state(model, store)
    assets = save_assets(model)

    def write(file):
        with zipfile.ZipFile(file, "w") as archive:
            archive.writestr(METADATA_FILENAME, metadata_json)
            archive.writestr(CONFIG_FILENAME, config_json)
            archive.writestr(WEIGHTS_H5, weights.getvalue())
            for name, data in assets.items():
                archive.writestr(name, data)

    atomic_write(filepath, write)


def save_weights(model, filepath):
    """Write the weights alone to ``*.weights.h5`` or ``*.weights.npz``.

    >>> import tempfile
    >>> from kerasmini import Sequential, layers
    >>> folder = tempfile.mkdtemp()
    >>> save_weights(Sequential([layers.Input((2,)), layers.Dense(1)]),
    ...              os.path.join(folder, "w.weights.npz"))
    >>> import numpy as np
    >>> sorted(np.load(os.path.join(folder, "w.weights.npz")).files)
    ['layers/dense/vars/0', 'layers/dense/vars/1']
    """
    def write(file):
        store_cls = NpzStore if str(filepath).endswith(".npz") else H5Store
        with store_cls(file, "w") as store:
            save_state(model, store)

    atomic_write(filepath, write)


# ------------------------------------------------------------- the walk
def _saveable(obj):
    return isinstance(obj, (Layer, Optimizer, SeedGenerator))


def walk(obj):
    """``(name, child)`` pairs whose state is saved under ``<path>/<name>``:
    ``layers`` first for graph models, then attributes sorted by name,
    private (``_x``) ones last, as Keras 3's ``_walk_saveable`` does.

    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Input((2,)), layers.Dense(1)])
    >>> [(name, type(child).__name__) for name, child in walk(model)]
    [('layers', 'list')]
    """
    # The object says what it is (Keras 3: `KerasSaveable._obj_type()`), so
    # this module needs no import of the model classes, which import it.
    kind = obj._obj_type() if isinstance(obj, Layer) else None
    attrs = dict(vars(obj))
    skip = ()
    if kind in ("Model", "Functional"):
        attrs["layers"] = obj.layers
        skip = obj._bookkeeping_attributes()
    if kind == "Functional":
        yield "layers", attrs.pop("layers")
    private_last = lambda n: "~" + n if n.startswith("_") else n  # noqa: E731
    for name in sorted(attrs, key=private_last):
        if name.startswith("__") or name in skip:
            continue
        value = attrs[name]
        if _saveable(value) or isinstance(value, (list, tuple, dict)):
            yield name, value


def _join(path, name):
    return f"{path}/{name}" if path else name


def _container_items(container, path):
    names = {}
    for item in container.values() if isinstance(container, dict) else container:
        base = to_snake_case(type(item).__name__) if _saveable(item) else "container"
        count = names.get(base, -1) + 1
        names[base] = count
        if _saveable(item) or isinstance(item, (list, tuple, dict)):
            yield _join(path, base if count == 0 else f"{base}_{count}"), item


def _visit(obj, path, visit, seen):
    """Depth-first over the saveables: ``visit(obj, path)`` once each."""
    if isinstance(obj, (list, tuple, dict)):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        for child_path, item in _container_items(obj, path):
            _visit(item, child_path, visit, seen)
        return
    if id(obj) in seen:
        return
    visit(obj, path)
    seen.add(id(obj))
    for name, child in walk(obj):
        _visit(child, _join(path, name), visit, seen)


def save_state(model, store):
    """Write every layer's and the optimizer's variables into ``store``.

    >>> from kerasmini import Sequential, layers
    >>> store = NpzStore(io.BytesIO(), "w")
    >>> save_state(Sequential([layers.Input((2,)), layers.Dense(1)]), store)
    >>> sorted(store.arrays)
    ['layers/dense/vars/0', 'layers/dense/vars/1']
    """
    def visit(obj, path):
        entry = store.make(path, name=obj.name)
        save_own = getattr(obj, "save_own_variables", None)
        if save_own is not None:
            save_own(entry)
        else:  # an optimizer: iterations, learning_rate, then its slots
            for i, variable in enumerate(obj.variables):
                entry[str(i)] = variable.numpy()

    _visit(model, "", visit, set())


def save_assets(model):
    """``{"assets/<path>/<file>": bytes}``: what each object's
    ``save_assets(folder)`` wrote into its own folder, ``<path>`` being its
    path in the weights file (``assets/layers/vocab_layer/vocab.txt``), as
    Keras lays out the archive. Objects without ``save_assets`` write none.

    >>> from kerasmini import Sequential, layers
    >>> save_assets(Sequential([layers.Input((2,)), layers.Dense(1)]))
    {}
    """
    files = {}
    with tempfile.TemporaryDirectory() as root:
        def visit(obj, path):
            save = getattr(obj, "save_assets", None)
            if save is not None:
                folder = os.path.join(root, *path.split("/")) if path else root
                os.makedirs(folder, exist_ok=True)
                save(folder)

        _visit(model, "", visit, set())
        for folder, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                full = os.path.join(folder, name)
                relative = os.path.relpath(full, root).replace(os.sep, "/")
                with open(full, "rb") as file:
                    files[f"{ASSETS_DIRNAME}/{relative}"] = file.read()
    return files


def load_assets(model, archive):
    """Unpack the archive's ``assets/`` members into a temporary folder
    (names checked: no absolute paths, no ``..``), call each object's
    ``load_assets(folder)``, then remove the folder.

    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("assets/../../evil.txt", "x")
    >>> load_assets(None, zipfile.ZipFile(buffer))
    Traceback (most recent call last):
      ...
    ValueError: refusing the archive member 'assets/../../evil.txt'
    """
    members = [n for n in archive.namelist() if n.startswith(ASSETS_DIRNAME + "/")
               and not n.endswith("/")]
    if not members:
        return
    with tempfile.TemporaryDirectory() as root:
        total = 0
        for name in members:
            parts = name.split("/")[1:]
            if any(p in ("", ".", "..") or "\\" in p or ":" in p for p in parts):
                raise ValueError(f"refusing the archive member '{name}'")
            data = read_member(archive, name, MAX_MEMBER_BYTES)
            total += len(data)
            if total > MAX_MEMBER_BYTES:
                raise ValueError("the assets are larger than "
                                 f"{MAX_MEMBER_BYTES} bytes")
            target = os.path.join(root, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as file:
                file.write(data)

        def visit(obj, path):
            load = getattr(obj, "load_assets", None)
            if load is not None:
                folder = os.path.join(root, *path.split("/")) if path else root
                os.makedirs(folder, exist_ok=True)
                load(folder)

        _visit(model, "", visit, set())


def load_state(model, store, skip_mismatch=False, include_optimizer=True):
    """Assign every layer's (and the optimizer's) variables from ``store``.

    Each object checks the number and shapes of its variables before
    assigning them; a mismatch names the object and is an error (or a
    warning with ``skip_mismatch``).

    >>> from kerasmini import Sequential, layers
    >>> store = NpzStore(io.BytesIO(), "w")
    >>> load_state(Sequential([layers.Input((2,)), layers.Dense(1, name="d")]), store)
    Traceback (most recent call last):
      ...
    ValueError: Layer 'd' expected 2 variables, but received 0 variables during ...
    """
    def visit(obj, path):
        entry = store.get(path)
        try:
            if isinstance(obj, Optimizer):
                if include_optimizer:
                    _load_optimizer(obj, entry, model)
            else:
                obj.load_own_variables(entry)
        except ValueError as error:
            if not skip_mismatch:
                raise
            warnings.warn(f"Skipping '{path}': {error}", stacklevel=3)

    _visit(model, "", visit, set())


def _unbuilt_variables(optimizer):
    """The variables an optimizer has before ``build``: ``iterations`` and
    the learning rate (unless a schedule or a callable gives it)."""
    variables = [optimizer.iterations]
    if isinstance(optimizer._learning_rate, Variable):
        variables.append(optimizer._learning_rate)
    return variables


def _load_optimizer(optimizer, entry, model):
    """Restore an optimizer's variables from ``entry``.

    A model compiled but never trained is saved with an unbuilt optimizer:
    the file holds only ``iterations`` and the learning rate, as Keras 3's
    does. Loading builds the optimizer first (``compile_from_config``), so
    the new one has its slots too; they are at their initial values, which
    is what the saved optimizer would have created on its first step. So
    the two saved variables are restored and the slots stay as they are.
    (Keras 3 reaches the same state another way: its optimizer's
    ``load_own_variables`` warns and skips when the counts differ, and the
    learning rate comes back from the config.)
    """
    if len(entry) == 0:
        return  # a file without optimizer state: nothing to restore
    if not optimizer.built and model.trainable_variables:
        optimizer.build(model.trainable_variables)
    variables = optimizer.variables
    unbuilt = _unbuilt_variables(optimizer)
    if len(entry) == len(unbuilt) < len(variables):
        variables = unbuilt  # saved before its first step: no slots yet
    if len(entry) != len(variables):
        raise ValueError(
            f"Optimizer '{optimizer.name}' has {len(variables)} variables, but the "
            f"file holds {len(entry)} for it."
        )
    for i, variable in enumerate(variables):
        if entry.shape(str(i)) != variable.shape:
            raise ValueError(
                f"Optimizer '{optimizer.name}': variable {i} ({variable.name}) has "
                f"shape {variable.shape}, but the file holds {entry.shape(str(i))}."
            )
    for i, variable in enumerate(variables):
        variable.assign(entry[str(i)])


# ---------------------------------------------------------------- reading
def read_member(archive, name, limit):
    """The bytes of archive member ``name`` (exact name; never extracted),
    refusing members larger than ``limit`` or inflating suspiciously.

    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("config.json", "{}")
    >>> read_member(zipfile.ZipFile(buffer), "config.json", 100)
    b'{}'
    >>> read_member(zipfile.ZipFile(buffer), "../config.json", 100)
    Traceback (most recent call last):
      ...
    ValueError: the archive has no '../config.json'
    """
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ValueError(f"the archive has no '{name}'") from None
    if info.file_size > limit:
        raise ValueError(f"'{name}' declares {info.file_size} bytes (limit {limit})")
    if info.file_size > (1 << 20) and \
            info.file_size > MAX_MEMBER_RATIO * max(info.compress_size, 1):
        raise ValueError(
            f"'{name}' declares {info.file_size} bytes but stores only "
            f"{info.compress_size}; refusing a potential decompression bomb"
        )
    with archive.open(info) as member:
        data = member.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"'{name}' is larger than {limit} bytes")
    return data


def _parse_json(data, name):
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValueError(f"'{name}' is not valid JSON ({error})") from error
    if not isinstance(value, dict):
        raise ValueError(f"'{name}' must hold a JSON object, not "
                         f"{type(value).__name__}")
    return value


def _check_config_shapes(config):
    """Refuse input/build shapes whose zero-filled batch would be absurdly
    large (layers infer shapes by dry runs on such batches)."""
    stack = [config]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("batch_shape", "input_shape", "build_input_shape") and \
                        isinstance(value, list) and value and all(
                            d is None or isinstance(d, int) for d in value):
                    size = 4
                    for d in value:
                        size *= 89 if d is None else max(int(d), 0)
                    if size > MAX_INPUT_BYTES:
                        raise ValueError(f"the config declares an absurd shape "
                                         f"{key}={value}")
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def load_model(archive, custom_objects=None, compile=True, safe_mode=True):
    """Rebuild a model from an open ``.keras`` zip archive.

    >>> import tempfile
    >>> from kerasmini import Sequential, layers
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> save_model(Sequential([layers.Input((2,)), layers.Dense(1)], name="s"), path)
    >>> load_model(zipfile.ZipFile(path)).name
    's'
    """
    config = _parse_json(read_member(archive, CONFIG_FILENAME, MAX_JSON_BYTES),
                        CONFIG_FILENAME)
    if METADATA_FILENAME in archive.namelist():
        _parse_json(read_member(archive, METADATA_FILENAME, MAX_JSON_BYTES),
                   METADATA_FILENAME)
    if not {"class_name", "config"} <= set(config):
        raise ValueError("'config.json' does not describe a model (no "
                         "'class_name'/'config')")
    _check_config_shapes(config)
    names = archive.namelist()
    if WEIGHTS_H5 in names:
        data = read_member(archive, WEIGHTS_H5, MAX_MEMBER_BYTES)
        store = H5Store(io.BytesIO(data), "r")
    elif WEIGHTS_NPZ in names:
        data = read_member(archive, WEIGHTS_NPZ, MAX_MEMBER_BYTES)
        store = NpzStore(io.BytesIO(data), "r")
    else:
        raise ValueError(f"the archive has no '{WEIGHTS_H5}'")
    try:
        budget = store.declared_bytes()
        if not compile:
            config = dict(config, compile_config=None)
        with weight_budget(budget + (1 << 20)):
            model = deserialize_keras_object(config, custom_objects=custom_objects,
                                             safe_mode=safe_mode)
        if not isinstance(model, Layer):
            raise ValueError(f"'config.json' describes a {type(model).__name__}, "
                             "not a model")
        load_state(model, store, include_optimizer=compile)
    finally:
        store.close()
    load_assets(model, archive)
    return model
