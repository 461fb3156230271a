"""The chapters' exercise cells in nbgrader's format: convert them, or check them.

Every exercise is six consecutive cells (CONTRIBUTING.md, "Add a chapter", step 3):

1. markdown ````{exercise} Title```` with ``:label: chNN-slug`` and the task;
2. code, tag ``check``: defines ``check_slug(...)``; nbgrader: locked, not graded;
3. markdown ```{solution-start} chNN-slug``` with ``:class: dropdown``;
4. code, tag ``solution``: the reader's code, the part to write between
   ``### BEGIN SOLUTION`` and ``### END SOLUTION``; nbgrader: a solution cell;
5. markdown ```{solution-end}```;
6. code, tag ``grade``: only the check call; nbgrader: locked, graded, 1 point.

``--write`` turns the older layout (the check call at the end of the solution
cell, no nbgrader metadata) into this one, sets the nbgrader metadata of
exercises already in it, and puts the Colab install cell first; an exercise
already right is left as it is, so running it twice changes nothing.
``--check`` only reports what is not right (exit status 1).

Usage::

    python tools/exercise_cells.py --check chapters/*.ipynb
    python tools/exercise_cells.py --write chapters/*.ipynb

After ``--write``, re-run each changed notebook (``make notebooks``): the
grade cells are new and their outputs come from a fresh run.
"""

import argparse
import ast
import copy
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
SCHEMA_VERSION = 3
POINTS = 1

EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}.*\n:label:\s*(\S+)", re.MULTILINE)
SOLUTION_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}\s+(\S+)", re.MULTILINE)
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}", re.MULTILINE)
# nbgrader: grade ids are letters, digits, "-" and "_"; cell ids the same, <= 64.
GRADE_ID = re.compile(r"^[A-Za-z0-9_-]+$")

# The student version replaces each solution region by this (see
# tools/nbgrader_stubs.py, which nbgrader's generate_assignment uses).
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

def check_meta(label):
    return {"grade": False, "grade_id": f"{label}-check", "locked": True,
            "schema_version": SCHEMA_VERSION, "solution": False}


def solution_meta(label):
    return {"grade": False, "grade_id": f"{label}-solution", "locked": False,
            "schema_version": SCHEMA_VERSION, "solution": True}


def grade_meta(label):
    return {"grade": True, "grade_id": label, "locked": True, "points": POINTS,
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


def defined_checks(text):
    """Names of the ``check_*`` functions a check cell defines."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("check_")]


def check_calls(text, names):
    """Top-level statements of ``text`` that call one of ``names``."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [node for node in tree.body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name) and node.value.func.id in names]


def exercise_starts(cells):
    """``(index, label)`` of every exercise markdown cell."""
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            match = EXERCISE.search(source(cell))
            if match:
                found.append((index, match.group(2)))
    return found


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


def _split_old_solution(text, check_names, where):
    """Split an old solution cell into (solution, check call, code after it)."""
    calls = check_calls(text, check_names)
    if len(calls) != 1:
        raise ConversionError(f"{where}: expected one call of {check_names} in the "
                              f"solution cell, found {len(calls)}")
    lines = text.split("\n")
    call = calls[0]
    before = "\n".join(lines[: call.lineno - 1]).rstrip()
    call_text = "\n".join(lines[call.lineno - 1: call.end_lineno]).strip()
    after = "\n".join(lines[call.end_lineno:]).strip("\n").rstrip()
    if END not in before:
        raise ConversionError(f"{where}: the check call comes before {END!r}")
    return before, call_text, after


def _convert_exercise(cells, start, label, where):
    """Convert the exercise at ``cells[start]`` in place; True if it changed."""
    block = cells[start + 1: start + 6]
    shape_old = (len(block) >= 4 and is_code(block[0], "check")
                 and is_markdown(block[1], SOLUTION_START)
                 and is_code(block[2], "solution") and is_markdown(block[3], SOLUTION_END))
    if not shape_old:
        raise ConversionError(f"{where}: expected a check cell, solution-start, a "
                              "solution cell and solution-end after the exercise")
    check, solution = block[0], block[2]
    has_grade = len(block) == 5 and is_code(block[4], "grade")
    before = copy.deepcopy(cells[start + 1: start + 6])

    if not has_grade:  # the older layout: the check call ends the solution cell
        names = defined_checks(source(check))
        text, call, after = _split_old_solution(source(solution), names, where)
        grade = _new_code_cell(label, call, ["grade"], grade_meta(label))
        new = [grade]
        if after:  # e.g. the solution used once more on kerasmini itself
            new.append(_new_code_cell(f"{label}-more", after, []))
        else:  # the outputs were the check's: keep them until the next run
            grade["outputs"] = solution.get("outputs", [])
            grade["execution_count"] = solution.get("execution_count")
        solution["outputs"], solution["execution_count"] = [], None
        solution["source"] = text
        cells[start + 5: start + 5] = new
    _set_meta(check, check_meta(label), "check")
    _set_meta(solution, solution_meta(label), "solution")
    _set_meta(cells[start + 5], grade_meta(label), "grade")
    return cells[start + 1: start + 6] != before


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


def convert(nb, name="notebook", colab=None):
    """Convert ``nb`` (a dict, changed in place); return True if it changed."""
    colab = colab_source() if colab is None else colab
    cells = nb["cells"]
    changed = _place_colab_cell(cells, colab)
    for start, label in reversed(exercise_starts(cells)):
        changed |= _convert_exercise(cells, start, label, f"{name}: exercise {label}")
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
        block = cells[start + 1: start + 6]
        in_exercise.update(range(start + 1, start + 6))
        kinds = ["check" if is_code(c, "check") else "start"
                 if is_markdown(c, SOLUTION_START) else "solution"
                 if is_code(c, "solution") else "end"
                 if is_markdown(c, SOLUTION_END) else "grade"
                 if is_code(c, "grade") else "other" for c in block]
        if kinds != ["check", "start", "solution", "end", "grade"]:
            found.append(f"{where}: expected the cells check, solution-start, "
                         f"solution, solution-end, grade; found {kinds}")
            continue
        check, begin, solution, _, grade = block
        for cell, want in ((check, check_meta(label)), (solution, solution_meta(label)),
                           (grade, grade_meta(label))):
            if nbgrader(cell) != want:
                found.append(f"{where}: the {tags(cell)[0]} cell's nbgrader metadata "
                             f"should be {want}, is {nbgrader(cell)}")
        for cell in (check, solution, grade):
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
        names = defined_checks(source(check))
        if not names:
            found.append(f"{where}: the check cell defines no check_* function")
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
        if check_calls(text, names):
            found.append(f"{where}: the check call belongs in the grade cell, not in "
                         "the solution cell")
        calls = check_calls(source(grade), names)
        if not calls:
            found.append(f"{where}: the grade cell should call {names}")
        for cell in (check, grade):
            if "BEGIN SOLUTION" in source(cell):
                found.append(f"{where}: a solution region outside the solution cell")
    for index, cell in enumerate(cells):
        if index in in_exercise:
            continue
        if nbgrader(cell):
            found.append(f"{name}: cell {index} has nbgrader metadata outside an exercise")
        if "BEGIN SOLUTION" in source(cell):
            found.append(f"{name}: cell {index} has a solution region outside an "
                         "exercise (nbgrader refuses it)")
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="report, change nothing")
    mode.add_argument("--write", action="store_true", help="convert in place")
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    colab = colab_source()
    status = 0
    for path in args.notebooks:
        nb = load(path)
        if args.write:
            try:
                changed = convert(nb, path.name, colab)
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
