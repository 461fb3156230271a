"""Run Keras's own unit tests for the classes the book teaches against kerasmini.

Run it with the Python of the real-Keras virtualenv (``make parity`` does):
that interpreter has Keras's test files (they ship in the wheel), ``pytest``
and ``absl-py``. The files are copied into a temporary directory next to a
small ``keras`` package, the shim, that answers every ``keras.src.*`` import
with the kerasmini module playing that part (``keras.src.models.sequential``
is ``kerasmini.models.sequential``, ...). A name kerasmini lacks becomes a
placeholder that raises ``NotImplementedError`` when used, so one missing
feature fails its own tests, not the whole file. Nothing here is a gate: the
script prints passed/failed/errors/skipped per file and exits 0.

    .venv-keras/bin/python tools/keras_unit_tests.py [--keras] [--json OUT]
        [--family losses metrics layers ops] [--per-file]

``--keras`` also runs the same files against real Keras, for the baseline.
Without ``--family`` the files of the taught classes run (``FILES``); with
it, every ``*_test.py`` under ``keras/src/<family>/`` (``FAMILIES``), and the
table gives one line per family (``--per-file`` adds the files).
"""

import argparse
import collections
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Keras's tests for the classes chapters 2-8 teach (paths under keras/src).
FILES = [
    "backend/common/name_scope_test.py",
    "utils/naming_test.py", "layers/layer_test.py", "layers/core/dense_test.py",
    "layers/core/input_layer_test.py",
    "ops/node_test.py", "models/functional_test.py", "models/sequential_test.py",
    "models/model_test.py",
]

# Whole families of Keras's tests, for `--family`: every *_test.py below
# keras/src/<family>/ (the layers family includes the taught layer_test.py).
FAMILIES = ("losses", "metrics", "layers", "ops")

# Left out: backend/common/keras_tensor_test.py imports TensorFlow, and most of
# backend/common/variables_test.py compares dtypes with JAX (not installed).

# Which kerasmini modules answer for a keras.src module (the first that has the
# attribute wins); a module not listed maps to the same path under kerasmini.
SOURCES = {
    "": ["kerasmini"],
    "layers": ["kerasmini.layers", "kerasmini"],
    "layers.layer": ["kerasmini.engine.base_layer"],
    "layers.input_spec": ["kerasmini.engine.input_spec"],
    "layers.core.input_layer": ["kerasmini.engine.input_layer"],
    "models": ["kerasmini.models", "kerasmini"],
    "models.model": ["kerasmini.models.model", "kerasmini.models"],
    "trainers.trainer": ["kerasmini.trainers.trainer"],
    "models.functional": ["kerasmini.models.functional"],
    "models.sequential": ["kerasmini.models.sequential"],
    "ops": ["kerasmini.ops"],
    "ops.node": ["kerasmini.ops.node"],
    "ops.numpy": ["kerasmini.ops.numpy", "kerasmini.ops"],
    "ops.nn": ["kerasmini.ops.nn", "kerasmini.ops"],
    "ops.core": ["kerasmini.ops.core", "kerasmini.ops"],
    "ops.math": ["kerasmini.ops"], "ops.linalg": ["kerasmini.ops"],
    "ops.image": ["kerasmini.ops"],
    "losses": ["kerasmini.losses"], "losses.loss": ["kerasmini.losses"],
    "losses.losses": ["kerasmini.losses"],
    "backend.config": ["kerasmini.backend.config"],
    "backend.common": ["kerasmini.backend.config", "kerasmini.backend"],
    "backend": ["kerasmini.backend", "keras._extras"],
    "backend.numpy": ["kerasmini.backend.numpy", "kerasmini.backend.nn",
                      "kerasmini.backend.numpy_extra"],
    "backend.common.keras_tensor": ["kerasmini.backend.keras_tensor"],
    "backend.common.variables": ["kerasmini.backend.variables",
                                 "kerasmini.backend.config"],
    "backend.common.name_scope": ["kerasmini.backend.naming"],
    "utils.naming": ["kerasmini.backend.naming"],
    "testing": ["keras._testing"], "testing.test_case": ["keras._testing"],
    "testing.test_utils": ["keras._testing"],
}

