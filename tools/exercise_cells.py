"""The chapters' exercise cells in nbgrader's format: convert them, or check them.

Every exercise is five consecutive cells (CONTRIBUTING.md, "Add an exercise"):

1. markdown ````{exercise} Title```` with ``:label: chNN-slug`` and the task;
2. markdown ```{solution-start} chNN-slug``` with ``:class: dropdown``;
3. code, tag ``solution``: the reader's code, the part to write between
   ``### BEGIN SOLUTION`` and ``### END SOLUTION``; nbgrader: a solution cell;
4. markdown ```{solution-end}```;
5. code, tag ``grade``: the self-check, two statements::

       from kerasmini.book.exercises.ch03 import check_scale_layer

       check_scale_layer(Scale)

   nbgrader: locked, graded, worth the exercise's points (1 unless set).

The checks themselves live in ``kerasmini/book/exercises/chNN.py``, outside
the notebook (a name the reader rebinds cannot change them); the classroom
adds a hidden graded copy of the call to each grade cell (tools/classroom.py).

``--write`` turns the previous layout (a locked cell defining ``check_...``
between the task and the solution) into this one, once the check is in the
package, sets the nbgrader metadata (keeping each exercise's points, or
setting them with ``--points label=N``) and puts the Colab install cell
first; an exercise already right is left as it is, so running it twice
changes nothing. ``--check`` only reports what is not right (exit status 1).

Usage::

    python tools/exercise_cells.py --check chapters/*.ipynb
    python tools/exercise_cells.py --write chapters/*.ipynb
    python tools/exercise_cells.py --write --points ch03-add-weight=2 chapters/03_layer.ipynb

After ``--write``, re-run each changed notebook (``make notebooks``): the
grade cells are new and their outputs come from a fresh run.
"""

import argparse
import ast
import copy
import importlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
SCHEMA_VERSION = 3
POINTS = 1  # an exercise's points unless its grade cell says otherwise
CHECKS = "kerasmini.book.exercises"  # chNN.py holds chapter NN's checks

EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}\s*(.*)\n:label:\s*(\S+)",
                      re.MULTILINE)
SOLUTION_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}\s+(\S+)", re.MULTILINE)
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}", re.MULTILINE)
# nbgrader: grade ids are letters, digits, "-" and "_"; cell ids the same, <= 64.
GRADE_ID = re.compile(r"^[A-Za-z0-9_-]+$")

# The student version replaces each solution region by this (see
# tools/nbgrader_plugins.py, which nbgrader's generate_assignment uses).
STUB = '# YOUR CODE HERE\nraise NotImplementedError("{exercise}: write your code here")'

COLAB_MARK = '"google.colab" in sys.modules'
COLAB_TAGS = ["remove-cell"]
COLAB_ID = "colab-install"
COLAB_CELL = """\
# On Google Colab: install kerasmini with what the chapters need (its `book`
# extra: drawings, plots, listings, the digits) and Graphviz's `dot`.
# Anywhere else this cell does nothing.
import sys

if {mark}:
    import shutil
    import subprocess

    package = "kerasmini[book] @ {repository}"
    pip = [sys.executable, "-m", "pip", "install", "-q", package]
    subprocess.run(pip, check=True)
    if shutil.which("dot") is None:
        apt = "apt-get -qq update && apt-get -qq install -y graphviz"
        subprocess.run(apt, shell=True, check=True)"""


# --------------------------------------------------------------------------
# The cells as they should be.

def solution_meta(label):
    return {"grade": False, "grade_id": f"{label}-solution", "locked": False,
            "schema_version": SCHEMA_VERSION, "solution": True}


def grade_meta(label, points=POINTS):
    return {"grade": True, "grade_id": label, "locked": True, "points": points,
            "schema_version": SCHEMA_VERSION, "solution": False}


def exercise_of(grade_id):
    """The exercise label a cell's nbgrader ``grade_id`` belongs to.

    >>> exercise_of("ch03-scale-layer-solution"), exercise_of("ch03-scale-layer")
    ('ch03-scale-layer', 'ch03-scale-layer')
    """
    for suffix in ("-solution", "-check"):
        if grade_id.endswith(suffix):
            return grade_id[: -len(suffix)]
    return grade_id


