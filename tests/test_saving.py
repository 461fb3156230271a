"""model.save / load_model / save_weights / load_weights: layout, exact round
trips, resumed training, atomic writes, and one test per damaged or hostile
file."""

import io
import json
import os
import zipfile

import h5py
import numpy as np
import pytest

import kerasmini as keras
import kerasmini.optimizers
from kerasmini import layers
from kerasmini.saving import load_model, saving_lib


def make_model():
    return keras.Sequential([layers.Input((4,)), layers.Dense(3, activation="relu"),
                             layers.Dropout(0.5), layers.Dense(2)])


def make_compiled(dropout=True):
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)
    model = make_model() if dropout else keras.Sequential(
        [layers.Input((4,)), layers.Dense(3, activation="relu"), layers.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


def data():
    rng = np.random.default_rng(0)
    return (rng.random((16, 4)).astype("float32"),
            rng.random((16, 2)).astype("float32"))


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "m.keras"
    make_model().save(path)
    return path


def members(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write_zip(path, contents):
    with zipfile.ZipFile(path, "w") as archive:
        for name, value in contents.items():
            archive.writestr(name, value)
    return path


def tamper(saved, tmp_path, **changes):
    """A copy of ``saved`` with members replaced (``None`` removes one)."""
    contents = members(saved)
    for name, value in changes.items():
        name = name.replace("__", ".")
        if value is None:
            contents.pop(name)
        else:
            contents[name] = value
    return write_zip(tmp_path / "bad.keras", contents)


def tamper_h5(saved, tmp_path, edit):
    contents = members(saved)
    buffer = io.BytesIO(contents["model.weights.h5"])
    with h5py.File(buffer, "a") as h5:
        edit(h5)
    contents["model.weights.h5"] = buffer.getvalue()
    return write_zip(tmp_path / "bad.keras", contents)


# ----------------------------------------------------------------- layout
def test_save_writes_the_three_keras_members(saved):
    assert sorted(members(saved)) == [
        "config.json", "metadata.json", "model.weights.h5"]
    assert json.loads(members(saved)["metadata.json"])["keras_version"] == "3.15.1"


def test_config_json_is_the_serialized_model(saved):
    config = json.loads(members(saved)["config.json"])
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    assert config["compile_config"] == {}


def test_weights_h5_uses_keras_layout(saved):
    with h5py.File(io.BytesIO(members(saved)["model.weights.h5"])) as h5:
        assert h5["layers/dense/vars/0"].shape == (4, 3)
        assert h5["layers/dense_1/vars/1"].shape == (2,)
        assert h5["layers/dense"]["vars"].attrs["name"] == "dense"
        assert len(h5["layers/dropout/vars"]) == 0
        assert h5["vars"].attrs["name"] == "sequential"


def test_optimizer_variables_saved_under_optimizer_vars(tmp_path):
    model = make_compiled()
    model.fit(*data(), epochs=1, batch_size=8, verbose=0)
    model.save(tmp_path / "m.keras")
    with h5py.File(io.BytesIO(members(tmp_path / "m.keras")["model.weights.h5"])) as h5:
        group = h5["optimizer/vars"]
        assert [group[str(i)].shape for i in range(len(group))] == [
            v.shape for v in model.optimizer.variables]
        assert int(group["0"][()]) == 2  # iterations


# ------------------------------------------------------------ round trips
def test_load_model_weights_bit_exact(saved):
    original = load_model(saved)
    again = load_model(saved)
    assert all(np.array_equal(a, b) for a, b in
               zip(original.get_weights(), again.get_weights()))


def test_sequential_roundtrip_same_predictions(tmp_path):
    model = make_model()
    model.save(tmp_path / "m.keras")
    x = data()[0]
    assert np.array_equal(load_model(tmp_path / "m.keras")(x), model(x))


def test_functional_roundtrip_same_weights(tmp_path):
    a, b = layers.Input((4,), name="a"), layers.Input((3,), name="b")
    shared = layers.Dense(4)
    h = layers.Concatenate()([shared(a), layers.Dense(4)(b)])
    model = keras.Model([a, b], [layers.Dense(1)(h), layers.Add()([h, h])])
    model.save(tmp_path / "f.keras")
    restored = load_model(tmp_path / "f.keras")
    assert [w.path for w in restored.weights] == [w.path for w in model.weights]
    assert all(np.array_equal(u, v) for u, v in
               zip(restored.get_weights(), model.get_weights()))


def test_compile_config_and_optimizer_state_bit_exact(tmp_path):
    model = make_compiled()
    model.fit(*data(), epochs=2, batch_size=8, verbose=0)
    model.save(tmp_path / "m.keras")
    restored = load_model(tmp_path / "m.keras")
    assert restored.compiled and type(restored.optimizer).__name__ == "Adam"
    assert len(restored.optimizer.variables) == len(model.optimizer.variables)
    for mine, theirs in zip(restored.optimizer.variables, model.optimizer.variables):
        assert np.array_equal(mine.numpy(), theirs.numpy())


def test_load_model_compile_false_skips_training_state(tmp_path):
    model = make_compiled()
    model.save(tmp_path / "m.keras")
    assert not load_model(tmp_path / "m.keras", compile=False).compiled


def test_resumed_training_matches_uninterrupted(tmp_path):
    x, y = data()
    straight = make_compiled(dropout=False)  # (dropout draws fresh masks)
    straight.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0)
    first = make_compiled(dropout=False)
    first.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    first.save(tmp_path / "half.keras")
    resumed = load_model(tmp_path / "half.keras")
    resumed.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    for a, b in zip(straight.get_weights(), resumed.get_weights()):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("suffix", [".weights.h5", ".weights.npz"])
def test_save_weights_load_weights_bit_exact(tmp_path, suffix):
    model = make_model()
    model.save_weights(tmp_path / f"w{suffix}")
    other = make_model()
    other.load_weights(tmp_path / f"w{suffix}")
    assert all(np.array_equal(a, b) for a, b in
               zip(model.get_weights(), other.get_weights()))


def test_load_weights_from_keras_archive(saved):
    model = make_model()
    model.load_weights(saved)
    assert all(np.array_equal(a, b) for a, b in
               zip(model.get_weights(), load_model(saved).get_weights()))


def test_load_weights_shape_mismatch_names_layer(tmp_path):
    make_model().save_weights(tmp_path / "w.weights.h5")
    wider = keras.Sequential([layers.Input((4,)), layers.Dense(5), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"w\.weights\.h5.*Layer 'dense_\d+'.*kernel"):
        wider.load_weights(tmp_path / "w.weights.h5")


def test_failed_load_weights_leaves_model_unchanged(tmp_path):
    source = keras.Sequential([layers.Input((4,)), layers.Dense(3), layers.Dense(7)])
    source.save_weights(tmp_path / "w.weights.h5")
    target = keras.Sequential([layers.Input((4,)), layers.Dense(3), layers.Dense(2)])
    before = target.get_weights()
    with pytest.raises(ValueError):
        target.load_weights(tmp_path / "w.weights.h5")
    assert all(np.array_equal(a, b) for a, b in zip(before, target.get_weights()))


def test_load_weights_skip_mismatch_warns(tmp_path):
    source = keras.Sequential([layers.Input((4,)), layers.Dense(3), layers.Dense(7)])
    source.save_weights(tmp_path / "w.weights.h5")
    target = keras.Sequential([layers.Input((4,)), layers.Dense(3), layers.Dense(2)])
    with pytest.warns(UserWarning, match="Skipping"):
        target.load_weights(tmp_path / "w.weights.h5", skip_mismatch=True)
    assert np.array_equal(target.layers[0].kernel.numpy(),
                          source.layers[0].kernel.numpy())


def test_npz_weights_are_read_without_pickle(tmp_path):
    path = tmp_path / "w.weights.npz"
    np.savez(path, **{"layers/dense/vars/0": np.array([object()], dtype=object)})
    with pytest.raises(ValueError, match="unsupported dtype object"):
        make_model().load_weights(path)


# ---------------------------------------------------------- atomic writes
def test_interrupted_save_leaves_previous_file_intact(saved, monkeypatch):
    before = saved.read_bytes()

    def crash(model, store):
        store.make("layers/dense", name="dense")["0"] = np.zeros(3)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(saving_lib, "save_state", crash)
    with pytest.raises(RuntimeError, match="disk on fire"):
        make_model().save(saved)
    assert saved.read_bytes() == before
    assert os.listdir(saved.parent) == ["m.keras"]


def test_interrupted_zip_write_leaves_previous_file_intact(saved, monkeypatch):
    before = saved.read_bytes()

    def crash(self, name, data, *args, **kwargs):
        raise OSError("no space left on device")

    monkeypatch.setattr(zipfile.ZipFile, "writestr", crash)
    with pytest.raises(OSError):
        make_model().save(saved)
    assert saved.read_bytes() == before
    assert os.listdir(saved.parent) == ["m.keras"]


def test_save_overwrite_false_refuses_existing_file(saved):
    with pytest.raises(ValueError, match="already exists and `overwrite=False`"):
        make_model().save(saved, overwrite=False)


def test_save_wrong_extension(tmp_path):
    with pytest.raises(ValueError, match="Invalid filepath extension"):
        make_model().save(tmp_path / "m.h6")


@pytest.mark.parametrize("name", ["m.h5", "m.hdf5"])
def test_save_legacy_h5_is_refused_naming_keras_and_the_fix(tmp_path, name):
    # Keras 3 still writes these as legacy HDF5 files; kerasmini says so and
    # that it writes `.keras` only (and writes nothing)
    with pytest.raises(ValueError, match="legacy HDF5") as info:
        make_model().save(tmp_path / name)
    message = str(info.value)
    assert "Keras 3 still" in message and "use a `.keras` extension" in message
    assert message.endswith(f"Received: filepath={tmp_path / name}")
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("name", ["m.h5", "m.hdf5"])
def test_load_legacy_h5_is_refused_with_the_way_round(tmp_path, name):
    with h5py.File(tmp_path / name, "w") as file:  # Keras 2's top-level layout
        file.attrs["model_config"] = '{"class_name": "Sequential", "config": {}}'
        file.create_group("model_weights")
    with pytest.raises(ValueError, match="cannot load legacy HDF5 model") as info:
        keras.saving.load_model(tmp_path / name)
    assert "save it again with a `.keras` extension" in str(info.value)
    model = make_model()
    with pytest.raises(ValueError, match="cannot load weights from a legacy HDF5"):
        model.load_weights(tmp_path / name)


def test_load_missing_legacy_h5_says_not_found(tmp_path):
    with pytest.raises(ValueError, match="File not found"):
        keras.saving.load_model(tmp_path / "missing.h5")


def test_save_weights_wrong_extension(tmp_path):
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        make_model().save_weights(tmp_path / "w.h5")


def test_save_into_directory_refused(tmp_path):
    (tmp_path / "d.keras").mkdir()
    with pytest.raises(ValueError, match="is a directory"):
        make_model().save(tmp_path / "d.keras")


# ------------------------------------------------- damaged and hostile files
def test_load_wrong_extension(saved, tmp_path):
    other = tmp_path / "m.zip"
    other.write_bytes(saved.read_bytes())
    with pytest.raises(ValueError, match="expected a `.keras` extension"):
        load_model(other)


def test_load_directory_in_place_of_file(tmp_path):
    (tmp_path / "d.keras").mkdir()
    with pytest.raises(ValueError, match=r"d\.keras.*is a directory"):
        load_model(tmp_path / "d.keras")


def test_load_missing_file(tmp_path):
    with pytest.raises(ValueError, match="File not found"):
        load_model(tmp_path / "none.keras")


def test_load_not_a_zip(tmp_path):
    path = tmp_path / "text.keras"
    path.write_text("this is not an archive")
    with pytest.raises(ValueError, match=r"text\.keras.*not a zip file"):
        load_model(path)


def test_load_truncated_zip(saved, tmp_path):
    path = tmp_path / "cut.keras"
    path.write_bytes(saved.read_bytes()[: len(saved.read_bytes()) // 2])
    with pytest.raises(ValueError, match=r"cut\.keras.*not a zip file"):
        load_model(path)


def test_load_truncated_weights_member(saved, tmp_path):
    weights = members(saved)["model.weights.h5"]
    path = tamper(saved, tmp_path, model__weights__h5=weights[: len(weights) // 2])
    with pytest.raises(ValueError, match=r"bad\.keras.*not a valid HDF5"):
        load_model(path)


def test_load_missing_config(saved, tmp_path):
    path = tamper(saved, tmp_path, config__json=None)
    with pytest.raises(ValueError, match=r"bad\.keras.*no 'config\.json'"):
        load_model(path)


def test_load_missing_weights(saved, tmp_path):
    path = tamper(saved, tmp_path, model__weights__h5=None)
    with pytest.raises(ValueError, match=r"bad\.keras.*no 'model\.weights\.h5'"):
        load_model(path)


def test_load_invalid_json(saved, tmp_path):
    path = tamper(saved, tmp_path, config__json=b'{"class_name": ')
    with pytest.raises(ValueError,
                       match=r"bad\.keras.*'config\.json' is not valid JSON"):
        load_model(path)


def test_load_json_that_is_not_an_object(saved, tmp_path):
    path = tamper(saved, tmp_path, config__json=b"[1, 2]")
    with pytest.raises(ValueError, match="must hold a JSON object"):
        load_model(path)


def test_load_unknown_class_name(saved, tmp_path):
    config = json.loads(members(saved)["config.json"])
    config["config"]["layers"][1]["class_name"] = "DenseFromTheFuture"
    path = tamper(saved, tmp_path, config__json=json.dumps(config))
    # a TypeError, as Keras 3 raises for a class it cannot locate
    with pytest.raises(TypeError, match=r"bad\.keras.*Could not locate class "
                                        "'DenseFromTheFuture'"):
        load_model(path)


def test_load_weights_of_wrong_shape(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/0"]
        h5["layers/dense/vars/0"] = np.zeros((5, 3), "float32")

    with pytest.raises(ValueError, match=r"bad\.keras.*'dense'.*shape \(4, 3\).*"
                                         r"\(5, 3\)"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_weights_of_wrong_count(saved, tmp_path):
    def edit(h5):
        h5["layers/dense/vars/2"] = np.zeros(3, "float32")

    with pytest.raises(ValueError, match="Layer 'dense' expected 2 variables, but "
                                         "received 3"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_missing_layer_weights(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense_1"]

    with pytest.raises(ValueError, match="Layer 'dense_1' expected 2 variables, but "
                                         "received 0"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_ignores_traversal_member_names_and_writes_nothing(saved, tmp_path):
    contents = members(saved)
    contents["../escaped.txt"] = b"owned"
    contents["/tmp/absolute_escape.txt"] = b"owned"
    path = write_zip(tmp_path / "sub.keras", contents)
    before = set(os.listdir(tmp_path.parent))
    load_model(path)
    assert set(os.listdir(tmp_path.parent)) == before
    assert not os.path.exists("/tmp/absolute_escape.txt")


def test_load_config_only_under_traversal_name(saved, tmp_path):
    contents = members(saved)
    contents["../config.json"] = contents.pop("config.json")
    with pytest.raises(ValueError, match="no 'config.json'"):
        load_model(write_zip(tmp_path / "bad.keras", contents))


def test_load_absurd_dataset_shape_without_allocating(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/0"]
        h5.create_dataset("layers/dense/vars/0", shape=(1 << 20, 1 << 20),
                          dtype="float32", chunks=(1, 1024), compression="gzip")

    with pytest.raises(ValueError, match="refusing a potential decompression/shape "
                                         "bomb"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_absurd_units_without_allocating(saved, tmp_path):
    config = json.loads(members(saved)["config.json"])
    config["config"]["layers"][1]["config"]["units"] = 10 ** 12
    path = tamper(saved, tmp_path, config__json=json.dumps(config))
    with pytest.raises(ValueError, match="exceeds what the file being loaded can hold"):
        load_model(path)


def test_load_absurd_input_shape(saved, tmp_path):
    config = json.loads(members(saved)["config.json"])
    config["config"]["layers"][0]["config"]["batch_shape"] = [None, 10 ** 9, 10 ** 9]
    path = tamper(saved, tmp_path, config__json=json.dumps(config))
    with pytest.raises(ValueError, match="absurd shape"):
        load_model(path)


def test_load_zip_bomb_member(saved, tmp_path):
    contents = members(saved)
    path = tmp_path / "bomb.keras"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("metadata.json", contents["metadata.json"])
        archive.writestr("config.json", b" " * (3 << 20) + contents["config.json"])
        archive.writestr("model.weights.h5", contents["model.weights.h5"])
    with pytest.raises(ValueError, match="decompression bomb"):
        load_model(path)


def test_load_h5_soft_link_refused(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/1"]
        h5["layers/dense/vars/1"] = h5py.SoftLink("/layers/dense_1/vars/1")

    with pytest.raises(ValueError, match="SoftLink; links are not allowed"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_h5_external_link_refused(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/1"]
        h5["layers/dense/vars/1"] = h5py.ExternalLink("/etc/passwd", "/x")

    with pytest.raises(ValueError, match="ExternalLink; links are not allowed"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_h5_string_dataset_refused(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/1"]
        h5["layers/dense/vars/1"] = np.array([b"abc"] * 3)

    with pytest.raises(ValueError, match="unsupported dtype"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_lambda_refused_in_safe_mode(tmp_path):
    model = keras.Sequential([layers.Input((2,)), layers.Lambda(lambda x: x * 2.0)])
    model.save(tmp_path / "lam.keras")
    with pytest.raises(ValueError, match=r"lam\.keras.*Requested the deserialization "
                                         "of a `Lambda` layer"):
        load_model(tmp_path / "lam.keras")


def test_load_lambda_accepted_with_safe_mode_off(tmp_path):
    model = keras.Sequential([layers.Input((2,)), layers.Lambda(lambda x: x * 2.0)])
    model.save(tmp_path / "lam.keras")
    restored = load_model(tmp_path / "lam.keras", safe_mode=False)
    assert np.array_equal(restored(np.ones((1, 2), "float32")), np.full((1, 2), 2.0))


def test_load_error_chains_the_cause(saved, tmp_path):
    path = tamper(saved, tmp_path, config__json=b"{")
    with pytest.raises(ValueError) as info:
        load_model(path)
    assert info.value.__cause__ is not None


# --------------------------------------------------------- ModelCheckpoint
def test_model_checkpoint_save_best_only_keeps_best_epoch(tmp_path):
    from kerasmini.callbacks import ModelCheckpoint

    model = make_compiled(dropout=False)
    path = tmp_path / "best.keras"
    checkpoint = ModelCheckpoint(path, monitor="loss", save_best_only=True)
    history = model.fit(*data(), epochs=3, batch_size=4, verbose=0,
                        callbacks=[checkpoint])
    best_epoch = int(np.argmin(history.history["loss"]))
    assert checkpoint.best == history.history["loss"][best_epoch]
    restored = load_model(path)
    assert int(restored.optimizer.iterations.numpy()) == 4 * (best_epoch + 1)


def test_model_checkpoint_save_weights_only_writes_weights_file(tmp_path):
    from kerasmini.callbacks import ModelCheckpoint

    model = make_compiled(dropout=False)
    path = tmp_path / "ckpt.weights.h5"
    model.fit(*data(), epochs=1, batch_size=4, verbose=0,
              callbacks=[ModelCheckpoint(path, save_weights_only=True)])
    other = make_compiled(dropout=False)
    other.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in
               zip(model.get_weights(), other.get_weights()))


# ------------------------------------------- bounded before inflating
def test_load_refuses_a_zip64_directory_of_too_many_members(saved, tmp_path):
    # more than 65,535 members: the counts are in the Zip64 end record
    path = tmp_path / "many.keras"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members(saved).items():
            archive.writestr(name, data)
        for i in range(70_000):
            archive.writestr(f"assets/{i}", b"")
    with pytest.raises(ValueError, match=r"the archive holds 70003 members \(at most "
                                         r"10000 are read\)"):
        load_model(path)


def test_load_refuses_a_directory_of_huge_names(saved, tmp_path):
    contents = members(saved)
    for i in range(80):
        contents[f"assets/{i:02d}" + "x" * 60_000] = b""
    with pytest.raises(ValueError, match=r"the archive's directory takes \d+ bytes "
                                         r"\(at most 4194304 are read\)"):
        load_model(write_zip(tmp_path / "names.keras", contents))


def test_load_refuses_weights_larger_than_the_model_can_use(saved, tmp_path):
    # a valid model beside 2 MB of padding in its weights member: more than
    # its weights, three slots each and HDF5's allowance
    contents = members(saved)
    contents["model.weights.h5"] += bytes(2 << 20)
    with pytest.raises(ValueError, match=r"'model.weights.h5' declares \d+ bytes "
                                         r"\(limit \d+\)"):
        load_model(write_zip(tmp_path / "padded.keras", contents))


def test_load_reads_a_stored_weights_member_in_place(saved, monkeypatch):
    # no copy of the member in memory: HDF5 reads the archive on disk
    inflated = []
    monkeypatch.setattr(saving_lib.limits, "inflate_member",
                        lambda *args: inflated.append(args))
    load_model(saved)
    assert inflated == []


def test_load_a_deflated_archive_inflates_within_the_allowance(saved, tmp_path):
    path = tmp_path / "deflated.keras"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members(saved).items():
            archive.writestr(name, data)
    restored = load_model(path)
    for mine, theirs in zip(restored.get_weights(), load_model(saved).get_weights()):
        np.testing.assert_array_equal(mine, theirs)


def test_load_h5_chunks_larger_than_the_dataset_refused(saved, tmp_path):
    def edit(h5):
        del h5["layers/dense/vars/1"]
        h5["layers/dense/vars"].create_dataset("1", shape=(3,), maxshape=(None,),
                                               chunks=(1 << 20,), dtype="float32")

    with pytest.raises(ValueError, match=r"has chunks \(1048576,\) larger than its "
                                         r"shape \(3,\)"):
        load_model(tamper_h5(saved, tmp_path, edit))


def test_load_npz_weights_member_reads_only_the_arrays_asked_for(saved, tmp_path,
                                                                 monkeypatch):
    model = load_model(saved)
    buffer = io.BytesIO()
    with saving_lib.NpzStore(buffer, "w") as store:
        saving_lib.save_state(model, store)
        store.arrays["unused/vars/0"] = np.zeros(1000)  # never asked for
    contents = members(saved)
    contents.pop("model.weights.h5")
    contents["model.weights.npz"] = buffer.getvalue()
    path = write_zip(tmp_path / "npz.keras", contents)
    read = []
    original = np.lib.npyio.NpzFile.__getitem__

    def spy(self, key):
        read.append(key)
        return original(self, key)

    monkeypatch.setattr(np.lib.npyio.NpzFile, "__getitem__", spy)
    restored = load_model(path)
    assert sorted(read) == sorted(k[:-4] for k in zipfile.ZipFile(
        io.BytesIO(contents["model.weights.npz"])).namelist() if "unused" not in k)
    assert len(restored.get_weights()) == len(model.get_weights())
