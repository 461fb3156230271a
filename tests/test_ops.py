"""kerasmini.ops: every op computes like NumPy on arrays, answers with the same
shape and dtype on KerasTensors without computing, is differentiable where it
should be, and works between layers of a functional model."""

import math

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import KerasTensor, ops
from kerasmini.ops.operation import Operation

RNG = np.random.default_rng(0)
A = RNG.normal(size=(2, 3)).astype("float32")
B = RNG.normal(size=(3, 4)).astype("float32")
P = np.abs(A) + 0.5  # positive, for log and sqrt
U = np.tanh(A) * 0.9  # inside (-1, 1), for the inverse sine and cosine
V = RNG.normal(size=(3,)).astype("float32")
IMG = RNG.normal(size=(2, 6, 6, 3)).astype("float32")
KER = RNG.normal(size=(3, 3, 3, 4)).astype("float32")
KER_T = RNG.normal(size=(3, 3, 5, 3)).astype("float32")  # (kh, kw, out, in)
SEQ = RNG.normal(size=(2, 7, 3)).astype("float32")  # (batch, steps, channels)
VOL = RNG.normal(size=(2, 4, 6, 6, 3)).astype("float32")  # (batch, d, h, w, c)
DW = RNG.normal(size=(3, 3, 3, 2)).astype("float32")  # (kh, kw, in, multiplier)
PW = RNG.normal(size=(1, 1, 6, 4)).astype("float32")  # (1, 1, in * mult, out)


def _depthwise_reference(x, kernel):
    """Channel ``c`` through kernel ``m`` is output channel ``c * M + m``
    ("valid" padding, stride 1), a loop over the windows."""
    kh, kw, channels, mult = kernel.shape
    n, h, w, _ = x.shape
    out = np.zeros((n, h - kh + 1, w - kw + 1, channels * mult))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            patch = x[:, i:i + kh, j:j + kw, :]  # (n, kh, kw, c)
            out[:, i, j] = np.einsum("nhwc,hwcm->ncm", patch, kernel).reshape(n, -1)
    return out


def _conv_transpose_reference(x, kernel, stride):
    """Every input pixel adds ``kernel @ pixel`` to its window of the output
    ("valid" padding): the transpose of a strided convolution."""
    n, h, w, _ = x.shape
    kh, kw, out_channels, _ = kernel.shape
    out = np.zeros((n, (h - 1) * stride + kh, (w - 1) * stride + kw, out_channels))
    for i in range(h):
        for j in range(w):
            out[:, i * stride:i * stride + kh, j * stride:j * stride + kw] += \
                np.einsum("nc,hwoc->nhwo", x[:, i, j], kernel)
    return out

