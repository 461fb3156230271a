"""The classroom round trip with the real nbgrader (tools/classroom.py).

A teacher's course folder gets every chapter as an nbgrader assignment
(``make student``); three made-up students hand in chapter 3; ``make grade``
(nbgrader autograde, then export) must give full marks for the solutions, zero
for the untouched stubs, and must restore the locked cells a student edited.
``nbgrader validate`` must fail the untouched stubs and pass the solutions.

nbgrader is a teacher's tool (requirements-classroom.txt): ``make test``
installs it; without it this module skips.
"""

import ast
import copy
import csv
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "nbgrader", reason="nbgrader is not installed (pip install -r requirements-classroom.txt)")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import exercise_cells  # noqa: E402

import kerasmini as keras  # noqa: E402
from kerasmini import ops  # noqa: E402

CHAPTER = "03_layer"  # quick to run; its three exercises cover a function and
# two layers whose stubs sit inside a method
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
TAMPERED_CHECK = "ch03-count-params-check"  # eve edits this locked check cell...
TAMPERED_GRADE = "ch03-scale-layer"  # ...and this locked grade cell
EVE_SOLVES = "ch03-sample-counter-solution"  # the one exercise she really writes


def environment():
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    # the kernels must import this checkout's kerasmini
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def run(*commands):
    """Run commands (argument lists for this Python) side by side; their stdout."""
    started = [subprocess.Popen([sys.executable, *args], cwd=ROOT, env=environment(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True) for args in commands]
    outputs = []
    for process in started:
        out, err = process.communicate()
        assert process.returncode == 0, out + err
        outputs.append(out)
    return outputs


def cells_by_id(nb):
    return {cell["metadata"]["nbgrader"]["grade_id"]: cell for cell in nb["cells"]
            if "nbgrader" in cell["metadata"]}


def text(cell):
    return exercise_cells.source(cell)


def hand_in(course, student, nb):
    folder = course / "submitted" / student / CHAPTER
    folder.mkdir(parents=True)
    (folder / f"{CHAPTER}.ipynb").write_text(json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    run(["tools/classroom.py", "student", "--course", str(course)])
    source = exercise_cells.load(course / "source" / CHAPTER / f"{CHAPTER}.ipynb")
    release = exercise_cells.load(course / "release" / CHAPTER / f"{CHAPTER}.ipynb")

    ada = copy.deepcopy(release)  # writes every solution
    for grade_id, cell in cells_by_id(ada).items():
        if cell["metadata"]["nbgrader"]["solution"]:
            cell["source"] = text(cells_by_id(source)[grade_id])
    hand_in(course, "ada", ada)

    hand_in(course, "bob", release)  # hands the stubs back untouched

    eve = copy.deepcopy(release)  # makes two checks pass by editing them
    cells = cells_by_id(eve)
    cells[TAMPERED_CHECK]["source"] = "def check_count_params(f):\n    print('ok')"
    cells[TAMPERED_GRADE]["source"] = "print('ok')"
    cells[EVE_SOLVES]["source"] = text(cells_by_id(source)[EVE_SOLVES])
    hand_in(course, "eve", eve)

    (out,) = run(["tools/classroom.py", "grade", "--course", str(course)])
    return course, source, release, out


def test_every_chapter_with_exercises_is_an_assignment(course):
    course, _, _, _ = course
    with_exercises = [p.stem for p in CHAPTERS
                      if exercise_cells.exercise_starts(exercise_cells.load(p)["cells"])]
    assert CHAPTER in with_exercises
    released = sorted(p.name for p in (course / "release").iterdir())
    assert released == with_exercises


def test_student_versions_have_named_stubs_and_locked_checks(course):
    course, _, _, _ = course
    for name in sorted(p.name for p in (course / "release").iterdir()):
        nb = exercise_cells.load(course / "release" / name / f"{name}.ipynb")
        labels = [label for _, label in exercise_cells.exercise_starts(nb["cells"])]
        cells = cells_by_id(nb)
        for label in labels:
            solution = text(cells[f"{label}-solution"])
            assert "BEGIN SOLUTION" not in solution, f"{name}: {label}"
            stub = f'raise NotImplementedError("{label}: write your code here")'
            assert stub in solution, f"{name}: {label}: {solution}"
            compile(solution, label, "exec")
            for grade_id in (f"{label}-check", label):
                meta = cells[grade_id]["metadata"]
                assert meta["nbgrader"]["locked"] is True
                assert meta["editable"] is False and meta["deletable"] is False
        assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


def stubbed_functions(code):
    """``(class name or None, function name, positional arity)`` of every
    function or method of ``code`` whose body raises NotImplementedError."""
    found = []
    for node in ast.parse(code).body:
        owner, functions = None, [node]
        if isinstance(node, ast.ClassDef):
            owner, functions = node.name, node.body
        for function in functions:
            if isinstance(function, ast.FunctionDef) and any(
                    isinstance(n, ast.Raise) for n in ast.walk(function)):
                arity = len(function.args.args) - len(function.args.defaults)
                found.append((owner, function.name, arity))
    return found


def test_every_stub_raises_naming_its_exercise(course):
    course, _, release, _ = course
    for label in [label for _, label in exercise_cells.exercise_starts(release["cells"])]:
        code = text(cells_by_id(release)[f"{label}-solution"])
        namespace = {"np": np, "keras": keras, "ops": ops}  # the chapter's imports
        exec(compile(code, label, "exec"), namespace)
        stubs = stubbed_functions(code)
        assert len(stubs) == 1, f"{label}: {stubs}"
        owner, name, arity = stubs[0]
        function = vars(namespace[owner])[name] if owner else namespace[name]
        function = inspect.unwrap(function)  # kerasmini wraps a layer's build
        with pytest.raises(NotImplementedError, match=f"^{label}: write your code here$"):
            function(*[None] * arity)


def grades(course):
    with open(course / "grades.csv", encoding="utf-8") as f:
        return {(row["student_id"], row["assignment"]): row for row in csv.DictReader(f)}


def test_solutions_get_full_marks_and_stubs_zero(course):
    course, source, _, out = course
    exercises = len(exercise_cells.exercise_starts(source["cells"]))  # 1 point each
    assert exercises >= 3
    rows = grades(course)
    ada, bob = rows[("ada", CHAPTER)], rows[("bob", CHAPTER)]
    assert float(ada["max_score"]) == exercises
    assert float(ada["score"]) == exercises
    assert float(bob["score"]) == 0.0
    assert f"ada                  {CHAPTER:28} {exercises} / {exercises}" in out


def test_edited_locked_cells_are_restored_before_grading(course):
    course, source, _, _ = course
    assert float(grades(course)[("eve", CHAPTER)]["score"]) == 1.0
    graded = exercise_cells.load(course / "autograded" / "eve" / CHAPTER / f"{CHAPTER}.ipynb")
    original, restored = cells_by_id(source), cells_by_id(graded)
    for grade_id in (TAMPERED_CHECK, TAMPERED_GRADE):
        assert text(restored[grade_id]) == text(original[grade_id])
    failed = [o for o in restored[TAMPERED_GRADE]["outputs"] if o["output_type"] == "error"]
    assert failed and failed[0]["ename"] == "AssertionError"


def test_validate_fails_the_stubs_and_passes_the_solutions(course):
    course, _, release, _ = course
    labels = [label for _, label in exercise_cells.exercise_starts(release["cells"])]
    stubs, solutions = run(*[
        ["-m", "nbgrader", "validate",
         str(course / "submitted" / student / CHAPTER / f"{CHAPTER}.ipynb")]
        for student in ("bob", "ada")])
    assert f"VALIDATION FAILED ON {len(labels)} CELL(S)" in stubs
    for label in labels:
        assert text(cells_by_id(release)[label]) in stubs
    assert "Success! Your notebook passes all the tests." in solutions
