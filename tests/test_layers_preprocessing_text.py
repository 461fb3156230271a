"""``StringLookup``, ``IntegerLookup`` and ``TextVectorization``: vocabularies
(given, from a file, adapted on arrays and ``PyDataset``s), indices, output
modes, ``invert``, configs and ``.keras`` round trips (the adapted vocabulary
travels as an asset), errors, and two keras.io examples scaled down.

Keras 3.15.1's own outputs are compared in ``test_layers_preprocessing_keras.py``
(``make interop``)."""

import math
import zipfile

import numpy as np
import pytest
from layer_contract import check_layer

import kerasmini as keras
from kerasmini import layers

WORDS = np.array([["cat", "dog", "cat"], ["fox", "dog", "cat"], ["emu", "ant", "bee"]])


class Batches(keras.utils.PyDataset):
    def __init__(self, x, batch_size):
        super().__init__()
        self.x, self.batch_size = x, batch_size

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, i):
        return self.x[i * self.batch_size:(i + 1) * self.batch_size]


# ------------------------------------------------------------ StringLookup
def test_string_lookup_adapt_orders_by_count_then_token():
    layer = layers.StringLookup()
    layer.adapt(WORDS)
    # cat 3, dog 2, then the ties in reverse order of the tokens
    assert layer.get_vocabulary() == ["[UNK]", "cat", "dog", "fox", "emu", "bee",
                                      "ant"]
    assert layer.vocabulary_size() == 7
    assert layer.get_vocabulary(include_special_tokens=False)[0] == "cat"
    out = layer(np.array([["dog", "zebra", "cat"]]))
    assert out.dtype == np.int64 and out.tolist() == [[2, 0, 1]]


def test_string_lookup_adapt_on_batches_is_adapt_on_the_whole():
    whole, batched = layers.StringLookup(), layers.StringLookup()
    whole.adapt(WORDS)
    batched.adapt(Batches(WORDS, 2))
    assert batched.get_vocabulary() == whole.get_vocabulary()
    first = layers.StringLookup()
    first.adapt(Batches(WORDS, 1), steps=1)
    assert first.get_vocabulary() == ["[UNK]", "cat", "dog"]


def test_string_lookup_mask_max_tokens_and_bytes():
    layer = layers.StringLookup(mask_token="", max_tokens=4)
    layer.adapt(WORDS)
    assert layer.get_vocabulary() == ["", "[UNK]", "cat", "dog"]
    assert layer(np.array([b"", b"dog", b"fox"], dtype=object)).tolist() == [0, 3, 1]


@pytest.mark.parametrize("mode, want", [
    ("one_hot", [[0, 1, 0], [0, 0, 1], [1, 0, 0]]),
    ("multi_hot", [[1, 1, 1]]),
    ("count", [[1, 1, 1]]),
])
def test_string_lookup_output_modes(mode, want):
    layer = layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)
    x = np.array(["a", "b", "z"]) if mode == "one_hot" else np.array([["a", "b",
                                                                        "z"]])
    out = layer(x)
    assert out.dtype == np.float32 and out.tolist() == want
    counts = layers.StringLookup(vocabulary=["a", "b"], output_mode="count")
    assert counts(np.array([["a", "a", "b"]])).tolist() == [[0, 2, 1]]


def test_string_lookup_tf_idf_is_count_times_log_inverse_document_frequency():
    docs = np.array([["a", "a", "b"], ["a", "c", "c"], ["b", "b", "b"]])
    layer = layers.StringLookup(output_mode="tf_idf")
    layer.adapt(docs)
    vocabulary = layer.get_vocabulary()
    idf = {t: math.log(1 + 3 / (1 + sum(t in row for row in docs.tolist())))
           for t in "abc"}
    out = np.asarray(layer(docs))
    for row, doc in zip(out, docs.tolist()):
        for i, token in enumerate(vocabulary[1:], start=1):
            assert row[i] == pytest.approx(doc.count(token) * idf[token], rel=1e-6)
    # the OOV index gets the mean weight
    assert layer.idf_weights[0] == pytest.approx(np.mean(list(idf.values())),
                                                 rel=1e-6)


def test_string_lookup_invert_and_pad_to_max_tokens():
    invert = layers.StringLookup(vocabulary=["cat", "dog"], invert=True)
    assert invert(np.array([2, 0, 1, 9])).tolist() == ["dog", "[UNK]", "cat",
                                                       "[UNK]"]
    padded = layers.StringLookup(vocabulary=["cat"], max_tokens=5,
                                 pad_to_max_tokens=True, output_mode="multi_hot")
    assert padded(np.array([["cat", "x"]])).tolist() == [[1, 1, 0, 0, 0]]


