"""Fuzzing bad input: whatever a user passes, no NumPy error reaches them.

Hypothesis draws bad values (wrong shapes and ranks, strings, objects,
``None``, NaN, negative, fractional and huge sizes, ragged lists, empty
arrays) for constructor arguments (of layers, ``Input``, optimizers, losses
and callbacks), layer inputs, the arguments of ``compile`` and the arguments
and data of ``fit``/``evaluate``/``predict``, ``set_weights`` and labels. Each call may
succeed, or raise a ``ValueError``/``TypeError`` from a ``raise`` statement
of kerasmini; anything else fails the test: an exception raised inside NumPy
or by a bare Python conversion in kerasmini, an ``IndexError``,
``AttributeError``, ``KeyError``... The runs are derandomized, so CI sees
the same examples every time.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_errors import assert_raised_by_kerasmini

import kerasmini as keras
from kerasmini import backend, layers
from kerasmini.saving.weight_budget import weight_budget

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
# the tests parametrized over many (class, argument) pairs, or over the ~100
# public ops, draw fewer examples each (the op fuzzer was also run once with
# 120 draws per op; what it found is fixed and has rows in test_ops_errors.py)
FUZZ_EACH = settings(FUZZ, max_examples=25)


def no_raw_errors(run):
    """Run ``run()``: success or a clean kerasmini ValueError/TypeError.

    Weights are capped at 64 MB (the cap ``load_model`` uses against hostile
    files), so ``Dense(10**9)`` is refused instead of filling the memory.
    """
    with warnings.catch_warnings(), weight_budget(1 << 26):
        warnings.simplefilter("ignore")  # overflow on huge values is fine
        try:
            run()
        except Exception:  # noqa: BLE001 (every exception is checked below)
            excinfo = pytest.ExceptionInfo.from_current()
        else:
            return
    assert isinstance(excinfo.value, (ValueError, TypeError)), (
        f"{excinfo.typename}: {excinfo.value}")
    assert_raised_by_kerasmini(excinfo)


# ------------------------------------------------------------ strategies
scalars = st.one_of(
    st.none(), st.booleans(), st.text(max_size=3),
    st.integers(-(2 ** 40), 2 ** 40), st.integers(-3, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.just(object()), st.just(()), st.just([]), st.just({}),
)
small_tuples = st.lists(st.one_of(st.integers(-2, 4), st.none(), st.floats(-2, 4),
                                  st.text(max_size=1)),
                        max_size=3).map(tuple)
bad_args = st.one_of(scalars, small_tuples)

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)
dtypes = st.sampled_from(["float32", "float64", "int64", "int8", "bool", "U1",
                          "object", "complex64"])


@st.composite
def arrays(draw):
    shape = draw(shapes)
    dtype = draw(dtypes)
    size = int(np.prod(shape))
    values = draw(st.lists(st.one_of(st.integers(-3, 12), st.floats(-3, 12),
                                     st.just(float("nan"))),
                           min_size=size, max_size=size))
    array = np.array(values, dtype="float64").reshape(shape)
    if dtype in ("U1", "object"):
        return array.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return array.astype(dtype)


ragged = st.lists(st.lists(st.floats(-1, 1), max_size=3), min_size=2,
                  max_size=3).filter(lambda rows: len({len(r) for r in rows}) > 1)
data = st.one_of(arrays(), ragged, scalars,
                 st.lists(st.lists(st.floats(-1, 1), min_size=4, max_size=4),
                          min_size=1, max_size=3))


# ------------------------------------------------------- constructor args
CONSTRUCTORS = [
    (layers.Dense, {"units": 2}, ["units", "activation", "use_bias"],
     (2, 3)),
    (layers.Dropout, {"rate": 0.5}, ["rate", "noise_shape"], (2, 3)),
    (layers.Conv2D, {"filters": 2, "kernel_size": 2},
     ["filters", "kernel_size", "strides", "padding", "dilation_rate"], (1, 5, 5, 1)),
    (layers.MaxPooling2D, {}, ["pool_size", "strides", "padding"], (1, 4, 4, 1)),
    (layers.AveragePooling2D, {}, ["pool_size", "strides", "padding"], (1, 4, 4, 1)),
    (layers.Embedding, {"input_dim": 10, "output_dim": 2},
     ["input_dim", "output_dim"], (2, 3)),
    (layers.BatchNormalization, {}, ["axis", "momentum", "epsilon"], (2, 3)),
    (layers.Reshape, {"target_shape": (3,)}, ["target_shape"], (2, 3)),
    (layers.Flatten, {}, ["data_format"], (2, 3)),
    (layers.Concatenate, {}, ["axis"], None),
    (layers.Activation, {"activation": "relu"}, ["activation"], (2, 3)),
]
CONSTRUCTOR_ARGS = [(cls, base, arg, shape) for cls, base, args, shape in CONSTRUCTORS
                    for arg in args]


@pytest.mark.parametrize("cls, base, arg, shape", CONSTRUCTOR_ARGS,
                         ids=[f"{c.__name__}-{a}" for c, _, a, _ in CONSTRUCTOR_ARGS])
@FUZZ_EACH
@given(value=bad_args)
def test_constructor_arguments(cls, base, arg, shape, value):
    def run():
        layer = cls(**{**base, arg: value})
        if shape is None:  # a merge layer takes a list
            layer([np.ones((2, 3), "float32"), np.ones((2, 3), "float32")])
        else:
            layer(np.ones(shape, "float32"), training=True)

    backend.clear_session()
    no_raw_errors(run)


def test_input_arguments():
    @FUZZ
    @given(shape=bad_args, batch_size=bad_args)
    def check(shape, batch_size):
        no_raw_errors(lambda: keras.Input(shape=shape, batch_size=batch_size))

    check()


# ------------------------------------------------------------ call inputs
def call_layers():
    conv = layers.Conv2D(2, 2)
    return [layers.Dense(2), layers.Embedding(10, 2), layers.BatchNormalization(),
            layers.Flatten(), layers.Reshape((-1,)), layers.Dropout(0.5), conv,
            layers.MaxPooling2D(), layers.GlobalAveragePooling2D(),
            layers.Activation("softmax")]


@FUZZ
@given(x=data, index=st.integers(0, 9), training=st.booleans())
def test_layer_call_inputs(x, index, training):
    layer = call_layers()[index]
    no_raw_errors(lambda: layer(x, training=training))


@FUZZ
@given(x=data, y=data)
def test_merge_layer_inputs(x, y):
    no_raw_errors(lambda: layers.Add()([x, y]))
    no_raw_errors(lambda: layers.Concatenate()([x, y]))


# ---------------------------------------------- fit / evaluate / predict
def classifier(loss):
    inputs = keras.Input(shape=(4,))
    model = keras.Model(inputs, layers.Dense(3, activation="softmax")(inputs))
    model.compile("sgd", loss)
    return model


GOOD_X = np.random.default_rng(0).random((6, 4)).astype("float32")
GOOD_Y = np.array([0, 1, 2, 0, 1, 2])


@FUZZ
@given(x=data, y=data, loss=st.sampled_from(["sparse_categorical_crossentropy",
                                             "categorical_crossentropy", "mse"]))
def test_fit_evaluate_predict_data(x, y, loss):
    model = classifier(loss)
    no_raw_errors(lambda: model.fit(x, y, verbose=0))
    no_raw_errors(lambda: model.evaluate(x, y, verbose=0))
    no_raw_errors(lambda: model.predict(x, verbose=0))
    no_raw_errors(lambda: model.train_on_batch(x, y))


ARGUMENTS = ["batch_size", "epochs", "validation_split", "shuffle", "verbose",
             "sample_weight", "class_weight", "validation_data", "initial_epoch",
             "steps_per_epoch", "validation_freq", "callbacks"]


@FUZZ
@given(arg=st.sampled_from(ARGUMENTS), value=st.one_of(bad_args, data))
def test_fit_arguments(arg, value):
    # a valid but large number of epochs is only slow
    assume(not (arg == "epochs" and isinstance(value, int) and value > 3))
    model = classifier("sparse_categorical_crossentropy")
    extra = {"verbose": 0} if arg != "verbose" else {}
    if arg == "validation_freq":
        extra["validation_data"] = (GOOD_X, GOOD_Y)
    no_raw_errors(lambda: model.fit(GOOD_X, GOOD_Y, **{arg: value}, **extra))


@FUZZ
@given(arg=st.sampled_from(["batch_size", "steps", "verbose"]), value=bad_args)
def test_evaluate_and_predict_arguments(arg, value):
    model = classifier("sparse_categorical_crossentropy")
    extra = {"verbose": 0} if arg != "verbose" else {}
    no_raw_errors(lambda: model.evaluate(GOOD_X, GOOD_Y, **{arg: value}, **extra))
    no_raw_errors(lambda: model.predict(GOOD_X, **{arg: value}, **extra))


# ------------------------------------------------------- labels, weights
labels = st.lists(st.one_of(st.integers(-5, 8), st.integers(-(2 ** 40), 2 ** 40),
                            st.floats(allow_nan=True, allow_infinity=True),
                            st.text(max_size=1)),
                  min_size=6, max_size=6)


@FUZZ
@given(y=labels, batch_size=st.integers(1, 6))
def test_sparse_labels(y, batch_size):
    model = classifier("sparse_categorical_crossentropy")
    no_raw_errors(lambda: model.fit(GOOD_X, y, batch_size=batch_size, verbose=0))


@FUZZ
@given(indices=arrays())
def test_embedding_indices(indices):
    no_raw_errors(lambda: layers.Embedding(10, 2)(indices))


@FUZZ
@given(weights=st.one_of(bad_args, st.lists(st.one_of(data, scalars), max_size=3)))
def test_set_weights(weights):
    layer = layers.Dense(2)
    layer.build((None, 3))
    no_raw_errors(lambda: layer.set_weights(weights))


# ------------------------------------- optimizers, losses, callbacks, compile
OPTIMIZER_ARGS = [
    (keras.optimizers.SGD, ["learning_rate", "momentum", "weight_decay", "clipnorm",
                            "clipvalue", "global_clipnorm"]),
    (keras.optimizers.Adam, ["beta_1", "beta_2", "epsilon"]),
    (keras.optimizers.RMSprop, ["rho", "momentum", "epsilon"]),
    (keras.optimizers.Adagrad, ["initial_accumulator_value", "epsilon"]),
]
OPTIMIZER_CASES = [(cls, arg) for cls, args in OPTIMIZER_ARGS for arg in args]


@pytest.mark.parametrize("cls, arg", OPTIMIZER_CASES,
                         ids=[f"{c.__name__}-{a}" for c, a in OPTIMIZER_CASES])
@FUZZ_EACH
@given(value=bad_args)
def test_optimizer_arguments(cls, arg, value):
    def run():
        variable = backend.Variable(np.ones((2, 3), "float32"))
        cls(**{arg: value}).apply([np.ones((2, 3), "float32")], [variable])

    no_raw_errors(run)


LOSSES = [
    (keras.losses.SparseCategoricalCrossentropy, ["from_logits", "axis"], "sparse"),
    (keras.losses.CategoricalCrossentropy, ["label_smoothing", "axis"], "dense"),
    (keras.losses.BinaryCrossentropy, ["label_smoothing", "axis"], "dense"),
    (keras.losses.Huber, ["delta"], "dense"),
    (keras.losses.MeanSquaredError, ["reduction"], "dense"),
]
LOSS_CASES = [(cls, arg, kind) for cls, args, kind in LOSSES for arg in args]


@pytest.mark.parametrize("cls, arg, kind", LOSS_CASES,
                         ids=[f"{c.__name__}-{a}" for c, a, _ in LOSS_CASES])
@FUZZ_EACH
@given(value=bad_args)
def test_loss_arguments(cls, arg, kind, value):
    y_pred = np.full((4, 3), 1 / 3, "float32")
    y_true = np.array([0, 1, 2, 0]) if kind == "sparse" else np.eye(3)[[0, 1, 2, 0]]
    no_raw_errors(lambda: cls(**{arg: value})(y_true, y_pred))


CALLBACKS = [
    (keras.callbacks.EarlyStopping, ["monitor", "min_delta", "patience", "mode",
                                     "baseline", "start_from_epoch"]),
    (keras.callbacks.LearningRateScheduler, ["schedule"]),
    (keras.callbacks.LambdaCallback, ["on_epoch_end", "on_train_begin"]),
    (keras.callbacks.CSVLogger, ["filename"]),
    (keras.callbacks.ModelCheckpoint, ["filepath"]),
]
CALLBACK_CASES = [(cls, arg) for cls, args in CALLBACKS for arg in args]


@pytest.mark.parametrize("cls, arg", CALLBACK_CASES,
                         ids=[f"{c.__name__}-{a}" for c, a in CALLBACK_CASES])
@FUZZ_EACH
@given(value=bad_args)
def test_callback_arguments(cls, arg, value, tmp_path, monkeypatch):
    base = {"schedule": lambda epoch: 0.1} if arg != "schedule" and \
        cls is keras.callbacks.LearningRateScheduler else {}
    monkeypatch.chdir(tmp_path)  # CSVLogger and ModelCheckpoint write files
    model = classifier("sparse_categorical_crossentropy")

    def run():
        callback = cls(**{**base, arg: value})
        callback.set_model(model)
        callback.on_train_begin()
        for epoch in range(2):
            callback.on_epoch_begin(epoch)
            callback.on_epoch_end(epoch, {"val_loss": 0.5 - epoch, "loss": 1.0})
        callback.on_train_end()

    no_raw_errors(run)


@FUZZ
@given(arg=st.sampled_from(["optimizer", "loss", "metrics", "loss_weights",
                            "steps_per_execution"]),
       value=st.one_of(bad_args, st.lists(scalars, max_size=2)))
def test_compile_arguments(arg, value):
    model = classifier("sparse_categorical_crossentropy")

    def run():
        kwargs = {"optimizer": "sgd", "loss": "sparse_categorical_crossentropy",
                  arg: value}
        model.compile(**kwargs)
        model.train_on_batch(GOOD_X, GOOD_Y)

    no_raw_errors(run)


# ------------------------------------- recurrent layers, merges, keras.random
states = st.one_of(data, st.lists(st.one_of(arrays(), scalars), max_size=3))


@FUZZ
@given(initial_state=states, mask=st.one_of(st.none(), data),
       kind=st.sampled_from(["SimpleRNN", "LSTM", "GRU"]), symbolic=st.booleans())
def test_recurrent_initial_state_and_mask(initial_state, mask, kind, symbolic):
    layer = getattr(layers, kind)(3)
    if symbolic:  # the shapes of the drawn arrays, as keras.Input
        def symbolic_twin(x):
            if isinstance(x, np.ndarray) and x.ndim >= 1 and x.dtype.kind in "biuf":
                return keras.Input(batch_shape=(None,) + x.shape[1:],
                                   dtype="bool" if x.dtype == bool else "float32")
            return x
        initial_state = [symbolic_twin(x) for x in initial_state] if isinstance(
            initial_state, list) else symbolic_twin(initial_state)
        mask = symbolic_twin(mask)
        sequences = keras.Input((4, 2))
    else:
        sequences = np.ones((2, 4, 2), "float32")
    no_raw_errors(lambda: layer(sequences, initial_state=initial_state, mask=mask))


@FUZZ
@given(features=st.integers(1, 4), steps=st.integers(1, 4))
def test_recurrent_input_after_build(features, steps):
    layer = layers.LSTM(2)
    layer(np.ones((2, 3, 2), "float32"))
    no_raw_errors(lambda: layer(np.ones((2, steps, features), "float32")))


@FUZZ
@given(axes=st.one_of(bad_args, st.integers(-4, 4),
                      st.tuples(st.integers(-4, 4), st.integers(-4, 4))),
       x=st.one_of(data, st.just(np.ones((2, 3, 4)))), y=data)
def test_dot_axes_and_inputs(axes, x, y):
    no_raw_errors(lambda: layers.Dot(axes=axes)([x, y]))


@FUZZ
@given(batch_sizes=st.lists(st.integers(1, 3), min_size=2, max_size=3),
       kind=st.sampled_from(["Add", "Multiply", "Maximum", "Concatenate"]),
       twice=st.booleans())
def test_merge_batch_sizes(batch_sizes, kind, twice):
    layer = getattr(layers, kind)()
    if twice:  # built on good inputs first
        layer([np.ones((2, 3), "float32")] * len(batch_sizes))
    no_raw_errors(lambda: layer([np.ones((b, 3), "float32") for b in batch_sizes]))


RANDOM_DRAWS = ["normal", "uniform", "truncated_normal", "randint"]


@FUZZ
@given(fn=st.sampled_from(RANDOM_DRAWS), shape=bad_args,
       dtype=st.sampled_from([None, "float32", "float64", "int32", "int64", "bool"]))
def test_random_shapes_and_dtypes(fn, shape, dtype):
    kwargs = {"dtype": dtype} if dtype is not None else {}
    args = (0, 5) if fn == "randint" else ()
    no_raw_errors(lambda: getattr(keras.random, fn)(shape, *args, **kwargs, seed=1))


@FUZZ
@given(x=data, axis=st.one_of(bad_args, st.integers(-4, 4)), samples=bad_args)
def test_random_shuffle_and_categorical(x, axis, samples):
    no_raw_errors(lambda: keras.random.shuffle(x, axis=axis, seed=1))
    no_raw_errors(lambda: keras.random.categorical(x, samples, seed=1))


@FUZZ
@given(shape=bad_args)
def test_add_weight_shapes(shape):
    no_raw_errors(lambda: layers.Layer().add_weight(shape=shape))


# --------------------------------------------------------------- keras.ops
# Every public op with arguments drawn by kind: tensors of any shape and
# dtype (strings, objects and complex numbers too), axes, shapes, counts,
# dtypes... Each op is called on the arrays and, when every drawn tensor
# holds numbers, on KerasTensors of the same shapes. Both calls must succeed
# or raise a ValueError/TypeError from kerasmini's own checks (not the
# "arguments do not fit together" of an error no check explained); when both
# succeed, the symbolic shape and dtype must be the eager result's, and when
# both fail, the message must be the same.
small_ints = st.integers(-3, 5)
axes = st.one_of(st.none(), small_ints, st.tuples(small_ints, small_ints),
                 st.floats(-2, 3), st.text(max_size=1), st.just([0]))
counts = st.one_of(small_ints, st.floats(-1, 3), st.none(), st.text(max_size=1),
                   st.lists(small_ints, max_size=3))
shape_args = st.one_of(small_tuples, small_ints,
                       st.lists(st.integers(-1, 4), max_size=3).map(tuple))
op_dtypes = st.sampled_from([None, "float32", "int32", "bool", "nope", 3])
numbers = st.one_of(st.floats(-3, 3), small_ints, st.text(max_size=1), st.none())
tensors = st.one_of(arrays(), st.just(np.ones((2, 3), "float32")),
                    st.just(np.ones((2, 4, 4, 3), "float32")))
tensor_lists = st.lists(tensors, max_size=3)
# (batch, seq, heads, depth) tensors that often, not always, fit together
attention_tensors = st.one_of(tensors, st.tuples(
    st.sampled_from([1, 2]), st.sampled_from([0, 3, 4]), st.sampled_from([1, 2]),
    st.sampled_from([2, 4]), st.sampled_from(["float32", "float64", "int32"])).map(
        lambda s: np.ones(s[:4], s[4])))
attention_masks = st.tuples(st.sampled_from([1, 2]), st.sampled_from([1, 3, 4]),
                            st.sampled_from([1, 3, 4]),
                            st.sampled_from(["bool", "float32"])).map(
    lambda s: np.ones(s[:3], s[3]))
keys = st.one_of(small_ints, st.tuples(small_ints, small_ints), st.just(Ellipsis),
                 st.tuples(st.just(slice(None)), small_ints), st.just((None, 0)),
                 st.floats(0, 2), st.text(max_size=1))

OP_ARGUMENTS = {  # op: how to draw its arguments (positional, then keywords)
    **{name: ((tensors,), {}) for name in [
        "abs", "negative", "exp", "expm1", "log", "log1p", "sqrt", "square", "tanh",
        "sin", "cos", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
        "sign", "floor", "ceil", "round", "isnan", "logical_not", "relu", "sigmoid",
        "softplus", "silu", "erf", "ravel", "stop_gradient"]},
    **{name: ((tensors, st.one_of(tensors, numbers)), {}) for name in [
        "add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
        "equal", "not_equal", "greater", "less", "logical_and", "matmul", "dot"]},
    **{name: ((tensors,), {"axis": axes, "keepdims": st.booleans()})
       for name in ["sum", "mean", "max", "min", "var", "std", "argmax", "argmin"]},
    "cumsum": ((tensors,), {"axis": axes, "dtype": op_dtypes}),
    "softmax": ((tensors,), {"axis": axes}),
    "log_softmax": ((tensors,), {"axis": axes}),
    "flip": ((tensors,), {"axis": axes}),
    "squeeze": ((tensors,), {"axis": axes}),
    "expand_dims": ((tensors, axes), {}),
    "swapaxes": ((tensors, axes, axes), {}),
    "transpose": ((tensors,), {"axes": st.one_of(st.none(), small_tuples)}),
    "reshape": ((tensors, shape_args), {}),
    "broadcast_to": ((tensors, shape_args), {}),
    "tile": ((tensors, st.one_of(shape_args, counts)), {}),
    "repeat": ((tensors, counts), {"axis": axes}),
    "roll": ((tensors, counts), {"axis": axes}),
    "split": ((tensors, counts), {"axis": axes}),
    "unstack": ((tensors,), {"num": counts, "axis": axes}),
    "concatenate": ((tensor_lists,), {"axis": axes}),
    "stack": ((tensor_lists,), {"axis": axes}),
    "meshgrid": ((tensors, tensors), {"indexing": st.sampled_from(["xy", "ij", "x"])}),
    "take": ((tensors, st.one_of(tensors, small_ints)), {"axis": axes}),
    "pad": ((tensors, st.one_of(shape_args, st.just(((1, 1), (0, 2))))),
            {"mode": st.sampled_from(["constant", "reflect", "wrap", "edge", "x"])}),
    "get_item": ((tensors, keys), {}),
    "where": ((tensors, tensors, st.one_of(tensors, numbers)), {}),
    "clip": ((tensors, numbers, st.one_of(tensors, numbers)), {}),
    "tensordot": ((tensors, tensors), {"axes": st.one_of(
        small_ints, st.tuples(st.lists(small_ints, max_size=2),
                              st.lists(small_ints, max_size=2)), st.floats(0, 2))}),
    "einsum": ((st.sampled_from(["ij,jk->ik", "ij->", "i,i", "ijk,k->ij", "ii", "a"]),
                tensors, tensors), {}),
    "cast": ((tensors, op_dtypes), {}),
    "zeros_like": ((tensors,), {"dtype": op_dtypes}),
    "ones_like": ((tensors,), {"dtype": op_dtypes}),
    "slice": ((tensors, st.one_of(small_tuples, st.lists(small_ints, max_size=3)),
               shape_args), {}),
    "top_k": ((tensors, counts), {}),
    "fft2": ((st.tuples(tensors, tensors),), {}),
    "gelu": ((tensors,), {"approximate": st.one_of(st.booleans(), numbers)}),
    "leaky_relu": ((tensors,), {"negative_slope": numbers}),
    "elu": ((tensors,), {"alpha": numbers}),
    "one_hot": ((tensors, counts), {"axis": axes, "dtype": op_dtypes}),
    "moments": ((tensors, axes), {}),
    "dot_product_attention": ((attention_tensors, attention_tensors,
                               attention_tensors), {
        "bias": st.one_of(st.none(), tensors, attention_masks),
        "mask": st.one_of(st.none(), tensors, attention_masks),
        "scale": st.one_of(st.none(), numbers), "is_causal": st.one_of(
            st.booleans(), numbers), "flash_attention": st.one_of(st.none(), numbers),
        "attn_logits_soft_cap": st.sampled_from([None, 30.0])}),
    "categorical_crossentropy": ((tensors, tensors), {"axis": axes}),
    "sparse_categorical_crossentropy": ((tensors, tensors), {"axis": axes}),
    "binary_crossentropy": ((tensors, tensors), {}),
    "conv": ((tensors, tensors), {"strides": counts, "padding": st.sampled_from(
        ["valid", "same", "x"])}),
    "conv_transpose": ((tensors, tensors), {"strides": counts}),
    "depthwise_conv": ((tensors, tensors), {"strides": counts, "padding":
                                            st.sampled_from(["valid", "same"])}),
    "separable_conv": ((tensors, tensors, tensors), {"strides": counts}),
    "max_pool": ((tensors, counts), {"padding": st.sampled_from(["valid", "same"])}),
    "average_pool": ((tensors, counts), {"strides": counts}),
    "image.resize": ((tensors, st.one_of(shape_args, st.just((3, 2)))), {
        "interpolation": st.sampled_from(["bilinear", "nearest", "bicubic",
                                          "lanczos3", "area", "x"]),
        "antialias": st.booleans(), "crop_to_aspect_ratio": st.booleans()}),
    "image.extract_patches": ((tensors, counts), {"strides": st.one_of(st.none(),
                                                                        counts)}),
    "zeros": ((shape_args,), {"dtype": op_dtypes}),
    "ones": ((shape_args,), {"dtype": op_dtypes}),
    "full": ((shape_args, numbers), {"dtype": op_dtypes}),
    "arange": ((numbers, numbers, numbers), {"dtype": op_dtypes}),
    "eye": ((counts,), {"M": counts, "k": counts, "dtype": op_dtypes}),
    "linspace": ((numbers, numbers, counts), {"dtype": op_dtypes}),
}


def _op_function(name):
    fn = keras.ops
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _symbolic_twin(value):
    """A KerasTensor like a numeric array (lists and tuples followed), or
    ``None`` if some tensor holds no numbers (no KerasTensor can)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            return None
        return keras.KerasTensor(value.shape, value.dtype.name)
    if isinstance(value, (list, tuple)) and any(isinstance(v, np.ndarray)
                                                for v in value):
        twins = [_symbolic_twin(v) for v in value]
        return None if any(t is None for t in twins) else type(value)(twins)
    return value


