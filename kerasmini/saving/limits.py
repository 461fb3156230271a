"""What loading a file may cost, checked before anything is inflated.

A ``.keras`` archive is small to send and can be large to open: a zip
member declares how big it inflates, an HDF5 dataset declares its shape, a
config declares the layers to build. Loading trusts none of it blindly; it
bounds the work by what the model itself needs:

* the zip's central directory, read from its end record before
  :mod:`zipfile` parses it: at most :data:`MAX_MEMBERS` members and
  :data:`MAX_DIRECTORY_BYTES` of directory (:func:`open_archive`);
* each JSON member: at most :data:`MAX_JSON_BYTES`, about
  :data:`MAX_JSON_VALUES` values and :data:`MAX_JSON_DEPTH` levels of
  nesting, counted in the text before it is parsed (:func:`read_json`);
* the weights member: the model is built first, under a budget of what
  the weights member declares (``weight_budget``), and the member may then
  declare no more than :func:`weights_allowance` of that model (its own
  weights, up to three optimizer slots per weight, and a fixed allowance
  for HDF5's own structures) before a byte of it is inflated;
* every member's declared size against its stored size
  (:data:`MAX_MEMBER_RATIO`), and against the bytes actually inflated;
* assets: streamed to disk, :data:`MAX_ASSETS_BYTES` in all.

So a damaged or hostile file costs at most a small multiple of the model's
own weights, plus a fixed allowance for JSON, and is refused with a
``ValueError`` saying which limit it broke.

>>> import io, zipfile
>>> buffer = io.BytesIO()
>>> with zipfile.ZipFile(buffer, "w") as archive:
...     for i in range(3):
...         archive.writestr(f"member{i}", "")
>>> check_zip_directory(buffer, max_members=2)
Traceback (most recent call last):
  ...
ValueError: the archive holds 3 members (at most 2 are read)
"""

import io
import json
import re
import struct
import zipfile

import numpy as np

MAX_MEMBERS = 10_000
MAX_DIRECTORY_BYTES = 4 << 20
MAX_JSON_BYTES = 4 << 20  # a config of thousands of layers is a few MB
MAX_JSON_VALUES = 250_000  # each value costs 50-100 bytes once parsed
MAX_JSON_DEPTH = 100  # a Keras config nests about 15 deep, nested models more
MAX_MEMBER_RATIO = 100  # a member above 1 MiB may not inflate more than this
MAX_WEIGHTS_BYTES = 8 << 30  # the weights member, before the model is known
MAX_ASSETS_BYTES = 256 << 20  # on disk, streamed in blocks
SLOTS_PER_WEIGHT = 3  # Adam with amsgrad: m, v and v_hat per weight
H5_ALLOWANCE = 1 << 20  # HDF5's superblock, groups, headers...
H5_PER_VARIABLE = 16 << 10  # ... and per dataset (a few hundred bytes used)

_END = b"PK\x05\x06"  # end of central directory record
_END64_LOCATOR = b"PK\x06\x07"
_END64 = b"PK\x06\x06"


def check_zip_directory(file, max_members=MAX_MEMBERS,
                        max_bytes=MAX_DIRECTORY_BYTES):
    """Read the zip's end record (and its Zip64 one) from the end of
    ``file`` and refuse too many members or too large a directory, before
    :mod:`zipfile` reads the directory. A file without an end record is
    left for :mod:`zipfile` to refuse.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("a" * 100, "")
    >>> check_zip_directory(buffer, max_bytes=100)
    Traceback (most recent call last):
      ...
    ValueError: the archive's directory takes 146 bytes (at most 100 are read)
    """
    file.seek(0, 2)
    size = file.tell()
    tail_size = min(size, 22 + 0xFFFF)
    file.seek(size - tail_size)
    tail = file.read(tail_size)
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < 22:
        file.seek(0)
        return
    entries, directory_bytes = struct.unpack("<HI", tail[at + 10:at + 16])
    if entries == 0xFFFF or directory_bytes == 0xFFFFFFFF:
        locator = tail[at - 20:at] if at >= 20 else b""
        if locator[:4] == _END64_LOCATOR:
            (offset,) = struct.unpack("<Q", locator[8:16])
            if offset <= size - 56:
                file.seek(offset)
                record = file.read(56)
                if record[:4] == _END64:
                    entries, directory_bytes = struct.unpack("<QQ", record[32:48])
    file.seek(0)
    if entries > max_members:
        raise ValueError(f"the archive holds {entries} members (at most "
                         f"{max_members} are read)")
    if directory_bytes > max_bytes:
        raise ValueError(f"the archive's directory takes {directory_bytes} bytes "
                         f"(at most {max_bytes} are read)")


