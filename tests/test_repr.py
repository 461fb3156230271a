"""Every public object prints readably, with no memory address."""

import re

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import backend, constraints, initializers, layers, regularizers
from kerasmini.engine import call_context
from kerasmini.ops.node import KerasHistory

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def _objects():
    x = keras.Input((3,), name="x")
    dense = layers.Dense(2)
    y = dense(x)
    model = keras.Model(x, y)

    class MyModule(keras.Module):
        pass

    @keras.function
    def traced(v):
        return v

    return {
        "Variable": keras.Variable(np.zeros(2), name="v"),
        "Module": MyModule(),
        "Layer": keras.Layer(),
        "Dense": dense,
        "Activation": layers.Activation("relu"),
        "Dropout": layers.Dropout(0.1),
        "Flatten": layers.Flatten(),
        "Reshape": layers.Reshape((2,)),
        "Add": layers.Add(),
        "Concatenate": layers.Concatenate(),
        "Lambda": layers.Lambda(lambda v: v),
        "InputLayer": x._keras_history.layer,
        "InputSpec": keras.InputSpec(ndim=2),
        "KerasTensor": y,
        "KerasHistory": y._keras_history,
        "Node": dense._inbound_nodes[0],
        "Functional": model,
        "Sequential": keras.Sequential(),
        "Model": keras.Model(),
        "name_scope": backend.name_scope("scope"),
        "Function": traced,
        "CallContext": call_context.CallContext(dense, True),
        "Initializer": initializers.get("glorot_uniform"),
        "Regularizer": regularizers.L2(),
        "Constraint": constraints.MaxNorm(),
    }


@pytest.mark.parametrize("kind", sorted(_objects()))
def test_repr_has_no_memory_address(kind):
    text = repr(_objects()[kind])
    assert not ADDRESS.search(text), text


@pytest.mark.parametrize("kind", sorted(_objects()))
def test_repr_names_the_class(kind):
    obj = _objects()[kind]
    expected = {"Function": "kerasmini.function", "name_scope": "name_scope"}.get(
        kind, type(obj).__name__)
    assert expected in repr(obj), repr(obj)


@pytest.mark.parametrize("obj, expected", [
    (lambda: layers.Dense(2, name="d"), "<Dense name=d, built=False>"),
    (lambda: keras.KerasTensor((None, 5), name="t"),
     "<KerasTensor shape=(None, 5), dtype=float32, name=t>"),
    (lambda: keras.InputSpec(min_ndim=2, axes={-1: 4}), "InputSpec(min_ndim=2, axes={-1: 4})"),
    (lambda: keras.Sequential(name="s"), "<Sequential name=s, built=False>"),
])
def test_repr_exact_forms(obj, expected):
    assert repr(obj()) == expected


def test_keras_history_repr_is_readable():
    x = keras.Input((1,), name="x")
    assert repr(x._keras_history) == (
        "KerasHistory(layer=<InputLayer name=x, built=True>, node_index=0, tensor_index=0)")
    assert isinstance(x._keras_history, KerasHistory)
