"""``BackupAndRestore`` after a crash at any moment.

The backup is one archive (weights, optimizer state, epoch), written to a
temporary file and renamed. A crash can leave: the previous backup and a
half-written temporary file (killed while writing), the new backup (killed
after the rename), with ``double_checkpoint`` only the copy of the previous
one; or a damaged file (a disk error, a truncated copy). Each state either
resumes exactly where the backup says, bit for bit as a run never
interrupted, or is refused with a ``ValueError`` naming the file (or falls
back to the previous backup, with a warning). The states are made two
ways: by editing the files the callback wrote, and by a real ``kill -9`` of
a child process stopped at a known point of ``fit``.
"""

import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
import zipfile

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import callbacks, layers
from kerasmini.saving import saving_lib

X = np.random.default_rng(0).normal(size=(12, 3)).astype("float32")
Y = X[:, :1] * 2
EPOCHS = 6  # three batches of four per epoch
OLD = time.time() - 3600


def make_model():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(4, activation="tanh"),
                              layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    return model


def fit(model, backup, *extra, epochs=EPOCHS):
    return model.fit(X, Y, epochs=epochs, batch_size=4, shuffle=False, verbose=0,
                     callbacks=[backup, *extra])


class StopAt(callbacks.Callback):
    """An exception at the start of epoch ``epoch`` (the backup of the
    epochs before it is on disk)."""

    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise RuntimeError("crash")


@pytest.fixture(scope="module")
def reference():
    model = make_model()
    history = model.fit(X, Y, epochs=EPOCHS, batch_size=4, shuffle=False, verbose=0)
    return model.get_weights(), history.history["loss"]


def interrupted(folder, at, **kwargs):
    """A model whose fit crashed at the start of epoch ``at``; its backup
    (of ``at`` epochs) stays in ``folder``."""
    model = make_model()
    backup = callbacks.BackupAndRestore(folder, **kwargs)
    with pytest.raises(RuntimeError, match="crash"):
        fit(model, backup, StopAt(at))
    return model, backup


def resume_and_check(folder, reference, first_epoch, **kwargs):
    """A fresh process's view: a new model and callback on the same folder;
    training resumes at ``first_epoch`` and ends as the reference."""
    model = make_model()
    history = fit(model, callbacks.BackupAndRestore(folder, **kwargs))
    assert history.epoch == list(range(first_epoch, EPOCHS))
    weights, losses = reference
    for mine, theirs in zip(model.get_weights(), weights):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_allclose(history.history["loss"], losses[first_epoch:],
                               rtol=1e-6)
    assert int(model.optimizer.iterations.numpy()) == 3 * EPOCHS
    return model


def metadata_of(path):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("training_metadata.json"))


def rewrite(path, **members):
    """The archive at ``path`` with some members replaced (None: removed)."""
    with zipfile.ZipFile(path) as archive:
        contents = {name: archive.read(name) for name in archive.namelist()}
    contents.update(members)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in contents.items():
            if data is not None:
                archive.writestr(name, data)


# --------------------------------------------------------- one atomic file
def test_the_backup_is_one_file_with_weights_and_metadata(tmp_path):
    interrupted(tmp_path, at=3)
    assert os.listdir(tmp_path) == ["latest.backup.zip"]
    assert metadata_of(tmp_path / "latest.backup.zip") == {"epoch": 3, "batch": 0}
    with zipfile.ZipFile(tmp_path / "latest.backup.zip") as archive:
        assert sorted(archive.namelist()) == ["model.weights.h5",
                                              "training_metadata.json"]


def test_killed_after_the_rename_resumes_after_the_new_backup(tmp_path, reference):
    interrupted(tmp_path, at=3)
    resume_and_check(tmp_path, reference, first_epoch=3)
    assert not tmp_path.exists()  # a complete fit deletes its backup