SHIM_INIT = '''
"""A stand-in ``keras`` package: every ``keras.*`` module is a view of kerasmini."""
import importlib
import importlib.abc
import importlib.util
import sys
import types

SOURCES = {sources!r}
SUBMODULES = {submodules!r}  # the module names of the real keras/src tree


class MissingBase:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"{{type(self).__name__}}: no kerasmini equivalent")


class Missing:
    """A name kerasmini does not have: fails when used, not when imported."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Missing(f"{{self._name}}.{{attr}}")

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{{self._name}} has no kerasmini equivalent")

    def __mro_entries__(self, bases):
        return (MissingBase,)


class View(types.ModuleType):
    def __init__(self, name, sources):
        super().__init__(name)
        self.__path__ = []
        self._sources = sources

    def __getattr__(self, attr):
        if attr.startswith("__") or attr == "_sources":
            raise AttributeError(attr)
        for module in self._sources:
            if hasattr(module, attr):
                return getattr(module, attr)
        if f"{{self.__name__}}.{{attr}}" in SUBMODULES:  # `from keras.src import x`
            return importlib.import_module(f"{{self.__name__}}.{{attr}}")
        return Missing(f"{{self.__name__}}.{{attr}}")


def _modules(name):
    rel = name.split(".", 2)[2] if name.count(".") >= 2 else ""
    names = SOURCES.get(rel, ["kerasmini." + rel] if rel else ["kerasmini"])
    found = []
    for target in names:
        try:
            found.append(importlib.import_module(target))
        except ImportError:
            pass
    return found


class Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return View(spec.name, _modules(spec.name))

    def exec_module(self, module):
        pass


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith("keras.") and not name.startswith("keras._"):
            return importlib.util.spec_from_loader(name, Loader(), is_package=True)
        return None


sys.meta_path.insert(0, Finder())
src = importlib.import_module("keras.src")
_view = View("keras", [src])


def __getattr__(attr):
    return getattr(src, attr)
'''

EXTRAS = '''
"""Backend functions Keras's tests call that kerasmini names differently."""
import numpy as np
import kerasmini


def backend():
    return "numpy"


KerasTensor = kerasmini.KerasTensor
# NumPy arrays only: the tests of sparse and ragged inputs skip themselves
SUPPORTS_SPARSE_TENSORS = SUPPORTS_RAGGED_TENSORS = False
convert_to_numpy = np.asarray
is_tensor = lambda x: isinstance(x, np.ndarray)  # noqa: E731
'''

