"""Layer: construction, naming, add_weight, building, the three call modes,
training resolution, weight lists and connectivity."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import backend, layers, ops
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.engine.base_layer import Layer
from kerasmini.ops.node import Node


class Scale(Layer):
    """One weight per input feature; counts its builds."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.build_calls = []

    def build(self, input_shape):
        self.build_calls.append(input_shape)
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return ops.multiply(x, self.w)


class TrainingProbe(Layer):
    """Records the ``training`` value each call receives."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen = []

    def call(self, x, training=None):
        self.seen.append(training)
        return x


class Block(Layer):
    """Two sub-layers held in attributes (a list and a dict)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.stack = [layers.Dense(3, name="first")]
        self.heads = {"out": layers.Dense(2, name="second")}

    def call(self, x):
        return self.heads["out"](self.stack[0](x))


# ----------------------------------------------------------------- __init__
def test_layer_init_input_shape_gives_batch_input_shape():
    assert Layer(input_shape=(3,))._batch_input_shape == (None, 3)


def test_layer_init_input_dim_gives_batch_input_shape():
    assert Layer(input_dim=4)._batch_input_shape == (None, 4)


def test_layer_init_batch_input_shape_kept_as_tuple():
    assert Layer(batch_input_shape=[8, 2])._batch_input_shape == (8, 2)


def test_layer_init_batch_size_with_input_shape():
    assert Layer(input_shape=(2,), batch_size=16)._batch_input_shape == (16, 2)


def test_layer_init_unknown_kwarg_raises_keras_message():
    with pytest.raises(ValueError,
                       match=r"Unrecognized keyword arguments passed to Dense: \{'foo': 1\}"):
        layers.Dense(2, foo=1)


def test_layer_init_non_string_name_raises():
    with pytest.raises(TypeError, match="Expected `name` argument to be a string"):
        Layer(name=3)


def test_layer_init_name_with_slash_raises():
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        Layer(name="a/b")


def test_layer_init_non_bool_trainable_raises():
    with pytest.raises(TypeError, match="`trainable` argument to be a boolean"):
        Layer(trainable="yes")


def test_layer_init_defaults():
    layer = Layer()
    assert (layer.trainable, layer.built, layer.dtype) == (True, False, "float32")
    assert layer.weights == [] and layer.input_spec is None


def test_layer_forgot_super_init_raises_on_setattr():
    class Bad(Layer):
        def __init__(self):
            self.units = 3

    with pytest.raises(RuntimeError, match=r"you forgot to call `super\(\).__init__\(\)`"):
        Bad()


def test_layer_forgot_super_init_raises_on_call():
    class Bad(Layer):
        def __init__(self):
            pass

    with pytest.raises(RuntimeError, match="In layer 'Bad', you forgot"):
        Bad()(np.ones((1, 2)))


# ------------------------------------------------------------------- names
def test_layer_auto_names_are_unique_per_prefix():
    names = [layers.Dense(1).name, layers.Dense(1).name, layers.Flatten().name,
             layers.Dense(1).name]
    assert names == ["dense", "dense_1", "flatten", "dense_2"]


def test_layer_auto_name_snake_cases_class_name():
    class MyFancyLayer(Layer):
        pass

    assert MyFancyLayer().name == "my_fancy_layer"


def test_layer_clear_session_resets_auto_names():
    layers.Dense(1)
    backend.clear_session()
    assert layers.Dense(1).name == "dense"


def test_layer_explicit_name_kept():
    assert layers.Dense(1, name="out").name == "out"


# -------------------------------------------------------------- add_weight
def test_add_weight_path_is_layer_name_slash_weight_name():
    layer = Scale()
    layer(np.ones((1, 3)))
    assert layer.w.path == "scale/w"


def test_add_weight_unnamed_weight_is_called_variable():
    class Anon(Layer):
        def build(self, input_shape):
            self.v = self.add_weight(shape=(2,))

    layer = Anon()
    layer.build((None, 2))
    assert layer.v.path == "anon/variable"


def test_add_weight_float_default_initializer_is_glorot_uniform():
    layer = Layer(name="l")
    w = layer.add_weight(shape=(100, 50), name="k")
    limit = np.sqrt(6 / 150)
    values = w.numpy()
    assert np.abs(values).max() <= limit
    assert values.std() > limit / 3  # not zeros: spread over the interval


def test_add_weight_int_default_initializer_is_zeros():
    w = Layer().add_weight(shape=(4,), dtype="int32", name="count")
    assert w.dtype == "int32" and not w.numpy().any()