def open_archive(file):
    """A :class:`zipfile.ZipFile` over the open binary ``file``, its
    directory checked first (:func:`check_zip_directory`).

    >>> import io
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("config.json", "{}")
    >>> open_archive(buffer).namelist()
    ['config.json']
    """
    check_zip_directory(file)
    return zipfile.ZipFile(file)


def member_info(archive, name, limit):
    """The :class:`zipfile.ZipInfo` of ``name``, its declared size checked
    against ``limit`` and against its stored size; nothing is inflated.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
    ...     archive.writestr("model.weights.h5", bytes(1 << 24))
    >>> member_info(zipfile.ZipFile(buffer), "model.weights.h5", 1 << 30)
    Traceback (most recent call last):
      ...
    ValueError: 'model.weights.h5' declares 16777216 bytes but stores only ...
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
    return info


def read_member(archive, name, limit):
    """The bytes of archive member ``name`` (exact name; never extracted),
    refusing members larger than ``limit`` or inflating suspiciously.

    >>> import io, zipfile
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
    info = member_info(archive, name, limit)
    with archive.open(info) as member:
        data = member.read(info.file_size + 1)
    if len(data) > info.file_size:  # the directory lied
        raise ValueError(f"'{name}' inflates beyond the {info.file_size} bytes "
                         "it declares")
    return data


def inflate_member(archive, name, limit):
    """Member ``name`` inflated into memory as a seekable file, read a block
    at a time into a buffer of its declared size (no second copy).

    >>> import io
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
    ...     archive.writestr("w.npz", b"0123456789")
    >>> member = inflate_member(zipfile.ZipFile(buffer), "w.npz", 100)
    >>> _ = member.seek(4)
    >>> member.read(3)
    b'456'
    """
    info = member_info(archive, name, limit)
    buffer = bytearray(info.file_size)
    view, size = memoryview(buffer), 0
    with archive.open(info) as member:
        while True:
            block = member.read(min(1 << 20, info.file_size - size) or 1)
            if not block:
                break
            if size + len(block) > info.file_size:  # the directory lied
                raise ValueError(f"'{name}' inflates beyond the {info.file_size} "
                                 "bytes it declares")
            view[size:size + len(block)] = block
            size += len(block)
    return MemberWindow(io.BytesIO(), 0, size, buffer=buffer)


