"""``utils.get_file``: downloads from a server on 127.0.0.1, the cache, the
hash checks, the names Keras gives, and safe extraction."""

import io
import os
import tarfile
import zipfile

import pytest
from data_files import Mirror, md5, serve, sha256, tar_gz

import kerasmini as keras
from kerasmini.utils import file_utils
from kerasmini.utils.file_utils import get_file

ORIGIN = "https://example.invalid/files/data.bin"
DATA = b"kerasmini" * 100


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    served = tmp_path / "served"
    served.mkdir()
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    with serve(served) as server:
        mirror = Mirror(served, server)
        monkeypatch.setenv("KERASMINI_DOWNLOAD_MIRROR", mirror.url)
        yield mirror


def home(tmp_path, *parts):
    return str(tmp_path.joinpath("home", *parts))


def test_get_file_downloads_into_keras_home_datasets(mirror, tmp_path, capsys):
    mirror.put(ORIGIN, DATA)
    path = keras.utils.get_file(origin=ORIGIN)
    assert path == home(tmp_path, "datasets", "data.bin")
    assert open(path, "rb").read() == DATA
    assert mirror.requests == ["/files/data.bin"]
    assert f"Downloading data from {mirror.url}/files/data.bin" in capsys.readouterr().out


def test_get_file_uses_the_cache_the_second_time(mirror):
    mirror.put(ORIGIN, DATA)
    first = get_file("data.bin", ORIGIN, file_hash=sha256(DATA))
    second = get_file("data.bin", ORIGIN, file_hash=sha256(DATA))
    assert first == second and len(mirror.requests) == 1


def test_get_file_force_download_fetches_again(mirror):
    mirror.put(ORIGIN, DATA)
    get_file("data.bin", ORIGIN)
    get_file("data.bin", ORIGIN, force_download=True)
    assert len(mirror.requests) == 2


@pytest.mark.parametrize("digest, algorithm", [
    (sha256(DATA), "auto"), (md5(DATA), "auto"), (sha256(DATA), "sha256"),
    (md5(DATA), "md5")])
def test_get_file_accepts_a_matching_hash(mirror, digest, algorithm):
    mirror.put(ORIGIN, DATA)
    path = get_file(origin=ORIGIN, file_hash=digest, hash_algorithm=algorithm)
    assert os.path.exists(path)


def test_get_file_md5_hash_is_the_legacy_spelling(mirror):
    mirror.put(ORIGIN, DATA)
    assert os.path.exists(get_file(origin=ORIGIN, md5_hash=md5(DATA)))
    with pytest.raises(ValueError, match="The md5 file hash does not match"):
        get_file(origin=ORIGIN, md5_hash=md5(b"other"), force_download=True)


def test_get_file_refuses_and_removes_a_download_with_the_wrong_hash(mirror):
    mirror.put(ORIGIN, DATA)
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected. "
                       "The auto file hash does not match the provided value of 0+"):
        get_file("data.bin", ORIGIN, file_hash="0" * 64)
    folder = os.path.join(os.environ["KERAS_HOME"], "datasets")
    assert os.listdir(folder) == []  # nothing half-trusted is left


def test_get_file_fetches_again_a_cached_file_whose_hash_differs(mirror, capsys):
    mirror.put(ORIGIN, b"old version")
    get_file("data.bin", ORIGIN)
    mirror.put(ORIGIN, DATA)
    path = get_file("data.bin", ORIGIN, file_hash=sha256(DATA))
    assert open(path, "rb").read() == DATA and len(mirror.requests) == 2
    assert "A local file was found, but it seems to be incomplete or outdated" in \
        capsys.readouterr().out


def test_get_file_reports_http_errors_with_keras_words(mirror):
    with pytest.raises(ValueError, match=r"URL fetch failure on .*/files/data.bin: "
                       r"404 -- File not found"):
        get_file(origin=ORIGIN)
    assert os.listdir(os.path.join(os.environ["KERAS_HOME"], "datasets")) == []


