"""KerasTensor: a shape and a dtype, no value."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic, is_keras_tensor


def test_keras_tensor_shape_is_tuple_with_none():
    kt = KerasTensor([None, 3])
    assert kt.shape == (None, 3) and kt.ndim == 2


def test_keras_tensor_default_dtype_is_floatx():
    assert KerasTensor((1,)).dtype == "float32"


def test_keras_tensor_dtype_standardized():
    assert KerasTensor((1,), dtype=np.int32).dtype == "int32"


def test_keras_tensor_auto_names():
    assert [KerasTensor((1,)).name, KerasTensor((1,)).name] == [
        "keras_tensor", "keras_tensor_1"]


def test_keras_tensor_bad_shape_raises():
    with pytest.raises(ValueError, match="shape must be a tuple of integers or None"):
        KerasTensor((None, "a"))


def test_keras_tensor_bad_dtype_raises():
    with pytest.raises(ValueError, match="Invalid dtype"):
        KerasTensor((1,), dtype="text")


def test_keras_tensor_has_no_value():
    with pytest.raises(ValueError, match="doesn't have any actual numerical value"):
        np.asarray(KerasTensor((1,)))


def test_keras_tensor_cannot_be_bool():
    with pytest.raises(TypeError, match="cannot be used as a boolean"):
        bool(KerasTensor((1,)))


def test_keras_tensor_cannot_be_iterated():
    with pytest.raises(NotImplementedError, match="Iterating"):
        list(KerasTensor((2,)))


def test_keras_tensor_repr():
    assert repr(KerasTensor((None, 5), name="x")) == (
        "<KerasTensor shape=(None, 5), dtype=float32, name=x>")


def test_keras_tensor_history_none_until_produced_by_layer():
    assert KerasTensor((1,))._keras_history is None
    assert keras.Input((1,))._keras_history is not None


def test_is_keras_tensor():
    assert is_keras_tensor(KerasTensor((1,))) and not is_keras_tensor(np.zeros(1))


def test_any_symbolic_finds_nested_keras_tensor():
    assert any_symbolic([1, {"k": KerasTensor((1,))}])
    assert not any_symbolic([1, {"k": np.zeros(1)}])
