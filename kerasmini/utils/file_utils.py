"""``get_file``: download a file once, keep it in a cache, check it, unpack it.

Keras 3 keeps this in ``keras/src/utils/file_utils.py``; every
``keras.datasets`` loader goes through it. The steps, in order:

1. where: ``cache_dir`` (default ``$KERAS_HOME``, else ``~/.keras``; a folder
   that cannot be written falls back to ``/tmp/.keras``) joined with
   ``cache_subdir`` (default ``"datasets"``);
2. the local name: ``fname``, else the last part of the URL's path; with
   ``extract=True`` the download is kept as ``<name>_archive`` (or as ``fname``
   when it has an extension) and unpacked into ``<name>`` (or
   ``<stem>_extracted``): that folder is what is returned;
3. download unless the file is there and matches ``file_hash`` (sha256, or
   md5 for a 32-character hash): a cached file whose hash differs is fetched
   again, a fresh download whose hash differs is removed and refused;
4. unpack (zip or tar, gzip and bzip2 included) with
   :func:`kerasmini.utils.archive_utils.extract_archive`, which skips every
   member that would land outside the folder.

The download goes to a temporary file renamed into place when complete, so a
process killed half-way leaves no truncated file under the final name.

**Mirrors.** ``KERASMINI_DOWNLOAD_MIRROR=http://host:port/prefix`` sends every
download to that server instead of the origin's, keeping the origin's path:
``https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz`` is
fetched from ``http://host:port/prefix/tensorflow/tf-keras-datasets/mnist.npz``.
The cache names and the hash checks stay those of the origin. The tests serve
small archives from 127.0.0.1 this way; a classroom can do the same from a
local copy of the files.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> source = os.path.join(folder, "hello.txt")
>>> with open(source, "w") as f:
...     _ = f.write("hello")
>>> path = get_file(origin="file://" + source, cache_dir=folder,
...                 file_hash="5d41402abc4b2a76b9719d911017c592")  # doctest: +ELLIPSIS
Downloading data from file://...hello.txt
5/5 ━━━━━━━━━━━━━━━━━━━━ 0s ...
>>> os.path.relpath(path, folder)
'datasets/hello.txt'
>>> get_file(origin="file://" + source, cache_dir=folder) == path  # cached
True
"""

import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import warnings

from kerasmini.api_export import keras_export
from kerasmini.utils.archive_utils import extract_archive
from kerasmini.utils.errors import names_its_errors
from kerasmini.utils.progbar import Progbar

MIRROR_VARIABLE = "KERASMINI_DOWNLOAD_MIRROR"
HASH_ALGORITHMS = ("auto", "sha256", "md5")
ARCHIVE_FORMATS = ("auto", "tar", "zip")


def keras_home():
    """``$KERAS_HOME``, else ``~/.keras`` (``/tmp/.keras`` when the home
    folder cannot be written), read at every call.

    >>> os.environ["KERAS_HOME"] = "/data/keras"; keras_home()
    '/data/keras'
    >>> del os.environ["KERAS_HOME"]
    """
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    if not os.access(base, os.W_OK):
        base = "/tmp"
    return os.path.join(base, ".keras")


