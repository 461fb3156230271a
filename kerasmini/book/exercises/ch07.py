"""Checks of chapter 7's exercises (the Functional model and its graph)."""

import sys

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail, fresh_name_scope


class _Watched:
    """``with _Watched(model, "_nodes_by_depth", label, what):`` refuses reads
    of the attribute by code outside kerasmini (kerasmini's own methods may
    still read it). The attribute is shadowed by a property on a subclass made
    for the occasion, and the model gets its class back afterwards."""

    def __init__(self, obj, name, label, what):
        self.obj, self.name, self.label, self.what = obj, name, label, what
        self.reads = 0

    def __enter__(self):
        watched = self

        def read(obj):
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if not caller.startswith("kerasmini"):
                watched.reads += 1
            return vars(obj)[watched.name]

        self.cls = type(self.obj)
        self.obj.__class__ = type(self.cls.__name__, (self.cls,),
                                  {self.name: property(read)})
        return self

    def __exit__(self, *exc):
        __tracebackhide__ = True
        self.obj.__class__ = self.cls
        if self.reads:
            raise Mistake(f"{self.label}: your answer reads kerasmini's own "
                          f"{self.what}; the task asks you to write it yourself, "
                          "without it")
        return False


def _models():
    """Three models and their depths, worked out by hand from the outputs
    (depth 0) back, each layer one deeper than the deepest layer using it."""
    fresh_name_scope()
    inp = keras.Input(shape=(4,), name="inp")
    left = keras.layers.Dense(3, name="left")(inp)
    mid = keras.layers.Dense(3, name="mid")(inp)
    right = keras.layers.Dense(3, name="right")(mid)
    added = keras.layers.Add(name="add")([left, right])
    out = keras.layers.Dense(1, name="out")(added)
    diamond = keras.Model(inp, out, name="diamond")
    # out 0, add 1, left and right 2, mid 3, inp max(left 2, mid 3) + 1 = 4
    diamond_depths = {"out": 0, "add": 1, "left": 2, "right": 2, "mid": 3, "inp": 4}

    title = keras.Input(shape=(2,), name="title")
    body = keras.Input(shape=(3,), name="body")
    features = keras.layers.Concatenate(name="features")([title, body])
    tickets = keras.Model(
        {"title": title, "body": body},
        {"priority": keras.layers.Dense(1, name="priority")(features),
         "department": keras.layers.Dense(4, name="department")(features)},
        name="tickets")
    tickets_depths = {"priority": 0, "department": 0, "features": 1, "title": 2,
                      "body": 2}

    encoder_in = keras.Input(shape=(3,), name="encoder_in")
    encoder = keras.Model(encoder_in, keras.layers.Dense(2, name="code")(encoder_in),
                          name="encoder")
    z = keras.Input(shape=(5,), name="z")
    outer = keras.Model(z, encoder(keras.layers.Dense(3, name="hidden")(z)),
                        name="outer")
    outer_depths = {"encoder": 0, "hidden": 1, "z": 2}
    return [(diamond, diamond_depths), (tickets, tickets_depths),
            (outer, outer_depths)]


@exercise("ch07-depths", "layer_depths")
def check_depths(layer_depths):
    for model, expected in _models():
        with _Watched(model, "_nodes_by_depth", "ch07-depths",
                      "model._nodes_by_depth"):
            with Refuse("ch07-depths", {"map_graph": "map_graph"}):
                got = layer_depths(model)
        expect(got is not None, "layer_depths returned None: return a dict")
        got = dict(got)
        missing = sorted(set(expected) - set(got))
        expect(not missing, f"model {model.name}: no depth for {missing}")
        wrong = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
        if model.name == "diamond" and wrong.get("inp") == (3, 4):
            fail("model diamond: 'inp' should be at depth 4, got 3: a node used at "
                 "several distances takes the largest depth")
        expect(not wrong, f"model {model.name}: wrong depths (yours, expected): "
               f"{wrong}")