def test_string_lookup_vocabulary_from_a_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("[UNK]\nred\ngreen\n", encoding="utf-8")
    layer = layers.StringLookup(vocabulary=str(path))
    assert layer.get_vocabulary() == ["[UNK]", "red", "green"]
    assert layer(np.array(["green", "blue"])).tolist() == [2, 0]


def test_string_lookup_adapted_vocabulary_is_an_asset_of_the_keras_file(tmp_path):
    lookup = layers.StringLookup(output_mode="count")
    lookup.adapt(WORDS)
    x = keras.Input((3,), dtype="string")
    model = keras.Model(x, lookup(x))
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        names = archive.namelist()
        asset = [n for n in names if n.endswith("vocabulary.txt")]
        assert len(asset) == 1
        assert archive.read(asset[0]).decode().splitlines() == \
            lookup.get_vocabulary()
    restored = keras.saving.load_model(tmp_path / "m.keras")
    assert restored.layers[-1].get_vocabulary() == lookup.get_vocabulary()
    np.testing.assert_array_equal(restored.predict(WORDS, verbose=0),
                                  model.predict(WORDS, verbose=0))


@pytest.mark.parametrize("make", [
    lambda: layers.StringLookup(vocabulary=["cat", "dog", "emu"]),
    lambda: layers.StringLookup(vocabulary=["cat", "dog"], output_mode="multi_hot"),
    lambda: layers.StringLookup(vocabulary=["cat", "dog"], mask_token="[M]"),
])
def test_string_lookup_configs_round_trip(make):
    layer = make()
    clone = layers.StringLookup.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    np.testing.assert_array_equal(clone(WORDS), layer(WORDS))


# ----------------------------------------------------------- IntegerLookup
def test_integer_lookup_adapt_mask_and_oov_buckets():
    ids = np.array([[12, 36, 12, 7], [7, 7, 99, 12]])
    layer = layers.IntegerLookup(mask_token=0)
    layer.adapt(ids)
    assert layer.get_vocabulary() == [0, -1, 12, 7, 99, 36]
    assert layer(np.array([[12, 0, 5]])).tolist() == [[2, 0, 1]]
    buckets = layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3)
    # an unknown id goes to index id % 3
    assert buckets(np.array([12, 36, 4, 5, 6])).tolist() == [3, 4, 1, 2, 0]
    invert = layers.IntegerLookup(vocabulary=[12, 36], invert=True)
    assert invert(np.array([1, 2, 0])).tolist() == [12, 36, -1]


@pytest.mark.parametrize("make", [
    lambda: layers.IntegerLookup(vocabulary=[12, 36, 7]),
    lambda: layers.IntegerLookup(vocabulary=[12, 36], output_mode="count"),
    lambda: layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=2,
                                 mask_token=0),
])
def test_integer_lookup_keeps_the_layer_contract(tmp_path, make):
    check_layer(make, np.array([[12, 36, 5], [7, 7, 0]]), tmp_path)


def test_integer_lookup_adapted_model_reloads(tmp_path):
    layer = layers.IntegerLookup(output_mode="multi_hot")
    layer.adapt(np.array([3, 3, 5, 8, 8, 8]))
    x = keras.Input((2,), dtype="int64")
    model = keras.Model(x, layers.Dense(1)(layer(x)))
    model.save(tmp_path / "m.keras")
    restored = keras.saving.load_model(tmp_path / "m.keras")
    data = np.array([[3, 8], [5, 4]])
    np.testing.assert_allclose(restored.predict(data, verbose=0),
                               model.predict(data, verbose=0), rtol=1e-6)


# ------------------------------------------------------- TextVectorization
TEXT = np.array(["The cat sat on the mat.", "The DOG ate my homework!",
                 "Don't panic -- the cat's fine"])


def test_text_vectorization_defaults_lower_strip_split_on_whitespace():
    layer = layers.TextVectorization()
    layer.adapt(TEXT)
    vocabulary = layer.get_vocabulary()
    assert vocabulary[:3] == ["", "[UNK]", "the"]
    assert "dont" in vocabulary and "cats" in vocabulary and "The" not in vocabulary
    out = layer(np.array(["the cat", "mat mat mat zebra"]))
    index = {t: i for i, t in enumerate(vocabulary)}
    assert out.dtype == np.int64
    assert out.tolist() == [[index["the"], index["cat"], 0, 0],
                            [index["mat"]] * 3 + [1]]


