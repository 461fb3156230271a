"""Keras's lines on the page, and none in the repository.

* the pinned releases: the cache, the sha256 pins, the one-paragraph errors;
* every pinned range read from the wheels starts at its ``def``/``class``;
* ``book.keras_lines``: numbered as on GitHub, harmless without the cache;
* no tracked file holds a run of four or more of Keras's lines (both wheels);
* the built site shows the lines of at least 95% of the ranges each chapter
  links (the figures are printed; ``make book`` first, else it skips).

The tests that read the wheels skip without them; ``make test`` fetches them
first (``make keras-releases``).
"""

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kerasmini.book import keras_releases
from kerasmini.book.keras_excerpts import KERAS_EXCERPTS
from kerasmini.book.keras_lines import (
    find_pinned_urls,
    keras_lines,
    pinned_ref,
    range_lines,
)
from kerasmini.book.keras_sources import KERAS_SOURCES, _check_ref

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
needs_releases = pytest.mark.skipif(
    not keras_releases.available(),
    reason="the pinned Keras releases are not cached: run `make keras-releases`",
)


def all_refs():
    for key, entry in KERAS_SOURCES.items():
        for ref in (entry.keras2, entry.keras3):
            if ref is not None:
                yield key, ref


# --------------------------------------------------------------------------
# The releases and their cache


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(keras_releases.CACHE_ENV, str(tmp_path / "wheels"))
    assert keras_releases.cache_dir() == tmp_path / "wheels"
    monkeypatch.delenv(keras_releases.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert keras_releases.cache_dir() == tmp_path / "xdg" / "kerasmini-book"


def test_missing_wheel_says_how_to_fetch_it(monkeypatch, tmp_path):
    monkeypatch.setenv(keras_releases.CACHE_ENV, str(tmp_path))
    with pytest.raises(keras_releases.KerasReleaseError,
                       match="make keras-releases"):
        keras_releases.file_lines("v2.6.0", "keras/engine/base_layer.py")
    assert not keras_releases.available()


def test_wrong_bytes_are_refused(monkeypatch, tmp_path):
    monkeypatch.setenv(keras_releases.CACHE_ENV, str(tmp_path))
    release = keras_releases.RELEASES["v3.15.1"]
    (tmp_path / release.filename).write_bytes(b"not the pinned wheel")
    with pytest.raises(keras_releases.KerasReleaseError, match="sha256") as info:
        keras_releases.wheel_path("v3.15.1")
    assert release.sha256 in str(info.value)


def _fetch_offline(tmp_path, *args):
    """``python -m kerasmini.book.keras_releases`` with no package source."""
    empty = tmp_path / "no-links"
    empty.mkdir(exist_ok=True)
    env = dict(os.environ, PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1",
               PIP_FIND_LINKS=str(empty))
    env[keras_releases.CACHE_ENV] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "kerasmini.book.keras_releases", *args],
        capture_output=True, text=True, env=env, timeout=300, check=False)


