"""Hostile and damaged ``.keras`` archives, built from a small good one.

Each builder takes the folder to write in and returns the path of a file
that costs a naive loader far more than the model it describes: a zip bomb
(a weights member inflating to gigabytes from a few megabytes), a config
that declares huge layers over compressed HDF5 datasets, hundreds of
thousands of zip members, deep or huge JSON, an HDF5 filter nobody should
run, a zip directory that lies. ``test_memory.py`` loads each one in a child
process and measures what it costs; the report's "before" figures come
from the same builders run against the code before issue 20.
"""

import io
import json
import os
import struct
import tempfile
import zipfile

import h5py
import numpy as np

import kerasmini as keras

MB = 1 << 20


def good_model():
    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3),
                             keras.layers.Dense(2)])


def good_members():
    """``{name: bytes}`` of a small model's archive."""
    with tempfile.TemporaryDirectory() as folder:
        saved = os.path.join(folder, "m.keras")
        good_model().save(saved)
        with zipfile.ZipFile(saved) as archive:
            return {n: archive.read(n) for n in archive.namelist()}


def write(path, members, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _deflated_member(archive_path, name, block, blocks, others):
    """Write a zip whose member ``name`` is ``block`` repeated ``blocks``
    times, deflated as one stream (without holding it whole in memory)."""
    with zipfile.ZipFile(archive_path, "w") as archive:
        for other, data in others.items():
            archive.writestr(other, data)
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as member:
            for _ in range(blocks):
                member.write(block)
    return archive_path


def zip_bomb(folder, declared_mb=300):
    """The weights member inflates ~99x: ``declared_mb`` MB from ~1%.

    A loader that trusts the ratio limit of 100 alone reads it all."""
    rng = np.random.default_rng(0)
    block = rng.bytes(MB // 100) + bytes(MB - MB // 100)  # 1% noise per MB
    members = good_members()
    members.pop("model.weights.h5")
    return _deflated_member(os.path.join(folder, "zip_bomb.keras"),
                            "model.weights.h5", block, declared_mb, members)


def compressed_giant_datasets(folder, units=8192):
    """A config of ``Dense(units)`` layers (``units`` x ``units`` float32
    kernels: 256 MiB at 8192) over gzip'd datasets of that shape, zeros
    with a little noise (about 1:300): the archive is a few MB, the model
    it declares enormous."""
    members = good_members()
    config = json.loads(members["config.json"])
    layers = config["config"]["layers"]
    layers[0]["config"]["batch_shape"] = [None, units]
    for layer in layers[1:]:
        layer["config"]["units"] = units
        layer.pop("build_config", None)
    config.pop("build_config", None)
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as h5:
        h5.create_group("vars")
        for name in ("dense", "dense_1"):
            group = h5.create_group(f"layers/{name}/vars")
            kernel = group.create_dataset("0", shape=(units, units),
                                          dtype="float32", chunks=(256, units),
                                          compression="gzip")
            block = np.zeros((256, units), "float32")
            block[::16, ::64] = 1.0  # what keeps the ratio near 300
            for row in range(0, units, 256):
                kernel[row:row + 256] = block
            group.create_dataset("1", shape=(units,), dtype="float32")
        h5.create_group("optimizer/vars")
    members["config.json"] = json.dumps(config).encode()
    members["model.weights.h5"] = buffer.getvalue()
    return write(os.path.join(folder, "giant_datasets.keras"), members)


def many_members(folder, count=200_000):
    """``count`` empty members beside a good model."""
    path = os.path.join(folder, "many_members.keras")
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in good_members().items():
            archive.writestr(name, data)
        for i in range(count):
            archive.writestr(f"assets/junk/{i}", b"")
    return path


def deep_json(folder, depth=100_000):
    members = good_members()
    members["config.json"] = (b'{"class_name": "Sequential", "config": '
                              + b"[" * depth + b"]" * depth + b"}")
    return write(os.path.join(folder, "deep_json.keras"), members)


def huge_json(folder, megabytes=4):
    """A config just under the size limit, made of millions of values."""
    members = good_members()
    count = megabytes * MB // 4 - 100
    members["config.json"] = (b'{"class_name": "Sequential", "config": {}, "x": ['
                              + b"[]," * count + b"[]]}")
    return write(os.path.join(folder, "huge_json.keras"), members)


def json_at_the_limits(folder):
    """A config just inside every JSON limit: 124,000 empty objects in a
    list beside a valid model config (parsed, then refused or ignored)."""
    members = good_members()
    config = members["config.json"][:-1] + b', "x": [' + b"{}," * 123_999 + b"{}]}"
    members["config.json"] = config
    return write(os.path.join(folder, "json_at_the_limits.keras"), members)


def unknown_h5_filter(folder):
    """A kernel stored with HDF5's scale-offset filter (not one of ours)."""
    members = good_members()
    buffer = io.BytesIO(members["model.weights.h5"])
    with h5py.File(buffer, "a") as h5:
        del h5["layers/dense/vars/0"]
        h5["layers/dense/vars"].create_dataset(
            "0", data=np.zeros((4, 3), "float32"), scaleoffset=4, chunks=(4, 3))
    members["model.weights.h5"] = buffer.getvalue()
    return write(os.path.join(folder, "h5_filter.keras"), members)


def lying_directory(folder):
    """The directory declares a 100-byte config that inflates to 3 MB."""
    members = good_members()
    path = write(os.path.join(folder, "lying.keras"), dict(
        members, **{"config.json": members["config.json"] + b" " * (3 * MB)}),
        compression=zipfile.ZIP_DEFLATED)
    data = bytearray(open(path, "rb").read())
    real = len(members["config.json"]) + 3 * MB
    small = struct.pack("<I", 100)
    for signature, offset in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):
        at = data.find(signature)
        while at >= 0:
            name_length = struct.unpack("<H", data[at + offset + 4:at + offset + 6])[0]
            name_at = at + (46 if signature == b"PK\x01\x02" else 30)
            if data[name_at:name_at + name_length] == b"config.json" and \
                    struct.unpack("<I", data[at + offset:at + offset + 4])[0] == real:
                data[at + offset:at + offset + 4] = small
            at = data.find(signature, at + 4)
    with open(path, "wb") as file:
        file.write(bytes(data))
    return path


def assets_bomb(folder, declared_mb=300):
    rng = np.random.default_rng(1)
    block = rng.bytes(MB // 100) + bytes(MB - MB // 100)
    return _deflated_member(os.path.join(folder, "assets_bomb.keras"),
                            "assets/layers/vocab/vocab.txt", block, declared_mb,
                            good_members())


BUILDERS = [zip_bomb, compressed_giant_datasets, many_members, deep_json, huge_json,
            json_at_the_limits, unknown_h5_filter, lying_directory, assets_bomb]
