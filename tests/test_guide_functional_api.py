"""The keras.io guide "The Functional API" (Keras 3), in our own scenarios on
the 8x8 digits: a graph of layers, its summary facts, multiple inputs and
outputs with per-output losses, shared layers, feature extraction from the
graph, models used as layers, a small residual network, serialization and
cloning of a functional model."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

(X_TRAIN, Y_TRAIN), (X_TEST, Y_TEST) = keras.datasets.digits.load_data()
X_FLAT = X_TRAIN.reshape(-1, 64).astype("float32") / 255.0
X_IMG = (X_TRAIN.astype("float32") / 255.0)[..., None]


def mlp(name="digits_mlp"):
    inputs = keras.Input(shape=(64,), name="pixels")
    x = layers.Dense(32, activation="relu", name="hidden_1")(inputs)
    x = layers.Dense(32, activation="relu", name="hidden_2")(x)
    outputs = layers.Dense(10, name="logits")(x)
    return keras.Model(inputs=inputs, outputs=outputs, name=name)


def test_a_graph_of_layers_has_shapes_names_and_counts():
    model = mlp()
    assert model.name == "digits_mlp"
    assert [lay.name for lay in model.layers] == ["pixels", "hidden_1", "hidden_2",
                                                  "logits"]
    assert model.input_shape == (None, 64) and model.output_shape == (None, 10)
    assert model.count_params() == 64 * 32 + 32 + 32 * 32 + 32 + 32 * 10 + 10
    lines = []
    model.summary(print_fn=lines.append)
    assert any(f"Total params: {model.count_params():,}" in line for line in lines)
    assert model.count_params() == 3466


def test_train_evaluate_predict_and_reload(tmp_path):
    keras.utils.set_random_seed(0)
    model = mlp()
    model.compile(optimizer=keras.optimizers.RMSprop(1e-2),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[keras.metrics.SparseCategoricalAccuracy()])
    history = model.fit(X_FLAT, Y_TRAIN, batch_size=64, epochs=4,
                        validation_split=0.2, verbose=0)
    assert sorted(history.history) == [
        "loss", "sparse_categorical_accuracy", "val_loss",
        "val_sparse_categorical_accuracy"]
    assert history.history["loss"][-1] < history.history["loss"][0]
    x_test = X_TEST.reshape(-1, 64).astype("float32") / 255.0
    loss, accuracy = model.evaluate(x_test, Y_TEST, verbose=0)
    assert accuracy > 0.8
    model.save(tmp_path / "mlp.keras")
    again = keras.models.load_model(tmp_path / "mlp.keras")
    np.testing.assert_allclose(again.predict(x_test, verbose=0),
                               model.predict(x_test, verbose=0), rtol=1e-5)


def two_headed_model():
    """Pixels and a "row sums" side input; a digit head and an is-even head."""
    pixels = keras.Input(shape=(64,), name="pixels")
    row_sums = keras.Input(shape=(8,), name="row_sums")
    features = layers.Concatenate()([layers.Dense(32, activation="relu")(pixels),
                                     layers.Dense(8, activation="relu")(row_sums)])
    digit = layers.Dense(10, name="digit")(features)
    even = layers.Dense(1, activation="sigmoid", name="even")(features)
    return keras.Model(inputs=[pixels, row_sums], outputs={"digit": digit,
                                                           "even": even})


def side_data():
    row_sums = X_IMG[..., 0].sum(axis=2)
    even = (Y_TRAIN % 2 == 0).astype("float32")[:, None]
    return row_sums, even


def test_multiple_inputs_and_outputs_with_per_output_losses():
    keras.utils.set_random_seed(1)
    model = two_headed_model()
    model.compile(
        optimizer=keras.optimizers.Adam(3e-3),
        loss={"digit": keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              "even": keras.losses.BinaryCrossentropy()},
        loss_weights={"digit": 1.0, "even": 0.2},
        metrics={"digit": ["accuracy"], "even": [keras.metrics.AUC(name="auc")]})
    row_sums, even = side_data()
    history = model.fit({"pixels": X_FLAT, "row_sums": row_sums},
                        {"digit": Y_TRAIN, "even": even}, batch_size=64, epochs=4,
                        verbose=0)
    assert sorted(history.history) == ["digit_accuracy", "digit_loss", "even_auc",
                                       "even_loss", "loss"]
    h = history.history
    assert h["loss"][-1] < h["loss"][0]
    # the total is the weighted sum of the per-output losses (epoch means)
    assert h["loss"][-1] == pytest.approx(h["digit_loss"][-1] + 0.2 * h["even_loss"][-1],
                                          rel=1e-4)
    assert h["even_auc"][-1] > 0.7
    preds = model.predict([X_FLAT[:5], row_sums[:5]], verbose=0)
    assert sorted(preds) == ["digit", "even"]
    assert preds["digit"].shape == (5, 10) and preds["even"].shape == (5, 1)


def test_list_losses_and_a_head_without_loss():
    model = two_headed_model()
    model.compile(optimizer="adam", loss={"digit": None, "even": "binary_crossentropy"},
                  metrics={"even": ["accuracy"]})
    row_sums, even = side_data()
    logs = model.evaluate([X_FLAT, row_sums], {"digit": Y_TRAIN, "even": even},
                          return_dict=True, verbose=0)
    assert sorted(logs) == ["even_accuracy", "loss"]


def test_shared_layer_and_feature_extraction_from_the_graph():
    shared = layers.Dense(16, activation="tanh", name="shared")
    left, right = keras.Input((64,), name="left"), keras.Input((64,), name="right")
    both = layers.Concatenate(name="joined")([shared(left), shared(right)])
    model = keras.Model([left, right], layers.Dense(1, name="same")(both))
    assert len(shared._inbound_nodes) == 2
    assert model.count_params() == 64 * 16 + 16 + 33
    extractor = keras.Model(inputs=model.inputs,
                            outputs=[lay.output for lay in model.layers
                                     if lay.name == "joined"])
    features = extractor.predict([X_FLAT[:4], X_FLAT[4:8]], verbose=0)
    assert features.shape == (4, 32)
    np.testing.assert_allclose(features[:, :16],
                               keras.ops.convert_to_numpy(shared(X_FLAT[:4])), rtol=1e-5)


def test_models_are_layers_encoder_decoder_and_ensemble():
    encoder_in = keras.Input((64,), name="image")
    code = layers.Dense(8, activation="relu")(encoder_in)
    encoder = keras.Model(encoder_in, code, name="encoder")
    decoder_in = keras.Input((8,), name="code")
    decoder = keras.Model(decoder_in, layers.Dense(64, activation="sigmoid")(decoder_in),
                          name="decoder")
    image = keras.Input((64,))
    autoencoder = keras.Model(image, decoder(encoder(image)), name="autoencoder")
    assert [lay.name for lay in autoencoder.layers[1:]] == ["encoder", "decoder"]
    autoencoder.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
    history = autoencoder.fit(X_FLAT, X_FLAT, epochs=3, batch_size=64, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]

    members = [mlp(name=f"member_{i}") for i in range(3)]
    x = keras.Input((64,))
    ensemble = keras.Model(x, layers.Average()([m(x) for m in members])
                           if hasattr(layers, "Average") else
                           layers.Add()([m(x) for m in members]))
    assert ensemble.count_params() == 3 * members[0].count_params()


def test_small_residual_network_on_images():
    keras.utils.set_random_seed(2)
    inputs = keras.Input(shape=(8, 8, 1), name="img")
    x = layers.Conv2D(8, 3, padding="same", activation="relu")(inputs)
    block = layers.Conv2D(8, 3, padding="same", activation="relu")(x)
    x = layers.Add()([x, block])
    x = layers.GlobalAveragePooling2D()(x)
    model = keras.Model(inputs, layers.Dense(10)(x), name="toy_resnet")
    assert model.output_shape == (None, 10)
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["acc"])
    history = model.fit(X_IMG[:512], Y_TRAIN[:512], batch_size=64, epochs=3,
                        verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert sorted(history.history) == ["acc", "loss"]


def test_config_round_trip_and_clone_of_a_functional_model():
    model = two_headed_model()
    config = model.get_config()
    assert {"name", "layers", "input_layers", "output_layers"} <= set(config)
    rebuilt = keras.Model.from_config(config)
    assert [lay.name for lay in rebuilt.layers] == [lay.name for lay in model.layers]
    clone = keras.models.clone_model(model)
    assert clone.count_params() == model.count_params()
    assert clone.output_names == model.output_names
