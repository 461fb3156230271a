"""The layers, losses, metrics, optimizers and dtype policies of issue 24
give real Keras 3.15.1's numbers and facts.

The scenarios below are written once and run twice: here with kerasmini, and
by real Keras in a subprocess (``KERASMINI_REAL_KERAS_PYTHON``, as ``make
interop`` sets it; without it the comparisons are skipped). Both sides set
the same weights from a seeded NumPy generator, so every output, weight
path, shape, parameter count and config must agree: arrays to 1e-5, the rest
exactly, except the differences declared in ``DIFFERENCES`` (each with its
reason). Gradients are compared through one SGD step (Keras differentiates
with torch's autograd, kerasmini with its own tape).
"""

import json
import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini as keras
from kerasmini import layers

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")

SCENARIOS = textwrap.dedent('''
    import json

    def numpy(x):
        return np.asarray(keras.ops.convert_to_numpy(x))

    def set_weights(layers_, seed, scale=0.5):
        """The same weights on both sides, whatever the initializers."""
        rng = np.random.default_rng(seed)
        for layer in layers_:
            layer.set_weights([rng.normal(scale=scale, size=w.shape).astype(
                "float32") for w in layer.get_weights()])

    def data(seed, *shape):
        return np.random.default_rng(seed).normal(size=shape).astype("float32")

    def facts(layer, out, key):
        """What a layer says about itself: weight paths and shapes, the
        parameter count, its config (a JSON string)."""
        out[key + "#paths"] = [w.path for w in layer.weights]
        out[key + "#shapes"] = [list(w.shape) for w in layer.weights]
        out[key + "#params"] = layer.count_params()
        config = layer.get_config()
        config.pop("dtype", None)
        out[key + "#config"] = json.dumps(config, sort_keys=True, default=str)

    def run_layers(makes, x, out, seed=0):
        for name, make in makes.items():
            keras.backend.clear_session() if hasattr(keras.backend,
                                                     "clear_session") else None
            layer = make()
            layer.build(x.shape)
            set_weights([layer], seed)
            y = layer(x)
            for i, value in enumerate(y if isinstance(y, (list, tuple)) else [y]):
                out[f"{name}/y{i}"] = numpy(value)
            facts(layer, out, name)
        return out

    def conv_family():
        image, sequence = data(1, 2, 7, 6, 3), data(2, 2, 9, 3)
        volume = data(3, 2, 4, 5, 6, 2)
        out = {}
        run_layers({
            "separable2d": lambda: layers.SeparableConv2D(
                4, 3, strides=2, padding="same", depth_multiplier=2,
                activation="relu"),
            "separable2d_dilated": lambda: layers.SeparableConv2D(
                3, (2, 3), dilation_rate=2),
            "depthwise2d": lambda: layers.DepthwiseConv2D(
                3, strides=(1, 2), depth_multiplier=2),
            "depthwise2d_same": lambda: layers.DepthwiseConv2D(
                (2, 3), padding="same", use_bias=False),
            "maxpool2d_for_scale": lambda: layers.MaxPooling2D(2, padding="same"),
        }, image, out)
        run_layers({
            "separable1d": lambda: layers.SeparableConv1D(
                4, 3, padding="same", depth_multiplier=3),
            "depthwise1d": lambda: layers.DepthwiseConv1D(3, strides=2),
            "conv1d_transpose": lambda: layers.Conv1DTranspose(
                3, 3, strides=2, padding="same"),
            "conv1d_transpose_valid": lambda: layers.Conv1DTranspose(
                2, 4, strides=3, output_padding=1, activation="tanh"),
            "conv1d_transpose_dilated": lambda: layers.Conv1DTranspose(
                2, 3, dilation_rate=2),
        }, sequence, out)
        run_layers({
            "conv3d": lambda: layers.Conv3D(4, (2, 3, 3), strides=(1, 2, 2),
                                            padding="same"),
            "conv3d_valid": lambda: layers.Conv3D(2, 2, dilation_rate=(1, 2, 1),
                                                  activation="relu"),
            "maxpool3d": lambda: layers.MaxPooling3D(2, padding="same"),
            "avgpool3d": lambda: layers.AveragePooling3D((2, 2, 3), strides=(1, 2, 2),
                                                         padding="same"),
            "avgpool3d_valid": lambda: layers.AveragePooling3D(2),
            "gap3d": lambda: layers.GlobalAveragePooling3D(),
            "gmp3d": lambda: layers.GlobalMaxPooling3D(keepdims=True),
        }, volume, out)
        return out

    def activation_family():
        x = data(4, 3, 5, 4) * 3
        mask = np.random.default_rng(5).random((3, 5, 4)) > 0.3
        out = {}
        run_layers({
            "relu": lambda: layers.ReLU(),
            "relu6": lambda: layers.ReLU(6.0),
            "relu_all": lambda: layers.ReLU(max_value=2.5, negative_slope=0.2,
                                            threshold=0.5),
            "relu_threshold": lambda: layers.ReLU(threshold=1.0),
            "relu_slope_cap": lambda: layers.ReLU(max_value=1.0, negative_slope=0.1),
            "leaky_relu": lambda: layers.LeakyReLU(),
            "leaky_relu_half": lambda: layers.LeakyReLU(negative_slope=0.5),
            "elu": lambda: layers.ELU(alpha=0.7),
            "softmax": lambda: layers.Softmax(),
            "softmax_axes": lambda: layers.Softmax(axis=[1, 2]),
            "softmax_axis1": lambda: layers.Softmax(axis=1),
            "prelu": lambda: layers.PReLU(),
            "prelu_shared": lambda: layers.PReLU(shared_axes=[1]),
            "unit_norm": lambda: layers.UnitNormalization(),
            "unit_norm_axes": lambda: layers.UnitNormalization(axis=(1, 2)),
        }, x, out)
        softmax = layers.Softmax()
        out["softmax_mask/y0"] = numpy(softmax(x, mask=mask))
        out["softmax_mask_float/y0"] = numpy(softmax(x, mask=mask.astype("float32")))
        out["softmax_mask_row/y0"] = numpy(softmax(x, mask=mask[:, :1, :]))
        return out

    def recurrent_family():
        x = data(6, 3, 5, 4)
        mask = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1] * 5], bool)
        out = {}
        for merge in ("concat", "sum", "mul", "ave", None):
            for kind in ("lstm", "gru"):
                make = layers.LSTM if kind == "lstm" else layers.GRU
                layer = layers.Bidirectional(make(3, return_sequences=True),
                                             merge_mode=merge)
                layer.build(x.shape)
                set_weights([layer], 7)
                for masked in (False, True):
                    y = layer(x, mask=mask) if masked else layer(x)
                    for i, v in enumerate(y if isinstance(y, (list, tuple))
                                          else [y]):
                        out[f"bi/{kind}/{merge}/{masked}/y{i}"] = numpy(v)
                facts(layer, out, f"bi/{kind}/{merge}")
        states = layers.Bidirectional(layers.LSTM(2, return_state=True))
        states.build(x.shape)
        set_weights([states], 8)
        initial = [data(9 + i, 3, 2) for i in range(4)]
        for i, v in enumerate(states(x, initial_state=initial)):
            out[f"bi_states/y{i}"] = numpy(v)
        backward = layers.Bidirectional(
            layers.SimpleRNN(3, return_sequences=True),
            backward_layer=layers.GRU(2, return_sequences=True, go_backwards=True,
                                      name="back"))
        backward.build(x.shape)
        set_weights([backward], 10)
        out["bi_backward_layer/y0"] = numpy(backward(x, mask=mask))
        facts(backward, out, "bi_backward_layer")
        frames = data(11, 2, 4, 6, 6, 2)
        frame_mask = np.array([[1, 1, 1, 0], [1, 0, 1, 1]], bool)
        for name, make in {
            "convlstm2d": lambda: layers.ConvLSTM2D(3, 3, padding="same",
                                                    return_sequences=True),
            "convlstm2d_states": lambda: layers.ConvLSTM2D(
                2, (3, 2), strides=(2, 1), return_state=True, go_backwards=True),
        }.items():
            layer = make()
            layer.build(frames.shape)
            set_weights([layer], 12, scale=0.3)
            for masked in (False, True):
                y = layer(frames, mask=frame_mask) if masked else layer(frames)
                for i, v in enumerate(y if isinstance(y, (list, tuple)) else [y]):
                    out[f"{name}/{masked}/y{i}"] = numpy(v)
            facts(layer, out, name)
        clips = data(13, 2, 3, 8, 2)
        run_layers({"convlstm1d": lambda: layers.ConvLSTM1D(2, 3)}, clips, out, 14)
        cubes = data(15, 1, 2, 4, 4, 4, 1)
        run_layers({"convlstm3d": lambda: layers.ConvLSTM3D(2, 2, padding="same")},
                   cubes, out, 16)
        return out

    def one_sgd_step():
        """The gradients of every new layer, through one SGD step."""
        keras.utils.set_random_seed(0)
        frames = keras.Input((3, 6, 6, 1))
        h = layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)(frames)
        h = layers.Conv3D(3, 2, strides=(1, 2, 2))(h)
        h = layers.PReLU(shared_axes=[1, 2, 3])(h)
        h = layers.AveragePooling3D((1, 2, 2), padding="same")(h)
        h = layers.Reshape((2, 2 * 2 * 3))(h)
        h = layers.Conv1DTranspose(4, 2, strides=2)(h)
        h = layers.Bidirectional(layers.LSTM(3, return_sequences=True))(h)
        h = layers.SeparableConv1D(4, 2, depth_multiplier=2)(h)
        h = layers.LeakyReLU()(h)
        h = layers.DepthwiseConv1D(2)(h)
        h = layers.UnitNormalization()(layers.GlobalMaxPooling1D()(h))
        image = keras.Input((6, 6, 2))
        g = layers.SeparableConv2D(3, 3, padding="same")(image)
        g = layers.ReLU(max_value=1.0, negative_slope=0.1)(g)
        g = layers.DepthwiseConv2D(2, depth_multiplier=2)(g)
        g = layers.ELU()(layers.GlobalAveragePooling2D()(g))
        merged = layers.concatenate([h, g])
        out = layers.Softmax()(layers.Dense(3)(merged))
        model = keras.Model([frames, image], out)
        set_weights([layer for layer in model.layers if layer.weights], 17, 0.4)
        model.compile(optimizer=keras.optimizers.SGD(0.5),
                      loss="categorical_crossentropy")
        x = [data(18, 4, 3, 6, 6, 1), data(19, 4, 6, 6, 2)]
        y = np.eye(3, dtype="float32")[[0, 1, 2, 1]]
        result = {"loss": np.asarray(model.evaluate(x, y, verbose=0))}
        model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        for i, w in enumerate(model.get_weights()):
            result[f"weight{i}"] = w
        result["paths"] = [w.path for w in model.weights]
        result["params"] = model.count_params()
        return result

    def losses_and_metrics():
        rng = np.random.default_rng(20)
        p = rng.dirichlet(np.ones(4), size=6).astype("float32")
        q = rng.dirichlet(np.ones(4), size=6).astype("float32")
        q[0, 1] = 0.0
        weights = np.linspace(0.5, 2.0, 6).astype("float32")
        out = {"kld_fn": numpy(keras.losses.kl_divergence(p, q)),
               "kld": numpy(keras.losses.KLDivergence()(p, q)),
               "kld_weighted": numpy(keras.losses.KLDivergence()(p, q, weights)),
               "kld_sum": numpy(keras.losses.KLDivergence(reduction="sum")(p, q)),
               "kld_config": json.dumps(keras.losses.KLDivergence().get_config(),
                                        sort_keys=True)}
        a, b = rng.normal(size=(6, 5)).astype("float32"), rng.normal(
            size=(6, 5)).astype("float32")
        b[2] = 0.0
        metrics = {
            "cosine": (keras.metrics.CosineSimilarity(), (a, b)),
            "cosine_axis0": (keras.metrics.CosineSimilarity(axis=0), (a, b)),
            "kld_metric": (keras.metrics.KLDivergence(), (p, q)),
        }
        labels = rng.integers(0, 4, size=(2, 5, 5))
        predicted = rng.integers(0, 4, size=(2, 5, 5))
        probs = rng.random((2, 5, 5, 4)).astype("float32")
        one_hot = np.eye(4, dtype="float32")[labels]
        metrics.update({
            "mean_iou": (keras.metrics.MeanIoU(4), (labels, predicted)),
            "mean_iou_ignore": (keras.metrics.MeanIoU(4, ignore_class=0),
                                (labels, predicted)),
            "mean_iou_dense": (keras.metrics.MeanIoU(4, sparse_y_pred=False),
                               (labels, probs)),
            "iou": (keras.metrics.IoU(4, target_class_ids=[1, 3]),
                    (labels, predicted)),
            "binary_iou": (keras.metrics.BinaryIoU(threshold=0.4),
                           (labels % 2, probs[..., 0])),
            "one_hot_iou": (keras.metrics.OneHotIoU(4, [0, 2]), (one_hot, probs)),
            "one_hot_mean_iou": (keras.metrics.OneHotMeanIoU(4), (one_hot, probs)),
        })
        for name, (metric, args) in metrics.items():
            metric.update_state(*args)
            metric.update_state(*args[::-1]) if "iou" not in name else None
            out[name] = numpy(metric.result())
            config = metric.get_config()
            out[name + "#config"] = json.dumps(config, sort_keys=True, default=str)
        weighted = keras.metrics.MeanIoU(4, dtype="float32")
        weighted.update_state(labels, predicted,
                              sample_weight=rng.random((2, 5, 5)).astype("float32"))
        out["mean_iou_weighted"] = numpy(weighted.result())
        truncated = keras.metrics.MeanIoU(4)  # int32: fractions truncated
        truncated.update_state(labels, predicted,
                               sample_weight=np.full((2, 5, 5), 1.7, "float32"))
        out["mean_iou_int_weights"] = numpy(truncated.result())
        return out

    def optimizers_and_schedules():
        out = {}
        steps = np.array([0, 1, 3, 7, 10, 15, 26, 40])
        schedules = {
            "polynomial": keras.optimizers.schedules.PolynomialDecay(
                0.1, 10, end_learning_rate=0.01, power=2.0),
            "polynomial_cycle": keras.optimizers.schedules.PolynomialDecay(
                0.1, 10, power=0.5, cycle=True),
            "cosine": keras.optimizers.schedules.CosineDecay(0.1, 20, alpha=0.1),
            "cosine_warmup": keras.optimizers.schedules.CosineDecay(
                0.0, 20, warmup_target=0.2, warmup_steps=5),
            "restarts": keras.optimizers.schedules.CosineDecayRestarts(
                0.1, 4, t_mul=2.0, m_mul=0.5, alpha=0.05),
            "restarts_equal": keras.optimizers.schedules.CosineDecayRestarts(
                0.1, 5, t_mul=1.0),
            "piecewise": keras.optimizers.schedules.PiecewiseConstantDecay(
                [3, 10], [0.1, 0.05, 0.01]),
        }
        for name, schedule in schedules.items():
            out[name] = np.array([float(numpy(schedule(s))) for s in steps])
            out[name + "#config"] = json.dumps(schedule.get_config(), sort_keys=True)
        for name, make in {
            "adamw": lambda: keras.optimizers.AdamW(0.05, weight_decay=0.2),
            "adamw_default": lambda: keras.optimizers.AdamW(),
            "adamw_amsgrad_schedule": lambda: keras.optimizers.AdamW(
                keras.optimizers.schedules.CosineDecay(0.05, 6), amsgrad=True,
                weight_decay=0.1, clipnorm=1.0),
        }.items():
            keras.utils.set_random_seed(0)
            model = keras.Sequential([keras.Input((4,)),
                                      layers.Dense(5, activation="tanh"),
                                      layers.Dense(2)])
            set_weights(model.layers, 21)
            optimizer = make()
            if name == "adamw":
                optimizer.exclude_from_weight_decay(var_names=["bias"])
            model.compile(optimizer=optimizer, loss="mse")
            x, y = data(22, 16, 4), data(23, 16, 2)
            history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False,
                                verbose=0)
            out[name + "/loss"] = np.array(history.history["loss"])
            for i, w in enumerate(model.get_weights()):
                out[f"{name}/w{i}"] = w
            for i, v in enumerate(optimizer.variables):
                out[f"{name}/opt{i}"] = numpy(v)
            config = optimizer.get_config()
            for key in ("use_ema", "ema_momentum", "ema_overwrite_frequency",
                        "loss_scale_factor", "gradient_accumulation_steps"):
                config.pop(key, None)  # Keras-only options, at their defaults
            config.pop("name")
            out[name + "#config"] = json.dumps(config, sort_keys=True, default=str)
        return out

    def mixed_precision():
        out = {}
        keras.mixed_precision.set_global_policy("mixed_float16")
        try:
            policy = keras.mixed_precision.global_policy()
            out["policy"] = [policy.name, policy.compute_dtype, policy.variable_dtype]
            keras.utils.set_random_seed(0)
            model = keras.Sequential([
                keras.Input((6, 6, 1)),
                layers.Conv2D(3, 3, activation="relu"),
                layers.SeparableConv2D(4, 2),
                layers.BatchNormalization(),
                layers.GlobalAveragePooling2D(),
                layers.Dense(5),
                layers.Activation("softmax", dtype="float32")])
            set_weights(model.layers, 24, 0.3)
            variance = model.layers[2].moving_variance  # a variance is positive
            variance.assign(np.abs(numpy(variance)) + 0.5)
            x = data(25, 4, 6, 6, 1)
            y = model(x)
            out["y"] = numpy(y)
            assert np.all(np.isfinite(out["y"]))
            out["dtypes"] = [str(numpy(y).dtype)] + [
                f"{layer.name}:{layer.compute_dtype}/{layer.variable_dtype}"
                for layer in model.layers] + [
                str(w.dtype).replace("torch.", "") for w in model.weights]
            dense = model.layers[4]
            out["dense_output_dtype"] = str(numpy(dense(data(26, 2, 4))).dtype)
            out["dense_config_dtype"] = json.dumps(dense.get_config()["dtype"],
                                                   sort_keys=True)
            model.compile(optimizer=keras.optimizers.SGD(0.1),
                          loss="sparse_categorical_crossentropy")
            labels = np.array([0, 1, 2, 3])
            model.fit(x, labels, batch_size=4, epochs=1, shuffle=False, verbose=0)
            for i, w in enumerate(model.get_weights()):
                out[f"trained{i}"] = w
        finally:
            keras.mixed_precision.set_global_policy("float32")
        return out

    def fresh(scenario):
        """A scenario starts from a clear session: layer names count from 0."""
        def run():
            keras.backend.clear_session()
            return scenario()
        return run

    SCENARIOS = {f.__name__: fresh(f) for f in (
        conv_family, activation_family, recurrent_family, one_sgd_step,
        losses_and_metrics, optimizers_and_schedules, mixed_precision)}

    def flat(result):
        arrays, other = {}, {}
        for key, value in result.items():
            if isinstance(value, (str, list, int)) and not (
                    isinstance(value, list) and value and
                    isinstance(value[0], np.ndarray)):
                other[key] = value
            else:
                arrays[key] = np.asarray(value, "float64")
        return arrays, other
''')

