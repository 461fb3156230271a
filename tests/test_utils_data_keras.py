"""The data helpers against real Keras 3.15.1 (``make interop``).

Keras's directory and timeseries datasets are ``tf.data`` pipelines even on
the torch backend, so the Keras side needs TensorFlow: it runs in the
interpreter named by ``KERASMINI_REAL_KERAS_DATA_PYTHON`` (``make interop``
builds ``.venv-keras-data`` with keras 3.15.1, torch, tensorflow-cpu and
Pillow, and runs it with ``KERAS_BACKEND=torch``). Without it every test here
skips.

The same scenario code runs on both sides, with ``keras`` bound to kerasmini
here and to Keras in a subprocess; each scenario returns arrays, and the two
sets are compared one by one. The loaders read the same small files through
``get_file`` pointed at ``file://`` copies (no network).
"""

import os
import pickle
import textwrap

import keras_worker
import numpy as np
import pytest
from data_files import (
    cifar_batch,
    idx_gz,
    npz_bytes,
    object_array,
    tar_gz,
    word_index_json,
)
from PIL import Image

import kerasmini

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_DATA_PYTHON")
pytestmark = pytest.mark.skipif(
    KERAS_PYTHON is None,
    reason="KERASMINI_REAL_KERAS_DATA_PYTHON (Keras with TensorFlow) is unset")