# name, call, the NumPy reference (None: only compare shapes and dtypes)
CASES = [
    ("abs", lambda o: o.abs(A), lambda: np.abs(A)),
    ("negative", lambda o: o.negative(A), lambda: -A),
    ("exp", lambda o: o.exp(A), lambda: np.exp(A)),
    ("expm1", lambda o: o.expm1(A), lambda: np.expm1(A)),
    ("log", lambda o: o.log(P), lambda: np.log(P)),
    ("log1p", lambda o: o.log1p(P), lambda: np.log1p(P)),
    ("sqrt", lambda o: o.sqrt(P), lambda: np.sqrt(P)),
    ("square", lambda o: o.square(A), lambda: A ** 2),
    ("tanh", lambda o: o.tanh(A), lambda: np.tanh(A)),
    ("sin", lambda o: o.sin(A), lambda: np.sin(A)),
    ("cos", lambda o: o.cos(A), lambda: np.cos(A)),
    ("sign", lambda o: o.sign(A), lambda: np.sign(A)),
    ("floor", lambda o: o.floor(A), lambda: np.floor(A)),
    ("round", lambda o: o.round(A), lambda: np.round(A)),
    ("add", lambda o: o.add(A, V), lambda: A + V),
    ("subtract", lambda o: o.subtract(A, V), lambda: A - V),
    ("multiply", lambda o: o.multiply(A, 2.0), lambda: A * 2),
    ("divide", lambda o: o.divide(A, P), lambda: A / P),
    ("power", lambda o: o.power(P, 2.0), lambda: P ** 2),
    ("maximum", lambda o: o.maximum(A, 0.0), lambda: np.maximum(A, 0)),
    ("minimum", lambda o: o.minimum(A, V), lambda: np.minimum(A, V)),
    ("greater", lambda o: o.greater(A, 0.0), lambda: A > 0),
    ("equal", lambda o: o.equal(A, A), lambda: A == A),
    ("logical_and", lambda o: o.logical_and(A > 0, A < 1), lambda: (A > 0) & (A < 1)),
    ("logical_or", lambda o: o.logical_or(A > 0, A < -1), lambda: (A > 0) | (A < -1)),
    ("logical_not", lambda o: o.logical_not(A > 0), lambda: ~(A > 0)),
    ("not_equal", lambda o: o.not_equal(A, 0.0), lambda: A != 0),
    ("greater_equal", lambda o: o.greater_equal(A, V), lambda: A >= V),
    ("less", lambda o: o.less(A, V), lambda: A < V),
    ("less_equal", lambda o: o.less_equal(A, 0.0), lambda: A <= 0),
    ("isnan", lambda o: o.isnan(A), lambda: np.isnan(A)),
    ("true_divide", lambda o: o.true_divide(A, 2.0), lambda: A / 2),
    ("where", lambda o: o.where(A > 0, A, V), lambda: np.where(A > 0, A, V)),
    ("clip", lambda o: o.clip(A, -0.5, 0.5), lambda: np.clip(A, -0.5, 0.5)),
    ("sum", lambda o: o.sum(A, axis=1), lambda: A.sum(1)),
    ("sum_keepdims", lambda o: o.sum(A, axis=0, keepdims=True),
     lambda: A.sum(0, keepdims=True)),
    ("mean", lambda o: o.mean(A), lambda: A.mean()),
    ("max", lambda o: o.max(A, axis=-1), lambda: A.max(-1)),
    ("min", lambda o: o.min(A, axis=0), lambda: A.min(0)),
    ("var", lambda o: o.var(A, axis=1), lambda: A.var(1)),
    ("std", lambda o: o.std(A, axis=1), lambda: A.std(1)),
    ("argmax", lambda o: o.argmax(A, axis=1), lambda: A.argmax(1)),
    ("argmin", lambda o: o.argmin(A, axis=0), lambda: A.argmin(0)),
    ("cumsum", lambda o: o.cumsum(A, axis=1), lambda: A.cumsum(1)),
    ("reshape", lambda o: o.reshape(A, (3, 2)), lambda: A.reshape(3, 2)),
    ("reshape_inferred", lambda o: o.reshape(A, (-1,)), lambda: A.reshape(-1)),
    ("transpose", lambda o: o.transpose(A), lambda: A.T),
    ("swapaxes", lambda o: o.swapaxes(IMG, 1, 3), lambda: IMG.swapaxes(1, 3)),
    ("expand_dims", lambda o: o.expand_dims(A, 1), lambda: A[:, None]),
    ("squeeze", lambda o: o.squeeze(A[:, None], axis=1), lambda: A),
    ("concatenate", lambda o: o.concatenate([A, A], axis=1),
     lambda: np.concatenate([A, A], 1)),
    ("stack", lambda o: o.stack([A, A], axis=0), lambda: np.stack([A, A])),
    ("broadcast_to", lambda o: o.broadcast_to(V, (2, 3)),
     lambda: np.broadcast_to(V, (2, 3))),
    ("take", lambda o: o.take(A, np.array([2, 0]), axis=1), lambda: A[:, [2, 0]]),
    ("pad", lambda o: o.pad(A, ((1, 0), (0, 2))), lambda: np.pad(A, ((1, 0), (0, 2)))),
    ("tile", lambda o: o.tile(A, (2, 1)), lambda: np.tile(A, (2, 1))),
    ("flip", lambda o: o.flip(A, axis=1), lambda: A[:, ::-1]),
    ("ravel", lambda o: o.ravel(A), lambda: A.ravel()),
    ("get_item", lambda o: o.get_item(A, (slice(None), 1)), lambda: A[:, 1]),
    ("get_item_ellipsis", lambda o: o.get_item(IMG, (Ellipsis, 0)),
     lambda: IMG[..., 0]),
    ("get_item_newaxis", lambda o: o.get_item(A, (None, slice(0, 2))),
     lambda: A[None, 0:2]),
    ("matmul", lambda o: o.matmul(A, B), lambda: A @ B),
    ("matmul_vector", lambda o: o.matmul(A, V), lambda: A @ V),
    ("einsum", lambda o: o.einsum("ij,jk->ik", A, B), lambda: A @ B),
    ("relu", lambda o: o.relu(A), lambda: np.maximum(A, 0)),
    ("elu", lambda o: o.elu(A), lambda: np.where(A > 0, A, np.expm1(A))),
    ("swish", lambda o: o.swish(A), lambda: A / (1 + np.exp(-A))),
    ("sparse_categorical_crossentropy", lambda o: o.sparse_categorical_crossentropy(
        np.array([0, 2]), o.softmax(A)), lambda: -np.log(
        (np.exp(A) / np.exp(A).sum(-1, keepdims=True))[[0, 1], [0, 2]])),
    ("zeros_like", lambda o: o.zeros_like(A), lambda: np.zeros_like(A)),
    ("ones_like", lambda o: o.ones_like(A), lambda: np.ones_like(A)),
    ("sigmoid", lambda o: o.sigmoid(A), lambda: 1 / (1 + np.exp(-A))),
    ("softplus", lambda o: o.softplus(A), lambda: np.log1p(np.exp(A))),
    ("silu", lambda o: o.silu(A), lambda: A / (1 + np.exp(-A))),
    ("gelu", lambda o: o.gelu(A), lambda: 0.5 * A * (1 + np.tanh(
        np.sqrt(2 / np.pi) * (A + 0.044715 * A ** 3)))),
    ("leaky_relu", lambda o: o.leaky_relu(A), lambda: np.where(A > 0, A, 0.2 * A)),
    ("softmax", lambda o: o.softmax(A), lambda: np.exp(A) / np.exp(A).sum(
        -1, keepdims=True)),
    ("log_softmax", lambda o: o.log_softmax(A), lambda: A - np.log(np.exp(A).sum(
        -1, keepdims=True))),
    ("one_hot", lambda o: o.one_hot(np.array([0, 2]), 3), lambda: np.eye(3)[[0, 2]]),
    ("cast", lambda o: o.cast(A, "int32"), lambda: A.astype("int32")),
    ("stop_gradient", lambda o: o.stop_gradient(A), lambda: A),
    ("conv", lambda o: o.conv(IMG, KER), None),
    ("conv_same_strided", lambda o: o.conv(IMG, KER, strides=2, padding="same"),
     None),
    ("conv_transpose", lambda o: o.conv_transpose(IMG, KER_T, strides=2),
     lambda: _conv_transpose_reference(IMG, KER_T, 2)),
    ("conv_transpose_same", lambda o: o.conv_transpose(IMG, KER_T, padding="same"),
     None),
    ("conv_1d", lambda o: o.conv(SEQ, KER[0], padding="same"), None),
    ("conv_3d", lambda o: o.conv(VOL, RNG.normal(size=(2, 3, 3, 3, 4)).astype(
        "float32"), strides=(1, 2, 2)), None),
    ("conv_transpose_1d", lambda o: o.conv_transpose(SEQ, KER_T[0], strides=2),
     lambda: _conv_transpose_reference(SEQ[:, None], KER_T[:1], 2)[:, 0]),
    ("depthwise_conv", lambda o: o.depthwise_conv(IMG, DW),
     lambda: _depthwise_reference(IMG, DW)),
    ("depthwise_conv_same", lambda o: o.depthwise_conv(IMG, DW, 2, "same"), None),
    ("separable_conv", lambda o: o.separable_conv(IMG, DW, PW),
     lambda: np.einsum("nhwc,co->nhwo", _depthwise_reference(IMG, DW), PW[0, 0])),
    ("max_pool_3d", lambda o: o.max_pool(VOL, 2), lambda: VOL.reshape(
        2, 2, 2, 3, 2, 3, 2, 3).max(axis=(2, 4, 6))),
    ("average_pool_1d", lambda o: o.average_pool(SEQ, 3, 2, "same"), None),
    ("max_pool", lambda o: o.max_pool(IMG, 2), lambda: IMG.reshape(
        2, 3, 2, 3, 2, 3).max(axis=(2, 4))),
    ("average_pool", lambda o: o.average_pool(IMG, 2), lambda: IMG.reshape(
        2, 3, 2, 3, 2, 3).mean(axis=(2, 4))),
    ("categorical_crossentropy", lambda o: o.categorical_crossentropy(
        np.eye(3, dtype="float32")[[0, 1]], o.softmax(A)), None),
    ("binary_crossentropy", lambda o: o.binary_crossentropy(
        (A > 0).astype("float32"), A, from_logits=True), None),
    # issue 24's ops (values against real Keras in tests/test_ops_keras.py)
    ("arcsin", lambda o: o.arcsin(U), lambda: np.arcsin(U)),
    ("arccos", lambda o: o.arccos(U), lambda: np.arccos(U)),
    ("arctan", lambda o: o.arctan(A), lambda: np.arctan(A)),
    ("arcsinh", lambda o: o.arcsinh(A), lambda: np.arcsinh(A)),
    ("arccosh", lambda o: o.arccosh(P + 1), lambda: np.arccosh(P + 1)),
    ("arctanh", lambda o: o.arctanh(U), lambda: np.arctanh(U)),
    ("arccos_int", lambda o: o.arccos(np.array([0, 1], "int32")),
     lambda: np.arccos([0.0, 1.0])),
    ("ceil", lambda o: o.ceil(A), lambda: np.ceil(A)),
    ("ceil_int", lambda o: o.ceil(np.array([1, 2], "int32")), lambda: [1.0, 2.0]),
    ("floor_int", lambda o: o.floor(np.array([1, 2], "int32")), lambda: [1.0, 2.0]),
    ("exp_int", lambda o: o.exp(np.array([0, 1], "int32")), lambda: np.exp([0.0, 1.0])),
    ("erf", lambda o: o.erf(A), lambda: np.vectorize(math.erf)(A)),
    ("gelu_exact", lambda o: o.gelu(A, approximate=False),
     lambda: 0.5 * A * (1 + np.vectorize(math.erf)(A / np.sqrt(2)))),
    ("tensordot", lambda o: o.tensordot(IMG, KER, axes=([3], [2])),
     lambda: np.tensordot(IMG, KER, ([3], [2]))),
    ("tensordot_int_axes", lambda o: o.tensordot(A, B, axes=1), lambda: A @ B),
    ("dot_nd", lambda o: o.dot(IMG, KER), lambda: np.dot(IMG, KER)),
    ("dot_vector", lambda o: o.dot(A, V), lambda: A @ V),
    ("repeat", lambda o: o.repeat(A, 2, axis=1), lambda: np.repeat(A, 2, axis=1)),
    ("repeat_counts", lambda o: o.repeat(A, [1, 0, 3], axis=1),
     lambda: np.repeat(A, [1, 0, 3], axis=1)),
    ("repeat_flat", lambda o: o.repeat(A, 2), lambda: np.repeat(A, 2)),
    ("roll", lambda o: o.roll(A, 1, axis=1), lambda: np.roll(A, 1, axis=1)),
    ("roll_flat", lambda o: o.roll(A, -2), lambda: np.roll(A, -2)),
    ("slice", lambda o: o.slice(IMG, [0, 1, 2, 0], (2, 3, 2, 3)),
     lambda: IMG[:, 1:4, 2:4]),
    ("slice_to_end", lambda o: o.slice(A, [1, 1], (1, -1)), lambda: A[1:, 1:]),
    ("pad_reflect", lambda o: o.pad(A, ((1, 1), (2, 2)), mode="reflect"),
     lambda: np.pad(A, ((1, 1), (2, 2)), mode="reflect")),
    ("pad_symmetric", lambda o: o.pad(A, 2, mode="symmetric"),
     lambda: np.pad(A, 2, mode="symmetric")),
    ("pad_edge", lambda o: o.pad(A, (1, 2), mode="edge"),
     lambda: np.pad(A, (1, 2), mode="edge")),
    ("pad_circular", lambda o: o.pad(A, ((0, 0), (4, 1)), mode="circular"),
     lambda: np.pad(A, ((0, 0), (4, 1)), mode="wrap")),
    ("pad_constant_values", lambda o: o.pad(A, 1, constant_values=7.0),
     lambda: np.pad(A, 1, constant_values=7.0)),
    ("cumsum_dtype", lambda o: o.cumsum(A > 0, axis=1, dtype="float32"),
     lambda: np.cumsum(A > 0, axis=1).astype("float32")),
    ("cumsum_bool", lambda o: o.cumsum(A > 0), lambda: np.cumsum(A > 0)),
    ("sum_int", lambda o: o.sum(np.array([[1, 2]], "int32"), axis=1), lambda: [3]),
    ("resize", lambda o: o.image.resize(IMG, (3, 4)), None),
    ("resize_channels_first", lambda o: o.image.resize(
        IMG, (3, 4), data_format="channels_first"), None),
    ("resize_single_image", lambda o: o.image.resize(IMG[0], (8, 8),
                                                      interpolation="bicubic"), None),
    ("resize_int_image", lambda o: o.image.resize(
        (IMG > 0).astype("uint8") * 200, (4, 4), interpolation="area"), None),
    ("extract_patches", lambda o: o.image.extract_patches(IMG, 2),
     lambda: IMG.reshape(2, 3, 2, 3, 2, 3).transpose(0, 1, 3, 2, 4, 5).reshape(
         2, 3, 3, 12)),
    ("extract_patches_strided", lambda o: o.image.extract_patches(
        IMG[0], (3, 2), strides=(1, 2), padding="same"), None),
]

