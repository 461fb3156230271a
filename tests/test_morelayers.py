"""Issue 24's layers without real Keras: every new layer honours the layer
contract (symbolic shape = eager shape = ``compute_output_shape``; config and
``.keras`` round trips), its gradients match central differences, its values
match a NumPy reference written here, and bad arguments are refused with the
layer's name and ``Received:``. (``test_morelayers_keras.py`` compares the
same layers with real Keras 3.15.1.)
"""

import numpy as np
import pytest
from layer_contract import check_layer, check_layer_gradients

import kerasmini as keras
from kerasmini import layers

RNG = np.random.default_rng(24)


def normal(*shape, dtype="float32"):
    return RNG.normal(size=shape).astype(dtype)


# ---------------------------------------------------------------- contract
CONTRACT = [
    (lambda: layers.Conv3D(3, (2, 3, 2), strides=(1, 2, 1), padding="same",
                           bias_initializer="random_normal"), (2, 3, 5, 4, 2)),
    (lambda: layers.Conv1DTranspose(3, 3, strides=2, output_padding=1),
     (2, 5, 2)),
    (lambda: layers.DepthwiseConv1D(3, depth_multiplier=2, padding="same"),
     (2, 6, 3)),
    (lambda: layers.DepthwiseConv2D((2, 3), strides=2), (2, 6, 7, 2)),
    (lambda: layers.SeparableConv1D(4, 3, depth_multiplier=2, dilation_rate=2),
     (2, 9, 3)),
    (lambda: layers.SeparableConv2D(3, 2, padding="same", activation="relu"),
     (2, 5, 5, 2)),
    (lambda: layers.MaxPooling3D((1, 2, 2), padding="same"), (2, 3, 5, 4, 2)),
    (lambda: layers.AveragePooling3D(2, strides=1), (2, 3, 5, 4, 2)),
    (lambda: layers.GlobalMaxPooling3D(), (2, 3, 5, 4, 2)),
    (lambda: layers.GlobalAveragePooling3D(keepdims=True), (2, 3, 5, 4, 2)),
    (lambda: layers.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.2),
     (3, 4)),
    (lambda: layers.LeakyReLU(0.2), (3, 4)),
    (lambda: layers.ELU(0.5), (3, 4)),
    (lambda: layers.PReLU(alpha_initializer="random_normal", shared_axes=[1]),
     (3, 4, 2)),
    (lambda: layers.Softmax(axis=[1, 2]), (3, 4, 2)),
    (lambda: layers.UnitNormalization(axis=(1, 2)), (3, 4, 2)),
    (lambda: layers.Bidirectional(layers.GRU(2, return_sequences=True),
                                  merge_mode="ave"), (2, 4, 3)),
    (lambda: layers.Bidirectional(layers.LSTM(2), backward_layer=layers.SimpleRNN(
        3, go_backwards=True)), (2, 4, 3)),
    (lambda: layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True),
     (2, 3, 5, 1)),
    (lambda: layers.ConvLSTM2D(2, 2, strides=2), (2, 3, 4, 4, 1)),
    (lambda: layers.ConvLSTM3D(1, 2), (1, 2, 3, 3, 3, 1)),
]


@pytest.mark.parametrize("make, shape", CONTRACT,
                         ids=[type(m()).__name__ + str(i)
                              for i, (m, _) in enumerate(CONTRACT)])