SCENARIOS = textwrap.dedent('''
    import os
    import numpy as np

    def batches(ds):
        """The batches of a tf.data dataset or of a PyDataset, as NumPy."""
        if hasattr(ds, "as_numpy_iterator"):
            items = list(ds.as_numpy_iterator())
        else:
            items = list(ds)
        def plain(x):
            x = np.asarray(x)
            if x.dtype == object or x.dtype.kind == "S":
                return np.array([v.decode("utf-8", "replace") if isinstance(v, bytes) else v
                                 for v in x.ravel()], dtype=object).reshape(x.shape)
            return x
        return [tuple(plain(p) for p in b) if isinstance(b, tuple) else plain(b)
                for b in items]

    def redirect(module, served):
        """module.get_file reads ``served/<basename of origin>`` (file://)."""
        real = module.get_file
        def local(fname=None, origin=None, **kwargs):
            kwargs.pop("file_hash", None)
            kwargs.pop("md5_hash", None)
            name = origin.rsplit("/", 1)[-1]
            return real(fname, "file://" + os.path.join(served, name), **kwargs)
        module.get_file = local

    def scenario_get_file_paths(w):
        out = {}
        origin = "file://" + os.path.join(w["served"], "pack.tar.gz")
        for i, (fname, extract) in enumerate([(None, False), ("a.tgz", False),
                                              (None, True), ("pack", True),
                                              ("pack.tar.gz", True)]):
            cache = os.path.join(w["cache"], str(i))
            os.makedirs(cache)  # Keras takes a missing cache_dir as unwritable
            path = keras.utils.get_file(fname, origin, extract=extract, cache_dir=cache)
            listing = sorted(os.listdir(os.path.join(cache, "datasets")))
            out[str(i)] = (os.path.relpath(path, cache), listing)
        return out

    def scenario_loaders(w):
        out = {}
        for name in ("mnist", "fashion_mnist", "imdb", "reuters", "boston_housing",
                     "california_housing", "cifar100"):
            redirect(w["datasets"](name), w["served"])
        (a, b), (c, d) = keras.datasets.mnist.load_data()
        out["mnist"] = [a, b, c, d]
        (a, b), (c, d) = keras.datasets.fashion_mnist.load_data()
        out["fashion_mnist"] = [a, b, c, d]
        for i, kwargs in enumerate([{}, {"num_words": 9}, {"skip_top": 4, "maxlen": 5},
                                    {"oov_char": None, "num_words": 8, "seed": 1},
                                    {"start_char": None, "index_from": 0}]):
            for name in ("imdb", "reuters"):
                (a, b), (c, d) = getattr(keras.datasets, name).load_data(**kwargs)
                out[f"{name}{i}"] = [[list(s) for s in a], b, [list(s) for s in c], d]
        out["imdb_words"] = keras.datasets.imdb.get_word_index()
        out["reuters_words"] = keras.datasets.reuters.get_word_index()
        out["reuters_labels"] = keras.datasets.reuters.get_label_names()
        for kwargs in ({}, {"test_split": 0.5, "seed": 3}):
            (a, b), (c, d) = keras.datasets.boston_housing.load_data(**kwargs)
            out[f"boston{kwargs}"] = [a, b, c, d]
        for version in ("small", "large"):
            (a, b), (c, d) = keras.datasets.california_housing.load_data(version)
            out[f"california{version}"] = [a, b, c, d]
        for mode in ("fine", "coarse"):
            (a, b), (c, d) = keras.datasets.cifar100.load_data(label_mode=mode)
            out[f"cifar100{mode}"] = [a, b, c, d]
        data, labels = w["load_batch"](os.path.join(w["served"], "data_batch_1"))
        out["cifar_batch"] = [data, labels]
        return out

    def scenario_images(w):
        out = {}
        options = [
            dict(interpolation=m) for m in ("bilinear", "nearest", "bicubic", "area",
                                            "lanczos3", "lanczos5", "mitchellcubic")
        ] + [dict(crop_to_aspect_ratio=True), dict(pad_to_aspect_ratio=True),
             dict(crop_to_aspect_ratio=True, interpolation="bicubic"),
             dict(pad_to_aspect_ratio=True, interpolation="area"),
             dict(label_mode="categorical", color_mode="rgba"),
             dict(label_mode="binary", class_names=["dogs", "cats"]),
             dict(labels=None, data_format="channels_first"),
             dict(labels=[3, 1, 3, 1, 1, 3, 1], batch_size=None)]
        for i, kwargs in enumerate(options):
            options = {"image_size": (5, 7), "batch_size": 3, "shuffle": False,
                       "verbose": False, **kwargs}
            ds = keras.utils.image_dataset_from_directory(w["images"], **options)
            out[f"batches{i}"] = batches(ds)
            out[f"names{i}"] = ds.class_names
        train, val = keras.utils.image_dataset_from_directory(
            w["images"], validation_split=0.3, subset="both", seed=11, verbose=False)
        out["split"] = ([os.path.relpath(p, w["images"]) for p in train.file_paths],
                        [os.path.relpath(p, w["images"]) for p in val.file_paths])
        shuffled = keras.utils.image_dataset_from_directory(
            w["images"], seed=5, image_size=(4, 4), verbose=False)
        out["shuffled_paths"] = [os.path.relpath(p, w["images"])
                                 for p in shuffled.file_paths]
        out["shuffled_labels"] = sorted(np.concatenate(
            [b[1] for b in batches(shuffled)]).tolist())
        grey = keras.utils.image_dataset_from_directory(
            w["grey"], color_mode="grayscale", image_size=(3, 3), shuffle=False,
            verbose=False)
        out["grey"] = batches(grey)
        converted = keras.utils.image_dataset_from_directory(
            w["images"], color_mode="grayscale", image_size=(4, 4), shuffle=False,
            verbose=False, interpolation="nearest", class_names=["cats"])
        out["rgb_to_grey"] = batches(converted)
        out["gifs"] = batches(keras.utils.image_dataset_from_directory(
            w["gifs"], image_size=(5, 6), shuffle=False, verbose=False))
        return out

    def scenario_image_helpers(w):
        path = os.path.join(w["images"], "cats", "c0.png")
        out = {}
        for i, kwargs in enumerate([{}, {"color_mode": "grayscale"},
                                    {"target_size": (3, 4)},
                                    {"target_size": (4, 4), "keep_aspect_ratio": True,
                                     "interpolation": "bilinear"}]):
            out[f"load{i}"] = keras.utils.img_to_array(keras.utils.load_img(path, **kwargs))
        x = np.linspace(-3, 5, 5 * 4 * 3).reshape(5, 4, 3)
        out["to_img"] = np.asarray(keras.utils.array_to_img(x))
        out["first"] = keras.utils.img_to_array(
            keras.utils.array_to_img(x.transpose(2, 0, 1), data_format="channels_first"),
            data_format="channels_first")
        saved = os.path.join(w["cache"], "saved.png")
        keras.utils.save_img(saved, x, scale=True)
        out["saved"] = np.asarray(keras.utils.load_img(saved))
        return out

    def scenario_texts(w):
        out = {}
        for i, kwargs in enumerate([{}, {"max_length": 4}, {"label_mode": "categorical"},
                                    {"labels": None}, {"label_mode": "binary"}]):
            ds = keras.utils.text_dataset_from_directory(
                w["texts"], batch_size=2, shuffle=False, verbose=False, **kwargs)
            out[f"batches{i}"] = batches(ds)
        train, val = keras.utils.text_dataset_from_directory(
            w["texts"], validation_split=0.25, subset="both", seed=2, verbose=False)
        out["split"] = [sorted(t for b in batches(part) for t in b[0].tolist())
                        for part in (train, val)]
        return out

    def scenario_timeseries(w):
        out = {}
        data = np.arange(60, dtype="float32").reshape(30, 2)
        targets = np.arange(30) * 10
        for i, kwargs in enumerate([
                dict(sequence_length=4), dict(sequence_length=3, sequence_stride=2,
                                              sampling_rate=3, batch_size=4),
                dict(sequence_length=5, start_index=3, end_index=25, batch_size=5),
                dict(sequence_length=2, batch_size=None),
                dict(sequence_length=6, sequence_stride=4, batch_size=3,
                     targets=None)]):
            kwargs = {"targets": targets, **kwargs}
            ds = keras.utils.timeseries_dataset_from_array(data, **kwargs)
            out[f"batches{i}"] = batches(ds)
        shuffled = keras.utils.timeseries_dataset_from_array(
            data, None, sequence_length=3, shuffle=True, seed=4, batch_size=7)
        out["shuffled"] = sorted(np.concatenate(batches(shuffled))[:, 0, 0].tolist())
        return out

    def scenario_sequences(w):
        out = {}
        seqs = [[1], [2, 3], [4, 5, 6, 7], []]
        for i, kwargs in enumerate([{}, {"maxlen": 2}, {"padding": "post"},
                                    {"truncating": "post", "maxlen": 3, "value": -1},
                                    {"dtype": "float32", "value": 0.5}]):
            out[f"pad{i}"] = keras.utils.pad_sequences(seqs, **kwargs)
        out["pad_str"] = keras.utils.pad_sequences([["a"], ["b", "c"]], dtype=object,
                                                   value="_")
        out["pad_samples"] = keras.utils.pad_sequences(
            [np.ones((2, 3)), np.ones((1, 3)) * 2], dtype="float32")
        for i, (x, n) in enumerate([([0, 2, 1], None), ([[1], [0]], 3),
                                    ([[0, 1], [2, 0]], None), (4, 6),
                                    (np.array([1.0, 3.0]), 5)]):
            out[f"cat{i}"] = keras.utils.to_categorical(x, n)
        out["normalize"] = keras.utils.normalize(np.array([[3.0, 4.0], [1.0, 2.0]]))
        return out
''')