def test_add_weight_default_shape_is_scalar():
    assert Layer().add_weight(name="s").shape == ()


def test_add_weight_initializer_by_name_and_callable():
    layer = Layer()
    ones = layer.add_weight(shape=(2,), initializer="ones", name="a")
    full = layer.add_weight(shape=(2,), name="b",
                            initializer=lambda shape, dtype: np.full(shape, 7.0, dtype))
    np.testing.assert_array_equal(ones.numpy(), [1, 1])
    np.testing.assert_array_equal(full.numpy(), [7, 7])


def test_add_weight_trainable_and_non_trainable_lists():
    layer = Layer()
    t = layer.add_weight(shape=(1,), name="t")
    n = layer.add_weight(shape=(1,), name="n", trainable=False)
    assert layer.trainable_weights == [t]
    assert layer.non_trainable_weights == [n]
    assert layer.weights == [t, n]


def test_add_weight_regularizer_penalty_in_losses():
    layer = Layer()
    layer.add_weight(shape=(2,), initializer="ones", regularizer=keras.regularizers.L2(0.5),
                     name="w")
    assert [float(x) for x in layer.losses] == [1.0]


def test_add_weight_constraint_attached_to_variable():
    w = Layer().add_weight(shape=(2,), constraint="non_neg", name="w")
    assert type(w.constraint).__name__ == "NonNeg"


def test_add_weight_bad_shape_raises():
    with pytest.raises(ValueError, match="must be a tuple of integers"):
        Layer(name="l").add_weight(shape=("a", 2), name="w")


def test_add_weight_bad_initializer_raises():
    with pytest.raises(ValueError, match="Could not interpret initializer"):
        Layer().add_weight(shape=(2,), initializer="nope")


def test_add_weight_positional_name_then_shape():
    w = Layer(name="l").add_weight("kernel", (2, 3))
    assert (w.path, w.shape) == ("l/kernel", (2, 3))


# ------------------------------------------------------------ _maybe_build
def test_maybe_build_calls_build_once_with_tuple_shape():
    layer = Scale()
    layer(np.ones((2, 3)))
    layer(np.ones((5, 3)))
    assert layer.build_calls == [(2, 3)]
    assert isinstance(layer.build_calls[0], tuple)


def test_maybe_build_sets_built():
    layer = Scale()
    assert not layer.built
    layer(np.ones((2, 3)))
    assert layer.built


def test_maybe_build_symbolic_shape_has_none_batch():
    layer = Scale()
    layer(keras.Input((4,)))
    assert layer.build_calls == [(None, 4)]


def test_build_called_directly_marks_built_and_uses_name_scope():
    layer = Scale(name="direct")
    layer.build((None, 2))
    assert layer.built and layer.w.path == "direct/w"


def test_maybe_build_checks_input_spec_before_build():
    layer = layers.Dense(2)
    layer.input_spec = keras.InputSpec(ndim=3)
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        layer(np.ones((1, 2)))
    assert not layer.built


def test_layer_initial_weights_applied_on_build():
    layer = layers.Dense(1, weights=[np.full((2, 1), 2.0), np.ones(1)])
    np.testing.assert_allclose(layer(np.ones((1, 2))), [[5.0]])


# ------------------------------------------------------------- call modes
def test_call_eager_arrays_in_arrays_out():
    out = Scale()(np.arange(6.0).reshape(2, 3))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.arange(6.0).reshape(2, 3))


def test_call_eager_casts_float64_inputs_to_the_layer_dtype():
    assert Scale()(np.ones((1, 2), "float64")).dtype == np.float32


@pytest.mark.parametrize("value", [[[1.0, 2.0]], [1.0, 2.0], 3.0, ((1, 2),)])
def test_call_refuses_python_numbers_as_keras_3_does(value):
    # Keras 3.15.1: ValueError "Only input tensors may be passed as positional
    # arguments. ... 1.0 (of type <class 'float'>)" for each of these.
    with pytest.raises(ValueError, match="Only input tensors may be passed"):
        Scale()(value)


def test_call_symbolic_returns_keras_tensor_and_node():
    layer = layers.Dense(3)
    x = keras.Input((4,))
    y = layer(x)
    assert isinstance(y, KerasTensor) and y.shape == (None, 3)
    assert len(layer._inbound_nodes) == 1 and isinstance(layer._inbound_nodes[0], Node)
    assert y._keras_history == (layer, 0, 0)


def test_call_symbolic_does_not_run_call_on_keras_tensors():
    class Strict(Layer):
        def call(self, x):
            assert isinstance(x, np.ndarray)  # only dry runs on zeros arrive here
            return x

    assert Strict()(keras.Input((2,))).shape == (None, 2)