# ops with several outputs: name, call, NumPy reference of each output
MULTI_CASES = [
    ("split_sections", lambda o: o.split(IMG, 3, axis=1),
     lambda: np.split(IMG, 3, axis=1)),
    ("split_indices", lambda o: o.split(A, [1, 2], axis=-1),
     lambda: np.split(A, [1, 2], axis=-1)),
    ("unstack", lambda o: o.unstack(A, axis=1), lambda: list(A.T)),
    ("meshgrid_xy", lambda o: o.meshgrid(V, A[0, :2]),
     lambda: np.meshgrid(V, A[0, :2])),
    ("meshgrid_ij", lambda o: o.meshgrid(V, A[0, :2], V, indexing="ij"),
     lambda: np.meshgrid(V, A[0, :2], V, indexing="ij")),
    ("top_k", lambda o: o.top_k(A, 2), lambda: (
        -np.sort(-A, axis=-1)[:, :2], np.argsort(-A, axis=-1)[:, :2])),
    ("fft2", lambda o: o.fft2((IMG, IMG[::-1])), lambda: (
        np.fft.fft2(IMG + 1j * IMG[::-1]).real, np.fft.fft2(IMG + 1j * IMG[::-1]).imag)),
]


def _symbolic(value):
    """A KerasTensor like ``value`` (an array stays an array inside lists)."""
    if isinstance(value, np.ndarray):
        return KerasTensor(value.shape, value.dtype.name)
    return value