TESTING = '''
"""A minimal ``keras.src.testing.TestCase`` for kerasmini."""
import itertools
import shutil
import tempfile
import unittest

import numpy as np
from absl.testing import parameterized

import kerasmini


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


class TestCase(parameterized.TestCase):
    def setUp(self):
        super().setUp()
        kerasmini.backend.clear_session()
        kerasmini.utils.set_random_seed(0)

    def get_temp_dir(self):
        path = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, path, ignore_errors=True)
        return path

    def assertAllClose(self, x1, x2, atol=1e-6, rtol=1e-6, msg=None, **tpu):
        # tpu_atol and tpu_rtol are for JAX on a TPU: not this machine
        np.testing.assert_allclose(_np(x1), _np(x2), atol=atol, rtol=rtol,
                                   err_msg=msg or "")

    def assertNotAllClose(self, x1, x2, atol=1e-6, rtol=1e-6, msg=None, **tpu):
        self.assertFalse(np.allclose(_np(x1), _np(x2), atol=atol, rtol=rtol), msg)

    def assertAllEqual(self, x1, x2, msg=None):
        np.testing.assert_array_equal(_np(x1), _np(x2), err_msg=msg or "")

    def assertAlmostEqual(self, x1, x2, decimal=3, msg=None):
        np.testing.assert_almost_equal(_np(x1), _np(x2), decimal=decimal)

    def assertDType(self, x, dtype, msg=None):
        self.assertEqual(str(_np(x).dtype), str(dtype), msg)

    def run_class_serialization_test(self, instance, custom_objects=None):
        # The round trip through get_config/from_config, as the book's chapters
        # on saving teach it (Keras's own version also checks private state).
        config = instance.get_config()
        revived = type(instance).from_config(config)
        self.assertEqual(config, revived.get_config())
        return revived

    def run_layer_test(self, *args, **kwargs):
        raise unittest.SkipTest("Keras's generic run_layer_test is not shimmed")


def named_product(*args, **kwargs):
    """Parameter combinations, each a dict with a ``testcase_name``."""
    groups = [list(a) for a in args] + [
        [{"testcase_name": str(v), k: v} for v in values]
        for k, values in kwargs.items()]
    result = []
    for combo in itertools.product(*groups):
        merged, names = {}, []
        for part in combo:
            names.append(part.get("testcase_name", ""))
            merged.update({k: v for k, v in part.items() if k != "testcase_name"})
        merged["testcase_name"] = "_".join(n for n in names if n)
        result.append(merged)
    return result


def uses_gpu():
    return False


jax_uses_gpu = tensorflow_uses_gpu = torch_uses_gpu = jax_uses_tpu = uses_gpu
test_case = test_utils = __import__(__name__)
'''


CONFTEST = '''
import os

import pytest


def skip_if_backend(given_backend, reason):
    return pytest.mark.skipif(os.environ["PARITY_BACKEND"] == given_backend,
                              reason=reason)
'''


def keras_source():
    spec = importlib.util.find_spec("keras")
    if spec is None:
        sys.exit("keras is not importable: run this with the real-Keras venv's Python")
    return Path(spec.origin).parent / "src"


def submodules(src):
    """``{"keras.src.layers", "keras.src.layers.core.dense", ...}``."""
    names = set()
    for path in src.rglob("*.py"):
        parts = ("keras",) + path.relative_to(src.parent).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(names)


def select(families=None):
    """The test files (paths under keras/src) to run."""
    if not families:
        return list(FILES)
    src = keras_source()
    return [path.relative_to(src).as_posix() for family in families
            for path in sorted((src / family).rglob("*_test.py"))]


def family_of(rel):
    return rel.split("/", 1)[0]


def prepare(tmp, shim, files):
    cases = tmp / "cases"
    cases.mkdir()
    src = keras_source()
    for rel in files:
        target = cases / rel.replace("/", "__")
        shutil.copy(src / rel, target)
    (tmp / "pytest.ini").write_text("[pytest]\n")
    support = tmp / "support"  # Keras's repository conftest, which the wheel lacks
    support.mkdir()
    (support / "conftest.py").write_text(CONFTEST)
    if shim:
        package = tmp / "shim" / "keras"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(SHIM_INIT.format(
            sources=SOURCES, submodules=submodules(src)))
        (package / "_extras.py").write_text(EXTRAS)
        (package / "_testing.py").write_text(textwrap.dedent(TESTING).replace(
            "__import__(__name__)", "__import__('sys').modules[__name__]"))
    return cases


def run(shim, files, timeout=None):
    """``{file: {"passed": n, ...}}`` and a Counter of the failure reasons."""
    timeout = timeout or max(900, 60 * len(files))
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        cases = prepare(tmp, shim, files)
        env = dict(os.environ, KERAS_BACKEND="torch",
                   PARITY_BACKEND="numpy" if shim else "torch",
                   PYTHONPATH=str(tmp / "support"))
        if shim:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(tmp / "shim"), str(ROOT), str(tmp / "support")])
        junit = tmp / "junit.xml"
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "--import-mode=importlib", "-c", str(tmp / "pytest.ini"),
                        "--rootdir", str(tmp), f"--junitxml={junit}", "-W", "ignore",
                                 "--continue-on-collection-errors",
                                 *os.environ.get("KERAS_UNIT_TESTS_ARGS", "").split(),
                        str(cases)], cwd=tmp, env=env, capture_output=True, text=True,
                       timeout=timeout, check=False)
        if os.environ.get("KERAS_UNIT_TESTS_DEBUG"):
            print(result.stdout, result.stderr[-3000:])
        return count(junit, files)


