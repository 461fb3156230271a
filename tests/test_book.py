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