class MemberWindow(io.RawIOBase):
    """A stored (uncompressed) zip member read in place, as a seekable file:
    HDF5 reads what it needs from the archive on disk, and nothing is
    inflated into memory (Keras 3 also reads its weights from the archive
    without extracting them). With ``buffer``, the same over bytes in
    memory (a compressed member, inflated by :func:`inflate_member`).

    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:  # stored, not deflated
    ...     archive.writestr("model.weights.h5", b"HDF5 bytes")
    >>> archive = zipfile.ZipFile(buffer)
    >>> window = MemberWindow.of(archive, archive.getinfo("model.weights.h5"))
    >>> _ = window.seek(5)
    >>> window.read()
    b'bytes'
    """

    def __init__(self, file, offset, size, buffer=None):
        super().__init__()
        self._file, self._offset, self._size, self._at = file, offset, size, 0
        self._buffer = buffer  # or the bytes themselves, already in memory

    @classmethod
    def of(cls, archive, info):
        """The window on ``info``'s bytes, or None if the member is
        compressed, encrypted or does not fit in the file."""
        file = archive.fp
        if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 1 or \
                file is None or not file.seekable():
            return None
        file.seek(info.header_offset)
        header = file.read(30)
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise ValueError(f"'{info.filename}' has no valid local header")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        offset = info.header_offset + 30 + name_length + extra_length
        file.seek(0, 2)
        if offset + info.file_size > file.tell():
            raise ValueError(f"'{info.filename}' runs past the end of the archive")
        return cls(file, offset, info.file_size)

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._at

    def seek(self, position, whence=0):
        base = {0: 0, 1: self._at, 2: self._size}[whence]
        self._at = max(0, base + position)
        return self._at

    def readinto(self, buffer):
        count = max(0, min(len(buffer), self._size - self._at))
        if count == 0:
            return 0
        if self._buffer is not None:
            buffer[:count] = memoryview(self._buffer)[self._at:self._at + count]
            self._at += count
            return count
        self._file.seek(self._offset + self._at)
        data = self._file.read(count)
        buffer[:len(data)] = data
        self._at += len(data)
        return len(data)


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def read_json(data, name, max_values=MAX_JSON_VALUES, max_depth=MAX_JSON_DEPTH):
    """Parse the JSON object in ``data`` (bytes), after counting its values
    and its nesting in the text (strings blanked out first), so that a
    hostile text is refused before Python builds millions of objects.

    >>> read_json(b'{"a": [1, 2, {"b": "[[[[["}]}', "config.json")
    {'a': [1, 2, {'b': '[[[[['}]}
    >>> read_json(b"[" * 200 + b"]" * 200, "config.json")
    Traceback (most recent call last):
      ...
    ValueError: 'config.json' nests 200 levels deep (at most 100)
    """
    text = _STRING.sub(b'""', data)
    values = text.count(b",") + text.count(b"[") + text.count(b"{")
    if values > max_values:
        raise ValueError(f"'{name}' holds about {values} values (at most "
                         f"{max_values})")
    depth = _depth(text)  # a loop over at most `max_values` brackets
    if depth > max_depth:
        raise ValueError(f"'{name}' nests {depth} levels deep (at most "
                         f"{max_depth})")
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValueError(f"'{name}' is not valid JSON ({error})") from error
    if not isinstance(value, dict):
        raise ValueError(f"'{name}' must hold a JSON object, not "
                         f"{type(value).__name__}")
    return value


def _depth(text):
    depth = deepest = 0
    for match in re.finditer(rb"[\[\]{}]", text):
        depth += 1 if match.group() in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def variable_bytes(variables):
    """The bytes of ``variables`` (their shapes and dtypes).

    >>> from kerasmini.backend import Variable
    >>> variable_bytes([Variable(np.zeros((2, 3), "float32"))])
    24
    """
    total = 0
    for variable in variables:
        size = 1
        for d in variable.shape:
            size *= int(d)
        total += size * np.dtype(variable.dtype).itemsize
    return total


def weights_allowance(model):
    """The most a weights file of ``model`` may hold: its variables, up to
    :data:`SLOTS_PER_WEIGHT` optimizer slots per trainable weight (a file
    saved after training holds them, whether or not they are loaded), the
    optimizer's own scalars and HDF5's structures.

    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Input((4,)), layers.Dense(3)])
    >>> # 15 floats (60 bytes), three slots each; 2 variables, 6 slots, 4 scalars
    >>> weights_allowance(model) == 4 * 60 + H5_ALLOWANCE + H5_PER_VARIABLE * 12
    True
    """
    weights = list(model.weights)
    trainable = list(model.trainable_weights)
    count = len(weights) + SLOTS_PER_WEIGHT * len(trainable) + 4
    return (variable_bytes(weights) + SLOTS_PER_WEIGHT * variable_bytes(trainable)
            + H5_ALLOWANCE + H5_PER_VARIABLE * count)
