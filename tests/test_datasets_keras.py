"""``keras.datasets``: every loader reads small files in the exact format of
Keras's download, served from 127.0.0.1 (``KERASMINI_DOWNLOAD_MIRROR``), and
returns Keras's layouts and dtypes. The real sha256 of each download is
checked (a served test file fails it); the tests swap in their files' hash.
"""

import os

import numpy as np
import pytest
from data_files import (
    Evil,
    Mirror,
    cifar_batch,
    idx_gz,
    npz_bytes,
    object_array,
    serve,
    tar_gz,
    word_index_json,
)

import kerasmini as keras
from kerasmini.datasets import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
    safe_pickle,
)

GCS = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
RNG = np.random.RandomState(7)


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    served = tmp_path / "served"
    served.mkdir()
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    with serve(served) as server:
        mirror = Mirror(served, server)
        monkeypatch.setenv("KERASMINI_DOWNLOAD_MIRROR", mirror.url)
        yield mirror


def serve_with_hash(mirror, monkeypatch, module, origin, data, attribute="FILE_HASH"):
    monkeypatch.setattr(module, attribute, mirror.put(origin, data))


# ------------------------------------------------------------- what Keras uses


def test_the_loaders_download_what_keras_downloads():
    # URLs and sha256 of Keras 3.15.1's loaders (keras/src/datasets/*.py)
    assert mnist.ORIGIN_FOLDER == imdb.ORIGIN_FOLDER == reuters.ORIGIN_FOLDER == GCS
    assert mnist.FILE_HASH.startswith("731c5ac602752760c8e48fbffcf8c3b8")
    assert imdb.FILE_HASH.startswith("69664113be75683a8fe16e3ed0ab59fd")
    assert reuters.FILE_HASH.startswith("d6586e694ee56d7a4e65172e12b3e987")
    assert boston_housing.FILE_HASH.startswith("f553886a1f8d56431e820c5b82552d9d")
    assert california_housing.FILE_HASH.startswith("1a2e3a52e0398de6463aebe6f4a8da34")
    assert cifar10.ORIGIN == "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
    assert cifar100.ORIGIN == "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
    assert cifar10.FILE_HASH.startswith("6d958be074577803d12ecdefd02955f3")
    assert cifar100.FILE_HASH.startswith("85cd44d02ba6437773c5bbd22e183051")
    assert imdb.WORD_INDEX_HASH == "bfafd718b763782e994055a2d397834f"
    assert reuters.WORD_INDEX_HASH == "4d44cc38712099c9e383dc6e5f11a921"


def test_a_file_that_is_not_keras_s_download_is_refused(mirror):
    mirror.put(GCS + "mnist.npz", npz_bytes(x_train=np.zeros((1, 28, 28), "uint8")))
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected. The "
                       "auto file hash does not match the provided value of 731c5ac6"):
        mnist.load_data()


def test_the_loaders_are_reached_from_kerasmini_datasets():
    assert keras.datasets.mnist.load_data is mnist.load_data
    assert "cifar10" in dir(keras.datasets)
    with pytest.raises(AttributeError, match="has no attribute 'svhn'"):
        keras.datasets.svhn  # noqa: B018


# ------------------------------------------------------------------- mnist


def _mnist_arrays(n_train=6, n_test=4):
    return dict(x_train=RNG.randint(0, 256, (n_train, 28, 28)).astype("uint8"),
                y_train=RNG.randint(0, 10, n_train).astype("uint8"),
                x_test=RNG.randint(0, 256, (n_test, 28, 28)).astype("uint8"),
                y_test=RNG.randint(0, 10, n_test).astype("uint8"))


