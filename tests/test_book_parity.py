"""Every chapter with parity scenarios shows the line they produce."""

import json
from pathlib import Path

import pytest

from kerasmini.book.parity import RESULTS, verified

CHAPTERS = sorted(Path(__file__).parents[1].glob("chapters/[0-9][0-9]_*.ipynb"))
RECORDED = json.loads(RESULTS.read_text())["chapters"]


def test_every_recorded_chapter_exists():
    numbers = {str(int(path.name[:2])) for path in CHAPTERS}
    assert set(RECORDED) <= numbers, sorted(set(RECORDED) - numbers)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_shows_its_verified_line(path):
    chapter = int(path.name[:2])
    if str(chapter) not in RECORDED:
        pytest.skip(f"no parity scenarios for chapter {chapter}")
    cells = [c for c in json.loads(path.read_text())["cells"]
             if "parity-verified" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, "run `python tools/parity_summary.py --cells` on it"
    (cell,) = cells
    assert f"verified({chapter})" in "".join(cell["source"])
    shown = "".join(cell["outputs"][0]["data"]["text/plain"])
    assert shown == repr(verified(chapter)), "re-run the chapter (make notebooks)"


def test_verified_refuses_a_chapter_without_scenarios():
    with pytest.raises(ValueError, match="No parity scenarios are recorded for chapter 99"):
        verified(99)


def registry():
    """The parity scenarios' registry (tests/parity imports neither library)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "parity"))
    import parity_scenarios

    return parity_scenarios


def test_the_cells_a_scenario_names_are_code_cells_of_its_chapter():
    scenarios = registry()
    notebooks = {int(path.name[:2]): path for path in CHAPTERS}
    problems = []
    for name, cells in scenarios.CELLS.items():
        chapter = scenarios.CHAPTER[name]
        nb = json.loads(notebooks[chapter].read_text())
        code = {c.get("id") for c in nb["cells"] if c["cell_type"] == "code"}
        problems += [f"{name}: no code cell {cell!r} in {notebooks[chapter].name}"
                     for cell in cells if cell not in code]
    assert not problems, "\n".join(problems)


def test_the_recorded_cells_are_the_registry_s():
    scenarios = registry()
    expected = {}
    for name, cells in scenarios.CELLS.items():
        entry = expected.setdefault(str(scenarios.CHAPTER[name]), {})
        for cell in cells:
            entry.setdefault(cell, []).append(name)
    recorded = {chapter: {cell: sorted(names) for cell, names in
                          entry.get("cells", {}).items()}
                for chapter, entry in RECORDED.items()}
    expected = {chapter: {cell: sorted(names) for cell, names in
                          expected.get(chapter, {}).items()} for chapter in recorded}
    assert recorded == expected, (
        "kerasmini/book/parity_results.json is stale: run `make parity`, then "
        "`python tools/parity_summary.py --write`")


def test_most_scenarios_name_the_cells_they_check():
    scenarios = registry()
    without = [name for name, cells in scenarios.CELLS.items() if not cells]
    # a scenario may check what the prose says rather than a cell; keep it rare
    assert len(without) <= len(scenarios.CELLS) // 8, without
