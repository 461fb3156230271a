"""Every figure of the book has a description as its alt text.

The descriptions live in tools/figure_alt.py (a table by chapter and cell id)
and in the notebooks' cell metadata, where myst-nb reads them; these tests fail
on a figure without one, on an alt text that is empty or a file path (myst-nb's
default), and, once the book is built, on a page whose figure lacks it.
"""

import copy
import json
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import figure_alt  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
HTML = ROOT / "_build" / "html"


def test_every_figure_of_every_chapter_is_described():
    found = figure_alt.table_problems()
    for path in CHAPTERS:
        found += figure_alt.problems(figure_alt.load(path), path.stem)
    assert not found, "\n".join(found)
    total = sum(len(figure_alt.figure_cells(figure_alt.load(p))) for p in CHAPTERS)
    assert total == sum(len(rows) for rows in figure_alt.ALT.values())


@pytest.mark.parametrize("text", [
    None, "", "   ", "../_images/3f2a9c.svg", "figure.png", "chapters/fig_1",
    "a Dense layer", "see ../_images/plot.png for the plot of the model",
])
def test_describes_refuses_empty_paths_and_labels(text):
    assert figure_alt.describes(text)


def test_describes_accepts_a_sentence_with_weight_paths():
    text = ("Adam's slots: sequential/out/kernel has arrows to a momentum and "
            "a velocity of the same shape.")
    assert figure_alt.describes(text) == ""


def test_a_figure_without_description_is_reported_and_write_fixes_only_metadata():
    nb = figure_alt.load(ROOT / "chapters" / "00_getting_started.ipynb")
    cell_id = next(iter(figure_alt.ALT["00_getting_started"]))
    stripped = copy.deepcopy(nb)
    for cell in stripped["cells"]:
        cell.get("metadata", {}).pop("mystnb", None)
    assert any(cell_id in line and "no alt text" in line
               for line in figure_alt.problems(stripped, "00_getting_started"))
    assert figure_alt.write(stripped, "00_getting_started")
    assert not figure_alt.problems(stripped, "00_getting_started")
    assert not figure_alt.write(stripped, "00_getting_started")  # idempotent
    for before, after in zip(nb["cells"], stripped["cells"]):
        assert before.get("outputs") == after.get("outputs")
        assert before["source"] == after["source"]
    # The notebook's text round-trips byte for byte (nbformat's layout).
    path = ROOT / "chapters" / "00_getting_started.ipynb"
    assert figure_alt.dump(nb) == path.read_text(encoding="utf-8")


def test_a_stale_row_is_reported():
    nb = figure_alt.load(ROOT / "chapters" / "00_getting_started.ipynb")
    for cell in nb["cells"]:
        cell["outputs"] = [] if cell["cell_type"] == "code" else cell.get("outputs")
    found = figure_alt.problems(json.loads(json.dumps(nb)), "00_getting_started")
    assert any("does not draw a figure" in line for line in found)


class _Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.alts = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img" and "/_images/" in "/" + attrs.get("src", "").lstrip("./"):
            self.alts.append(attrs.get("alt"))


def test_built_pages_carry_the_descriptions():
    if not (HTML / "chapters").is_dir():
        pytest.skip("the book is not built (make book)")
    expected = {text for rows in figure_alt.ALT.values() for text in rows.values()}
    seen = []
    for page in sorted((HTML / "chapters").glob("*.html")):
        parser = _Images()
        parser.feed(page.read_text(encoding="utf-8"))
        for alt in parser.alts:
            assert not figure_alt.describes(alt), f"{page.name}: {alt!r}"
            seen.append(alt)
    assert set(seen) == expected