def test_layer_contract(tmp_path, make, shape):
    keras.utils.set_random_seed(0)
    check_layer(make, normal(*shape), tmp_path, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------- gradients
GRADIENTS = [
    (lambda: layers.Conv3D(2, 2, strides=(1, 2, 1), padding="same"), (1, 2, 3, 3, 1)),
    (lambda: layers.Conv3D(1, (2, 1, 2), dilation_rate=(1, 2, 1)), (1, 3, 3, 3, 2)),
    (lambda: layers.Conv1DTranspose(2, 3, strides=2, padding="same"), (2, 3, 2)),
    (lambda: layers.Conv1DTranspose(1, 2, dilation_rate=2), (1, 4, 2)),
    (lambda: layers.DepthwiseConv1D(2, strides=2, depth_multiplier=2), (2, 5, 2)),
    (lambda: layers.DepthwiseConv2D(2, padding="same"), (1, 3, 3, 2)),
    (lambda: layers.SeparableConv1D(2, 2, depth_multiplier=2, padding="same"),
     (1, 4, 2)),
    (lambda: layers.SeparableConv2D(2, 2, strides=2), (1, 4, 4, 2)),
    (lambda: layers.PReLU(alpha_initializer="random_normal"), (2, 3)),
    (lambda: layers.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.2), (3, 4)),
    (lambda: layers.ELU(0.7), (3, 4)),
    (lambda: layers.Softmax(axis=[1, 2]), (2, 3, 2)),
    (lambda: layers.UnitNormalization(), (3, 4)),
    (lambda: layers.Bidirectional(layers.LSTM(2, return_sequences=True)),
     (2, 3, 2)),
    (lambda: layers.ConvLSTM1D(1, 2, padding="same"), (1, 2, 3, 1)),
    (lambda: layers.ConvLSTM2D(1, 2, return_sequences=True), (1, 2, 3, 3, 1)),
]


@pytest.mark.parametrize("make, shape", GRADIENTS,
                         ids=[type(m()).__name__ + str(i)
                              for i, (m, _) in enumerate(GRADIENTS)])
def test_gradients_match_finite_differences(make, shape):
    keras.utils.set_random_seed(1)
    keras.backend.set_floatx("float64")  # float64 weights, cells included
    try:
        layer = make()
    finally:
        keras.backend.set_floatx("float32")
    x = RNG.normal(size=shape)
    if isinstance(layer, (layers.ReLU, layers.ELU)):  # no point near a kink
        x = np.linspace(-1.9, 1.9, 12).reshape(3, 4)
    layer.build(x.shape)
    for w in layer.trainable_weights:  # biases and kernels away from zero
        w.assign(RNG.normal(scale=0.5, size=w.shape))
    check_layer_gradients(layer, x)


