"""kerasmini.backend.naming: auto names, uids and name scopes, as Keras names."""

import numpy as np
import pytest

from kerasmini.backend import Variable
from kerasmini.backend.naming import (
    auto_name,
    current_path,
    get_uid,
    name_scope,
    reset_names,
    to_snake_case,
    uniquify,
)


@pytest.mark.parametrize("cls, expected", [
    ("Dense", "dense"), ("MyModel", "my_model"), ("Conv2D", "conv2d"),
    ("BatchNormalization", "batch_normalization"), ("GRU", "gru"),
    ("InputLayer", "input_layer"), ("_Private", "private__private"),
])
def test_to_snake_case_like_keras(cls, expected):
    assert to_snake_case(cls) == expected


def test_auto_name_is_zero_based_and_unique():
    assert [auto_name("Dense") for _ in range(3)] == ["dense", "dense_1", "dense_2"]


def test_auto_name_counters_are_per_name():
    assert (auto_name("Dense"), auto_name("Dropout"), auto_name("Dense")) == (
        "dense", "dropout", "dense_1")


def test_get_uid_is_one_based_and_shares_the_counters():
    assert get_uid("input") == 1 and get_uid("input") == 2
    assert uniquify("input") == "input_2"  # the third use of "input"


def test_reset_names_frees_every_name():
    auto_name("Dense")
    reset_names()
    assert auto_name("Dense") == "dense"


def test_name_scope_paths_nest():
    with name_scope("outer"):
        with name_scope("inner"):
            assert current_path() == "outer/inner"
            variable = Variable(np.zeros(2), name="w")
        assert current_path() == "outer"
    assert current_path() == ""
    assert variable.path == "outer/inner/w"


def test_name_scope_reentered_by_its_caller_is_a_no_op():
    owner = object()
    with name_scope("dense", caller=owner):
        with name_scope("dense", caller=owner):
            assert current_path() == "dense"
        with name_scope("dense", caller=object()):  # someone else: nests
            assert current_path() == "dense/dense"


def test_name_scope_is_popped_when_the_block_raises():
    with pytest.raises(RuntimeError):
        with name_scope("broken"):
            raise RuntimeError("boom")
    assert current_path() == ""


@pytest.mark.parametrize("bad", ["", "a/b", None, 3])
def test_name_scope_rejects_bad_names(bad):
    with pytest.raises(ValueError, match="non-empty string without '/'"):
        name_scope(bad)