def test_text_vectorization_length_ngrams_and_character_split():
    fixed = layers.TextVectorization(output_sequence_length=3,
                                     vocabulary=["a", "b"])
    assert fixed(np.array(["a b a b", "b"])).tolist() == [[2, 3, 2], [3, 0, 0]]
    bigrams = layers.TextVectorization(ngrams=2)
    bigrams.adapt(np.array(["x y z"]))
    assert sorted(bigrams.get_vocabulary(False)) == ["x", "x y", "y", "y z", "z"]
    only = layers.TextVectorization(ngrams=(2,))
    only.adapt(np.array(["x y z"]))
    assert sorted(only.get_vocabulary(False)) == ["x y", "y z"]
    chars = layers.TextVectorization(split="character", standardize=None,
                                     vocabulary=["a", "B"])
    assert chars(np.array(["aBc"])).tolist() == [[2, 3, 1]]


def test_text_vectorization_callables_and_count_mode():
    layer = layers.TextVectorization(
        standardize=lambda s: np.char.upper(s.astype(str)),
        split=lambda s: [t.split("-") for t in s.tolist()],
        output_mode="count", vocabulary=["A", "B"])
    assert layer(np.array(["a-b-a", "c"])).tolist() == [[0, 2, 1], [1, 0, 0]]


def test_text_vectorization_saves_its_adapted_vocabulary(tmp_path):
    layer = layers.TextVectorization(max_tokens=8, output_sequence_length=5)
    layer.adapt(TEXT)
    x = keras.Input((1,), dtype="string")
    model = keras.Model(x, layer(x))
    model.save(tmp_path / "m.keras")
    restored = keras.saving.load_model(tmp_path / "m.keras")
    assert restored.layers[-1].get_vocabulary() == layer.get_vocabulary()
    assert len(layer.get_vocabulary()) == 8
    np.testing.assert_array_equal(restored.predict(TEXT[:, None], verbose=0),
                                  model.predict(TEXT[:, None], verbose=0))
    config = layer.get_config()
    assert config["vocabulary"] is None and config["vocabulary_size"] == 8


def test_a_model_s_training_argument_beats_a_node_s():
    """A node that recorded ``training=True`` (Keras's files do, for the
    preprocessing layers) still runs in inference mode under
    ``model(x, training=False)``."""
    x = keras.Input((4, 4, 1))
    y = layers.RandomFlip(seed=1)(x, training=True)
    model = keras.Model(x, y)
    images = np.arange(32.0).reshape(2, 4, 4, 1)
    np.testing.assert_array_equal(model(images, training=False), images)
    flipped = [np.asarray(model(images, training=True)) for _ in range(6)]
    assert any(not np.array_equal(f, images) for f in flipped)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("make, error, match", [
    (lambda: layers.StringLookup(max_tokens=1), ValueError,
     "`max_tokens` must be greater than 1"),
    (lambda: layers.StringLookup(num_oov_indices=2), NotImplementedError,
     "several need TensorFlow's FarmHash"),
    (lambda: layers.StringLookup(output_mode="dense"), ValueError,
     "argument `output_mode` must be one of"),
    (lambda: layers.StringLookup(invert=True, output_mode="count"), ValueError,
     "`output_mode` must be `'int'` when `invert` is true"),
    (lambda: layers.StringLookup(sparse=True), ValueError, "no sparse tensors"),
    (lambda: layers.StringLookup(vocabulary=["a", "a"]), ValueError,
     "at least one repeated term"),
    (lambda: layers.StringLookup(vocabulary=["a", "[UNK]"], invert=True),
     ValueError, "Found reserved OOV token at unexpected location"),
    (lambda: layers.StringLookup(vocabulary=["a", "b"], max_tokens=2),
     ValueError, "larger than the maximum vocab size"),
    (lambda: layers.StringLookup(vocabulary="/no/such/file.txt"), ValueError,
     "does not exist"),
    (lambda: layers.StringLookup(output_mode="tf_idf", vocabulary=["a"]),
     ValueError, "the `idf_weights` argument must also be provided"),
    (lambda: layers.StringLookup()(np.array([1, 2])), TypeError,
     r"StringLookup: `inputs` must hold strings"),
    (lambda: layers.StringLookup(output_mode="count")(np.array([["a"]])),
     RuntimeError, "you must set the layer's vocabulary before calling it"),
    (lambda: layers.StringLookup(vocabulary=["a"]).adapt(WORDS), ValueError,
     "Cannot adapt layer"),
    (lambda: layers.IntegerLookup(vocabulary_dtype="int32"), ValueError,
     "Only `vocabulary_dtype='int64'` is supported"),
    (lambda: layers.IntegerLookup(mask_token="x"), TypeError,
     "argument `mask_token` must be an integer"),
    (lambda: layers.IntegerLookup()(np.array([1.5])), TypeError,
     "`inputs` must hold integers"),
    (lambda: layers.IntegerLookup(num_oov_indices=0, vocabulary=[1])(
        np.array([2])), ValueError, "all inputs should be in vocabulary"),
    (lambda: layers.IntegerLookup(oov_method="farmhash"), NotImplementedError,
     "does not hash OOV tokens"),
    (lambda: layers.TextVectorization(standardize="upper"), ValueError,
     "argument `standardize` must be one of"),
    (lambda: layers.TextVectorization(split="comma"), ValueError,
     "argument `split` must be one of"),
    (lambda: layers.TextVectorization(ngrams="2"), ValueError,
     "`ngrams` must be None, an integer, or a tuple of integers"),
    (lambda: layers.TextVectorization(output_mode="count",
                                      output_sequence_length=3), ValueError,
     "`output_sequence_length` must not be set"),
    (lambda: layers.TextVectorization(output_mode="one_hot"), ValueError,
     "needs `split=None`"),
    (lambda: layers.TextVectorization(ragged=True), ValueError, "ragged"),
    (lambda: layers.TextVectorization(vocabulary=["a"])(np.array([["a", "b"]])),
     ValueError, "the last shape dimension must be 1"),
    (lambda: layers.TextVectorization(vocabulary=["a"])(np.array([1.0])),
     TypeError, "TextVectorization: `inputs` must hold strings"),
])
def test_lookup_and_text_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


