"""Classroom versions of the chapters: the student notebook and the grading run.

One source notebook gives three things:

* the website and the stored outputs (the notebook as it is);
* the **student version**: each region between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` (nbgrader's markers) becomes ``# YOUR CODE HERE`` +
  ``raise NotImplementedError()``, and all outputs are cleared;
* the **grading run**: :func:`run_cells` executes a notebook's code in one
  namespace and reports, per exercise, whether its ``solution`` cell (which
  ends by calling the exercise's check) passed.

Usage::

    python tools/classroom.py chapters/*.ipynb --out _build/student
"""

import argparse
import contextlib
import io
import json
import os
import re
import sys
import traceback

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
_REGION = re.compile(
    r"^(?P<indent>[ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*$",
    re.MULTILINE | re.DOTALL,
)


def source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def stub_source(text: str) -> str:
    """Replace every solution region of a cell's code by a stub.

    >>> code = ("def f():\\n    ### BEGIN SOLUTION\\n"
    ...         "    return 1\\n    ### END SOLUTION\\n")
    >>> print(stub_source(code))
    def f():
        # YOUR CODE HERE
        raise NotImplementedError()
    <BLANKLINE>
    """
    def replace(match):
        indent = match.group("indent")
        return f"{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError()"

    return _REGION.sub(replace, text)


def student_notebook(nb: dict) -> dict:
    """A copy of ``nb`` with solutions stubbed out and outputs cleared."""
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = source(cell)
        if BEGIN in text:
            cell["source"] = stub_source(text)
        cell["outputs"] = []
        cell["execution_count"] = None
    return nb


def run_cells(nb: dict, workdir: str):
    """Execute the code cells of ``nb`` in one namespace, in ``workdir``.

    Returns a list of ``(index, tags, error)`` for every code cell, where
    ``error`` is ``None`` or the exception the cell raised. Output is
    swallowed; execution goes on after an error, as a grader's would.
    """
    namespace = {"__name__": "__main__"}
    results = []
    previous = os.getcwd()
    os.chdir(workdir)
    try:
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code" or not source(cell).strip():
                continue
            code = source(cell)
            if code.lstrip().startswith(("%%", "!")):
                raise ValueError(f"cell {index}: cell magics and shell escapes are "
                                 "not supported by the grading run")
            # Line magics such as `%xmode minimal` only change how errors look.
            code = "\n".join("" if line.startswith("%") else line
                              for line in code.splitlines())
            error = None
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                try:
                    exec(compile(code, f"<cell {index}>", "exec"), namespace)
                except Exception as exc:  # noqa: BLE001 - a grader records anything
                    error = exc
            results.append((index, tags(cell), error))
    finally:
        os.chdir(previous)
    return results


def _main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--out", default="_build/student")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for path in args.notebooks:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        target = os.path.join(args.out, os.path.basename(path))
        with open(target, "w", encoding="utf-8") as f:
            json.dump(student_notebook(nb), f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"{path} -> {target}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(_main())
    except Exception:  # pragma: no cover
        traceback.print_exc()
        sys.exit(1)
