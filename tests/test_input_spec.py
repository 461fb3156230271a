"""InputSpec and assert_input_compatibility: Keras's checks and messages."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.engine.input_spec import InputSpec, assert_input_compatibility


def test_input_spec_shape_sets_ndim():
    assert InputSpec(shape=(None, 3)).ndim == 2


def test_input_spec_stores_fields():
    spec = InputSpec(dtype="float32", max_ndim=4, min_ndim=2, axes={-1: 5})
    assert (spec.dtype, spec.max_ndim, spec.min_ndim, spec.axes) == (
        "float32", 4, 2, {-1: 5})


def test_input_spec_non_int_axis_key_raises():
    with pytest.raises(TypeError, match="keys in `axes` must be integers"):
        InputSpec(axes={"last": 3})


def test_input_spec_axis_beyond_ndim_raises():
    with pytest.raises(ValueError, match="Axis 3 is greater than the maximum allowed value: 1"):
        InputSpec(ndim=2, axes={3: 1})


def test_input_spec_repr_lists_set_fields_only():
    assert repr(InputSpec(min_ndim=2, axes={-1: 10})) == "InputSpec(min_ndim=2, axes={-1: 10})"
    assert repr(InputSpec()) == "InputSpec()"


def test_assert_compat_none_spec_accepts_anything():
    assert_input_compatibility(None, np.zeros((1, 2, 3)), "any")


def test_assert_compat_ndim_mismatch_message():
    with pytest.raises(ValueError, match=r'Input 0 of layer "l" is incompatible with the '
                                         r"layer: expected ndim=2, found ndim=1. Full shape "
                                         r"received: \(5,\)"):
        assert_input_compatibility(InputSpec(ndim=2), np.zeros(5), "l")


def test_assert_compat_min_ndim():
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1"):
        assert_input_compatibility(InputSpec(min_ndim=2), np.zeros(5), "l")


def test_assert_compat_max_ndim():
    with pytest.raises(ValueError, match="expected max_ndim=2, found ndim=3"):
        assert_input_compatibility(InputSpec(max_ndim=2), np.zeros((1, 1, 1)), "l")


def test_assert_compat_dtype():
    with pytest.raises(ValueError, match="expected dtype=int32, found dtype=float32"):
        assert_input_compatibility(InputSpec(dtype="int32"), np.zeros(2, "float32"), "l")


def test_assert_compat_axes_value():
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value "
                                         r"10, but received input with shape \(2, 5\)"):
        assert_input_compatibility(InputSpec(axes={-1: 10}), np.zeros((2, 5)), "l")


def test_assert_compat_axes_unknown_dim_passes():
    assert_input_compatibility(InputSpec(axes={-1: 10}), keras.KerasTensor((2, None)), "l")


def test_assert_compat_full_shape():
    with pytest.raises(ValueError, match=r"expected shape=\(None, 3\), found shape=\(2, 4\)"):
        assert_input_compatibility(InputSpec(shape=(None, 3)), np.zeros((2, 4)), "l")


def test_assert_compat_wrong_number_of_inputs():
    specs = [InputSpec(ndim=2), InputSpec(ndim=2)]
    with pytest.raises(ValueError, match='Layer "l" expects 2 input\\(s\\), but it received 1'):
        assert_input_compatibility(specs, [np.zeros((1, 1))], "l")


def test_assert_compat_index_of_failing_input():
    specs = [InputSpec(ndim=2), InputSpec(ndim=3)]
    with pytest.raises(ValueError, match='Input 1 of layer "l"'):
        assert_input_compatibility(specs, [np.zeros((1, 1)), np.zeros((1, 1))], "l")


def test_assert_compat_non_tensor_input():
    with pytest.raises(ValueError, match="Inputs to a layer should be tensors. Got 'x'"):
        assert_input_compatibility(InputSpec(ndim=1), "x", "l")


def test_assert_compat_dict_inputs_by_name():
    specs = [InputSpec(ndim=2, name="a"), InputSpec(ndim=1, name="b")]
    assert_input_compatibility(specs, {"b": np.zeros(2), "a": np.zeros((1, 1))}, "l")


def test_assert_compat_dict_missing_key():
    specs = [InputSpec(name="a"), InputSpec(name="b")]
    with pytest.raises(ValueError, match='Missing data for input "b"'):
        assert_input_compatibility(specs, {"a": np.zeros(1)}, "l")


def test_dense_symbolic_wrong_last_dim_message_from_issue():
    dense = layers.Dense(3)
    dense(keras.Input((10,)))
    with pytest.raises(ValueError, match=r'Input 0 of layer "dense" is incompatible with the '
                                         r"layer: expected axis -1 of input shape to have "
                                         r"value 10, but received input with shape "
                                         r"\(None, 5\)"):
        dense(keras.Input((5,)))


def test_dense_eager_wrong_rank_message():
    with pytest.raises(ValueError, match='layer "dense".*expected min_ndim=2, found ndim=1'):
        layers.Dense(3)(np.zeros(4))