# -------------------------------------------------------------- keras.io
def encode_categorical_feature(feature, name, dataset, is_string):
    # keras.io/examples/structured_data/structured_data_classification_from_scratch/
    # (the column taken from a dict of arrays where the example maps a
    # tf.data dataset)
    lookup_class = layers.StringLookup if is_string else layers.IntegerLookup
    # Create a lookup layer which will turn strings into integer indices
    lookup = lookup_class(output_mode="binary")

    # Prepare a Dataset that only yields our feature
    feature_ds = np.expand_dims(dataset[name], -1)

    # Learn the set of possible string values and assign them a fixed integer index
    lookup.adapt(feature_ds)

    # Turn the string input into integer indices
    encoded_feature = lookup(feature)
    return encoded_feature


def test_keras_io_structured_data_categorical_features_train():
    rng = np.random.default_rng(2)
    dataset = {"thal": rng.choice(["fixed", "normal", "reversible"], 64),
               "cp": rng.integers(0, 5, 64), "sex": rng.integers(0, 2, 64)}
    target = ((dataset["thal"] == "reversible") | (dataset["cp"] > 2)).astype(
        "float32")
    thal = keras.Input(shape=(1,), name="thal", dtype="string")
    cp = keras.Input(shape=(1,), name="cp", dtype="int64")
    sex = keras.Input(shape=(1,), name="sex", dtype="int64")
    features = layers.concatenate([
        encode_categorical_feature(thal, "thal", dataset, True),
        encode_categorical_feature(cp, "cp", dataset, False),
        encode_categorical_feature(sex, "sex", dataset, False)])
    x = layers.Dense(16, activation="relu")(features)
    output = layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model([thal, cp, sex], output)
    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    inputs = {name: values[:, None] for name, values in dataset.items()}
    history = model.fit(inputs, target, epochs=20, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.8


def test_keras_io_text_classification_from_scratch_trains(tmp_path):
    # keras.io/examples/nlp/text_classification_from_scratch/ ("Two options to
    # vectorize the data", option 1: the layer inside the model), scaled down
    good = ["a great film", "great acting and a fine story", "fine and great"]
    bad = ["a dull film", "dull acting and a poor story", "poor and dull"]
    texts = np.array(good * 6 + bad * 6)
    labels = np.array([1] * 18 + [0] * 18, "float32")
    max_features, embedding_dim, sequence_length = 20, 8, 6
    vectorize_layer = layers.TextVectorization(
        max_tokens=max_features, output_mode="int",
        output_sequence_length=sequence_length)
    vectorize_layer.adapt(texts)

    text_input = keras.Input(shape=(1,), dtype="string", name="text")
    x = vectorize_layer(text_input)
    x = layers.Embedding(max_features, embedding_dim)(x)
    x = layers.GlobalMaxPooling1D()(x)
    predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)
    model = keras.Model(text_input, predictions)
    model.compile(loss="binary_crossentropy", optimizer="adam",
                  metrics=["accuracy"])
    history = model.fit(texts[:, None], labels, epochs=80, batch_size=12,
                        verbose=0)
    assert history.history["accuracy"][-1] == 1.0
    model.save(tmp_path / "text.keras")
    restored = keras.saving.load_model(tmp_path / "text.keras")
    probe = np.array([["a great story"], ["a poor story"]])
    np.testing.assert_allclose(restored.predict(probe, verbose=0),
                               model.predict(probe, verbose=0), rtol=1e-6)
    assert model.predict(probe, verbose=0)[0, 0] > 0.5 > \
        model.predict(probe, verbose=0)[1, 0]