def _branches():
    fresh_name_scope()
    inp = keras.Input(shape=(4,), name="inp")
    left = keras.layers.Dense(3, name="left")
    right = keras.layers.Dense(3, name="right")
    added = keras.layers.Add(name="add")([left(inp), right(inp)])
    both = keras.layers.Concatenate(name="concat")([added, inp])
    return keras.Model(inp, keras.layers.Dense(1, name="out")(both), name="branches")


@exercise("ch07-extractor", "feature_extractor")
def check_extractor(feature_extractor):
    model = _branches()
    x = np.linspace(-1.0, 1.0, 8).reshape(2, 4).astype("float32")
    (wl, bl), (wr, br) = (model.get_layer(n).get_weights() for n in ("left", "right"))
    by_hand = {"add": x @ wl + bl + x @ wr + br, "left": x @ wl + bl}
    for name, value in by_hand.items():
        sub = feature_extractor(model, name)
        expect(sub is not None, "feature_extractor returned None: return a model")
        expect(isinstance(sub, keras.Functional), (
            f"expected a Functional model, got {type(sub).__name__}"))
        names = [layer.name for layer in sub.layers]
        expect(name in names, (
            f"the extractor for {name!r} has no layer {name!r} (its layers: {names}):"
            " end the new model at that layer's output"))
        expect("out" not in names and "concat" not in names, (
            f"the extractor should stop at {name!r}, but it has the layers {names}"))
        expect(sub.get_layer(name) is model.get_layer(name), (
            "the extractor should reuse the model's layers (and so its weights), "
            "not copies"))
        expect(tuple(sub.output_shape) == (None, 3), (
            f"the output of {name!r} has shape (None, 3), got {sub.output_shape}"))
        got = np.asarray(sub(x))
        if name == "add" and np.allclose(got, x @ wl + bl):
            fail("the extractor gives an input of 'add', not its output")
        expect(np.allclose(got, value, atol=1e-5), (
            f"the extractor's result differs from the value {name!r} computes inside "
            "the model"))


@exercise("ch07-two-heads", "make_two_heads")
def check_two_heads(make_two_heads):
    m = make_two_heads()
    expect(m is not None, "make_two_heads returned None: return a model")
    expect(isinstance(m, keras.Functional), (
        f"expected a functional model, got {type(m).__name__}"))
    rng = np.random.default_rng(7)
    image = rng.normal(size=(2, 8)).astype("float32")
    meta = rng.normal(size=(2, 2)).astype("float32")
    try:
        result = m({"image": image, "meta": meta})
    except (KeyError, ValueError, TypeError) as error:
        raise Mistake(f"the model refused the dict {{'image': ..., 'meta': ...}} "
                      f"({type(error).__name__}: {error}): pass `inputs` as a dict "
                      "with those keys") from error
    expect(isinstance(result, dict), (
        f"expected a dict of outputs, got {type(result).__name__}: pass `outputs` "
        "as a dict"))
    expect(set(result) == {"score", "code"}, (
        f"expected the keys score and code, got {sorted(result)}"))
    for key, shape in (("score", (2, 1)), ("code", (2, 3))):
        expect(tuple(result[key].shape) == shape, (
            f"{key} should have shape {shape}, got {tuple(result[key].shape)}"))
    other = m({"image": image, "meta": meta * 5 + 1})
    expect(not np.allclose(other["score"], result["score"]), (
        "score should depend on meta"))
    expect(np.allclose(other["code"], result["code"]), (
        "code should not depend on meta: build it from image alone"))
    other = m({"image": image * 3 + 1, "meta": meta})
    expect(not np.allclose(other["score"], result["score"]), (
        "score should depend on image"))
    expect(not np.allclose(other["code"], result["code"]), (
        "code should depend on image"))