def _outcome(run):
    """``("ok", result)`` or ``("error", exception)``, checking the error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", run()
        except Exception:  # noqa: BLE001 (every exception is checked below)
            excinfo = pytest.ExceptionInfo.from_current()
    assert isinstance(excinfo.value, (ValueError, TypeError)), (
        f"{excinfo.typename}: {excinfo.value}")
    assert_raised_by_kerasmini(excinfo)
    assert not getattr(excinfo.value, "kerasmini_unexplained", False), (
        f"no check explains: {excinfo.value}")
    return "error", excinfo.value


def _specs(result):
    items = result if isinstance(result, (list, tuple)) else [result]
    return [(tuple(np.shape(x)), np.asarray(x).dtype.name if not isinstance(
        x, keras.KerasTensor) else x.dtype) for x in items]


@pytest.mark.parametrize("name", sorted(OP_ARGUMENTS))
@FUZZ_EACH
@given(data=st.data())
def test_ops_on_drawn_arguments(name, data):
    positional, keywords = OP_ARGUMENTS[name]
    args = [data.draw(strategy) for strategy in positional]
    kwargs = {k: data.draw(strategy) for k, strategy in keywords.items()
              if data.draw(st.booleans())}
    fn = _op_function(name)
    eager = _outcome(lambda: fn(*args, **kwargs))
    twins = [_symbolic_twin(a) for a in args]
    if any(t is None for t in twins) or not any(
            _symbolic_twin(a) is not a for a in args):
        return  # a tensor of strings, or an op that makes tensors from nothing
    symbolic = _outcome(lambda: fn(*twins, **kwargs))
    if name == "reshape" and isinstance(args[1], tuple) and None in args[1]:
        assert eager[0] == "error"  # None is an unknown size: KerasTensors only
    elif eager[0] == symbolic[0] == "ok":
        assert _specs(symbolic[1]) == _specs(eager[1]), (name, args, kwargs)
    elif eager[0] == symbolic[0] == "error":
        assert str(symbolic[1]) == str(eager[1]), (name, args, kwargs)
    else:  # only values can show an index or a label out of range
        assert eager[0] == "error" and any(
            phrase in str(eager[1]) for phrase in ("must be in [", "labels must be",
                                                   "must be integers in [")), (
            name, args, kwargs, eager, symbolic)


def test_the_op_fuzzer_draws_for_every_public_op():
    aliases = {"absolute", "amax", "amin", "swish", "true_divide", "greater_equal",
               "less_equal", "logical_or"}  # the same op, or family, as another
    no_tensors = {"cond", "convert_to_numpy", "convert_to_tensor", "dtype",
                  "is_tensor", "shape", "symbolic_scope", "image", "builtins"}
    public = {name for name in keras.ops.__all__ if name[0].islower()}
    public |= {"image.resize", "image.extract_patches"}
    missing = sorted(public - set(OP_ARGUMENTS) - aliases - no_tensors)
    assert not missing, f"ops the fuzzer never calls: {missing}"
