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
complete (:func:`~kerasmini.saving.files.atomic_write`), so a crash never
leaves half a file.

Loading reads the archive members by their exact names (never extracting
anything to disk but the ``assets/`` files, into a temporary folder that
``load_assets`` reads), and bounds each step before it is taken
(:mod:`~kerasmini.saving.limits`): the config is size-, value- and
depth-checked before it is parsed; the model is rebuilt under a weight
budget (no layer may allocate more than the weights member can hold); the
weights member may hold no more than that model can use, and is read in
place from the archive (or inflated once, when compressed); then the
weights are loaded, each shape checked before its data is read.

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

from kerasmini.backend.config import DRY_RUN_SIZES
from kerasmini.backend.naming import to_snake_case
from kerasmini.backend.variables import Variable
from kerasmini.saving import limits
from kerasmini.saving.files import atomic_write
from kerasmini.saving.object_registration import CustomObjectScope
from kerasmini.saving.serialization import (
    SafeModeScope,
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

MAX_METADATA_BYTES = 1 << 16
MAX_INPUT_BYTES = 256 << 20  # one input batch of zeros for shape inference


# ----------------------------------------------------------------- writing
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
def _kind(obj):
    """What ``obj`` says it is (Keras 3's ``_obj_type()``: ``"Layer"``,
    ``"Model"``, ``"Functional"``, ``"Sequential"``, ``"Optimizer"``,
    ``"SeedGenerator"``), or ``None`` for an object with no saved state. So
    this module needs no import of the classes, which sit above it."""
    obj_type = getattr(type(obj), "_obj_type", None)
    return obj_type(obj) if obj_type is not None else None


def _saveable(obj):
    return _kind(obj) is not None


def _subclass_properties(obj):
    """``{name: value}`` of the properties ``obj``'s class adds to its kind's
    base class (``MultiHeadAttention.query_dense``, not ``Layer.weights``):
    Keras 3 walks ``dir()``, which finds them, minus the base's names."""
    cls = type(obj)
    base = next((c for c in cls.__mro__ if "_obj_type" in vars(c)), cls)
    found = {}
    for name in dir(cls):
        if name in dir(base) or not isinstance(getattr(cls, name, None), property):
            continue
        try:
            found[name] = getattr(obj, name)
        except Exception:  # noqa: BLE001 (an unbuilt layer's property: no state)
            continue
    return found


def walk(obj):
    """``(name, child)`` pairs whose state is saved under ``<path>/<name>``:
    ``layers`` first for graph models, then attributes (and the properties a
    subclass adds) sorted by name, private (``_x``) ones last, as Keras 3's
    ``_walk_saveable`` does.

    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Input((2,)), layers.Dense(1)])
    >>> [(name, type(child).__name__) for name, child in walk(model)]
    [('layers', 'list')]
    """
    kind = _kind(obj)
    attrs = {**vars(obj), **_subclass_properties(obj)}
    skip = ()
    if kind in ("Model", "Functional", "Sequential"):
        attrs["layers"] = obj.layers
        skip = obj._bookkeeping_attributes()
    if kind in ("Functional", "Sequential"):
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
    (names checked: no absolute paths, no ``..``; at most
    ``MAX_ASSETS_BYTES`` in all, streamed in blocks), call each object's
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
        left = limits.MAX_ASSETS_BYTES
        for name in members:
            parts = name.split("/")[1:]
            if any(p in ("", ".", "..") or "\\" in p or ":" in p for p in parts):
                raise ValueError(f"refusing the archive member '{name}'")
            target = os.path.join(root, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            left -= _copy_member(archive, name, target, left)

        def visit(obj, path):
            load = getattr(obj, "load_assets", None)
            if load is not None:
                folder = os.path.join(root, *path.split("/")) if path else root
                os.makedirs(folder, exist_ok=True)
                load(folder)

        _visit(model, "", visit, set())


def _copy_member(archive, name, target, limit):
    """Inflate member ``name`` into the file ``target`` a block at a time,
    refusing it beyond ``limit`` bytes; returns its size."""
    info = limits.member_info(archive, name, limit)
    size = 0
    with archive.open(info) as member, open(target, "wb") as file:
        while True:
            block = member.read(1 << 20)
            if not block:
                return size
            size += len(block)
            if size > info.file_size:
                raise ValueError(f"'{name}' inflates beyond the {info.file_size} "
                                 "bytes it declares")
            file.write(block)


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
            if _kind(obj) == "Optimizer":
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
read_member = limits.read_member  # the bytes of a member, size checked first


def weights_member(archive):
    """The name of the archive's weights member (HDF5, or NPZ).

    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("config.json", "{}")
    >>> weights_member(zipfile.ZipFile(buffer))
    Traceback (most recent call last):
      ...
    ValueError: the archive has no 'model.weights.h5'
    """
    names = archive.namelist()
    for name in (WEIGHTS_H5, WEIGHTS_NPZ):
        if name in names:
            return name
    raise ValueError(f"the archive has no '{WEIGHTS_H5}'")


def open_weights(archive, model, name=None):
    """The weights store of the archive's weights member for ``model``
    (built): the member may declare at most
    :func:`~kerasmini.saving.limits.weights_allowance` bytes, checked before
    it is read. A stored member (Keras's and kerasmini's archives store it
    uncompressed) is read in place; a compressed one is inflated into
    memory, within that allowance.

    >>> import tempfile
    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Input((2,)), layers.Dense(1)])
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> save_model(model, path)
    >>> with zipfile.ZipFile(path) as archive, open_weights(archive, model) as store:
    ...     store.get("layers/dense").shape("0")
    (2, 1)
    """
    name = name or weights_member(archive)
    info = limits.member_info(archive, name, limits.weights_allowance(model))
    source = limits.MemberWindow.of(archive, info)
    if source is None:
        source = limits.inflate_member(archive, name, info.file_size)
    store_cls = H5Store if name == WEIGHTS_H5 else NpzStore
    return store_cls(source, "r")


def _check_config_shapes(config):
    """Refuse input/build shapes whose zero-filled batch would be absurdly
    large (layers infer shapes by dry runs on such batches)."""
    probe = max(DRY_RUN_SIZES)  # what a dry run puts in an unknown dimension
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
                        size *= probe if d is None else max(int(d), 0)
                    if size > MAX_INPUT_BYTES:
                        raise ValueError(f"the config declares an absurd shape "
                                         f"{key}={value}")
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def load_model(archive, custom_objects=None, compile=True, safe_mode=True):
    """Rebuild a model from an open ``.keras`` zip archive.

    In this order, so that nothing is inflated before it is bounded: the
    config (:func:`~kerasmini.saving.limits.read_json`); the model built
    from it under a budget of what the weights member declares (a config
    cannot build more weights than the file holds); the weights member,
    refused if it declares more than the model can use; the compile config
    (the optimizer's slots, a multiple of the model's weights); the weights;
    the assets.

    >>> import tempfile
    >>> from kerasmini import Sequential, layers
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> save_model(Sequential([layers.Input((2,)), layers.Dense(1)], name="s"), path)
    >>> load_model(zipfile.ZipFile(path)).name
    's'
    """
    config = limits.read_json(
        read_member(archive, CONFIG_FILENAME, limits.MAX_JSON_BYTES), CONFIG_FILENAME)
    if METADATA_FILENAME in archive.namelist():
        limits.read_json(read_member(archive, METADATA_FILENAME, MAX_METADATA_BYTES),
                         METADATA_FILENAME)
    if not {"class_name", "config"} <= set(config):
        raise ValueError("'config.json' does not describe a model (no "
                         "'class_name'/'config')")
    _check_config_shapes(config)
    name = weights_member(archive)
    declared = limits.member_info(archive, name, limits.MAX_WEIGHTS_BYTES).file_size
    compile_config = config.get("compile_config") if compile else None
    config = dict(config, compile_config=None)
    with weight_budget(declared + limits.H5_ALLOWANCE):
        model = deserialize_keras_object(config, custom_objects=custom_objects,
                                         safe_mode=safe_mode)
    if _kind(model) not in ("Layer", "Model", "Functional", "Sequential"):
        raise ValueError(f"'config.json' describes a {type(model).__name__}, "
                         "not a model")
    with open_weights(archive, model, name) as store:
        if compile_config and hasattr(model, "compile_from_config"):
            # after the weights member's check: the optimizer's slots are
            # not in the budget (an untrained model's file has none)
            with CustomObjectScope(custom_objects), SafeModeScope(safe_mode):
                model.compile_from_config(compile_config)
        load_state(model, store, include_optimizer=compile)
    load_assets(model, archive)
    return model