def test_mnist_loads_the_npz_as_keras(mirror, monkeypatch, tmp_path):
    arrays = _mnist_arrays()
    serve_with_hash(mirror, monkeypatch, mnist, GCS + "mnist.npz", npz_bytes(**arrays))
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    for name, got in zip(("x_train", "y_train", "x_test", "y_test"),
                         (x_train, y_train, x_test, y_test)):
        np.testing.assert_array_equal(got, arrays[name])
        assert got.dtype == np.uint8
    assert os.path.exists(tmp_path / "home" / "datasets" / "mnist.npz")
    mnist.load_data()  # cached: one download
    assert mirror.requests == ["/tensorflow/tf-keras-datasets/mnist.npz"]


def test_mnist_missing_array_is_a_clear_error(mirror, monkeypatch):
    data = npz_bytes(x_train=np.zeros((1, 28, 28), "uint8"))
    serve_with_hash(mirror, monkeypatch, mnist, GCS + "mnist.npz", data)
    with pytest.raises(ValueError, match=r"lacks the arrays \['y_train', 'x_test', "
                       r"'y_test'\]"):
        mnist.load_data()


def test_mnist_keras_io_convnet_example_data_part_runs_unchanged(mirror, monkeypatch):
    # keras.io/examples/vision/mnist_convnet/, "Prepare the data", as written there
    serve_with_hash(mirror, monkeypatch, mnist, GCS + "mnist.npz",
                    npz_bytes(**_mnist_arrays(20, 8)))
    num_classes = 10
    input_shape = (28, 28, 1)
    (x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
    x_train = x_train.astype("float32") / 255
    x_test = x_test.astype("float32") / 255
    x_train = np.expand_dims(x_train, -1)
    x_test = np.expand_dims(x_test, -1)
    print("x_train shape:", x_train.shape)
    print(x_train.shape[0], "train samples")
    print(x_test.shape[0], "test samples")
    y_train = keras.utils.to_categorical(y_train, num_classes)
    y_test = keras.utils.to_categorical(y_test, num_classes)
    # ... and the model of the example, two epochs on the 20 images
    layers = keras.layers
    model = keras.Sequential([
        keras.Input(shape=input_shape),
        layers.Conv2D(4, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(num_classes, activation="softmax"),
    ])
    model.compile(loss="categorical_crossentropy", optimizer="adam",
                  metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=8, epochs=2,
                        validation_split=0.1, verbose=0)
    assert x_train.shape == (20, 28, 28, 1) and y_test.shape == (8, 10)
    assert len(history.history["loss"]) == 2
    assert model.evaluate(x_test, y_test, verbose=0)[0] > 0


# ----------------------------------------------------------- fashion-mnist


def test_fashion_mnist_reads_the_gzipped_idx_files(mirror):
    x_train = RNG.randint(0, 256, (5, 28, 28)).astype("uint8")
    y_train = RNG.randint(0, 10, 5).astype("uint8")
    x_test = RNG.randint(0, 256, (3, 28, 28)).astype("uint8")
    y_test = RNG.randint(0, 10, 3).astype("uint8")
    for name, array, magic in zip(fashion_mnist.FILES, (y_train, x_train, y_test, x_test),
                                  (2049, 2051, 2049, 2051)):
        mirror.put(GCS + name, idx_gz(array, magic))
    (a, b), (c, d) = keras.datasets.fashion_mnist.load_data()
    for got, want in ((a, x_train), (b, y_train), (c, x_test), (d, y_test)):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == np.uint8
    assert os.path.isdir(os.path.join(os.environ["KERAS_HOME"], "datasets",
                                      "fashion-mnist"))


def test_fashion_mnist_refuses_a_file_that_is_not_idx(mirror):
    for name in fashion_mnist.FILES:
        mirror.put(GCS + name, idx_gz(np.zeros(3, "uint8"), 2049))
    with pytest.raises(ValueError, match="is not an IDX file with magic number 2051"):
        fashion_mnist.load_data()


# ------------------------------------------------------------------- cifar


def _cifar_images(n):
    return RNG.randint(0, 256, (n, 32, 32, 3)).astype("uint8")


def test_cifar10_unpacks_and_reads_the_pickled_batches(mirror, monkeypatch, tmp_path):
    batches = [(_cifar_images(2), RNG.randint(0, 10, 2)) for _ in range(6)]
    members = {f"cifar-10-batches-py/data_batch_{i + 1}": cifar_batch(x, [y])
               for i, (x, y) in enumerate(batches[:5])}
    members["cifar-10-batches-py/test_batch"] = cifar_batch(*batches[5][:1],
                                                            [batches[5][1]])
    serve_with_hash(mirror, monkeypatch, cifar10, cifar10.ORIGIN, tar_gz(members))
    (x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()
    np.testing.assert_array_equal(x_train, np.concatenate([x for x, _ in batches[:5]]))
    np.testing.assert_array_equal(y_train[:, 0], np.concatenate([y for _, y in batches[:5]]))
    np.testing.assert_array_equal(x_test, batches[5][0])
    assert (x_train.shape, y_train.shape, x_test.shape, y_test.shape) == \
        ((10, 32, 32, 3), (10, 1), (2, 32, 32, 3), (2, 1))
    assert x_train.dtype == y_train.dtype == x_test.dtype == y_test.dtype == np.uint8
    folder = tmp_path / "home" / "datasets"
    assert sorted(os.listdir(folder)) == ["cifar-10-batches-py-target",
                                          "cifar-10-batches-py-target_archive"]


@pytest.mark.parametrize("label_mode, key", [("fine", b"fine_labels"),
                                              ("coarse", b"coarse_labels")])
def test_cifar100_label_modes(mirror, monkeypatch, label_mode, key):
    x_train, x_test = _cifar_images(3), _cifar_images(2)
    fine_train, coarse_train = [5, 99, 0], [1, 19, 0]
    members = {
        "cifar-100-python/train": cifar_batch(
            x_train, [fine_train, coarse_train], (b"fine_labels", b"coarse_labels")),
        "cifar-100-python/test": cifar_batch(
            x_test, [[1, 2], [3, 4]], (b"fine_labels", b"coarse_labels")),
    }
    serve_with_hash(mirror, monkeypatch, cifar100, cifar100.ORIGIN, tar_gz(members))
    (a, y_train), (c, y_test) = cifar100.load_data(label_mode=label_mode)
    want = fine_train if key == b"fine_labels" else coarse_train
    assert y_train[:, 0].tolist() == want and y_train.shape == (3, 1)
    np.testing.assert_array_equal(a, x_train)
    np.testing.assert_array_equal(c, x_test)


def test_cifar_hostile_pickle_is_refused_and_runs_nothing(mirror, monkeypatch, tmp_path):
    marker = tmp_path / "pwned"
    evil = safe_pickle.pickle.dumps({"data": Evil(f"touch {marker}"), "labels": []},
                                    protocol=2)
    members = {f"cifar-10-batches-py/data_batch_{i}": evil for i in range(1, 6)}
    members["cifar-10-batches-py/test_batch"] = evil
    serve_with_hash(mirror, monkeypatch, cifar10, cifar10.ORIGIN, tar_gz(members))
    with pytest.raises(safe_pickle.UnsafePickleError,
                       match="Refusing to deserialize `(posix|nt).system`"):
        cifar10.load_data()
    assert not marker.exists()


def test_cifar_missing_batch_is_a_clear_error(mirror, monkeypatch):
    members = {"cifar-10-batches-py/data_batch_1": cifar_batch(_cifar_images(1), [[0]])}
    serve_with_hash(mirror, monkeypatch, cifar10, cifar10.ORIGIN, tar_gz(members))
    with pytest.raises(ValueError, match="The CIFAR archive lacks .*data_batch_2"):
        cifar10.load_data()


# ------------------------------------------------------------ imdb, reuters

TRAIN = [[1, 2, 3], [4, 5], [6, 1, 1, 7], [2], [8, 9, 10, 11, 12]]
TEST = [[3, 2], [1], [12, 13, 14]]


def reference_sequences(sequences, labels, seed_rng, num_words, skip_top, maxlen,
                        start_char, oov_char, index_from):
    """The documented semantics, written independently of the library."""
    order = np.arange(len(sequences))
    seed_rng.shuffle(order)
    out, kept_labels = [], []
    for i in order:
        seq = ([start_char] if start_char is not None else []) + \
            [w + index_from for w in sequences[i]]
        if maxlen and len(seq) >= maxlen:
            continue
        out.append(seq)
        kept_labels.append(labels[i])
    return out, kept_labels


def _serve_imdb(mirror, monkeypatch):
    data = npz_bytes(x_train=object_array(TRAIN), y_train=np.array([1, 0, 1, 0, 1]),
                     x_test=object_array(TEST), y_test=np.array([0, 1, 1]))
    serve_with_hash(mirror, monkeypatch, imdb, GCS + "imdb.npz", data)


@pytest.mark.parametrize("kwargs", [
    {}, {"num_words": 8}, {"skip_top": 5, "num_words": 12}, {"maxlen": 4},
    {"oov_char": None, "num_words": 7}, {"start_char": None, "index_from": 0},
    {"seed": 3, "index_from": 10, "oov_char": 0, "num_words": 16},
])
def test_imdb_options_follow_keras_rules(mirror, monkeypatch, kwargs):
    _serve_imdb(mirror, monkeypatch)
    (x_train, y_train), (x_test, y_test) = imdb.load_data(**kwargs)
    options = dict(num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
                   oov_char=2, index_from=3)
    options.update(kwargs)
    rng = np.random.RandomState(options["seed"])
    rest = {k: options[k] for k in ("num_words", "skip_top", "maxlen", "start_char",
                                    "oov_char", "index_from")}
    train, train_labels = reference_sequences(TRAIN, [1, 0, 1, 0, 1], rng, **rest)
    test, test_labels = reference_sequences(TEST, [0, 1, 1], rng, **rest)
    limit = options["num_words"] or max(max(s) for s in train + test if s)
    if options["oov_char"] is not None:
        fix = [[w if options["skip_top"] <= w < limit else options["oov_char"]
                for w in s] for s in train + test]
    else:
        fix = [[w for w in s if options["skip_top"] <= w < limit] for s in train + test]
    assert x_train.dtype == object and x_train.ndim == 1
    assert [list(s) for s in x_train] == fix[:len(train)]
    assert [list(s) for s in x_test] == fix[len(train):]
    assert y_train.tolist() == train_labels and y_test.tolist() == test_labels


def test_imdb_maxlen_that_keeps_nothing_is_an_error(mirror, monkeypatch):
    _serve_imdb(mirror, monkeypatch)
    with pytest.raises(ValueError, match="no sequence was kept. Increase maxlen"):
        imdb.load_data(maxlen=1)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"num_words": 0}, ValueError, "`num_words` must be an integer >= 1 or None"),
    ({"skip_top": 1.5}, TypeError, "`skip_top` must be an integer"),
    ({"maxlen": "10"}, ValueError, "`maxlen` must be an integer"),
    ({"nb_words": 10}, TypeError, r"unrecognized keyword arguments: \['nb_words'\]"),
])
def test_imdb_checks_its_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        imdb.load_data(**kwargs)


