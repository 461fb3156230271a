"""Checks of chapter 1's exercises (the map of the codebase)."""

import os
import random
import sys

import kerasmini
from kerasmini.api_export import get_symbol_from_name

from ._support import exercise, expect, fail

# Where the repository starts: the folder that holds the kerasmini package.
_REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(kerasmini.__file__)))


def _defining_file(obj):
    """The repository path of the module that defines ``obj``: its
    ``__module__``'s file, found without ``inspect``."""
    module = sys.modules[obj.__module__]
    path = os.path.relpath(os.path.abspath(module.__file__), _REPOSITORY)
    return path.replace(os.sep, "/")


def _public(name):
    """The object at the public dotted ``name``, reached attribute by attribute."""
    obj = kerasmini
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


@exercise("ch01-where-defined", "where_defined")
def check_where_defined(where_defined):
    names = ["kerasmini.layers.Dense", "kerasmini.Model", "kerasmini.layers.Input",
             "kerasmini.Variable", "kerasmini.optimizers.Adam",
             "kerasmini.layers.Conv2D", "kerasmini.saving.load_model",
             "kerasmini.callbacks.EarlyStopping"]
    for name in names:
        public = _public(name)  # loads a lazy name, so the registry has it
        expect(get_symbol_from_name(name) is public, f"{name} is not registered")
        expected = _defining_file(public)
        got = where_defined(name)
        expect(got is not None, f"where_defined({name!r}) returned None: return "
               "the path as a string")
        got = str(got).replace(os.sep, "/")
        if os.path.isabs(got) and got.endswith(expected):
            fail(f"where_defined({name!r}) returned the absolute path {got!r}: "
                 "give it relative to the repository (relative_path)")
        exported_in = name.rsplit(".", 1)[0].replace(".", "/")
        if got != expected and got in (exported_in + ".py",
                                       exported_in + "/__init__.py"):
            fail(f"where_defined({name!r}) returned {got!r}, where the name is "
                 f"exported; expected {expected!r}, where the object is defined: "
                 "look the object up in the registry, then ask inspect for its file")
        expect(got == expected, f"where_defined({name!r}) should be {expected!r}, "
               f"got {got!r}")


@exercise("ch01-module-imports", "kerasmini_imports")
def check_module_imports(kerasmini_imports):
    rng = random.Random(1)
    modules = ["kerasmini.backend", "kerasmini.engine.node", "kerasmini.layers.core",
               "kerasmini.saving.serialization", "kerasmini.ops.numpy",
               "kerasmini.utils.plot", "kerasmini.losses"]
    rng.shuffle(modules)
    top, inner = modules[:4], modules[4]
    source = "\n".join([
        '"""A module."""',
        "import numpy as np",
        f"import {top[0]}",
        f"from {top[1]} import first, second",
        f"from {top[1]} import third as again",
        f"import {top[2]} as short",
        "from . import sibling",
        f"from {top[3]} import name",
        "import os, kerasmini.tree",
        "",
        "",
        "def build():",
        f"    from {inner} import late",
        "    return late",
        "",
        "",
        "class Holder:",
        "    def method(self):",
        f"        import {modules[5]}",
        "",
    ])
    expected = sorted(set(top) | {"kerasmini.tree"})
    got = kerasmini_imports(source)
    expect(got is not None, "kerasmini_imports returned None: return a sorted list")
    got = list(got)
    for late in (inner, modules[5]):
        expect(late not in got, f"{late} is imported inside a function: leave it "
               "out (look only at the module's own top-level statements)")
    expect("numpy" not in got and "os" not in got,
           f"only kerasmini modules, not numpy or os; got {got}")
    expect(not any(name.endswith((".first", ".second", ".third")) for name in got),
           f"{got}: for `from M import name` the module is M, not M.name")
    expect(len(got) == len(set(got)), f"{got}: list each module once")
    missing = sorted(set(expected) - set(got))
    expect(not missing, f"missing {missing}: `import a, b` imports two modules, and "
           "`import M as short` is still M")
    expect(got == expected, f"expected {expected}, got {got}" +
           (": sort the list" if sorted(got) == expected else ""))
    expect(list(kerasmini_imports("import numpy\n")) == [],
           "a file that imports no kerasmini module gives []")


@exercise("ch01-wrong-way", "wrong_way")
def check_wrong_way(wrong_way):
    rng = random.Random(2)
    floors = ["utils", "backend", "engine", "layers", "models", "saving"]
    order = floors[:]
    rng.shuffle(order)  # not alphabetical: the rank is the list's order
    rank = {name: position for position, name in enumerate(order)}
    arrows = [(a, b) for a in floors for b in floors if rng.random() < 0.4]
    arrows += [(order[0], order[0])]  # a floor may use itself
    rng.shuffle(arrows)
    expected = sorted((a, b) for a, b in arrows if rank[a] < rank[b])
    got = wrong_way(arrows, order)
    expect(got is not None, "wrong_way returned None: return a sorted list of pairs")
    got = [tuple(pair) for pair in got]
    low, high = order[0], order[-1]
    expect((high, low) not in got or (high, low) in expected,
           f"{high} -> {low} is the right direction: {high} is ranked above {low}, "
           "so it may use it")
    expect((order[0], order[0]) not in got, "an arrow from a floor to itself is not "
           "wrong: only a lower floor using a higher one")
    expect(sorted(got) == expected, f"expected {expected}, got {got}")
    expect(got == expected, "the pairs are right but not sorted")
    expect(list(wrong_way([], order)) == [], "no arrows: nothing points the wrong way")
