"""kerasmini.saving.stores: Keras 3's weights tree in HDF5 and NPZ, read safely."""

import io
import zipfile

import h5py
import numpy as np
import pytest

from kerasmini.saving.stores import H5Store, NpzStore


def _h5_bytes(write):
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        write(f)
    return io.BytesIO(buffer.getvalue())


def test_h5_round_trip_in_keras_layout():
    buffer = io.BytesIO()
    with H5Store(buffer, "w") as store:
        entry = store.make("layers/dense", name="dense")
        entry["0"] = np.arange(6, dtype="float32").reshape(2, 3)
        entry["1"] = np.zeros(3, dtype="float32")
    with h5py.File(io.BytesIO(buffer.getvalue()), "r") as f:
        assert sorted(f["layers/dense/vars"]) == ["0", "1"]
    with H5Store(io.BytesIO(buffer.getvalue()), "r") as store:
        entry = store.get("layers/dense")
        assert entry.shape("0") == (2, 3) and len(entry) == 2
        np.testing.assert_array_equal(entry["0"], np.arange(6).reshape(2, 3))


def test_h5_missing_entry_is_empty():
    buffer = io.BytesIO()
    with H5Store(buffer, "w"):
        pass
    with H5Store(io.BytesIO(buffer.getvalue()), "r") as store:
        assert len(store.get("layers/nothing")) == 0


def test_h5_missing_weight_names_the_path():
    buffer = io.BytesIO()
    with H5Store(buffer, "w") as store:
        store.make("layers/dense")["0"] = np.zeros(2)
    with H5Store(io.BytesIO(buffer.getvalue()), "r") as store:
        with pytest.raises(ValueError, match="missing weight 'layers/dense/vars/1'"):
            store.get("layers/dense")["1"]


def test_h5_refuses_a_file_that_is_not_hdf5():
    with pytest.raises(ValueError, match="not a valid HDF5 weights file"):
        H5Store(io.BytesIO(b"definitely not hdf5"), "r")


def test_h5_refuses_non_numeric_datasets():
    data = _h5_bytes(lambda f: f.create_dataset(
        "layers/dense/vars/0", data=np.array([b"abc"], dtype="S3")))
    with H5Store(data, "r") as store:
        with pytest.raises(ValueError, match="unsupported dtype"):
            store.get("layers/dense")["0"]


def test_h5_refuses_links():
    def write(f):
        f.create_dataset("real", data=np.zeros(2))
        f.create_group("layers/dense/vars")
        f["layers/dense/vars"]["0"] = h5py.SoftLink("/real")
    with H5Store(_h5_bytes(write), "r") as store:
        with pytest.raises(ValueError, match="links are not allowed"):
            store.get("layers/dense").shape("0")


def test_h5_refuses_a_shape_the_stored_bytes_cannot_back():
    def write(f):  # 8 GB declared, almost nothing stored (chunked, unwritten)
        f.create_dataset("layers/dense/vars/0", shape=(1 << 30,), dtype="float64",
                         chunks=(1024,))
    with H5Store(_h5_bytes(write), "r") as store:
        with pytest.raises(ValueError, match="decompression/shape bomb"):
            store.get("layers/dense").shape("0")


def test_npz_round_trip_and_declared_bytes():
    buffer = io.BytesIO()
    with NpzStore(buffer, "w") as store:
        store.make("layers/dense")["0"] = np.zeros((4, 2), dtype="float32")
    store = NpzStore(io.BytesIO(buffer.getvalue()))
    assert store.get("layers/dense").shape("0") == (4, 2)
    assert store.declared_bytes() == 4 * 2 * 4


def test_npz_never_unpickles():
    buffer = io.BytesIO()
    np.savez(buffer, **{"layers/x/vars/0": np.array([object()], dtype=object)})
    with pytest.raises(ValueError, match="unsupported dtype"):
        NpzStore(io.BytesIO(buffer.getvalue()))


def test_npz_refuses_foreign_members():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("evil.txt", "hello")
    with pytest.raises(ValueError, match="unexpected member 'evil.txt'"):
        NpzStore(io.BytesIO(buffer.getvalue()))


def test_npz_refuses_a_file_that_is_not_a_zip():
    with pytest.raises(ValueError, match="not a valid .npz file"):
        NpzStore(io.BytesIO(b"not a zip"))
