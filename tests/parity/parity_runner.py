"""Run the parity scenarios with one ``keras`` module and compare two runs.

In the real-Keras virtualenv, ``python parity_runner.py OUT.json`` imports the
real ``keras`` once, runs every scenario and writes ``{name: result}``; the
pytest side runs the same scenarios with kerasmini and calls :func:`compare`.
A result is ``{"observations": {...}}`` or ``{"error": "TypeName: message"}``.

>>> compare({"a": [1.0, 2.0], "b": "x"}, {"a": [1.0, 2.0000001], "b": "y"}, 1e-6)
["b: kerasmini 'x' != keras 'y'"]
"""

import json
import math
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import parity_scenarios  # found next to this file in the subprocess


def jsonable(value):
    """``value`` as JSON would give it back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, default=str))


def run_one(keras, name):
    try:
        observations = parity_scenarios.SCENARIOS[name](keras)
    except Exception as error:  # noqa: BLE001 (reported as an error result)
        detail = traceback.format_exception_only(type(error), error)[-1].strip()
        return {"error": detail[:500]}
    return {"observations": jsonable(observations)}


def run_all(keras):
    return {name: run_one(keras, name) for name in parity_scenarios.SCENARIOS}


def _differences(mine, theirs, tol, where):
    if isinstance(mine, bool) or isinstance(theirs, bool):
        same = mine is theirs
    elif isinstance(mine, (int, float)) and isinstance(theirs, (int, float)):
        same = math.isclose(mine, theirs, rel_tol=tol, abs_tol=tol)
    elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        return [d for i, (a, b) in enumerate(zip(mine, theirs))
                for d in _differences(a, b, tol, f"{where}[{i}]")]
    elif isinstance(mine, dict) and isinstance(theirs, dict) and mine.keys() == theirs.keys():
        return [d for key in mine
                for d in _differences(mine[key], theirs[key], tol, f"{where}[{key!r}]")]
    else:
        same = mine == theirs
    return [] if same else [f"{where}: kerasmini {mine!r} != keras {theirs!r}"]


def compare(mine, theirs, tol):
    """The observations that differ, one line each (floats equal within ``tol``)."""
    found = []
    for key in sorted(set(mine) | set(theirs)):
        if key not in mine or key not in theirs:
            found.append(f"{key}: observed by only one side")
        else:
            found.extend(_differences(mine[key], theirs[key], tol, key))
    return found


if __name__ == "__main__":
    import keras

    Path(sys.argv[1]).write_text(json.dumps(run_all(keras), indent=1))
