"""Every scenario of the book, run by kerasmini here and by real Keras 3.15.1.

Real Keras runs once, in a subprocess of the interpreter named by
``KERASMINI_REAL_KERAS_PYTHON`` (``make parity`` builds that virtualenv and
sets it); without it every test here is skipped. The figures go to
``_build/parity/results.json`` for the book to display.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kerasmini as keras

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import parity_runner  # noqa: E402 (found through the path set above)
import parity_scenarios as scenarios  # noqa: E402

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
pytestmark = pytest.mark.skipif(
    not KERAS_PYTHON, reason="KERASMINI_REAL_KERAS_PYTHON is unset (run `make parity`)")
RESULTS = Path(__file__).parents[2] / "_build" / "parity" / "results.json"
RECORD = {}


@pytest.fixture(scope="module")
def cross_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("parity") / "kerasmini_model.keras"
    scenarios.write_cross_loading_file(keras, str(path))
    os.environ["KERASMINI_PARITY_FILE"] = str(path)
    return path


@pytest.fixture(scope="module")
def keras_results(cross_file, tmp_path_factory):
    """All scenarios run by real Keras: one subprocess pays its import once."""
    out = tmp_path_factory.mktemp("parity") / "keras.json"
    env = dict(os.environ, KERAS_BACKEND="torch", KERASMINI_PARITY_FILE=str(cross_file))
    result = subprocess.run([KERAS_PYTHON, str(HERE / "parity_runner.py"), str(out)],
                            capture_output=True, text=True, env=env, timeout=600,
                            check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    yield json.loads(out.read_text())
    write_summary()


def write_summary():
    """Per-chapter counts, e.g. for a chapter's "verified against Keras" line."""
    chapters = {}
    for name, outcome in sorted(RECORD.items()):
        entry = chapters.setdefault(str(scenarios.CHAPTER[name]), {
            "scenarios": 0, "compared": 0, "equal": 0, "observations": 0,
            "known_differences": 0, "known": {}, "xfail": [], "cells": {}})
        entry["scenarios"] += 1
        entry["compared"] += outcome["compared"]
        entry["equal"] += outcome["equal"]
        entry["observations"] += outcome["observations"]
        entry["known_differences"] += outcome["known"]
        entry["known"].update(scenarios.KNOWN[name])
        for cell in scenarios.CELLS[name]:
            entry["cells"].setdefault(cell, []).append(name)
        if name in scenarios.XFAIL:
            entry["xfail"].append(name)
    total = {key: sum(c[key] for c in chapters.values())
             for key in ("scenarios", "compared", "equal", "observations",
                         "known_differences")}
    total["xfail"] = sum(len(c["xfail"]) for c in chapters.values())
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"keras_version": "3.15.1", "backend": "torch",
                                   "total": total, "chapters": chapters,
                                   "scenarios": RECORD}, indent=1))


def marks(name):
    if name in scenarios.XFAIL:
        return [pytest.mark.xfail(strict=True, reason=scenarios.XFAIL[name])]
    return []


@pytest.mark.parametrize("name", [pytest.param(n, marks=marks(n))
                                  for n in scenarios.SCENARIOS])
def test_same_observations_as_keras(name, keras_results):
    mine = parity_runner.run_one(keras, name)
    theirs = keras_results[name]
    RECORD[name] = {"compared": 1, "equal": 0, "observations": 0, "known": 0,
                    "differences": []}
    for side, result in (("real Keras", theirs), ("kerasmini", mine)):
        if "error" in result:
            RECORD[name]["differences"] = [f"{side} failed: {result['error']}"]
            pytest.fail(RECORD[name]["differences"][0])
    known = scenarios.KNOWN[name]
    mine, theirs = mine["observations"], theirs["observations"]
    for key in known:  # documented differences: they must still differ
        assert key in mine and key in theirs, f"known difference {key!r} not observed"
        assert mine.pop(key) != theirs.pop(key), f"{key!r} is no longer different"
    differences = parity_runner.compare(mine, theirs, scenarios.TOLERANCE[name])
    RECORD[name].update(observations=len(mine), known=len(known),
                        differences=differences, equal=int(not differences))
    assert not differences, "\n".join(differences)
