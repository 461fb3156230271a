"""The keras.io guide "Introduction to Keras for engineers" (Keras 3), in our own
scenarios on the 8x8 digits instead of MNIST: a convnet built three ways,
trained with callbacks, evaluated, saved and reloaded; custom layers with ops."""

import numpy as np

import kerasmini as keras
from kerasmini import layers, ops

(X_TRAIN, Y_TRAIN), (X_TEST, Y_TEST) = keras.datasets.digits.load_data()
X_TRAIN = (X_TRAIN.astype("float32") / 255.0)[..., None]
X_TEST = (X_TEST.astype("float32") / 255.0)[..., None]


def sequential_convnet(num_classes=10):
    return keras.Sequential([
        layers.Input(shape=(8, 8, 1)),
        layers.Conv2D(16, kernel_size=(3, 3), activation="relu"),
        layers.Conv2D(16, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Conv2D(32, kernel_size=(1, 1), activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dropout(0.2),
        layers.Dense(num_classes, activation="softmax"),
    ])


def functional_convnet(num_classes=10):
    inputs = keras.Input(shape=(8, 8, 1), name="digits")
    x = layers.Conv2D(16, 3, activation="relu")(inputs)
    x = layers.Conv2D(16, 3, activation="relu")(x)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Conv2D(32, 1, activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    x = layers.Dropout(0.2)(x)
    return keras.Model(inputs, layers.Dense(num_classes, activation="softmax")(x))


class SubclassedConvnet(keras.Model):
    def __init__(self, num_classes=10, **kwargs):
        super().__init__(**kwargs)
        self.conv_1 = layers.Conv2D(16, 3, activation="relu")
        self.conv_2 = layers.Conv2D(16, 3, activation="relu")
        self.pool = layers.MaxPooling2D(2)
        self.conv_3 = layers.Conv2D(32, 1, activation="relu")
        self.gap = layers.GlobalAveragePooling2D()
        self.dropout = layers.Dropout(0.2)
        self.head = layers.Dense(num_classes, activation="softmax")

    def call(self, x, training=None):
        x = self.pool(self.conv_2(self.conv_1(x)))
        x = self.gap(self.conv_3(x))
        return self.head(self.dropout(x, training=training))


def test_three_ways_to_build_the_same_network():
    built = [sequential_convnet(), functional_convnet(), SubclassedConvnet()]
    built[2](X_TRAIN[:1])
    counts = [model.count_params() for model in built]
    # conv 16*(9+1), conv 16*(9*16+1), conv 32*(16+1), dense 32*10+10
    assert counts == [160 + 2320 + 544 + 330] * 3
    assert built[0].output_shape == built[1].output_shape == (None, 10)


def test_compile_fit_with_callbacks_evaluate_save_reload(tmp_path):
    keras.utils.set_random_seed(0)
    model = sequential_convnet()
    model.compile(
        loss=keras.losses.SparseCategoricalCrossentropy(),
        optimizer=keras.optimizers.Adam(learning_rate=1e-2),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="acc")],
    )
    callbacks = [
        keras.callbacks.ModelCheckpoint(
            filepath=str(tmp_path / "model_at_epoch_{epoch}.keras")),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=2),
    ]
    history = model.fit(X_TRAIN, Y_TRAIN, batch_size=64, epochs=6,
                        validation_split=0.15, callbacks=callbacks, verbose=0)
    assert set(history.history) == {"acc", "loss", "val_acc", "val_loss"}
    assert history.history["loss"][-1] < history.history["loss"][0]
    saved = sorted(p.name for p in tmp_path.glob("model_at_epoch_*.keras"))
    assert saved[0] == "model_at_epoch_1.keras" and len(saved) == len(history.epoch)
    loss, acc = model.evaluate(X_TEST, Y_TEST, verbose=0)
    assert acc > 0.5 and loss > 0

    model.save(tmp_path / "final_model.keras")
    restored = keras.saving.load_model(tmp_path / "final_model.keras")
    np.testing.assert_array_equal(model.predict(X_TEST, verbose=0),
                                  restored.predict(X_TEST, verbose=0))
    assert restored.predict(X_TEST[:5], verbose=0).argmax(axis=1).shape == (5,)


def test_custom_layer_with_ops_inside_a_functional_model():
    class MyDense(keras.Layer):
        def __init__(self, units, activation=None, name=None):
            super().__init__(name=name)
            self.units = units
            self.activation = keras.activations.get(activation)

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                     initializer=keras.initializers.GlorotNormal(),
                                     name="kernel")
            self.b = self.add_weight(shape=(self.units,), initializer="zeros",
                                     name="bias")

        def call(self, inputs):
            return self.activation(ops.matmul(inputs, self.w) + self.b)

    inputs = keras.Input(shape=(8, 8, 1))
    x = layers.Flatten()(inputs)
    x = MyDense(32, activation="relu", name="hidden")(x)
    outputs = MyDense(10, activation="softmax")(x)
    model = keras.Model(inputs, outputs)
    assert model.get_layer("hidden").w.path == "hidden/kernel"
    assert model.count_params() == 64 * 32 + 32 + 32 * 10 + 10
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(X_TRAIN, Y_TRAIN, epochs=3, batch_size=64, verbose=0)
    assert history.history["accuracy"][-1] > history.history["accuracy"][0]


def test_training_on_a_py_dataset_like_the_guide():
    class DigitBatches(keras.utils.PyDataset):
        def __init__(self, x, y, batch_size, **kwargs):
            super().__init__(**kwargs)
            self.x, self.y, self.batch_size = x, y, batch_size

        def __len__(self):
            return int(np.ceil(len(self.x) / self.batch_size))

        def __getitem__(self, idx):
            part = slice(idx * self.batch_size, (idx + 1) * self.batch_size)
            return self.x[part], self.y[part]

    keras.utils.set_random_seed(0)
    model = functional_convnet()
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(DigitBatches(X_TRAIN, Y_TRAIN, 64), epochs=3,
                        validation_data=DigitBatches(X_TEST, Y_TEST, 64), verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert "val_accuracy" in history.history
