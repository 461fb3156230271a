"""What the chapters put on the page: listings shown, errors short, no paths.

A notebook cell displays the value of its last statement only. A listing
helper called anywhere else in the cell (``show_source(a)`` above
``show_source(b)``) builds its listing and throws it away, and nothing tells
the reader a listing is missing. The stored outputs must not carry the build
machine's paths or a full call stack either: an error a chapter shows on
purpose is the error alone (``%xmode minimal``), as a reader would act on it.
"""

import ast
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))

# The helpers whose return value is the thing shown: a listing, a drawing, a
# table of links, the parity line. Called as a statement that is not the
# cell's last, their value is lost.
DISPLAY_HELPERS = {
    "show_source", "show_compiled", "keras_links", "keras_lines", "tf_table",
    "tf_source", "side_by_side", "verified", "plot_model", "plot_nodes",
    "plot_classes", "plot_module_tree", "plot_depths", "plot_call_steps",
    "plot_tape", "plot_hook_calls", "plot_optimizer_slots", "plot_codebase",
    "plot_import_graph", "plot_keras_archive", "plot_loading_order",
}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# Any absolute path of the usual roots, wherever it starts (after ANSI colour
# codes are removed, which otherwise glue a letter to the slash).
ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:work|home|root|Users|tmp|opt|usr|var|private)/")
MAX_TRACEBACK_LINES = 3


def cells(path):
    path = getattr(path, "values", (path,))[0]
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(i, cell) for i, cell in enumerate(nb["cells"])]


def text_of(value):
    return "".join(value) if isinstance(value, list) else value


def output_texts(output):
    """Every text of one output, ANSI codes removed."""
    texts = []
    if "text" in output:
        texts.append(text_of(output["text"]))
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/") or mime.endswith("+xml") or mime.endswith("json"):
            texts.append(text_of(value) if not isinstance(value, dict)
                         else json.dumps(value))
    texts += output.get("traceback", [])
    if "evalue" in output:
        texts.append(output["evalue"])
    return [ANSI.sub("", text) for text in texts]