def test_call_graph_mode_not_eager_while_tracing():
    seen = []

    class Probe(Layer):
        def call(self, x):
            seen.append(backend.executing_eagerly())
            return ops.multiply(x, 2.0)

    layer = Probe()
    fn = keras.function(lambda x: layer(x))
    fn(np.ones((2, 2), "float32"))
    fn(np.ones((2, 2), "float32"))
    assert seen == [False]  # traced once, replayed after
    assert fn.trace_count == 1


def test_call_graph_replay_matches_eager():
    layer = layers.Dense(3, activation="relu")
    x1 = np.random.default_rng(1).normal(size=(4, 5)).astype("float32")
    x2 = np.random.default_rng(2).normal(size=(4, 5)).astype("float32")
    fn = keras.function(lambda x: layer(x))
    fn(x1)
    np.testing.assert_allclose(fn(x2), layer(x2), rtol=1e-6)


def test_call_graph_replay_sees_updated_weights():
    layer = layers.Dense(1, kernel_initializer="ones")
    fn = keras.function(lambda x: layer(x))
    x = np.ones((1, 2), "float32")
    fn(x)
    layer.kernel.assign(np.full((2, 1), 3.0))
    np.testing.assert_allclose(fn(x), [[6.0]])


def test_call_graph_mode_training_flag_reaches_dropout():
    drop = layers.Dropout(0.5)
    fn = keras.function(lambda x: drop(x, training=True))
    out = fn(np.ones((100, 100), "float32"))
    assert set(np.unique(out)) == {0.0, 2.0}


def test_call_returning_none_raises():
    class Nothing(Layer):
        def call(self, x):
            return None

    with pytest.raises(ValueError, match="should return a Tensor"):
        Nothing()(np.ones(2))


def test_call_without_inputs_raises():
    with pytest.raises(ValueError, match="first argument to `Layer.call` must always be passed"):
        layers.Dense(2)()


def test_call_inputs_by_keyword():
    out = layers.Dense(2, kernel_initializer="ones")(inputs=np.ones((1, 3)))
    np.testing.assert_allclose(out, [[3.0, 3.0]])


def test_call_non_tensor_positional_arg_raises():
    class Two(Layer):
        def call(self, x, flag=False):
            return x

    with pytest.raises(ValueError, match="should be passed as a keyword argument"):
        Two()(np.ones(2), "yes")


@pytest.mark.parametrize("bad", ["abc", None, {"a"}, np.array(["a", "b"]),
                                 np.array([object(), object()])])
def test_call_non_numeric_input_raises_naming_layer(bad):
    with pytest.raises(ValueError, match="Inputs to a layer should be tensors.*'dense'"):
        layers.Dense(2)(bad)


# --------------------------------------------------------------- training
def test_training_default_from_signature():
    probe = TrainingProbe()
    probe(np.ones(1))
    assert probe.seen == [None]


def test_training_explicit_argument_wins():
    probe = TrainingProbe()
    probe(np.ones(1), training=True)
    assert probe.seen == [True]


def test_training_inherited_from_outer_call():
    class Outer(Layer):
        def __init__(self):
            super().__init__()
            self.probe = TrainingProbe()

        def call(self, x, training=None):
            return self.probe(x)

    outer = Outer()
    outer.build((1,))  # the default build dry-runs `call` once
    outer.probe.seen.clear()
    outer(np.ones(1), training=True)
    outer(np.ones(1), training=False)
    outer(np.ones(1))
    assert outer.probe.seen == [True, False, None]


def test_training_explicit_inner_overrides_outer():
    class Outer(Layer):
        def __init__(self):
            super().__init__()
            self.probe = TrainingProbe()

        def call(self, x, training=None):
            return self.probe(x, training=False)

    outer = Outer()
    outer.build((1,))
    outer.probe.seen.clear()
    outer(np.ones(1), training=True)
    assert outer.probe.seen == [False]


def test_training_signature_default_used_when_unset():
    class DefaultsTrue(Layer):
        def call(self, x, training=True):
            self.got = training
            return x

    layer = DefaultsTrue()
    layer(np.ones(1))
    assert layer.got is True


def test_training_not_passed_to_call_without_the_argument():
    class NoTraining(Layer):
        def call(self, x):
            return x

    np.testing.assert_array_equal(NoTraining()(np.ones(2), training=True), np.ones(2))