def check_module(label):
    """The module that holds the check of exercise ``label``.

    >>> check_module("ch03-scale-layer")
    'kerasmini.book.exercises.ch03'
    """
    return f"{CHECKS}.{label.split('-', 1)[0]}"


def grade_source(label, check, answers):
    """The grade cell: import the check, call it on the answers by name.

    >>> print(grade_source("ch03-scale-layer", "check_scale_layer", ["Scale"]))
    from kerasmini.book.exercises.ch03 import check_scale_layer
    <BLANKLINE>
    check_scale_layer(Scale)
    """
    return (f"from {check_module(label)} import {check}\n\n"
            f"{check}({', '.join(answers)})")


def stub_lines(exercise):
    return STUB.format(exercise=exercise).split("\n")


def student_source(text, exercise):
    """``text`` with each solution region replaced by the stub, as nbgrader's
    ClearSolutions does it (the stub takes the indentation of the BEGIN line).

    >>> code = "def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION"
    >>> print(student_source(code, "ch00-f"))
    def f():
        # YOUR CODE HERE
        raise NotImplementedError("ch00-f: write your code here")
    """
    out, inside = [], False
    for line in text.split("\n"):
        if "BEGIN SOLUTION" in line:
            indent = re.match(r"\s*", line).group(0)
            out += [indent + stub for stub in stub_lines(exercise)]
            inside = True
        elif "END SOLUTION" in line:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def colab_source(config_path=ROOT / "_config.yml"):
    """The first code cell of every chapter: on Colab, install kerasmini from
    the book's repository (``repository`` in _config.yml); elsewhere nothing."""
    text = Path(config_path).read_text(encoding="utf-8")
    section = text.split("\nrepository:", 1)[1]
    url = re.search(r"^\s+url:\s*(\S+)", section, re.MULTILINE).group(1)
    branch = re.search(r"^\s+branch:\s*(\S+)", section, re.MULTILINE).group(1)
    return COLAB_CELL.format(mark=COLAB_MARK, repository=f"git+{url}@{branch}")


# --------------------------------------------------------------------------
# Reading cells.

def source(cell):
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def tags(cell):
    return list(cell.get("metadata", {}).get("tags", []))


def nbgrader(cell):
    return cell.get("metadata", {}).get("nbgrader")


def is_code(cell, tag=None):
    return cell["cell_type"] == "code" and (tag is None or tag in tags(cell))


def is_markdown(cell, pattern):
    return cell["cell_type"] == "markdown" and pattern.search(source(cell))


