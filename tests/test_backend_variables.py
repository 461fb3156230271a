"""``Variable``, name scopes and unique names, dtype settings and seeds."""

import numpy as np
import pytest

from kerasmini import backend
from kerasmini.backend import (
    Variable,
    clear_session,
    floatx,
    function,
    get_graph_variables,
    name_scope,
    random,
    set_floatx,
    standardize_dtype,
)
from kerasmini.backend import numpy as bnp


@pytest.fixture(autouse=True)
def fresh_session():
    clear_session()
    yield
    clear_session()


# ------------------------------------------------------------- names, paths


def test_variable_path_comes_from_the_name_scope():
    with name_scope("a"):
        assert Variable(1.0, name="w").path == "a/w"
    assert Variable(1.0, name="w").path == "w"


def test_nested_name_scopes_join_with_slashes():
    with name_scope("model"), name_scope("dense"):
        v = Variable(np.zeros(2), name="kernel")
    assert (v.name, v.path) == ("kernel", "model/dense/kernel")


def test_reentering_a_scope_with_the_same_caller_is_a_no_op():
    layer = object()
    with name_scope("dense", caller=layer):
        with name_scope("dense", caller=layer):  # e.g. build() inside __call__
            assert Variable(1.0, name="kernel").path == "dense/kernel"
        with name_scope("dense", caller=object()):  # another layer: a new level
            assert Variable(1.0, name="kernel").path == "dense/dense/kernel"


def test_auto_names_are_unique():
    assert [Variable(0.0).name for _ in range(3)] == [
        "variable",
        "variable_1",
        "variable_2",
    ]


def test_clear_session_resets_auto_names():
    Variable(0.0)
    clear_session()
    assert Variable(0.0).name == "variable"
    assert backend.auto_name("Conv2D") == "conv2d"


def test_variable_name_with_a_slash_is_refused():
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        Variable(1.0, name="a/b")


def test_name_scope_rejects_an_empty_name():
    with pytest.raises(ValueError, match="non-empty string"):
        name_scope("")


# ---------------------------------------------------------------- creation


def test_variable_from_a_callable_initializer_needs_a_shape():
    v = Variable(lambda shape, dtype: np.ones(shape, dtype), shape=(2, 3))
    assert (v.shape, v.dtype) == ((2, 3), "float32")
    with pytest.raises(ValueError, match="`shape` argument should be specified"):
        Variable(lambda shape, dtype: np.ones(shape, dtype))


def test_variable_rejects_a_shape_that_disagrees_with_its_value():
    with pytest.raises(ValueError, match=r"Initial value has shape \(2,\)"):
        Variable([1.0, 2.0], shape=(3,))


def test_variable_dtype_keeps_arrays_and_makes_python_floats_floatx():
    # Keras 3: a NumPy array keeps its dtype; Python numbers become floatx
    assert Variable(np.ones(2)).dtype == "float64"
    assert Variable(1.0).dtype == Variable([1.0, 2.0]).dtype == "float32"
    assert Variable(np.array([1, 2])).dtype == "int64"
    assert Variable(np.ones(2), dtype="float64").dtype == "float64"


def test_trainable_can_be_switched_off():
    v = Variable(1.0)
    v.trainable = False
    assert v.trainable is False


# ----------------------------------------------------------------- writing