class _SymbolicOps:
    """``ops`` (or ``ops.image``) with every array argument turned into a
    KerasTensor (inside lists and tuples too)."""

    def __init__(self, namespace=ops):
        self._namespace = namespace

    def __getattr__(self, name):
        fn = getattr(self._namespace, name)
        if not callable(fn):  # a module: ops.image
            return _SymbolicOps(fn)

        def call(*args, **kwargs):
            args = [type(arg)(_symbolic(a) for a in arg)
                    if isinstance(arg, (list, tuple)) else _symbolic(arg)
                    for arg in args]
            return fn(*args, **kwargs)
        return call


@pytest.mark.parametrize("name, call, reference", CASES, ids=[c[0] for c in CASES])
def test_op_eager_value_matches_numpy(name, call, reference):
    if reference is None:
        pytest.skip("compared elsewhere (backend tests)")
    np.testing.assert_allclose(np.asarray(call(ops), dtype=float),
                               np.asarray(reference(), dtype=float),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, call, reference", CASES, ids=[c[0] for c in CASES])
def test_op_symbolic_spec_matches_eager_result(name, call, reference):
    eager = np.asarray(call(ops))
    symbolic = call(_SymbolicOps())
    assert isinstance(symbolic, KerasTensor), type(symbolic)
    assert symbolic.shape == eager.shape, name
    assert symbolic.dtype == eager.dtype.name, name


@pytest.mark.parametrize("name, call, reference", MULTI_CASES,
                         ids=[c[0] for c in MULTI_CASES])
def test_ops_with_several_outputs(name, call, reference):
    eager, symbolic = call(ops), call(_SymbolicOps())
    assert type(eager) is type(symbolic) and len(eager) == len(symbolic)
    for value, spec in zip(eager, symbolic):
        assert isinstance(spec, KerasTensor)
        assert spec.shape == np.shape(value) and spec.dtype == np.asarray(value).dtype
    if reference is not None:
        for value, expected in zip(eager, reference()):
            np.testing.assert_allclose(value, expected, rtol=1e-6)


def test_symbolic_op_computes_nothing_and_records_a_node():
    x = KerasTensor((None, 3))
    y = ops.relu(x)
    op = y._keras_history.operation
    assert isinstance(op, Operation) and type(op).__name__ == "Relu"
    assert op._inbound_nodes[0].keras_inputs == [x]


def test_unknown_dimensions_follow_the_rules():
    x = KerasTensor((None, 4, 3))
    assert ops.matmul(x, KerasTensor((3, 5))).shape == (None, 4, 5)
    assert ops.reshape(x, (-1, 12)).shape == (None, 12)
    assert ops.concatenate([x, x], axis=0).shape == (None, 4, 3)
    assert ops.mean(x, axis=(1, 2)).shape == (None,)
    assert ops.expand_dims(x, 0).shape == (1, None, 4, 3)


# Keras 3.15.1's exact text (KERAS_BACKEND=torch, symbolic inputs), which the
# chapters show: a 1-D operand appears as the matrix it was promoted to.
MATMUL_MESSAGES = [
    ((None, 3), (4, 5), "Inner dimensions (`x1.shape[-1]` and `x2.shape[-2]`) "
     "must be equal, but received `x1.shape=(None, 3)` and `x2.shape=(4, 5)`."),
    ((3,), (4, 5), "Inner dimensions (`x1.shape[-1]` and `x2.shape[-2]`) "
     "must be equal, but received `x1.shape=(1, 3)` and `x2.shape=(4, 5)`."),
    ((2, 7), (3,), "Inner dimensions (`x1.shape[-1]` and `x2.shape[-2]`) "
     "must be equal, but received `x1.shape=(2, 7)` and `x2.shape=(3, 1)`."),
]


@pytest.mark.parametrize("shape1, shape2, message", MATMUL_MESSAGES)
def test_matmul_mismatch_message_is_keras_word_for_word(shape1, shape2, message):
    with pytest.raises(ValueError) as info:
        ops.matmul(KerasTensor(shape1), KerasTensor(shape2))
    assert str(info.value) == message


def test_bad_arguments_get_clear_errors():
    with pytest.raises(ValueError, match="Inner dimensions"):
        ops.matmul(KerasTensor((None, 3)), KerasTensor((4, 5)))
    with pytest.raises(ValueError, match="Cannot broadcast shape"):
        ops.add(KerasTensor((2, 3)), KerasTensor((4,)))
    with pytest.raises(ValueError, match="out of bounds"):
        ops.sum(KerasTensor((2, 3)), axis=2)


def test_ops_are_differentiable_through_the_tape():
    w = keras.Variable(B, name="w")
    with keras.GradientTape() as tape:
        loss = ops.mean(ops.square(ops.relu(ops.matmul(A, w))))
    grad = tape.gradient(loss, w)
    h = A @ B
    expected = A.T @ (2 * np.maximum(h, 0) * (h > 0) / h.size)
    np.testing.assert_allclose(grad, expected, rtol=1e-5)


def test_ops_are_traced_by_function():
    f = keras.function(lambda x: ops.sum(ops.exp(x), axis=-1))
    first, second = f(A), f(A * 2)
    np.testing.assert_allclose(second, np.exp(A * 2).sum(-1), rtol=1e-6)
    assert f.trace_count == 1 and first.shape == (2,)


def test_keras_tensor_operators_make_ops():
    x = keras.Input((3,))
    y = (x * 2.0 + 1.0) @ KerasTensor((3, 2))
    assert y.shape == (None, 2)
    assert type(y._keras_history.operation).__name__ == "Matmul"
    assert (-x)[:, 0].shape == (None,)


def test_ops_between_layers_of_a_functional_model_train_with_fit():
    keras.utils.set_random_seed(0)
    x = keras.Input((4,))
    h = ops.relu(keras.layers.Dense(8)(x))
    out = keras.layers.Dense(1)(ops.concatenate([h, x], axis=-1))
    model = keras.Model(x, out)
    names = [op.name for op in model.operations]
    assert "relu" in names and "concatenate" in names
    assert [layer.name for layer in model.layers] == ["input_layer", "dense", "dense_1"]
    data = RNG.normal(size=(64, 4)).astype("float32")
    target = data.sum(axis=1, keepdims=True)
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(data, target, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    np.testing.assert_allclose(model.predict(data[:2], verbose=0),
                               model(data[:2]), rtol=1e-6)


def test_a_model_with_ops_refuses_to_save_with_a_clear_error(tmp_path):
    x = keras.Input((2,))
    model = keras.Model(x, ops.relu(keras.layers.Dense(2)(x)))
    with pytest.raises(NotImplementedError, match="calls keras.ops functions"):
        model.save(tmp_path / "m.keras")


def test_custom_layer_written_with_ops_works_on_keras_input():
    class Linear(keras.Layer):
        def __init__(self, units):
            super().__init__()
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units))
            self.b = self.add_weight(shape=(self.units,), initializer="zeros")

        def call(self, x):
            return keras.ops.matmul(x, self.w) + self.b

    x = keras.Input((5,))
    layer = Linear(3)
    y = layer(x)
    model = keras.Model(x, y)
    assert y.shape == (None, 3) and model.count_params() == 18
    assert [op.name for op in model.operations] == ["input_layer", "linear"]
    np.testing.assert_allclose(model(np.ones((2, 5))),
                               np.ones((2, 5)) @ layer.w.numpy(), rtol=1e-6)


