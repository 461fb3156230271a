"""The preprocessing layers give real Keras 3.15.1's numbers, and their
``.keras`` files (adapted statistics, vocabularies) load on the other side.

The scenarios below are written once and run twice: here with kerasmini, and
by real Keras in a subprocess. Keras's lookups and ``TextVectorization`` run
TensorFlow inside whatever the backend, so the Keras side is the interpreter
named by ``KERASMINI_REAL_KERAS_DATA_PYTHON`` (Keras with TensorFlow, as
``make interop`` sets it), run with ``KERAS_BACKEND=tensorflow``: the
backend whose ``image.resize`` has every interpolation (torch's has bilinear,
nearest and bicubic only). Without it every test here skips.

The random image layers are compared through what they do with a drawn
transformation: a range of one value (``factor=(0.1, 0.1)``) for the affine
ones (rotation, zoom, translation: every fill mode and interpolation), and a
transformation given by hand to ``transform_images`` for flips, contrast and
crops (the two sides' random streams differ: torch's generator against
NumPy's).
"""

import json
import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_DATA_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None,
    reason="KERASMINI_REAL_KERAS_DATA_PYTHON (Keras with TensorFlow) is unset")

SCENARIOS = textwrap.dedent('''
    RNG = np.random.default_rng(0)
    IMAGES = RNG.uniform(0, 255, size=(2, 8, 10, 3)).astype("float32")
    BYTES = RNG.integers(0, 256, size=(2, 5, 6, 3)).astype("uint8")
    DATA = (RNG.normal(size=(40, 4, 3)) * [1.0, 3.0, 0.5] + [0.0, -2.0, 5.0]
            ).astype("float32")
    WORDS = np.array([["cat", "dog", "cat"], ["fox", "dog", "cat"],
                      ["emu", "ant", "bee"]])
    IDS = np.array([[12, 36, 12, 7], [7, 7, 99, 12], [5, 12, 36, 0]])
    TEXT = np.array(["The cat sat on the mat.", "The DOG ate my homework!",
                     "Don't panic -- the cat's fine", "a  b\\tc   the end",
                     "Café CAFÉ café"])

    def numpy(x):
        return np.asarray(keras.ops.convert_to_numpy(x))

    def tensor(x):
        return keras.ops.convert_to_tensor(np.asarray(x))

    def images():
        out = {"rescaling": numpy(layers.Rescaling(1 / 127.5, offset=-1)(BYTES)),
               "rescaling_vector": numpy(layers.Rescaling([0.5, 1.0, 2.0])(IMAGES))}
        for interpolation in ("bilinear", "nearest", "bicubic", "area",
                              "lanczos3", "lanczos5"):
            for size in ((5, 4), (12, 15)):
                layer = layers.Resizing(*size, interpolation=interpolation)
                out[f"resize/{interpolation}/{size}"] = numpy(layer(IMAGES))
        for antialias in (False, True):
            out[f"resize/antialias/{antialias}"] = numpy(layers.Resizing(
                3, 4, antialias=antialias)(IMAGES))
        out["resize/crop_to_aspect_ratio"] = numpy(layers.Resizing(
            6, 3, crop_to_aspect_ratio=True)(IMAGES))
        out["resize/pad_to_aspect_ratio"] = numpy(layers.Resizing(
            6, 3, pad_to_aspect_ratio=True, fill_value=7.0)(IMAGES))
        out["resize/channels_first"] = numpy(layers.Resizing(
            4, 5, data_format="channels_first")(IMAGES.transpose(0, 3, 1, 2)))
        out["resize/uint8"] = numpy(layers.Resizing(3, 3)(BYTES))
        out["resize/one_image"] = numpy(layers.Resizing(4, 4)(IMAGES[0]))
        out["center_crop"] = numpy(layers.CenterCrop(4, 6)(IMAGES))
        out["center_crop/odd"] = numpy(layers.CenterCrop(5, 3)(IMAGES))
        out["center_crop/larger"] = numpy(layers.CenterCrop(10, 7)(IMAGES))
        return out

    def random_images():
        out = {}
        for fill_mode in ("reflect", "wrap", "constant", "nearest"):
            for interpolation in ("bilinear", "nearest"):
                kw = dict(fill_mode=fill_mode, interpolation=interpolation)
                if fill_mode == "constant":
                    kw["fill_value"] = 3.0
                key = f"{fill_mode}/{interpolation}"
                out[f"rotation/{key}"] = numpy(layers.RandomRotation(
                    (0.1, 0.1), **kw)(IMAGES, training=True))
                out[f"zoom_in/{key}"] = numpy(layers.RandomZoom(
                    (-0.3, -0.3), (-0.2, -0.2), **kw)(IMAGES, training=True))
                out[f"zoom_out/{key}"] = numpy(layers.RandomZoom(
                    (0.4, 0.4), **kw)(IMAGES, training=True))
                out[f"translation/{key}"] = numpy(layers.RandomTranslation(
                    (0.2, 0.2), (-0.3, -0.3), **kw)(IMAGES, training=True))
        for mode in ("horizontal", "vertical", "horizontal_and_vertical"):
            flip = layers.RandomFlip(mode)
            flips = tensor(np.array([True, False]).reshape(2, 1, 1, 1))
            out[f"flip/{mode}"] = numpy(flip.transform_images(
                tensor(IMAGES), {"flips": flips, "input_shape": IMAGES.shape}))
        contrast = layers.RandomContrast(0.5)
        factors = tensor(np.array([0.6, 1.4], "float32").reshape(2, 1, 1, 1))
        out["contrast"] = numpy(contrast.transform_images(
            tensor(IMAGES), {"contrast_factor": factors}))
        crop = layers.RandomCrop(5, 7)
        out["crop"] = numpy(crop.transform_images(tensor(IMAGES), (2, 1)))
        for layer in (layers.RandomFlip(), layers.RandomRotation(0.2),
                      layers.RandomZoom(0.2), layers.RandomTranslation(0.1, 0.1),
                      layers.RandomContrast(0.3)):
            out[f"inference/{type(layer).__name__}"] = numpy(
                layer(IMAGES, training=False))
        return out

    def normalization():
        out = {}
        for name, axis in (("last", -1), ("none", None), ("two", (1, 2)),
                           ("middle", 1)):
            layer = layers.Normalization(axis=axis)
            layer.adapt(DATA)
            out[f"adapt/{name}/mean"] = numpy(layer.adapt_mean)
            out[f"adapt/{name}/variance"] = numpy(layer.adapt_variance)
            out[f"adapt/{name}/out"] = numpy(layer(DATA[:5]))
        given = layers.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25])
        out["given"] = numpy(given(DATA[:3]))
        inverse = layers.Normalization(mean=[1.0, 2.0, 3.0],
                                       variance=[4.0, 1.0, 0.25], invert=True)
        out["invert"] = numpy(inverse(DATA[:3]))
        out["constant_feature"] = numpy(_adapted_constant()(
            np.array([[1.0, 2.0]], "float32")))
        return out

    def _adapted_constant():
        layer = layers.Normalization()
        layer.adapt(np.ones((5, 2), "float32"))
        return layer

    def discretization():
        out = {}
        x = np.array([[-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]], "float32")
        for mode in ("int", "one_hot", "multi_hot", "count"):
            layer = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0],
                                          output_mode=mode)
            out[f"given/{mode}"] = numpy(layer(x if mode != "one_hot" else x[0]))
        for num_bins, size in ((4, 400), (5, 30), (3, 7)):
            data = np.random.default_rng(num_bins).normal(size=(size, 1))
            layer = layers.Discretization(num_bins=num_bins, epsilon=0.01)
            layer.adapt(data.astype("float32"))
            out[f"adapt/{num_bins}/boundaries"] = np.array(layer.bin_boundaries)
            out[f"adapt/{num_bins}/out"] = numpy(layer(data[:20]))
        return out

    def lookups():
        out = {}
        for mode in ("int", "one_hot", "multi_hot", "count", "tf_idf"):
            layer = layers.StringLookup(output_mode=mode)
            layer.adapt(WORDS)
            out[f"string/{mode}/vocabulary"] = layer.get_vocabulary()
            x = WORDS[:, :1] if mode == "one_hot" else WORDS
            out[f"string/{mode}/out"] = numpy(layer(x))
        layer = layers.StringLookup(mask_token="[MASK]", max_tokens=5)
        layer.adapt(WORDS)
        out["string/mask_max/vocabulary"] = layer.get_vocabulary()
        out["string/mask_max/out"] = numpy(layer(np.array(["[MASK]", "cat", "emu",
                                                           "zzz"])))
        padded = layers.StringLookup(max_tokens=8, pad_to_max_tokens=True,
                                     output_mode="multi_hot",
                                     vocabulary=["cat", "dog"])
        out["string/pad_to_max_tokens"] = numpy(padded(WORDS))
        invert = layers.StringLookup(vocabulary=["cat", "dog"], invert=True)
        out["string/invert"] = [  # Keras's are bytes (TensorFlow's strings)
            s.decode() if isinstance(s, bytes) else s
            for s in numpy(invert(np.array([0, 1, 2, 5]))).tolist()]
        tf_idf = layers.StringLookup(output_mode="tf_idf", vocabulary=["cat", "dog"],
                                     idf_weights=[0.5, 2.0])
        out["string/tf_idf_given"] = numpy(tf_idf(WORDS))
        for mode in ("int", "multi_hot", "count"):
            layer = layers.IntegerLookup(output_mode=mode)
            layer.adapt(IDS)
            out[f"integer/{mode}/vocabulary"] = layer.get_vocabulary()
            out[f"integer/{mode}/out"] = numpy(layer(IDS))
        hashed = layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3,
                                      mask_token=0)
        out["integer/oov_buckets"] = numpy(hashed(IDS))
        invert = layers.IntegerLookup(vocabulary=[12, 36], invert=True)
        out["integer/invert"] = numpy(invert(np.array([0, 1, 2, 4])))
        return out

    def text():
        out = {}
        cases = {
            "default": dict(),
            "length": dict(output_sequence_length=4),
            "max_tokens": dict(max_tokens=6, output_sequence_length=6),
            "lower": dict(standardize="lower"),
            "strip": dict(standardize="strip_punctuation"),
            "none": dict(standardize=None),
            "character": dict(split="character", output_sequence_length=12),
            "bigrams": dict(ngrams=2),
            "widths": dict(ngrams=(1, 3)),
            "multi_hot": dict(output_mode="multi_hot"),
            "count": dict(output_mode="count", max_tokens=8,
                          pad_to_max_tokens=True),
            "tf_idf": dict(output_mode="tf_idf"),
        }
        for name, kw in cases.items():
            layer = layers.TextVectorization(**kw)
            layer.adapt(TEXT)
            out[f"{name}/vocabulary"] = layer.get_vocabulary()
            out[f"{name}/out"] = numpy(layer(TEXT))
            out[f"{name}/new"] = numpy(layer(np.array(["the unseen cat",
                                                       "CAT. cat? mat!"])))
        given = layers.TextVectorization(vocabulary=["the", "cat"],
                                         output_sequence_length=3)
        out["given"] = numpy(given(np.array([["The cat"], ["cat cat the dog"]])))
        one_hot = layers.TextVectorization(split=None, output_mode="one_hot",
                                           vocabulary=["a", "b"])
        out["one_hot"] = numpy(one_hot(np.array(["a", "b", "zz"])))
        return out

    SCENARIOS = {f.__name__: f for f in (images, random_images, normalization,
                                         discretization, lookups, text)}

    def flat(result):
        """Numbers as float64 arrays; vocabularies as arrays of str."""
        out = {}
        for key, value in result.items():
            if isinstance(value, list) and value and isinstance(value[0], str):
                out[key] = np.array(value, dtype=str)
            else:
                out[key] = np.asarray(value, "float64")
        return out

    def saved_models(directory):
        """Adapted layers in a model, saved; returns the inputs it reads."""
        norm = layers.Normalization()
        norm.adapt(DATA[:, 0])
        disc = layers.Discretization(num_bins=4)
        disc.adapt(DATA[:, 0, :1])
        numbers = keras.Input((3,))
        numeric = keras.Model(numbers, [norm(numbers), disc(numbers)])
        numeric.save(os.path.join(directory, "numeric.keras"))
        words = layers.StringLookup(output_mode="count")
        words.adapt(WORDS)
        ids = layers.IntegerLookup(mask_token=0)
        ids.adapt(IDS)
        vectorize = layers.TextVectorization(max_tokens=10, output_sequence_length=5)
        vectorize.adapt(TEXT)
        tf_idf = layers.TextVectorization(output_mode="tf_idf")
        tf_idf.adapt(TEXT)
        for name, layer, dtype, shape in (
                ("words", words, "string", (3,)), ("ids", ids, "int64", (4,)),
                ("vectorize", vectorize, "string", (1,)),
                ("tf_idf", tf_idf, "string", (1,))):
            x = keras.Input(shape, dtype=dtype)
            keras.Model(x, layer(x)).save(os.path.join(directory, name + ".keras"))
        images_in = keras.Input((8, 10, 3))
        y = layers.Rescaling(1 / 255)(images_in)
        y = layers.Resizing(6, 6)(y)
        y = layers.RandomFlip()(y)
        y = layers.CenterCrop(4, 4)(y)
        keras.Model(images_in, y).save(os.path.join(directory, "images.keras"))

    def configs():
        """The lookups' configs, given a vocabulary or adapted."""
        adapted_words = layers.StringLookup(max_tokens=6, mask_token="")
        adapted_words.adapt(WORDS)
        adapted_ids = layers.IntegerLookup(output_mode="count")
        adapted_ids.adapt(IDS)
        adapted_text = layers.TextVectorization(max_tokens=9, ngrams=2,
                                                output_sequence_length=4)
        adapted_text.adapt(TEXT)
        made = {
            "string": layers.StringLookup(vocabulary=["cat", "dog"]),
            "string_tf_idf": layers.StringLookup(
                vocabulary=["cat", "dog"], idf_weights=[0.5, 2.0],
                output_mode="tf_idf"),
            "string_adapted": adapted_words,
            "integer": layers.IntegerLookup(vocabulary=[12, 36], mask_token=0,
                                            num_oov_indices=2),
            "integer_adapted": adapted_ids,
            "text": layers.TextVectorization(vocabulary=["a", "b"],
                                             standardize="lower", split=None,
                                             output_mode="one_hot"),
            "text_adapted": adapted_text,
        }
        return {name: layer.get_config() for name, layer in made.items()}

    MODEL_INPUTS = {"numeric": DATA[:6, 0], "words": WORDS, "ids": IDS,
                    "vectorize": TEXT[:, None], "tf_idf": TEXT[:, None],
                    "images": IMAGES}

    def predictions(directory):
        """Each saved model's outputs on its inputs."""
        out = {}
        for name, x in MODEL_INPUTS.items():
            model = keras.saving.load_model(os.path.join(directory, name + ".keras"))
            y = model(x, training=False)
            for i, value in enumerate(y if isinstance(y, (list, tuple)) else [y]):
                out[f"{name}/{i}"] = numpy(value).astype("float64")
        return out
''')