# ---------------------------------------------------------------- weights
def test_weights_own_first_then_sublayers():
    class WithOwn(Block):
        def build(self, input_shape):
            self.scale = self.add_weight(shape=(), name="scale")
            super().build(input_shape)

    layer = WithOwn(name="block")
    layer(np.ones((1, 4)))
    assert [w.path for w in layer.weights] == [
        "block/scale", "block/first/kernel", "block/first/bias",
        "block/second/kernel", "block/second/bias"]


def test_sublayers_tracked_through_list_and_dict_attributes():
    block = Block()
    assert [layer.name for layer in block._layers] == ["first", "second"]


def test_default_build_builds_sublayers_by_dry_run():
    block = Block()
    block.build((None, 4))
    assert block.built and block.stack[0].built and block.heads["out"].built
    assert block.count_params() == 4 * 3 + 3 + 3 * 2 + 2


def test_frozen_layer_moves_all_weights_to_non_trainable():
    block = Block()
    block(np.ones((1, 4)))
    block.trainable = False
    assert block.trainable_weights == []
    assert len(block.non_trainable_weights) == 4
    assert len(block.weights) == 4


def test_trainable_setter_recurses_to_sublayers_and_variables():
    block = Block()
    block(np.ones((1, 4)))
    block.trainable = False
    assert not block.stack[0].trainable
    assert not any(v.trainable for v in block.weights)
    block.trainable = True
    assert all(v.trainable for v in block.weights)


def test_frozen_sublayer_weights_are_non_trainable_on_parent():
    block = Block()
    block(np.ones((1, 4)))
    block.stack[0].trainable = False
    assert [w.path for w in block.trainable_weights] == ["block/second/kernel",
                                                         "block/second/bias"]
    assert [w.path for w in block.non_trainable_weights] == ["block/first/kernel",
                                                             "block/first/bias"]


def test_weight_created_while_frozen_is_non_trainable():
    layer = layers.Dense(2, trainable=False)
    layer.build((None, 3))
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2


def test_variables_aliases_weights():
    layer = layers.Dense(2)
    layer.build((None, 3))
    assert list(layer.variables) == layer.weights
    assert list(layer.trainable_variables) == layer.trainable_weights


def test_get_weights_returns_arrays_in_weight_order():
    layer = layers.Dense(2, bias_initializer="ones")
    layer.build((None, 3))
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 2)
    np.testing.assert_array_equal(bias, [1, 1])


def test_set_weights_roundtrip():
    layer = layers.Dense(2)
    layer.build((None, 3))
    layer.set_weights([np.ones((3, 2)), np.full(2, 5.0)])
    np.testing.assert_allclose(layer(np.ones((1, 3))), [[8.0, 8.0]])


def test_set_weights_wrong_count_raises():
    layer = layers.Dense(2, name="d")
    layer.build((None, 3))
    with pytest.raises(ValueError, match="weight list of length 1, but the layer was "
                                         "expecting 2 weights"):
        layer.set_weights([np.ones((3, 2))])


def test_set_weights_wrong_shape_raises_and_changes_nothing():
    layer = layers.Dense(2, name="d", kernel_initializer="zeros")
    layer.build((None, 3))
    with pytest.raises(ValueError, match=r"weight shape \(2,\) is not compatible with "
                                         r"provided weight shape \(3,\)"):
        layer.set_weights([np.ones((3, 2)), np.ones(3)])
    assert not layer.kernel.numpy().any()


def test_set_weights_not_a_list_raises_type_error():
    layer = layers.Dense(2, name="d")
    layer.build((None, 3))
    with pytest.raises(TypeError, match="expects a list of arrays. Received: weights=None"):
        layer.set_weights(None)


def test_count_params_dense():
    layer = layers.Dense(10)
    layer.build((None, 10))
    assert layer.count_params() == 110


def test_count_params_unbuilt_raises():
    with pytest.raises(ValueError, match="isn't built"):
        layers.Dense(2).count_params()


# ------------------------------------------------------ shapes and nodes
def test_compute_output_shape_default_by_dry_run():
    class Double(Layer):
        def call(self, x):
            return ops.concatenate([x, x], axis=-1)

    assert Double().compute_output_shape((None, 3)) == (None, 6)


def test_compute_output_shape_default_keeps_unknown_batch():
    assert Layer().compute_output_shape((None, 2, 5)) == (None, 2, 5)


def test_compute_output_shape_of_list_input():
    class Pair(Layer):
        def call(self, xs):
            return ops.add(xs[0], xs[1])

    assert Pair().compute_output_shape([(None, 3), (None, 3)]) == (None, 3)


