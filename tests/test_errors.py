"""Bad input, as a new user would give it: a clear ValueError/TypeError.

Every case checks the exception type (the one Keras 3.15.1 raises, where it
raises one), a phrase of the message, and where it was raised: the innermost
frame of the traceback must be a ``raise`` statement in kerasmini's own code,
not NumPy's (``index 7 is out of bounds``) nor a bare Python conversion
(``could not convert string to float``).
"""

import os

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

KERASMINI_DIR = os.path.dirname(os.path.abspath(keras.__file__))

RNG = np.random.default_rng(0)
X = RNG.random((6, 4)).astype("float32")
Y = np.array([0, 1, 2, 0, 1, 2])


# (path, line) -> the statement there: pytest finds it by parsing the whole
# file, which the fuzzers would otherwise do for every error they provoke
_STATEMENTS = {}


def assert_raised_by_kerasmini(excinfo):
    """The innermost frame is a ``raise`` statement in kerasmini itself."""
    entry = excinfo.traceback[-1]
    path = os.path.abspath(str(entry.path))
    assert path.startswith(KERASMINI_DIR), (
        f"{excinfo.typename} raised outside kerasmini, in {path}: {excinfo.value}")
    key = (path, entry.lineno)  # a file of kerasmini's: the same for the whole run
    if key not in _STATEMENTS:
        _STATEMENTS[key] = str(entry.statement).strip()
    statement = _STATEMENTS[key]
    assert statement.startswith("raise"), (
        f"{excinfo.typename} not raised by kerasmini's own check but by "
        f"`{statement}` ({path}:{entry.lineno + 1}): {excinfo.value}")


def classifier(loss="sparse_categorical_crossentropy"):
    x = keras.Input(shape=(4,))
    model = keras.Model(x, layers.Dense(3, activation="softmax")(x))
    model.compile("sgd", loss)
    return model


def built_dense():
    layer = layers.Dense(2)
    layer.build((None, 3))
    return layer


STRINGS = np.array([["a"] * 4] * 6)

