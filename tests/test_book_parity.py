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