KERAS_SIDE = textwrap.dedent('''
    import os
    import sys
    import numpy as np
    import keras
    from keras import layers
''') + SCENARIOS + textwrap.dedent('''
    task, path = sys.argv[1], sys.argv[2]
    if task == "scenarios":
        arrays = {}
        for name in sys.argv[3:]:
            for key, value in flat(SCENARIOS[name]()).items():
                arrays[f"{name}:{key}"] = value
        np.savez(path, **arrays)
    elif task == "configs":
        import json
        with open(path, "w") as file:
            json.dump(configs(), file, default=str)
    elif task == "save":
        saved_models(path)
    else:
        np.savez(os.path.join(path, "predictions.npz"), **predictions(path))
''')

MINE = {"keras": keras, "layers": layers, "np": np, "os": os}
exec(SCENARIOS, MINE)


def run_keras(*args, backend="tensorflow"):
    env = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3",
               CUDA_VISIBLE_DEVICES="")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, *args, env=env, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]


# Keras's answer depends on its backend where the backends differ: the
# affine transforms' "wrap" mode and their nearest rounding follow TensorFlow's
# ImageProjectiveTransformV3 on the TensorFlow backend, and scipy's
# `map_coordinates` (as kerasmini) on torch, JAX and NumPy.
ON_TORCH = ("random_images",)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    directory = tmp_path_factory.mktemp("preprocessing_keras")
    run_keras("scenarios", directory / "tf.npz",
              *[name for name in MINE["SCENARIOS"] if name not in ON_TORCH])
    run_keras("scenarios", directory / "torch.npz", *ON_TORCH, backend="torch")
    return {**np.load(directory / "tf.npz"), **np.load(directory / "torch.npz")}


