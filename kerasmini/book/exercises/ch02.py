"""Checks of chapter 2's exercises (Module and Variable)."""

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail, fresh_name_scope


class _Block(keras.Module):
    """A kernel and a bias, as in the chapter's ``Linear``."""

    def __init__(self, n_in, n_out, name):
        super().__init__(name=name)
        rng = np.random.default_rng(n_in * 10 + n_out)
        with self.name_scope:
            self.w = keras.Variable(rng.normal(size=(n_in, n_out)), name="w")
            self.b = keras.Variable(rng.normal(size=(n_out,)), name="b")


class _Net(keras.Module):
    """Blocks in a list, a non-trainable matrix in a dict, a tied weight."""

    def __init__(self, sizes, name):
        super().__init__(name=name)
        with self.name_scope:
            self.blocks = [_Block(a, b, name=f"block_{i}")
                           for i, (a, b) in enumerate(zip(sizes, sizes[1:]))]
            self.extras = {"moments": keras.Variable(
                np.ones((4, 4)), name="moments", trainable=False)}
        self.tied = self.blocks[0].w  # the same variable, met twice


@exercise("ch02-count-scalars", "count_trainable_scalars")
def check_count_scalars(count_trainable_scalars):
    for sizes in ([3, 4, 2], [5, 7, 1, 3]):
        net = _Net(sizes, name="net")
        pairs = list(zip(sizes, sizes[1:]))
        expected = sum(a * b + b for a, b in pairs)
        got = count_trainable_scalars(net)
        expect(got is not None, "count_trainable_scalars returned None: return an "
               "int")
        try:
            got = int(got)
        except TypeError:
            fail(f"expected a number, got {got!r}")
        if got == expected + 16:
            fail(f"expected {expected}, got {got}: the non-trainable 4x4 `moments` "
                 "is counted; only trainable variables change in training")
        if got == 2 * len(pairs):
            fail(f"expected {expected}, got {got}: that is the number of variables, "
                 "not of the numbers they hold")
        if got == expected + sizes[0] * sizes[1]:
            fail(f"expected {expected}, got {got}: a weight held twice (`tied`) "
                 "counts once; the module's own tracking reports it once")
        if got == sum(a * b for a, b in pairs):
            fail(f"expected {expected}, got {got}: did you forget the biases?")
        if got in (0, sizes[0] * sizes[1]):
            fail(f"expected {expected}, got 0: the variables sit in nested modules; "
                 "ask the module (trainable_variables), do not read vars() yourself")
        expect(got == expected, f"for a stack of sizes {sizes} expected {expected}, "
               f"got {got}")


@exercise("ch02-checkpoint", "save_by_path")
def check_checkpoint(save_by_path, restore_by_path):
    fresh_name_scope()
    source = _Net([2, 3, 1], name="net")
    variables = [
        source.blocks[0].w, source.blocks[0].b, source.blocks[1].w,
        source.blocks[1].b, source.extras["moments"]]
    before = {v.path: np.array(v.numpy()) for v in variables}
    saved = save_by_path(source)
    expect(isinstance(saved, dict), f"save_by_path should return a dict, got "
           f"{type(saved).__name__}")
    names = sorted(v.name for v in variables)
    if sorted(saved) == names or set(saved) <= set(names):
        fail(f"the keys are {sorted(saved)}: key by the variable's path "
             "(`net/block_0/w`), its name alone is not unique")
    missing = sorted(set(before) - set(saved))
    expect(not missing, f"missing {missing}: save every variable, the "
           "non-trainable ones too")
    expect(sorted(saved) == sorted(before), f"expected the keys {sorted(before)}, "
           f"got {sorted(saved)}")
    for v in variables:
        v.assign(np.full(v.shape, 7.0))
    for key, value in before.items():
        expect(np.array_equal(np.asarray(saved[key]), value), (
            f"{key} changed when the module changed: save copies of the values "
            "(v.numpy()), not the variables themselves"))
    target = _Net([2, 3, 1], name="net")
    restore_by_path(target, saved)
    for v in (target.blocks[0].w, target.blocks[0].b, target.blocks[1].w,
              target.blocks[1].b, target.extras["moments"]):
        expect(np.allclose(v.numpy(), before[v.path]), f"{v.path} was not restored")


