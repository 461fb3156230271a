"""The arrows of dependence point one way: checked over the import graph.

Every ``import`` counts, at the top of a module or inside a function (an
import inside a function is an arrow too, only a later one), so a loop cannot
hide in a function body.
"""

import pytest

from kerasmini.book.codebase import (
    find_cycles,
    floor_graph,
    group_of,
    import_graph,
    imports_inside_functions,
)

GRAPH = import_graph()


def test_the_only_import_loop_is_model_and_functional():
    # Keras's own pair: Model(inputs, outputs) returns a Functional, and
    # Functional subclasses Model (Keras 2 and 3 have the same loop).
    assert find_cycles(GRAPH) == [["kerasmini.engine.functional",
                                   "kerasmini.engine.training"]]


def test_fewer_than_ten_imports_inside_functions():
    inside = imports_inside_functions()
    assert len(inside) < 10, inside


def test_imports_inside_functions_are_optional_libraries_or_the_model_pair():
    allowed = {"pygments", "a11y_pygments", "sklearn", "h5py", "graphviz",
               "matplotlib"}
    for module, target in imports_inside_functions():
        top = target.split(".")[0]
        pair = (module, target) == ("kerasmini.engine.training",
                                    "kerasmini.engine.functional")
        assert top in allowed or pair, (module, target)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if group_of(m) == "backend"))
def test_backend_imports_nothing_above_it(module):
    above = {t for t in GRAPH[module] if group_of(t) != "backend"}
    assert above <= {"kerasmini.tree", "kerasmini.api_export"}, (module, above)


def test_config_floor_of_saving_does_not_import_the_archive_floor_or_models():
    archive = {"kerasmini.saving.saving_lib", "kerasmini.saving.saving_api",
               "kerasmini.saving.stores", "kerasmini.saving.weight_budget"}
    for module in ("kerasmini.saving.serialization",
                   "kerasmini.saving.object_registration"):
        targets = GRAPH[module]
        assert not targets & archive, (module, targets & archive)
        engine = {t for t in targets if group_of(t) == "engine"}
        assert engine <= {"kerasmini.engine.keras_tensor"}, (module, engine)


def test_archive_floor_does_not_import_model_classes():
    # it walks models through `_obj_type()`, so Model can import saving_api
    for module in ("kerasmini.saving.saving_lib", "kerasmini.saving.saving_api"):
        assert not GRAPH[module] & {"kerasmini.engine.training",
                                    "kerasmini.engine.functional",
                                    "kerasmini.engine.sequential"}


def test_engine_does_not_import_layers_or_the_book():
    for module, targets in GRAPH.items():
        if group_of(module) == "engine":
            assert not {t for t in targets if group_of(t) in ("layers", "book")}, module


def test_nothing_but_the_book_imports_the_book():
    for module, targets in GRAPH.items():
        if group_of(module) != "book":
            assert not {t for t in targets if group_of(t) == "book"}, module


def test_the_floors_of_chapter_one_form_no_loop():
    # the drawing in chapter 1: every arrow between floors points one way
    assert find_cycles(floor_graph()) == []