# (id, what to run, exception type, phrase of the message)
CASES = [
    # --- the cases of the issue
    ("input_negative_shape", lambda: keras.Input(shape=(-1,)), ValueError,
     "negative dimensions are not allowed"),
    ("input_float_shape", lambda: keras.Input(shape=(3.5,)), ValueError,
     "3.5 is not an integer"),
    ("label_minus_one", lambda: classifier().fit(X, [0, 1, 2, 0, 1, -1], verbose=0),
     ValueError, r"must be integers in \[0, 3\). Received: -1"),
    ("label_out_of_range", lambda: classifier().fit(X, [0, 1, 2, 0, 1, 7], verbose=0),
     ValueError, r"the labels `y_true`.*Received: 7"),
    ("label_strings", lambda: classifier().fit(X, np.array(list("abcabc")), verbose=0),
     ValueError, "Argument `y` must be an array of numbers"),
    ("embedding_index_too_big", lambda: layers.Embedding(10, 4)(np.array([[100]])),
     ValueError, r"Layer 'embedding'.*integers in \[0, 10\). Received: 100"),
    # text is data for a model with text inputs (StringLookup, TextVectorization)
    ("fit_string_x", lambda: classifier().fit(STRINGS, Y, verbose=0), ValueError,
     "tensors of numbers: model 'functional' has no .*strings of shape \\(6, 4\\)"),
    ("predict_string_x", lambda: classifier().predict(STRINGS, verbose=0), ValueError,
     "model 'functional' has no `keras.Input\\(dtype=\"string\"\\)`"),
    ("fit_ragged_x", lambda: classifier().fit([[1, 2, 3, 4], [1, 2]], [0, 1], verbose=0),
     ValueError, "Received a ragged list"),
    ("layer_ragged_input", lambda: layers.Dense(2)([[1.0, 2.0], [1.0]]), ValueError,
     "Only input tensors may be passed as positional arguments"),
    ("fit_zero_rows", lambda: classifier().fit(np.zeros((0, 4)), np.zeros(0), verbose=0),
     ValueError, r"needs at least one sample.*shape \(0, 4\)"),
    ("set_weights_strings",
     lambda: built_dense().set_weights([np.array([["a"] * 2] * 3), np.zeros(2)]),
     ValueError, r"weight 'dense/kernel' needs an array of numbers of shape \(3, 2\)"),
    ("set_weights_object", lambda: built_dense().set_weights([object(), np.zeros(2)]),
     TypeError, "weight 'dense/kernel' needs an array of numbers"),
    ("batchnorm_momentum_string", lambda: layers.BatchNormalization(momentum="x"),
     ValueError, r"argument `momentum` must be a number in \[0, 1\]. Received: "
     "momentum='x'"),
    # --- constructor arguments
    ("input_string_dim", lambda: keras.Input(shape=("a",)), ValueError,
     "'a' is not an integer"),
    ("input_batch_size_negative", lambda: keras.Input(shape=(3,), batch_size=-1),
     ValueError, "`batch_size` must be an integer >= 0"),
    ("input_batch_size_float", lambda: keras.Input(shape=(3,), batch_size=2.5),
     ValueError, "`batch_size` must be an integer"),
    ("input_batch_shape_negative", lambda: keras.Input(batch_shape=(None, -2)),
     ValueError, "`batch_shape` must be a tuple of non-negative integers"),
    ("batchnorm_momentum_none", lambda: layers.BatchNormalization(momentum=None),
     TypeError, "`momentum` must be a number"),
    ("batchnorm_momentum_above_one", lambda: layers.BatchNormalization(momentum=1.5),
     ValueError, r"`momentum` must be a number in \[0, 1\]"),
    ("batchnorm_epsilon_negative", lambda: layers.BatchNormalization(epsilon=-1.0),
     ValueError, "`epsilon` must be a number >= 0"),
    ("batchnorm_axis_float", lambda: layers.BatchNormalization(axis=1.5), TypeError,
     "`axis` must be an integer"),
    ("batchnorm_axis_string", lambda: layers.BatchNormalization(axis="a"), ValueError,
     "`axis` must be an integer"),
    ("batchnorm_axis_out_of_range",
     lambda: layers.BatchNormalization(axis=5)(np.ones((2, 3))), ValueError,
     "`axis=5` is out of range for an input of rank 2"),
    ("flatten_data_format", lambda: layers.Flatten(data_format="bad"), ValueError,
     "The `data_format` argument must be one of"),
    ("global_pooling_data_format",
     lambda: layers.GlobalAveragePooling2D(data_format="channels_first"), ValueError,
     "supports only data_format='channels_last'"),
    ("dense_units", lambda: layers.Dense(2.5), ValueError, "expected a positive integer"),
    ("dropout_rate", lambda: layers.Dropout("a"), ValueError,
     "Invalid value received for argument `rate`"),
    ("conv_padding", lambda: layers.Conv2D(2, 3, padding=5), ValueError,
     "Expected `padding` to be 'valid' or 'same'"),
    ("embedding_input_dim", lambda: layers.Embedding(10.5, 4), ValueError,
     "should be positive integers"),
    ("reshape_target_shape", lambda: layers.Reshape((2.5,)), ValueError,
     "`target_shape` of `Reshape` must contain positive integers"),
    # --- call inputs
    ("embedding_negative_index", lambda: layers.Embedding(10, 4)(np.array([[-1]])),
     ValueError, "Received: -1"),
    ("embedding_fractional_index", lambda: layers.Embedding(10, 4)(np.array([[1.5]])),
     ValueError, "Received: 1.5"),
    ("embedding_nan_index", lambda: layers.Embedding(10, 4)(np.array([[np.nan]])),
     ValueError, "Received: nan"),
    ("dense_dict_input", lambda: layers.Dense(2)({"a": np.ones((1, 3))}), ValueError,
     r"expects one input tensor, not a dict. Received: a dict with keys \['a'\]"),
    ("dense_object_array", lambda: layers.Dense(2)(np.array([[object()]])), ValueError,
     "Inputs to a layer should be tensors of numbers"),
    # --- compile / fit / evaluate / predict arguments
    ("fit_epochs_float", lambda: classifier().fit(X, Y, epochs=2.5, verbose=0),
     TypeError, "`epochs` must be an integer >= 0. Received: epochs=2.5"),
    ("fit_epochs_none", lambda: classifier().fit(X, Y, epochs=None, verbose=0),
     TypeError, "`epochs` must be an integer"),
    ("fit_initial_epoch_negative",
     lambda: classifier().fit(X, Y, initial_epoch=-1, verbose=0), ValueError,
     "`initial_epoch` must be an integer >= 0"),
    ("fit_validation_split_string",
     lambda: classifier().fit(X, Y, validation_split="a", verbose=0), ValueError,
     "`validation_split` must be a number"),
    ("fit_shuffle_string", lambda: classifier().fit(X, Y, shuffle="x", verbose=0),
     TypeError, "`shuffle` must be a boolean"),
    ("fit_verbose_five", lambda: classifier().fit(X, Y, verbose=5), ValueError,
     '`verbose` must be "auto", 0, 1 or 2'),
    ("fit_steps_per_epoch_zero",
     lambda: classifier().fit(X, Y, steps_per_epoch=0, verbose=0), ValueError,
     "`steps_per_epoch` must be an integer >= 1 or None"),
    ("fit_steps_per_epoch_string",
     lambda: classifier().fit(X, Y, steps_per_epoch="a", verbose=0), ValueError,
     "`steps_per_epoch` must be an integer"),
    ("fit_validation_freq_zero",
     lambda: classifier().fit(X, Y, validation_data=(X, Y), validation_freq=0,
                              verbose=0), ValueError, "`validation_freq` must be"),
    ("fit_validation_data_array",
     lambda: classifier().fit(X, Y, validation_data=X, verbose=0), ValueError,
     r"`validation_data` must be a tuple `\(x_val, y_val\)`"),
    ("fit_validation_data_one_part",
     lambda: classifier().fit(X, Y, validation_data=(X,), verbose=0), ValueError,
     "Received: a tuple of length 1"),
    ("fit_class_weight_list",
     lambda: classifier().fit(X, Y, class_weight=[1.0, 1.0, 1.0], verbose=0),
     TypeError, "`class_weight` must be a dict"),
    ("fit_class_weight_string_keys",
     lambda: classifier().fit(X, Y, class_weight={"a": 1.0}, verbose=0), ValueError,
     "keys of `class_weight` must be class indices"),
    ("fit_sample_weight_wrong_shape",
     lambda: classifier().fit(X, Y, sample_weight=np.ones((6, 2)), verbose=0),
     ValueError, r"Received: sample_weight.shape=\(6, 2\)"),
    ("fit_sample_weight_strings",
     lambda: classifier().fit(X, Y, sample_weight=np.array(list("abcdef")), verbose=0),
     ValueError, "Argument `sample_weight` must be an array of numbers"),
    ("fit_scalar_x", lambda: classifier().fit(3.0, Y, verbose=0), ValueError,
     "must have a first \\(batch\\) axis"),
    ("fit_empty_dict_x", lambda: classifier().fit({}, Y, verbose=0), ValueError,
     "`x` is an empty dict"),
    ("fit_callbacks_int", lambda: classifier().fit(X, Y, callbacks=5, verbose=0),
     TypeError, "`callbacks` must be a list of `kerasmini.callbacks.Callback`"),
    ("fit_callbacks_list_of_int",
     lambda: classifier().fit(X, Y, callbacks=[5], verbose=0), TypeError,
     "Every entry of `callbacks` must be"),
    ("fit_no_targets", lambda: classifier().fit(X, None, verbose=0), ValueError,
     "compiled with a loss for output .* but received no targets"),
    ("compile_loss_empty_dict_in_list",
     lambda: classifier(loss=[{}]).fit(X, Y, verbose=0),
     ValueError, "Could not interpret loss identifier: {}"),
    ("compile_loss_weights_string",
     lambda: _compiled_with(loss_weights="a").fit(X, np.zeros((6, 3)), verbose=0),
     ValueError, "`loss_weights` must be a number"),
    ("evaluate_zero_rows",
     lambda: classifier().evaluate(np.zeros((0, 4)), np.zeros(0), verbose=0),
     ValueError, "needs at least one sample"),
    ("evaluate_label_out_of_range",
     lambda: classifier().evaluate(X, [0, 1, 2, 0, 1, 7], verbose=0), ValueError,
     "Received: 7"),
    ("evaluate_steps_string", lambda: classifier().evaluate(X, Y, steps="a", verbose=0),
     ValueError, "`steps` must be an integer"),
    ("predict_steps_zero", lambda: classifier().predict(X, steps=0, verbose=0),
     ValueError, "`steps` must be an integer >= 1 or None"),
    ("predict_verbose_string", lambda: classifier().predict(X, verbose="x"), ValueError,
     '`verbose` must be "auto", 0, 1 or 2'),
    ("predict_scalar", lambda: classifier().predict(np.float32(1.0), verbose=0),
     ValueError, "must have a first \\(batch\\) axis"),
    ("train_on_batch_zero_rows",
     lambda: classifier().train_on_batch(np.zeros((0, 4)), np.zeros(0)), ValueError,
     "needs at least one sample"),
    ("train_on_batch_label_out_of_range",
     lambda: classifier().train_on_batch(X, [0, 1, 2, 0, 1, 7]), ValueError,
     "Received: 7"),
    # --- labels
    ("label_fraction", lambda: classifier().fit(X, [0, 1, 2, 0, 1, 1.5], verbose=0),
     ValueError, "Received: 1.5"),
    ("label_nan", lambda: classifier().fit(X, [0, 1, 2, 0, 1, np.nan], verbose=0),
     ValueError, "Received: nan"),
    ("label_huge", lambda: classifier().fit(X, [0, 1, 2, 0, 1, 2 ** 40], verbose=0),
     ValueError, "Received: 1099511627776"),
    # --- weights
    ("set_weights_none_entry", lambda: built_dense().set_weights([None, None]),
     TypeError, "needs an array of numbers"),
    ("set_weights_ragged",
     lambda: built_dense().set_weights([[[1, 2], [1]], np.zeros(2)]), ValueError,
     "Received a ragged list"),
    ("set_weights_complex",
     lambda: built_dense().set_weights([np.zeros((3, 2), complex), np.zeros(2)]),
     ValueError, "dtype complex128"),
    ("set_weights_string", lambda: built_dense().set_weights(["a", "b"]), ValueError,
     "Received: 'a'"),
    # --- more call inputs
    ("activation_bool_input",
     lambda: layers.Activation("softmax")(np.array([True, False])), TypeError,
     "expects inputs of numbers, not booleans. Received: inputs of dtype bool"),
    ("reshape_scalar_input", lambda: layers.Reshape((-1,))(np.float32(1.0)),
     ValueError, r"expects inputs with a batch axis .*Received: inputs of shape \(\)"),
    ("add_none_input", lambda: layers.Add()([np.ones((2, 3)), None]), ValueError,
     "Got 'None' .* as input for layer 'add'"),
    ("concatenate_no_inputs", lambda: layers.Concatenate()([]), ValueError,
     r"Layer 'concatenate' received no input tensors. Received: inputs=\[\]"),
    ("dropout_noise_shape_mismatch",
     lambda: layers.Dropout(0.5, noise_shape=(None, 5))(np.ones((2, 3)), training=True),
     ValueError, r"`noise_shape` must have the rank.*Received: noise_shape=\(None, 5\)"),
    ("predict_on_batch_none", lambda: classifier().predict_on_batch(None), ValueError,
     "Received: x=None"),
    # --- more constructor arguments
    ("dropout_noise_shape_string", lambda: layers.Dropout(0.5, noise_shape="a"),
     ValueError, "argument `noise_shape` must be a tuple"),
    ("dense_input_shape_float", lambda: layers.Dense(2, input_shape=1.5), ValueError,
     "Dense: argument `input_shape` must be a tuple"),
    ("global_pooling_keepdims", lambda: layers.GlobalAveragePooling2D(keepdims=None),
     TypeError, "`keepdims` must be a boolean"),
    ("lambda_arguments_string", lambda: layers.Lambda(lambda x: x, arguments="a"),
     TypeError, "`arguments` must be a dict"),
    ("sequential_layers_bool", lambda: keras.Sequential(True), TypeError,
     "`layers` must be a list of layers. Received: layers=True"),
    ("activation_bad_dict", lambda: layers.Dense(2, activation={"a": 1}), TypeError,
     "Could not interpret activation function identifier"),
    ("adam_beta_1_string", lambda: keras.optimizers.Adam(beta_1="a"), ValueError,
     "Adam: argument `beta_1` must be a number in \\[0, 1\\). Received: beta_1='a'"),
    ("adam_beta_1_one", lambda: keras.optimizers.Adam(beta_1=1), ValueError,
     r"`beta_1` must be a number in \[0, 1\)\. Received: beta_1=1"),
    ("adam_epsilon_tuple", lambda: keras.optimizers.Adam(epsilon=()), TypeError,
     "`epsilon` must be a number >= 0"),
    ("rmsprop_momentum_none", lambda: keras.optimizers.RMSprop(momentum=None),
     TypeError, "RMSprop: argument `momentum` must be a number"),
    ("rmsprop_rho_above_one", lambda: keras.optimizers.RMSprop(rho=2.0), ValueError,
     "Received: rho=2.0"),
    ("adagrad_initial_accumulator_string",
     lambda: keras.optimizers.Adagrad(initial_accumulator_value="a"), ValueError,
     "`initial_accumulator_value` must be a number >= 0"),
    ("sgd_clipvalue_string", lambda: keras.optimizers.SGD(clipvalue="a"), ValueError,
     "SGD: argument `clipvalue` must be a number"),
    ("sgd_clipnorm_negative", lambda: keras.optimizers.SGD(clipnorm=-1.0), ValueError,
     "`clipnorm` must be a number >= 0"),
    ("compile_optimizer_dict", lambda: classifier().compile({}, "mse"), ValueError,
     "Could not interpret optimizer identifier: {}"),
    ("huber_delta_zero", lambda: keras.losses.Huber(delta=0), ValueError,
     "Huber: argument `delta` must be a number > 0"),
    ("crossentropy_label_smoothing_string",
     lambda: keras.losses.CategoricalCrossentropy(label_smoothing="a"), ValueError,
     "`label_smoothing` must be a number in"),
    ("sparse_crossentropy_axis_zero", lambda: _loss_fit(
        keras.losses.SparseCategoricalCrossentropy(axis=0), Y), ValueError,
     r"argument `axis` must be -1 \(the last axis\).*Received: axis=0"),
    ("binary_crossentropy_axis_too_big", lambda: _loss_fit(
        keras.losses.BinaryCrossentropy(axis=5), np.ones((6, 3))), ValueError,
     r"`axis` must be an integer in \[-2, 2\).*Received: axis=5"),
    ("early_stopping_monitor_none", lambda: keras.callbacks.EarlyStopping(monitor=None),
     TypeError, "`monitor` must be the name of a logged quantity"),
    ("early_stopping_min_delta_none",
     lambda: keras.callbacks.EarlyStopping(min_delta=None), TypeError,
     "EarlyStopping: argument `min_delta` must be a number"),
    ("early_stopping_baseline_string",
     lambda: keras.callbacks.EarlyStopping(baseline="a"), ValueError,
     "`baseline` must be a number"),
    ("early_stopping_start_from_epoch_none",
     lambda: keras.callbacks.EarlyStopping(start_from_epoch=None), TypeError,
     "`start_from_epoch` must be an integer >= 0"),
    ("lr_scheduler_none", lambda: keras.callbacks.LearningRateScheduler(None),
     TypeError, "`schedule` must be a function"),
] + [
    # --- issue 20. Each comment says what Keras 3.15.1 (torch) does with the
    # same call: "as Keras" (same type and message), or how kerasmini differs.
    # Recurrent layers: Keras has no checks (raw IndexError/RuntimeError from
    # the cell eagerly, nothing symbolically); kerasmini checks both ways.
    ("rnn_initial_state_count", lambda: layers.LSTM(4)(SEQ, initial_state=[STATE]),
     ValueError, r"Layer 'lstm.*' \(LSTM\) expects `initial_state` to be a list of "
     r"2 tensor\(s\).*Received: initial_state with 1 tensor"),
    ("rnn_initial_state_count_symbolic",
     lambda: layers.LSTM(4)(keras.Input((5, 3)), initial_state=[keras.Input((4,))]),
     ValueError, r"list of 2 tensor\(s\), one per state, of shapes "
     r"\[\(None, 4\), \(None, 4\)\]"),
    ("rnn_initial_state_too_many",
     lambda: layers.SimpleRNN(4)(SEQ, initial_state=[STATE, STATE]), ValueError,
     "Received: initial_state with 2 tensor"),
    ("rnn_initial_state_shape",
     lambda: layers.SimpleRNN(4)(SEQ, initial_state=[np.zeros((2, 5), "float32")]),
     ValueError, r"`initial_state\[0\]` of shape \(batch_size, 4\) = \(2, 4\). "
     r"Received: initial_state\[0\].shape=\(2, 5\)"),
    ("rnn_initial_state_batch",
     lambda: layers.GRU(4)(SEQ, initial_state=[np.zeros((3, 4), "float32")]),
     ValueError, r"Received: initial_state\[0\].shape=\(3, 4\)"),
    ("rnn_initial_state_shape_symbolic",
     lambda: layers.SimpleRNN(4)(keras.Input((5, 3)),
                                 initial_state=[keras.Input((5,))]),
     ValueError, r"Received: initial_state\[0\].shape=\(None, 5\)"),
    ("rnn_mask_shape", lambda: layers.SimpleRNN(4)(SEQ, mask=np.ones((2, 4), bool)),
     ValueError, r"expects `mask` of shape \(batch_size, timesteps\) = \(2, 5\). "
     r"Received: mask.shape=\(2, 4\)"),
    ("rnn_mask_rank", lambda: layers.LSTM(4)(SEQ, mask=np.ones((2, 5, 3), bool)),
     ValueError, r"Received: mask.shape=\(2, 5, 3\)"),
    ("rnn_mask_shape_symbolic",
     lambda: layers.SimpleRNN(4)(keras.Input((5, 3)),
                                 mask=keras.Input((4,), dtype="bool")),
     ValueError, r"Received: mask.shape=\(None, 4\)"),
    # Keras: ValueError "Invalid dtype: str32" from torch's tree code
    ("rnn_mask_strings",
     lambda: layers.SimpleRNN(4)(SEQ, mask=np.array([["a"] * 5] * 2)), TypeError,
     r"expects `mask` of booleans \(or 0/1 numbers\). Received: mask of dtype <U1"),
    # as Keras's Dense: the input spec set at build (Keras: a matmul error)
    ("rnn_features_changed", lambda: _built(layers.SimpleRNN(4))(
        np.zeros((2, 5, 6), "float32")), ValueError,
     r'Input 0 of layer "simple_rnn.*" is incompatible with the layer: expected '
     r"axis -1 of input shape to have value 3, but received input with shape "
     r"\(2, 5, 6\)"),
    ("rnn_features_changed_symbolic",
     lambda: _built(layers.GRU(4))(keras.Input((5, 6))), ValueError,
     r"expected axis -1 of input shape to have value 3.*\(None, 5, 6\)"),
    # keras.random: Keras raises torch's RuntimeError for negative shapes, an
    # IndexError for a bad axis, NotImplementedError for normal(dtype="int32")
    ("random_normal_negative_shape", lambda: keras.random.normal((-1, 3)),
     ValueError, r"`keras.random.normal`: argument `shape` must be a tuple of "
     r"non-negative integers.*Received: shape=\(-1, 3\)"),
    ("random_uniform_negative_shape", lambda: keras.random.uniform((2, -3)),
     ValueError, r"`keras.random.uniform`: argument `shape`.*shape=\(2, -3\)"),
    ("random_randint_negative_shape", lambda: keras.random.randint((-2,), 0, 5),
     ValueError, r"`keras.random.randint`: argument `shape`"),
    ("random_truncated_normal_negative_shape",
     lambda: keras.random.truncated_normal((None, -2)), ValueError,
     r"`keras.random.truncated_normal`: argument `shape`"),
    ("random_shuffle_axis",
     lambda: keras.random.shuffle(np.arange(6.0).reshape(2, 3), axis=5), ValueError,
     r"`keras.random.shuffle`: argument `axis` must be an integer in \[-2, 2\) for "
     r"`x` of rank 2. Received: axis=5"),
    # (Keras, symbolically: "A KerasTensor is symbolic ... cannot convert it
    # to a NumPy array", here and for categorical below)
    ("random_shuffle_axis_symbolic",
     lambda: keras.random.shuffle(keras.Input((3,)), axis=-3), ValueError,
     r"in \[-2, 2\) for `x` of rank 2. Received: axis=-3"),
    # as Keras (eagerly)
    ("random_categorical_1d_logits",
     lambda: keras.random.categorical(np.zeros(3, "float32"), 2), ValueError,
     r"`logits` should be a 2-D tensor with shape \[batch_size, num_classes\]. "
     r"Received: logits="),
    ("random_categorical_3d_logits_symbolic",
     lambda: keras.random.categorical(keras.Input((2, 3)), 2), ValueError,
     "`logits` should be a 2-D tensor"),
    # before: silently zeros. Keras's words for uniform and randint
    ("random_normal_integer_dtype",
     lambda: keras.random.normal((2, 3), dtype="int32"), ValueError,
     r"`keras.random.normal` requires a floating point `dtype`. Received: "
     "dtype=int32"),
    ("random_uniform_integer_dtype",
     lambda: keras.random.uniform((2, 3), dtype="int32"), ValueError,
     "`keras.random.uniform` requires a floating point `dtype`"),
    ("random_randint_float_dtype",
     lambda: keras.random.randint((2,), 0, 3, dtype="float32"), ValueError,
     "`keras.random.randint` requires an integer `dtype`. Received: dtype=float32"),
    # Dot: Keras raises IndexError ("tuple index out of range")
    ("dot_axes_out_of_range", lambda: layers.Dot(axes=5)([np.ones((2, 3))] * 2),
     ValueError, r"Layer 'dot.*': `axes` must name an axis of each input, in "
     r"\[-2, 2\) for the first, of shape \(2, 3\). Received: axes=5"),
    ("dot_axes_out_of_range_symbolic",
     lambda: layers.Dot(axes=(1, 4))([keras.Input((3,)), keras.Input((3,))]),
     ValueError, r"for the second, of shape \(None, 3\). Received: axes=\(1, 4\)"),
    # batch sizes: as Keras (Dot: Keras's batch_dot words)
    ("dot_batch_sizes", lambda: layers.Dot(axes=1)([np.ones((2, 3)), np.ones((3, 3))]),
     ValueError, r"Cannot do batch_dot on inputs with different batch sizes. "
     r"Received inputs with shapes \(2, 3\) and \(3, 3\)"),
    ("add_batch_sizes", lambda: layers.Add()([np.ones((2, 3)), np.ones((3, 3))]),
     ValueError, r"Cannot merge tensors with different batch sizes. Received "
     r"tensors with shapes \[\(2, 3\), \(3, 3\)\]"),
    ("add_batch_sizes_symbolic",
     lambda: layers.Add()([keras.Input((3,), batch_size=2),
                           keras.Input((3,), batch_size=3)]), ValueError,
     "Cannot merge tensors with different batch sizes"),
    # a layer built on good inputs, then called with others: Keras raises
    # torch's RuntimeError from `call` (the check was only in `build`)
    ("multiply_batch_sizes_second_call",
     lambda: _called_twice(layers.Multiply(), [np.ones((2, 3)), np.ones((3, 3))]),
     ValueError, "Cannot merge tensors with different batch sizes"),
    ("add_batch_sizes_second_call",
     lambda: _called_twice(layers.Add(), [np.ones((2, 3)), np.ones((3, 3))]),
     ValueError, "Cannot merge tensors with different batch sizes"),
    ("concatenate_batch_sizes_second_call",
     lambda: _called_twice(layers.Concatenate(), [np.ones((2, 3)), np.ones((3, 4))]),
     ValueError, "A `Concatenate` layer requires inputs with matching shapes except "
     r"for the concatenation axis. Received: input_shape=\[\(2, 3\), \(3, 4\)\]"),
    # callbacks: Keras raises AttributeError ("'NoneType' object has no
    # attribute 'endswith'"), NotADirectoryError; LambdaCallback(5) fails
    # only in fit ("'int' object is not callable")
    ("model_checkpoint_none", lambda: keras.callbacks.ModelCheckpoint(None),
     TypeError, "ModelCheckpoint: argument `filepath` must be a string or a path. "
     "Received: filepath=None"),
    ("model_checkpoint_under_a_file", lambda: _checkpoint_under_a_file(), ValueError,
     r"ModelCheckpoint cannot write '.*a_file.m.keras': '.*a_file' is a file, not "
     "a folder"),
    ("lambda_callback_not_callable",
     lambda: keras.callbacks.LambdaCallback(on_epoch_end=5), TypeError,
     r"LambdaCallback: argument `on_epoch_end` must be a function \(or None\). "
     "Received: on_epoch_end=5"),
    # Keras: "'NoneType' object is not callable" (a functional model); for a
    # Sequential one Keras's "Only instances of `keras.Layer` can be added"
    ("clone_function_returns_none",
     lambda: keras.models.clone_model(_functional(), clone_function=lambda layer: None),
     ValueError, r"Expected `clone_function` to return a layer .* for layer "
     "'dense.*'. Received: None"),
    ("clone_function_returns_none_sequential",
     lambda: keras.models.clone_model(keras.Sequential([keras.Input((3,)),
                                                        layers.Dense(2)]),
                                      clone_function=lambda layer: None),
     ValueError, "Expected `clone_function` to return a layer"),
    # Keras: "Cannot convert '(-1, 3)' to a shape. Negative dimensions are
    # not allowed."; kerasmini names the layer and the weight
    ("add_weight_negative_shape",
     lambda: layers.Layer(name="custom").add_weight(shape=(-1, 3), name="w"),
     ValueError, r"Layer 'custom': the shape of weight 'w' must be a tuple of "
     r"non-negative integers; negative dimensions are not allowed. Received: "
     r"shape=\(-1, 3\)"),
    ("add_weight_negative_shape_in_build",
     lambda: NegativeWeight()(np.ones((2, 3))), ValueError,
     r"Layer 'negative_weight.*': the shape of a weight must be a tuple of "
     "non-negative integers"),
    # Keras returns the string eagerly; symbolically its words (the error
    # encountered: "'str' object has no attribute 'shape'")
    ("layer_returns_string", lambda: ReturnsString()(np.ones((2, 3))), TypeError,
     r"Layer 'returns_string.*' \(of type ReturnsString\): `call` must return "
     r"tensors of numbers .* Received: 'abc' \(of type str\)"),
    ("layer_returns_string_symbolic", lambda: ReturnsString()(keras.Input((3,))),
     ValueError, "(?s)Could not automatically infer the output shape / dtype of "
     r"'returns_string.*'.*`call` returned 'abc' \(of type str\), not a tensor"),
    # silently accepted before. CSVLogger: Keras fails in fit with TypeError
    # ("expected str, bytes or os.PathLike object, not NoneType")
    ("csv_logger_none", lambda: keras.callbacks.CSVLogger(None), TypeError,
     "CSVLogger: argument `filename` must be a string or a path. Received: "
     "filename=None"),
    # as Keras
    ("fit_empty_generator", lambda: _compiled_with().fit(_no_batches(), verbose=0),
     ValueError, "the generator must yield at least one batch. Received an empty "
     "generator"),
    ("predict_empty_generator",
     lambda: _compiled_with().predict(_no_batches(), verbose=0), ValueError,
     "Received an empty generator"),
    # Keras fails later with "The input 'keras_tensor_40' is not optional"
    ("fit_empty_py_dataset", lambda: _compiled_with().fit(_Batches(0), verbose=0),
     ValueError, "A PyDataset must have at least one batch. Received: x of type "
     r"_Batches, with len\(x\)=0"),
    # as Keras (both sources)
    ("fit_py_dataset_four_items",
     lambda: _compiled_with().fit(_Batches(2, items=4), verbose=0), ValueError,
     r"PyDataset.__getitem__\(\) must return a tuple or a dict. If a tuple, it "
     r"must be ordered either \(input,\) or \(inputs, targets\) or \(inputs, "
     r"targets, sample_weights\). Received: a tuple of 4 items"),
    ("fit_generator_four_items",
     lambda: _compiled_with().fit(iter([_Batches(1, items=4)[0]]), verbose=0),
     ValueError, r"Data is expected to be in format `x`, `\(x,\)`, `\(x, y\)`, or "
     r"`\(x, y, sample_weight\)`, found: a tuple of 4 items"),
    # Keras fails in fit: "range() arg 3 must not be zero"
    ("compile_steps_per_execution_zero",
     lambda: _compiled_with(steps_per_execution=0), ValueError,
     "Argument `steps_per_execution` must be an integer >= 1. Received: "
     "steps_per_execution=0"),
]

