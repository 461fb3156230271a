"""The keras.io guide "The Sequential model" (Keras 3), in our own scenarios on
the 8x8 digits: a stack is its layers called in turn, building with a list or
with add(), pop(), deferred weights and declaring the input up front, growing
a convnet one layer at a time while watching its output shape, training,
pulling intermediate features out of a stack, and freezing all but the head
for transfer learning."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.ops import convert_to_numpy as numpy

(X_TRAIN, Y_TRAIN), _ = keras.datasets.digits.load_data()
X_FLAT = X_TRAIN.reshape(-1, 64).astype("float32") / 255.0
X_IMG = (X_TRAIN.astype("float32") / 255.0)[..., None]


def test_a_stack_computes_its_layers_one_after_the_other():
    keras.utils.set_random_seed(0)
    first = layers.Dense(12, activation="relu", name="first")
    second = layers.Dense(6, activation="tanh", name="second")
    third = layers.Dense(3, name="third")
    stack = keras.Sequential([first, second, third])
    x = X_FLAT[:5]
    by_hand = third(second(first(x)))
    np.testing.assert_allclose(numpy(stack(x)), numpy(by_hand), rtol=1e-6)
    assert stack.layers == [first, second, third]


def test_a_list_and_add_give_the_same_stack_and_pop_removes_the_top():
    listed = keras.Sequential([layers.Dense(8, activation="relu"), layers.Dense(4)],
                              name="listed")
    added = keras.Sequential(name="added")
    added.add(layers.Dense(8, activation="relu"))
    added.add(layers.Dense(4))
    assert listed.name == "listed" and added.name == "added"
    assert [type(lay).__name__ for lay in listed.layers] == \
        [type(lay).__name__ for lay in added.layers] == ["Dense", "Dense"]
    top = added.pop()
    assert top.units == 4 and len(added.layers) == 1


def test_weights_exist_only_once_the_input_shape_is_known():
    model = keras.Sequential([layers.Dense(16, activation="relu"), layers.Dense(10)])
    assert not model.built and model.weights == []
    model(X_FLAT[:2])  # the first call fixes the input shape
    assert model.built and len(model.weights) == 4
    assert [tuple(w.shape) for w in model.weights] == [(64, 16), (16,), (16, 10),
                                                       (10,)]

    declared = keras.Sequential([keras.Input(shape=(64,)), layers.Dense(16)])
    assert declared.built and len(declared.weights) == 2
    assert len(declared.layers) == 1  # the Input is not a layer of the stack
    assert declared.output_shape == (None, 16)


def test_build_with_a_batch_shape():
    model = keras.Sequential([layers.Dense(5), layers.Dense(2)])
    model.build((None, 64))
    assert model.count_params() == 64 * 5 + 5 + 5 * 2 + 2
    lines = []
    model.summary(print_fn=lines.append)
    assert any("Total params: 337" in line for line in lines)


def test_growing_a_convnet_while_watching_the_output_shape():
    model = keras.Sequential([keras.Input(shape=(8, 8, 1))])
    shapes = []
    for layer in [layers.Conv2D(8, 3, activation="relu"),  # 8x8 -> 6x6
                  layers.Conv2D(8, 3, activation="relu"),  # 6x6 -> 4x4
                  layers.MaxPooling2D(2),                  # 4x4 -> 2x2
                  layers.GlobalAveragePooling2D(),
                  layers.Dense(10, activation="softmax")]:
        model.add(layer)
        shapes.append(model.output_shape)
    assert shapes == [(None, 6, 6, 8), (None, 4, 4, 8), (None, 2, 2, 8), (None, 8),
                      (None, 10)]
    assert model.count_params() == (9 * 8 + 8) + (9 * 8 * 8 + 8) + (8 * 10 + 10)


def test_a_stack_trains_like_any_model(tmp_path):
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input(shape=(64,)),
                              layers.Dense(32, activation="relu"),
                              layers.Dense(10, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(X_FLAT, Y_TRAIN, batch_size=64, epochs=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.8
    model.save(tmp_path / "stack.keras")
    loaded = keras.models.load_model(tmp_path / "stack.keras")
    assert type(loaded).__name__ == "Sequential"
    np.testing.assert_allclose(loaded.predict(X_FLAT[:8], verbose=0),
                               model.predict(X_FLAT[:8], verbose=0), rtol=1e-6)


def test_features_of_every_layer_from_one_call():
    model = keras.Sequential([keras.Input(shape=(8, 8, 1)),
                              layers.Conv2D(4, 3, activation="relu", name="conv"),
                              layers.Flatten(name="flat"),
                              layers.Dense(10, name="scores")])
    extractor = keras.Model(inputs=model.inputs,
                            outputs=[layer.output for layer in model.layers])
    features = [numpy(f) for f in extractor(X_IMG[:3])]
    assert [tuple(f.shape) for f in features] == [(3, 6, 6, 4), (3, 144), (3, 10)]
    np.testing.assert_allclose(features[-1], numpy(model(X_IMG[:3])), rtol=1e-6)

    just_conv = keras.Model(inputs=model.inputs,
                            outputs=model.get_layer(name="conv").output)
    np.testing.assert_allclose(numpy(just_conv(X_IMG[:3])), features[0],
                               rtol=1e-6)


def test_freezing_all_but_the_last_layer():
    keras.utils.set_random_seed(2)
    model = keras.Sequential([keras.Input(shape=(64,)),
                              layers.Dense(32, activation="relu"),
                              layers.Dense(16, activation="relu"),
                              layers.Dense(10)])
    for layer in model.layers[:-1]:
        layer.trainable = False
    assert len(model.trainable_weights) == 2
    assert len(model.non_trainable_weights) == 4
    frozen_before = [w.numpy().copy() for w in model.non_trainable_weights]
    head_before = model.layers[-1].kernel.numpy().copy()
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(X_FLAT, Y_TRAIN, batch_size=64, epochs=1, verbose=0)
    for before, weight in zip(frozen_before, model.non_trainable_weights):
        np.testing.assert_array_equal(before, weight.numpy())
    assert not np.allclose(head_before, model.layers[-1].kernel.numpy())


def test_a_stack_accepts_only_single_input_layers():
    model = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(2)])
    with pytest.raises((TypeError, ValueError)):
        model.add("not a layer")
