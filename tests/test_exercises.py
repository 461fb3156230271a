"""The exercises are in nbgrader's format (tools/exercise_cells.py), and the
conversion from the previous layout is deterministic and idempotent.

That every solution passes its check, every stub is "not written yet" and
wrong answers fail is tests/test_exercise_checks.py; grading with nbgrader is
the round trip in tests/test_classroom_nbgrader.py.
"""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import exercise_cells  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def test_every_chapter_is_in_the_exercise_layout():
    found = []
    for path in CHAPTERS:
        found += exercise_cells.problems(exercise_cells.load(path), path.name)
    assert not found, "\n".join(found + ["run tools/exercise_cells.py --write"])


def test_check_mode_of_the_script_passes_on_the_chapters():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "exercise_cells.py"), "--check",
         *map(str, CHAPTERS)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_numbered_chapter_has_three_graded_exercises_with_points():
    for path in CHAPTERS:
        if path.name.startswith("00"):
            continue
        cells = exercise_cells.load(path)["cells"]
        graded = [c for c in cells if (exercise_cells.nbgrader(c) or {}).get("grade")]
        assert len(graded) >= 3, f"{path.name}: {len(graded)} graded exercises"
        assert all(c["metadata"]["nbgrader"]["points"] >= 1 for c in graded)


def test_the_rebuild_exercises_are_worth_two_points():
    points = {}
    for path in CHAPTERS:
        for cell in exercise_cells.load(path)["cells"]:
            meta = exercise_cells.nbgrader(cell) or {}
            if meta.get("grade"):
                points[meta["grade_id"]] = meta["points"]
    assert points["ch03-add-weight"] == 2 and points["ch03-count-params"] == 1
    assert sorted(label for label, p in points.items() if p == 2) == [
        "ch02-find-variables", "ch03-add-weight", "ch04-maybe-build",
        "ch05-call-pipeline", "ch06-node", "ch07-map-depths", "ch08-chain-model"]


def test_grade_ids_are_unique_across_the_book():
    seen = {}
    for path in CHAPTERS:
        for cell in exercise_cells.load(path)["cells"]:
            grade_id = (exercise_cells.nbgrader(cell) or {}).get("grade_id")
            if grade_id:
                assert grade_id not in seen, f"{grade_id}: {seen.get(grade_id)}, {path.name}"
                seen[grade_id] = path.name


def test_no_chapter_defines_a_check():
    # the checks live in kerasmini/book/exercises: a name in the notebook can
    # be rebound by the reader, a module loaded afresh cannot
    for path in CHAPTERS:
        for cell in exercise_cells.load(path)["cells"]:
            text = exercise_cells.source(cell)
            assert "def check_" not in text, path.name


# --------------------------------------------------------------------------
# The conversion, on a small notebook in the previous layout (ch03's first
# exercise: its check is in kerasmini/book/exercises/ch03.py).

def code(text, tag_list=(), outputs=()):
    return {"cell_type": "code", "execution_count": 3, "id": f"c{abs(hash(text))}",
            "metadata": {"tags": list(tag_list)}, "outputs": list(outputs),
            "source": text}


def markdown(text):
    return {"cell_type": "markdown", "id": f"m{abs(hash(text))}", "metadata": {},
            "source": text}


CHECK = """def check_count_params(dense_params):
    assert dense_params(3, 4) == 16
    print("ok")"""

SOLUTION = """def dense_params(n_in, units, use_bias=True):
    ### BEGIN SOLUTION
    return n_in * units + (units if use_bias else 0)
    ### END SOLUTION"""

OK = [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}]