def assert_same(mine, theirs, where):
    assert sorted(mine) == sorted(theirs), where
    for key, value in mine.items():
        if value.dtype.kind == "U":
            assert value.tolist() == theirs[key].tolist(), f"{where}: {key}"
        else:
            np.testing.assert_allclose(value, theirs[key], rtol=1e-5, atol=1e-4,
                                       err_msg=f"{where}: {key}")


@needs_keras
@pytest.mark.parametrize("name", list(MINE["SCENARIOS"]))
def test_same_numbers_as_keras(keras_results, name):
    mine = MINE["flat"](MINE["SCENARIOS"][name]())
    theirs = {key.split(":", 1)[1]: value for key, value in keras_results.items()
              if key.startswith(name + ":")}
    assert_same(mine, theirs, name)


@needs_keras
def test_keras_loads_kerasmini_s_adapted_layers(tmp_path):
    """Statistics, bin boundaries and vocabularies adapted by kerasmini travel
    in the .keras file; Keras gives the same outputs from it."""
    MINE["saved_models"](str(tmp_path))
    mine = MINE["predictions"](str(tmp_path))
    run_keras("predict", tmp_path)
    theirs = dict(np.load(tmp_path / "predictions.npz"))
    assert_same(mine, theirs, "kerasmini's files")


