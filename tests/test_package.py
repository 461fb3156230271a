"""kerasmini as a user installs it: the sdist, the wheel and what they declare.

The quick checks run in ``make test``: the sdist ships the library, its
licences and citation and not the tests (which need the chapters, tools/ and a
development environment); the wheel's metadata declares the licence, h5py and
the ``book`` extra; that extra is exactly what the chapters and the library's
lazy imports need beyond the core dependencies.

``make package`` (``KERASMINI_PACKAGE_TEST=1``) also installs the wheel into
fresh virtualenvs, through pip's cache: bare on this Python (fit, save, load;
``plot_model`` names the extra to install), and with ``[book]`` on Python 3.10,
the oldest ``requires-python`` allows, and on the newest Python found here
(fit, save, load, ``plot_model``, ``plot_history``, a listing, the digits).
"""

import ast
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
INSTALL = os.environ.get("KERASMINI_PACKAGE_TEST") == "1"
needs_install = pytest.mark.skipif(
    not INSTALL, reason="installs into fresh virtualenvs: make package")

# Import names whose distribution has another name.
DISTRIBUTION = {"sklearn": "scikit-learn", "yaml": "pyyaml", "PIL": "pillow",
                "a11y_pygments": "accessible-pygments"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and the wheel, built once by ``python -m build``.

    ``--no-isolation`` builds with this environment's setuptools (the
    requirements pin it), so no index is needed.
    """
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
         str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    sdist = next(out.glob("kerasmini-*.tar.gz"))
    wheel = next(out.glob("kerasmini-*.whl"))
    return sdist, wheel


def _metadata(wheel):
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(zf.read(name).decode("utf-8"))


def _requirements(wheel):
    """``{extra or "": {distribution names}}`` from the wheel's Requires-Dist."""
    found = {}
    for line in _metadata(wheel).get_all("Requires-Dist") or []:
        req = Requirement(line)
        extra = re.search(r'extra == "(\w+)"', str(req.marker or ""))
        found.setdefault(extra.group(1) if extra else "", set()).add(
            req.name.lower())
    return found


def _library_files():
    """The library's Python files as the repository has them."""
    out = subprocess.run(["git", "ls-files", "kerasmini"], cwd=ROOT,
                         capture_output=True, text=True).stdout.split()
    if not out:  # not a git checkout
        out = [p.relative_to(ROOT).as_posix() for p in ROOT.glob("kerasmini/**/*")]
    return sorted(f for f in out if f.endswith(".py"))


# --------------------------------------------------------------------------
# What the archives hold.

def test_sdist_ships_the_library_licences_and_citation_not_the_tests(dist):
    sdist, _ = dist
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for name in ("LICENSE", "LICENSE-text", "CITATION.cff", "README.md",
                 "pyproject.toml", "kerasmini/__init__.py",
                 "kerasmini/book/parity_results.json"):
        assert name in names, name
    library = set(_library_files())
    assert library and library <= names, sorted(library - names)[:5]
    for prefix in ("tests/", "chapters/", "tools/", "_build/", "benchmarks/",
                   "binder/", ".ci/", "_ext/"):
        assert not [n for n in names if n.startswith(prefix)], prefix
    assert not [n for n in names if n.endswith((".ipynb", ".pyc"))]


def test_wheel_holds_the_package_and_both_licences(dist):
    _, wheel = dist
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    assert "kerasmini/__init__.py" in names
    assert "kerasmini/book/parity_results.json" in names
    licences = {Path(n).name for n in names if ".dist-info/licenses/" in n}
    assert licences == {"LICENSE", "LICENSE-text"}
    assert all(n.startswith("kerasmini") for n in names)  # no tests/, no tools/


