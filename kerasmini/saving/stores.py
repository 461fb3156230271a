"""Weight stores: where ``save_own_variables`` writes and what it reads.

A model's weights file is a tree of groups, one per layer (or optimizer),
each holding its variables as ``vars/0``, ``vars/1``, ...::

    /vars                        (attr name="sequential")
    /layers/dense/vars/0         kernel, shape (4, 3)
    /layers/dense/vars/1         bias, shape (3,)
    /optimizer/vars/0            iterations

:class:`H5Store` keeps that tree in HDF5 (h5py), exactly as Keras 3 does, so
either library reads the other's files. :class:`NpzStore` keeps it in a
NumPy ``.npz`` with flat keys (``layers/dense/vars/0``), read with
``allow_pickle=False``.

Reading is defensive: an entry refuses HDF5 links (which could point
outside the file), external or virtual datasets, non-numeric dtypes and
datasets that declare far more bytes than are stored (a "shape bomb"),
and the caller can check ``entry.shape(key)`` before any data is read.

>>> import io, numpy as np
>>> buffer = io.BytesIO()
>>> with H5Store(buffer, "w") as store:
...     store.make("layers/dense", name="dense")["0"] = np.ones((2, 3), "float32")
>>> with H5Store(io.BytesIO(buffer.getvalue()), "r") as store:
...     entry = store.get("layers/dense")
...     entry.shape("0"), float(entry["0"].sum())
((2, 3), 6.0)
"""

import math
import os
import zipfile

import numpy as np

from kerasmini.saving.limits import check_zip_directory


def _h5py():
    """h5py, imported on first use: reading or writing weights is rare next to
    ``import kerasmini``, and h5py costs tens of milliseconds to import."""
    import h5py

    return h5py


# A dataset may declare more bytes than it stores (compression), but not
# absurdly more: above this floor, declared > ratio * stored is refused.
BOMB_FLOOR_BYTES = 1 << 26  # 64 MiB
BOMB_MAX_RATIO = 1000


