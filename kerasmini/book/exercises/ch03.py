"""Checks of chapter 3's exercises (Layer and its weights)."""

import numpy as np

import kerasmini as keras
from kerasmini import ops

from ._support import Refuse, exercise, expect, fail


@exercise("ch03-count-params", "dense_params")
def check_count_params(dense_params):
    cases = [(10, 10, True), (3, 4, True), (7, 1, False), (1, 1, True),
             (5, 9, False), (16, 3, True)]
    refused = {keras.layers.Dense.build: "Dense.build",
               keras.Layer.count_params: "Layer.count_params"}
    for n_in, units, use_bias in cases:
        expected = n_in * units + (units if use_bias else 0)  # kernel + bias
        with Refuse("ch03-count-params", refused):
            got = dense_params(n_in, units, use_bias=use_bias)
        where = f"Dense({units}, use_bias={use_bias}) on {n_in} inputs"
        expect(got is not None, "dense_params returned None: return an int")
        if use_bias and got == n_in * units:
            fail(f"expected {expected} parameters for {where}, got {got}: did you "
                 "count the bias?")
        if not use_bias and got == n_in * units + units:
            fail(f"expected {expected} parameters for {where}, got {got}: with "
                 "use_bias=False there is no bias")
        if use_bias and n_in != units and got == n_in * units + n_in:
            fail(f"expected {expected} parameters for {where}, got {got}: there is "
                 "one bias per unit, not per input")
        expect(got == expected, f"expected {expected} parameters for {where}, "
               f"got {got}")


@exercise("ch03-scale-layer", "Scale.build")
def check_scale_layer(Scale):  # noqa: N803 (the answer is a class)
    for features in (3, 5):
        layer = Scale()
        x = np.arange(2.0 * features, dtype="float32").reshape(2, features) + 1
        y = layer(x)
        weights = layer.trainable_weights
        if not weights and layer.non_trainable_weights:
            fail("the weight is not trainable: create it with trainable=True (the "
                 "default)")
        expect(len(weights) == 1, f"expected 1 trainable weight, found {len(weights)}")
        (w,) = weights
        expect(tuple(w.shape) == (features,), (
            f"for inputs of shape {x.shape} expected a weight of shape "
            f"({features},), got {tuple(w.shape)}: one weight per feature, "
            "input_shape[-1]"))
        expect(w.path == f"{layer.name}/scale", (
            f"expected the path '{layer.name}/scale', got {w.path!r}: create it "
            "with add_weight(..., name='scale')"))
        expect(np.allclose(w.numpy(), 1.0), (
            f"the weight starts at {np.round(w.numpy(), 3)}, not at ones: "
            "initializer='ones'"))
        expect(np.allclose(y, x), "with a weight of ones the output should equal "
               "the input")
        layer(x)
        expect(len(layer.weights) == 1, "calling the layer again made another "
               "weight: create it in build, which runs once")


@exercise("ch03-sample-counter", "SampleCounter.call")
def check_sample_counter(SampleCounter):  # noqa: N803
    layer = SampleCounter()
    batches = [np.ones((size, 5), "float32") for size in (4, 3, 6)]
    outputs = [layer(batch) for batch in batches]
    expect(outputs[0] is not None and np.array_equal(outputs[0], batches[0]),
           "call should return its inputs unchanged")
    expect(layer.trainable_weights == [], "the counter must not be trainable")
    seen = int(layer.seen.numpy())
    total = sum(len(batch) for batch in batches)
    if seen == len(batches[-1]):
        fail(f"seen is {seen} after batches of 4, 3 and 6: add to it "
             "(assign_add), do not overwrite it")
    if seen == len(batches):
        fail(f"seen is {seen} after batches of 4, 3 and 6: that counts the calls; "
             "add the batch size, inputs.shape[0]")
    if seen == 5 * len(batches):
        fail(f"seen is {seen}: that adds the number of features; the batch size is "
             "the first dimension, inputs.shape[0]")
    if seen == 0:
        fail("seen is still 0: add to the weight self.seen (assign_add), not to a "
             "Python attribute")
    expect(seen == total, f"after batches of 4, 3 and 6 samples seen should be "
           f"{total}, got {seen}")


class _Twin(keras.Layer):
    """Makes its weights with ``maker``: one in ``__init__`` (an int step),
    two in ``build`` (a kernel with the default initializer, a bias of ones)."""

    def __init__(self, maker, **kwargs):
        super().__init__(**kwargs)
        self.maker = maker
        self.step = maker(self, shape=(), dtype="int64", trainable=False,
                          name="step")

    def build(self, input_shape):
        self.w = self.maker(self, shape=(input_shape[-1], 3), name="w")
        self.b = self.maker(self, shape=(3,), initializer="ones", name="b")

    def call(self, inputs):
        return ops.add(ops.matmul(inputs, self.w), self.b)


@exercise("ch03-add-weight", "add_weight")
def check_add_weight(add_weight):
    for dtype in ("float32", "float64"):
        with Refuse("ch03-add-weight", {keras.Layer.add_weight: "Layer.add_weight"}):
            mine = _Twin(add_weight, name="mine", dtype=dtype)
            mine(np.ones((2, 4), dtype))
        step, w, b = mine.step, mine.w, mine.b
        for var, name in ((step, "step"), (w, "w"), (b, "b")):
            expect(isinstance(var, keras.Variable), (
                f"add_weight returned {type(var).__name__} for {name!r}: return "
                "the keras.Variable"))
        expect(step.path == "mine/step", (
            f"a weight made in __init__ has the path {step.path!r}, expected "
            "'mine/step': create it inside keras.backend.name_scope(layer.name, "
            "caller=layer)"))
        expect((w.path, b.path) == ("mine/w", "mine/b"), (
            f"the paths are {w.path!r} and {b.path!r}, expected 'mine/w' and "
            "'mine/b'"))
        expect(not step.trainable, "step was made with trainable=False but the "
               "variable is trainable: pass trainable= on to keras.Variable")
        expect(mine.trainable_weights == [w, b] or mine.trainable_weights == [b, w],
               f"trainable weights: {[v.path for v in mine.trainable_weights]}, "
               "expected mine/w and mine/b")
        expect(mine.non_trainable_weights == [step], (
            f"non-trainable weights: {[v.path for v in mine.non_trainable_weights]}"
            ": a weight with trainable=False goes to layer._non_trainable_weights"))
        expect(str(step.dtype) == "int64", f"step should be int64, is {step.dtype}")
        for var in (w, b):
            expect(str(var.dtype) == dtype, (
                f"{var.path} is {var.dtype} in a {dtype} layer: the dtype "
                "defaults to the layer's (layer.dtype)"))
        expect(np.all(b.numpy() == 1), "b should be initialised with ones")
        expect(step.numpy() == 0, "an int weight defaults to zeros")
        values = w.numpy()
        limit = np.sqrt(6.0 / (4 + 3))  # glorot_uniform for a (4, 3) kernel
        expect(np.all(np.abs(values) <= limit) and np.std(values) > 0.1, (
            f"w looks wrongly initialised (values {np.round(values.ravel()[:4], 3)}"
            "...): a float weight defaults to glorot_uniform"))
