"""Checks of chapter 8's exercises (Model, Sequential and subclassing)."""

import inspect

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail, fresh_name_scope


class _Base:
    shared = "base"
    only_base = "base"


class _MixinA:
    shared = "a"
    mixed = "a"


class _MixinB:
    mixed = "b"


class _Child(_MixinA, _MixinB, _Base):
    def shared_method(self):
        return "child"


def _defined_by(cls, name):
    """The class Python takes ``name`` from, as ``inspect`` classifies it."""
    for attribute in inspect.classify_class_attrs(cls):
        if attribute.name == name:
            return attribute.defining_class.__name__
    return None


@exercise("ch08-owner", "defining_class")
def check_owner(defining_class):
    cases = [(keras.Sequential, name) for name in (
        "add", "summary", "add_weight", "name_scope", "_run_internal_graph", "call",
        "__call__", "fit", "layers", "no_such_thing")]
    cases += [(keras.layers.Dense, "call"), (keras.layers.Dense, "build"),
              (_Child, "shared"), (_Child, "mixed"), (_Child, "only_base"),
              (_Child, "shared_method"), (_Child, "missing")]
    for cls, name in cases:
        expected = _defined_by(cls, name)
        got = defining_class(cls, name)
        if isinstance(got, type):
            fail(f"defining_class({cls.__name__}, {name!r}) returned the class "
                 f"{got.__name__}: return its name, a string")
        why = ""
        if expected is None and got is not None:
            why = ": return None when no class in the MRO has it"
        elif got == cls.__name__ and expected != got:
            why = (": look in each class's own __dict__ (vars(klass)), not "
                   "hasattr, which also sees inherited attributes")
        elif expected is not None:
            why = ": the class Python finds first, walking cls.__mro__ in order"
        expect(got == expected, f"defining_class({cls.__name__}, {name!r}) returned "
               f"{got!r}, expected {expected!r}{why}")


@exercise("ch08-count-params", "dense_stack_params")
def check_count_params(dense_stack_params):
    refused = {keras.layers.Dense.build: "Dense.build",
               keras.Layer.count_params: "Layer.count_params"}
    for sizes in ([10, 10, 1], [3, 8, 1], [5, 4], [784, 128, 64, 10], [2, 9, 9, 9, 3]):
        pairs = list(zip(sizes, sizes[1:]))
        expected = sum(n_in * n_out + n_out for n_in, n_out in pairs)  # kernels + biases
        with Refuse("ch08-count-params", refused):
            got = dense_stack_params(sizes)
        expect(got is not None, "dense_stack_params returned None: return an int")
        hint = ""
        if got == sum(a * b for a, b in pairs):
            hint = ": did you count the biases?"
        elif got == sum(a * b + a for a, b in pairs):
            hint = ": a layer has one bias per unit, sizes[i + 1], not per input"
        expect(got == expected, f"for sizes {sizes} expected {expected} parameters, "
               f"got {got}{hint}")


def _relu(x):
    return np.maximum(x, 0.0)