# -------------------------------------------------------- NumPy references
def _windows(x, size, strides):
    """Every (valid) window of a (batch, *spatial, channels) array, as
    (window index tuple, window array)."""
    spatial = x.shape[1:-1]
    counts = [(n - k) // s + 1 for n, k, s in zip(spatial, size, strides)]
    for index in np.ndindex(*counts):
        box = tuple(slice(i * s, i * s + k) for i, s, k in zip(index, strides, size))
        yield index, x[(slice(None),) + box]


def test_conv3d_is_a_sum_over_each_window():
    x, layer = normal(2, 4, 5, 3, 2), layers.Conv3D(3, (2, 3, 2), strides=(2, 1, 1))
    y = np.asarray(layer(x))
    kernel, bias = layer.get_weights()
    expected = np.zeros(y.shape)
    for index, window in _windows(x, (2, 3, 2), (2, 1, 1)):
        expected[(slice(None),) + index] = np.einsum(
            "ndhwc,dhwco->no", window, kernel) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_depthwise_and_separable_1d_are_per_channel_then_pointwise():
    x = normal(2, 6, 3)
    depthwise = layers.DepthwiseConv1D(2, depth_multiplier=2,
                                       bias_initializer="random_normal")
    y = np.asarray(depthwise(x))
    kernel, bias = depthwise.get_weights()  # (2, 3, 2), (6,)
    expected = np.stack([np.einsum("nkc,kcm->ncm", w, kernel).reshape(2, 6)
                         for _, w in _windows(x, (2,), (1,))], axis=1) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    separable = layers.SeparableConv1D(4, 2, depth_multiplier=2)
    z = np.asarray(separable(x))
    dk, pk, pb = separable.get_weights()  # (2, 3, 2), (1, 6, 4), (4,)
    per_channel = np.stack([np.einsum("nkc,kcm->ncm", w, dk).reshape(2, 6)
                            for _, w in _windows(x, (2,), (1,))], axis=1)
    np.testing.assert_allclose(z, per_channel @ pk[0] + pb, rtol=1e-5, atol=1e-5)


def test_conv1d_transpose_is_the_adjoint_of_conv1d():
    """<conv(x), y> = <x, conv_transpose(y)> with the same kernel (no bias)."""
    x, y = normal(2, 9, 3), normal(2, 4, 2)
    conv = layers.Conv1D(2, 3, strides=2, use_bias=False)
    transpose = layers.Conv1DTranspose(3, 3, strides=2, use_bias=False)
    conv(x), transpose(y)
    transpose.set_weights([conv.get_weights()[0]])  # (k, in=3, out=2) both ways
    left = np.sum(np.asarray(conv(x)) * y)
    right = np.sum(x * np.asarray(transpose(y)))
    np.testing.assert_allclose(left, right, rtol=1e-4)
    assert transpose.compute_output_shape((None, 4, 2)) == (None, 9, 3)


def test_pooling3d_matches_numpy_blocks():
    x = normal(2, 4, 6, 2, 3)
    blocks = x.reshape(2, 2, 2, 3, 2, 1, 2, 3)
    np.testing.assert_allclose(layers.MaxPooling3D((2, 2, 2))(x),
                               blocks.max(axis=(2, 4, 6)))
    np.testing.assert_allclose(layers.AveragePooling3D((2, 2, 2))(x),
                               blocks.mean(axis=(2, 4, 6)), rtol=1e-6)
    np.testing.assert_allclose(layers.GlobalMaxPooling3D()(x), x.max(axis=(1, 2, 3)))
    # "same" with an uneven window: averages over the real entries only
    edge = np.asarray(layers.AveragePooling3D((1, 1, 3), strides=1,
                                              padding="same")(x))
    np.testing.assert_allclose(edge[..., -1, :], x[..., -2:, :].mean(axis=-2),
                               rtol=1e-5)


def test_activation_layers_follow_their_formulas():
    x = np.linspace(-3, 3, 25).astype("float32").reshape(5, 5)
    relu = np.where(x > 0.5, np.minimum(x, 2.0), 0.1 * (x - 0.5))
    np.testing.assert_allclose(
        layers.ReLU(max_value=2.0, negative_slope=0.1, threshold=0.5)(x), relu,
        rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(layers.LeakyReLU()(x), np.where(x > 0, x, 0.3 * x),
                               rtol=1e-6)
    np.testing.assert_allclose(layers.ELU(0.5)(x),
                               np.where(x > 0, x, 0.5 * np.expm1(x)), rtol=1e-6)
    prelu = layers.PReLU(alpha_initializer=keras.initializers.Constant(0.25))
    np.testing.assert_allclose(prelu(x), np.where(x > 0, x, 0.25 * x), rtol=1e-6)
    assert prelu.alpha.shape == (5,)
    e = np.exp(x - x.max(axis=0))
    np.testing.assert_allclose(layers.Softmax(axis=0)(x), e / e.sum(axis=0),
                               rtol=1e-6)
    np.testing.assert_allclose(layers.UnitNormalization()(x),
                               x / np.linalg.norm(x, axis=-1, keepdims=True),
                               rtol=1e-6)


def test_softmax_mask_gives_masked_entries_no_weight():
    x = normal(2, 4)
    mask = np.array([[1, 1, 0, 1], [0, 1, 1, 0]], bool)
    y = np.asarray(layers.Softmax()(x, mask=mask))
    e = np.where(mask, np.exp(x), 0.0)
    np.testing.assert_allclose(y, e / e.sum(axis=-1, keepdims=True), atol=1e-6)


def test_bidirectional_is_a_forward_and_a_reversed_backward_run():
    x = normal(2, 5, 3)
    bi = layers.Bidirectional(layers.SimpleRNN(2, return_sequences=True),
                              merge_mode=None)
    forward_out, backward_out = (np.asarray(v) for v in bi(x))
    forward = layers.SimpleRNN(2, return_sequences=True)
    backward = layers.SimpleRNN(2, return_sequences=True)
    forward(x), backward(x)
    forward.set_weights(bi.forward_layer.get_weights())
    backward.set_weights(bi.backward_layer.get_weights())
    np.testing.assert_allclose(forward_out, forward(x), rtol=1e-6)
    # the backward half reads the steps last to first, and its outputs are
    # put back in the order of the inputs
    np.testing.assert_allclose(backward_out, np.asarray(backward(x[:, ::-1]))[:, ::-1],
                               rtol=1e-5, atol=1e-6)
    assert [w.path for w in bi.weights][:1] == \
        ["bidirectional/forward_simple_rnn/simple_rnn_cell/kernel"]


def test_kl_divergence_cosine_similarity_and_mean_iou_by_hand():
    p = np.array([[0.2, 0.8], [0.5, 0.5]], "float32")
    q = np.array([[0.4, 0.6], [0.9, 0.1]], "float32")
    kld = np.sum(p * np.log(p / q), axis=-1)
    np.testing.assert_allclose(keras.losses.kl_divergence(p, q), kld, rtol=1e-5)
    np.testing.assert_allclose(keras.losses.KLDivergence()(p, q), kld.mean(),
                               rtol=1e-5)
    cosine = keras.metrics.CosineSimilarity()
    cosine.update_state(p, q)
    expected = np.mean(np.sum(p * q, -1) / np.linalg.norm(p, axis=-1) /
                       np.linalg.norm(q, axis=-1))
    np.testing.assert_allclose(cosine.result(), expected, rtol=1e-5)
    labels, predicted = np.array([0, 0, 1, 2, 2, 2]), np.array([0, 1, 1, 2, 0, 2])
    iou = keras.metrics.MeanIoU(3)
    iou.update_state(labels, predicted)
    # class 0: 1 / (2 + 2 - 1); class 1: 1 / (1 + 2 - 1); class 2: 2 / (3 + 2 - 2)
    np.testing.assert_allclose(iou.result(), np.mean([1 / 3, 1 / 2, 2 / 3]),
                               rtol=1e-6)


def test_schedules_follow_their_formulas():
    schedules = keras.optimizers.schedules
    poly = schedules.PolynomialDecay(0.1, 10, end_learning_rate=0.01, power=2.0)
    for step in (0, 4, 10, 20):
        fraction = 1 - min(step, 10) / 10
        assert np.isclose(float(poly(step)), 0.09 * fraction ** 2 + 0.01)
    cosine = schedules.CosineDecay(0.1, 20, alpha=0.1)
    for step in (0, 5, 20, 30):
        decayed = 0.5 * (1 + np.cos(np.pi * min(step, 20) / 20))
        assert np.isclose(float(cosine(step)), 0.1 * ((1 - 0.1) * decayed + 0.1))
    warm = schedules.CosineDecay(0.0, 10, warmup_target=0.2, warmup_steps=4)
    assert np.isclose(float(warm(2)), 0.1) and np.isclose(float(warm(4)), 0.2)
    restarts = schedules.CosineDecayRestarts(0.1, 4, t_mul=2.0, m_mul=0.5)
    assert np.isclose(float(restarts(4)), 0.05)  # second period, half the rate
    assert np.isclose(float(restarts(8)), 0.05 * 0.5 * (1 + np.cos(np.pi * 4 / 8)))
    for schedule in (poly, cosine, warm, restarts):
        clone = type(schedule).from_config(schedule.get_config())
        assert float(clone(7)) == float(schedule(7))


def test_adamw_is_adam_after_a_decoupled_weight_decay():
    w0, g = np.array([1.0, -2.0], "float32"), np.array([0.5, 0.25], "float32")
    variable = keras.Variable(w0)
    optimizer = keras.optimizers.AdamW(0.1, weight_decay=0.2)
    optimizer.apply([g], [variable])
    decayed = w0 - 0.1 * 0.2 * w0
    m, v = 0.1 * g, 0.001 * g ** 2
    step = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9) * m / (np.sqrt(v) + 1e-7)
    np.testing.assert_allclose(variable.numpy(), decayed - step, rtol=1e-6)
    excluded = keras.Variable(w0, name="bias")
    optimizer = keras.optimizers.AdamW(0.1, weight_decay=0.2)
    optimizer.exclude_from_weight_decay(var_names=["bias"])
    optimizer.apply([g], [excluded])
    np.testing.assert_allclose(excluded.numpy(), w0 - step, rtol=1e-6)


def test_mixed_precision_computes_in_float16_with_float32_weights():
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        policy = keras.mixed_precision.global_policy()
        assert (policy.compute_dtype, policy.variable_dtype) == ("float16", "float32")
        model = keras.Sequential([keras.Input((4,)), layers.Dense(3),
                                  layers.BatchNormalization(),
                                  layers.Activation("softmax", dtype="float32")])
    finally:
        keras.mixed_precision.set_global_policy("float32")
    dense, bn, softmax = model.layers
    assert dense.compute_dtype == "float16" and dense.variable_dtype == "float32"
    assert all(w.dtype == "float32" for w in model.weights)
    x = normal(4, 4)
    assert np.asarray(dense(x)).dtype == np.float16
    assert np.asarray(model(x)).dtype == np.float32
    model.compile(optimizer="adamw", loss="categorical_crossentropy")
    model.fit(x, np.eye(3, dtype="float32")[[0, 1, 2, 0]], epochs=1, verbose=0)
    assert all(w.dtype == "float32" for w in model.weights)
    # the moving statistics are updated in float32, not rounded to float16
    mean = bn.moving_mean.numpy()
    assert np.any(mean.astype("float16").astype("float32") != mean)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("make, phrase", [
    (lambda: layers.SeparableConv2D(0, 3), "filters"),
    (lambda: layers.DepthwiseConv2D(3, depth_multiplier=0), "depth_multiplier"),
    (lambda: layers.Conv3D(2, (2, 2)), "kernel_size"),
    (lambda: layers.Conv1DTranspose(2, 3, padding="causal"), "padding"),
    (lambda: layers.ReLU(max_value=-1.0), "max_value"),
    (lambda: layers.LeakyReLU(negative_slope=-0.5), "negative_slope"),
    (lambda: layers.Bidirectional(layers.Dense(2)), "Bidirectional"),
    (lambda: layers.Bidirectional(layers.LSTM(2), merge_mode="max"), "merge mode"),
    (lambda: keras.optimizers.AdamW(weight_decay=None), "weight_decay"),
    (lambda: keras.optimizers.schedules.PolynomialDecay(0.1, 0), "decay_steps"),
    (lambda: keras.metrics.MeanIoU(1.5), "num_classes"),
    (lambda: keras.mixed_precision.Policy("mixed_int8"), "mixed_int8"),
])
def test_bad_arguments_are_refused_with_received(make, phrase):
    with pytest.raises((ValueError, TypeError), match=phrase) as info:
        make()
    assert "Received" in str(info.value)


@pytest.mark.parametrize("make, shape", [
    (lambda: layers.Conv3D(2, 2), (4, 4, 1)),
    (lambda: layers.DepthwiseConv2D(2), (4, 1)),
    (lambda: layers.ConvLSTM2D(2, 2), (3, 4, 1)),
    (lambda: layers.MaxPooling3D(), (4, 4, 1)),
])
def test_inputs_of_the_wrong_rank_are_refused_symbolically_and_eagerly(make, shape):
    with pytest.raises(ValueError, match="expected ndim"):
        make()(keras.Input(shape))
    with pytest.raises(ValueError, match="expected ndim"):
        make()(np.zeros((1,) + shape, "float32"))


def test_clear_session_forgets_the_global_dtype_policy():
    # Keras 3 keeps the policy in the global state clear_session replaces
    # (compared with Keras in tests/test_config_keras.py)
    keras.mixed_precision.set_global_policy("mixed_float16")
    assert keras.layers.Dense(2).dtype_policy.name == "mixed_float16"
    keras.backend.clear_session()
    assert keras.mixed_precision.global_policy().name == "float32"
    assert keras.layers.Dense(2).dtype_policy.name == "float32"