def test_imdb_hostile_object_array_is_refused(mirror, monkeypatch, tmp_path):
    marker = tmp_path / "pwned"
    hostile = np.empty(1, dtype=object)
    hostile[0] = Evil(f"touch {marker}")
    data = npz_bytes(x_train=hostile, y_train=np.array([1]),
                     x_test=object_array(TEST), y_test=np.array([0, 1, 1]))
    serve_with_hash(mirror, monkeypatch, imdb, GCS + "imdb.npz", data)
    with pytest.raises(safe_pickle.UnsafePickleError, match="imdb.load_data"):
        imdb.load_data()
    assert not marker.exists()


def test_imdb_keras_io_example_data_part_runs_unchanged(mirror, monkeypatch):
    # keras.io/examples/nlp/bidirectional_lstm_imdb/, "Load the IMDB movie review
    # sentiment data", as written there (max_features and maxlen scaled down)
    _serve_imdb(mirror, monkeypatch)
    max_features = 10  # Only consider the top 20k words
    maxlen = 4  # Only consider the first 200 words of each movie review
    (x_train, y_train), (x_val, y_val) = keras.datasets.imdb.load_data(
        num_words=max_features
    )
    print(len(x_train), "Training sequences")
    print(len(x_val), "Validation sequences")
    x_train = keras.utils.pad_sequences(x_train, maxlen=maxlen)
    x_val = keras.utils.pad_sequences(x_val, maxlen=maxlen)
    assert x_train.shape == (5, 4) and x_val.shape == (3, 4)
    assert x_train.dtype == np.int32 and int(x_train.max()) < max_features