def test_wheel_metadata_declares_licence_dependencies_and_urls(dist):
    _, wheel = dist
    meta = _metadata(wheel)
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Author"] == "The kerasmini authors"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert urls["Source"] == "https://github.com/kerasmini/kerasmini-book"
    assert urls["Issues"].endswith("/issues")
    classifiers = meta.get_all("Classifier")
    assert "Programming Language :: Python :: 3.10" in classifiers
    # The newest Python the classifiers name is one make package tests.
    newest = max(int(c.rsplit(".", 1)[1]) for c in classifiers
                 if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert newest >= 13
    requires = _requirements(wheel)
    assert requires[""] == {"numpy", "h5py"}  # model.save needs h5py
    assert "book" in meta.get_all("Provides-Extra")
    # The licence and the citation agree.
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "0\.1\.0"$', citation, re.M)
    assert meta["Version"] == "0.1.0"


def _third_party_imports(sources):
    """Top-level module names imported by ``sources`` that are not stdlib."""
    names = set()
    for text in sources:
        text = "\n".join(line for line in text.splitlines()
                         if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
    return {n for n in names
            if n not in sys.stdlib_module_names and n != "kerasmini"}


def test_book_extra_is_exactly_what_the_chapters_and_lazy_imports_need(dist):
    _, wheel = dist
    requires = _requirements(wheel)
    cells = []
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells += ["".join(c["source"]) for c in nb["cells"]
                  if c["cell_type"] == "code"]
    library = [(ROOT / f).read_text(encoding="utf-8") for f in _library_files()]
    needed = {DISTRIBUTION.get(n, n).lower()
              for n in _third_party_imports(cells + library)}
    assert {"numpy", "h5py", "graphviz", "matplotlib", "scikit-learn",
            "pygments", "accessible-pygments"} <= needed
    # the image helpers' Pillow is an extra of its own (kerasmini[image])
    assert requires["image"] == {"pillow"}
    assert requires[""] | requires["book"] | requires["image"] == needed
    assert not requires[""] & requires["book"]


def test_requirements_files_install_the_package_and_its_book_extra(dist):
    _, wheel = dist
    requires = _requirements(wheel)
    for path in (ROOT / "requirements.txt", ROOT / "binder" / "requirements.txt"):
        listed = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                listed.add(Requirement(line).name.lower())
        missing = (requires[""] | requires["book"]) - listed
        assert not missing, f"{path.relative_to(ROOT)} lacks {sorted(missing)}"


# --------------------------------------------------------------------------
# The wheel installed into fresh virtualenvs.

SMOKE = textwrap.dedent('''
    import json, sys, tempfile
    from pathlib import Path

    import numpy as np
    import kerasmini as keras

    book = sys.argv[1] == "book"
    report = {"python": sys.version.split()[0], "file": keras.__file__}
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    model = keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu", name="hidden"),
        keras.layers.Dense(1, activation="sigmoid", name="out"),
    ])
    model.compile(optimizer="adam", loss="binary_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=3, batch_size=16, verbose=0)
    report["loss"] = history.history["loss"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.keras"
        model.save(path)
        loaded = keras.saving.load_model(path)
        report["same_predictions"] = bool(np.allclose(
            loaded.predict(x, verbose=0), model.predict(x, verbose=0)))
        report["loaded_weights"] = [w.path for w in loaded.weights]
    if book:
        dot = keras.utils.plot_model(model, show_shapes=True)
        report["svg"] = dot.pipe(format="svg").decode("utf-8")[:2000]
        import matplotlib
        matplotlib.use("Agg")
        figure = keras.utils.plot_history(history)
        report["axes"] = len(figure.axes)
        from kerasmini.book import show_source
        report["listing"] = show_source(keras.layers.Dense.call)._repr_html_()
        (x_train, _), _ = keras.datasets.digits.load_data()
        report["digits"] = list(x_train.shape)
    else:
        try:
            keras.utils.plot_model(model)
        except ImportError as error:
            report["plot_error"] = str(error)
    print(json.dumps(report))
''')


def _find_pythons():
    """``{(3, minor): path}`` of the Pythons on this machine (PATH, pyenv)."""
    candidates = []
    for minor in range(10, 20):
        candidates.append(shutil.which(f"python3.{minor}"))
        pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
        candidates += sorted(glob.glob(str(pyenv / "versions" / f"3.{minor}*" /
                                           "bin" / f"python3.{minor}")))
    found = {}
    for path in filter(None, candidates):
        result = subprocess.run(
            [path, "-c", "import sys, venv, ensurepip; print(*sys.version_info[:2])"],
            capture_output=True, text=True)
        if result.returncode == 0:
            version = tuple(int(v) for v in result.stdout.split())
            found.setdefault(version, path)
    return found


def _install_and_run(python, wheel, tmp_path, extra):
    """Create a venv with ``python``, pip-install the wheel, run SMOKE there."""
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    vpy = venv / "bin" / "python"
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    # pip's cache (the default) makes a second run work without the index.
    install = subprocess.run(
        [str(vpy), "-m", "pip", "install", "--disable-pip-version-check", "-q",
         target], capture_output=True, text=True, env=env)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    script = tmp_path / "smoke.py"
    script.write_text(SMOKE, encoding="utf-8")
    # Run outside the repository, so that only the installed package is found.
    run = subprocess.run([str(vpy), str(script), extra or "bare"], cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert str(venv) in report["file"], report["file"]  # not the source tree
    return report


def _check_training_and_saving(report):
    loss = report["loss"]
    assert len(loss) == 3 and loss[-1] < loss[0]
    assert report["same_predictions"]
    # Built from the config outside the model's name scope: Keras 3.15.1 names
    # a loaded Sequential's weights the same way.
    assert report["loaded_weights"] == ["hidden/kernel", "hidden/bias",
                                        "out/kernel", "out/bias"]


@needs_install
def test_bare_wheel_trains_saves_loads_and_names_the_extra_for_drawings(
        dist, tmp_path):
    _, wheel = dist
    base = getattr(sys, "_base_executable", sys.executable)
    report = _install_and_run(base, wheel, tmp_path, extra="")
    _check_training_and_saving(report)
    assert "kerasmini[book]" in report["plot_error"]


@needs_install
@pytest.mark.parametrize("which", ["oldest", "newest"])
def test_wheel_with_book_extra_trains_saves_loads_and_draws(dist, tmp_path, which):
    _, wheel = dist
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (make package installs it)")
    pythons = _find_pythons()
    if which == "oldest":
        if (3, 10) not in pythons:
            pytest.skip("no Python 3.10 on this machine (requires-python >=3.10)")
        version = (3, 10)
    else:
        version = max(pythons)
    report = _install_and_run(pythons[version], wheel, tmp_path, extra="book")
    assert report["python"].startswith("%d.%d." % version)
    _check_training_and_saving(report)
    assert "<svg" in report["svg"] and "hidden" in report["svg"]
    assert report["axes"] == 2  # loss and accuracy
    assert "kerasmini-highlight" in report["listing"]
    assert report["digits"] == [1500, 8, 8]