def test_get_file_cache_dir_and_absolute_cache_subdir(mirror, tmp_path):
    mirror.put(ORIGIN, DATA)
    assert get_file(origin=ORIGIN, cache_dir=str(tmp_path / "c"), cache_subdir="x") \
        == str(tmp_path / "c" / "x" / "data.bin")
    target = tmp_path / "absolute"
    assert get_file(origin=ORIGIN, cache_subdir=str(target)) == str(target / "data.bin")


def test_get_file_falls_back_to_tmp_when_the_cache_cannot_be_written(
        mirror, tmp_path, monkeypatch):
    mirror.put(ORIGIN, DATA)
    blocked = tmp_path / "file_not_folder"
    blocked.write_text("")
    monkeypatch.setattr(file_utils.tempfile, "gettempdir", lambda: str(tmp_path))
    path = get_file(origin=ORIGIN, cache_dir=str(blocked / "sub"))
    assert path.endswith(os.path.join(".keras", "datasets", "data.bin"))
    assert not path.startswith(str(blocked))


@pytest.mark.parametrize("fname, expected_target, expected_folder", [
    (None, "data.tar.gz_archive", "data.tar.gz"),  # the name from the URL
    ("pack", "pack_archive", "pack"),              # a name without an extension
    ("pack.tar.gz", "pack.tar.gz", "pack_extracted"),
])
def test_get_file_extract_names_the_archive_and_folder_as_keras(
        mirror, tmp_path, fname, expected_target, expected_folder):
    origin = "https://example.invalid/data.tar.gz"
    mirror.put(origin, tar_gz({"inner/a.txt": b"a"}))
    path = get_file(fname, origin, extract=True)
    assert path == home(tmp_path, "datasets", expected_folder)
    assert os.path.isfile(home(tmp_path, "datasets", expected_target))
    assert open(os.path.join(path, "inner", "a.txt")).read() == "a"


def test_get_file_untar_is_extract_for_tar(mirror, tmp_path):
    origin = "https://example.invalid/d.tgz"
    mirror.put(origin, tar_gz({"x.txt": b"x"}))
    path = get_file("d", origin, untar=True)
    assert os.listdir(path) == ["x.txt"]


def test_get_file_extracts_zip_archives(mirror):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("folder/z.txt", "zipped")
    origin = "https://example.invalid/z.zip"
    mirror.put(origin, buffer.getvalue())
    path = get_file(origin=origin, extract=True, archive_format="zip")
    assert open(os.path.join(path, "folder", "z.txt")).read() == "zipped"


def test_get_file_warns_when_a_file_is_no_archive(mirror):
    mirror.put(ORIGIN, DATA)
    with pytest.warns(UserWarning, match="Could not extract archive"):
        path = get_file(origin=ORIGIN, extract=True)
    assert not os.path.exists(path)


