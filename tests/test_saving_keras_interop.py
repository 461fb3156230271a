"""Real Keras 3 reads kerasmini's ``.keras`` files, and kerasmini reads Keras's.

The Keras side runs in a subprocess: the interpreter named by the environment
variable ``KERASMINI_REAL_KERAS_PYTHON`` (e.g. a venv with ``keras==3.15.1``
and ``torch``, run with ``KERAS_BACKEND=torch``), else this interpreter if it
can import ``keras``. Without either, every test here is skipped.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import keras_worker
import numpy as np
import pytest
from optimizer_roundtrip import CASES as OPTIMIZER_CASES
from optimizer_roundtrip import SOURCE as OPTIMIZER_SOURCE
from optimizer_roundtrip import part

import kerasmini as keras
import kerasmini.optimizers
from kerasmini import layers
from kerasmini.saving import load_model

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
if KERAS_PYTHON is None and importlib.util.find_spec("keras") is not None:
    KERAS_PYTHON = sys.executable
pytestmark = pytest.mark.skipif(
    KERAS_PYTHON is None,
    reason="real Keras is not importable and KERASMINI_REAL_KERAS_PYTHON is unset")

# The models, written once: `import kerasmini as keras` runs the same code as
# Keras, so both sides execute this source with their own `keras` and `layers`.
MODELS = textwrap.dedent('''
    def leaves(model):
        for layer in model.layers:
            if hasattr(layer, "layers"):
                yield from leaves(layer)
            else:
                yield layer

    def make(kind):
        keras.utils.set_random_seed(0)
        if kind == "sequential":
            return keras.Sequential([
                keras.Input((2, 3)), layers.Flatten(),
                layers.Dense(8, activation="relu"), layers.Dropout(0.3),
                layers.Dense(3), layers.Activation("softmax")])
        if kind == "conv":
            model = keras.Sequential([
                keras.Input((8, 8, 2)),
                layers.Conv2D(4, 3, padding="same", activation="relu"),
                layers.BatchNormalization(), layers.MaxPooling2D(2),
                layers.Conv2D(3, 2, strides=2), layers.AveragePooling2D(1),
                layers.GlobalAveragePooling2D(), layers.Dense(2)])
            bn = model.layers[1]  # non-trivial moving statistics
            bn.moving_mean.assign(np.linspace(-1, 1, 4).astype("float32"))
            bn.moving_variance.assign(np.linspace(0.5, 2, 4).astype("float32"))
            return model
        if kind == "sequence":  # the 1D layers, the merges and the reshapes
            x = keras.Input((12, 3))
            h = layers.Conv1D(4, 3, padding="causal", dilation_rate=2,
                              activation="relu")(x)
            h = layers.MaxPooling1D(2)(h)
            h = layers.Conv1D(5, 2, padding="same")(h)
            h = layers.AveragePooling1D(2, padding="same")(h)
            h = layers.UpSampling1D(2)(h)
            h = layers.ZeroPadding1D((1, 2))(h)
            h = layers.Cropping1D((2, 1))(h)
            h = layers.LayerNormalization(beta_initializer="random_normal",
                                          gamma_initializer="random_normal")(h)
            h = layers.Permute((2, 1))(h)
            a, b = layers.GlobalMaxPooling1D()(h), layers.GlobalAveragePooling1D()(h)
            m = layers.concatenate([
                layers.subtract([a, b]), layers.multiply([a, b]),
                layers.average([a, b]), layers.maximum([a, b]),
                layers.minimum([a, layers.Add()([a, b])])])
            d = layers.Dot(axes=1, normalize=True)([a, b])
            e = layers.dot([layers.RepeatVector(3)(a), layers.RepeatVector(3)(b)],
                           axes=(2, 2))
            return keras.Model(x, [layers.Dense(2)(m), d, layers.Flatten()(e)])
        if kind == "image":  # the 2D layers that change the image size
            return keras.Sequential([
                keras.Input((6, 6, 2)),
                layers.Conv2DTranspose(3, 3, strides=2, padding="same"),
                layers.ZeroPadding2D(((1, 0), (0, 1))),
                layers.Cropping2D(((1, 2), (2, 1))),
                layers.Conv2DTranspose(2, 2, strides=2, output_padding=1,
                                       activation="tanh"),
                layers.MaxPooling2D(3), layers.UpSampling2D((1, 2)),
                layers.LayerNormalization(axis=(2, 3)),
                layers.GlobalMaxPooling2D(), layers.Dense(2)])
        if kind == "morelayers_conv":  # issue 24's convolutions and activations
            x = keras.Input((4, 6, 6, 2))
            h = layers.Conv3D(3, (2, 3, 3), padding="same")(x)
            h = layers.PReLU(shared_axes=[1, 2], alpha_initializer="random_normal")(h)
            h = layers.MaxPooling3D((1, 2, 2))(h)
            h = layers.AveragePooling3D((2, 1, 1), padding="same")(h)
            h = layers.Reshape((2, 27))(h)
            s = layers.SeparableConv1D(4, 2, depth_multiplier=2, padding="same")(h)
            s = layers.DepthwiseConv1D(2, activation="relu")(s)
            s = layers.Conv1DTranspose(3, 3, strides=2)(s)
            s = layers.LeakyReLU(0.3)(layers.GlobalMaxPooling1D()(s))
            i = layers.Reshape((6, 6, 8))(layers.Permute((2, 3, 1, 4))(x))
            i = layers.SeparableConv2D(3, 3, padding="same")(i)
            i = layers.DepthwiseConv2D(2, depth_multiplier=2)(i)
            i = layers.ReLU(max_value=2.0)(layers.GlobalAveragePooling2D()(i))
            g = layers.GlobalAveragePooling3D()(layers.ELU()(x))
            out = layers.Dense(3)(layers.concatenate(
                [s, i, layers.UnitNormalization()(g)]))
            return keras.Model(x, layers.Softmax()(out))
        if kind == "morelayers_recurrent":  # Bidirectional and ConvLSTM
            x = keras.Input((5, 3))
            h = layers.Bidirectional(layers.LSTM(3, return_sequences=True))(x)
            h = layers.Bidirectional(layers.GRU(2), merge_mode="sum",
                                     backward_layer=layers.GRU(
                                         2, go_backwards=True))(h)
            frames = keras.Input((3, 5, 5, 1))
            c = layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)(frames)
            c = layers.ConvLSTM2D(2, 2, strides=2)(c)
            c = layers.Flatten()(c)
            return keras.Model([x, frames], layers.Dense(2)(
                layers.concatenate([h, c])))
        if kind == "embedding":
            return keras.Sequential([keras.Input((5,), dtype="int32"),
                                     layers.Embedding(10, 3), layers.Flatten(),
                                     layers.Dense(2)])
        if kind == "recurrent":  # masks from Embedding through three RNNs
            return keras.Sequential([
                keras.Input((6,), dtype="int32"),
                layers.Embedding(10, 4, mask_zero=True),
                layers.LSTM(5, return_sequences=True),
                layers.GRU(4, return_sequences=True, go_backwards=True),
                layers.SimpleRNN(3), layers.Dense(2)])
        if kind == "recurrent_states":
            x = keras.Input((6, 3))
            seq, h, c = layers.LSTM(4, return_sequences=True, return_state=True,
                                    go_backwards=True)(x)
            g = layers.GRU(3, reset_after=False, activation="relu")(seq)
            s, s_h = layers.SimpleRNN(2, return_sequences=True,
                                      return_state=True)(x)
            cell_rnn = layers.RNN(layers.GRUCell(2), return_sequences=True)(x)
            return keras.Model(x, [seq, h, c, g, s, s_h, cell_rnn])
        if kind == "masking":  # (Keras records Masking's ops in a graph config)
            return keras.Sequential([
                keras.Input((6, 3)), layers.Masking(),
                layers.SimpleRNN(4, return_sequences=True),
                layers.GRU(3, return_sequences=True, reset_after=False),
                layers.LSTM(2, go_backwards=True)])
        if kind == "attention":  # Embedding's masks into the attention layers
            # (each masked tensor feeds one MultiHeadAttention and nothing after
            # it: Keras 3.15.1 takes the masks off its inputs and leaves them off)
            tokens, features = keras.Input((6,), dtype="int32"), keras.Input((4, 6))
            x, y, z, w = [layers.Embedding(10, 8, mask_zero=True)(tokens)
                          for _ in range(4)]
            h = layers.MultiHeadAttention(2, 4, dropout=0.2)(x, x, use_causal_mask=True)
            c = layers.MultiHeadAttention(2, 3, value_dim=2, output_shape=5,
                                          use_gate=True)(h, y)
            a = layers.Attention(use_scale=True, score_mode="concat")([z, w])
            b = layers.AdditiveAttention()([w, z])
            f = layers.Reshape((2, 2, 6))(features)
            f = layers.MultiHeadAttention(1, 2, attention_axes=(1, 2))(f, f)
            e = layers.EinsumDense("...x,xy->...y", output_shape=3, bias_axes="y")(
                layers.Flatten()(f))
            s = layers.Softmax(axis=(1, 2))(layers.EinsumDense(
                "abc,cd->abd", output_shape=(4, 2))(features))
            return keras.Model([tokens, features], [c, a, b, e, s])
        a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
        shared = layers.Dense(4, name="shared")
        h = layers.Concatenate()([shared(a), layers.Dense(4, activation="tanh")(b)])
        h = layers.Add()([h, layers.Activation("relu")(h)])
        out2 = layers.Flatten()(layers.Reshape((2, 4))(h))
        if kind == "functional":
            return keras.Model([a, b], [layers.Dense(1, name="o1")(h), out2])
        inner = keras.Sequential([keras.Input((8,)), layers.Dense(5)], name="inner")
        return keras.Model([a, b], inner(h))
''')

# The Keras side: `load <in.keras> <x.npz> <out.npz>` predicts with a file
# kerasmini wrote; `make <kind> <out.keras> <x.npz> <out.npz>` writes one.
KERAS_SIDE = textwrap.dedent('''
    import sys
    import numpy as np
    import keras
    from keras import layers
''') + MODELS + textwrap.dedent('''
    def dump(model, x, out):
        arrays = {}
        y = model.predict(list(x.values()) if len(x) > 1 else x["x0"], verbose=0)
        for i, value in enumerate(y if isinstance(y, list) else [y]):
            arrays[f"y{i}"] = value
        for layer in leaves(model):
            for i, w in enumerate(layer.get_weights()):
                arrays[f"w:{layer.name}/{i}"] = w
        if getattr(model, "optimizer", None) is not None and model.optimizer.built:
            for i, v in enumerate(model.optimizer.variables):
                arrays[f"opt/{i}"] = np.asarray(v.numpy())
        np.savez(out, **arrays)

    mode = sys.argv[1]
    if mode == "load":
        model = keras.saving.load_model(sys.argv[2])
        dump(model, dict(np.load(sys.argv[3])), sys.argv[4])
    else:
        model = make(sys.argv[2])
        x = dict(np.load(sys.argv[4]))
        if sys.argv[2] == "compiled":
            model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
            y = np.linspace(0, 1, len(x["x0"]) * 5, dtype="float32").reshape(-1, 5)
            model.fit([x["x0"], x["x1"]], y, epochs=2, batch_size=4, verbose=0)
        model.save(sys.argv[3])
        dump(model, x, sys.argv[5])
''')


KINDS = ["sequential", "functional", "nested", "conv", "embedding", "sequence",
         "image", "recurrent", "recurrent_states", "masking", "morelayers_conv",
         "morelayers_recurrent", "attention"]


def run_keras(*args):
    env = dict(os.environ)
    if os.environ.get("KERASMINI_REAL_KERAS_PYTHON"):
        env.setdefault("KERAS_BACKEND", "torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, *args, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]


_KERASMINI_SIDE = {"keras": keras, "layers": layers, "np": np}
exec(MODELS, _KERASMINI_SIDE)
leaves = _KERASMINI_SIDE["leaves"]
make_kerasmini = _KERASMINI_SIDE["make"]


def inputs_for(kind):
    rng = np.random.default_rng(1)
    if kind == "sequential":
        return {"x0": rng.normal(size=(6, 2, 3)).astype("float32")}
    if kind == "conv":
        return {"x0": rng.normal(size=(3, 8, 8, 2)).astype("float32")}
    if kind == "sequence":
        return {"x0": rng.normal(size=(4, 12, 3)).astype("float32")}
    if kind == "image":
        return {"x0": rng.normal(size=(3, 6, 6, 2)).astype("float32")}
    if kind == "morelayers_conv":
        return {"x0": rng.normal(size=(3, 4, 6, 6, 2)).astype("float32")}
    if kind == "morelayers_recurrent":
        return {"x0": rng.normal(size=(3, 5, 3)).astype("float32"),
                "x1": rng.normal(size=(3, 3, 5, 5, 1)).astype("float32")}
    if kind == "embedding":
        return {"x0": rng.integers(0, 10, size=(4, 5)).astype("int32")}
    if kind == "recurrent":  # 0 is padding: at the end, inside, everywhere
        x = rng.integers(1, 10, size=(4, 6)).astype("int32")
        x[0, 4:], x[1, 2], x[2, :] = 0, 0, 0
        return {"x0": x}
    if kind in ("recurrent_states", "masking"):  # Masking: all-zero steps
        x = rng.normal(size=(4, 6, 3)).astype("float32")
        x[0, 3:], x[1, 0] = 0.0, 0.0
        return {"x0": x}
    if kind == "attention":  # 0 is padding: at the end and inside
        x = rng.integers(1, 10, size=(4, 6)).astype("int32")
        x[0, 4:], x[1, 2] = 0, 0
        return {"x0": x, "x1": rng.normal(size=(4, 4, 6)).astype("float32")}
    return {"x0": rng.normal(size=(8, 4)).astype("float32"),
            "x1": rng.normal(size=(8, 3)).astype("float32")}


def predict(model, x):
    y = model.predict(list(x.values()) if len(x) > 1 else x["x0"], verbose=0)
    return y if isinstance(y, list) else [y]


def save_inputs(tmp_path, x):
    np.savez(tmp_path / "x.npz", **x)
    return tmp_path / "x.npz"


@pytest.mark.parametrize("kind", KINDS)
def test_keras_loads_kerasmini_file_with_same_weights_and_predictions(tmp_path, kind):
    model = make_kerasmini(kind)
    x = inputs_for(kind)
    model.save(tmp_path / "m.keras")
    run_keras("load", tmp_path / "m.keras", save_inputs(tmp_path, x), tmp_path / "out.npz")
    out = np.load(tmp_path / "out.npz")
    for layer in leaves(model):
        for i, w in enumerate(layer.get_weights()):
            assert np.array_equal(out[f"w:{layer.name}/{i}"], w), layer.name
    for i, y in enumerate(predict(model, x)):
        np.testing.assert_allclose(out[f"y{i}"], y, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_kerasmini_loads_keras_file_with_same_weights_and_predictions(tmp_path, kind):
    x = inputs_for(kind)
    run_keras("make", kind, tmp_path / "k.keras", save_inputs(tmp_path, x),
              tmp_path / "out.npz")
    out = np.load(tmp_path / "out.npz")
    model = load_model(tmp_path / "k.keras")
    names = {key.split(":")[1].rsplit("/", 1)[0] for key in out.files if ":" in key}
    assert names == {layer.name for layer in leaves(model) if layer.weights}
    for layer in leaves(model):
        for i, w in enumerate(layer.get_weights()):
            assert np.array_equal(out[f"w:{layer.name}/{i}"], w), layer.name
    for i, y in enumerate(predict(model, x)):
        np.testing.assert_allclose(y, out[f"y{i}"], rtol=1e-5, atol=1e-6)


def test_kerasmini_loads_keras_optimizer_state(tmp_path):
    x = inputs_for("nested")
    run_keras("make", "compiled", tmp_path / "k.keras", save_inputs(tmp_path, x),
              tmp_path / "out.npz")
    out = np.load(tmp_path / "out.npz")
    model = load_model(tmp_path / "k.keras")
    assert type(model.optimizer).__name__ == "Adam"
    assert int(model.optimizer.iterations.numpy()) == 4  # 2 epochs x 2 batches
    saved = [out[f"opt/{i}"] for i in range(len(model.optimizer.variables))]
    assert len([k for k in out.files if k.startswith("opt/")]) == len(saved)
    for mine, theirs in zip(model.optimizer.variables, saved):
        assert np.array_equal(mine.numpy(), theirs.astype(mine.dtype))


def test_keras_loads_kerasmini_optimizer_state(tmp_path):
    model = make_kerasmini("nested")
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    x = inputs_for("nested")
    y = np.linspace(0, 1, 40, dtype="float32").reshape(-1, 5)
    model.fit([x["x0"], x["x1"]], y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    model.save(tmp_path / "m.keras")
    run_keras("load", tmp_path / "m.keras", save_inputs(tmp_path, x), tmp_path / "out.npz")
    out = np.load(tmp_path / "out.npz")
    variables = model.optimizer.variables
    assert len([k for k in out.files if k.startswith("opt/")]) == len(variables)
    for i, variable in enumerate(variables):
        assert np.array_equal(out[f"opt/{i}"].astype(variable.dtype), variable.numpy())
    assert json.loads(json.dumps(model.get_compile_config()))["loss"] == "mse"


# ------------------------------------------------ the optimizer round trips
# The matrix of `optimizer_roundtrip.py` (every optimizer x untrained, one
# step, trained x compile or not) across the two libraries: one Keras
# subprocess loads every file kerasmini wrote, another writes its own.
# Right after loading, the optimizer's variables are what was saved, bit for
# bit; four more steps of training agree with the model that was never saved
# up to float32 rounding (NumPy and torch sum in different orders).
KERAS_MATRIX_SIDE = textwrap.dedent('''
    import glob
    import os
    import sys
    import numpy as np
    import keras
''') + OPTIMIZER_SOURCE + textwrap.dedent('''
    mode, folder = sys.argv[1], sys.argv[2]
    out = {}
    if mode == "make":
        for optimizer in OPTIMIZERS:
            for state in STATES:
                name = f"{optimizer}-{state}"
                model = trained(optimizer, state)
                state_of(model, f"{name}|saved", out)
                model.save(os.path.join(folder, name + ".keras"))
                fresh = fresh_copy(model, optimizer)
                go_on(fresh)
                state_of(fresh, f"{name}|fresh", out)
                go_on(model)
                state_of(model, f"{name}|continued", out)
    else:
        for path in sorted(glob.glob(os.path.join(folder, "*.keras"))):
            name = os.path.basename(path)[:-len(".keras")]
            optimizer = name.split("-")[0]
            for compile in (True, False):
                tag = f"{name}|{compile}"
                model = keras.saving.load_model(path, compile=compile)
                out[f"{tag}|compiled"] = np.asarray(model.compiled)
                state_of(model, f"{tag}|loaded", out)
                if not compile:
                    model.compile(optimizer=OPTIMIZERS[optimizer](), loss="mse")
                go_on(model)
                state_of(model, f"{tag}|continued", out)
    np.savez(os.path.join(folder, "out.npz"), **out)
''')

_MATRIX = {"keras": keras, "np": np}
exec(OPTIMIZER_SOURCE, _MATRIX)


def run_keras_matrix(mode, folder):
    env = dict(os.environ)
    if os.environ.get("KERASMINI_REAL_KERAS_PYTHON"):
        env.setdefault("KERAS_BACKEND", "torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_MATRIX_SIDE, mode, folder, env=env,
                              timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(np.load(folder / "out.npz"))


def _arrays(variables):
    return [np.asarray(v.numpy()) for v in variables]


def _assert_exact(actual, expected):
    # equal values (Keras on torch counts `iterations` in int32, kerasmini
    # in int64 as Keras's other backends)
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a.shape == e.shape and np.array_equal(a, e.astype(a.dtype)), i


def _assert_close(actual, expected):
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-6, err_msg=str(i))


@pytest.fixture(scope="module")
def keras_loaded_kerasmini_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kerasmini_files")
    references = {}
    for optimizer, state in OPTIMIZER_CASES:
        name = f"{optimizer}-{state}"
        model = _MATRIX["trained"](optimizer, state)
        model.save(folder / f"{name}.keras")
        # what the optimizer holds once loaded: kerasmini's own load (tested
        # against the saved state in test_saving_optimizers.py)
        references[name, "loaded"] = _arrays(load_model(
            folder / f"{name}.keras").optimizer.variables)
        fresh = _MATRIX["fresh_copy"](model, optimizer)
        _MATRIX["go_on"](fresh)
        references[name, "fresh"] = _arrays(fresh.weights)
        _MATRIX["go_on"](model)
        references[name, "continued"] = (_arrays(model.weights),
                                         _arrays(model.optimizer.variables))
    return run_keras_matrix("load", folder), references


@pytest.mark.parametrize("optimizer,state", OPTIMIZER_CASES)
@pytest.mark.parametrize("compile", [True, False])
def test_keras_loads_kerasmini_optimizer_in_every_state(
        keras_loaded_kerasmini_files, optimizer, state, compile):
    out, references = keras_loaded_kerasmini_files
    name = f"{optimizer}-{state}"
    tag = f"{name}|{compile}"
    assert bool(out[f"{tag}|compiled"]) is compile
    if not compile:
        assert part(out, f"{tag}|loaded", "opt") == []
        _assert_close(part(out, f"{tag}|continued", "w"), references[name, "fresh"])
        return
    # Keras builds the optimizer on loading too; an untrained file's slots
    # are Keras's initial values, which are kerasmini's
    _assert_exact(part(out, f"{tag}|loaded", "opt"), references[name, "loaded"])
    weights, variables = references[name, "continued"]
    _assert_close(part(out, f"{tag}|continued", "w"), weights)
    _assert_close(part(out, f"{tag}|continued", "opt"), variables)


@pytest.fixture(scope="module")
def keras_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keras_files")
    return folder, run_keras_matrix("make", folder)


@pytest.mark.parametrize("optimizer,state", OPTIMIZER_CASES)
@pytest.mark.parametrize("compile", [True, False])
def test_kerasmini_loads_keras_optimizer_in_every_state(
        keras_files, optimizer, state, compile):
    folder, out = keras_files
    name = f"{optimizer}-{state}"
    model = load_model(folder / f"{name}.keras", compile=compile)
    _assert_exact(_arrays(model.weights), part(out, f"{name}|saved", "w"))
    if not compile:
        assert not model.compiled and model.optimizer is None
        model.compile(optimizer=_MATRIX["OPTIMIZERS"][optimizer](), loss="mse")
        _MATRIX["go_on"](model)
        _assert_close(_arrays(model.weights), part(out, f"{name}|fresh", "w"))
        return
    saved = part(out, f"{name}|saved", "opt")
    restored = _arrays(model.optimizer.variables)
    _assert_exact(restored[:len(saved)], saved)
    if state == "untrained":  # Keras saved only iterations and the rate
        assert len(saved) < len(restored) or optimizer in (  # no slots
            "sgd", "sgd_cosine_warmup")
        initial = _MATRIX["trained"](optimizer, state)
        initial.optimizer.build(initial.trainable_variables)
        _assert_exact(restored, _arrays(initial.optimizer.variables))
    _MATRIX["go_on"](model)
    _assert_close(_arrays(model.weights), part(out, f"{name}|continued", "w"))
    _assert_close(_arrays(model.optimizer.variables),
                  part(out, f"{name}|continued", "opt"))


# ------------------------------------------- classes typed in a notebook
# A class defined in `__main__` (a notebook, a script) cannot be imported by
# another process, so Keras writes `"module": null` in its envelope and finds
# it again by its registered name. Both sides run the same script as
# `python -c` (so the classes live in `__main__`), save the same model and
# print the envelopes of the custom layers; kerasmini's must be Keras's.
MAIN_SIDE = textwrap.dedent('''
    import json
    import sys
    import zipfile
    if sys.argv[1] == "kerasmini":
        import kerasmini as keras
    else:
        import keras

    class Scale(keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    @keras.saving.register_keras_serializable(package="book")
    class Shift(keras.layers.Layer):
        def __init__(self, offset=1.0, **kwargs):
            super().__init__(**kwargs)
            self.offset = offset

        def call(self, x):
            return x + self.offset

        def get_config(self):
            return {**super().get_config(), "offset": self.offset}

    if sys.argv[2] == "save":
        model = keras.Sequential([keras.Input((3,)), Scale(3.0, name="triple"),
                                  Shift(0.5, name="shift")])
        model.save(sys.argv[3])
        with zipfile.ZipFile(sys.argv[3]) as archive:
            config = json.loads(archive.read("config.json"))
        print(json.dumps(config["config"]["layers"][1:]))
    else:
        model = keras.saving.load_model(sys.argv[3],
                                        custom_objects={"Scale": Scale})
        print(json.dumps([type(layer).__name__ for layer in model.layers]))
''')


def _run_main_side(library, *args):
    env = dict(os.environ)
    if library == "kerasmini":
        result = subprocess.run([sys.executable, "-c", MAIN_SIDE, library,
                                 *map(str, args)],
                                capture_output=True, text=True, env=env, timeout=600)
    else:
        if os.environ.get("KERASMINI_REAL_KERAS_PYTHON"):
            env.setdefault("KERAS_BACKEND", "torch")
        result = keras_worker.run(KERAS_PYTHON, MAIN_SIDE, library, *args, env=env,
                                  timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _without_shared_ids(config):
    # Keras marks a DTypePolicy object shared between layers with a
    # `shared_object_id` (a memory address, different on every run): not part
    # of the layout, and kerasmini shares no policy objects.
    if isinstance(config, dict):
        return {key: _without_shared_ids(value) for key, value in config.items()
                if key != "shared_object_id"}
    if isinstance(config, list):
        return [_without_shared_ids(item) for item in config]
    return config


def test_class_from_main_has_keras_envelope(tmp_path):
    theirs = _run_main_side("keras", "save", tmp_path / "k.keras")
    ours = _run_main_side("kerasmini", "save", tmp_path / "m.keras")
    assert [layer["module"] for layer in theirs] == [None, None]
    assert json.dumps(ours) == json.dumps(_without_shared_ids(theirs))


def test_class_from_main_loads_across_libraries(tmp_path):
    _run_main_side("keras", "save", tmp_path / "k.keras")
    _run_main_side("kerasmini", "save", tmp_path / "m.keras")
    names = ["Scale", "Shift"]
    assert _run_main_side("kerasmini", "load", tmp_path / "k.keras") == names
    assert _run_main_side("keras", "load", tmp_path / "m.keras") == names


# --------------------------------------------------- the legacy .h5 format
# Keras 3 still writes a `.h5` path as a legacy HDF5 file (Keras 2's layout:
# the config in the file's attributes, one group per layer name under
# `model_weights`); kerasmini neither writes nor reads it, and says so.
H5_SIDE = textwrap.dedent('''
    import sys
    import keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.save(sys.argv[1])
''')


def test_keras_writes_legacy_h5_that_kerasmini_refuses_clearly(tmp_path):
    import h5py

    env = dict(os.environ)
    if os.environ.get("KERASMINI_REAL_KERAS_PYTHON"):
        env.setdefault("KERAS_BACKEND", "torch")
    path = tmp_path / "k.h5"
    result = keras_worker.run(KERAS_PYTHON, H5_SIDE, path, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "considered legacy" in result.stderr  # Keras's own warning
    with h5py.File(path, "r") as file:
        assert "model_config" in file.attrs and "model_weights" in file
    with pytest.raises(ValueError, match="cannot load legacy HDF5 model files"):
        load_model(path)
    with pytest.raises(ValueError, match="legacy HDF5"):
        make_kerasmini("sequential").save(tmp_path / "m.h5")