def _check_declared(path, shape, dtype, stored_bytes):
    """Refuse non-numeric dtypes and sizes the stored bytes cannot back."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "biuf" or dtype.hasobject:
        raise ValueError(f"weight '{path}' has unsupported dtype {dtype}")
    declared = math.prod(shape) * dtype.itemsize
    if declared > BOMB_FLOOR_BYTES and declared > BOMB_MAX_RATIO * max(stored_bytes, 1):
        raise ValueError(
            f"weight '{path}' declares shape {tuple(shape)} ({declared} bytes) but "
            f"only {stored_bytes} bytes are stored; refusing a potential "
            "decompression/shape bomb"
        )
    return declared


# HDF5 filters a weights file may use: deflate (gzip), shuffle, fletcher32 and
# LZF. Others (SZIP, n-bit, scale-offset, plugins) are refused unread.
_FILTERS = {1: "deflate", 2: "shuffle", 3: "fletcher32", 32000: "lzf"}


def _check_filters(path, dataset):
    """Refuse unknown compression filters, and chunks larger than the
    dataset (a chunk is inflated whole), before any data is read."""
    plist = dataset.id.get_create_plist()
    for i in range(plist.get_nfilters()):
        code = plist.get_filter(i)[0]
        if code not in _FILTERS:
            raise ValueError(f"weight '{path}' uses the HDF5 filter {code}; only "
                             f"{sorted(_FILTERS.values())} are read")
    if dataset.chunks is not None and math.prod(dataset.chunks) > max(
            math.prod(dataset.shape), 1 << 16):
        raise ValueError(f"weight '{path}' has chunks {dataset.chunks} larger "
                         f"than its shape {dataset.shape}")


class _Entry:
    """The ``vars`` group of one object: a dict-like ``{"0": array, ...}``."""

    def __init__(self, group, path):
        self.group = group  # an h5py.Group, or a dict for a missing entry
        self.path = path

    def keys(self):
        return list(self.group.keys())

    def __len__(self):
        return len(self.group)

    def __contains__(self, key):
        return key in self.group

    def _dataset(self, key):
        h5py = _h5py()
        where = f"{self.path}/vars/{key}".lstrip("/")
        if key not in self.group:
            raise ValueError(f"missing weight '{where}'")
        link = self.group.get(key, getlink=True)
        if not isinstance(link, h5py.HardLink):
            raise ValueError(f"weight '{where}' is a {type(link).__name__}; "
                             "links are not allowed")
        dataset = self.group[key]
        if not isinstance(dataset, h5py.Dataset):
            raise ValueError(f"weight '{where}' is not a dataset")
        if dataset.external or dataset.is_virtual:
            raise ValueError(f"weight '{where}' is stored outside the file")
        _check_filters(where, dataset)
        _check_declared(where, dataset.shape, dataset.dtype,
                        dataset.id.get_storage_size())
        return dataset

    def shape(self, key):
        """The declared shape of ``key``, read without loading the data."""
        return tuple(self._dataset(key).shape)

    def __getitem__(self, key):
        return np.asarray(self._dataset(key)[()])

    def __setitem__(self, key, value):
        if isinstance(self.group, dict):
            raise ValueError("this store is read-only")
        self.group.create_dataset(key, data=np.asarray(value))


class H5Store:
    """Keras 3's weight layout in an HDF5 file (a path or a file object).

    Args:
        file: a path, or a binary file object (``io.BytesIO``).
        mode: ``"r"`` or ``"w"``.

    >>> import io
    >>> H5Store(io.BytesIO(b"not hdf5"), "r")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    ValueError: not a valid HDF5 weights file (...)
    """

    def __init__(self, file, mode="r"):
        h5py = _h5py()
        self.mode = mode
        try:
            self.h5 = h5py.File(file, mode)
        except OSError as error:
            raise ValueError(f"not a valid HDF5 weights file ({error})") from error

    def make(self, path, name=None):
        """Create the group ``<path>/vars`` (with a ``name`` attribute)."""
        group = self.h5.create_group(f"{path}/vars" if path else "vars")
        if name is not None:
            group.attrs["name"] = name
        return _Entry(group, path)

    def get(self, path):
        """The entry at ``path`` (empty if the file has none)."""
        h5py = _h5py()
        group = self.h5
        for part in (f"{path}/vars" if path else "vars").split("/"):
            if part not in group:
                return _Entry({}, path)
            link = group.get(part, getlink=True)
            if not isinstance(link, h5py.HardLink):
                raise ValueError(f"group '{path}' is reached through a "
                                 f"{type(link).__name__}; links are not allowed")
            group = group[part]
            if not isinstance(group, h5py.Group):
                raise ValueError(f"'{path}' is not a group")
        return _Entry(group, path)

    def declared_bytes(self):
        """The bytes all datasets declare (each checked as :class:`_Entry`
        checks it): the most weights this file can fill."""
        h5py = _h5py()
        total = 0

        def add(name, obj):
            nonlocal total
            if isinstance(obj, h5py.Dataset):
                parent, _, key = name.rpartition("/")
                group = self.h5[parent] if parent else self.h5
                dataset = _Entry(group, parent)._dataset(key)
                total += dataset.size * dataset.dtype.itemsize

        self.h5.visititems(add)
        return total

    def close(self):
        self.h5.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _NpzEntry(_Entry):
    def __init__(self, store, path):
        self.store, self.path = store, path
        prefix = f"{path}/vars/" if path else "vars/"
        self.group = {k[len(prefix):]: k for k in store.arrays
                      if k.startswith(prefix) and "/" not in k[len(prefix):]}

    def shape(self, key):
        return self.store.headers[self.group[key]][0]

    def __getitem__(self, key):
        if key not in self.group:
            raise ValueError(f"missing weight '{self.path}/vars/{key}'")
        return self.store.arrays[self.group[key]]

    def __setitem__(self, key, value):
        full = f"{self.path}/vars/{key}" if self.path else f"vars/{key}"
        self.store.arrays[full] = np.asarray(value)
        self.group[key] = full


class NpzStore:
    """The same tree in a ``.npz``: flat keys, never pickled.

    Headers are checked (dtype, declared size against stored size) before
    ``np.load(..., allow_pickle=False)`` reads any array.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> with NpzStore(buffer, "w") as store:
    ...     store.make("layers/dense")["0"] = np.zeros(3)
    >>> NpzStore(io.BytesIO(buffer.getvalue())).get("layers/dense").shape("0")
    (3,)
    """

    def __init__(self, file, mode="r"):
        self.mode, self.file = mode, file
        self.arrays, self.headers = {}, {}
        if mode == "r":  # headers now, each array when it is asked for
            self.headers = _npz_headers(file)
            self._data = np.load(file, allow_pickle=False)
            self.arrays = _LazyArrays(self._data, self.headers)

    def make(self, path, name=None):
        return _NpzEntry(self, path)

    def declared_bytes(self):
        return sum(math.prod(shape) * dtype.itemsize
                   for shape, dtype in self.headers.values())

    def get(self, path):
        return _NpzEntry(self, path)

    def close(self):
        if self.mode == "w":
            np.savez(self.file, **self.arrays)
        else:
            self._data.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None or self.mode == "r":
            self.close()
        return False


class _LazyArrays(dict):
    """``{key: array}`` of an ``.npz`` being read: the keys are known from
    the headers, an array is read from the zip only when it is looked up."""

    def __init__(self, npz, headers):
        super().__init__((key, None) for key in headers)
        self._npz = npz

    def __getitem__(self, key):
        return self._npz[key]


def _npz_headers(file):
    """``{key: (shape, dtype)}`` of every array, from the ``.npy`` headers."""
    headers = {}
    try:
        if isinstance(file, (str, os.PathLike)):
            with open(file, "rb") as opened:
                check_zip_directory(opened)
        else:
            check_zip_directory(file)
        with zipfile.ZipFile(file) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    raise ValueError(f"unexpected member '{info.filename}'")
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(member)
                key = info.filename[:-len(".npy")]
                _check_declared(key, shape, dtype, info.compress_size)
                headers[key] = (tuple(shape), dtype)
    except zipfile.BadZipFile as error:
        raise ValueError(f"not a valid .npz file ({error})") from error
    if hasattr(file, "seek"):
        file.seek(0)
    return headers