def test_custom_layer_using_numpy_still_infers_by_dry_run():
    class NumpyDouble(keras.Layer):
        def call(self, x):
            return np.asarray(x) * 2

    assert NumpyDouble()(keras.Input((4,))).shape == (None, 4)


def test_moments_and_cond():
    mean, variance = ops.moments(A, axes=[0])
    np.testing.assert_allclose(mean, A.mean(0), rtol=1e-6)
    np.testing.assert_allclose(variance, A.var(0), rtol=1e-5)
    assert ops.cond(np.array(False), lambda: 1, lambda: 2) == 2
    m, v = ops.moments(KerasTensor((None, 3)), axes=[0])
    assert m.shape == v.shape == (3,)


def test_creation_ops_match_numpy():
    assert ops.zeros((2, 3)).dtype == np.float32 and ops.ones((2,)).sum() == 2
    np.testing.assert_array_equal(ops.full((2,), 7.0), [7.0, 7.0])
    np.testing.assert_array_equal(ops.arange(4), np.arange(4))
    np.testing.assert_array_equal(ops.eye(3), np.eye(3))
    np.testing.assert_allclose(ops.linspace(0.0, 1.0, 5), np.linspace(0, 1, 5))
    assert ops.arange(3).dtype == np.int32 and ops.eye(2).dtype == np.float32


