"""Parity scenarios of chapters 9-14: ops, gradients, fit, optimizers, saving.

Gradients are taken the way each library offers them: kerasmini's
``GradientTape``, and in real Keras (torch backend) torch's own autograd.

>>> from parity_registry import CHAPTER
>>> CHAPTER["ch10_dense_gradients"]
10
"""

import io
import json
import os
import tempfile
import zipfile

import numpy as np
from parity_registry import error_of, fresh, scenario, set_known_weights, to_numpy


def gradients(keras, loss_fn, variables):
    """``d loss_fn() / d variables`` as NumPy arrays, in either library."""
    if hasattr(keras, "GradientTape"):  # kerasmini
        with keras.GradientTape() as tape:
            loss = loss_fn()
        return [np.asarray(g) for g in tape.gradient(loss, variables)]
    for v in variables:  # real Keras on torch: its variables are torch Parameters
        v.value.grad = None
    loss_fn().backward()
    return [v.value.grad.detach().cpu().numpy() for v in variables]


def rounded(values, digits=6):
    return np.round(np.asarray(values, dtype="float64"), digits).tolist()


# -- chapter 9: ops, on arrays and on KerasTensors ----------------------------------

@scenario(9, cells=("46b94e28",))
def ch09_ops_on_arrays(keras):
    ops = keras.ops
    a = np.arange(6, dtype="float32").reshape(2, 3) / 4.0
    b = np.linspace(-1.0, 1.0, 12, dtype="float32").reshape(3, 4)
    return {"matmul": rounded(to_numpy(keras, ops.matmul(a, b))),
            "softmax": rounded(to_numpy(keras, ops.softmax(a, axis=-1))),
            "einsum": rounded(to_numpy(keras, ops.einsum("ij,jk->ik", a, b))),
            "sum": rounded(to_numpy(keras, ops.sum(b, axis=0))),
            "relu dtype": str(to_numpy(keras, ops.relu(a)).dtype)}


@scenario(9, cells=("46b94e28",))
def ch09_ops_on_keras_tensors(keras):
    fresh(keras)
    ops = keras.ops
    x = keras.Input(shape=(3,), name="x")
    w = keras.Input(shape=(3, 5), name="w")
    specs = {
        "matmul": ops.matmul(x, ops.ones((3, 5))),
        "batched matmul": ops.matmul(ops.expand_dims(x, 1), w),
        "concatenate": ops.concatenate([x, x], axis=-1),
        "sum": ops.sum(w, axis=1),
        "reshape": ops.reshape(w, (-1, 15)),
        "transpose": ops.transpose(w, (0, 2, 1)),
    }
    return {name: [type(t).__name__, list(t.shape), str(t.dtype)]
            for name, t in specs.items()}


@scenario(9, cells=("e1ff86f4", "40a75627"))
def ch09_ops_between_layers(keras):
    fresh(keras)
    x = keras.Input(shape=(4,), name="x")
    hidden = keras.layers.Dense(3, name="hidden")(x)
    squared = keras.ops.square(hidden)
    out = keras.layers.Dense(1, name="head")(keras.ops.concatenate([hidden, squared]))
    model = keras.Model(x, out)
    set_known_weights(model)
    batch = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    return {"layers": [la.name for la in model.layers],
            "operations": [type(op).__name__ for op in model.operations],
            "Layer is an Operation": issubclass(keras.Layer, keras.Operation),
            "outputs": model.predict(batch, verbose=0).tolist()}


# -- chapter 10: gradients ----------------------------------------------------------

@scenario(10, tol=1e-5, cells=("82f24c03", "29fd8122"))
def ch10_dense_gradients(keras):
    fresh(keras)
    dense = keras.layers.Dense(2, activation="tanh", name="dense")
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
    dense(x)
    set_known_weights(dense)

    def loss():
        return keras.ops.mean(keras.ops.square(dense(x) - 0.5))

    kernel_grad, bias_grad = gradients(keras, loss, [dense.kernel, dense.bias])
    return {"kernel grad": rounded(kernel_grad), "bias grad": rounded(bias_grad),
            "shapes": [list(kernel_grad.shape), list(bias_grad.shape)]}


@scenario(10, tol=1e-5, cells=("1509d25e", "29fd8122"))
def ch10_broadcast_gradient(keras):
    # A (3,) bias added to a (4, 3) batch: its gradient sums over the batch.
    fresh(keras)
    bias = keras.Variable(np.array([0.1, -0.2, 0.3], "float32"), name="bias")
    x = np.arange(12, dtype="float32").reshape(4, 3) / 10.0
    (grad,) = gradients(keras, lambda: keras.ops.sum(keras.ops.square(keras.ops.add(x, bias))),
                        [bias])
    return {"grad": rounded(grad), "shape": list(grad.shape)}


