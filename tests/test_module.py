"""Module: names, name scopes and the attribute walk (as tf.Module does)."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import Module, Variable


class Scale(Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = Variable(np.ones(3), name="w")


class Holder(Module):
    def __init__(self):
        super().__init__()
        self.b_list = [Variable(1.0, name="a"), (Variable(2.0, name="b"),)]
        self.c_dict = {"y": Variable(3.0, name="y"),
                       "x": Variable(4.0, name="x", trainable=False)}


def test_module_name_defaults_to_snake_case_class_name():
    assert Scale().name == "scale"
    assert Holder().name == "holder"


def test_module_name_is_not_uniquified():
    assert Module().name == Module().name == "module"


def test_module_invalid_name_raises():
    with pytest.raises(ValueError, match="is not a valid module name"):
        Module(name="not valid")


def test_module_name_scope_prefixes_variable_path():
    assert Scale(name="scale").w.path == "scale/w"


def test_module_name_scope_is_reentrant_for_same_caller():
    mod = Scale()
    with mod.name_scope:
        with mod.name_scope:
            v = Variable(0.0, name="v")
    assert v.path == "scale/v"


def test_module_variables_walk_lists_tuples_and_dicts():
    names = [v.name for v in Holder().variables]
    # attributes sorted by name; dict values sorted by key
    assert names == ["a", "b", "x", "y"]


def test_module_trainable_variables_filter_on_trainable():
    assert [v.name for v in Holder().trainable_variables] == ["a", "b", "y"]
    assert [v.name for v in Holder().non_trainable_variables] == ["x"]


def test_module_variables_deduplicated():
    mod = Scale()
    mod.alias = mod.w
    mod.again = [mod.w, mod.w]
    assert mod.variables == (mod.w,)


def test_module_child_module_variables_come_after_direct_ones():
    class Outer(Module):
        def __init__(self):
            super().__init__()
            self.a_child = Scale()
            self.z = Variable(0.0, name="z")

    outer = Outer()
    assert [v.name for v in outer.variables] == ["z", "w"]


def test_module_submodules_found_recursively_in_order():
    class Mid(Module):
        def __init__(self):
            super().__init__()
            self.leaf = Scale(name="leaf")

    class Top(Module):
        def __init__(self):
            super().__init__()
            self.mids = [Mid(), Mid()]

    top = Top()
    subs = top.submodules
    assert [m.name for m in subs] == ["mid", "mid", "leaf", "leaf"]
    assert subs[0] is top.mids[0] and subs[2] is top.mids[0].leaf


def test_module_submodules_excludes_self_and_survives_cycles():
    a, b = Module(name="a"), Module(name="b")
    a.other, b.other = b, a
    assert a.submodules == (b,)


def test_module_variables_order_is_deterministic():
    first = [v.name for v in Holder().variables]
    second = [v.name for v in Holder().variables]
    assert first == second


def test_module_repr_is_readable():
    assert repr(Scale()) == "<Scale name=scale>"


def test_module_is_root_of_layer_chain():
    assert issubclass(keras.Layer, Module)
    assert isinstance(keras.layers.Dense(2), Module)
