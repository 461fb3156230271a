"""kerasmini.tree: the one nested-structure helper, with Keras 3's rules."""

import collections

import numpy as np
import pytest

from kerasmini import tree


def test_flatten_nested_structure_depth_first():
    assert tree.flatten([1, (2, {"a": 3, "b": [4]})]) == [1, 2, 3, 4]


def test_flatten_sorts_dict_keys_like_keras():
    # Keras 3 (optree) flattens dicts in sorted key order, whatever the
    # insertion order: two dicts with the same keys flatten alike.
    assert tree.flatten({"b": 1, "a": 2}) == [2, 1]
    assert tree.flatten({"a": 2, "b": 1}) == [2, 1]


def test_none_is_a_leaf():
    assert tree.flatten([None, (1, None)]) == [None, 1, None]
    assert tree.flatten(None) == [None]


def test_arrays_are_leaves():
    array = np.zeros((2, 3))
    assert tree.flatten([array])[0] is array


def test_pack_sequence_as_restores_nesting_and_types():
    packed = tree.pack_sequence_as([0, (0, {"a": 0})], [1, 2, 3])
    assert packed == [1, (2, {"a": 3})] and isinstance(packed[1], tuple)


def test_pack_keeps_the_structures_dict_key_order():
    packed = tree.pack_sequence_as({"b": 0, "a": 0}, ["for a", "for b"])
    assert list(packed) == ["b", "a"]
    assert packed == {"a": "for a", "b": "for b"}


def test_flatten_then_pack_round_trips():
    structure = {"z": [1, (2, 3)], "a": {"y": 4, "x": None}}
    assert tree.pack_sequence_as(structure, tree.flatten(structure)) == structure


def test_pack_named_tuple():
    Point = collections.namedtuple("Point", ["x", "y"])
    packed = tree.pack_sequence_as(Point(0, 0), [1, 2])
    assert packed == Point(1, 2) and isinstance(packed, Point)


def test_pack_wrong_number_of_leaves_raises():
    with pytest.raises(ValueError, match="has 2 leaves, but 3 values"):
        tree.pack_sequence_as([0, 0], [1, 2, 3])


def test_map_structure_keeps_nesting():
    assert tree.map_structure(lambda v: v + 1, {"a": [1, (2,)]}) == {"a": [2, (3,)]}


def test_map_structure_over_several_structures():
    assert tree.map_structure(lambda a, b: a * b, [1, {"k": 2}], [3, {"k": 4}]) == \
        [3, {"k": 8}]


def test_map_structure_mismatched_structures_raise():
    with pytest.raises(ValueError, match="same nesting"):
        tree.map_structure(lambda a, b: a, [1, 2], [1])


def test_map_shape_structure_stops_at_shape_tuples():
    assert tree.map_shape_structure(len, (None, 3)) == 2
    assert tree.map_shape_structure(len, [(None, 3), {"b": (None, 2, 2)}]) == \
        [2, {"b": 3}]


def test_map_shape_structure_rejects_non_shapes():
    with pytest.raises(ValueError, match="Expected a shape tuple"):
        tree.map_shape_structure(len, "abc")


def test_is_shape_tuple():
    assert tree.is_shape_tuple((None, 3)) and tree.is_shape_tuple([np.int64(2)])
    assert not tree.is_shape_tuple([(None, 3)]) and not tree.is_shape_tuple((True,))