def _writable_folder(path):
    """``path`` if it is (or can be made) a writable folder."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK)


# 1. where the cache is -----------------------------------------------------


def _cache_folder(cache_dir, cache_subdir):
    base = os.path.expanduser(keras_home() if cache_dir is None else cache_dir)
    if not _writable_folder(base):  # Keras falls back to /tmp/.keras too
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(),
                            ".keras")
    folder = os.path.join(base, cache_subdir)
    os.makedirs(folder, exist_ok=True)
    return folder


# 2. the names --------------------------------------------------------------


def _targets(folder, fname, origin, extract):
    """``(download_target, extraction_dir or None)``, named as Keras names them."""
    given = fname
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(
                "get_file: can't parse the file name from the origin provided: "
                f"'{origin}'. Please specify the `fname` argument. Received: "
                f"origin={origin!r}, fname={given!r}"
            )
    elif os.sep in fname or (os.altsep and os.altsep in fname):
        raise ValueError(
            "get_file: paths are no longer accepted as the `fname` argument. "
            "To specify the file's parent directory, use the `cache_dir` "
            f"argument. Received: fname={fname}"
        )
    if not extract:
        return os.path.join(folder, fname), None
    if given and "." in fname:  # "data.tar.gz" is kept, unpacked to data_extracted
        stem = fname[: fname.find(".")]
        return os.path.join(folder, fname), os.path.join(folder, f"{stem}_extracted")
    return os.path.join(folder, f"{fname}_archive"), os.path.join(folder, fname)


# 3. download and check ------------------------------------------------------


def _resolve_hasher(algorithm, file_hash=None):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()  # Keras's legacy default (32-character hashes)


def hash_file(fpath, algorithm="sha256", chunk_size=65535):
    """The hex digest of a file, read in chunks (``"sha256"`` or ``"md5"``).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"")
    >>> hash_file(f.name)[:16]
    'e3b0c44298fc1c14'
    """
    hasher = _resolve_hasher(algorithm) if isinstance(algorithm, str) else algorithm
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's hash is ``file_hash`` (``"auto"``: sha256 for a
    64-character hash, else md5).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"hello")
    >>> validate_file(f.name, "5d41402abc4b2a76b9719d911017c592")
    True
    """
    hasher = _resolve_hasher(algorithm, file_hash)
    return hash_file(fpath, hasher, chunk_size) == str(file_hash).lower()


def _mirrored(origin):
    """``origin`` sent to ``$KERASMINI_DOWNLOAD_MIRROR`` (if set), path kept."""
    mirror = os.environ.get(MIRROR_VARIABLE)
    if not mirror:
        return origin
    parts = urllib.parse.urlsplit(origin)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return mirror.rstrip("/") + "/" + path.lstrip("/")


class _DownloadProgress:
    """``urlretrieve``'s report hook drawing a Progbar of bytes."""

    def __init__(self):
        self.progbar = None
        self.finished = False

    def __call__(self, block_num, block_size, total_size):
        if self.progbar is None:
            self.progbar = Progbar(total_size if total_size > 0 else None)
        current = block_num * block_size
        if total_size <= 0 or current < total_size:
            self.progbar.update(current)
        elif not self.finished:
            self.progbar.update(total_size)
            self.finished = True


def _download(url, target):
    """Fetch ``url`` into ``target`` through a temporary file beside it."""
    handle, partial = tempfile.mkstemp(dir=os.path.dirname(target),
                                       prefix=f".{os.path.basename(target)}.",
                                       suffix=".part")
    os.close(handle)
    failure = "URL fetch failure on {}: {} -- {}"
    try:
        try:
            urllib.request.urlretrieve(url, partial, _DownloadProgress())
        except urllib.error.HTTPError as e:
            raise ValueError(failure.format(url, e.code, e.msg)) from None
        except urllib.error.URLError as e:
            raise OSError(failure.format(url, e.errno, e.reason)) from None
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


# the function ------------------------------------------------------------------