def _tar_with(*infos):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for info, data in infos:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def _member(name, data=b"", kind=tarfile.REGTYPE, linkname=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, linkname
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, (data if kind == tarfile.REGTYPE else None)


@pytest.mark.parametrize("hostile", [
    _member("../escaped.txt", b"x"),
    _member("/tmp/kerasmini_absolute_escape.txt", b"x"),
    _member("link_out", kind=tarfile.SYMTYPE, linkname="../../.."),
    _member("hard_out", kind=tarfile.LNKTYPE, linkname="../outside.txt"),
    _member("device", kind=tarfile.CHRTYPE),
])
def test_get_file_extraction_skips_members_that_leave_the_folder(
        mirror, tmp_path, hostile):
    origin = "https://example.invalid/hostile.tar"
    mirror.put(origin, _tar_with(_member("safe.txt", b"ok"), hostile))
    with pytest.warns(UserWarning, match="Skipping invalid path during archive "
                      f"extraction: '{hostile[0].name}'"):
        path = get_file("hostile", origin, extract=True)
    assert sorted(os.listdir(path)) == ["safe.txt"]
    assert not (tmp_path / "home" / "datasets" / "escaped.txt").exists()
    assert not os.path.exists("/tmp/kerasmini_absolute_escape.txt")


def test_get_file_extraction_keeps_links_that_stay_inside(mirror):
    origin = "https://example.invalid/links.tar"
    mirror.put(origin, _tar_with(_member("dir/real.txt", b"real"),
                                 _member("dir/alias", kind=tarfile.SYMTYPE,
                                         linkname="real.txt")))
    path = get_file("links", origin, extract=True)
    assert open(os.path.join(path, "dir", "alias")).read() == "real"


def test_get_file_zip_extraction_skips_path_traversal(mirror):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("ok.txt", "ok")
        archive.writestr("../../zip_escape.txt", "bad")
    origin = "https://example.invalid/bad.zip"
    mirror.put(origin, buffer.getvalue())
    with pytest.warns(UserWarning, match="zip_escape"):
        path = get_file("bad", origin, extract=True)
    assert os.listdir(path) == ["ok.txt"]


def test_get_file_refuses_a_damaged_archive_clearly(mirror):
    origin = "https://example.invalid/cut.tar.gz"
    mirror.put(origin, tar_gz({"a.txt": b"a" * 10000})[:60])
    with pytest.raises(ValueError, match="extract_archive: could not extract the tar archive"):
        get_file("cut", origin, extract=True)


def test_get_file_interrupted_download_leaves_no_file(mirror, monkeypatch):
    mirror.put(ORIGIN, DATA)

    def dies(url, filename, hook):
        with open(filename, "wb") as f:
            f.write(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(file_utils.urllib.request, "urlretrieve", dies)
    with pytest.raises(KeyboardInterrupt):
        get_file(origin=ORIGIN)
    assert os.listdir(os.path.join(os.environ["KERAS_HOME"], "datasets")) == []


@pytest.mark.parametrize("kwargs, error, match", [
    ({}, ValueError, 'please specify the "origin" argument'),
    ({"origin": 5}, TypeError, "argument `origin` must be a URL string. Received: "
                               "origin=5"),
    ({"origin": ORIGIN, "fname": "a/b.txt"}, ValueError,
     "paths are no longer accepted as the `fname` argument.*Received: fname=a/b.txt"),
    ({"origin": "https://example.invalid/"}, ValueError,
     "can't parse the file name from the origin"),
    ({"origin": ORIGIN, "hash_algorithm": "sha1"}, ValueError,
     "`hash_algorithm` must be one of .*Received: hash_algorithm='sha1'"),
    ({"origin": ORIGIN, "archive_format": "rar"}, ValueError,
     "`archive_format` must be.*Received: archive_format='rar'"),
    ({"origin": ORIGIN, "extract": "yes"}, TypeError,
     "argument `extract` must be a boolean.*Received: extract='yes'"),
    ({"origin": ORIGIN, "file_hash": 123}, TypeError,
     "`file_hash` must be a hex digest string. Received: file_hash=123"),
])
def test_get_file_checks_its_arguments(mirror, kwargs, error, match):
    with pytest.raises(error, match=match):
        get_file(**kwargs)


def test_keras_home_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    assert file_utils.keras_home() == str(tmp_path)
    monkeypatch.delenv("KERAS_HOME")
    assert file_utils.keras_home() == os.path.join(os.path.expanduser("~"), ".keras")


def test_the_mirror_keeps_the_origin_path_and_query(monkeypatch):
    monkeypatch.setenv("KERASMINI_DOWNLOAD_MIRROR", "http://127.0.0.1:9/m/")
    assert file_utils._mirrored("https://host.example/a/b.npz?x=1") == \
        "http://127.0.0.1:9/m/a/b.npz?x=1"
    monkeypatch.delenv("KERASMINI_DOWNLOAD_MIRROR")
    assert file_utils._mirrored("https://host.example/a") == "https://host.example/a"
