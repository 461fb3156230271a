"""The public API: every exported name imports from the path it claims,
``__all__`` lists resolve, and public objects carry runnable examples."""

import importlib
import inspect
import pkgutil
import re

import pytest

import kerasmini
from kerasmini import api_export
from kerasmini.api_export import REGISTERED_NAMES_TO_OBJS, keras_export


def _resolve(path):
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, attr, None)


def _all_modules():
    modules = [kerasmini]
    for info in pkgutil.walk_packages(kerasmini.__path__, "kerasmini."):
        modules.append(importlib.import_module(info.name))
    return modules


def test_every_registered_name_imports_from_claimed_path():
    _all_modules()  # import everything that registers names
    wrong = [path for path, obj in sorted(REGISTERED_NAMES_TO_OBJS.items())
             if _resolve(path) is not obj]
    assert wrong == [], f"not importable from the path they claim: {wrong}"


@pytest.mark.parametrize("path, expected", [
    ("kerasmini.layers.Dense", "Dense"), ("kerasmini.Layer", "Layer"),
    ("kerasmini.layers.Layer", "Layer"), ("kerasmini.InputSpec", "InputSpec"),
    ("kerasmini.layers.InputSpec", "InputSpec"), ("kerasmini.KerasTensor", "KerasTensor"),
    ("kerasmini.Module", "Module"), ("kerasmini.Variable", "Variable"),
    ("kerasmini.Model", "Model"), ("kerasmini.models.Sequential", "Sequential"),
    ("kerasmini.Input", "Input"), ("kerasmini.layers.Input", "Input"),
])
def test_core_symbols_registered(path, expected):
    obj = REGISTERED_NAMES_TO_OBJS[path]
    assert obj.__name__ == expected and _resolve(path) is obj


@pytest.mark.parametrize("module_name", ["kerasmini", "kerasmini.layers", "kerasmini.models",
                                         "kerasmini.backend"])
def test_dunder_all_names_resolve(module_name):
    module = importlib.import_module(module_name)
    assert [n for n in module.__all__ if not hasattr(module, n)] == []


def test_top_level_all_is_explicit_and_sorted_unique():
    assert len(set(kerasmini.__all__)) == len(kerasmini.__all__)


def test_keras_export_records_paths_and_canonical_name():
    @keras_export(["kerasmini.demo_test.thing", "kerasmini.thing_alias"])
    def thing():
        pass

    assert thing._keras_api_names == ("kerasmini.demo_test.thing", "kerasmini.thing_alias")
    assert api_export.get_name_from_symbol(thing) == "kerasmini.demo_test.thing"
    assert api_export.get_symbol_from_name("kerasmini.thing_alias") is thing


def test_keras_export_rejects_paths_outside_package():
    with pytest.raises(ValueError, match="must start with 'kerasmini.'"):
        keras_export("keras.layers.Dense")


def test_keras_export_rejects_name_taken_by_other_symbol():
    @keras_export("kerasmini.demo_test.taken")
    def first():
        pass

    def second():
        pass

    with pytest.raises(ValueError, match="already belongs to"):
        keras_export("kerasmini.demo_test.taken")(second)


def _public_objects():
    found = {}
    for module in _all_modules():
        for name, obj in vars(module).items():
            if name.startswith("_") or not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if getattr(obj, "__module__", None) != module.__name__ or obj.__name__ != name:
                continue
            found[f"{module.__name__}.{name}"] = obj
    return found


def _exercise_check(path):
    # each chapter's check_* functions are tried by tests/test_exercise_checks.py
    # on their solution, their stub and some 200 wrong answers
    module, _, name = path.rpartition(".")
    return re.fullmatch(r"kerasmini\.book\.exercises\.ch\d\d", module) and \
        name.startswith("check_")


def test_every_public_class_and_function_has_a_doctest_example():
    offenders = sorted(path for path, obj in _public_objects().items()
                       if ">>>" not in (obj.__doc__ or "") and not _exercise_check(path))
    assert offenders == [], "missing a >>> example:\n" + "\n".join(offenders)