def _check_arguments(fname, origin, cache_subdir, hash_algorithm, archive_format,
                     flags):
    if origin is None:
        raise ValueError('get_file: please specify the "origin" argument (URL of '
                         "the file to download). Received: origin=None")
    if not isinstance(origin, str):
        raise TypeError("get_file: argument `origin` must be a URL string. "
                        f"Received: origin={origin!r} (of type {type(origin).__name__})")
    if fname is not None and not isinstance(fname, (str, os.PathLike)):
        raise TypeError("get_file: argument `fname` must be a file name (str) or "
                        f"None. Received: fname={fname!r} (of type "
                        f"{type(fname).__name__})")
    if not isinstance(cache_subdir, (str, os.PathLike)):
        raise TypeError("get_file: argument `cache_subdir` must be a folder name "
                        f"(str). Received: cache_subdir={cache_subdir!r}")
    if hash_algorithm not in HASH_ALGORITHMS:
        raise ValueError(f"get_file: argument `hash_algorithm` must be one of "
                         f"{HASH_ALGORITHMS}. Received: hash_algorithm={hash_algorithm!r}")
    kinds = [archive_format] if isinstance(archive_format, str) else archive_format
    if kinds is not None and (not isinstance(kinds, (list, tuple)) or any(
            k not in ARCHIVE_FORMATS or (k == "auto" and len(kinds) > 1) for k in kinds)):
        raise ValueError("get_file: argument `archive_format` must be 'auto', 'tar', "
                         "'zip', a list of 'tar' and 'zip', or None. Received: "
                         f"archive_format={archive_format!r}")
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"get_file: argument `{name}` must be a boolean (True or "
                            f"False). Received: {name}={value!r}")


@keras_export("kerasmini.utils.get_file")
@names_its_errors
def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """Download ``origin`` unless it is already in the cache; return its path.

    Args:
        fname: local file name (no folders); default: the URL's last part.
            With ``extract=True`` a name without an extension names the
            folder the archive is unpacked into.
        origin: the URL.
        untar: legacy form of ``extract=True`` for tar archives.
        md5_hash: legacy form of ``file_hash`` with ``hash_algorithm="md5"``.
        file_hash: the expected sha256 or md5 hex digest.
        cache_subdir: folder under the cache (an absolute path is used as is).
        hash_algorithm: ``"auto"`` (from the hash's length), ``"sha256"``,
            ``"md5"``.
        extract: unpack a zip or tar archive and return its folder.
        archive_format: ``"auto"``, ``"tar"``, ``"zip"``, a list, or None.
        cache_dir: the cache's root (default ``$KERAS_HOME`` or ``~/.keras``).
        force_download: fetch again even if the file is cached.

    Returns:
        The path of the file, or of the folder it was unpacked into.

    >>> get_file("data.npz")
    Traceback (most recent call last):
      ...
    ValueError: get_file: please specify the "origin" argument (URL of the file to ...
    """
    _check_arguments(fname, origin, cache_subdir, hash_algorithm, archive_format,
                     {"untar": untar, "extract": extract,
                      "force_download": force_download})
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    if file_hash is not None and not isinstance(file_hash, str):
        raise TypeError("get_file: argument `file_hash` must be a hex digest string. "
                        f"Received: file_hash={file_hash!r}")
    folder = _cache_folder(cache_dir, os.fspath(cache_subdir))
    fname = os.fspath(fname) if fname is not None else None
    target, extraction_dir = _targets(folder, fname, origin, extract or untar)

    download = force_download or not os.path.exists(target)
    if not download and file_hash is not None and \
            not validate_file(target, file_hash, algorithm=hash_algorithm):
        print("A local file was found, but it seems to be incomplete or outdated "
              f"because the {hash_algorithm} file hash does not match the original "
              f"value of {file_hash} so we will re-download the data.")
        download = True
    if download:
        url = _mirrored(origin)
        print(f"Downloading data from {url}")
        sys.stdout.flush()
        _download(url, target)
        received = None
        if file_hash is not None:
            received = hash_file(target, _resolve_hasher(hash_algorithm, file_hash))
        if received is not None and received != file_hash.lower():
            os.remove(target)  # Keras leaves it; a later call would fetch again
            raise ValueError(
                "Incomplete or corrupted file detected. The "
                f"{hash_algorithm} file hash does not match the provided value of "
                f"{file_hash}. Received: a file of hash {received} from {url}"
            )

    if extraction_dir is None:
        return target
    if not extract_archive(target, extraction_dir, "tar" if untar else archive_format):
        warnings.warn("Could not extract archive.", stacklevel=2)
    return extraction_dir


__all__ = ["get_file", "hash_file", "keras_home", "validate_file"]