KERAS_SIDE = textwrap.dedent('''
    import sys
    import numpy as np
    import keras
    from keras import layers
''') + SCENARIOS + textwrap.dedent('''
    arrays, facts_ = {}, {}
    for name, scenario in SCENARIOS.items():
        numbers, other = flat(scenario())
        arrays.update({f"{name}:{k}": v for k, v in numbers.items()})
        facts_.update({f"{name}:{k}": v for k, v in other.items()})
    np.savez(sys.argv[1], **arrays)
    with open(sys.argv[2], "w") as f:
        json.dump(facts_, f)
''')

MINE = {"keras": keras, "layers": layers, "np": np}
exec(SCENARIOS, MINE)

# What differs on purpose, and why: (scenario, key) -> the reason.
DIFFERENCES = {
    # Keras 3.15.1's CosineSimilarity.get_config leaves `axis` out, so a
    # metric rebuilt from its config normalises the last axis; kerasmini keeps
    # it (Keras's constructor accepts it back)
    ("losses_and_metrics", "cosine#config"): "axis kept in the config",
    ("losses_and_metrics", "cosine_axis0#config"): "axis kept in the config",
    # "same" average pooling whose padding is uneven (here 2 + 1 along the
    # last axis): Keras's torch backend pads by repeating the edge values and
    # averages them in; its JAX and TensorFlow backends, like kerasmini,
    # average only the real entries of each window
    ("conv_family", "avgpool3d/y0"): "torch backend's replicate padding",
}