def test_assign_assign_add_and_assign_sub_update_in_place():
    v = Variable([1.0, 2.0])
    assert v.assign([3.0, 4.0]) is v
    np.testing.assert_array_equal(v.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(v.assign_add([1.0, 1.0]).numpy(), [4.0, 5.0])
    np.testing.assert_array_equal(
        v.assign_sub(np.array([4.0, 5.0])).numpy(), [0.0, 0.0]
    )
    assert v.dtype == "float32"


def test_assign_with_a_wrong_shape_names_both_shapes():
    v = Variable(np.zeros(2), name="bias")
    with pytest.raises(
        ValueError, match=r"variable.shape=\(2,\), Received: value.shape=\(3,\)"
    ):
        v.assign(np.zeros(3))


def test_numpy_returns_a_copy():
    v = Variable([1.0, 2.0])
    copy = v.numpy()
    copy[0] = 9.0
    assert float(v.numpy()[0]) == 1.0


# ----------------------------------------------------------------- reading


def test_array_protocol_gives_the_value():
    v = Variable([1.0, 2.0])
    np.testing.assert_array_equal(np.asarray(v), [1.0, 2.0])
    assert np.asarray(v, dtype="float64").dtype == np.float64
    assert (len(v), v.ndim, v.size) == (2, 1, 2)


def test_arithmetic_operators_go_through_ops():
    v = Variable([1.0, 2.0])
    m = np.ones((2, 1), "float32")
    cases = {
        "v + 1": (v + 1, [2.0, 3.0]),
        "1 + v": (1 + v, [2.0, 3.0]),
        "v - 1": (v - 1, [0.0, 1.0]),
        "3 - v": (3 - v, [2.0, 1.0]),
        "v * v": (v * v, [1.0, 4.0]),
        "2 * v": (2 * v, [2.0, 4.0]),
        "v / 2": (v / 2, [0.5, 1.0]),
        "2 / v": (2 / v, [2.0, 1.0]),
        "v ** 2": (v**2, [1.0, 4.0]),
        "2 ** v": (2**v, [2.0, 4.0]),
        "v @ m": (v @ m, [3.0]),
        "-v": (-v, [-1.0, -2.0]),
        "abs(-v)": (abs(-v), [1.0, 2.0]),
        "v[1]": (v[1], 2.0),
    }
    for text, (got, expected) in cases.items():
        assert isinstance(got, np.ndarray), text
        assert got.dtype == np.float32, text
        np.testing.assert_array_equal(got, expected, err_msg=text)
    np.testing.assert_array_equal(v > 1.5, [False, True])
    np.testing.assert_array_equal(v <= 1.0, [True, False])


def test_variables_hash_by_identity():
    a, b = Variable(1.0), Variable(1.0)
    assert len({a, b}) == 2 and {a: 1}[a] == 1


def test_repr_shows_path_shape_dtype_and_value():
    with name_scope("dense"):
        v = Variable([1.0, 2.5], name="bias")
    assert (
        repr(v)
        == "<Variable path=dense/bias, shape=(2,), dtype=float32, value=[1. 2.5]>"
    )


# ------------------------------------------------------------ graph tracking


def test_variable_made_eagerly_is_tracked_in_the_eager_set():
    v = Variable(1.0)
    assert v in get_graph_variables()


def test_variable_made_inside_a_trace_is_tracked_by_that_graph():
    made = []

    @function
    def build(x):
        made.append(Variable(np.zeros(2), name="inner"))
        return x

    build(np.ones(1))
    graph = next(iter(build.graphs.values()))
    assert made[0] in graph.variables
    assert made[0] not in get_graph_variables()
    assert list(get_graph_variables(graph)) == made


def test_variable_value_inside_a_trace_is_read_at_replay_time():
    v = Variable(2.0)
    read = function(lambda x: bnp.multiply(x, v.value))
    assert float(read(np.array(1.0, "float32"))) == 2.0
    v.assign(5.0)
    assert float(read(np.array(1.0, "float32"))) == 5.0
    assert read.trace_count == 1


# ------------------------------------------------------------ config, seeds


def test_set_floatx_changes_the_default_float_type():
    try:
        set_floatx("float64")
        assert floatx() == "float64"
        assert Variable(1.0).dtype == "float64"
        assert bnp.zeros((1,)).dtype == np.float64
    finally:
        set_floatx("float32")


def test_set_floatx_rejects_non_float_types():
    with pytest.raises(ValueError, match="Unknown `floatx` value: int32"):
        set_floatx("int32")
    assert floatx() == "float32"


def test_standardize_dtype_names_dtypes_and_rejects_unknown_ones():
    assert standardize_dtype(np.float64) == "float64"
    assert standardize_dtype(int) == "int64"
    assert standardize_dtype(None) == "float32"
    with pytest.raises(ValueError, match="Invalid dtype: 'complex64'"):
        standardize_dtype("complex64")
    with pytest.raises(ValueError, match="Invalid dtype: 'floatish'"):
        standardize_dtype("floatish")


def test_set_seed_makes_random_ops_repeatable():
    random.set_seed(42)
    first = random.normal((3,)), random.uniform((2,))
    random.set_seed(42)
    second = random.normal((3,)), random.uniform((2,))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(random.normal((3,)), first[0])


def test_set_seed_rejects_a_non_integer():
    with pytest.raises(ValueError, match="Expected `seed` to be an integer"):
        random.set_seed(1.5)


def test_repr_keeps_one_row_per_line_like_numpy():
    v = Variable(np.arange(6.0).reshape(2, 3), name="m")
    body = repr(v).split("value=", 1)[1]
    assert body == "[[0. 1. 2.]\n [3. 4. 5.]]>"
