"""``Normalization`` and ``Discretization``: ``adapt`` on arrays, a
``PyDataset`` and generators against NumPy, the outputs, the layer contract,
gradients, errors, and the numeric half of keras.io's "Structured data
classification from scratch" (the lookups' half is in
``test_layers_preprocessing_text.py``).

Keras 3.15.1's own outputs are compared in ``test_layers_preprocessing_keras.py``
(``make interop``)."""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(0)
DATA = (RNG.normal(size=(60, 4, 3)) * [1.0, 3.0, 0.5] + [0.0, -2.0, 5.0])


class Batches(keras.utils.PyDataset):
    def __init__(self, x, batch_size, with_targets=False):
        super().__init__()
        self.x, self.batch_size, self.with_targets = x, batch_size, with_targets

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, i):
        batch = self.x[i * self.batch_size:(i + 1) * self.batch_size]
        return (batch, np.zeros(len(batch))) if self.with_targets else batch


def _adapted(axis=-1, data=DATA, **kwargs):
    layer = layers.Normalization(axis=axis, **kwargs)
    layer.adapt(data)
    return layer


# ---------------------------------------------------------- normalization
@pytest.mark.parametrize("axis, reduce", [(-1, (0, 1)), (None, (0, 1, 2)),
                                          ((1, 2), (0,)), (1, (0, 2))])
def test_normalization_adapt_on_an_array_is_numpy_mean_and_variance(axis, reduce):
    layer = _adapted(axis)
    np.testing.assert_allclose(layer.adapt_mean.numpy(),
                               DATA.mean(axis=reduce).astype("float32"), rtol=1e-6)
    np.testing.assert_allclose(layer.adapt_variance.numpy(),
                               DATA.var(axis=reduce).astype("float32"), rtol=1e-6)
    x = DATA[:5]
    want = (x - DATA.mean(axis=reduce, keepdims=True)) / DATA.std(
        axis=reduce, keepdims=True)
    np.testing.assert_allclose(layer(x), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("data", [
    Batches(DATA, 7), Batches(DATA, 16, with_targets=True),
    (b for b in np.array_split(DATA, 5)), [DATA[:25], DATA[25:]],
])
def test_normalization_adapt_on_batches_merges_them_exactly(data):
    layer = _adapted(-1, data)
    np.testing.assert_allclose(layer.adapt_mean.numpy(), DATA.mean(axis=(0, 1)),
                               rtol=1e-5)
    np.testing.assert_allclose(layer.adapt_variance.numpy(), DATA.var(axis=(0, 1)),
                               rtol=1e-5)


def test_normalization_with_given_statistics_and_invert():
    x = RNG.normal(size=(4, 3)).astype("float32")
    mean, variance = np.array([1.0, 2.0, 3.0]), np.array([4.0, 1.0, 0.25])
    out = layers.Normalization(mean=mean, variance=variance)(x)
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(variance), rtol=1e-6)
    back = layers.Normalization(mean=mean, variance=variance, invert=True)(out)
    np.testing.assert_allclose(back, x, rtol=1e-5, atol=1e-6)
    scalar = layers.Normalization(mean=2.0, variance=4.0, axis=None)(x)
    np.testing.assert_allclose(scalar, (x - 2) / 2, rtol=1e-6)
    assert layers.Normalization(mean=mean, variance=variance).weights == []


def test_normalization_constant_feature_divides_by_epsilon_not_zero():
    layer = _adapted(-1, np.ones((5, 2)))
    out = layer(np.array([[1.0, 2.0]]))
    assert np.isfinite(out).all() and out[0, 0] == 0.0


def test_normalization_weights_are_keras_s():
    layer = _adapted()
    assert [w.path for w in layer.weights] == ["normalization/mean",
                                               "normalization/variance",
                                               "normalization/count"]
    assert [w.dtype for w in layer.weights] == ["float32", "float32", "int32"]
    assert layer.trainable_weights == [] and int(layer.count.numpy()) == 0


def test_normalization_integer_inputs_become_floats():
    out = layers.Normalization(mean=1.0, variance=1.0)(np.array([[1, 3]], "int64"))
    assert out.dtype == np.float32 and out.tolist() == [[0.0, 2.0]]


@pytest.mark.parametrize("make", [lambda: _adapted(-1), lambda: _adapted((1, 2)),
                                  lambda: _adapted(None),
                                  lambda: layers.Normalization(mean=[1.0, 2, 3],
                                                               variance=[1.0, 4, 9])])
