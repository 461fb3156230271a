"""Run the project's guide tests (tests/test_guide_*.py) against real Keras.

The guide tests are written for ``import kerasmini as keras``. Run by the Python
of the real-Keras virtualenv (``make parity`` does), this script loads a small
pytest plugin that makes ``kerasmini`` (and ``kerasmini.layers``, ``.ops``, ...)
name real Keras's modules, so the very same test functions run on Keras 3.15.1
(torch backend). Keras has no 8x8 digits, so the plugin lends it kerasmini's
``datasets.digits`` (scikit-learn data). A test that fails there shows where the
guides' behaviour and kerasmini's part (or where a test leans on kerasmini-only
API, such as ``GradientTape``). Nothing here is a gate: it prints a table and
exits 0. The time is Keras training the guides' models (about 85 s of CPU):
with pytest-xdist in that venv (``make parity`` installs it) the modules are
shared among ``--workers`` processes (default: one per CPU, at most 4), each
module on one worker.

    .venv-keras/bin/python tools/guide_tests_on_keras.py [--json OUT] [--workers N]
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = textwrap.dedent('''
    """pytest plugin: ``kerasmini`` is real Keras for the guide tests."""
    import importlib.util
    import sys
    import types

    import keras

    SUBMODULES = ("activations", "backend", "callbacks", "constraints", "datasets",
                  "initializers", "layers", "losses", "metrics", "models", "ops",
                  "optimizers", "random", "regularizers", "saving", "utils")
    sys.modules["kerasmini"] = keras
    for name in SUBMODULES:
        sys.modules["kerasmini." + name] = getattr(keras, name)

    # kerasmini/datasets/digits.py needs only keras_export and scikit-learn
    api_export = types.ModuleType("kerasmini.api_export")
    api_export.keras_export = lambda *names: (lambda obj: obj)
    sys.modules["kerasmini.api_export"] = api_export
    spec = importlib.util.spec_from_file_location(
        "kerasmini.datasets.digits", {digits!r})
    digits = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(digits)
    keras.datasets.digits = digits
    sys.modules["kerasmini.datasets.digits"] = digits
''')


def workers_args(workers):
    """pytest-xdist's options for ``workers`` processes (none without xdist)."""
    if workers <= 1 or importlib.util.find_spec("xdist") is None:
        return []
    return ["-n", str(workers), "--dist", "loadfile"]


def run(files, workdir, workers=1):
    plugin = Path(workdir) / "kerasmini_as_keras.py"
    plugin.write_text(PLUGIN.format(digits=str(ROOT / "kerasmini/datasets/digits.py")))
    report = Path(workdir) / "report.xml"
    env = dict(os.environ, KERAS_BACKEND=os.environ.get("KERAS_BACKEND", "torch"),
               PYTHONPATH=str(workdir))
    subprocess.run([sys.executable, "-m", "pytest", "-p", "kerasmini_as_keras",
                    "-c", os.devnull, "--rootdir", str(ROOT), "-q",
                    "-p", "no:cacheprovider", f"--junitxml={report}",
                    *workers_args(workers), *map(str, files)], env=env, cwd=workdir, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")[-1] or "collection"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
                results.setdefault(module, {}).setdefault("why", []).append(
                    f"{case.get('name')}: {(child.get('message') or '')[:160]}")
            elif child.tag == "skipped":
                outcome = "skipped"
        counts = results.setdefault(module, {})
        counts[outcome] = counts.get(outcome, 0) + 1
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1),
                        help="pytest-xdist processes (1: all in this one)")
    args = parser.parse_args(argv)
    files = sorted((ROOT / "tests").glob("test_guide_*.py"))
    with tempfile.TemporaryDirectory() as workdir:
        results = run(files, workdir, args.workers)
    print(f"{'guide test module':40} {'passed':>7} {'failed':>7} {'skipped':>8}")
    for module, counts in sorted(results.items()):
        print(f"{module:40} {counts.get('passed', 0):7} {counts.get('failed', 0):7} "
              f"{counts.get('skipped', 0):8}")
    totals = {key: sum(c.get(key, 0) for c in results.values())
              for key in ("passed", "failed", "skipped")}
    print(f"{'all guide tests on real Keras':40} {totals['passed']:7} "
          f"{totals['failed']:7} {totals['skipped']:8}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"total": totals, "modules": results},
                                              indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