def test_killed_while_writing_resumes_after_the_previous_backup(tmp_path, reference):
    # the state a kill during epoch 3's backup leaves: epoch 2's backup, and
    # the first half of epoch 3's in a temporary file
    interrupted(tmp_path, at=2)
    newer = tmp_path / "newer"
    interrupted(newer, at=3)
    data = (newer / "latest.backup.zip").read_bytes()
    shutil.rmtree(newer)
    leftover = tmp_path / ".latest.backup.zip.k1ll3d00.tmp"
    leftover.write_bytes(data[:len(data) // 2])
    os.utime(leftover, (OLD, OLD))
    model = resume_and_check(tmp_path, reference, first_epoch=2)
    assert not leftover.exists() and model is not None


def test_killed_before_the_first_backup_starts_afresh(tmp_path, reference):
    leftover = tmp_path / ".latest.backup.zip.k1ll3d00.tmp"
    leftover.write_bytes(b"PK\x03\x04 the start of a zip")
    resume_and_check(tmp_path, reference, first_epoch=0)


def test_killed_between_the_copy_and_the_new_backup_resumes(tmp_path, reference):
    # double_checkpoint copies the backup to .bkp, then writes the new one:
    # killed between, both hold the same epoch
    interrupted(tmp_path, at=3, double_checkpoint=True)
    assert sorted(os.listdir(tmp_path)) == ["latest.backup.zip",
                                            "latest.backup.zip.bkp"]
    assert metadata_of(tmp_path / "latest.backup.zip.bkp") == {"epoch": 2,
                                                                "batch": 0}
    shutil.copy(tmp_path / "latest.backup.zip", tmp_path / "latest.backup.zip.bkp")
    resume_and_check(tmp_path, reference, first_epoch=3, double_checkpoint=True)


def test_only_the_previous_backup_left_resumes_from_it(tmp_path, reference):
    interrupted(tmp_path, at=3, double_checkpoint=True)
    os.unlink(tmp_path / "latest.backup.zip")
    resume_and_check(tmp_path, reference, first_epoch=2, double_checkpoint=True)


# ------------------------------------------------------------ damaged files
def truncated(path):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def emptied(path):
    path.write_bytes(b"")


def broken_metadata(path):
    rewrite(path, **{"training_metadata.json": b'{"epoch": 3, "ba'})


def metadata_of_the_wrong_kind(path):
    rewrite(path, **{"training_metadata.json": b'{"epoch": "3", "batch": 0}'})


def negative_epoch(path):
    rewrite(path, **{"training_metadata.json": b'{"epoch": -1, "batch": 0}'})


def no_weights(path):
    rewrite(path, **{"model.weights.h5": None})


def no_metadata(path):
    rewrite(path, **{"training_metadata.json": None})


def weights_of_another_model(path):
    other = keras.Sequential([keras.Input((3,)), layers.Dense(5), layers.Dense(1)])
    buffer = io.BytesIO()
    with saving_lib.H5Store(buffer, "w") as store:
        saving_lib.save_state(other, store)
    rewrite(path, **{"model.weights.h5": buffer.getvalue()})


DAMAGES = {
    truncated: "not a valid zip archive",
    emptied: "not a valid zip archive",
    broken_metadata: "'training_metadata.json' is not valid JSON",
    metadata_of_the_wrong_kind: r"must give `epoch` as an integer >= 0. Received: "
                                "epoch='3'",
    negative_epoch: "Received: epoch=-1",
    no_weights: "the archive has no 'model.weights.h5'",
    no_metadata: "the archive has no 'training_metadata.json'",
    weights_of_another_model: r"weight 'kernel' has shape \(3, 4\), but the saved "
                              r"value has shape \(3, 5\)",
}


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.__name__ for d in DAMAGES])
def test_a_damaged_backup_is_refused_naming_the_file(tmp_path, damage):
    interrupted(tmp_path, at=3)
    damage(tmp_path / "latest.backup.zip")
    model = make_model()
    before = model.get_weights()
    with pytest.raises(ValueError) as info:
        fit(model, callbacks.BackupAndRestore(tmp_path))
    message = str(info.value)
    assert message.startswith("BackupAndRestore cannot resume training: Cannot "
                              f"restore the backup '{tmp_path}/latest.backup.zip'")
    assert f"Remove the folder '{tmp_path}' to start afresh" in message
    assert re.search(DAMAGES[damage], message), message
    for mine, theirs in zip(model.get_weights(), before):  # nothing half-loaded
        np.testing.assert_array_equal(mine, theirs)
    assert os.path.exists(tmp_path / "latest.backup.zip")  # kept for the user


@pytest.mark.parametrize("damage", [truncated, broken_metadata, no_weights],
                         ids=lambda d: d.__name__)
def test_a_damaged_backup_falls_back_to_the_previous_one(tmp_path, damage,
                                                         reference):
    interrupted(tmp_path, at=3, double_checkpoint=True)
    damage(tmp_path / "latest.backup.zip")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resume_and_check(tmp_path, reference, first_epoch=2, double_checkpoint=True)
    messages = [str(w.message) for w in caught]
    assert any("Restored the previous backup" in m and "(epoch 2)" in m
               and "latest.backup.zip'" in m for m in messages), messages