def test_conversions():
    assert ops.convert_to_tensor([1.5]).dtype == np.float32
    assert ops.convert_to_numpy(keras.Variable(np.ones(2, "float32"))).tolist() == [1, 1]
    assert ops.shape(KerasTensor((None, 2))) == (None, 2)
    assert ops.dtype(np.zeros(1, "int32")) == "int32"
    assert ops.is_tensor(np.zeros(1)) and not ops.is_tensor([1])
    with pytest.raises(ValueError, match="no value to convert"):
        ops.convert_to_numpy(KerasTensor((1,)))
    with pytest.raises(ValueError, match="sparse and ragged"):
        ops.convert_to_tensor([1.0], sparse=True)


def test_conv_transpose_refuses_inputs_without_spatial_axes():
    with pytest.raises(ValueError, match="ops.conv_transpose: kerasmini supports "
                                         "inputs of rank"):
        ops.conv_transpose(np.ones((2, 6)), KER_T)
    with pytest.raises(ValueError, match="must have rank 3 for inputs of rank 3"):
        ops.conv_transpose(np.ones((2, 6, 3)), KER_T)  # a sequence, an image kernel


def test_sparse_categorical_crossentropy_checks_its_labels():
    # the op checks the labels itself (a recorded check: every batch of a
    # traced fit), so a loss built on it needs no check of its own
    probs = np.full((2, 3), 1 / 3, dtype="float32")
    with pytest.raises(ValueError, match=r"labels `y_true`.*must be integers in "
                                         r"\[0, 3\)\. Received: 5"):
        ops.sparse_categorical_crossentropy(np.array([0, 5]), probs)
    with pytest.raises(ValueError, match=r"Received: -1"):
        ops.sparse_categorical_crossentropy(np.array([-1, 0]), probs)