def test_word_indices(mirror, monkeypatch):
    for module, name in ((imdb, "imdb_word_index.json"),
                         (reuters, "reuters_word_index.json")):
        serve_with_hash(mirror, monkeypatch, module, GCS + name,
                        word_index_json(["the", "and", "a"]), "WORD_INDEX_HASH")
        assert module.get_word_index() == {"the": 1, "and": 2, "a": 3}


def test_reuters_split_and_labels(mirror, monkeypatch):
    xs = TRAIN + TEST
    ys = np.arange(len(xs)) % 46
    serve_with_hash(mirror, monkeypatch, reuters, GCS + "reuters.npz",
                    npz_bytes(x=object_array(xs), y=ys))
    (x_train, y_train), (x_test, y_test) = reuters.load_data(test_split=0.25, seed=5)
    order = np.arange(len(xs))
    np.random.RandomState(5).shuffle(order)
    want = [[1] + [w + 3 for w in xs[i]] for i in order]
    top = max(max(s) for s in want)  # Keras: num_words=None keeps words < the max
    want = [[w if w < top else 2 for w in s] for s in want]
    assert [list(s) for s in x_train] + [list(s) for s in x_test] == want
    assert len(x_train) == int(len(xs) * 0.75)
    assert y_train.tolist() + y_test.tolist() == ys[order].tolist()
    assert reuters.get_label_names()[3] == "earn" and len(reuters.get_label_names()) == 46


