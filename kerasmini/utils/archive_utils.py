"""Unpacking a downloaded archive without letting it write outside its folder.

An archive names the paths of its members, and ``tarfile``/``zipfile`` write
where they are told: ``../../.bashrc``, ``/etc/passwd``, a symbolic link to
``/`` followed by a file "inside" it. :func:`extract_archive` (what
``get_file(extract=True)`` calls, as Keras 3's ``file_utils`` does) resolves
every member's path, and a link's target, and skips with a warning each one
that would land outside the folder; devices and FIFOs are skipped too, and
where Python has it, tar's ``"data"`` filter strips what remains unsafe
(set-user-id bits, absolute link targets).
"""

import os
import shutil
import tarfile
import warnings
import zipfile


def _inside(base, name):
    """The real path of ``base/name`` if it stays inside ``base``, else None."""
    path = os.path.realpath(os.path.join(base, name))
    try:
        if os.path.commonpath([path, base]) == base:
            return path
    except ValueError:  # another drive (Windows)
        pass
    return None


def _safe_tar_members(archive, base):
    for info in archive:
        safe = _inside(base, info.name) is not None
        if info.issym():  # relative to the link's own folder
            link_folder = os.path.dirname(os.path.join(base, info.name))
            safe = safe and _inside(base, os.path.join(link_folder, info.linkname))
        elif info.islnk():  # relative to the archive's root
            safe = safe and _inside(base, info.linkname) is not None
        elif not (info.isfile() or info.isdir()):
            safe = False  # devices, FIFOs
        if safe:
            yield info
        else:
            warnings.warn("Skipping invalid path during archive extraction: "
                          f"'{info.name}'.", stacklevel=3)


def _safe_zip_members(archive, base):
    for info in archive.infolist():
        if _inside(base, info.filename) is not None:
            yield info
        else:
            warnings.warn("Skipping invalid path during archive extraction: "
                          f"'{info.filename}'.", stacklevel=3)


def extract_archive(file_path, path=".", archive_format="auto"):
    """Unpack a tar or zip archive into ``path``; ``False`` if it is neither.

    Members that would land outside ``path`` are skipped with a warning.
    ``archive_format``: ``"auto"`` (tar, then zip), ``"tar"``, ``"zip"``, a
    list of those, or ``None`` (never unpack).

    >>> import io, tarfile, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> archive = os.path.join(folder, "a.tar")
    >>> with tarfile.open(archive, "w") as tar:
    ...     info = tarfile.TarInfo("../escape.txt"); info.size = 1
    ...     tar.addfile(info, io.BytesIO(b"x"))
    ...     info = tarfile.TarInfo("inside.txt"); info.size = 1
    ...     tar.addfile(info, io.BytesIO(b"y"))
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     extract_archive(archive, os.path.join(folder, "out"))
    True
    >>> sorted(os.listdir(os.path.join(folder, "out"))), str(caught[0].message)
    (['inside.txt'], "Skipping invalid path during archive extraction: '../escape.txt'.")
    """
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else archive_format
    formats = [formats] if isinstance(formats, str) else list(formats)
    file_path, path = os.fspath(file_path), os.fspath(path)
    for kind in formats:
        is_kind = tarfile.is_tarfile if kind == "tar" else zipfile.is_zipfile
        try:
            if not is_kind(file_path):
                continue
            os.makedirs(path, exist_ok=True)
            base = os.path.realpath(path)
            if kind == "tar":
                with tarfile.open(file_path) as archive:
                    extra = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                    archive.extractall(path, members=_safe_tar_members(archive, base),
                                       **extra)
            else:
                with zipfile.ZipFile(file_path) as archive:
                    archive.extractall(path, members=_safe_zip_members(archive, base))
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as e:
            shutil.rmtree(path, ignore_errors=True)
            raise ValueError(
                f"extract_archive: could not extract the {kind} archive {file_path!r} "
                f"(damaged or truncated?). Received: {type(e).__name__}: {e}"
            ) from None
        return True
    return False


__all__ = ["extract_archive"]