def old_notebook(grade="check_count_params(dense_params)"):
    return {"cells": [
        markdown("# 3. A chapter"),
        code("import numpy as np"),
        markdown("````{exercise} Count\n:label: ch03-count-params\n\nWrite it.\n````"),
        code(CHECK, ["check"]),
        markdown("```{solution-start} ch03-count-params\n:class: dropdown\n```"),
        code(SOLUTION, ["solution"]),
        markdown("```{solution-end}\n```"),
        code(grade, ["grade"], OK),
        markdown("Next."),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


COLAB = exercise_cells.colab_source()


def test_conversion_drops_the_check_cell_and_imports_the_check():
    nb = old_notebook()
    assert exercise_cells.problems(nb, colab=COLAB)
    assert exercise_cells.convert(nb, colab=COLAB) is True
    assert exercise_cells.problems(nb, colab=COLAB) == []
    cells = nb["cells"]
    assert exercise_cells.source(cells[1]) == COLAB  # first code cell
    task, start, solution, end, grade, after = cells[3:9]
    assert "check" not in exercise_cells.tags(start)
    assert solution["metadata"]["nbgrader"] == {
        "grade": False, "grade_id": "ch03-count-params-solution", "locked": False,
        "schema_version": 3, "solution": True}
    assert grade["source"] == (
        "from kerasmini.book.exercises.ch03 import check_count_params\n\n"
        "check_count_params(dense_params)")
    assert grade["metadata"]["tags"] == ["grade"]
    assert grade["metadata"]["nbgrader"] == {
        "grade": True, "grade_id": "ch03-count-params", "locked": True, "points": 1,
        "schema_version": 3, "solution": False}
    assert grade["outputs"] == OK  # kept until the next run
    assert exercise_cells.source(after) == "Next."


def test_conversion_is_idempotent():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    once = copy.deepcopy(nb)
    assert exercise_cells.convert(nb, colab=COLAB) is False
    assert nb == once
    text = exercise_cells.dump(nb)
    assert exercise_cells.dump(json.loads(text)) == text


def test_points_are_kept_or_set():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB, points={"ch03-count-params": 3})
    grade = nb["cells"][7]
    assert grade["metadata"]["nbgrader"]["points"] == 3
    assert exercise_cells.convert(nb, colab=COLAB) is False  # kept
    grade["metadata"]["nbgrader"]["points"] = 0
    assert any("positive number" in p for p in exercise_cells.problems(nb, colab=COLAB))


def test_the_script_run_twice_changes_nothing_the_second_time(tmp_path):
    script = str(ROOT / "tools" / "exercise_cells.py")
    old = tmp_path / "99_old.ipynb"
    old.write_text(json.dumps(old_notebook()), encoding="utf-8")
    for path in CHAPTERS:  # already converted: left byte for byte as they are
        (tmp_path / path.name).write_bytes(path.read_bytes())
    paths = sorted(str(p) for p in tmp_path.glob("*.ipynb"))
    first = subprocess.run([sys.executable, script, "--write", *paths],
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [f"converted {old} (re-run it: make notebooks)"]
    for path in CHAPTERS:
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
    once = {p: Path(p).read_bytes() for p in paths}
    second = subprocess.run([sys.executable, script, "--write", *paths],
                            capture_output=True, text=True)
    assert second.returncode == 0 and second.stdout == "", second.stdout + second.stderr
    assert {p: Path(p).read_bytes() for p in paths} == once


def test_conversion_repairs_metadata_of_the_new_layout():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    nb["cells"][7]["metadata"]["nbgrader"]["locked"] = False
    del nb["cells"][5]["metadata"]["nbgrader"]
    assert len(exercise_cells.problems(nb, colab=COLAB)) == 2
    assert exercise_cells.convert(nb, colab=COLAB) is True
    assert exercise_cells.problems(nb, colab=COLAB) == []


def test_conversion_refuses_a_check_the_package_does_not_have():
    nb = old_notebook(grade="check_nothing(dense_params)")
    with pytest.raises(exercise_cells.ConversionError, match="has no check_nothing"):
        exercise_cells.convert(nb, colab=COLAB)


def test_the_check_finds_a_check_call_in_the_solution_cell():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    nb["cells"][5]["source"] += "\n\ncheck_count_params(dense_params)"
    assert any("only the grade cell" in p for p in exercise_cells.problems(nb, colab=COLAB))


def test_the_stub_names_the_exercise_and_compiles():
    stub = exercise_cells.student_source(SOLUTION, "ch03-count-params")
    assert "return n_in" not in stub
    namespace = {}
    exec(stub, namespace)
    with pytest.raises(NotImplementedError,
                       match="^ch03-count-params: write your code here$"):
        namespace["dense_params"](2, 2)


# --------------------------------------------------------------------------
# The Colab cell.

def test_colab_cell_installs_from_the_books_repository_only_on_colab(monkeypatch):
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    assert "url: https://github.com/kerasmini/kerasmini-book" in config
    package = "kerasmini[book] @ git+https://github.com/kerasmini/kerasmini-book@main"
    assert f'"{package}"' in COLAB
    # The `book` extra is what the chapters need (tests/test_package.py).
    assert Requirement(package).extras == {"book"}

    def refuse(*args, **kwargs):
        raise AssertionError(f"the Colab cell ran {args} outside Colab")

    monkeypatch.setattr(subprocess, "run", refuse)
    assert "google.colab" not in sys.modules
    exec(COLAB, {})  # nothing happens here

    calls = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a[0]))
    monkeypatch.setitem(sys.modules, "google.colab", object())
    monkeypatch.setattr("shutil.which", lambda name: None)
    exec(COLAB, {})
    assert calls[0][1:5] == ["-m", "pip", "install", "-q"]
    assert calls[0][-1] == package
    assert "install -y graphviz" in calls[1]