SEQ = np.zeros((2, 5, 3), "float32")
STATE = np.zeros((2, 4), "float32")


def _built(layer):
    layer(SEQ)
    return layer


def _called_twice(layer, bad_inputs):
    layer([np.ones(np.shape(bad_inputs[0]))] * 2)  # built on good inputs
    return layer(bad_inputs)


def _functional():
    x = keras.Input((3,))
    return keras.Model(x, layers.Dense(2)(layers.Dense(4)(x)))


def _checkpoint_under_a_file():
    import tempfile
    blocker = os.path.join(tempfile.mkdtemp(), "a_file")
    open(blocker, "w").close()
    callback = keras.callbacks.ModelCheckpoint(os.path.join(blocker, "m.keras"))
    _compiled_with().fit(X, np.zeros((6, 3)), callbacks=[callback], verbose=0)


class NegativeWeight(layers.Layer):
    def build(self, input_shape):
        self.add_weight(shape=(-1, input_shape[-1]))

    def call(self, x):
        return x


class ReturnsString(layers.Layer):
    def call(self, x):
        return "abc"


def _no_batches():
    yield from ()


class _Batches(keras.utils.PyDataset):
    def __init__(self, count, items=2):
        super().__init__()
        self.count, self.items = count, items

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        return (X, np.zeros((6, 3)), np.ones(6), np.ones(6))[:self.items]


