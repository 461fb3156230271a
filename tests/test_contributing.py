"""CONTRIBUTING.md stays true: every file it names exists, every helper it
names is defined, and its list of floors is the order of the import graph."""

import re
from pathlib import Path

import pytest

from kerasmini.book.codebase import floor_graph

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
SOURCES = "\n".join(p.read_text(encoding="utf-8") for folder in ("kerasmini", "tests",
                                                                  "tools")
                    for p in (ROOT / folder).rglob("*.py"))

PATHS = sorted({p for p in re.findall(r"`([\w./<>-]+\.(?:py|ipynb|md|yml))`", TEXT)
                if "/" in p and "<" not in p and "NN" not in p})
FLOORS = floor_graph()
HELPERS = sorted(set(re.findall(r"`(check_\w+|unbroadcast|keras_links|show_source|"
                                r"unary|binary|reduction|custom|covers)[`(]", TEXT)))


@pytest.mark.parametrize("path", PATHS)
def test_every_file_contributing_names_exists(path):
    assert (ROOT / path).exists(), path


@pytest.mark.parametrize("name", HELPERS)
def test_every_helper_contributing_names_is_defined(name):
    assert re.search(rf"^\s*(def|class) {name}\b", SOURCES, re.M), name


def test_the_helpers_of_the_checklists_are_all_found():
    assert {"check_layer", "check_layer_gradients", "check_grads", "check_pair",
            "unbroadcast", "custom"} <= set(HELPERS)


def test_the_list_of_floors_is_an_order_of_the_import_graph():
    paragraph = TEXT[TEXT.index("each folder imports only folders"):
                     TEXT.index("`tests/test_import_graph.py` checks it")]
    order = [name for name in re.findall(r"`(\w+)`", paragraph) if name in FLOORS]
    assert set(order) == set(FLOORS), set(FLOORS) ^ set(order)
    rank = {name: i for i, name in enumerate(order)}
    upward = [(a, b) for a, targets in FLOORS.items() for b in targets
              if rank[b] > rank[a]]
    assert upward == []