def test_dtypes_of_mixed_calls_are_the_same_eagerly_and_symbolically():
    # found by the op fuzzer: the rule and NumPy disagreed on these
    calls = [
        lambda a, b: ops.binary_crossentropy(a, b),
        lambda a, b: ops.categorical_crossentropy(a[None], b[None]),
        lambda a, b: ops.multiply(a > 0, 3),
        lambda a, b: ops.subtract(a > 0, 1),
        lambda a, b: ops.dot(ops.cast(a, "int64")[0], 0.5),
        lambda a, b: ops.max_pool(ops.reshape(b > 0, (1, 2, 1, 1)), 2, padding="same"),
    ]
    a, b = np.array([0.0, 1.0]), np.array([0.3, 0.6], "float32")
    for call in calls:
        eager = call(a, b)
        symbolic = call(keras.KerasTensor(a.shape, "float64"),
                        keras.KerasTensor(b.shape, "float32"))
        assert (eager.shape, eager.dtype.name) == (symbolic.shape, symbolic.dtype)
    np.testing.assert_array_equal(
        ops.max_pool(np.array([[True, False], [False, False]])[None, :, :, None], 2),
        [[[[True]]]])
    np.testing.assert_array_equal(ops.pad(np.array(2.5), 1), 2.5)  # nothing to pad
