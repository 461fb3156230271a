"""``pad_sequences``, ``to_categorical``, ``normalize``,
``timeseries_dataset_from_array`` and ``text_dataset_from_directory``."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.utils import normalize, pad_sequences, to_categorical

SEQS = [[1], [2, 3], [4, 5, 6, 7]]


# ------------------------------------------------------------- pad_sequences


@pytest.mark.parametrize("padding, truncating, want", [
    ("pre", "pre", [[0, 0, 1], [0, 2, 3], [5, 6, 7]]),
    ("post", "pre", [[1, 0, 0], [2, 3, 0], [5, 6, 7]]),
    ("pre", "post", [[0, 0, 1], [0, 2, 3], [4, 5, 6]]),
    ("post", "post", [[1, 0, 0], [2, 3, 0], [4, 5, 6]]),
])
def test_pad_sequences_padding_and_truncating(padding, truncating, want):
    out = pad_sequences(SEQS, maxlen=3, padding=padding, truncating=truncating)
    assert out.tolist() == want and out.dtype == np.int32


def test_pad_sequences_defaults_to_the_longest_and_zero():
    assert pad_sequences(SEQS).shape == (3, 4)
    assert pad_sequences([[1.5], []], dtype="float32", value=-1.0).tolist() == \
        [[1.5], [-1.0]]


def test_pad_sequences_strings_need_object_or_string_dtype():
    words = [["a"], ["b", "c"]]
    assert pad_sequences(words, dtype=object, value="_").tolist() == \
        [["_", "a"], ["b", "c"]]
    assert pad_sequences(words, dtype="<U3", value="_").dtype == np.dtype("<U3")
    with pytest.raises(ValueError, match="`dtype` int32 is not compatible with "
                       "`value`'s type.*set `dtype=object`"):
        pad_sequences(words, value="_")


def test_pad_sequences_keeps_the_sample_shape():
    seqs = [np.ones((2, 3)), np.ones((1, 3))]
    out = pad_sequences(seqs, dtype="float32")
    assert out.shape == (2, 2, 3) and out[1, 0].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match=r"shape of sample \(2,\) of sequence at "
                       r"position 1 is different from expected shape \(3,\)"):
        pad_sequences([np.ones((1, 3)), np.ones((1, 2))])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"sequences": 5}, ValueError, "`sequences` must be a list of sequences"),
    ({"sequences": [[1], 2]}, ValueError, "Found non-iterable: 2"),
    ({"sequences": SEQS, "maxlen": -1}, ValueError,
     "pad_sequences: argument `maxlen` must be an integer >= 0 or None. Received: "
     "maxlen=-1"),
    ({"sequences": SEQS, "padding": "middle"}, ValueError,
     r"argument `padding` must be one of \('pre', 'post'\). Received: padding='middle'"),
    ({"sequences": SEQS, "truncating": "both"}, ValueError, "`truncating` must be"),
    ({"sequences": [["a", "b"]]}, ValueError,
     "the sequence at position 0 cannot be stored as dtype 'int32'"),
    ({"sequences": SEQS, "dtype": "no_such_type"}, TypeError,
     "pad_sequences: argument `dtype` must be a NumPy dtype"),
])
def test_pad_sequences_checks_its_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        pad_sequences(**kwargs)


# ------------------------------------------------------------ to_categorical


def test_to_categorical_shapes_as_keras_3():
    assert to_categorical([0, 1, 2]).shape == (3, 3)
    assert to_categorical([[0], [2]], num_classes=4).shape == (2, 4)  # (n, 1) -> (n, 4)
    assert to_categorical([[0, 1], [1, 0]]).shape == (2, 2, 2)
    assert to_categorical(3, num_classes=5).shape == (5,)
    assert to_categorical(np.zeros((0,), "int32"), num_classes=3).shape == (0, 3)
    out = to_categorical(np.array([2.0, 0.0]), num_classes=3)
    assert out.dtype == np.float64 and out.tolist() == [[0, 0, 1], [1, 0, 0]]


@pytest.mark.parametrize("x, num_classes, error, match", [
    ([0, 3], 3, ValueError, r"class indices must be in \[0, num_classes=3\). "
                            r"Received: 3"),
    ([-1, 0], None, ValueError, "Received: -1"),
    ([0.5], 2, ValueError, "must hold whole numbers"),
    (["a"], 2, ValueError, "array-like of integer class indices"),
    ([0], 0, ValueError, "`num_classes` must be an integer >= 1 or None"),
    ([0], 2.5, TypeError, "`num_classes` must be an integer"),
    ([], None, ValueError, "cannot infer `num_classes`"),
])
def test_to_categorical_checks_its_arguments(x, num_classes, error, match):
    with pytest.raises(error, match=match):
        to_categorical(x, num_classes)


def test_normalize_rows():
    x = np.array([[3.0, 4.0], [1.0, 0.0]])
    np.testing.assert_allclose(normalize(x), [[0.6, 0.8], [1.0, 0.0]])
    np.testing.assert_allclose(normalize(x, axis=0, order=1), [[0.75, 1.0], [0.25, 0.0]])
    with pytest.raises(ValueError, match="argument `axis` must be in"):
        normalize(x, axis=2)


# ---------------------------------------------- timeseries_dataset_from_array


def test_timeseries_keras_docstring_example_1():
    # indices 0..98, sequence_length=10, sampling_rate=2, sequence_stride=3
    ds = keras.utils.timeseries_dataset_from_array(
        np.arange(99), None, sequence_length=10, sampling_rate=2, sequence_stride=3,
        batch_size=100)
    batch = ds[0]
    assert batch[0].tolist() == list(range(0, 20, 2))
    assert batch[1].tolist() == list(range(3, 23, 2))
    assert batch[-1].tolist() == list(range(78, 98, 2))


def test_timeseries_keras_docstring_example_2_regression():
    data = np.arange(30, dtype="float32")
    ds = keras.utils.timeseries_dataset_from_array(data[:-10], data[10:],
                                                   sequence_length=10)
    for inputs, targets in ds:
        assert np.array_equal(inputs[0], data[:10])
        assert np.array_equal(targets[0], data[10])
        break


def test_timeseries_keras_docstring_example_3_many_to_many():
    x = np.arange(100)
    y = x * 2
    inputs = keras.utils.timeseries_dataset_from_array(
        x, None, sequence_length=20, sequence_stride=20)
    targets = keras.utils.timeseries_dataset_from_array(
        y, None, sequence_length=20, sequence_stride=20)
    for a, b in zip(inputs, targets):
        assert np.array_equal(a[0], x[:20])
        assert np.array_equal(b[1], y[20:40])


def test_timeseries_shapes_batches_and_index_range():
    data = np.random.RandomState(0).rand(50, 3).astype("float32")
    targets = np.arange(50)
    ds = keras.utils.timeseries_dataset_from_array(
        data, targets, sequence_length=5, sequence_stride=2, sampling_rate=3,
        batch_size=4, start_index=4, end_index=40)
    starts = list(range(0, 36 - 12, 2))
    assert len(ds) == -(-len(starts) // 4)
    x, y = ds[1]
    assert x.shape == (4, 5, 3) and x.dtype == np.float32
    np.testing.assert_array_equal(x[0], data[4 + starts[4]:][::3][:5])
    assert y.tolist() == [4 + s for s in starts[4:8]]


def test_timeseries_shuffle_is_seeded_and_complete():
    ds = keras.utils.timeseries_dataset_from_array(
        np.arange(20), None, sequence_length=3, shuffle=True, seed=7, batch_size=5)
    positions = np.arange(18)
    np.random.RandomState(7).shuffle(positions)
    assert [int(b[0]) for b in np.concatenate(list(ds))[:, :1]] == positions.tolist()
    again = sorted(int(b[0]) for b in np.concatenate(list(ds))[:, :1])
    assert again == list(range(18))


def test_timeseries_unbatched_and_too_short():
    single = keras.utils.timeseries_dataset_from_array(
        np.arange(6), np.arange(6), sequence_length=4, batch_size=None)
    assert len(single) == 3 and single[2][0].tolist() == [2, 3, 4, 5]
    assert int(single[2][1]) == 2
    empty = keras.utils.timeseries_dataset_from_array(
        np.arange(3), None, sequence_length=5)
    assert len(empty) == 0 and list(empty) == []


@pytest.mark.parametrize("kwargs, error, match", [
    ({"sequence_length": 0}, ValueError, "`sequence_length` must be an integer >= 1"),
    ({"sampling_rate": 0}, ValueError, "`sampling_rate` must be higher than 0"),
    ({"sequence_stride": 10}, ValueError,
     "`sequence_stride` must be lower than the length of the data"),
    ({"start_index": -1}, ValueError, "`start_index` must be 0 or greater"),
    ({"start_index": 5, "end_index": 3}, ValueError,
     "`end_index` must be higher than `start_index`"),
    ({"end_index": 10}, ValueError, "`end_index` must be lower than the length"),
    ({"batch_size": 0}, ValueError, "`batch_size` must be an integer >= 1 or None"),
    ({"shuffle": "yes"}, TypeError, "`shuffle` must be a boolean"),
    ({"sequence_length": 2.0}, TypeError, "`sequence_length` must be an integer"),
])
def test_timeseries_checks_its_arguments(kwargs, error, match):
    arguments = {"data": np.arange(10), "targets": None, "sequence_length": 3}
    arguments.update(kwargs)
    with pytest.raises(error, match=match):
        keras.utils.timeseries_dataset_from_array(**arguments)


def test_timeseries_refuses_ragged_data():
    with pytest.raises(ValueError, match="argument `data` must be an array"):
        keras.utils.timeseries_dataset_from_array([[1], [2, 3]], None, 1)


def test_timeseries_dataset_trains_a_model():
    data = np.sin(np.arange(60) / 5).astype("float32")[:, None]
    ds = keras.utils.timeseries_dataset_from_array(
        data[:-4], data[4:, 0], sequence_length=4, batch_size=8)
    model = keras.Sequential([keras.Input((4, 1)), keras.layers.Flatten(),
                              keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    assert len(model.fit(ds, epochs=2, verbose=0).history["loss"]) == 2


# ------------------------------------------------- text_dataset_from_directory


def write_texts(root, texts_by_class):
    for cls, texts in texts_by_class.items():
        (root / cls).mkdir(parents=True, exist_ok=True)
        for i, text in enumerate(texts):
            (root / cls / f"{i}.txt").write_bytes(text.encode("utf-8"))


def test_text_dataset_batches_of_strings(tmp_path):
    write_texts(tmp_path, {"neg": ["bad", "awful film"], "pos": ["great", "fine ☺"]})
    ds = keras.utils.text_dataset_from_directory(
        tmp_path, batch_size=3, shuffle=False, verbose=False)
    texts, labels = ds[0]
    assert texts.dtype == object and texts.tolist() == ["bad", "awful film", "great"]
    assert labels.tolist() == [0, 0, 1] and labels.dtype == np.int32
    assert ds.class_names == ["neg", "pos"] and len(ds) == 2
    assert ds[1][0].tolist() == ["fine ☺"]


def test_text_dataset_max_length_counts_bytes_as_tensorflow(tmp_path):
    write_texts(tmp_path, {"a": ["h\u00e9llo"]})  # "é" is two bytes in UTF-8
    cut = [keras.utils.text_dataset_from_directory(
        tmp_path, max_length=n, labels=None, verbose=False)[0].tolist()[0]
        for n in (3, 2)]
    assert cut == ["h\u00e9", "h\N{REPLACEMENT CHARACTER}"]


def test_text_dataset_split_labels_and_binary(tmp_path, capsys):
    write_texts(tmp_path, {"neg": [f"n{i}" for i in range(5)],
                           "pos": [f"p{i}" for i in range(5)]})
    train, val = keras.utils.text_dataset_from_directory(
        tmp_path, label_mode="binary", validation_split=0.2, subset="both", seed=3,
        batch_size=4)
    assert "Using 8 files for training." in capsys.readouterr().out
    train_texts = {t for batch in train for t in batch[0].tolist()}
    assert len(train_texts) == 8 and not train_texts & set(val[0][0].tolist())
    assert not hasattr(train, "file_paths")  # as Keras's text datasets
    texts, labels = val[0]
    assert labels.shape == (2, 1) and labels.dtype == np.float32
    for text, label in zip(texts, labels[:, 0]):
        assert text.startswith("p" if label else "n")


def test_text_dataset_keras_io_example_data_part(tmp_path, monkeypatch):
    # keras.io/examples/nlp/text_classification_from_scratch/, the aclImdb
    # folders scaled down: "raw_train_ds = keras.utils.text_dataset_from_directory(...)"
    write_texts(tmp_path / "aclImdb" / "train", {"neg": ["dull"] * 5, "pos": ["fun"] * 5})
    monkeypatch.chdir(tmp_path)
    batch_size = 4
    raw_train_ds = keras.utils.text_dataset_from_directory(
        "aclImdb/train",
        batch_size=batch_size,
        validation_split=0.2,
        subset="training",
        seed=1337,
    )
    raw_val_ds = keras.utils.text_dataset_from_directory(
        "aclImdb/train",
        batch_size=batch_size,
        validation_split=0.2,
        subset="validation",
        seed=1337,
    )
    print(f"Number of batches in raw_train_ds: {len(raw_train_ds)}")
    print(f"Number of batches in raw_val_ds: {len(raw_val_ds)}")
    assert (len(raw_train_ds), len(raw_val_ds)) == (2, 1)


@pytest.mark.parametrize("kwargs, match", [
    ({"label_mode": "sparse"}, "`label_mode` argument must be one of"),
    ({"max_length": -1}, "`max_length` must be an integer >= 0 or None"),
    ({"format": "pandas"}, '`format` should be either "tf" or "grain"'),
    ({"labels": None, "class_names": ["a"]}, "argument `class_names` cannot be"),
])
def test_text_dataset_checks_its_arguments(tmp_path, kwargs, match):
    write_texts(tmp_path, {"a": ["x"]})
    with pytest.raises(ValueError, match=match):
        keras.utils.text_dataset_from_directory(tmp_path, verbose=False, **kwargs)