@scenario(10, tol=1e-5)
def ch10_crossentropy_from_logits_gradient(keras):
    fresh(keras)
    logits = keras.Variable(np.array([[2.0, -1.0, 0.5], [0.0, 3.0, -2.0]], "float32"),
                            name="logits")
    labels = np.array([0, 1])
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    (grad,) = gradients(keras, lambda: loss(labels, logits), [logits])
    return {"grad": rounded(grad)}


# -- chapters 11 and 12: compile, fit, optimizers, losses, metrics -------------------

def small_classifier(keras):
    fresh(keras)
    model = keras.Sequential([keras.Input((4,)),
                              keras.layers.Dense(6, activation="relu", name="hidden"),
                              keras.layers.Dense(3, name="logits")])
    set_known_weights(model)
    return model


def classification_data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(24, 4)).astype("float32")
    y = np.argmax(x[:, :3] + 0.5 * x[:, 3:], axis=1)
    return x, y


@scenario(11, tol=1e-4, cells=("c6748994", "10e3dea5"))
def ch11_fit_history(keras):
    model = small_classifier(keras)
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    x, y = classification_data()
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0,
                        validation_data=(x[:8], y[:8]))
    return {"keys": sorted(history.history),
            "loss": [float(v) for v in history.history["loss"]],
            "val_loss": [float(v) for v in history.history["val_loss"]],
            "accuracy": [float(v) for v in history.history["accuracy"]],
            "epochs": history.epoch,
            "iterations": int(np.asarray(to_numpy(keras, model.optimizer.iterations))),
            "evaluate": [float(v) for v in model.evaluate(x, y, verbose=0)]}


@scenario(11, cells=("1b5c1e37", "3dd27d30"))
def ch11_callback_order(keras):
    model = small_classifier(keras)
    model.compile(optimizer="sgd", loss="mse")
    x, y = classification_data()
    calls = []

    class Recorder(keras.callbacks.Callback):
        pass

    for hook in ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
                 "on_train_batch_begin", "on_train_batch_end", "on_test_begin",
                 "on_test_end", "on_test_batch_begin", "on_test_batch_end"):
        setattr(Recorder, hook, lambda self, *args, _h=hook, **kw: calls.append(_h))
    model.fit(x[:16], np.eye(3, dtype="float32")[y[:16]], batch_size=8, epochs=2,
              verbose=0, validation_data=(x[:8], np.eye(3, dtype="float32")[y[:8]]),
              callbacks=[Recorder()])
    return {"calls": calls}


@scenario(11, tol=1e-5, cells=("2b4df955", "9fa41505"))
def ch11_frozen_layer(keras):
    model = small_classifier(keras)
    model.get_layer("hidden").trainable = False
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    before = [to_numpy(keras, w).copy() for w in model.get_layer("hidden").weights]
    x, y = classification_data()
    model.fit(x, np.eye(3, dtype="float32")[y], batch_size=8, epochs=2, verbose=0)
    after = [to_numpy(keras, w) for w in model.get_layer("hidden").weights]
    return {"trainable": [w.path for w in model.trainable_weights],
            "non-trainable": [w.path for w in model.non_trainable_weights],
            "frozen unchanged": all(np.array_equal(a, b) for a, b in zip(before, after)),
            "optimizer variables": len(model.optimizer.variables)}