def count(junit, files):
    counts = {rel: {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
              for rel in files}
    by_stem = {Path(rel.replace("/", "__")).stem: rel for rel in files}
    reasons = collections.Counter()
    for case in ET.parse(junit).iter("testcase"):
        parts = (case.get("classname", "") + "." + case.get("name", "")).split(".")
        rel = next((by_stem[p] for p in parts if p in by_stem), None)
        if rel is None:
            continue
        if case.find("error") is not None:
            counts[rel]["errors"] += 1
            reasons[reason(case.find("error"))] += 1
        elif case.find("failure") is not None:
            counts[rel]["failed"] += 1
            reasons[reason(case.find("failure"))] += 1
        elif case.find("skipped") is not None:
            counts[rel]["skipped"] += 1
        else:
            counts[rel]["passed"] += 1
    return counts, reasons


def reason(element):
    """The first line of a failure's message, without memory addresses."""
    text = (element.get("message") or element.text or "").strip().splitlines()
    return re.sub(r" at 0x[0-9a-f]+", "", text[0] if text else "?")[:120]


KINDS = ("passed", "failed", "errors", "skipped")


def by_family(counts):
    """The per-file counts summed per family (``layers``, ``ops``, ...)."""
    families = {}
    for rel, row in counts.items():
        total = families.setdefault(family_of(rel), dict.fromkeys(KINDS, 0))
        for k in KINDS:
            total[k] += row[k]
    return families


def table(results, rows):
    columns = list(results)
    lines = [f"{'keras/src/...':<46}" + "".join(f"{c:>26}" for c in columns)]
    lines.append(" " * 46 + "".join(f"{'pass/fail/err/skip':>26}" for _ in columns))
    for rel in rows + ["total"]:
        cells = []
        for c in columns:
            row = (results[c][rel] if rel != "total" else
                   {k: sum(r[k] for key, r in results[c].items() if key in rows)
                    for k in KINDS})
            cells.append(f"{row['passed']}/{row['failed']}/{row['errors']}/"
                         f"{row['skipped']}")
        lines.append(f"{rel:<46}" + "".join(f"{cell:>26}" for cell in cells))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keras", action="store_true",
                        help="also run the files against real Keras (baseline)")
    parser.add_argument("--json", help="write the counts to this file")
    parser.add_argument("--reasons", type=int, default=12,
                        help="how many failure reasons to list")
    parser.add_argument("--family", nargs="+", choices=FAMILIES,
                        help="run every test file of these families of keras/src")
    parser.add_argument("--per-file", action="store_true",
                        help="with --family: one line per file, not per family")
    args = parser.parse_args(argv)
    files = select(args.family)
    results, reasons = {}, {}
    results["kerasmini (shim)"], reasons["kerasmini (shim)"] = run(True, files)
    if args.keras:
        results["keras 3.15.1 (torch)"], reasons["keras"] = run(False, files)
    if args.family and not args.per_file:
        print(table({c: by_family(counts) for c, counts in results.items()},
                    list(args.family)))
    else:
        print(table(results, files))
    print("\nkerasmini's most frequent failure reasons:")
    for text, n in reasons["kerasmini (shim)"].most_common(args.reasons):
        print(f"{n:5}  {text}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(
            {"counts": results,
             "families": {c: by_family(counts) for c, counts in results.items()},
             "reasons": {k: dict(v.most_common()) for k, v in reasons.items()}},
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