@needs_keras
def test_kerasmini_loads_keras_s_adapted_layers(tmp_path):
    run_keras("save", tmp_path)
    mine = MINE["predictions"](str(tmp_path))
    run_keras("predict", tmp_path)
    theirs = dict(np.load(tmp_path / "predictions.npz"))
    assert_same(mine, theirs, "Keras's files")


@needs_keras
def test_same_configs_as_keras(tmp_path):
    """The lookups' configs: Keras's keys and values (``tests/
    test_layer_configs_keras.py`` compares the other layers' with a Keras
    that has no TensorFlow)."""
    run_keras("configs", tmp_path / "configs.json")
    theirs = json.loads((tmp_path / "configs.json").read_text())
    mine = json.loads(json.dumps(MINE["configs"](), default=str))
    for name, config in mine.items():
        assert sorted(config) == sorted(theirs[name]), name
        for key, value in config.items():
            if key == "name":
                continue  # the automatic names count other layers
            assert value == theirs[name][key], (name, key)


def test_the_scenarios_would_see_a_wrong_layer():
    """The scenarios change with each option they compare (a layer that
    ignored one would be caught)."""
    images = MINE["images"]()
    assert not np.allclose(images["resize/bilinear/(5, 4)"],
                           images["resize/area/(5, 4)"])
    assert not np.allclose(images["resize/antialias/False"],
                           images["resize/antialias/True"])
    randoms = MINE["random_images"]()
    assert not np.allclose(randoms["rotation/reflect/bilinear"],
                           randoms["rotation/wrap/bilinear"])
    assert not np.allclose(randoms["flip/horizontal"], randoms["flip/vertical"])
    texts = MINE["text"]()
    assert texts["default/vocabulary"] != texts["lower/vocabulary"]
    assert texts["bigrams/vocabulary"] != texts["widths/vocabulary"]
