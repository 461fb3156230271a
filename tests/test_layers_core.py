"""Core, reshaping and merging layers against NumPy reference computations."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers, ops

RNG = np.random.default_rng(0)


def _data(*shape):
    return RNG.normal(size=shape).astype("float32")


# ------------------------------------------------------------------- Dense
def test_dense_matches_numpy():
    layer = layers.Dense(3, activation="relu", bias_initializer="random_normal")
    x = _data(4, 5)
    out = layer(x)
    kernel, bias = layer.get_weights()
    np.testing.assert_allclose(out, np.maximum(x @ kernel + bias, 0), rtol=1e-5, atol=1e-6)


def test_dense_weights_shapes_and_paths():
    layer = layers.Dense(3)
    layer(_data(2, 4))
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("dense/kernel", (4, 3)), ("dense/bias", (3,))]


def test_dense_no_bias():
    layer = layers.Dense(3, use_bias=False)
    layer.build((None, 4))
    assert len(layer.weights) == 1 and layer.count_params() == 12


def test_dense_on_rank3_input_applies_to_last_axis():
    layer = layers.Dense(2)
    x = _data(2, 3, 4)
    kernel, bias = (layer(x), layer.get_weights())[1]
    np.testing.assert_allclose(layer(x), x @ kernel + bias, rtol=1e-5, atol=1e-6)


def test_dense_int_input_is_cast_to_float():
    out = layers.Dense(2, kernel_initializer="ones")(np.array([[1, 2]]))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[3.0, 3.0]])


def test_dense_input_spec_after_build():
    layer = layers.Dense(2)
    layer.build((None, 7))
    assert layer.input_spec.axes == {-1: 7} and layer.input_spec.min_ndim == 2


def test_dense_wrong_last_dim_after_build_raises():
    layer = layers.Dense(2)
    layer(_data(1, 3))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(_data(1, 4))


def test_dense_unknown_last_dim_raises():
    with pytest.raises(ValueError, match="last dimension of the inputs to `Dense` should be "
                                         "defined"):
        layers.Dense(2).build((None, None))


@pytest.mark.parametrize("units", [0, -1, 2.5, "2", True])
def test_dense_invalid_units_raises(units):
    with pytest.raises(ValueError, match="expected a positive integer"):
        layers.Dense(units)


def test_dense_compute_output_shape():
    assert layers.Dense(5).compute_output_shape((None, 3, 2)) == (None, 3, 5)


def test_dense_kernel_regularizer_in_losses():
    layer = layers.Dense(2, kernel_initializer="ones", kernel_regularizer="l2")
    layer(_data(1, 3))
    assert [round(float(loss), 6) for loss in layer.losses] == [0.06]


def test_dense_activity_regularizer_adds_loss_per_call():
    layer = layers.Dense(1, kernel_initializer="ones", activity_regularizer=keras.regularizers.L1(1.0))
    layer(np.ones((2, 3), "float32"))
    assert [float(loss) for loss in layer.losses] == [3.0]  # sum |3, 3| / batch 2


# -------------------------------------------------------------- Activation
@pytest.mark.parametrize("name, reference", [
    ("relu", lambda x: np.maximum(x, 0)),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
    ("tanh", np.tanh),
    ("linear", lambda x: x),
    ("softmax", lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
])
def test_activation_layer_matches_numpy(name, reference):
    x = _data(3, 4)
    np.testing.assert_allclose(layers.Activation(name)(x), reference(x), rtol=1e-5, atol=1e-6)


def test_activation_layer_with_callable():
    np.testing.assert_allclose(layers.Activation(lambda x: ops.multiply(x, 3.0))(np.ones((1, 2))),
                               [[3.0, 3.0]])


def test_activation_layer_unknown_name_raises():
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        layers.Activation("nope")


def test_activation_layer_symbolic_shape():
    assert layers.Activation("relu")(keras.Input((2, 3))).shape == (None, 2, 3)


# ------------------------------------------------------------------ Dropout
def test_dropout_identity_at_inference():
    x = _data(5, 5)
    np.testing.assert_array_equal(layers.Dropout(0.5)(x), x)
    np.testing.assert_array_equal(layers.Dropout(0.5)(x, training=False), x)


def test_dropout_training_zeroes_and_rescales():
    out = layers.Dropout(0.25)(np.ones((200, 200), "float32"), training=True)
    np.testing.assert_allclose(np.unique(out), [0.0, 1 / 0.75], rtol=1e-6)
    assert abs((out == 0).mean() - 0.25) < 0.01


def test_dropout_rate_zero_is_identity_in_training():
    x = _data(3, 3)
    np.testing.assert_array_equal(layers.Dropout(0.0)(x, training=True), x)


def test_dropout_noise_shape_drops_whole_columns():
    out = layers.Dropout(0.5, noise_shape=(1, 50))(np.ones((10, 50), "float32"), training=True)
    assert (out == out[0]).all()  # same mask on every row


@pytest.mark.parametrize("rate", [1.0, -0.1, "half"])
def test_dropout_invalid_rate_raises(rate):
    with pytest.raises(ValueError, match="Invalid value received for argument `rate`"):
        layers.Dropout(rate)


def test_dropout_seeded_runs_repeat():
    keras.utils.set_random_seed(7)
    first = layers.Dropout(0.5)(np.ones((4, 4), "float32"), training=True)
    keras.utils.set_random_seed(7)
    second = layers.Dropout(0.5)(np.ones((4, 4), "float32"), training=True)
    np.testing.assert_array_equal(first, second)


# ------------------------------------------------------------------ Flatten
def test_flatten_matches_numpy_reshape():
    x = _data(2, 3, 4)
    np.testing.assert_array_equal(layers.Flatten()(x), x.reshape(2, 12))


def test_flatten_symbolic_shape():
    assert layers.Flatten()(keras.Input((3, 4))).shape == (None, 12)
    assert layers.Flatten()(keras.Input((None, 4))).shape == (None, None)


def test_flatten_scalar_input_raises():
    with pytest.raises(ValueError, match="expected min_ndim=1, found ndim=0"):
        layers.Flatten()(np.float32(1.0))


# ------------------------------------------------------------------ Reshape
def test_reshape_matches_numpy():
    x = _data(2, 12)
    np.testing.assert_array_equal(layers.Reshape((3, 4))(x), x.reshape(2, 3, 4))


def test_reshape_infers_minus_one():
    assert layers.Reshape((3, -1))(_data(2, 12)).shape == (2, 3, 4)
    assert layers.Reshape((-1, 2))(keras.Input((6,))).shape == (None, 3, 2)


def test_reshape_size_mismatch_raises_naming_layer():
    with pytest.raises(ValueError, match=r"Layer 'reshape': total size of the input \(6, "
                                         r"from shape \(2, 6\)\) cannot be reshaped"):
        layers.Reshape((5,))(_data(2, 6))


def test_reshape_symbolic_size_mismatch_raises():
    with pytest.raises(ValueError, match="cannot be reshaped"):
        layers.Reshape((4, -1))(keras.Input((6,)))


@pytest.mark.parametrize("target", [(-1, -1), (0, 2), (2, None), ("a",), None])
def test_reshape_invalid_target_shape_raises(target):
    with pytest.raises(ValueError, match="target_shape"):
        layers.Reshape(target)


def test_reshape_int_target_shape():
    assert layers.Reshape(6)(_data(2, 2, 3)).shape == (2, 6)


# ---------------------------------------------------------------- merging
def test_add_matches_numpy():
    a, b, c = _data(2, 3), _data(2, 3), _data(2, 3)
    np.testing.assert_allclose(layers.Add()([a, b, c]), a + b + c, rtol=1e-6)


def test_add_mismatched_shapes_raise():
    with pytest.raises(ValueError, match=r"Inputs have incompatible shapes. Received shapes "
                                         r"\(2, 3\) and \(2, 4\)"):
        layers.Add()([_data(2, 3), _data(2, 4)])


def test_add_symbolic_mismatched_shapes_raise():
    with pytest.raises(ValueError, match="incompatible shapes"):
        layers.Add()([keras.Input((3,)), keras.Input((4,))])


def test_add_single_tensor_raises():
    with pytest.raises(ValueError, match=r"A merge layer \(add\) should be called on a list"):
        layers.Add()(_data(2, 3))


def test_add_one_element_list_raises():
    with pytest.raises(ValueError, match="list of at least 2 inputs. Got 1 inputs"):
        layers.Add()([_data(2, 3)])


def test_concatenate_matches_numpy():
    a, b = _data(2, 3), _data(2, 4)
    np.testing.assert_array_equal(layers.Concatenate()([a, b]), np.concatenate([a, b], -1))


def test_concatenate_axis_one_of_rank3():
    a, b = _data(2, 1, 4), _data(2, 3, 4)
    np.testing.assert_array_equal(layers.Concatenate(axis=1)([a, b]),
                                  np.concatenate([a, b], 1))


def test_concatenate_symbolic_shape():
    out = layers.Concatenate()([keras.Input((2,)), keras.Input((5,))])
    assert out.shape == (None, 7)


def test_concatenate_mismatched_shapes_raise():
    with pytest.raises(ValueError, match="requires inputs with matching shapes except for the "
                                         "concatenation axis"):
        layers.Concatenate()([_data(2, 3), _data(3, 4)])


def test_concatenate_mismatched_ranks_raise():
    with pytest.raises(ValueError, match="matching shapes"):
        layers.Concatenate()([_data(2, 3), _data(2, 3, 1)])


def test_concatenate_axis_out_of_range_raises():
    with pytest.raises(ValueError, match="`axis` must be an integer in"):
        layers.Concatenate(axis=3)([_data(2, 3), _data(2, 3)])


# ------------------------------------------------------------------ Lambda
def test_lambda_applies_function():
    x = _data(2, 3)
    np.testing.assert_allclose(layers.Lambda(lambda v: ops.multiply(v, 2.0))(x), 2 * x)


def test_lambda_arguments_passed_as_kwargs():
    layer = layers.Lambda(lambda v, k: ops.add(v, k), arguments={"k": 1.0})
    np.testing.assert_allclose(layer(np.zeros((1, 2))), [[1.0, 1.0]])


def test_lambda_symbolic_shape_by_dry_run():
    layer = layers.Lambda(lambda v: ops.concatenate([v, v], axis=-1))
    assert layer(keras.Input((3,))).shape == (None, 6)


def test_lambda_explicit_output_shape():
    layer = layers.Lambda(lambda v: v, output_shape=(4,))
    assert layer.compute_output_shape((None, 9)) == (None, 4)


def test_lambda_not_callable_raises():
    with pytest.raises(TypeError, match="Argument `function` must be callable"):
        layers.Lambda(3)


def test_lambda_failing_function_named_in_symbolic_error():
    layer = layers.Lambda(lambda v: ops.reshape(v, (7,)))
    with pytest.raises(ValueError, match="Could not automatically infer the output shape"):
        layer(keras.Input((3,)))