def test_normalization_keeps_the_layer_contract(tmp_path, make):
    check_layer(make, DATA[:6].astype("float32"), tmp_path, rtol=1e-5)


def test_normalization_gradients_match_finite_differences():
    layer = layers.Normalization(dtype="float64")
    layer.adapt(DATA)
    check_layer_gradients(layer, DATA[:2])
    inverse = layers.Normalization(mean=[1.0, 2, 3], variance=[1.0, 4, 9],
                                   invert=True, dtype="float64")
    check_layer_gradients(inverse, DATA[:2])


def test_normalization_adapted_in_a_model_trains_and_reloads(tmp_path):
    x = DATA.reshape(60, 12).astype("float32") * 100
    y = (x[:, :1] > 0).astype("float32")
    norm = layers.Normalization()
    norm.adapt(x)
    model = keras.Sequential([keras.Input((12,)), norm, layers.Dense(1,
                                                                      "sigmoid")])
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy")
    losses = model.fit(x, y, epochs=5, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
    assert np.allclose(norm.adapt_mean.numpy(), x.mean(axis=0))  # not trained
    model.save(tmp_path / "m.keras")
    restored = keras.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(restored.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


@pytest.mark.parametrize("make, error, match", [
    (lambda: layers.Normalization(mean=1.0), ValueError,
     "both `mean` and `variance` must be set"),
    (lambda: layers.Normalization(mean=[1.0, 2.0], variance=[1.0]), ValueError,
     "must have the same shape"),
    (lambda: layers.Normalization(mean=np.ones((2, 2)), variance=np.ones((2, 2))),
     ValueError, r"rank of `mean` must be less than or equal to the number of axes"),
    (lambda: layers.Normalization(axis="x"), TypeError, "argument `axis`"),
    (lambda: layers.Normalization(mean="a", variance="b"), TypeError,
     "argument `mean` must be a number"),
    (lambda: layers.Normalization(invert=1), TypeError, "argument `invert`"),
    (lambda: layers.Normalization(axis=3)(np.ones((2, 3))), ValueError,
     r"All `axis` values must be in the range \[-ndim, ndim\)"),
    (lambda: layers.Normalization(axis=1)(keras.Input((None, 3))), ValueError,
     "must have a known shape"),
    (lambda: _adapted(-1).adapt(np.ones((3, 4, 5))), ValueError,
     r"built with input_shape=\(60, 4, 3\), but adapt\(\) is being called"),
    (lambda: _adapted(-1, [np.ones((2, 3)), np.ones((2, 4))]), ValueError,
     "adapt\\(\\) yielded a batch of another shape"),
    (lambda: layers.Normalization().adapt(np.array(["a", "b"])), TypeError,
     "expects numbers"),
    (lambda: layers.Normalization().adapt(iter([])), ValueError, "empty iterable"),
    (lambda: layers.Normalization().adapt(object()), TypeError,
     "takes a NumPy array, a `keras.utils.PyDataset`"),
])
def test_normalization_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


# --------------------------------------------------------- discretization
def test_discretization_bins_are_numpy_digitize():
    x = np.array([[-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]])
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    out = layer(x)
    assert out.dtype == np.int32
    assert out.tolist() == np.digitize(x, [0.0, 1.0, 2.0]).tolist()


@pytest.mark.parametrize("mode, want", [
    ("one_hot", [[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 0, 1]]]),
    ("multi_hot", [[1, 1, 0], [0, 0, 1]]),
    ("count", [[1, 1, 0], [0, 0, 2]]),
])
def test_discretization_output_modes(mode, want):
    x = np.array([[-1.0, 0.5], [3.0, 4.0]])
    out = layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode=mode)(x)
    assert out.dtype == np.float32 and out.tolist() == want
    assert layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode=mode) \
        .compute_output_shape((None, 2)) == (None,) + out.shape[1:]


def test_discretization_adapt_finds_equal_count_bins():
    data = RNG.normal(size=(5000, 1))
    layer = layers.Discretization(num_bins=4, epsilon=0.01)
    layer.adapt(data)
    quartiles = np.quantile(data, [0.25, 0.5, 0.75])
    np.testing.assert_allclose(layer.bin_boundaries, quartiles, atol=0.05)
    counts = np.bincount(np.asarray(layer(data)).ravel(), minlength=4)
    assert (np.abs(counts - 1250) < 100).all()


