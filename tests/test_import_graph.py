"""The arrows of dependence point one way: checked over the import graph.

Every ``import`` counts, at the top of a module or inside a function (an
import inside a function is an arrow too, only a later one), so a loop cannot
hide in a function body; importing a package counts as importing what its
``__init__`` loads. The folders are the floors: chapter 1 draws
:func:`~kerasmini.book.codebase.floor_graph`, one box per folder.
"""

import ast

import pytest

from kerasmini.book.codebase import (
    find_cycles,
    floor_graph,
    floor_of,
    group_of,
    import_graph,
    imports_inside_functions,
    list_modules,
)

GRAPH = import_graph()
FLOORS = floor_graph()


def test_the_only_import_loop_is_model_and_functional():
    # Keras's own pair: Model(inputs, outputs) returns a Functional, and
    # Functional subclasses Model (Keras 2 and 3 have the same loop)
    assert find_cycles(GRAPH) == [["kerasmini.models.functional",
                                   "kerasmini.models.model"]]


def test_the_folders_form_no_loop():
    # chapter 1's drawing of floors: every arrow between folders points one way
    assert find_cycles(FLOORS) == []


def test_the_floors_are_the_folders():
    assert floor_of("kerasmini.engine.base_layer") == "engine"
    assert floor_of("kerasmini.trainers.data_adapters.array_data_adapter") == "trainers"
    assert set(FLOORS) == {module.split(".")[1] for module in GRAPH}


def test_fewer_than_ten_imports_inside_functions():
    inside = imports_inside_functions()
    assert len(inside) < 10, inside


def test_imports_inside_functions_are_optional_libraries_or_the_model_pair():
    allowed = {"pygments", "a11y_pygments", "sklearn", "h5py", "graphviz",
               "matplotlib"}
    for module, target in imports_inside_functions():
        top = target.split(".")[0]
        pair = (module, target) == ("kerasmini.models.model",
                                    "kerasmini.models.functional")
        assert top in allowed or pair, (module, target)


def _floors_below(*floors):
    return {"tree", "api_export", *floors}


@pytest.mark.parametrize("floor, allowed", [
    ("backend", _floors_below()),
    # keras.ops stands on the backend alone: the losses and activations are
    # built on it, not the other way round (as in Keras 3)
    ("ops", _floors_below("backend")),
    # the archive walks objects by their _obj_type(), so it imports no class
    # of layer, model, optimizer or seed generator
    ("saving", _floors_below("backend", "ops")),
    ("engine", _floors_below("backend", "ops", "saving", "random", "initializers",
                             "regularizers", "constraints", "dtype_policies")),
    # the policies name dtypes and cast: Keras 3's keras/src/dtype_policies/
    ("dtype_policies", _floors_below("backend", "ops", "saving")),
    ("trainers", _floors_below("backend", "ops", "saving", "losses", "metrics",
                               "optimizers", "callbacks")),
])
def test_a_floor_imports_only_the_floors_below_it(floor, allowed):
    assert FLOORS[floor] <= allowed, (floor, FLOORS[floor] - allowed)


def test_nothing_but_the_book_imports_the_book():
    for module, targets in GRAPH.items():
        if group_of(module) != "book":
            assert not {t for t in targets if group_of(t) == "book"}, module


def _names_bound_to(name, path):
    """``(module imported, alias)`` for every import that binds ``name``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    yield f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name.split(".")[0]) == name:
                    yield alias.name


@pytest.mark.parametrize("module", sorted(m for m in list_modules()
                                          if group_of(m) != "backend"))
def test_ops_is_keras_ops_everywhere_outside_the_backend(module):
    # one `ops`: the name means kerasmini.ops, as `ops` means keras.ops in Keras
    bound = set(_names_bound_to("ops", list_modules()[module]))
    assert bound <= {"kerasmini.ops"}, (module, bound)