@scenario(11, cells=("ch11-built-at-train-begin",))
def ch11_built_before_the_first_batch(keras):
    fresh(keras)
    model = keras.Sequential([keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    seen = {"after compile": [model.built, model.optimizer.built]}

    class Look(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            optimizer = self.model.optimizer
            seen["on_train_begin"] = [
                self.model.built, optimizer.built, len(optimizer.variables),
                int(np.asarray(to_numpy(keras, optimizer.iterations)))]

    x, y = classification_data()
    model.fit(x, y[:, None].astype("float32"), epochs=1, verbose=0,
              callbacks=[Look()])
    return seen


@scenario(11, tol=1e-5, cells=("ch11-evaluate-predict-hooks",))
def ch11_evaluate_and_predict_loops(keras):
    model = small_classifier(keras)
    model.compile(optimizer="sgd",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = classification_data()
    calls = []

    class Recorder(keras.callbacks.Callback):
        pass

    for hook in ("on_test_begin", "on_test_end", "on_test_batch_begin",
                 "on_test_batch_end", "on_predict_begin", "on_predict_end",
                 "on_predict_batch_begin", "on_predict_batch_end"):
        setattr(Recorder, hook, lambda self, *args, _h=hook, **kw: calls.append(
            [_h] + [a for a in args[:1] if isinstance(a, int)]))
    results = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True,
                             callbacks=[Recorder()])
    predictions = model.predict(x[:5], verbose=0, callbacks=[Recorder()])
    return {"calls": calls, "keys": sorted(results),
            "loss": float(results["loss"]), "predictions": list(predictions.shape),
            "optimizer built by evaluate": model.optimizer.built}


@scenario(11, known={"steps_per_execution=4": "Keras 3's torch trainer refuses "
                     "more than one step per call (its make_train_function); "
                     "kerasmini loops over them inside the traced function, as "
                     "the TensorFlow and JAX trainers do"},
          cells=("ch11-steps-per-execution",))
def ch11_steps_per_execution(keras):
    model = small_classifier(keras)
    model.compile(optimizer="sgd", steps_per_execution=4,
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = classification_data()
    ends = []

    class Ends(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            ends.append(batch)

    error = error_of(lambda: model.fit(x, y, batch_size=4, epochs=1, shuffle=False,
                                       verbose=0, callbacks=[Ends()]))
    return {"compiled steps_per_execution": model.steps_per_execution,
            "steps_per_execution=4": [error, ends]}


@scenario(12, tol=1e-5, known={"config keys": "kerasmini's optimizers leave out "
                                "Keras 3's EMA, gradient accumulation and loss "
                                "scaling, and their config keys"},
          cells=("d31d36ea", "b2e85897", "8ec98359"))
def ch12_adam_slots(keras):
    fresh(keras)
    kernel = keras.Variable(np.ones((2, 2), "float32"), name="kernel")
    optimizer = keras.optimizers.Adam(learning_rate=0.1)
    grad = keras.ops.convert_to_tensor(np.array([[0.5, -1.0], [2.0, 0.0]], "float32"))
    optimizer.apply_gradients([(grad, kernel)])
    optimizer.apply_gradients([(grad, kernel)])
    return {"variables": len(optimizer.variables),
            "iterations": int(np.asarray(to_numpy(keras, optimizer.iterations))),
            "kernel": rounded(to_numpy(keras, kernel)),
            "config keys": sorted(optimizer.get_config()),
            "core config": all(key in optimizer.get_config() for key in (
                "name", "learning_rate", "beta_1", "beta_2", "epsilon", "amsgrad",
                "weight_decay", "clipnorm", "clipvalue", "global_clipnorm"))}


@scenario(12, tol=1e-5, cells=("c7c0871d", "639e38ac"))
def ch12_losses(keras):
    labels = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], "float32")
    logits = np.array([[1.0, 2.0, -1.0], [60.0, -60.0, 0.0]], "float32")
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    losses = keras.losses
    return {
        "from logits": float(to_numpy(keras, losses.CategoricalCrossentropy(
            from_logits=True)(labels, logits))),
        "from probabilities": float(to_numpy(keras, losses.CategoricalCrossentropy()(
            labels, probs))),
        "binary from logits": float(to_numpy(keras, losses.BinaryCrossentropy(
            from_logits=True)(labels, logits))),
        "mse": float(to_numpy(keras, losses.MeanSquaredError()(labels, probs))),
        "names": [losses.get("mse").__name__ if hasattr(losses.get("mse"), "__name__")
                  else type(losses.get("mse")).__name__],
    }


@scenario(12, tol=1e-6, cells=("42506843", "15d193a7"))
def ch12_stateful_metrics(keras):
    metrics = keras.metrics
    accuracy = metrics.SparseCategoricalAccuracy()
    accuracy.update_state(np.array([0, 1]), np.array([[0.9, 0.1], [0.8, 0.2]]))
    first = float(to_numpy(keras, accuracy.result()))
    accuracy.update_state(np.array([1, 1]), np.array([[0.1, 0.9], [0.3, 0.7]]))
    second = float(to_numpy(keras, accuracy.result()))
    accuracy.reset_state()
    mean = metrics.Mean()
    mean.update_state(np.array([1.0, 2.0, 3.0]), sample_weight=np.array([1.0, 0.0, 1.0]))
    return {"after 2": first, "after 4": second,
            "after reset": float(to_numpy(keras, accuracy.result())),
            "variables": len(accuracy.variables),
            "weighted mean": float(to_numpy(keras, mean.result()))}


@scenario(12, cells=("666abf4e",))
def ch12_add_loss(keras):
    fresh(keras)

    class Penalised(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(0.5 * keras.ops.sum(keras.ops.square(inputs)))
            return inputs

    layer = Penalised()
    layer(np.array([[1.0, 2.0]], "float32"))
    first = [float(to_numpy(keras, v)) for v in layer.losses]
    layer(np.array([[3.0, 0.0]], "float32"))
    return {"after one call": first,
            "after two calls": [float(to_numpy(keras, v)) for v in layer.losses]}



@scenario(12, tol=1e-6, cells=("ch12-clip-decay-run",))
def ch12_clipping_and_weight_decay(keras):
    fresh(keras)
    updated = {}
    for label, options in (("plain", {}), ("clipnorm", {"clipnorm": 1.0}),
                           ("clipvalue", {"clipvalue": 1.0}),
                           ("global_clipnorm", {"global_clipnorm": 1.0}),
                           ("weight_decay", {"weight_decay": 0.5})):
        w = keras.Variable(np.array([3.0, 4.0], "float32"), name="w")
        gradient = keras.ops.convert_to_tensor(np.array([3.0, 4.0], "float32"))
        keras.optimizers.SGD(learning_rate=0.1, **options).apply_gradients(
            [(gradient, w)])
        updated[label] = rounded(to_numpy(keras, w))
    return updated


@scenario(12, cells=("ch12-minimize", "d31d36ea"))
def ch12_slots_on_the_first_apply(keras):
    model = small_classifier(keras)
    adam = keras.optimizers.Adam(0.01)
    x, _ = classification_data()
    weights = model.trainable_weights
    seen = {"before": len(adam.variables), "after each step": []}
    for _ in range(2):
        grads = gradients(keras, lambda: keras.ops.mean(keras.ops.square(model(x))),
                          weights)
        adam.apply_gradients(zip([keras.ops.convert_to_tensor(g) for g in grads],
                                 weights))
        seen["after each step"].append(len(adam.variables))
    seen["iterations"] = int(np.asarray(to_numpy(keras, adam.iterations)))
    return seen

# -- chapter 13: saving --------------------------------------------------------------

@scenario(13, cells=("cb25bb20", "03b05f91", "3fdfe5b7"))
def ch13_configs(keras):
    fresh(keras)
    dense = keras.layers.Dense(3, activation="relu", name="dense")
    envelope = keras.saving.serialize_keras_object(dense)
    clone = keras.layers.Dense.from_config(dense.get_config())
    return {"envelope keys": sorted(envelope),
            "class_name": envelope["class_name"], "module": envelope["module"],
            "activation": dense.get_config()["activation"],
            "clone": [type(clone).__name__, clone.name, clone.units]}


@scenario(13, cells=("61304083", "94d7fb48", "ab346d80"))
def ch13_registry(keras):
    fresh(keras)

    @keras.saving.register_keras_serializable(package="Book")
    class Doubler(keras.layers.Layer):
        def call(self, inputs):
            return inputs * 2.0

    return {"registered name": keras.saving.get_registered_name(Doubler),
            "found": keras.saving.get_registered_object("Book>Doubler") is Doubler,
            "serialized": keras.saving.serialize_keras_object(Doubler())["registered_name"]}


def archive_contents(keras, model):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.keras")
        model.save(path)
        with zipfile.ZipFile(path) as archive:
            names = sorted(archive.namelist())
            config = json.loads(archive.read("config.json"))
            metadata = json.loads(archive.read("metadata.json"))
            weights = archive.read("model.weights.h5")
        return names, config, metadata, weights


@scenario(13, cells=("15cfbecd", "76c9d7a8", "305b8e26"))
def ch13_inside_a_keras_file(keras):
    fresh(keras)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="hidden"),
                              keras.layers.Dense(1, name="head")], name="tiny")
    names, config, metadata, weights = archive_contents(keras, model)
    import h5py

    groups = []
    with h5py.File(io.BytesIO(weights), "r") as store:
        store.visit(groups.append)
    return {"files": names, "config keys": sorted(config),
            "class_name": config["class_name"],
            "metadata keys": sorted(set(metadata) - {"date_saved"}),
            "h5 paths": sorted(groups)}


@scenario(13, cells=("22f66450",))
def ch13_safe_mode(keras):
    fresh(keras)
    x = keras.Input((2,))
    model = keras.Model(x, keras.layers.Lambda(lambda t: t * 2.0)(x))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "lambda.keras")
        model.save(path)
        return {"safe load": error_of(lambda: keras.saving.load_model(path))}


# -- chapter 14: the capstone CNN ----------------------------------------------------

@scenario(14, tol=1e-5, cells=("f48ea921", "3c58475d"))
def ch14_cnn(keras):
    fresh(keras)
    model = keras.Sequential([
        keras.Input((8, 8, 1)),
        keras.layers.Conv2D(8, 3, activation="relu", name="conv"),
        keras.layers.MaxPooling2D(2, name="pool"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(10, activation="softmax", name="classes"),
    ], name="digits_cnn")
    set_known_weights(model)
    batch = (np.arange(2 * 64, dtype="float32").reshape(2, 8, 8, 1) % 17) / 16.0
    return {"shapes": [list(la.output.shape) for la in model.layers],
            "params": [la.count_params() for la in model.layers],
            "weights": [w.path for w in model.weights],
            "outputs": rounded(model.predict(batch, verbose=0))}
