"""Functional: graph mapping, depths, running by depth, shared and nested
layers, and the errors of a badly wired graph."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers
from kerasmini.models.functional import Functional


def _depths(model):
    return {depth: [n.layer.name for n in nodes]
            for depth, nodes in sorted(model._nodes_by_depth.items())}


def _two_branch():
    a = keras.Input((4,), name="a")
    b = keras.Input((4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate(name="concat")([shared(a), shared(b)])
    out = layers.Dense(1, name="out")(merged)
    return keras.Model([a, b], out), shared


def test_model_with_inputs_outputs_returns_functional():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(x))
    assert type(model) is Functional


def test_model_keyword_inputs_outputs_returns_functional():
    x = keras.Input((3,))
    assert type(keras.Model(inputs=x, outputs=layers.Dense(1)(x))) is Functional


def test_functional_auto_names():
    x = keras.Input((3,))
    y = layers.Dense(1)(x)
    assert [keras.Model(x, y).name, Functional(x, y).name] == ["functional", "functional_1"]


def test_functional_layers_in_depth_order():
    x = keras.Input((4,))
    h = layers.Dense(3)(x)
    model = keras.Model(x, layers.Dense(2)(h))
    assert [layer.name for layer in model.layers] == ["input_layer", "dense", "dense_1"]


def test_functional_depth_mapping_chain():
    x = keras.Input((4,))
    h = layers.Dense(3)(x)
    model = keras.Model(x, layers.Dense(2)(h))
    assert _depths(model) == {0: ["dense_1"], 1: ["dense"], 2: ["input_layer"]}


def test_functional_depth_of_skip_connection_is_longest_path():
    x = keras.Input((2,), name="x")
    h = layers.Dense(2, name="h")(x)
    out = layers.Add(name="add")([x, h])
    model = keras.Model(x, out)
    assert _depths(model) == {0: ["add"], 1: ["h"], 2: ["x"]}


def test_functional_shared_layer_has_two_nodes_at_same_depth():
    model, shared = _two_branch()
    assert _depths(model) == {0: ["out"], 1: ["concat"], 2: ["shared", "shared"],
                              3: ["a", "b"]}
    assert len(shared._inbound_nodes) == 2
    assert [layer.name for layer in model.layers] == ["a", "b", "shared", "concat", "out"]


def test_functional_shared_layer_runs_against_numpy_reference():
    model, shared = _two_branch()
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    kernel, bias = shared.get_weights()
    out_kernel, out_bias = model.get_layer("out").get_weights()
    merged = np.concatenate([a @ kernel + bias, b @ kernel + bias], axis=-1)
    np.testing.assert_allclose(model([a, b]), merged @ out_kernel + out_bias,
                               rtol=1e-5, atol=1e-6)


def test_functional_multiple_outputs_list():
    x = keras.Input((3,))
    y1, y2 = layers.Dense(1)(x), layers.Dense(2)(x)
    outs = keras.Model(x, [y1, y2])(np.ones((4, 3)))
    assert isinstance(outs, list) and [o.shape for o in outs] == [(4, 1), (4, 2)]


def test_functional_dict_inputs_and_outputs():
    p, q = keras.Input((2,), name="p"), keras.Input((3,), name="q")
    joined = layers.Concatenate()([p, q])
    model = keras.Model({"p": p, "q": q}, {"joined": joined, "nested": [joined]})
    out = model({"q": np.zeros((1, 3)), "p": np.ones((1, 2))})
    assert set(out) == {"joined", "nested"}
    np.testing.assert_array_equal(out["joined"], [[1, 1, 0, 0, 0]])
    assert isinstance(out["nested"], list)


def test_functional_dict_inputs_missing_key_raises():
    p, q = keras.Input((2,), name="p"), keras.Input((3,), name="q")
    model = keras.Model({"p": p, "q": q}, layers.Concatenate()([p, q]))
    with pytest.raises(ValueError, match='Missing data for input "q"'):
        model({"p": np.ones((1, 2))})


def test_functional_list_inputs_accept_dict_by_input_names():
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    model = keras.Model([a, b], layers.Add()([a, b]))
    out = model({"a": np.ones((1, 2)), "b": np.full((1, 2), 2.0)})
    np.testing.assert_array_equal(out, [[3, 3]])


def test_functional_wrong_number_of_inputs_raises():
    a, b = keras.Input((2,)), keras.Input((2,))
    model = keras.Model([a, b], layers.Add()([a, b]))
    with pytest.raises(ValueError, match=r'Layer "functional" expects 2 input\(s\), but it '
                                         "received 1 input tensors"):
        model([np.ones((1, 2))])


def test_functional_wrong_input_shape_raises():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(x))
    with pytest.raises(ValueError, match=r'Input 0 of layer "functional" is incompatible.*'
                                         r"expected shape=\(None, 3\), found shape=\(2, 4\)"):
        model(np.ones((2, 4)))


def test_functional_wrong_input_rank_raises():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(x))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=1"):
        model(np.ones(3))


def test_functional_string_input_raises():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(x))
    with pytest.raises(ValueError, match="Inputs to a layer should be tensors"):
        model("abc")


def test_functional_graph_disconnected_raises():
    a, b = keras.Input((2,)), keras.Input((2,))
    out = layers.Add(name="add")([a, b])
    with pytest.raises(ValueError, match='Graph disconnected: cannot obtain value for tensor '
                                         '.*at layer "add"'):
        keras.Model(a, out)


def test_functional_output_from_other_input_raises():
    a, b = keras.Input((2,)), keras.Input((2,))
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, layers.Dense(1)(b))


def test_functional_duplicate_layer_names_raises():
    x = keras.Input((2,))
    y = layers.Dense(1, name="same")(layers.Dense(2, name="same")(x))
    with pytest.raises(ValueError, match='The name "same" is used 2 times in the model'):
        keras.Model(x, y)


def test_functional_non_keras_tensor_output_raises():
    x = keras.Input((2,))
    with pytest.raises(ValueError, match="All `outputs` values must be KerasTensors"):
        keras.Model(x, np.ones(2))


def test_functional_keras_tensor_without_history_raises():
    x = keras.Input((2,))
    with pytest.raises(ValueError, match="must come from `kerasmini.Input`"):
        keras.Model(keras.KerasTensor((None, 2)), x)


def test_functional_repeated_input_raises():
    x = keras.Input((2,))
    with pytest.raises(ValueError, match="contains the same input multiple times"):
        keras.Model([x, x], layers.Dense(1)(x))


def test_functional_symbolic_call_adds_node():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(2)(x))
    z = keras.Input((3,))
    out = model(z)
    assert out.shape == (None, 2) and out._keras_history.layer is model


def test_functional_nested_model_as_layer():
    inner_in = keras.Input((3,))
    inner = keras.Model(inner_in, layers.Dense(2, name="inner_dense")(inner_in), name="inner")
    x = keras.Input((3,))
    outer = keras.Model(x, layers.Dense(1, name="head")(inner(x)), name="outer")
    assert [layer.name for layer in outer.layers] == ["input_layer_1", "inner", "head"]
    assert outer.count_params() == 3 * 2 + 2 + 2 + 1
    assert outer(np.ones((5, 3))).shape == (5, 1)


def test_functional_nested_model_matches_numpy():
    inner_in = keras.Input((3,))
    inner = keras.Model(inner_in, layers.Dense(2, activation="relu")(inner_in))
    x = keras.Input((3,))
    head = layers.Dense(1)
    outer = keras.Model(x, head(inner(x)))
    data = np.random.default_rng(3).normal(size=(4, 3))
    k1, b1 = inner.layers[1].get_weights()
    k2, b2 = head.get_weights()
    expected = np.maximum(data @ k1 + b1, 0) @ k2 + b2
    np.testing.assert_allclose(outer(data), expected, rtol=1e-5, atol=1e-6)


def test_functional_get_layer_by_name_and_index():
    model, shared = _two_branch()
    assert model.get_layer("shared") is shared
    assert model.get_layer(index=-1).name == "out"


def test_functional_get_layer_unknown_name_raises():
    model, _ = _two_branch()
    with pytest.raises(ValueError, match="No such layer: nope"):
        model.get_layer("nope")


def test_functional_get_layer_bad_index_raises():
    model, _ = _two_branch()
    with pytest.raises(ValueError, match="index 9 but model only has 5 layers"):
        model.get_layer(index=9)


def test_functional_get_layer_both_or_neither_raises():
    model, _ = _two_branch()
    with pytest.raises(ValueError, match="Provide only a layer name or a layer index"):
        model.get_layer("out", 0)
    with pytest.raises(ValueError, match="Provide either a layer name or layer index"):
        model.get_layer()


def test_functional_inputs_outputs_and_shapes():
    model, _ = _two_branch()
    assert model.input_names == ["a", "b"] and model.output_names == ["out"]
    assert model.input_shape == [(None, 4), (None, 4)] and model.output_shape == (None, 1)
    assert len(model.inputs) == 2 and len(model.outputs) == 1


def test_functional_weights_are_deduplicated_for_shared_layer():
    model, shared = _two_branch()
    assert len(model.weights) == 4
    assert model.count_params() == 4 * 3 + 3 + 6 + 1


def test_functional_training_flag_reaches_dropout():
    x = keras.Input((50,))
    model = keras.Model(x, layers.Dropout(0.5)(x))
    data = np.ones((20, 50), "float32")
    np.testing.assert_array_equal(model(data), data)
    assert set(np.unique(model(data, training=True))) == {0.0, 2.0}


def test_functional_in_graph_mode_matches_eager():
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(2, activation="tanh")(layers.Dense(4)(x)))
    fn = keras.function(lambda v: model(v))
    data = np.random.default_rng(0).normal(size=(2, 3)).astype("float32")
    fn(np.zeros((2, 3), "float32"))  # trace
    np.testing.assert_allclose(fn(data), model(data), rtol=1e-6)
    assert fn.trace_count == 1


def test_functional_repr():
    x = keras.Input((3,))
    assert repr(keras.Model(x, layers.Dense(1)(x))) == "<Functional name=functional, built=True>"


def test_functional_training_fixed_at_construction_is_kept():
    x = keras.Input((50,))
    model = keras.Model(x, layers.Dropout(0.5)(x, training=True))
    assert set(np.unique(model(np.ones((20, 50), "float32")))) == {0.0, 2.0}