def test_a_backup_dir_under_a_file_is_refused_naming_it(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    with pytest.raises(ValueError, match=r"BackupAndRestore cannot write "
                                         r"'.*a_file/backup/latest.backup.zip': "
                                         r"'.*a_file' is a file, not a folder"):
        fit(make_model(), callbacks.BackupAndRestore(blocker / "backup"))


def test_a_finished_fit_deletes_the_backup_and_its_leftovers(tmp_path):
    folder = tmp_path / "b"
    interrupted(folder, at=3, double_checkpoint=True)
    (folder / ".latest.backup.zip.k1ll3d00.tmp").write_bytes(b"half")
    fit(make_model(), callbacks.BackupAndRestore(folder, double_checkpoint=True))
    assert not folder.exists()


# ------------------------------------------------- a real kill -9 of a child
CHILD = textwrap.dedent('''
    import io, os, sys, time
    import numpy as np
    import kerasmini as keras
    from kerasmini import callbacks, layers
    from kerasmini.saving import backup as backup_module

    X = np.random.default_rng(0).normal(size=(12, 3)).astype("float32")
    Y = X[:, :1] * 2
    mode, folder, out = sys.argv[1:4]
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(4, activation="tanh"),
                              layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    extra = []
    if mode == "kill-while-writing":  # the third backup (epoch 3's): half, wait
        original, count = backup_module.atomic_write, [0]

        def stalled(path, write):
            count[0] += 1
            if count[0] < 3:
                return original(path, write)

            def half(file):
                buffer = io.BytesIO()
                write(buffer)
                file.write(buffer.getvalue()[:len(buffer.getvalue()) // 2])
                file.flush()
                os.fsync(file.fileno())
                print("stopped", flush=True)
                time.sleep(120)
            return original(path, half)
        backup_module.atomic_write = stalled
    if mode == "kill-after-backup":  # epoch 3's backup is on disk: wait
        class Wait(callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                if epoch == 2:
                    print("stopped", flush=True)
                    time.sleep(120)
        extra = [Wait()]
    backup = callbacks.BackupAndRestore(folder, delete_checkpoint=False)
    history = model.fit(X, Y, epochs=6, batch_size=4, shuffle=False, verbose=0,
                        callbacks=[backup] + extra)
    np.savez(out, *model.get_weights(), epochs=np.array(history.epoch),
             iterations=np.asarray(model.optimizer.iterations.numpy()))
''')


def run_child(mode, folder, out, kill=False):
    child = subprocess.Popen([sys.executable, "-c", CHILD, mode, str(folder),
                              str(out)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    if not kill:
        _, stderr = child.communicate(timeout=300)
        assert child.returncode == 0, stderr[-2000:]
        return np.load(out)
    try:
        assert child.stdout.readline().strip() == "stopped", child.stderr.read()
    finally:
        child.kill()
        child.wait(timeout=60)
    assert child.returncode == -9
    return None


@pytest.mark.parametrize("mode, first_epoch", [("kill-while-writing", 2),
                                               ("kill-after-backup", 3)])
def test_kill_9_mid_fit_then_resume_in_a_new_process(tmp_path, mode, first_epoch,
                                                     reference):
    folder = tmp_path / "backup"
    run_child(mode, folder, tmp_path / "unused.npz", kill=True)
    names = sorted(os.listdir(folder))
    assert metadata_of(folder / "latest.backup.zip")["epoch"] == first_epoch
    leftovers = [n for n in names if n.endswith(".tmp")]
    if mode == "kill-while-writing":
        assert len(leftovers) == 1 and leftovers[0].startswith(".latest.backup.zip.")
        os.utime(folder / leftovers[0], (OLD, OLD))  # a minute later
    else:
        assert leftovers == []
    resumed = run_child("resume", folder, tmp_path / "resumed.npz")
    assert resumed["epochs"].tolist() == list(range(first_epoch, EPOCHS))
    assert int(resumed["iterations"]) == 3 * EPOCHS
    for i, theirs in enumerate(reference[0]):
        np.testing.assert_array_equal(resumed[f"arr_{i}"], theirs)
    assert os.listdir(folder) == ["latest.backup.zip"]  # the leftover is gone