# Looser tolerances, and why: scenario -> atol.
TOLERANCES = {
    # a float16 computation: float16 has 11 significant bits (eps ~ 1e-3),
    # and torch and NumPy round its sums in another order; outputs and the
    # weights after one SGD step differ by a few 1e-5
    "mixed_precision": 2e-4,
}


def _config_without_keras_only(text):
    """A config's JSON without the initializer options only Keras 3 has
    (``input_axes``/``output_axes`` of the Glorot and He initializers,
    dropped by kerasmini when it loads them at their default ``None``)."""
    def clean(value):
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()
                    if not (k in ("input_axes", "output_axes") and v is None)}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(json.loads(text))


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("morelayers_keras")
    env = dict(os.environ, KERAS_BACKEND="torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, folder / "out.npz",
                              folder / "facts.json", env=env, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    with open(folder / "facts.json") as f:
        return dict(np.load(folder / "out.npz")), json.load(f)


@needs_keras
@pytest.mark.parametrize("name", list(MINE["SCENARIOS"]))
def test_same_numbers_and_facts_as_keras(keras_results, name):
    arrays, facts = keras_results
    mine_arrays, mine_facts = MINE["flat"](MINE["SCENARIOS"][name]())
    theirs = {k.split(":", 1)[1]: v for k, v in arrays.items()
              if k.startswith(name + ":")}
    their_facts = {k.split(":", 1)[1]: v for k, v in facts.items()
                   if k.startswith(name + ":")}
    assert sorted(mine_arrays) == sorted(theirs)
    assert sorted(mine_facts) == sorted(their_facts)
    for key, value in mine_arrays.items():
        assert value.shape == theirs[key].shape, f"{name}: {key}"
        if (name, key) in DIFFERENCES:
            assert not np.allclose(value, theirs[key], rtol=1e-5, atol=1e-5), (
                f"{name}: {key} no longer differs")
            continue
        atol = TOLERANCES.get(name, 1e-5)
        np.testing.assert_allclose(value, theirs[key], rtol=1e-5, atol=atol,
                                   err_msg=f"{name}: {key}")
    for key, value in mine_facts.items():
        theirs_ = their_facts[key]
        if key.endswith("#config"):
            value, theirs_ = (_config_without_keras_only(value),
                              _config_without_keras_only(theirs_))
        if (name, key) in DIFFERENCES:
            assert value != theirs_, f"{name}: {key} no longer differs"
            continue
        assert value == theirs_, f"{name}: {key}"


def test_the_scenarios_see_what_they_claim():
    """Masks, merge modes, initial states and options change the numbers,
    so the comparisons would catch one that is ignored."""
    recurrent = MINE["recurrent_family"]()
    assert not np.allclose(recurrent["bi/lstm/concat/False/y0"],
                           recurrent["bi/lstm/concat/True/y0"])
    assert not np.allclose(recurrent["bi/gru/sum/False/y0"],
                           recurrent["bi/gru/ave/False/y0"])
    assert not np.allclose(recurrent["convlstm2d/False/y0"],
                           recurrent["convlstm2d/True/y0"])
    activations = MINE["activation_family"]()
    assert not np.allclose(activations["relu_all/y0"], activations["relu/y0"])
    assert not np.allclose(activations["softmax_mask/y0"], activations["softmax/y0"])