def called_name(call):
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def lost_displays(source):
    """Calls of display helpers whose value the cell never shows."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    lost = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
            continue
        if node is last:
            continue
        name = called_name(node.value)
        if name in DISPLAY_HELPERS:
            lost.append(f"line {node.lineno}: {name}(...)")
    return lost


def test_lost_displays_finds_a_discarded_listing():
    assert lost_displays("show_source(a)\nshow_source(b)") == ["line 1: show_source(...)"]
    assert lost_displays("for k in keys:\n    keras_links(k)") == [
        "line 2: keras_links(...)"]
    assert lost_displays("display(show_source(a))\nshow_source(b)") == []
    assert lost_displays("x = show_source(a)\nprint(x)") == []
    assert lost_displays("%xmode minimal\nshow_source(a)") == []


def chapter_id(path):
    return getattr(path, "stem", None)


@pytest.mark.parametrize("path", CHAPTERS, ids=chapter_id)
def test_no_listing_is_discarded(path):
    for index, cell in cells(path):
        if cell["cell_type"] != "code":
            continue
        lost = lost_displays(text_of(cell["source"]))
        assert not lost, (
            f"{path.name}: cell {index} ({cell.get('id')}) builds a listing or "
            f"drawing and discards it ({', '.join(lost)}): only a cell's last "
            "value is shown; wrap the others in display(...)")


def machine_paths():
    """Absolute paths of this machine that must not reach a page."""
    paths = {str(ROOT), str(Path.home()), sys.prefix, sys.base_prefix,
             tempfile.gettempdir(), os.getcwd()}
    return sorted(p for p in paths if len(p) > 1)


@pytest.mark.parametrize("path", CHAPTERS, ids=chapter_id)
def test_outputs_hold_no_machine_path(path):
    mine = machine_paths()
    for index, cell in cells(path):
        for output in cell.get("outputs", []):
            for text in output_texts(output):
                found = [p for p in mine if p in text]
                match = ABSOLUTE.search(text)
                where = (text[max(0, match.start() - 30):match.end() + 40]
                         if match else found)
                assert not found and match is None, (
                    f"{path.name}: cell {index} ({cell.get('id')}) shows an "
                    f"absolute path: {where!r}")


@pytest.mark.parametrize("path", CHAPTERS, ids=chapter_id)
def test_errors_shown_are_the_error_alone(path):
    for index, cell in cells(path):
        for output in cell.get("outputs", []):
            where = f"{path.name}: cell {index} ({cell.get('id')})"
            if output["output_type"] == "error":
                lines = "".join(ANSI.sub("", t) + "\n"
                                for t in output["traceback"]).strip().splitlines()
                assert len(lines) <= MAX_TRACEBACK_LINES, (
                    f"{where} shows a {len(lines)}-line traceback; show the error "
                    "alone: run `%xmode minimal` in a cell tagged remove-output "
                    "before it, as chapters 4-8 do")
            if output["output_type"] not in ("stream", "error"):
                continue  # a listing may quote a docstring's doctest
            for text in output_texts(output):
                assert "Traceback (most recent call last)" not in text, (
                    f"{where} prints a traceback")
                assert not re.search(r'File "[^"]+", line \d+', text), (
                    f"{where} prints a stack frame")


HEADER = re.compile(r"^# (\S+):\d+-\d+ \((.+?)\)$")
DEFINITION = re.compile(r"^(?:async\s+)?(?:def|class)\s+(\w+)")


def listing_headers(path):
    """``(cell index, header name, first definition line)`` of every listing."""
    for index, cell in cells(path):
        for output in cell.get("outputs", []):
            plain = text_of(output.get("data", {}).get("text/plain", ""))
            lines = plain.splitlines()
            match = HEADER.match(lines[0]) if lines else None
            if not match:
                continue
            body = [line for line in lines[1:] if not line.startswith("@")]
            first = DEFINITION.match(body[0]) if body else None
            yield index, match.group(2), first.group(1) if first else None


@pytest.mark.parametrize("path", CHAPTERS, ids=chapter_id)
def test_listing_headers_name_the_code_shown(path):
    for index, name, defined in listing_headers(path):
        if defined is None or name.startswith(("<", "train_function")):
            continue  # an excerpt from inside a body, or a traced step
        assert name.rsplit(".", 1)[-1] == defined, (
            f"{path.name}: cell {index}: the listing of `{defined}` is headed "
            f"({name}); a header names the code shown (show_source's key only "
            "chooses the Keras links)")


# --------------------------------------------------------------------------
# What the book says about itself, counted rather than typed


def test_teachers_page_counts_the_exercises_and_wrong_answers():
    from exercise_answers import labels
    from test_exercise_checks import WRONG

    text = (ROOT / "teachers.md").read_text(encoding="utf-8")
    stated = re.search(r"the book's (\d+) exercises", text)
    wrong = re.search(r"wrong answers \((\d+) in all\)", text)
    assert stated and wrong, "teachers.md no longer states the two counts"
    assert int(stated.group(1)) == len(labels()), (
        f"teachers.md says {stated.group(1)} exercises; the chapters have "
        f"{len(labels())}")
    assert int(wrong.group(1)) == len(WRONG), (
        f"teachers.md says {wrong.group(1)} wrong answers; "
        f"tests/test_exercise_checks.py has {len(WRONG)}")


def test_no_page_gives_a_fixed_number_of_exercises_per_chapter():
    counts = {}
    for path in sorted((ROOT / "chapters").glob("[01][0-9]_*.ipynb")):
        text = path.read_text(encoding="utf-8")
        counts[path.stem] = text.count("{exercise}")
    per_chapter = re.compile(
        r"\b(one|two|three|four|five|\d+) exercises (per|in each|at the end of "
        r"(each|every)) chapter", re.IGNORECASE)
    for page in ("intro.md", "teachers.md", "README.md", "CONTRIBUTING.md"):
        match = per_chapter.search((ROOT / page).read_text(encoding="utf-8"))
        assert match is None, (
            f"{page} says '{match.group(0)}', but the chapters have "
            f"{sorted(set(counts.values()))} exercises each")


# --------------------------------------------------------------------------
# Code in tables wraps between names, never inside one


def test_code_in_tables_gets_break_opportunities_between_names():
    import sys
    from types import SimpleNamespace

    from docutils import nodes
    from docutils.core import publish_doctree

    sys.path.insert(0, str(ROOT / "_ext"))
    import kerasmini_site

    cell = "``train_step(data)``"
    border = "+" + "-" * (len(cell) + 2) + "+"
    doctree = publish_doctree(f"{border}\n| {cell} |\n{border}\n\n"
                              f"Outside a table: {cell}\n")
    app = SimpleNamespace(builder=SimpleNamespace(format="html"))
    kerasmini_site._code_wraps_between_names(app, doctree, "page")
    in_table, outside = list(doctree.findall(nodes.literal))
    assert [type(c).__name__ for c in in_table.children] == [
        "Text", "raw", "Text", "raw", "Text"]
    assert "".join(c.astext() for c in in_table.children
                   if isinstance(c, nodes.Text)) == "train_step(data)"
    assert len(outside.children) == 1
    assert all(c.astext() == "<wbr>" for c in in_table.children
               if isinstance(c, nodes.raw))
