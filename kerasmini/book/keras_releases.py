"""The two pinned Keras releases, fetched from PyPI and read from the zip.

The book shows Keras's own lines beside kerasmini's, but the repository holds
none of them: ``make book`` (and ``make test``) run
``python -m kerasmini.book.keras_releases``, which downloads the two wheels the
book reads, ``keras==2.6.0`` and ``keras==3.15.1``, with
``pip download --no-deps`` into a cache outside the repository, and checks
each against the sha256 pinned below. For every file the book links, each
wheel holds the same bytes as the tag of ``keras-team/keras`` (``v2.6.0``,
``v3.15.1``), so line numbers match GitHub. Nothing is installed: lines are
read straight from the zip.

The cache is ``$KERASMINI_KERAS_CACHE`` if set, else
``$XDG_CACHE_HOME/kerasmini-book`` (``~/.cache/kerasmini-book``). With both
wheels there, nothing touches the network.

>>> RELEASES["v3.15.1"].filename
'keras-3.15.1-py3-none-any.whl'
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kerasmini.book.source_refs import KERAS2_TAG, KERAS3_TAG

CACHE_ENV = "KERASMINI_KERAS_CACHE"


@dataclass(frozen=True)
class Release:
    """One pinned wheel of Keras on PyPI.

    >>> RELEASES["v2.6.0"].requirement
    'keras==2.6.0'
    """

    tag: str
    version: str
    filename: str
    sha256: str

    @property
    def requirement(self) -> str:
        return f"keras=={self.version}"


RELEASES: dict[str, Release] = {
    KERAS2_TAG: Release(
        KERAS2_TAG, "2.6.0", "keras-2.6.0-py2.py3-none-any.whl",
        "504af5656a9829fe803ce48a8580ef16916e89906aceddad9e098614269437e7",
    ),
    KERAS3_TAG: Release(
        KERAS3_TAG, "3.15.1", "keras-3.15.1-py3-none-any.whl",
        "836460e480930acbd19bb7a17e62f9ecad40e8a9af9a651fc8d0586a96d27e20",
    ),
}


class KerasReleaseError(RuntimeError):
    """A pinned release is missing from the cache, or is not the pinned file.

    >>> issubclass(KerasReleaseError, RuntimeError)
    True
    """


def cache_dir() -> Path:
    """Where the wheels are kept: ``$KERASMINI_KERAS_CACHE``, else the XDG cache.

    >>> import os
    >>> os.environ[CACHE_ENV] = "/tmp/kerasmini-doctest"
    >>> cache_dir().as_posix()
    '/tmp/kerasmini-doctest'
    >>> del os.environ[CACHE_ENV]
    """
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "kerasmini-book"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _mismatch(release: Release, path: Path, actual: str) -> KerasReleaseError:
    return KerasReleaseError(
        f"{path} is not the pinned {release.requirement}: its sha256 is "
        f"{actual}, kerasmini/book/keras_releases.py pins {release.sha256}. "
        "The book's line numbers are only right for the pinned file. Delete it "
        "and run `make keras-releases` again; if PyPI really serves other "
        "bytes now, that is worth a look before changing the pin."
    )


def wheel_path(tag: str) -> Path:
    """The cached wheel of ``tag``, checked against its sha256.

    Raises:
        KerasReleaseError: when the wheel is not cached (with how to fetch it)
            or its sha256 is not the pinned one.

    >>> wheel_path("v2.6.0").name
    'keras-2.6.0-py2.py3-none-any.whl'
    """
    release = RELEASES[tag]
    path = cache_dir() / release.filename
    if not path.is_file():
        raise KerasReleaseError(
            f"{release.requirement} is not in the cache ({path}). The book "
            "renders Keras's own lines from the two pinned releases; fetch them "
            "once with `make keras-releases` (network needed, about 3.7 MB; "
            f"set {CACHE_ENV} to keep them elsewhere)."
        )
    return _checked(release, path)


@lru_cache(maxsize=None)
def _checked_once(path: str, size: int, mtime: float) -> str:
    return _sha256(Path(path))


def _checked(release: Release, path: Path) -> Path:
    stat = path.stat()
    actual = _checked_once(str(path), stat.st_size, stat.st_mtime)
    if actual != release.sha256:
        raise _mismatch(release, path, actual)
    return path


@lru_cache(maxsize=None)
def _zip(path: str) -> zipfile.ZipFile:
    return zipfile.ZipFile(path)


def available() -> bool:
    """Whether both wheels are cached and intact (no network, no exception).

    >>> available()
    True
    """
    try:
        for tag in RELEASES:
            wheel_path(tag)
    except KerasReleaseError:
        return False
    return True


def file_lines(tag: str, path: str) -> tuple[str, ...]:
    """The lines of ``path`` (as in the repository) in the release of ``tag``.

    Raises:
        KerasReleaseError: if the release is not cached, or has no such file.

    >>> file_lines("v3.15.1", "keras/src/ops/node.py")[7]
    'class Node:'
    """
    return _file_lines(str(wheel_path(tag)), path)


@lru_cache(maxsize=None)
def _file_lines(wheel: str, path: str) -> tuple[str, ...]:
    try:
        data = _zip(wheel).read(path)
    except KeyError:
        raise KerasReleaseError(
            f"{path} is not in {Path(wheel).name}: the wheel holds only "
            "the package, not the repository's tests or scripts."
        ) from None
    return tuple(data.decode("utf-8").splitlines())


def python_files(tag: str) -> list[str]:
    """Every ``.py`` file of the release of ``tag`` (paths as in the repository).

    >>> "keras/src/layers/layer.py" in python_files("v3.15.1")
    True
    """
    return sorted(n for n in _zip(str(wheel_path(tag))).namelist()
                  if n.endswith(".py"))


def _download(release: Release, target: Path) -> Path:
    """``pip download --no-deps`` one wheel into ``target``; its path."""
    with tempfile.TemporaryDirectory(dir=target) as scratch:
        command = [
            sys.executable, "-m", "pip", "download", release.requirement,
            "--no-deps", "--only-binary=:all:", "--platform", "any",
            "--python-version", "3.11", "--disable-pip-version-check",
            "--quiet", "-d", scratch,
        ]
        result = subprocess.run(command, capture_output=True, text=True,
                                check=False)
        fetched = Path(scratch) / release.filename
        if result.returncode != 0 or not fetched.is_file():
            reason = (result.stderr or result.stdout).strip().splitlines()
            raise KerasReleaseError(
                f"Cannot fetch {release.requirement} from PyPI, and it is not in "
                f"the cache ({target}). The book shows Keras's own lines from "
                "the two pinned releases, so it needs them once; connect to the "
                f"network and run `make keras-releases` again, or copy "
                f"{release.filename} into that folder (or point {CACHE_ENV} at "
                f"a folder that has it). pip said: "
                f"{reason[-1] if reason else 'nothing'}"
            )
        actual = _sha256(fetched)
        if actual != release.sha256:
            raise _mismatch(release, fetched, actual)
        final = target / release.filename
        os.replace(fetched, final)
    return final


def fetch() -> list[Path]:
    """Make sure both pinned wheels are cached; download only the missing ones.

    Returns:
        The paths of the two wheels.

    Raises:
        KerasReleaseError: when a wheel cannot be fetched, or its sha256 is not
            the pinned one.

    >>> [path.name for path in fetch()]  # cached: no network
    ['keras-2.6.0-py2.py3-none-any.whl', 'keras-3.15.1-py3-none-any.whl']
    """
    target = cache_dir()
    paths = []
    for release in RELEASES.values():
        path = target / release.filename
        if path.is_file():
            paths.append(_checked(release, path))
            continue
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise KerasReleaseError(
                f"Cannot create the cache folder {target} ({error.strerror}); "
                f"set {CACHE_ENV} to a folder you can write."
            ) from None
        paths.append(_download(release, target))
    return paths


def main(argv=None) -> int:
    """``python -m kerasmini.book.keras_releases``: fetch, or say why not.

    Prints the two paths and returns 0, or prints one paragraph starting with
    ``error:`` on stderr and returns 1.

    >>> main()  # doctest: +ELLIPSIS
    keras release: .../keras-2.6.0-py2.py3-none-any.whl
    keras release: .../keras-3.15.1-py3-none-any.whl
    0
    """
    try:
        paths = fetch()
    except KerasReleaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in paths:
        print(f"keras release: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