NAMES = ["get_file_paths", "loaders", "images", "image_helpers", "texts", "timeseries",
         "sequences"]

KERAS_RUNNER = textwrap.dedent('''
    import os, pickle, sys
    work = pickle.load(open(sys.argv[1], "rb"))
    os.environ["KERAS_HOME"] = work["cache"]
    import importlib
    import keras
    from keras.src.datasets.cifar import load_batch
    work["datasets"] = lambda name: importlib.import_module(f"keras.src.datasets.{name}")
    work["load_batch"] = load_batch
    exec(work["code"])
    results = {}
    for name in work["names"]:
        results[name] = globals()["scenario_" + name](work)
    pickle.dump(results, open(sys.argv[2], "wb"))
''')


def _make_files(root):
    """The served files, image and text folders both sides read."""
    rng = np.random.RandomState(3)
    served = root / "served"
    served.mkdir()
    (served / "pack.tar.gz").write_bytes(tar_gz({"inner/a.txt": b"a", "b.txt": b"b"}))
    (served / "mnist.npz").write_bytes(npz_bytes(
        x_train=rng.randint(0, 256, (4, 28, 28)).astype("uint8"),
        y_train=rng.randint(0, 10, 4).astype("uint8"),
        x_test=rng.randint(0, 256, (2, 28, 28)).astype("uint8"),
        y_test=rng.randint(0, 10, 2).astype("uint8")))
    arrays = {"train-labels-idx1-ubyte.gz": (rng.randint(0, 10, 3), 2049),
              "train-images-idx3-ubyte.gz": (rng.randint(0, 256, (3, 28, 28)), 2051),
              "t10k-labels-idx1-ubyte.gz": (rng.randint(0, 10, 2), 2049),
              "t10k-images-idx3-ubyte.gz": (rng.randint(0, 256, (2, 28, 28)), 2051)}
    for name, (array, magic) in arrays.items():
        (served / name).write_bytes(idx_gz(array, magic))
    seqs = [list(rng.randint(1, 20, rng.randint(1, 9))) for _ in range(14)]
    (served / "imdb.npz").write_bytes(npz_bytes(
        x_train=object_array(seqs[:8]), y_train=rng.randint(0, 2, 8),
        x_test=object_array(seqs[8:]), y_test=rng.randint(0, 2, 6)))
    (served / "reuters.npz").write_bytes(npz_bytes(x=object_array(seqs),
                                                   y=rng.randint(0, 46, 14)))
    for name in ("imdb_word_index.json", "reuters_word_index.json"):
        (served / name).write_bytes(word_index_json(["the", "a", "of"]))
    (served / "boston_housing.npz").write_bytes(npz_bytes(x=rng.rand(25, 13),
                                                          y=rng.rand(25)))
    (served / "california_housing.npz").write_bytes(npz_bytes(
        x=rng.rand(650, 8).astype("float32"), y=rng.rand(650).astype("float32")))
    images = rng.randint(0, 256, (5, 32, 32, 3)).astype("uint8")
    labels = (b"fine_labels", b"coarse_labels")
    (served / "cifar-100-python.tar.gz").write_bytes(tar_gz({
        "cifar-100-python/train": cifar_batch(images[:3], [[1, 50, 99], [0, 7, 19]],
                                              labels),
        "cifar-100-python/test": cifar_batch(images[3:], [[4, 5], [1, 2]], labels)}))
    (served / "data_batch_1").write_bytes(cifar_batch(images, [[0, 1, 2, 3, 4]]))

    pictures = root / "images"
    for cls, count in (("cats", 4), ("dogs", 3)):
        (pictures / cls).mkdir(parents=True)
        for i in range(count):
            h, w = rng.randint(3, 15, size=2)
            pixels = rng.randint(0, 256, (h, w, 3)).astype("uint8")
            ext = "bmp" if (cls, i) == ("dogs", 1) else "png"  # (JPEG: see README)
            Image.fromarray(pixels).save(pictures / cls / f"{cls[0]}{i}.{ext}")
    gifs = root / "gifs" / "g"  # Keras reads GIFs in RGB only
    gifs.mkdir(parents=True)
    for i in range(2):
        Image.fromarray(rng.randint(0, 256, (5, 6, 3)).astype("uint8")).save(
            gifs / f"{i}.gif")
    grey = root / "grey" / "g"
    grey.mkdir(parents=True)
    for i in range(3):
        Image.fromarray(rng.randint(0, 256, (6, 5)).astype("uint8"), "L").save(
            grey / f"{i}.png")
    texts = root / "texts"
    for cls, words in (("neg", ["bad", "dull film", "no"]),
                       ("pos", ["good", "fun", "caf\u00e9 ok"])):
        (texts / cls).mkdir(parents=True)
        for i, word in enumerate(words):
            (texts / cls / f"{i}.txt").write_bytes(word.encode("utf-8"))
    return {"served": str(served), "images": str(pictures), "grey": str(root / "grey"),
            "gifs": str(root / "gifs"),
            "texts": str(texts)}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    import importlib

    from kerasmini.datasets.cifar import load_batch

    root = tmp_path_factory.mktemp("data_interop")
    files = _make_files(root)
    work = dict(files, code=SCENARIOS, names=NAMES)
    keras_work = dict(work, cache=str(root / "keras_cache"))
    with open(root / "work.pkl", "wb") as f:
        pickle.dump(keras_work, f)
    env = dict(os.environ, KERAS_BACKEND="torch", TF_CPP_MIN_LOG_LEVEL="3",
               KERAS_HOME=keras_work["cache"])  # (a shared worker imported Keras)
    env.pop("KERASMINI_DOWNLOAD_MIRROR", None)
    run = keras_worker.run(KERAS_PYTHON, KERAS_RUNNER, root / "work.pkl",
                           root / "keras.pkl", env=env, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    with open(root / "keras.pkl", "rb") as f:
        theirs = pickle.load(f)

    mini_work = dict(work, cache=str(root / "mini_cache"), load_batch=load_batch,
                     datasets=lambda name: importlib.import_module(
                         f"kerasmini.datasets.{name}"))
    namespace = {"keras": kerasmini}
    exec(SCENARIOS, namespace)
    saved_home = os.environ.get("KERAS_HOME")
    os.environ["KERAS_HOME"] = mini_work["cache"]
    try:
        ours = {name: namespace["scenario_" + name](mini_work) for name in NAMES}
    finally:
        if saved_home is None:
            del os.environ["KERAS_HOME"]
        else:
            os.environ["KERAS_HOME"] = saved_home
    return ours, theirs


def assert_same(ours, theirs, where, atol=0.0):
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), where
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]", atol)
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{where}[{i}]", atol)
    elif isinstance(theirs, np.ndarray) or isinstance(ours, np.ndarray):
        a, b = np.asarray(ours), np.asarray(theirs)
        assert a.shape == b.shape, (where, a.shape, b.shape)
        assert a.dtype == b.dtype or (a.dtype.kind == b.dtype.kind == "O"), \
            (where, a.dtype, b.dtype)
        if a.dtype.kind in "fc":
            np.testing.assert_allclose(a, b, atol=atol, rtol=0, err_msg=where)
        else:
            assert a.tolist() == b.tolist(), where
    else:
        assert ours == theirs, (where, ours, theirs)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "images"])
def test_same_results_as_keras(results, name):
    ours, theirs = results
    assert_same(ours[name], theirs[name], name)


def test_image_datasets_same_batches_as_keras(results):
    # float32 resizing: TensorFlow sums in float32, kerasmini in float64 (then
    # float32); on values 0-255 the two differ by at most a few 1e-4
    ours, theirs = results
    assert_same(ours["images"], theirs["images"], "images", atol=2e-3)
