"""Checks of chapter 5's exercises (the modes of ``__call__``)."""

import itertools

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail


@exercise("ch05-resolve-training", "resolve_training")
def check_resolve_training(resolve_training):
    values = (True, False, None)
    for explicit, outer, default in itertools.product(values, repeat=3):
        # step 5: an explicit value wins, then the outer call's, then the default
        if explicit is not None:
            expected, why = explicit, "an explicit value always wins"
        elif outer is not None:
            expected, why = outer, "without an explicit value the outer call decides"
        else:
            expected, why = default, "with nothing else given, use the default"
        got = resolve_training(explicit, outer, default)
        args = (explicit, outer, default)
        if expected is False and got is True and explicit is False:
            why = "an explicit False must win over the outer call and the default"
        elif expected is None and got is False:
            why = "nothing given anywhere: the result is None, not False"
        elif outer is not None and explicit is None and got is default != outer:
            why = "the outer call's value beats the signature's default"
        expect(got is expected, f"resolve_training{args} returned {got!r}, expected "
               f"{expected!r}: {why}")


@exercise("ch05-output-shape", "FastRepeat.compute_output_shape")
def check_output_shape(layer_class):
    cases = [((None, 4), (None, 8)), ((None, 2, 3), (None, 2, 6)),
             ((7, 1), (7, 2)), ((None, None), (None, None))]
    for shape, expected in cases:
        layer = layer_class()
        before = layer.calls
        try:
            out = layer(keras.KerasTensor(shape))
        except TypeError as error:
            raise Mistake(f"a symbolic input of shape {shape} failed ({error}): the "
                          "last dimension may be None, and None stays None"
                          ) from error
        expect(out is not None and hasattr(out, "shape"), (
            f"a symbolic call should return a KerasTensor, got {out!r}"))
        expect(layer.calls == before, (
            f"`call` ran {layer.calls - before} time(s) during the symbolic call: "
            "compute_output_shape should give the shape without calling `call`"))
        got = tuple(out.shape)
        if got == tuple(shape) and shape[-1] is not None:
            fail(f"for input {shape} expected {expected}, got {got}: the last "
                 "dimension doubles")
        if len(shape) > 2 and got[1] == 2 * shape[1]:
            fail(f"for input {shape} expected {expected}, got {got}: only the last "
                 "dimension doubles, the others stay as they are")
        expect(got == expected, f"for input {shape} expected {expected}, got {got}")
    x = np.ones((2, 3), "float32")
    layer = layer_class()
    expect(np.array_equal(layer(x), np.concatenate([x, x], axis=-1)),
           "an eager call should still concatenate the input with itself")


@exercise("ch05-noise-layer", "AddNoise")
def check_noise_layer(layer_class):
    x = np.zeros((1, 3), dtype="float32")
    layer = layer_class()
    got = np.asarray(layer(x))
    expect(np.allclose(got, 0.0), (
        f"called without `training` the layer should return its inputs, got {got}"))
    got = np.asarray(layer(x, training=True))
    expect(np.allclose(got, 1.0), (
        f"with training=True the layer should add 1, got {got}: does `call` take a "
        "`training` argument?"))
    got = np.asarray(layer(x, training=False))
    expect(np.allclose(got, 0.0), f"with training=False expected zeros, got {got}")

    class Outer(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = layer_class()

        def call(self, inputs):
            return self.inner(inputs)

    class Outermost(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.middle = Outer()

        def call(self, inputs):
            return self.middle(inputs)

    for outer in (Outer(), Outermost()):
        got = np.asarray(outer(x, training=True))
        expect(np.allclose(got, 1.0), (
            f"inside a layer called with training=True expected ones, got {got}: the "
            "flag should come from the outer call (declare `training` in `call`'s "
            "signature and let __call__ fill it in)"))
        got = np.asarray(outer(x))
        expect(np.allclose(got, 0.0), (
            f"inside a layer called without training expected zeros, got {got}"))


@exercise("ch05-call-pipeline", "layer_call")
def check_layer_call(layer_call):
    tested = []

    def own_call(frame):
        this = frame.f_locals.get("self")
        return any(this is layer for layer in tested)

    refused = {keras.Layer.__call__: "Layer.__call__"}

    class Mine(keras.layers.Dense):
        def __call__(self, *args, **kwargs):
            with Refuse("ch05-call-pipeline", refused, when=own_call):
                return layer_call(self, *args, **kwargs)

    class Block(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.drop = keras.layers.Dropout(0.5, seed=1)

        def call(self, inputs):
            return self.drop(inputs)

    class MyBlock(Block):
        def __call__(self, *args, **kwargs):
            with Refuse("ch05-call-pipeline", refused, when=own_call):
                return layer_call(self, *args, **kwargs)

    x = np.arange(1.0, 9.0).reshape(2, 4)
    mine = Mine(3, name="mine")
    tested.append(mine)
    try:
        mine(np.ones(4))
    except ValueError:
        pass
    else:
        fail("a rank-1 input should be refused by Dense's input spec: check it with "
             "assert_input_compatibility")
    expect(not mine.built, "the input spec is checked before build: a refused input "
           "must not build the layer")
    out = mine(x)
    kernel, bias = (w.numpy() for w in (mine.kernel, mine.bias))
    expected = x.astype("float32") @ kernel + bias
    expect(np.allclose(out, expected, atol=1e-6), "the eager output is not "
           "inputs @ kernel + bias")
    expect(str(out.dtype) == "float32", (
        f"float64 inputs should be cast to the layer's float32, got {out.dtype}: "
        "convert the inputs (layer._convert_inputs) before the call"))
    try:
        mine(x.tolist())
    except ValueError:
        pass
    else:
        fail("a Python list should be refused, as Keras 3 does: convert the inputs "
             "(layer._convert_inputs) first")
    inp = keras.Input(shape=(4,))
    y = mine(inp)
    expect(isinstance(y, keras.KerasTensor), (
        f"a symbolic call should return a KerasTensor, got {type(y).__name__}"))
    history = getattr(y, "_keras_history", None)
    expect(history is not None and history[0] is mine, (
        "a symbolic call should record a Node (layer._record_node): the output has "
        "no history"))
    model = keras.Model(inp, y)
    expect(np.allclose(model.predict(x, verbose=0), expected, atol=1e-6),
           "a model over the symbolic call predicts something else")
    block = MyBlock()
    tested.append(block)
    expect(np.allclose(block(x), x), "without training, Dropout is the identity")
    dropped = np.asarray(block(x, training=True))
    expect(np.any(dropped == 0), (
        "training=True did not reach the inner Dropout: open "
        "call_context.scope(layer, training) around the call"))
    expect(np.allclose(np.asarray(block(x, training=False)), x),
           "training=False: the inner Dropout must be the identity")
