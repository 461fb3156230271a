"""Checks of chapter 4's exercises (lazy building and input specs)."""

import sys

import numpy as np

import kerasmini as keras

from ._support import Mistake, Refuse, exercise, expect, fail


class _Probe(keras.Layer):
    """Returns its inputs; a spec set on it is checked by ``__call__``."""

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


def _accepts(spec, shape):
    """True if a layer with ``spec`` accepts a symbolic input of ``shape``."""
    probe = _Probe()
    probe.input_spec = spec
    try:
        probe(keras.KerasTensor(shape))
    except ValueError:
        return False
    return True


@exercise("ch04-image-spec", "image_spec")
def check_image_spec(image_spec):
    for channels in (3, 1):
        spec = image_spec(channels)
        expect(isinstance(spec, keras.InputSpec), (
            f"expected a keras.InputSpec, got {type(spec).__name__}"))
        other = 4 if channels == 1 else 1
        good = [(2, 8, 8, channels), (1, 32, 16, channels), (None, 5, 5, channels),
                (None, None, None, channels), (64, 3, 3, channels)]
        for shape in good:
            expect(_accepts(spec, shape), (
                f"image_spec({channels}) refuses {shape}: any batch size, height "
                "and width must pass"))
        bad = [((2, 8, channels), "rank 3: set ndim=4"),
               ((2, 8, 8, channels, 1), "rank 5: the rank is exactly 4, ndim=4"),
               ((2, 8, 8, other), f"{other} channel(s): fix axis -1 with axes"),
               ((2, channels, 8, 8), "channels first: the channels are the last "
                "axis, -1")]
        for shape, why in bad:
            expect(not _accepts(spec, shape), (
                f"image_spec({channels}) accepts {shape} ({why})"))


@exercise("ch04-center-layer", "Center.build")
def check_center_layer(Center):  # noqa: N803
    layer = Center()
    x = np.random.default_rng(0).normal(size=(2, 5)).astype("float32")
    out = layer(x)
    if layer.trainable_weights:
        fail("the mean is trainable: create it with trainable=False")
    means = layer.non_trainable_weights
    expect(len(means) == 1, f"expected one non-trainable weight, found {len(means)}")
    expect(tuple(means[0].shape) == (5,), (
        f"the mean should have shape (5,) for 5 features, got "
        f"{tuple(means[0].shape)}"))
    expect(np.allclose(means[0].numpy(), 0.0), "the mean starts at zeros")
    expect(np.allclose(out, x), "with a zero mean the output should equal the input")
    try:
        layer(np.ones((3, 5), dtype="float32"))
    except ValueError as error:
        fail(f"a batch of 3 (after building on a batch of 2) was refused: {error}; "
             "fix only the last axis, not the whole shape")
    try:
        layer(np.ones((2, 7), dtype="float32"))
    except ValueError as error:
        expect("expected axis -1" in str(error), (
            "calling on 7 features after building on 5 fails, but not with the "
            f"input spec's message: {error}. Set self.input_spec in build"))
    else:
        fail("calling on 7 features after building on 5 should fail: set "
             "self.input_spec = InputSpec(axes={-1: features})")


def _count_calls(name, run):
    """How many Python functions called ``name`` ``run()`` starts (a count made
    with ``sys.setprofile``, not with kerasmini's tracer)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_name == name:
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(previous)
    return count


def _built_dense():
    layer = keras.layers.Dense(2)
    layer.build((None, 4))
    return layer


@exercise("ch04-count-builds", "count_builds")
def check_count_builds(count_builds):
    cases = [("a fresh Dense called 3 times", lambda: keras.layers.Dense(2), 4),
             ("a Dense built by hand", _built_dense, 4),
             ("a fresh Sequential of two Dense layers",
              lambda: keras.Sequential([keras.layers.Dense(3),
                                        keras.layers.Dense(2)]), 6)]
    for what, make, features in cases:
        batches = [np.ones((2, features), "float32") for _ in range(3)]
        twin = make()
        expected = _count_calls("build", lambda t=twin, bs=batches: [t(b) for b in bs])
        got = count_builds(make(), batches)
        expect(got is not None, "count_builds returned None: return an int")
        if isinstance(got, int) and got > expected:
            fail(f"{what}: expected {expected} build(s), got {got}: count only the "
                 "frames whose name is exactly 'build' (_maybe_build is not build)")
        expect(got == expected, f"{what}: expected {expected} build(s), got {got}")


@exercise("ch04-maybe-build", "maybe_build")
def check_maybe_build(maybe_build):
    calls = []

    class Mine(keras.layers.Dense):
        def build(self, input_shape):
            calls.append(input_shape)
            super().build(input_shape)

        def _maybe_build(self, inputs):
            maybe_build(self, inputs)

    kernel = np.arange(12.0).reshape(4, 3) / 10
    bias = np.array([1.0, -1.0, 0.5])
    mine = Mine(3, name="mine", weights=[kernel, bias])
    x = np.linspace(-1.0, 1.0, 8).reshape(2, 4)
    try:
        with Refuse("ch04-maybe-build",
                    {keras.Layer._maybe_build: "Layer._maybe_build"}):
            outs = [mine(x), mine(x)]
    except (TypeError, ValueError) as error:
        if calls and not isinstance(calls[0], tuple):
            raise Mistake(f"build received {type(calls[0]).__name__}, not a shape: "
                          "give it the shape of the inputs, tuple(x.shape)"
                          ) from error
        raise
    expect(len(calls) == 1, f"build ran {len(calls)} times for two calls: return at "
           "once when the layer is built")
    shape = calls[0]
    expect(shape == (2, 4), f"build received {shape!r}, expected the shape (2, 4) "
           "as a tuple")
    expect(np.allclose(mine.kernel.numpy(), kernel), (
        "the kernel is not the one passed as weights=: set the initial weights "
        "(layer._initial_weights) after building"))
    expect(mine._initial_weights is None, "forget the initial weights once they are "
           "set (layer._initial_weights = None)")
    expected = x @ kernel + bias
    expect(np.allclose(outs[0], expected) and np.allclose(outs[1], expected),
           "the output is not inputs @ kernel + bias")
    calls.clear()
    Mine(2, name="mine_sym")(keras.Input(shape=(5,)))
    expect(calls == [(None, 5)], (
        f"a symbolic call should build with (None, 5), got {calls!r}"))

    seen = []

    class MineAdd(keras.layers.Add):
        def build(self, input_shape):
            seen.append(input_shape)
            super().build(input_shape)

        def _maybe_build(self, inputs):
            maybe_build(self, inputs)

    try:
        MineAdd()([np.ones((2, 3)), np.ones((2, 3))])
    except (AttributeError, TypeError, ValueError) as error:
        raise Mistake(f"a list of inputs failed ({type(error).__name__}: {error}): "
                      "build receives a list of shapes "
                      "(keras.tree.map_structure)") from error
    expect(seen == [[(2, 3), (2, 3)]], (
        f"for a list of inputs build receives a list of shapes, got {seen[:1]!r}"))
