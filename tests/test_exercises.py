"""The exercises are in nbgrader's format (tools/exercise_cells.py), and the
conversion from the older layout is deterministic and idempotent.

That every solution passes its check is what nbval proves on the chapters (the
grade cells print their "correct" line); that every stub fails with a message,
and that grading gives full marks and zero, is the nbgrader round trip in
tests/test_classroom_nbgrader.py.
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


def test_every_numbered_chapter_has_three_graded_exercises():
    for path in CHAPTERS:
        if path.name.startswith("00"):
            continue
        cells = exercise_cells.load(path)["cells"]
        graded = [c for c in cells if (exercise_cells.nbgrader(c) or {}).get("grade")]
        assert len(graded) >= 3, f"{path.name}: {len(graded)} graded exercises"
        assert all(c["metadata"]["nbgrader"]["points"] == 1 for c in graded)


def test_grade_ids_are_unique_across_the_book():
    seen = {}
    for path in CHAPTERS:
        for cell in exercise_cells.load(path)["cells"]:
            grade_id = (exercise_cells.nbgrader(cell) or {}).get("grade_id")
            if grade_id:
                assert grade_id not in seen, f"{grade_id}: {seen.get(grade_id)}, {path.name}"
                seen[grade_id] = path.name


# --------------------------------------------------------------------------
# The conversion, on a small notebook in the older layout.

def code(text, tag_list=(), outputs=()):
    return {"cell_type": "code", "execution_count": 3, "id": f"c{abs(hash(text))}",
            "metadata": {"tags": list(tag_list)}, "outputs": list(outputs),
            "source": text}


def markdown(text):
    return {"cell_type": "markdown", "id": f"m{abs(hash(text))}", "metadata": {},
            "source": text}


CHECK = '''def check_double(double):
    try:
        got = double(2)
    except NotImplementedError:
        raise AssertionError("ch99-double: double is not written yet") from None
    assert got == 4, f"double(2) should be 4, got {got}"
    print("ok")'''

SOLUTION = '''def double(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION


check_double(double)
'''

OK = [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}]


def old_notebook(solution=SOLUTION):
    return {"cells": [
        markdown("# 99. A chapter"),
        code("import numpy as np"),
        markdown("````{exercise} Double\n:label: ch99-double\n\nWrite `double`.\n````"),
        code(CHECK, ["check"]),
        markdown("```{solution-start} ch99-double\n:class: dropdown\n```"),
        code(solution, ["solution"], OK),
        markdown("```{solution-end}\n```"),
        markdown("Next."),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


COLAB = exercise_cells.colab_source()


def test_conversion_gives_the_six_cells_with_nbgrader_metadata():
    nb = old_notebook()
    assert exercise_cells.problems(nb, colab=COLAB)
    assert exercise_cells.convert(nb, colab=COLAB) is True
    assert exercise_cells.problems(nb, colab=COLAB) == []
    cells = nb["cells"]
    assert exercise_cells.source(cells[1]) == COLAB  # first code cell
    check, _, solution, _, grade = cells[4:9]
    assert check["metadata"]["nbgrader"] == {
        "grade": False, "grade_id": "ch99-double-check", "locked": True,
        "schema_version": 3, "solution": False}
    assert solution["metadata"]["nbgrader"]["solution"] is True
    assert solution["source"].endswith("### END SOLUTION")
    assert "check_double" not in solution["source"]
    assert grade["source"] == "check_double(double)"
    assert grade["metadata"]["tags"] == ["grade"]
    assert grade["metadata"]["nbgrader"] == {
        "grade": True, "grade_id": "ch99-double", "locked": True, "points": 1,
        "schema_version": 3, "solution": False}
    assert grade["outputs"] == OK and solution["outputs"] == []  # the check printed it
    assert exercise_cells.source(cells[-1]) == "Next."


def test_conversion_is_idempotent():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    once = copy.deepcopy(nb)
    assert exercise_cells.convert(nb, colab=COLAB) is False
    assert nb == once
    text = exercise_cells.dump(nb)
    assert exercise_cells.dump(json.loads(text)) == text


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
    nb["cells"][8]["metadata"]["nbgrader"]["points"] = 5
    del nb["cells"][4]["metadata"]["nbgrader"]
    assert len(exercise_cells.problems(nb, colab=COLAB)) == 2
    assert exercise_cells.convert(nb, colab=COLAB) is True
    assert exercise_cells.problems(nb, colab=COLAB) == []


def test_code_after_the_check_call_gets_a_cell_of_its_own():
    nb = old_notebook(SOLUTION + '\nprint("and once more:", double(21))\n')
    exercise_cells.convert(nb, colab=COLAB)
    assert exercise_cells.problems(nb, colab=COLAB) == []
    more = nb["cells"][9]
    assert more["source"] == 'print("and once more:", double(21))'
    assert "nbgrader" not in more["metadata"]


def test_conversion_refuses_a_solution_without_its_check_call():
    nb = old_notebook(SOLUTION.replace("check_double(double)", ""))
    with pytest.raises(exercise_cells.ConversionError, match="one call of"):
        exercise_cells.convert(nb, colab=COLAB)


def test_the_check_finds_a_check_call_left_in_the_solution_cell():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    nb["cells"][6]["source"] += "\n\ncheck_double(double)"
    assert any("belongs in the grade cell" in p
               for p in exercise_cells.problems(nb, colab=COLAB))


def test_the_stub_names_the_exercise_and_compiles():
    nb = old_notebook()
    exercise_cells.convert(nb, colab=COLAB)
    stub = exercise_cells.student_source(nb["cells"][6]["source"], "ch99-double")
    assert "return 2 * x" not in stub
    namespace = {}
    exec(stub, namespace)
    with pytest.raises(NotImplementedError, match="^ch99-double: write your code here$"):
        namespace["double"](2)


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
