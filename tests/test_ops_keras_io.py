"""keras.io code examples that use the ops issue 24 added, unchanged but
for the data (the 8x8 digits instead of CIFAR-100) and the sizes.

The layers below are the ones of keras.io's "Image classification with
Vision Transformer" example (``Patches``, ``PatchEncoder``), written with
``keras.ops`` exactly as there; the model around them is scaled down.
"""

import numpy as np

import kerasmini as keras
from kerasmini import layers, ops


class Patches(layers.Layer):
    def __init__(self, patch_size):
        super().__init__()
        self.patch_size = patch_size

    def call(self, images):
        input_shape = ops.shape(images)
        batch_size = input_shape[0]
        height = input_shape[1]
        width = input_shape[2]
        channels = input_shape[3]
        num_patches_h = height // self.patch_size
        num_patches_w = width // self.patch_size
        patches = keras.ops.image.extract_patches(images, size=self.patch_size)
        patches = ops.reshape(
            patches,
            (
                batch_size,
                num_patches_h * num_patches_w,
                self.patch_size * self.patch_size * channels,
            ),
        )
        return patches

    def get_config(self):
        config = super().get_config()
        config.update({"patch_size": self.patch_size})
        return config


class PatchEncoder(layers.Layer):
    def __init__(self, num_patches, projection_dim):
        super().__init__()
        self.num_patches = num_patches
        self.projection = layers.Dense(units=projection_dim)
        self.position_embedding = layers.Embedding(
            input_dim=num_patches, output_dim=projection_dim
        )

    def call(self, patch):
        positions = ops.expand_dims(
            ops.arange(start=0, stop=self.num_patches, step=1), axis=0
        )
        projected_patches = self.projection(patch)
        encoded = projected_patches + self.position_embedding(positions)
        return encoded


def digits():
    (x, y), _ = keras.datasets.digits.load_data()
    return x[:256, :, :, None].astype("float32") / 255.0, y[:256]


def test_vision_transformer_patches_and_encoder_train_on_the_digits():
    keras.utils.set_random_seed(0)
    x, y = digits()
    image_size, patch_size = 12, 4  # the example resizes its images first
    num_patches = (image_size // patch_size) ** 2
    inputs = keras.Input(shape=(8, 8, 1))
    resized = layers.Lambda(lambda t: ops.image.resize(t, (image_size, image_size)))(
        inputs)
    patches = Patches(patch_size)(resized)
    assert patches.shape == (None, num_patches, patch_size * patch_size)
    encoded = PatchEncoder(num_patches, 16)(patches)
    features = layers.Flatten()(ops.gelu(encoded, approximate=False))
    outputs = layers.Dense(10, activation="softmax")(features)
    model = keras.Model(inputs, outputs)
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=10, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.75 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.6


def test_patches_match_a_numpy_reading_of_the_image():
    images = np.arange(2 * 8 * 8 * 3, dtype="float32").reshape(2, 8, 8, 3)
    patches = np.asarray(Patches(4)(images))
    # patch (i, j) of image n: rows 4i..4i+3, columns 4j..4j+3, all channels
    expected = images.reshape(2, 2, 4, 2, 4, 3).transpose(0, 1, 3, 2, 4, 5).reshape(
        2, 4, 48)
    np.testing.assert_array_equal(patches, expected)
