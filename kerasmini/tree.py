"""Nested structures: the one place that walks lists, tuples and dicts.

A layer may take a list of inputs, a model may return a dict of outputs,
``fit`` may get ``x`` as a dict of arrays and a ``GradientTape`` a list of
sources. Everywhere kerasmini needs "the leaves of this, in a fixed order"
or "the same nesting with other leaves", it calls this module, as Keras 3
calls ``keras/src/tree/`` (a thin layer over ``optree``). The rules are
Keras 3's:

* lists, tuples (named tuples too) and dicts are containers; anything else,
  ``None`` included, is a leaf;
* a dict's leaves come in **sorted key order** (so ``{"b": .., "a": ..}`` and
  ``{"a": .., "b": ..}`` flatten alike), and packing gives back a dict with
  the keys in the order of the structure it copies.

>>> flatten({"b": 1, "a": [2, None]})
[2, None, 1]
>>> pack_sequence_as({"b": 0, "a": [0, 0]}, [20, 30, 10])
{'b': 10, 'a': [20, 30]}
"""


_CONTAINERS = (list, tuple, dict)


def is_nested(structure) -> bool:
    """Whether ``structure`` is a container (list, tuple or dict).

    >>> is_nested([1]), is_nested((1, 2)), is_nested({"a": 1}), is_nested(1)
    (True, True, True, False)
    """
    return isinstance(structure, _CONTAINERS)


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:  # keys of mixed types: fall back to their text
        return sorted(mapping, key=str)


def _children(structure):
    """The direct children of a container, in flattening order."""
    if isinstance(structure, dict):
        return [structure[key] for key in _sorted_keys(structure)]
    return list(structure)


def flatten(structure):
    """The leaves of ``structure``, depth first (dicts by sorted key).

    >>> flatten([1, (2, {"z": 3, "y": 4})])
    [1, 2, 4, 3]
    >>> flatten(None)
    [None]
    """
    # the common cases first, without a call per leaf: a leaf, and leaves
    # inside a container (most structures are one flat list or tuple)
    if not isinstance(structure, _CONTAINERS):
        return [structure]
    leaves = []
    for child in _children(structure):
        if isinstance(child, _CONTAINERS):
            leaves.extend(flatten(child))
        else:
            leaves.append(child)
    return leaves


def _rebuild(structure, children):
    """A container like ``structure`` holding ``children`` (flattening order)."""
    if isinstance(structure, dict):
        by_key = dict(zip(_sorted_keys(structure), children))
        return type(structure)((key, by_key[key]) for key in structure)
    if hasattr(structure, "_fields"):  # a named tuple
        return type(structure)(*children)
    return type(structure)(children)


def pack_sequence_as(structure, flat_sequence):
    """Put the leaves of ``flat_sequence`` back into the nesting of ``structure``.

    Raises ``ValueError`` when the number of leaves does not match.

    >>> pack_sequence_as([0, (0, 0)], ["a", "b", "c"])
    ['a', ('b', 'c')]
    >>> pack_sequence_as([0, 0], [1])
    Traceback (most recent call last):
      ...
    ValueError: The structure [0, 0] has 2 leaves, but 1 values were given to pack into it.
    """
    flat = list(flat_sequence)
    expected = len(flatten(structure))
    if expected != len(flat):
        raise ValueError(
            f"The structure {structure!r} has {expected} leaves, but {len(flat)} "
            "values were given to pack into it."
        )
    return _pack(structure, iter(flat))


def _pack(node, values):
    # A module-level function, not a recursive closure: a closure that calls
    # itself is a reference cycle, which would keep `flat` (in `fit`, the
    # gradients: a whole kernel each) alive until the garbage collector runs.
    if not is_nested(node):
        return next(values)
    return _rebuild(node, [_pack(child, values) for child in _children(node)])


def map_structure(fn, *structures):
    """Apply ``fn`` to the leaves of one or more structures of the same nesting.

    >>> map_structure(lambda v: v * 2, {"a": [1, 2]})
    {'a': [2, 4]}
    >>> map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)])
    [11, (22,)]
    """
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    first = structures[0]
    flats = [flatten(s) for s in structures]
    for other, flat in zip(structures[1:], flats[1:]):
        if len(flat) != len(flats[0]):
            raise ValueError(
                "The structures given to map_structure do not have the same "
                f"nesting. Received: {first!r} and {other!r}"
            )
    return pack_sequence_as(first, [fn(*leaves) for leaves in zip(*flats)])


def is_shape_tuple(x) -> bool:
    """Whether ``x`` is one shape: a tuple or list of ints and ``None``.

    >>> is_shape_tuple((None, 3)), is_shape_tuple([(None, 3)]), is_shape_tuple(())
    (True, False, True)
    """
    return isinstance(x, (list, tuple)) and all(
        d is None or (isinstance(d, int) and not isinstance(d, bool))
        or type(d).__module__ == "numpy" and hasattr(d, "__index__")
        for d in x)


def map_shape_structure(fn, structure):
    """Apply ``fn`` to each shape of a shape or a nest of shapes.

    A shape is itself a tuple, so :func:`map_structure` would walk into it;
    this stops at tuples of ints and ``None`` (Keras 3's
    ``tree.map_shape_structure``).

    >>> map_shape_structure(len, [(None, 3), {"b": (None, 2, 2)}])
    [2, {'b': 3}]
    """
    if is_shape_tuple(structure):
        return fn(tuple(structure))
    if isinstance(structure, dict):
        return type(structure)(
            (key, map_shape_structure(fn, value)) for key, value in structure.items())
    if isinstance(structure, (list, tuple)):
        return type(structure)(map_shape_structure(fn, s) for s in structure)
    raise ValueError(
        "Expected a shape tuple (integers or None) or a list/dict of shape tuples. "
        f"Received: {structure!r} (of type {type(structure).__name__})"
    )


__all__ = ["flatten", "is_nested", "is_shape_tuple", "map_shape_structure",
           "map_structure", "pack_sequence_as"]
