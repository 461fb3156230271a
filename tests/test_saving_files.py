"""Writing files safely: leftovers of interrupted saves, full disks.

A save killed while writing leaves ``.<name>.<random>.tmp`` beside its
target. The next save of the same target removes such leftovers, and only
those: the exact pattern for that target, regular files, unlocked (no
process is writing them) and untouched for a minute. A full disk (faked
with ``ENOSPC``, then for real on a 64 KB tmpfs when this machine allows a
private mount, and with a file-size limit) gives an ``OSError`` naming the
target, and leaves the previous file as it was.
"""

import errno
import fcntl
import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.saving import files, load_model

OLD = time.time() - 3600  # an hour ago: long past files.LEFTOVER_AGE


def small_model():
    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])


def touch(path, mtime=OLD):
    path.write_bytes(b"half an archive")
    os.utime(path, (mtime, mtime))
    return path


def test_only_old_unlocked_leftovers_of_this_target_are_removed(tmp_path):
    target = tmp_path / "m.keras"
    leftovers = [touch(tmp_path / ".m.keras.a1b2c3d4.tmp"),
                 touch(tmp_path / ".m.keras.____x_9Z.tmp")]
    kept = [
        touch(tmp_path / ".m.keras.abcd1234.tmp", mtime=time.time()),  # fresh
        touch(tmp_path / ".m.keras.abc.tmp"),  # not tempfile's 8 characters
        touch(tmp_path / ".m.keras.abcd1234.tmp.bak"),
        touch(tmp_path / "m.keras.abcd1234.tmp"),  # no leading dot
        touch(tmp_path / ".n.keras.abcd1234.tmp"),  # another target's
        touch(tmp_path / ".m.keras.abcd1234.tmpx"),
        touch(tmp_path / ".mXkeras.abcd1234.tmp"),  # the dot is not a wildcard
    ]
    (tmp_path / ".m.keras.dir12345.tmp").mkdir()  # a folder is never removed
    (tmp_path / ".m.keras.link1234.tmp").symlink_to(kept[0])
    os.utime(tmp_path / ".m.keras.link1234.tmp", (OLD, OLD), follow_symlinks=False)
    removed = files.remove_leftovers(target)
    assert removed == sorted(p.name for p in leftovers)
    assert not any(p.exists() for p in leftovers)
    assert all(p.exists() for p in kept)
    assert (tmp_path / ".m.keras.dir12345.tmp").is_dir()
    assert (tmp_path / ".m.keras.link1234.tmp").is_symlink()