def test_discretization_adapt_on_batches_merges_summaries():
    data = RNG.uniform(size=(3000, 1)).astype("float32")
    whole = layers.Discretization(num_bins=5)
    whole.adapt(data)
    batched = layers.Discretization(num_bins=5)
    batched.adapt(Batches(data, 1000))
    np.testing.assert_allclose(batched.bin_boundaries, whole.bin_boundaries,
                               atol=0.02)
    stepped = layers.Discretization(num_bins=5)
    stepped.adapt(Batches(data, 1000), steps=1)
    np.testing.assert_allclose(stepped.bin_boundaries, [0.2, 0.4, 0.6, 0.8], atol=0.05)


def test_discretization_adapted_config_round_trips(tmp_path):
    layer = layers.Discretization(num_bins=3)
    layer.adapt(np.arange(30.0))
    config = layer.get_config()
    assert config["num_bins"] == 3 and len(config["bin_boundaries"]) == 2
    assert sorted(config) == ["bin_boundaries", "dtype", "epsilon", "name",
                              "num_bins", "output_mode", "sparse"]
    clone = layers.Discretization.from_config(config)
    assert clone.bin_boundaries == layer.bin_boundaries
    check_layer(lambda: layers.Discretization(bin_boundaries=[0.5, 1.5],
                                              output_mode="count"),
                np.array([[0.0, 1.0, 2.0, 1.0]], "float32"), tmp_path)


@pytest.mark.parametrize("make, error, match", [
    (lambda: layers.Discretization(), ValueError,
     "You need to set either `num_bins` or `bin_boundaries`"),
    (lambda: layers.Discretization([0.0], num_bins=2), ValueError,
     "Both `num_bins` and `bin_boundaries` should not be set"),
    (lambda: layers.Discretization(num_bins=-1), ValueError,
     "`num_bins` must be greater than or equal to 0"),
    (lambda: layers.Discretization([0.0], output_mode="binary"), ValueError,
     "Discretization: argument `output_mode` must be one of"),
    (lambda: layers.Discretization([0.0], sparse=True), ValueError, "sparse"),
    (lambda: layers.Discretization(["a"]), ValueError, "`bin_boundaries`"),
    (lambda: layers.Discretization([0.0]).adapt(np.ones(3)), ValueError,
     "Cannot adapt a Discretization layer that has been initialized with "
     "`bin_boundaries`"),
    (lambda: layers.Discretization(num_bins=2)(np.ones(3)), ValueError,
     "call `adapt\\(dataset\\)` before"),
])
def test_discretization_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


# -------------------------------------------------------------- keras.io
def encode_numerical_feature(feature, name, dataset):
    # keras.io/examples/structured_data/structured_data_classification_from_scratch/
    # ("Feature preprocessing with Keras layers"), with the feature's column
    # taken from a dict of arrays where the example maps a tf.data dataset
    # Create a Normalization layer for our feature
    normalizer = layers.Normalization()

    # Prepare a Dataset that only yields our feature
    feature_ds = np.expand_dims(dataset[name], -1)

    # Learn the statistics of the data
    normalizer.adapt(feature_ds)

    # Normalize the input feature
    encoded_feature = normalizer(feature)
    return encoded_feature


def test_keras_io_structured_data_numerical_features_train():
    rng = np.random.default_rng(1)
    dataset = {"age": rng.uniform(29, 77, 64), "trestbps": rng.uniform(94, 200, 64),
               "chol": rng.uniform(126, 564, 64)}
    target = (dataset["age"] + rng.normal(0, 5, 64) > 55).astype("float32")

    age = keras.Input(shape=(1,), name="age")
    trestbps = keras.Input(shape=(1,), name="trestbps")
    chol = keras.Input(shape=(1,), name="chol")
    all_inputs = [age, trestbps, chol]

    age_encoded = encode_numerical_feature(age, "age", dataset)
    trestbps_encoded = encode_numerical_feature(trestbps, "trestbps", dataset)
    chol_encoded = encode_numerical_feature(chol, "chol", dataset)

    all_features = layers.concatenate([age_encoded, trestbps_encoded, chol_encoded])
    x = layers.Dense(32, activation="relu")(all_features)
    x = layers.Dropout(0.5)(x)
    output = layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model(all_inputs, output)
    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])

    inputs = {name: values[:, None].astype("float32")
              for name, values in dataset.items()}
    history = model.fit(inputs, target, epochs=15, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