def test_colab_cell_is_hidden_from_the_website():
    for path in CHAPTERS:
        cells = exercise_cells.load(path)["cells"]
        first = next(c for c in cells if c["cell_type"] == "code")
        assert "remove-cell" in first["metadata"]["tags"], path.name
        assert first["outputs"] == [], f"{path.name}: the Colab cell printed something"


# --------------------------------------------------------------------------
# The Binder button: binder/ is all repo2docker reads once it exists.

def requirement_names(path, sections=None):
    """Package names of a requirements file (only the ``# Section`` comments
    whose text starts with one of ``sections``, if given)."""
    names, keep = [], sections is None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            keep = sections is None or line[1:].strip().startswith(sections)
        elif line and keep:
            names.append(Requirement(line).name.lower())
    return names


def test_binder_installs_what_the_chapters_import_and_graphviz():
    binder = ROOT / "binder"
    assert "graphviz" in (binder / "apt.txt").read_text(encoding="utf-8").split()
    needed = requirement_names(ROOT / "requirements.txt",
                               ("Library", "Book figures", "Data"))
    assert {"numpy", "h5py", "matplotlib", "graphviz", "scikit-learn"} <= set(needed)
    missing = set(needed) - set(requirement_names(binder / "requirements.txt"))
    assert not missing, f"binder/requirements.txt lacks {sorted(missing)}"
    post_build = binder / "postBuild"
    assert "pip install --no-deps -e ." in post_build.read_text(encoding="utf-8")
    mode = subprocess.run(["git", "ls-files", "-s", "binder/postBuild"], cwd=ROOT,
                          capture_output=True, text=True).stdout.split()
    if mode:  # a git checkout: repo2docker runs postBuild only if executable
        assert mode[0] == "100755", "binder/postBuild must be executable"


def test_exercise_titles_have_no_inline_code():
    # sphinx-exercise 1.x does not register an exercise whose title holds a
    # literal (`like_this`): its solution then fails with "undefined label"
    # and `jupyter-book build -W` stops. Plain words build.
    bad = []
    for path in CHAPTERS:
        for cell in exercise_cells.load(path)["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and source.startswith("````{exercise}"):
                title = source.splitlines()[0]
                if "`" in title.removeprefix("````"):
                    bad.append(f"{path.name}: {title}")
    assert not bad, bad
