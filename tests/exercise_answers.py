"""Answers to the chapters' exercises, for the tests of their checks.

An answer is the chapter's own solution cell, run in a namespace that holds
the chapter's imports, with its ``### BEGIN SOLUTION`` ... ``### END
SOLUTION`` regions kept (the solution) or replaced by other code (a wrong
answer, or one that uses kerasmini's own implementation). The grade cell says
which names the check receives.
"""

import ast
import functools
import json
import re
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))

EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}.*\n:label:\s*(\S+)", re.MULTILINE)


def _source(cell):
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


@functools.lru_cache(maxsize=None)
def _cells():
    """``{label: (chapter path, solution source, grade source)}``."""
    found = {}
    for path in CHAPTERS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        by_id = {}
        for cell in cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                by_id[grade_id] = _source(cell)
        for cell in cells:
            match = cell["cell_type"] == "markdown" and EXERCISE.search(_source(cell))
            if match:
                label = match.group(2)
                found[label] = (path, by_id[f"{label}-solution"], by_id[label])
    return found


def labels():
    return sorted(_cells())


@functools.lru_cache(maxsize=None)
def _imports(path):
    """The chapter's top-level import statements, as one block of code."""
    lines = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        try:
            tree = ast.parse(_source(cell))
        except SyntaxError:
            continue
        lines += [ast.unparse(node) for node in tree.body
                  if isinstance(node, (ast.Import, ast.ImportFrom))]
    return "\n".join(dict.fromkeys(lines))


def grade_call(label):
    """``(check name, [answer names])`` of the exercise's grade cell."""
    _, _, grade = _cells()[label]
    for node in ast.parse(grade).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            return node.value.func.id, [arg.id for arg in node.value.args]
    raise ValueError(f"{label}: the grade cell calls no check")


def chapter_module(label):
    return "kerasmini.book.exercises." + label.split("-")[0]


def replace_regions(code, bodies):
    """``code`` with its solution regions replaced by ``bodies`` in order (each
    takes the indentation of its ``### BEGIN SOLUTION`` line)."""
    bodies = [bodies] if isinstance(bodies, str) else list(bodies)
    out, inside = [], False
    for line in code.split("\n"):
        if "### BEGIN SOLUTION" in line:
            indent = line[: len(line) - len(line.lstrip())]
            body = textwrap.dedent(bodies.pop(0)).strip("\n")
            out += [indent + row if row else row for row in body.split("\n")]
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif not inside:
            out.append(line)
    assert not bodies, "more bodies than solution regions"
    return "\n".join(out)


def answers(label, bodies=None, before=""):
    """The objects the grade cell hands the check: the solution's, or those of
    the solution cell with its regions replaced by ``bodies``. ``before`` is
    code run first (a helper a wrong answer needs)."""
    path, solution, _ = _cells()[label]
    code = solution if bodies is None else replace_regions(solution, bodies)
    namespace = {"__name__": "__main__"}
    exec(compile(_imports(path), f"{path.name}:imports", "exec"), namespace)
    if before:
        exec(compile(textwrap.dedent(before), f"{label}:before", "exec"), namespace)
    exec(compile(code, f"{label}:answer", "exec"), namespace)
    _, names = grade_call(label)
    return [namespace[name] for name in names]


def stub_answers(label):
    """The answers of the student version: every region is the stub."""
    _, solution, _ = _cells()[label]
    stub = f'raise NotImplementedError("{label}: write your code here")'
    count = solution.count("### BEGIN SOLUTION")
    return answers(label, [stub] * count)