@exercise("ch08-two-towers", "TwoTowers")
def check_two_towers(model_class):
    fresh_name_scope()
    m = model_class()
    expect(isinstance(m, keras.Model), "TwoTowers should be a keras.Model")
    found = sorted(type(layer).__name__ for layer in m.layers)
    expect(found == ["Concatenate", "Dense", "Dense", "Dense"], (
        "before any call, the model should have 3 Dense layers and 1 Concatenate "
        f"as attributes; found {found}: create every layer in __init__, once"))
    x = np.random.default_rng(8).normal(size=(2, 5)).astype("float32")
    result = m(x)
    expect(tuple(result.shape) == (2, 1), (
        f"expected an output of shape (2, 1), got {tuple(result.shape)}"))
    dense = [layer for layer in m.layers if isinstance(layer, keras.layers.Dense)]
    towers = [layer for layer in dense if layer.units == 4]
    heads = [layer for layer in dense if layer.units == 1]
    expect(len(towers) == 2 and len(heads) == 1, (
        f"expected two Dense(4) towers and one Dense(1) head, got units "
        f"{[layer.units for layer in dense]}"))
    expected_params = 2 * (5 * 4 + 4) + (8 + 1)
    expect(m.count_params() == expected_params, (
        f"expected {expected_params} parameters for input size 5, got "
        f"{m.count_params()}"))
    (w1, b1), (w2, b2) = (t.get_weights() for t in towers)
    w3, b3 = heads[0].get_weights()
    one, two = _relu(x @ w1 + b1), _relu(x @ w2 + b2)
    by_hand = [np.concatenate(pair, axis=-1) @ w3 + b3
               for pair in ((one, two), (two, one))]
    if not any(np.allclose(result, v, atol=1e-5) for v in by_hand):
        plain = np.concatenate([x @ w1 + b1, x @ w2 + b2], axis=-1) @ w3 + b3
        if np.allclose(result, plain, atol=1e-5):
            fail("the output is computed without the towers' relu: "
                 "Dense(4, activation='relu')")
        fail("the output is not head(concatenate([left(x), right(x)]))")


@exercise("ch08-chain-model", "chain_model")
def check_chain_model(chain_model):
    fresh_name_scope()

    def layers():
        return [keras.layers.Dense(5, activation="relu", name="c_hidden"),
                keras.layers.Dropout(0.5, name="c_drop"),
                keras.layers.Dense(2, name="c_out")]

    refused = {keras.Sequential.__init__: "Sequential",
               keras.Sequential.add: "Sequential.add"}
    x = np.linspace(-1.0, 1.0, 12).reshape(3, 4).astype("float32")
    chain = layers()
    with Refuse("ch08-chain-model", refused):
        mine = chain_model(chain, (None, 4), name="chain")
    expect(isinstance(mine, keras.Model), (
        f"return a keras.Model, got {type(mine).__name__}"))
    expect(mine.name == "chain", f"the model should be named 'chain', is {mine.name!r}")
    names = [layer.name for layer in mine.layers]
    expect(names[-3:] == ["c_hidden", "c_drop", "c_out"], (
        f"layers {names}, expected the three layers in order after the input: "
        "call each layer on the previous one's output"))
    expect(all(a is b for a, b in zip(mine.layers[-3:], chain)), (
        "the model should hold the very layers it was given"))
    expect(tuple(mine.input_shape) == (None, 4), (
        f"input shape {mine.input_shape}, expected (None, 4): make the input with "
        "keras.Input(batch_shape=batch_shape)"))
    expect(tuple(mine.output_shape) == (None, 2), (
        f"output shape {mine.output_shape}, expected (None, 2): call each layer on "
        "the previous one's output"))
    expect(mine.count_params() == 4 * 5 + 5 + 5 * 2 + 2, (
        f"expected 37 parameters, got {mine.count_params()}"))
    (w1, b1), (w2, b2) = chain[0].get_weights(), chain[2].get_weights()
    by_hand = _relu(x @ w1 + b1) @ w2 + b2  # Dropout is the identity in predict
    expect(np.allclose(mine.predict(x, verbose=0), by_hand, atol=1e-5), (
        "the predictions are not c_out(c_drop(c_hidden(x)))"))
    fixed = chain_model(layers(), (3, 4), name="fixed")
    expect(tuple(fixed.input_shape) == (3, 4), (
        f"with batch_shape (3, 4) the input shape is {fixed.input_shape}: pass "
        "batch_shape= to keras.Input"))

    class Halves(keras.Layer):
        def call(self, inputs):
            return [inputs[:, :2], inputs[:, 2:]]

    try:
        chain_model([Halves()], (None, 4), name="two_outputs")
    except ValueError:
        pass
    except Exception as error:
        raise Mistake(f"a layer with two outputs raised {type(error).__name__}: "
                      "refuse it with a ValueError") from error
    else:
        fail("a layer with two outputs should be refused with a ValueError")
