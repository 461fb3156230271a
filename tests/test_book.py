"""Checks on the book itself: table of contents, notebooks, configuration."""

import json
import re
from pathlib import Path

import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def load_yaml(name):
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))


def toc_files(node):
    """Every `file:` entry in a _toc.yml tree, in order."""
    if isinstance(node, dict):
        found = [node["file"]] if "file" in node else []
        for value in node.values():
            found += toc_files(value)
        return found
    if isinstance(node, list):
        return [name for item in node for name in toc_files(item)]
    return []


def notebooks():
    return sorted(CHAPTERS.glob("*.ipynb"))


def output_text(output):
    """The text a reader sees in one output: stream text or text/* data."""
    if "text" in output:
        text = output["text"]
        return "".join(text) if isinstance(text, list) else text
    parts = []
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/"):
            parts.append("".join(value) if isinstance(value, list) else value)
    parts += output.get("traceback", [])
    return "\n".join(parts)


def test_toc_lists_every_chapter_notebook():
    listed = set(toc_files(load_yaml("_toc.yml")))
    missing = [nb.name for nb in notebooks() if f"chapters/{nb.stem}" not in listed]
    assert notebooks(), "no notebooks in chapters/"
    assert not missing, f"notebooks not in _toc.yml: {missing}"


def test_toc_files_exist():
    toc = load_yaml("_toc.yml")
    assert toc["format"] == "jb-book"
    names = [toc["root"]] + toc_files(toc)
    missing = [
        name
        for name in names
        if not any((ROOT / f"{name}{ext}").exists() for ext in (".ipynb", ".md"))
    ]
    assert not missing, f"_toc.yml names files that do not exist: {missing}"


def test_cell_ids_are_unique_in_each_chapter():
    # nbformat "corrects" a repeated id to a random one on every read, so the
    # student versions and the parity marks would point at cells that move.
    for path in notebooks():
        nb = json.loads(path.read_text(encoding="utf-8"))
        ids = [cell.get("id") for cell in nb["cells"]]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        assert not repeated, f"{path.name}: cell ids used twice: {repeated}"


def test_notebooks_use_python3_kernel():
    for path in notebooks():
        nb = json.loads(path.read_text(encoding="utf-8"))
        kernel = nb["metadata"].get("kernelspec", {}).get("name")
        assert kernel == "python3", f"{path.name}: kernelspec {kernel!r}"


def test_notebooks_were_executed():
    for path in notebooks():
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code" or not "".join(cell["source"]).strip():
                continue
            assert cell.get("execution_count") is not None, (
                f"{path.name}: code cell {index} was never run; execute the notebook "
                "with `.venv/bin/jupyter nbconvert --to notebook --execute --inplace`"
            )


def test_notebook_outputs_have_no_memory_addresses():
    for path in notebooks():
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            for output in cell.get("outputs", []):
                match = ADDRESS.search(output_text(output))
                assert match is None, (
                    f"{path.name}: cell {index} prints a memory address "
                    f"{match.group()!r}; give the object a __repr__ or print less"
                )


def test_config_renders_stored_outputs_and_loads_extensions():
    config = load_yaml("_config.yml")
    assert config["execute"]["execute_notebooks"] == "off"
    extensions = config["sphinx"]["extra_extensions"]
    assert "sphinx_exercise" in extensions
    assert "sphinx_togglebutton" in extensions


def test_requirements_pin_jupyter_book_below_2():
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    reqs = [
        Requirement(line.split("#")[0].strip())
        for line in lines
        if line.split("#")[0].strip()
    ]
    (book,) = [req for req in reqs if req.name.lower() == "jupyter-book"]
    assert book.specifier.contains("1.0.4"), str(book)
    assert not book.specifier.contains("2.0.0"), str(book)


# --------------------------------------------------------------------------
# Chapter conventions (see the notebook section of the style guide).

KERAS_URL = re.compile(r"https://github\.com/keras-team/keras/blob/[^\s\"'<>)\]`]+")
ABSOLUTE_PATH = re.compile(r"(?<![\w.])/(work|home|root|Users|tmp/ipykernel)/")
EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}.*\n:label:\s*(\S+)", re.MULTILINE)
SOLUTION_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}\s+(\S+)", re.MULTILINE)
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}", re.MULTILINE)
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def chapter_notebooks():
    """The numbered chapters (00_getting_started is a setup check, not a chapter)."""
    return [nb for nb in notebooks() if nb.name[:2].isdigit() and nb.name[:2] != "00"]


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else text


def tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def test_keras_links_in_notebooks_come_from_the_table():
    from kerasmini.book.keras_excerpts import KERAS_EXCERPTS
    from kerasmini.book.keras_sources import KERAS_SOURCES

    allowed = {ref.url for entry in KERAS_SOURCES.values()
               for ref in (entry.keras2, entry.keras3) if ref is not None}
    allowed |= {excerpt.url for excerpt in KERAS_EXCERPTS.values()}
    for path in notebooks():
        for index, cell in enumerate(load(path)["cells"]):
            texts = [source(cell)] + [output_text(o) for o in cell.get("outputs", [])]
            for text in texts:
                for url in KERAS_URL.findall(text):
                    assert url in allowed, (
                        f"{path.name}: cell {index} links {url}, which is not in "
                        "kerasmini/book/keras_source_table.py; link through "
                        "keras_source(...)/show_source/keras_links instead"
                    )


def test_chapters_have_three_checked_exercises_with_folded_solutions():
    for path in chapter_notebooks():
        cells = load(path)["cells"]
        starts = [i for i, c in enumerate(cells)
                  if c["cell_type"] == "markdown" and EXERCISE.search(source(c))]
        assert len(starts) >= 3, f"{path.name}: {len(starts)} exercises, need 3"
        for n, start in enumerate(starts):
            label = EXERCISE.search(source(cells[start])).group(2)
            stop = starts[n + 1] if n + 1 < len(starts) else len(cells)
            block = cells[start + 1:stop]
            where = f"{path.name}: exercise {label}"
            kinds = []
            for cell in block:
                text = source(cell)
                if cell["cell_type"] == "code" and "grade" in tags(cell):
                    kinds.append("grade")
                    assert f"from kerasmini.book.exercises.{label[:4]} import check_" \
                        in text, f"{where}: the grade cell imports its check"
                elif cell["cell_type"] == "code" and "solution" in tags(cell):
                    kinds.append("solution")
                    assert BEGIN in text and END in text, (
                        f"{where}: the solution cell needs {BEGIN!r} / {END!r}")
                    head, rest = text.split(BEGIN, 1)
                    _, tail = rest.split(END, 1)
                    indent = head.rsplit("\n", 1)[-1]
                    student = head + "raise NotImplementedError()" + tail
                    assert not indent.strip(), f"{where}: put {BEGIN!r} on its own line"
                    compile(student, f"{path.name}:{label}", "exec")
                elif cell["cell_type"] == "markdown":
                    match = SOLUTION_START.search(text)
                    if match:
                        assert match.group(2) == label, (
                            f"{where}: solution-start names {match.group(2)!r}")
                        assert ":class: dropdown" in text, (
                            f"{where}: the solution should fold (:class: dropdown)")
                        kinds.append("start")
                    elif SOLUTION_END.search(text):
                        kinds.append("end")
            assert kinds[:4] == ["start", "solution", "end", "grade"], (
                f"{where}: expected solution-start, a solution cell, solution-end "
                f"and a grade cell (the self-check) in that order, found {kinds}")


def test_error_outputs_and_raises_exception_tags_agree():
    for path in notebooks():
        for index, cell in enumerate(load(path)["cells"]):
            if cell["cell_type"] != "code":
                continue
            has_error = any(o["output_type"] == "error" for o in cell.get("outputs", []))
            tagged = "raises-exception" in tags(cell)
            assert has_error == tagged, (
                f"{path.name}: cell {index} "
                + ("shows an error but lacks the `raises-exception` tag" if has_error
                   else "is tagged `raises-exception` but raises nothing")
            )


def test_outputs_have_no_absolute_paths():
    for path in notebooks():
        for index, cell in enumerate(load(path)["cells"]):
            for output in cell.get("outputs", []):
                text = output_text(output)
                match = ABSOLUTE_PATH.search(text)
                assert match is None, (
                    f"{path.name}: cell {index} prints an absolute path "
                    f"{text[max(0, match.start() - 20):match.end() + 30]!r}; show "
                    "paths relative to the repository"
                )
