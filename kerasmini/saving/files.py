"""Writing a file so that a crash never leaves half of it.

:func:`atomic_write` writes to a temporary file beside the target,
``.<name>.<random>.tmp``, and renames it over the target only once it is
complete and on disk: a reader sees the old file or the new one, never a
mixture. A process killed while writing (``kill -9``, a power cut) leaves
its temporary file behind; the next write to the same target removes such
leftovers (:func:`remove_leftovers`), but only files that match the
pattern for that target exactly and that no process is writing: a writer
holds an exclusive lock on its temporary file (where the system has
``fcntl``), and a file is taken as a leftover only when it is unlocked and
untouched for :data:`LEFTOVER_AGE` seconds. A full disk, a read-only
folder or a missing permission gives an ``OSError`` that names the target
and says the previous file is unchanged.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "notes.txt")
>>> atomic_write(path, lambda f: f.write(b"complete"))
>>> open(path, "rb").read(), os.listdir(folder)
(b'complete', ['notes.txt'])
"""

import errno
import os
import re
import tempfile
import time

try:  # POSIX: a writer locks its temporary file while it writes
    import fcntl
except ImportError:  # Windows: only the age tells a leftover
    fcntl = None

# A temporary file untouched for this long, and unlocked, is a leftover of an
# interrupted write (without fcntl, the age alone decides: a day).
LEFTOVER_AGE = 60.0 if fcntl is not None else 86400.0
_RANDOM = r"[A-Za-z0-9_]{8}"  # what tempfile puts between prefix and suffix


def _temporary_pattern(filepath):
    name = re.escape(os.path.basename(filepath))
    return re.compile(rf"\.{name}\.{_RANDOM}\.tmp")


def _locked_by_someone(path):
    """Whether another open file holds a lock on ``path`` (never, without
    fcntl)."""
    if fcntl is None:
        return False
    try:
        handle = open(path, "rb")
    except OSError:
        return True  # gone or unreadable: not ours to remove
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return False


def remove_leftovers(filepath, now=None):
    """Remove the temporary files that interrupted writes of ``filepath``
    left beside it; return their names.

    Only ``.<name of filepath>.<8 characters>.tmp`` files are candidates,
    and of those only the ones that are unlocked and untouched for
    :data:`LEFTOVER_AGE` seconds: a write in progress is never touched.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> target = os.path.join(folder, "m.keras")
    >>> for name in (".m.keras.abcd1234.tmp", ".m.keras.tmp", "other.tmp"):
    ...     open(os.path.join(folder, name), "w").close()
    >>> remove_leftovers(target, now=time.time() + 3600)
    ['.m.keras.abcd1234.tmp']
    >>> sorted(os.listdir(folder))
    ['.m.keras.tmp', 'other.tmp']
    """
    folder = os.path.dirname(os.path.abspath(filepath))
    pattern = _temporary_pattern(filepath)
    now = time.time() if now is None else now
    removed = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return removed
    for name in names:
        if not pattern.fullmatch(name):
            continue
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not os.path.isfile(path) or os.path.islink(path):
            continue  # only regular files this code could have written
        if now - info.st_mtime < LEFTOVER_AGE or _locked_by_someone(path):
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        removed.append(name)
    return removed


def _lock(handle):
    """Mark a temporary file as in use (no other save removes it); a file
    system without locks (some network mounts) leaves the age to decide."""
    if fcntl is None:
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass


def _named(error, filepath):
    """The ``OSError`` of a failed write, naming the target file."""
    problem = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        problem += " (the disk or the quota is full)"
    return OSError(error.errno, f"Cannot write '{filepath}': {problem}. The "
                                "previous file, if any, is unchanged.")


def atomic_write(filepath, write):
    """Call ``write(file_object)`` on a temporary file beside ``filepath``,
    then rename it over ``filepath``; on any error remove the temporary file
    and leave ``filepath`` as it was. Leftovers of earlier interrupted
    writes of ``filepath`` are removed first.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "f.txt")
    >>> atomic_write(path, lambda f: f.write(b"good"))
    >>> def full(f):
    ...     f.write(b"half")
    ...     raise OSError(errno.ENOSPC, "No space left on device")
    >>> atomic_write(path, full)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    OSError: [Errno 28] Cannot write '...f.txt': No space left on device (the disk ...
    >>> open(path, "rb").read(), os.listdir(folder)
    (b'good', ['f.txt'])
    """
    folder = os.path.dirname(os.path.abspath(filepath))
    remove_leftovers(filepath)
    try:
        handle = tempfile.NamedTemporaryFile(
            dir=folder, prefix="." + os.path.basename(filepath) + ".", suffix=".tmp",
            delete=False)
    except OSError as error:
        raise _named(error, filepath) from error
    try:
        with handle:
            _lock(handle)
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)
        os.replace(handle.name, filepath)
    except BaseException as error:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        if isinstance(error, OSError) and error.errno is not None:
            raise _named(error, filepath) from error
        raise