def test_input_and_output_of_called_layer():
    x = keras.Input((4,), name="x")
    layer = layers.Dense(3)
    y = layer(x)
    assert layer.input is x and layer.output is y
    assert layer.input_shape == (None, 4) and layer.output_shape == (None, 3)


def test_input_of_never_called_layer_raises_attribute_error():
    with pytest.raises(AttributeError, match="has never been called"):
        _ = layers.Dense(2).input


def test_get_output_at_out_of_range_raises():
    layer = layers.Dense(2)
    layer(keras.Input((3,)))
    with pytest.raises(ValueError, match="has only 1 inbound nodes"):
        layer.get_output_at(1)


def test_layer_repr_shows_name_and_built():
    layer = layers.Dense(2)
    assert repr(layer) == "<Dense name=dense, built=False>"
    layer.build((None, 1))
    assert repr(layer) == "<Dense name=dense, built=True>"


def test_weights_order_is_kept_when_a_sublayer_is_frozen():
    # Keras 3: freezing moves variables between the trainable and
    # non-trainable lists but `weights` keeps its order (own, then sub-layers).
    model = keras.Sequential([keras.Input((12,)), keras.layers.Dense(16),
                              keras.layers.Dense(8), keras.layers.Dense(3)])
    before = [w.path for w in model.weights]
    model.layers[1].trainable = False
    assert [w.path for w in model.weights] == before
    assert [w.path for w in model.non_trainable_weights] == [
        "sequential/dense_1/kernel", "sequential/dense_1/bias"]
    assert len(model.trainable_weights) == 4


def test_weights_are_per_layer_own_first_like_keras3():
    bn = keras.layers.BatchNormalization()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4), bn,
                              keras.layers.Dense(2)])
    names = [w.path.split("/", 1)[1] for w in model.weights]
    assert names == ["dense/kernel", "dense/bias", "batch_normalization/gamma",
                     "batch_normalization/beta", "batch_normalization/moving_mean",
                     "batch_normalization/moving_variance", "dense_1/kernel",
                     "dense_1/bias"]


# Keras 3.15.1 builds the layers that have nothing to build at the end of
# their `__init__` (`Layer._build_at_init`, or `built = True` for Reshape):
# read from real Keras, layer by layer, with default arguments.
KERAS_BUILT_AT_INIT = {
    "Activation": True, "Dropout": True, "Masking": True, "Reshape": True,
    "MaxPooling1D": True, "MaxPooling2D": True, "AveragePooling1D": True,
    "GlobalMaxPooling1D": True, "GlobalMaxPooling2D": True,
    "GlobalAveragePooling1D": True, "GlobalAveragePooling2D": True,
    "Dense": False, "Conv2D": False, "Flatten": False, "Embedding": False,
    "BatchNormalization": False, "LayerNormalization": False, "Add": False,
    "Concatenate": False, "Permute": False, "RepeatVector": False,
    "UpSampling2D": False, "ZeroPadding2D": False, "LSTM": False,
}
_ARGS = {"Activation": ("relu",), "Dropout": (0.5,), "Reshape": ((2,),),
         "AveragePooling1D": (2,),
         "Dense": (2,), "Conv2D": (2, 3), "Embedding": (3, 2),
         "Permute": ((1,),), "RepeatVector": (2,), "LSTM": (2,)}


@pytest.mark.parametrize("name", sorted(KERAS_BUILT_AT_INIT))
def test_layers_with_nothing_to_build_are_built_at_init_as_in_keras(name):
    layer = getattr(layers, name)(*_ARGS.get(name, ()))
    assert layer.built is KERAS_BUILT_AT_INIT[name]


def test_layer_built_at_init_writes_no_build_config():
    model = keras.Sequential([keras.Input((6, 6, 1)), layers.Conv2D(2, 3),
                              layers.MaxPooling2D(2), layers.Flatten(),
                              layers.Dropout(0.5), layers.Dense(1)])
    configs = {layer["class_name"]: layer
               for layer in model.get_config()["layers"]}
    # as in the config.json Keras 3.15.1 writes for the same model
    assert "build_config" in configs["Conv2D"] and "build_config" in configs["Flatten"]
    assert "build_config" not in configs["MaxPooling2D"]
    assert "build_config" not in configs["Dropout"]


def test_build_at_init_leaves_a_layer_with_its_own_build_unbuilt():
    class Custom(layers.Dropout):
        def build(self, input_shape):
            self.seen = input_shape

    layer = Custom(0.5)
    assert not layer.built
    layer(np.ones((2, 3), dtype="float32"))
    assert layer.seen == (2, 3)