def test_fetch_without_network_or_cache_is_one_clear_paragraph(tmp_path):
    result = _fetch_offline(tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: Cannot fetch keras==2.6.0 from PyPI")
    assert "make keras-releases" in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr  # one paragraph


@needs_releases
def test_fetch_with_a_warm_cache_needs_no_network(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    for tag in keras_releases.RELEASES:
        wheel = keras_releases.wheel_path(tag)
        (cache / wheel.name).symlink_to(wheel)
    result = _fetch_offline(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("keras release:") == 2


# --------------------------------------------------------------------------
# The pinned ranges, read from the wheels


@needs_releases
def test_every_pinned_range_starts_at_its_definition_in_the_wheels():
    problems = []
    for key, ref in all_refs():
        text = "\n".join(keras_releases.file_lines(ref.tag, ref.path)) + "\n"
        problem = _check_ref(text, ref, ref.symbol or key)
        if problem:
            problems.append(f"{key}: {ref.label}: {problem}")
    for key, excerpt in KERAS_EXCERPTS.items():
        if excerpt.contains not in "\n".join(range_lines(excerpt.ref)):
            problems.append(f"{key}: {excerpt.contains!r} not in {excerpt.ref.label}")
    assert not problems, "\n".join(problems)


def test_pinned_ref_knows_both_tables_and_nothing_else():
    ref = KERAS_SOURCES["Layer.add_weight"].keras2
    assert pinned_ref(ref.url) == ref
    excerpt = KERAS_EXCERPTS["keras2-call-checks-input-spec"]
    assert pinned_ref(excerpt.url) == excerpt.ref  # written #L1020
    moved = ref.url.replace(f"-L{ref.end}", f"-L{ref.end + 1}")
    assert pinned_ref(moved) is None
    assert find_pinned_urls(f'<a href="{moved}">') == []


@needs_releases
def test_keras_lines_are_numbered_as_on_github():
    text = repr(keras_lines("Layer.add_weight", version=2))
    head, first, *rest = text.splitlines()
    assert head.startswith("Keras 2.6 keras/engine/base_layer.py#L527-L685")
    assert re.match(r"527\s+@doc_controls.for_subclass_implementers$", first)
    assert rest[-2].startswith("685 ")
    assert rest[-1].startswith("© The Keras authors, Apache License 2.0")
    assert 'data-keras-ref="v2.6.0 keras/engine/base_layer.py 527 685"' in \
        keras_lines("Layer.add_weight", version=2)._repr_html_()


def test_keras_lines_without_the_cache_explains_and_does_not_raise(
        monkeypatch, tmp_path):
    monkeypatch.setenv(keras_releases.CACHE_ENV, str(tmp_path))
    view = keras_lines("Dense.call")
    assert "make keras-releases" in repr(view)
    assert "def call" not in view._repr_html_()


def test_keras_lines_refuses_unknown_keys_and_versions():
    with pytest.raises(ValueError, match="Close keys"):
        keras_lines("Layer.add_weigth")
    with pytest.raises(ValueError, match="Received: version=4"):
        keras_lines("Dense.call", version=4)
    with pytest.raises(ValueError, match="no Keras 3 counterpart"):
        keras_lines("track_variable", version=3)


# --------------------------------------------------------------------------
# No Keras code in the repository

_TRIVIAL = re.compile(
    r"""[\s()\[\]{}:,;.\\'"]*                         # brackets, quotes, blanks
      | \#.{0,3}                                      # empty comments
      | (?:r|f|b)?(?:\"\"\"|''')                      # docstring fences
      | (?:return|pass|break|continue|else:|try:|finally:|raise|yield|\.\.\.)
      | return\ (?:None|True|False|self|x|outputs|inputs|config|result)
      | @(?:property|staticmethod|classmethod|abstractmethod|\w+\.setter)
      | (?:Args|Returns|Raises|Example|Examples|Arguments|Note):?
      | >>>|\.\.\.:?
    """, re.VERBOSE)
# Lines the public API dictates, which kerasmini shares with Keras on purpose:
# signatures, constructor arguments stored or passed on, config entries (the
# .keras files cross-load), and error messages (copied so users see Keras's).
_API = re.compile(
    r"""(?:async\ )?def\ \w+\(.*|class\ \w+(?:\(.*\))?:
      | self\.\w+\ =\ (?:\w+|None|True|False|-?[\d.]+|\[\]|\{\}|\(\))
      | self\.\w+\ =\ [\w.]+\((?:self\.)?\w+\)
      | (?:\*\*)?\w+=\w+,?
      | ["']\w+["']:\ (?:self\.\w+|[\w.]+\(self\.\w+\)),?
      | (?:f|r|rf|fr)?(?:"[^"]*"|'[^']*')\ ?[,)]?
      | raise\ \w+\(|\w+\ =\ super\(\)\.get_config\(\)|return\ \{\*\*.*\}
      | super\(\)\.\w+\((?:\*\*kwargs|input_shape|self\.\w+)?\)
      | return\ (?:input_shape|config|base_config|logs|self\.\w+)
      | import\ .*|from\ \S+\ import\ .*|\w+,|\w+=(?:"[^"]*"|'[^']*'|\[.*\]|[\w.]+),?
    """, re.VERBOSE)
RUN = 4


def _normal(line):
    """Whitespace collapsed; ``None`` for a line too plain to count."""
    text = " ".join(line.split())
    if _TRIVIAL.fullmatch(text) or _API.fullmatch(text):
        return None
    return text


def _runs(lines):
    """``(index of first line, key)`` for every RUN consecutive non-trivial lines."""
    kept = [(i, n) for i, n in ((i, _normal(line)) for i, line in enumerate(lines))
            if n is not None]
    for k in range(len(kept) - RUN + 1):
        yield kept[k][0], tuple(n for _, n in kept[k:k + RUN])


def _keras_runs():
    runs = {}
    for tag in keras_releases.RELEASES:
        for path in keras_releases.python_files(tag):
            lines = keras_releases.file_lines(tag, path)
            for index, run in _runs(lines):
                runs.setdefault(hash(run), f"{path}:{index + 1} ({tag})")
    return runs


_LINENOS = re.compile(r'<span class="linenos">[^<]*</span>')
_TAG = re.compile(r"<[^>]+>")


def _notebook_texts(path):
    """Every text a notebook holds: cell sources and outputs (HTML as text)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for index, cell in enumerate(nb["cells"]):
        source = cell["source"]
        yield f"cell {index}", "".join(source) if isinstance(source, list) else source
        for output in cell.get("outputs", []):
            texts = [output.get("text", "")] + [
                value for mime, value in output.get("data", {}).items()
                if mime.startswith("text/")]
            for value in texts:
                value = "".join(value) if isinstance(value, list) else value
                if "<" in value:
                    value = html.unescape(_TAG.sub("", _LINENOS.sub("", value)))
                yield f"cell {index} output", value


def _tracked_texts():
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\0")
    for name in filter(None, names):
        path = ROOT / name
        if not path.is_file():
            continue
        if name.endswith(".ipynb"):
            for where, text in _notebook_texts(path):
                yield f"{name} {where}", text
            continue
        try:
            yield name, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files


@needs_releases
def test_no_tracked_file_holds_a_run_of_keras_lines():
    keras = _keras_runs()
    assert len(keras) > 100_000  # both wheels were read
    found = []
    for name, text in _tracked_texts():
        lines = text.splitlines()
        for index, run in _runs(lines):
            if hash(run) in keras:
                found.append(f"{name}:{index + 1} = {keras[hash(run)]}: "
                             + " / ".join(run))
    assert not found, (
        f"{len(found)} runs of {RUN}+ lines of Keras's source in tracked files; "
        "the book shows Keras's lines at build time (_ext/keras_lines.py), the "
        "repository must not hold them:\n" + "\n".join(found[:20]))


def test_the_scan_finds_a_pasted_run():
    lines = ["if trainable_variables is None:", "  if not self.built:", "",
             "    trainable_variables = self._trainable_variables", ")",
             "    return self._apply(grads, trainable_variables)"]
    runs = dict(_runs(lines))
    assert list(runs) == [0]  # blank line and lone bracket skipped
    assert runs[0][1:3] == ("if not self.built:",
                            "trainable_variables = self._trainable_variables")
    # what the public API dictates does not count: names, config, messages
    api = ["def get_config(self):", "self.units = units", '"units": self.units,',
           "f\"Received: units={units}\"", "units=units,", "Dense,"]
    assert list(_runs(api)) == []


def test_cells_that_call_keras_lines_store_no_output():
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code" or "keras_lines(" not in "".join(
                    cell["source"]):
                continue
            tags = cell.get("metadata", {}).get("tags", [])
            where = f"{path.name}: cell {index}"
            assert "nbval-ignore-output" in tags, (
                f"{where} calls keras_lines: tag it nbval-ignore-output")
            assert not cell.get("outputs"), (
                f"{where} stores Keras's lines: clear its output (the site "
                "shows the lines of every link; the repository holds none)")


# --------------------------------------------------------------------------
# The built site: which linked ranges each chapter shows

_SHOWN = re.compile(r'data-keras-ref="(v[\d.]+) (\S+) (\d+) (\d+)"')
_HREF = re.compile(r'href="(https://github\.com/keras-team/keras/blob/[^"]+)"')
_BLOCK = re.compile(r'<div class="kerasmini-keras" data-keras-ref="[^"]+">'
                    r".*?</code></pre></div>", re.DOTALL)


def chapter_coverage(page):
    """``(linked, shown, not_shown)`` pinned ranges of one built chapter page.

    A range counts as shown when the page has a listing for it with every one
    of its lines, numbered from its first.
    """
    text = page.read_text(encoding="utf-8")
    linked = set()
    for url in _HREF.findall(text):
        ref = pinned_ref(html.unescape(url))
        if ref is not None:
            linked.add(ref)
    shown = set()
    for block in _BLOCK.findall(text):
        tag, path, start, end = _SHOWN.search(block).groups()
        numbers = [int(n) for n in re.findall(r'<span class="linenos">\s*(\d+)', block)]
        if numbers == list(range(int(start), int(end) + 1)):
            shown.add((tag, path, int(start), int(end)))
    covered = {ref for ref in linked
               if (ref.tag, ref.path, ref.start, ref.end) in shown}
    return linked, covered, linked - covered


@pytest.mark.skipif(not (HTML / "chapters").is_dir(),
                    reason="the book is not built (make book)")
def test_each_chapter_shows_the_lines_of_the_ranges_it_links(capsys):
    report, failing = [], []
    for page in sorted((HTML / "chapters").glob("[01][0-9]_*.html")):
        number = int(page.name[:2])
        if number < 1:  # 00 is the setup check, not a chapter
            continue
        linked, covered, missing = chapter_coverage(page)
        share = len(covered) / len(linked) if linked else 1.0
        report.append(f"{page.stem}: {len(covered)}/{len(linked)} ranges shown "
                      f"({share:.0%})" + "".join(f"\n  not shown: {r.label}"
                                                 for r in sorted(missing, key=str)))
        if share < 0.95:
            failing.append(page.stem)
    with capsys.disabled():
        print("\n" + "\n".join(report))
    assert report, "no chapter pages in _build/html/chapters"
    assert not failing, f"chapters under 95%: {failing}\n" + "\n".join(report)