def _loss_fit(loss, y):
    model = classifier()
    model.compile("sgd", loss)
    return model.fit(X, y, verbose=0)


def _compiled_with(**kwargs):
    model = keras.Sequential([keras.Input((4,)), layers.Dense(3)])
    model.compile("sgd", "mse", **kwargs)
    return model


@pytest.mark.parametrize("run, error, phrase", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input_raises_a_clear_error_from_kerasmini(run, error, phrase):
    with pytest.raises(error, match=phrase) as excinfo:
        run()
    assert type(excinfo.value) is error
    assert_raised_by_kerasmini(excinfo)


def test_the_checks_run_on_every_batch_of_a_traced_fit():
    # the bad label is in the third batch: the traced step replays a check
    labels = np.array([0, 1, 2, 0, 1, 7])
    with pytest.raises(ValueError, match="Received: 7"):
        classifier().fit(X, labels, batch_size=2, shuffle=False, verbose=0)


def test_good_labels_still_train():
    history = classifier().fit(X, Y.astype("float32"), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_predict_on_zero_rows_returns_an_empty_result_of_the_right_shape():
    model = classifier()
    assert model.predict(np.zeros((0, 4)), verbose=0).shape == (0, 3)
    assert model.predict_on_batch(np.zeros((0, 4))).shape == (0, 3)


def test_nested_lists_of_numbers_are_data():
    model = classifier()
    assert model.predict([[1.0, 2.0, 3.0, 4.0]], verbose=0).shape == (1, 3)
    history = model.fit([[1.0, 2.0, 3.0, 4.0]] * 6, list(Y), sample_weight=[1] * 6,
                        verbose=0)
    assert len(history.history["loss"]) == 1


def test_a_metric_of_none_is_no_metric():
    model = classifier()
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=[None, "acc"])
    history = model.fit(X, Y, verbose=0)
    assert sorted(history.history) == ["acc", "loss"]


def test_empty_inputs_to_a_softmax_give_an_empty_output():
    assert layers.Activation("softmax")(np.zeros((2, 0), "float32")).shape == (2, 0)


def test_integral_floats_are_embedding_indices():
    out = layers.Embedding(10, 2)(np.array([[1.0, 9.0]], "float32"))
    assert out.shape == (1, 2, 2)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64",
                                   "float32", "float64"])
def test_label_check_takes_good_labels_and_names_the_first_bad_one(dtype):
    from kerasmini.backend.checks import checked_indices

    good = np.array([[0, 2], [1, 2]], dtype=dtype)[:, ::-1]  # not contiguous
    np.testing.assert_array_equal(checked_indices(good, size=3, what="Labels"),
                                  good.astype("int64"))
    assert checked_indices(good, size=3, what="Labels").dtype == np.int64
    bad_values = [3, 100] + ([-1] if dtype[0] in "if" else [])
    for bad in bad_values:
        labels = np.array([0, bad, 1]).astype(dtype)
        with pytest.raises(ValueError, match=rf"Labels must be integers in \[0, 3\)\. "
                                             rf"Received: {bad} \(in an array"):
            checked_indices(labels, size=3, what="Labels")