# ----------------------------------------------------------------- housing


@pytest.mark.parametrize("module, features, kwargs", [
    (boston_housing, 13, {}), (california_housing, 8, {}),
    (california_housing, 8, {"version": "small"})])
def test_housing_shuffles_and_splits(mirror, monkeypatch, module, features, kwargs):
    n = 700 if "version" in kwargs else 30
    x = RNG.rand(n, features).astype("float64")
    y = RNG.rand(n).astype("float32")
    name = module.__name__.rsplit(".", 1)[-1] + ".npz"
    serve_with_hash(mirror, monkeypatch, module, GCS + name, npz_bytes(x=x, y=y))
    (x_train, y_train), (x_test, y_test) = module.load_data(test_split=0.3, seed=1,
                                                            **kwargs)
    kept = 600 if "version" in kwargs else n
    order = np.arange(kept)
    np.random.RandomState(1).shuffle(order)
    cut = int(kept * 0.7)
    np.testing.assert_array_equal(x_train, x[:kept][order[:cut]])
    np.testing.assert_array_equal(y_test, y[:kept][order[cut:]])
    assert x_train.dtype == np.float64 and y_train.dtype == np.float32


@pytest.mark.parametrize("call, match", [
    (lambda: boston_housing.load_data(test_split=1.0), "exclusive of 1"),
    (lambda: california_housing.load_data(version="tiny"),
     "must be one of 'small', 'large'. Received: version=tiny"),
    (lambda: cifar100.load_data(label_mode="fine_labels"), "Received: label_mode"),
    (lambda: reuters.load_data(test_split=2), "`test_split` must be a number in"),
])
def test_loader_argument_errors_come_before_any_download(call, match):
    with pytest.raises(ValueError, match=match):
        call()