@exercise("ch02-make-path", "variable_at")
def check_make_path(variable_at):
    fresh_name_scope()
    paths = ["gamma", "encoder/gamma", "encoder/block_1/gamma",
             "a/b/c/d/kernel"]
    for path in paths:
        value = np.arange(3.0) + len(path)
        var = variable_at(path, value)
        expect(isinstance(var, keras.Variable), f"variable_at({path!r}, ...) should "
               f"return a keras.Variable, got {type(var).__name__}")
        leftover = keras.Variable(0.0, name="probe").path
        expect(leftover == "probe", f"after variable_at({path!r}, ...) a new "
               f"variable gets the path {leftover!r}: a name scope was left open "
               "(enter each scope with `with`)")
        parts = path.split("/")
        if var.path.split("/") == parts[:1] + parts[-1:] and len(parts) > 2:
            fail(f"variable_at({path!r}) made {var.path!r}: open a name scope for "
                 "every part but the last, not only the first")
        if var.path.split("/") == parts[-2::-1] + parts[-1:] and len(parts) > 2:
            fail(f"variable_at({path!r}) made {var.path!r}: open the scopes "
                 "outermost first")
        expect(var.path == path, f"expected the path {path!r}, got {var.path!r}")
        expect(var.name == parts[-1], f"the name should be the last part of the "
               f"path, {parts[-1]!r}; got {var.name!r}")
        expect(np.allclose(var.numpy(), value), "the variable does not hold the "
               "value it was given")


def _holder():
    """A module with a shared child, a variable met directly before its module
    is walked, a dict in a list, and a cycle. By hand, the walk gives:

    * ``a`` is the module ``lin``: noted, walked later;
    * ``alias`` is ``lin.w``: kept (first time met);
    * ``back`` is the holder itself: already seen;
    * ``z`` is ``[lin, {"a": first, "k": second}]``: ``lin`` noted again, then
      ``first`` and ``second`` (a dict flattens in key order);
    * then ``lin``: ``b`` kept, ``w`` already seen; ``lin`` again: nothing new.
    """
    lin = _Block(2, 2, name="lin")
    holder = keras.Module(name="holder")
    first = keras.Variable(0.0, name="first")
    second = keras.Variable(1.0, name="second")
    holder.a = lin
    holder.alias = lin.w
    holder.back = holder
    holder.z = [lin, {"a": first, "k": second}]
    return holder, [lin.w, first, second, lin.b]


def _tower():
    """Modules nested three deep, each holding variables, set in an order that
    is not the sorted one. By hand: the direct attributes of ``outer`` sorted
    by name (``c``, ``w``; ``m2`` is a module, walked after them), then
    ``mid``'s ``x``, then ``inner``'s ``y``."""
    inner = keras.Module(name="inner")
    inner.y = keras.Variable(0.0, name="y")
    mid = keras.Module(name="mid")
    mid.x = keras.Variable(0.0, name="x")
    mid.inner = inner
    outer = keras.Module(name="outer")
    outer.w = keras.Variable(0.0, name="w")
    outer.m2 = mid
    outer.c = keras.Variable(0.0, name="c")
    return outer, [outer.c, outer.w, mid.x, inner.y]


@exercise("ch02-find-variables", "find_variables")
def check_find_variables(find_variables):
    fresh_name_scope()
    refused = {keras.Module.variables: "Module.variables",
               keras.Module.trainable_variables: "Module.trainable_variables",
               keras.Module._flatten: "Module._flatten"}
    for name, (module, expected) in (("tower", _tower()), ("holder", _holder())):
        try:
            with Refuse("ch02-find-variables", refused):
                found = find_variables(module)
        except RecursionError:
            raise Mistake(f"{name}: the walk loops (the module holds itself): "
                          "remember the ids already seen, modules included") from None
        expect(found is not None, "find_variables returned None: return a list")
        found = list(found)
        want = [v.path for v in expected]
        got = [getattr(v, "path", repr(v)) for v in found]
        expect(len(found) == len({id(v) for v in found}), (
            f"{name}: a variable is reported twice: {got}; keep each the first "
            "time it is met"))
        missing = [v.path for v in expected if all(v is not f for f in found)]
        expect(not missing, f"{name}: missing {missing}; flatten lists and dicts "
               "with keras.tree.flatten and walk every child module")
        expect(len(found) == len(expected), f"{name}: found {got}, expected {want}")
        if name == "tower" and got.index(want[1]) > min(got.index(want[2]),
                                                         got.index(want[3])):
            fail(f"{name}: the order is {got}, expected {want}: walk a child module "
                 "only after all the direct attributes")
        if name == "tower" and got[:2] == want[1::-1]:
            fail(f"{name}: the order is {got}, expected {want}: visit the "
                 "attributes sorted by name, not in the order they were set")
        expect(got == want, f"{name}: the order is {got}, expected {want}: visit "
               "the attributes sorted by name, child modules after them")
