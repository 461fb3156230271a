"""The classroom promise: every exercise's solution passes its check, and the
student version (solutions replaced by stubs) fails it with a message."""

import glob
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import classroom  # noqa: E402

CHAPTERS = sorted(
    p for p in glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))
    if classroom.BEGIN in open(p, encoding="utf-8").read()
)


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _solution_cells(nb):
    return [i for i, c in enumerate(nb["cells"]) if "solution" in classroom.tags(c)]


def _graded_cells(nb):
    """The cells whose error decides an exercise: the ``grade`` cells (the
    six-cell nbgrader layout, where the check call has a cell of its own), else
    the ``solution`` cells (the older layout, which ends with the check call)."""
    graded = [i for i, c in enumerate(nb["cells"]) if "grade" in classroom.tags(c)]
    return graded or _solution_cells(nb)


def test_stub_source_replaces_only_the_marked_region():
    code = "def f(x):\n    y = 1\n    ### BEGIN SOLUTION\n    return x + y\n    ### END SOLUTION\n"
    stub = classroom.stub_source(code)
    assert "return x + y" not in stub
    assert "    y = 1\n    # YOUR CODE HERE\n    raise NotImplementedError()" in stub


def test_student_notebook_clears_outputs_and_keeps_the_rest():
    nb = {"cells": [
        {"cell_type": "markdown", "source": "text", "metadata": {}},
        {"cell_type": "code", "source": "x = 1\n", "outputs": [{"a": 1}],
         "execution_count": 3, "metadata": {}},
    ]}
    student = classroom.student_notebook(nb)
    assert student["cells"][0]["source"] == "text"
    assert student["cells"][1]["outputs"] == []
    assert student["cells"][1]["execution_count"] is None
    assert nb["cells"][1]["outputs"] == [{"a": 1}]  # the source is untouched


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_solutions_pass_and_stubs_fail(path):
    nb = _load(path)
    solutions = _solution_cells(nb)
    assert len(solutions) >= 3, "every chapter has at least three exercises"
    workdir = os.path.dirname(path)

    graded = _graded_cells(nb)
    teacher = {i: err for i, _, err in classroom.run_cells(nb, workdir)}
    for i in solutions + graded:
        assert teacher[i] is None, f"cell {i}: the solution fails its check: {teacher[i]!r}"

    student = {i: err for i, _, err in classroom.run_cells(
        classroom.student_notebook(nb), workdir)}
    for i in graded:
        err = student[i]
        assert isinstance(err, (AssertionError, NotImplementedError)), (
            f"cell {i}: with the solution stubbed out the check should fail, "
            f"got {err!r}")
        if isinstance(err, AssertionError):
            assert str(err), f"cell {i}: the check fails without saying what is wrong"
