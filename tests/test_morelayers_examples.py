"""Issue 24's names at work the way keras.io code examples use them, scaled
down to the 8x8 digits or small synthetic data (our own scenarios, each
after one example's model):

- "Image classification from scratch": an Xception-like convnet of
  SeparableConv2D blocks with residual 1x1 convolutions, here trained in
  mixed precision with AdamW on a CosineDecay schedule;
- "Bidirectional LSTM on IMDB": stacked Bidirectional LSTMs over an
  Embedding with a padding mask;
- "Next-frame prediction with Conv-LSTM": ConvLSTM2D layers and a Conv3D
  head predicting the next frame of a moving dot;
- "Image segmentation with a U-Net-like architecture": a small
  encoder-decoder scored with MeanIoU.
"""

import numpy as np

import kerasmini as keras
from kerasmini import layers

(X_TRAIN, Y_TRAIN), (X_TEST, Y_TEST) = keras.datasets.digits.load_data()
IMAGES = (X_TRAIN.astype("float32") / 255.0)[..., None]
TEST_IMAGES = (X_TEST.astype("float32") / 255.0)[..., None]


def test_xception_like_digits_in_mixed_precision_with_adamw():
    keras.utils.set_random_seed(0)
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inputs = keras.Input((8, 8, 1))
        x = layers.Conv2D(8, 3, padding="same")(inputs)
        x = layers.Activation("relu")(layers.BatchNormalization(momentum=0.9)(x))
        previous = x
        for size in (12, 16):
            x = layers.SeparableConv2D(size, 3, padding="same")(
                layers.Activation("relu")(x))
            x = layers.BatchNormalization(momentum=0.9)(x)  # few steps here
            x = layers.MaxPooling2D(3, strides=2, padding="same")(x)
            residual = layers.Conv2D(size, 1, strides=2, padding="same")(previous)
            x = previous = layers.add([x, residual])
        x = layers.GlobalAveragePooling2D()(x)
        outputs = layers.Activation("softmax", dtype="float32")(layers.Dense(10)(x))
        model = keras.Model(inputs, outputs)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    schedule = keras.optimizers.schedules.CosineDecay(0.01, decay_steps=150)
    model.compile(optimizer=keras.optimizers.AdamW(schedule, weight_decay=1e-4),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(IMAGES[:800], Y_TRAIN[:800], batch_size=32, epochs=6,
                        verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    _, accuracy = model.evaluate(TEST_IMAGES, Y_TEST, verbose=0)
    assert accuracy > 0.75  # 0.85 here; float16 sums may round otherwise elsewhere
    assert model.layers[1].compute_dtype == "float16"
    assert all(w.dtype == "float32" for w in model.weights)


def test_bidirectional_lstms_classify_padded_sequences():
    """Label 1 when token 3 comes before token 4: order matters, so neither
    direction alone can count its way to the answer."""
    rng = np.random.default_rng(0)
    x = rng.integers(5, 20, size=(512, 10))
    lengths = rng.integers(4, 11, size=512)
    y = rng.integers(0, 2, size=512)
    for row, (n, label) in enumerate(zip(lengths, y)):
        i, j = sorted(rng.choice(n, size=2, replace=False))
        x[row, i], x[row, j] = (3, 4) if label else (4, 3)
        x[row, n:] = 0  # padding
    keras.utils.set_random_seed(0)
    inputs = keras.Input((None,), dtype="int32")
    h = layers.Embedding(20, 8, mask_zero=True)(inputs)
    h = layers.Bidirectional(layers.LSTM(8, return_sequences=True))(h)
    h = layers.Bidirectional(layers.LSTM(8))(h)
    model = keras.Model(inputs, layers.Dense(1, activation="sigmoid")(h))
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(x[:448], y[:448], batch_size=32, epochs=12, verbose=0)
    _, accuracy = model.evaluate(x[448:], y[448:], verbose=0)
    assert accuracy > 0.9
    # padding changes nothing: the same sequences with more zeros at the end
    longer = np.concatenate([x[448:452], np.zeros((4, 3), int)], axis=1)
    np.testing.assert_allclose(model.predict(longer, verbose=0),
                               model.predict(x[448:452], verbose=0), atol=1e-5)


def _moving_dots(count, frames, size, rng):
    """A dot of 2x2 pixels moving one pixel a frame in a random direction."""
    movies = np.zeros((count, frames + 1, size, size, 1), "float32")
    for movie in movies:
        r, c = rng.integers(2, size - 3, size=2)
        dr, dc = rng.choice([-1, 0, 1], size=2)
        for t in range(frames + 1):
            rr, cc = np.clip([r + dr * t, c + dc * t], 0, size - 2)
            movie[t, rr:rr + 2, cc:cc + 2] = 1.0
    return movies[:, :-1], movies[:, 1:]  # frames, the frames one step later


def test_conv_lstm_predicts_the_next_frame_of_a_moving_dot():
    rng = np.random.default_rng(1)
    x, y = _moving_dots(96, 4, 8, rng)
    keras.utils.set_random_seed(0)
    inputs = keras.Input((None, 8, 8, 1))
    h = layers.ConvLSTM2D(8, 3, padding="same", return_sequences=True,
                          activation="relu")(inputs)
    h = layers.BatchNormalization()(h)
    h = layers.ConvLSTM2D(8, 1, padding="same", return_sequences=True,
                          activation="relu")(h)
    outputs = layers.Conv3D(1, 3, padding="same", activation="sigmoid")(h)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.binary_crossentropy)
    before = model.evaluate(x[80:], y[80:], verbose=0)
    model.fit(x[:80], y[:80], batch_size=16, epochs=8, verbose=0)
    after = model.evaluate(x[80:], y[80:], verbose=0)
    assert after < 0.5 * before
    # the predicted dot is where the next frame has it, in most last frames
    predicted = model.predict(x[80:], verbose=0)[:, -1, ..., 0]
    truth = y[80:, -1, ..., 0]
    hits = [truth[i].ravel()[np.argmax(p)] for i, p in enumerate(predicted)]
    assert np.mean(hits) > 0.6


def test_encoder_decoder_segments_digit_strokes_scored_with_mean_iou():
    masks = (IMAGES[..., 0] > 0.4).astype("int32")  # stroke or background
    keras.utils.set_random_seed(0)
    inputs = keras.Input((8, 8, 1))
    h = layers.SeparableConv2D(8, 3, padding="same", activation="relu")(inputs)
    h = layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2)(h)
    h = layers.ReLU(6.0)(layers.BatchNormalization()(h))
    h = layers.MaxPooling2D(2)(h)
    h = layers.Conv2DTranspose(8, 3, strides=2, padding="same")(h)
    h = layers.LeakyReLU(0.1)(h)
    outputs = layers.Conv2D(2, 1, activation="softmax")(h)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.AdamW(0.01),
                  loss="sparse_categorical_crossentropy",
                  metrics=[keras.metrics.MeanIoU(2, sparse_y_pred=False)])
    history = model.fit(IMAGES[:600], masks[:600], batch_size=32, epochs=4,
                        verbose=0)
    assert history.history["mean_io_u"][-1] > 0.8
    predicted = np.argmax(model.predict(IMAGES[600:700], verbose=0), axis=-1)
    iou = keras.metrics.MeanIoU(2)
    iou.update_state(masks[600:700], predicted)
    assert float(iou.result()) > 0.8