def test_a_leftover_being_written_is_not_removed(tmp_path):
    # a writer holds an exclusive lock on its temporary file while it writes
    busy = touch(tmp_path / ".m.keras.busy1234.tmp")
    with open(busy, "rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        assert files.remove_leftovers(tmp_path / "m.keras") == []
        assert busy.exists()
    assert files.remove_leftovers(tmp_path / "m.keras") == [busy.name]


def test_the_next_save_removes_leftovers_of_interrupted_saves(tmp_path):
    leftover = touch(tmp_path / ".m.keras.k1ll3d00.tmp")
    other = touch(tmp_path / ".other.keras.k1ll3d00.tmp")
    small_model().save(tmp_path / "m.keras")
    assert sorted(os.listdir(tmp_path)) == [other.name, "m.keras"]
    assert not leftover.exists()
    load_model(tmp_path / "m.keras")


KILLED_SAVE = textwrap.dedent('''
    import io, os, sys, time
    import kerasmini as keras
    from kerasmini.saving import files
    original = files.atomic_write

    def stalled(path, write):  # half of the archive on disk, then wait
        def half(file):
            buffer = io.BytesIO()
            write(buffer)
            file.write(buffer.getvalue()[:len(buffer.getvalue()) // 2])
            file.flush()
            os.fsync(file.fileno())
            print("writing", flush=True)
            time.sleep(120)
        original(path, half)

    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    import kerasmini.saving.saving_lib as saving_lib
    saving_lib.atomic_write = stalled
    model.save(sys.argv[1])
''')


def run_until(script, marker, *args):
    """Start ``script`` in a child Python, wait for it to print ``marker``,
    then kill it with SIGKILL (nothing runs after: no finally, no atexit)."""
    child = subprocess.Popen([sys.executable, "-c", script, *map(str, args)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        line = child.stdout.readline()
        assert line.strip() == marker, child.stderr.read()[-2000:]
    finally:
        child.kill()
        child.wait(timeout=60)
    assert child.returncode == -9


def test_kill_9_during_a_save_leaves_the_old_file_and_a_leftover(tmp_path):
    target = tmp_path / "m.keras"
    model = small_model()
    model.save(target)
    before = target.read_bytes()
    run_until(KILLED_SAVE, "writing", target)
    leftovers = [n for n in os.listdir(tmp_path) if n != "m.keras"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".m.keras.")
    assert target.read_bytes() == before  # the old file, whole
    # the killed writer's lock died with it: once the leftover is a minute
    # old, the next save removes it
    assert files.remove_leftovers(target) == []  # still fresh
    os.utime(tmp_path / leftovers[0], (OLD, OLD))
    model.save(target)
    assert os.listdir(tmp_path) == ["m.keras"]
    np.testing.assert_array_equal(load_model(target).get_weights()[0],
                                  model.get_weights()[0])


# --------------------------------------------------------------- full disks
def test_a_full_disk_names_the_target_and_keeps_the_previous_file(
        tmp_path, monkeypatch):
    target = tmp_path / "m.keras"
    small_model().save(target)
    before = target.read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(OSError, match=rf"Cannot write '{target}': No space left on "
                                      r"device \(the disk or the quota is full\)\. "
                                      "The previous file, if any, is unchanged") as info:
        small_model().save(target)
    assert info.value.errno == errno.ENOSPC
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.keras"]


def test_a_read_only_folder_names_the_target(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OSError, match=f"Cannot write '{folder}/m.keras'"):
            small_model().save(folder / "m.keras")
    finally:
        folder.chmod(0o700)


FILE_SIZE_LIMIT = textwrap.dedent('''
    import resource, signal, sys
    import numpy as np
    import kerasmini as keras
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
    model = keras.Sequential([keras.Input((100,)), keras.layers.Dense(100)])
    resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
    try:
        model.save(sys.argv[1])
    except OSError as error:
        print(type(error).__name__, error.errno, error)
''')


def test_a_real_write_error_from_the_kernel_names_the_target(tmp_path):
    # the file-size limit makes the kernel refuse the write (EFBIG) the way a
    # full disk does (ENOSPC): the same path through atomic_write
    target = tmp_path / "m.keras"
    result = subprocess.run([sys.executable, "-c", FILE_SIZE_LIMIT, str(target)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(f"OSError {errno.EFBIG} [Errno {errno.EFBIG}] "
                                    f"Cannot write '{target}': File too large.")
    assert os.listdir(tmp_path) == []


TINY_DISK = textwrap.dedent('''
    set -e
    mount -t tmpfs -o size=64k tmpfs "$1"
    "$2" -c "
    import sys
    import kerasmini as keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.save(sys.argv[1] + '/m.keras')
    big = keras.Sequential([keras.Input((100,)), keras.layers.Dense(200)])
    try:
        big.save(sys.argv[1] + '/m.keras')
    except OSError as error:
        print(error.errno, error)
    import os
    print(sorted(os.listdir(sys.argv[1])))
    print(keras.saving.load_model(sys.argv[1] + '/m.keras').layers[0].units)
    " "$1"
''')


def test_a_real_full_disk_on_a_tiny_tmpfs(tmp_path):
    # a private mount namespace: the 64 KB tmpfs vanishes with the process
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("this machine allows no private mount namespace")
    disk = tmp_path / "disk"
    disk.mkdir()
    result = subprocess.run(["unshare", "--mount", "sh", "-c", TINY_DISK, "sh",
                             str(disk), sys.executable],
                            capture_output=True, text=True, timeout=120)
    if "mount:" in result.stderr:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{errno.ENOSPC} [Errno {errno.ENOSPC}] Cannot write "
                        f"'{disk}/m.keras': No space left on device (the disk or "
                        "the quota is full). The previous file, if any, is "
                        "unchanged.")
    assert lines[1:] == ["['m.keras']", "2"]  # no leftover; the old model loads