def _graphs():
    """Three graphs and their nodes by depth, worked out by hand.

    Diamond: ``add`` 0; ``right``, ``left`` 1; ``mid`` 2; ``h`` is used at 2
    (by left) and 3 (by mid), so 3; the input 4.

    Shared: the walk (parents first) orders ``c``, ``shared#0``, ``other``,
    ``shared#1``, ``d1``, ``d2``, ``join``. Backwards: ``join`` 0, ``d2`` 1,
    ``d1`` 2, ``shared#1`` 3, ``other`` 4; ``shared#0`` is used by ``join``
    (depth 1) but its layer already sits at 3, so 3; ``c`` max(3, 4) + 1 = 5.
    """
    fresh_name_scope()
    a = keras.Input(shape=(3,), name="md_a")
    h = keras.layers.Dense(3, name="md_h")(a)
    left = keras.layers.Dense(3, name="md_left")(h)
    right = keras.layers.Dense(3, name="md_right")(
        keras.layers.Dense(3, name="md_mid")(h))
    diamond = {0: ["md_add#0"], 1: ["md_left#0", "md_right#0"], 2: ["md_mid#0"],
               3: ["md_h#0"], 4: ["md_a#0"]}
    yield "diamond", [a], [keras.layers.Add(name="md_add")([right, left])], diamond
    b = keras.Input(shape=(2,), name="md_b")
    y = b
    for i in range(3):
        y = keras.layers.Dense(2, name=f"md_chain{i}")(y)
    chain = {0: ["md_chain2#0"], 1: ["md_chain1#0"], 2: ["md_chain0#0"],
             3: ["md_b#0"]}
    yield "chain", [b], [y], chain
    c = keras.Input(shape=(4,), name="md_c")
    shared = keras.layers.Dense(4, name="md_shared")
    once = shared(c)  # node 0, near the output
    twice = shared(keras.layers.Dense(4, name="md_other")(c))  # node 1
    deep = keras.layers.Dense(4, name="md_d2")(
        keras.layers.Dense(4, name="md_d1")(twice))
    shared_depths = {0: ["md_join#0"], 1: ["md_d2#0"], 2: ["md_d1#0"],
                     3: ["md_shared#0", "md_shared#1"], 4: ["md_other#0"],
                     5: ["md_c#0"]}
    yield ("shared", [c], [keras.layers.Add(name="md_join")([once, deep])],
           shared_depths)


def _show(by_depth):
    return {d: sorted(f"{n.layer.name}#{n.layer._inbound_nodes.index(n)}"
                      for n in nodes)
            for d, nodes in sorted(by_depth.items())}


@exercise("ch07-map-depths", "map_depths")
def check_map_depths(map_depths):
    refused = {"map_graph": "map_graph",
               keras.Functional.__init__: "a Functional model (its map_graph)"}
    for name, inputs, outputs, want in _graphs():
        with Refuse("ch07-map-depths", refused):
            result = map_depths(inputs, outputs)
        expect(result is not None, "return (ordered, nodes_by_depth)")
        ordered, by_depth = result
        ordered = list(ordered)
        expect(len(ordered) == len({id(n) for n in ordered}), (
            f"{name}: a node appears twice in `ordered`: visit each node once"))
        position = {id(n): i for i, n in enumerate(ordered)}
        for node in ordered:
            for parent in node.parent_nodes:
                expect(id(parent) in position, (
                    f"{name}: {parent} is missing from `ordered`"))
                expect(position[id(parent)] < position[id(node)], (
                    f"{name}: {parent} comes after its child {node}: append a node "
                    "after visiting its inputs"))
        got = _show(by_depth)
        if name == "shared" and got.get(1) == ["md_d2#0", "md_shared#0"]:
            fail(f"{name}: md_shared#0 is at depth 1 but the same layer's node 1 is "
                 "at 3: a shared layer's later call must not sit below its earlier "
                 "one (keep the depth already given to the layer)")
        expect(got == want, f"{name}: nodes by depth {got}, expected {want}")