def check_call(text):
    """``(check name, [answer names])`` of the call a grade cell makes, or
    ``None``: the last statement, ``check_x(A, B)`` with plain names."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if not tree.body:
        return None
    node = tree.body[-1]
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and all(isinstance(a, ast.Name) for a in node.value.args)
            and not node.value.keywords):
        return None
    return node.value.func.id, [a.id for a in node.value.args]


def exercise_starts(cells):
    """``(index, label)`` of every exercise markdown cell."""
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            match = EXERCISE.search(source(cell))
            if match:
                found.append((index, match.group(3)))
    return found


def exercise_title(cell):
    """The title of an exercise cell (``Count the parameters ...``)."""
    return EXERCISE.search(source(cell)).group(2).strip()


def checks_of(label):
    """The check functions the package has for chapter ``label``'s module, by
    label (``{}`` if the module is missing)."""
    try:
        module = importlib.import_module(check_module(label))
    except ImportError:
        return {}
    return {getattr(f, "label", None): name for name, f in vars(module).items()
            if name.startswith("check_") and callable(f)}


# --------------------------------------------------------------------------
# Converting.

class ConversionError(ValueError):
    pass


def _set_meta(cell, meta, tag):
    metadata = cell.setdefault("metadata", {})
    metadata["nbgrader"] = meta
    metadata["tags"] = [tag] + [t for t in metadata.get("tags", []) if t != tag]


def _new_code_cell(cell_id, text, tag_list, meta=None):
    metadata = {"tags": list(tag_list)}
    if meta is not None:
        metadata["nbgrader"] = meta
    return {"cell_type": "code", "execution_count": None, "id": cell_id,
            "metadata": metadata, "outputs": [], "source": text}


def _points(cell, override):
    if override is not None:
        return override
    points = (nbgrader(cell) or {}).get("points", POINTS)
    return points if isinstance(points, (int, float)) and points > 0 else POINTS


def _convert_exercise(cells, start, label, where, points=None):
    """Convert the exercise at ``cells[start]`` in place; True if it changed."""
    if is_code(cells[start + 1], "check"):  # the previous layout
        del cells[start + 1]
    block = cells[start + 1: start + 5]
    shape = (len(block) == 4 and is_markdown(block[0], SOLUTION_START)
             and is_code(block[1], "solution") and is_markdown(block[2], SOLUTION_END)
             and is_code(block[3], "grade"))
    if not shape:
        raise ConversionError(f"{where}: expected solution-start, a solution cell, "
                              "solution-end and a grade cell after the exercise")
    before = copy.deepcopy(block)
    solution, grade = block[1], block[3]
    call = check_call(source(grade))
    if call is None:
        raise ConversionError(f"{where}: the grade cell should end with the check "
                              "call, check_x(Answer)")
    check, answers = call
    known = checks_of(label)
    if known.get(label) != check:
        raise ConversionError(f"{where}: {check_module(label)} has no {check} for "
                              f"{label}: write the check there first")
    text = grade_source(label, check, answers)
    if source(grade) != text:
        grade["source"] = text
    _set_meta(solution, solution_meta(label), "solution")
    _set_meta(grade, grade_meta(label, _points(grade, points)), "grade")
    return cells[start + 1: start + 5] != before


def _place_colab_cell(cells, text):
    """Make the Colab install cell the first code cell; True if anything changed."""
    found = [i for i, c in enumerate(cells) if is_code(c) and COLAB_MARK in source(c)]
    first_code = next((i for i, c in enumerate(cells) if is_code(c)), len(cells))
    if found == [first_code]:
        cell = cells[first_code]
        if source(cell) == text and tags(cell) == COLAB_TAGS:
            return False
        cell["source"], cell["metadata"]["tags"] = text, list(COLAB_TAGS)
        return True
    for i in reversed(found):
        del cells[i]
    first_code = next((i for i, c in enumerate(cells) if is_code(c)), len(cells))
    cells.insert(first_code, _new_code_cell(COLAB_ID, text, COLAB_TAGS))
    return True


def convert(nb, name="notebook", colab=None, points=None):
    """Convert ``nb`` (a dict, changed in place); return True if it changed.
    ``points``: ``{label: points}`` to set."""
    colab = colab_source() if colab is None else colab
    points = points or {}
    cells = nb["cells"]
    before = len(cells)
    changed = _place_colab_cell(cells, colab)
    for start, label in reversed(exercise_starts(cells)):
        changed |= _convert_exercise(cells, start, label, f"{name}: exercise {label}",
                                     points.get(label))
    changed |= len(cells) != before
    if changed and nb.get("nbformat_minor", 0) < 5:
        for cell in cells:
            cell.pop("id", None)
    return changed


# --------------------------------------------------------------------------
# Checking.

def problems(nb, name="notebook", colab=None):
    """Everything in ``nb`` that is not in the layout, as readable lines."""
    colab = colab_source() if colab is None else colab
    cells = nb["cells"]
    found = []
    code = [c for c in cells if is_code(c)]
    if not code or source(code[0]) != colab or tags(code[0]) != COLAB_TAGS:
        found.append(f"{name}: the first code cell should be the Colab install cell "
                     "(run tools/exercise_cells.py --write)")
    grade_ids = {}
    in_exercise = set()
    for start, label in exercise_starts(cells):
        where = f"{name}: exercise {label}"
        block = cells[start + 1: start + 5]
        in_exercise.update(range(start + 1, start + 5))
        kinds = ["start" if is_markdown(c, SOLUTION_START) else "solution"
                 if is_code(c, "solution") else "end"
                 if is_markdown(c, SOLUTION_END) else "grade"
                 if is_code(c, "grade") else "check"
                 if is_code(c, "check") else "other" for c in block]
        if kinds != ["start", "solution", "end", "grade"]:
            found.append(f"{where}: expected the cells solution-start, solution, "
                         f"solution-end, grade; found {kinds}")
            continue
        begin, solution, _, grade = block
        points = (nbgrader(grade) or {}).get("points")
        if not isinstance(points, (int, float)) or isinstance(points, bool) or \
                points <= 0:
            found.append(f"{where}: the grade cell's points should be a positive "
                         f"number, are {points!r}")
            points = POINTS
        for cell, want in ((solution, solution_meta(label)),
                           (grade, grade_meta(label, points))):
            if nbgrader(cell) != want:
                found.append(f"{where}: the {tags(cell)[0]} cell's nbgrader metadata "
                             f"should be {want}, is {nbgrader(cell)}")
        for cell in (solution, grade):
            if not nbgrader(cell):
                continue
            grade_id = nbgrader(cell).get("grade_id", "")
            if not GRADE_ID.match(grade_id) or len(grade_id) > 64:
                found.append(f"{where}: grade_id {grade_id!r}: letters, digits, - and _")
            if grade_id in grade_ids:
                found.append(f"{where}: grade_id {grade_id!r} is used twice")
            grade_ids[grade_id] = label
        if SOLUTION_START.search(source(begin)).group(2) != label:
            found.append(f"{where}: solution-start names another label")
        if ":class: dropdown" not in source(begin):
            found.append(f"{where}: the solution should fold (:class: dropdown)")
        text = source(solution)
        marks = [line.strip() for line in text.split("\n")
                 if "BEGIN SOLUTION" in line or "END SOLUTION" in line]
        if not marks or marks != [BEGIN, END] * (len(marks) // 2):
            found.append(f"{where}: the solution cell needs {BEGIN!r} ... {END!r} "
                         "regions, each marker on a line of its own")
        else:
            try:
                compile(student_source(text, label), where, "exec")
            except SyntaxError as error:
                found.append(f"{where}: with the stub the solution cell does not "
                             f"compile: {error}")
        call = check_call(source(grade))
        check = checks_of(label).get(label)
        if check is None:
            found.append(f"{where}: {check_module(label)} has no check for {label}")
        elif call is None or call[0] != check or \
                source(grade) != grade_source(label, check, call[1]):
            found.append(f"{where}: the grade cell should be "
                         f"{grade_source(label, check, ['Answer'])!r} with the "
                         "answer's name(s)")
        if check and check in text:
            found.append(f"{where}: the solution cell calls {check}; only the grade "
                         "cell does")
    for index, cell in enumerate(cells):
        if index in in_exercise:
            continue
        if nbgrader(cell):
            found.append(f"{name}: cell {index} has nbgrader metadata outside an exercise")
        if "BEGIN SOLUTION" in source(cell):
            found.append(f"{name}: cell {index} has a solution region outside an "
                         "exercise (nbgrader refuses it)")
        if is_code(cell, "check"):
            found.append(f"{name}: cell {index} is a check cell: the checks live in "
                         f"{CHECKS} (run tools/exercise_cells.py --write)")
    return found


# --------------------------------------------------------------------------

def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(nb):
    """The notebook's text as nbformat writes it (sorted keys, indent 1)."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        cell["source"] = source(cell).splitlines(keepends=True)
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _points_option(text):
    label, _, value = text.partition("=")
    try:
        points = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected label=points, got {text!r}") from None
    if not GRADE_ID.match(label) or points <= 0:
        raise argparse.ArgumentTypeError(f"expected label=points (> 0), got {text!r}")
    return label, int(points) if points.is_integer() else points


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="report, change nothing")
    mode.add_argument("--write", action="store_true", help="convert in place")
    parser.add_argument("--points", type=_points_option, action="append", default=[],
                        metavar="LABEL=N", help="set an exercise's points (--write)")
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    colab = colab_source()
    points = dict(args.points)
    status = 0
    for path in args.notebooks:
        nb = load(path)
        if args.write:
            try:
                changed = convert(nb, path.name, colab, points)
            except ConversionError as error:
                print(f"error: {error}", file=sys.stderr)
                status = 1
                continue
            if changed:
                path.write_text(dump(nb), encoding="utf-8")
                print(f"converted {path} (re-run it: make notebooks)")
        for line in problems(load(path), path.name, colab):
            print(line, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
