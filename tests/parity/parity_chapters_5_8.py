"""Parity scenarios of chapters 5-8: call modes, nodes, Functional, Model.

>>> from parity_registry import CHAPTER
>>> CHAPTER["ch08_cross_loading"]
8
"""

import itertools
import os

import numpy as np
from parity_registry import (
    error_of,
    fresh,
    functional_class,
    history,
    scenario,
    set_known_weights,
    summary_figures,
    to_numpy,
)

# -- chapter 5: eager, symbolic and training calls -------------------------------------

@scenario(5, cells=("e030547c", "c0020534"))
def ch05_eager_and_symbolic(keras):
    fresh(keras)
    dense = keras.layers.Dense(3, name="dense")
    x = np.arange(8, dtype="float32").reshape(2, 4)
    y = dense(x)
    seen = {"eager shape": list(y.shape), "eager dtype": str(y.dtype).split(".")[-1],
            "nodes after eager": len(dense._inbound_nodes)}
    features = keras.Input(shape=(4,), name="features")
    out = dense(features)
    seen.update({"symbolic type": type(out).__name__, "symbolic shape": list(out.shape),
                 "history": history(out), "nodes": len(dense._inbound_nodes)})
    return seen


@scenario(5, cells=("936ee2f8",))
def ch05_symbolic_custom_layer(keras):
    # A layer without compute_output_shape: both libraries infer the output by
    # running call on stand-ins (which ones differs: not observed here).
    fresh(keras)

    class Twice(keras.Layer):
        def call(self, inputs):
            return inputs * 2.0

    features = keras.Input(shape=(4,), name="features")
    twice = Twice(name="twice")
    doubled = twice(features)
    eager = twice(np.ones((2, 4), dtype="float32"))
    return {"symbolic": [type(doubled).__name__, list(doubled.shape), doubled.dtype],
            "history": history(doubled), "nodes": len(twice._inbound_nodes),
            "eager": to_numpy(keras, eager).tolist(), "built": twice.built}


@scenario(5, cells=("54b0930c", "51a9b461"))
def ch05_python_list_input(keras):
    # Both refuse Python numbers as a layer's input: arrays only.
    fresh(keras)
    dense = keras.layers.Dense(3, name="dense")
    return {"nested list": error_of(lambda: dense([[1.0, 2.0, 3.0, 4.0]])),
            "scalar": error_of(lambda: dense(3.0)),
            "array": list(dense(np.ones((1, 4), "float32")).shape)}


@scenario(5, cells=("ff44c7f4", "f69d5bc8", "5656e18a", "be97c3c5"))
def ch05_training_flag_propagates(keras):
    fresh(keras)
    log = []

    class LoggedDropout(keras.layers.Dropout):
        def call(self, inputs, training=False):
            if inputs.shape[0] == 2:  # real batches only, not shape-inference runs
                log.append([self.name, bool(training)])
            return super().call(inputs, training=training)

    class Block(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = keras.layers.Dense(4, kernel_initializer="ones", name="dense")
            self.dropout = LoggedDropout(0.5, name="inner")

        def call(self, inputs, training=None):
            log.append([self.name, training])
            return self.dropout(self.dense(inputs))

    block = Block(name="block")
    ones = np.ones((2, 2), dtype="float32")
    block(ones)  # as in the book: the first call builds, then the log restarts
    log.clear()
    block(ones, training=True)
    block(ones)
    first = list(log)
    log.clear()
    model = keras.Sequential([keras.Input((2,)), Block(name="block2")])
    log.clear()
    model(ones, training=True)
    model.predict(ones, verbose=0)
    return {"log": first, "in a model": log}


# -- chapter 6: KerasTensor and Node ---------------------------------------------------

@scenario(6, cells=("cd443346", "bf0c5340", "dc1e5cc3", "b9a5a99f"))
def ch06_keras_tensor(keras):
    fresh(keras)
    x = keras.Input(shape=(4,), name="x")
    layer, node_index, _ = x._keras_history
    node = layer._inbound_nodes[node_index]
    return {"shape": list(x.shape), "dtype": x.dtype, "ndim": x.ndim, "name": x.name,
            "history": history(x), "input layer": type(layer).__name__,
            "node is_input": node.is_input, "node output is x": node.outputs[0] is x,
            "np.asarray": error_of(lambda: np.asarray(x) + 0)}


@scenario(6, known={"iterate_inbound": "chapter 6's table: Keras 3's Node has no "
                                       "iterate_inbound (use parent_nodes)"},
          cells=("5aed0316", "809fb67d", "ca6259f0", "8624cb10"))
def ch06_shared_layer_nodes(keras):
    fresh(keras)
    x = keras.Input(shape=(4,), name="x")
    dense = keras.layers.Dense(3, name="dense")
    h = dense(x)
    a = keras.Input(shape=(4,), name="a")
    b = keras.Input(shape=(4,), name="b")
    shared = keras.layers.Dense(3, name="shared")
    ya, yb = shared(a), shared(b)
    total = keras.layers.Add(name="add")([ya, yb])
    add_node = total._keras_history[0]._inbound_nodes[0]
    return {"h": history(h), "ya": history(ya), "yb": history(yb),
            "total": history(total),
            "shared inbound": len(shared._inbound_nodes),
            "shared outbound": len(shared._outbound_nodes),
            "input outbound": len(x._keras_history[0]._outbound_nodes),
            "output": shared._inbound_nodes[1].output_tensors[0] is yb,
            "add inputs": [t.name for t in add_node.input_tensors],
            "add parents": [n.operation.name for n in add_node.parent_nodes],
            "iterate_inbound": hasattr(add_node, "iterate_inbound"),
            "node inputs": len(dense._inbound_nodes[0].input_tensors),
            "node outputs": len(dense._inbound_nodes[0].output_tensors)}


@scenario(6, known={"get_output_at": "chapter 6 teaches Keras 2's "
                   "Layer.get_output_at/get_input_at, which kerasmini keeps; "
                   "Keras 3 removed them"}, cells=("acbd20bb",))
def ch06_get_output_at(keras):
    fresh(keras)
    a, b = keras.Input(shape=(4,), name="a"), keras.Input(shape=(4,), name="b")
    shared = keras.layers.Dense(3, name="shared")
    ya, yb = shared(a), shared(b)
    nodes = shared._inbound_nodes
    return {"get_output_at": hasattr(shared, "get_output_at"),
            "node outputs": [nodes[0].output_tensors[0] is ya,
                             nodes[1].output_tensors[0] is yb],
            "node 1 input": nodes[1].input_tensors[0] is b,
            "output of a shared layer": error_of(lambda: shared.output)}


@scenario(6, cells=("f8269361",))
def ch06_two_outputs(keras):
    fresh(keras)

    class Split(keras.Layer):
        def call(self, inputs):
            half = inputs.shape[-1] // 2
            return [inputs[..., :half], inputs[..., half:]]

    x = keras.Input(shape=(4,), name="x")
    left, right = Split(name="split")(x)
    return {"left": [list(left.shape), history(left)],
            "right": [list(right.shape), history(right)]}


# -- chapter 7: Functional ---------------------------------------------------------------

def diamond(keras):
    x = keras.Input(shape=(4,), name="x")
    left = keras.layers.Dense(3, name="left")(x)
    right = keras.layers.Dense(3, name="right")(x)
    right2 = keras.layers.Dense(3, name="right2")(right)
    merged = keras.layers.Add(name="add")([left, right2])
    joined = keras.layers.Concatenate(name="concat")([merged, x])
    out = keras.layers.Dense(1, name="out")(joined)
    return keras.Model(x, out, name="diamond")


@scenario(7, cells=("e82c08a6", "e8793f01"))
def ch07_diamond_graph(keras):
    fresh(keras)
    model = diamond(keras)
    depths = {str(d): sorted(n.operation.name for n in ns)
              for d, ns in model._nodes_by_depth.items()}
    return {"type": type(model).__name__, "layers": [la.name for la in model.layers],
            "depths": depths, "weights": [w.path for w in model.weights],
            "params": model.count_params(), "summary": summary_figures(model),
            "output_shape": list(model.output_shape),
            "input names": [t.name for t in model.inputs]}


@scenario(7, cells=("5d9b8e58",))
def ch07_diamond_outputs(keras):
    fresh(keras)
    model = diamond(keras)
    set_known_weights(model)
    batch = np.arange(8, dtype="float32").reshape(2, 4) / 8
    return {"call": to_numpy(keras, model(batch)).tolist(),
            "predict": model.predict(batch, verbose=0).tolist()}


@scenario(7, cells=("eb5e175a",))
def ch07_nested_model(keras):
    fresh(keras)
    encoder_in = keras.Input(shape=(3,), name="encoder_in")
    encoder = keras.Model(encoder_in, keras.layers.Dense(2, name="code")(encoder_in),
                          name="encoder")
    z = keras.Input(shape=(5,), name="z")
    code = encoder(keras.layers.Dense(3, name="hidden")(z))
    outer = keras.Model(z, code, name="outer")
    return {"layers": [la.name for la in outer.layers],
            "encoder nodes": len(encoder._inbound_nodes),
            "weights": [w.path for w in outer.weights],
            "code history": history(code), "summary": summary_figures(outer)}


@scenario(7, cells=("c115ceed", "65493944", "cc79bd34"))
def ch07_dicts_and_lists(keras):
    fresh(keras)
    title = keras.Input(shape=(2,), name="title")
    body = keras.Input(shape=(3,), name="body")
    features = keras.layers.Concatenate(name="features")([title, body])
    priority = keras.layers.Dense(1, name="priority")(features)
    department = keras.layers.Dense(4, activation="softmax", name="department")(features)
    tickets = keras.Model({"title": title, "body": body},
                          {"priority": priority, "department": department})
    result = tickets({"title": np.ones((1, 2), dtype="float32"),
                      "body": np.zeros((1, 3), dtype="float32")})
    pair = keras.Model([title, body], [priority, department], name="pair")
    first, second = pair([np.ones((1, 2), dtype="float32"),
                          np.zeros((1, 3), dtype="float32")])
    return {"dict keys": sorted(result), "shapes": [list(first.shape), list(second.shape)],
            "output names": pair.output_names,
            "disconnected": error_of(lambda: keras.Model(title, priority))}


@scenario(7, cells=("ch07-extractor",))
def ch07_feature_extractor(keras):
    fresh(keras)
    model = diamond(keras)
    sub = keras.Model(model.inputs, model.get_layer("add").output)
    set_known_weights(model)
    batch = np.linspace(0, 1, 8, dtype="float32").reshape(2, 4)
    return {"layers": [la.name for la in sub.layers],
            "output_shape": list(sub.output_shape),
            "shares weights": sub.get_layer("left").kernel is
            model.get_layer("left").kernel,
            "outputs": sub.predict(batch, verbose=0).tolist(),
            "unknown layer": error_of(lambda: model.get_layer("nope"))}


@scenario(7, known={"input_names": "chapter 7 prints Keras 2's "
                   "Model.input_names, which kerasmini keeps; Keras 3's "
                   "Functional has no such attribute"}, cells=("65493944",))
def ch07_input_names(keras):
    fresh(keras)
    title = keras.Input(shape=(2,), name="title")
    body = keras.Input(shape=(3,), name="body")
    out = keras.layers.Dense(1, name="priority")(
        keras.layers.Concatenate()([title, body]))
    model = keras.Model([title, body], out)
    return {"input_names": hasattr(model, "input_names"),
            "input tensor names": [t.name for t in model.inputs],
            "input layer names": [model.get_layer(n).name for n in ("title", "body")]}


@scenario(7, cells=("499a1fbe",))
def ch07_duplicate_names(keras):
    fresh(keras)
    t = keras.Input(shape=(2,), name="t")
    first = keras.layers.Dense(2, name="twin")(t)
    second = keras.layers.Dense(2, name="twin")(first)
    return {"error": error_of(lambda: keras.Model(t, second))}


@scenario(7, known={"quantization_config": "Keras 3.15's Dense config has the "
                   "quantization_config key; kerasmini has no quantization"})
def ch07_get_config(keras):
    fresh(keras)
    model = diamond(keras)
    config = model.get_config()
    dense = model.get_layer("left").get_config()
    return {"model keys": sorted(config),
            "quantization_config": "quantization_config" in dense,
            "dense keys": sorted(set(dense) - {"quantization_config"}),
            "layer classes": [la["class_name"] for la in config["layers"]],
            "layer names": [la["name"] for la in config["layers"]],
            "inbound of out": config["layers"][-1]["inbound_nodes"][0]["args"][0]
            ["config"]["keras_history"],
            "input_layers": config["input_layers"],
            "output_layers": config["output_layers"]}


# -- chapter 8: Model and Sequential ----------------------------------------------------

@scenario(8, known={"isinstance": "chapter 8's table: Keras 3's Sequential is not "
                                  "a Functional"}, cells=("de138bf7", "b55e6c97"))
def ch08_model_is_functional(keras):
    fresh(keras)
    x = keras.Input(shape=(3,), name="x")
    y = keras.layers.Dense(1, name="y")(x)
    name = keras.Model(x, y).name
    functional = functional_class(keras)
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    return {"Model(x, y)": type(keras.Model(x, y)).__name__,
            "Model(inputs=, outputs=)": type(keras.Model(inputs=x, outputs=y)).__name__,
            "name": name,
            "isinstance": [isinstance(model, c) for c in
                           (functional, keras.Model, keras.Layer)]}


@scenario(8, known={"own graph": "chapter 8's table: Keras 3's Sequential keeps "
                                 "its graph in a Functional, self._functional"},
          cells=("00b6d232", "3d343862"))
def ch08_sequential_add(keras):
    fresh(keras)
    model = keras.Sequential()
    model.add(keras.layers.Dense(input_shape=(10,), units=10, activation="relu"))
    model.add(keras.layers.Dense(units=1))
    seen = {"layers": [la.name for la in model.layers],
            "inputs": [list(t.shape) for t in model.inputs],
            "own graph": hasattr(model, "_nodes_by_depth"),
            "depths": {str(d): [n.operation.name for n in ns] for d, ns in
                       getattr(model, "_functional", model)._nodes_by_depth.items()},
            "weights": [w.path for w in model.weights], "summary": summary_figures(model),
            "add string": error_of(lambda: model.add("dense")),
            "add same name": error_of(lambda: model.add(
                keras.layers.Dense(3, name="dense")))}
    removed = model.pop()
    seen.update({"popped": removed.name, "after pop": [la.name for la in model.layers],
                 "output_shape": list(model.output_shape),
                 "params": model.count_params()})
    return seen


@scenario(8, cells=("9749b42f", "80356f0e", "ebe9118f", "c6c54630"))
def ch08_deferred_sequential(keras):
    fresh(keras)
    lazy = keras.Sequential([keras.layers.Dense(4, name="first"),
                             keras.layers.Dense(1, name="second")])
    seen = {"built": lazy.built, "layers": [la.name for la in lazy.layers],
            "inputs error": error_of(lambda: lazy.inputs)}
    out = lazy(np.ones((2, 3), dtype="float32"))
    seen.update({"out": list(out.shape), "built after": lazy.built,
                 "summary": summary_figures(lazy)})
    later = keras.Sequential([keras.layers.Dense(4), keras.layers.Dense(1)])
    later.build((None, 5))
    seen["later"] = [later.built, later.count_params(), list(later.input_shape),
                     list(later.output_shape)]
    return seen


@scenario(8, cells=("5a65985c", "1806511a", "1f47fb1c"))
def ch08_subclassed_model(keras):
    fresh(keras)

    class MyModel(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = keras.layers.Dense(8, activation="relu")
            self.head = keras.layers.Dense(1)

        def call(self, inputs):
            return self.head(self.hidden(inputs))

    model = MyModel()
    seen = {"type": type(model).__name__, "name": model.name, "built": model.built,
            "layers": [la.name for la in model.layers]}
    model(np.ones((2, 3), dtype="float32"))
    seen.update({"weights": [w.path for w in model.weights],
                 "summary": summary_figures(model), "built after": model.built})
    return seen


@scenario(8, cells=("c6c54630",))
def ch08_built_flags_and_shapes(keras):
    fresh(keras)
    inner = keras.Sequential([keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(2)], name="inner")
    x = keras.Input(shape=(6,), name="x")
    h = keras.layers.Dense(5, name="h")(x)
    outer = keras.Model(x, inner(h), name="outer")
    set_known_weights(outer)
    batch = np.linspace(-1, 1, 18, dtype="float32").reshape(3, 6)
    return {"built": [outer.built, inner.built] + [la.built for la in inner.layers],
            "shapes": [list(outer.output_shape), list(inner.output_shape)],
            "params": [outer.count_params(), inner.count_params()],
            "weights": [w.path for w in outer.weights],
            "summary": summary_figures(outer),
            "outputs": outer.predict(batch, verbose=0).tolist(),
            "unbuilt count_params": error_of(
                lambda: keras.layers.Dense(2).count_params())}


@scenario(8, cells=("00b6d232", "ebe9118f"))
def ch08_input_tensor_names(keras):
    fresh(keras)
    model = keras.Sequential()
    model.add(keras.layers.Dense(input_shape=(10,), units=10))
    lazy = keras.Sequential([keras.layers.Dense(4)])
    lazy(np.ones((2, 3), dtype="float32"))
    return {"Input()": keras.Input(shape=(3,)).name,
            "add(input_shape)": [t.name for t in model.inputs],
            "built by a call": [t.name for t in lazy.inputs]}


@scenario(8, cells=("ch08-two-towers",))
def ch08_two_towers(keras):
    fresh(keras)

    class TwoTowers(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.left = keras.layers.Dense(4, activation="relu")
            self.right = keras.layers.Dense(4, activation="relu")
            self.concat = keras.layers.Concatenate()
            self.head = keras.layers.Dense(1)

        def call(self, inputs):
            return self.head(self.concat([self.left(inputs), self.right(inputs)]))

    model = TwoTowers()
    before = sorted(type(la).__name__ for la in model.layers)
    model(np.ones((2, 3), dtype="float32"))
    set_known_weights(model)
    return {"before": before, "names": [la.name for la in model.layers],
            "weights": [w.path for w in model.weights], "params": model.count_params(),
            "outputs": to_numpy(keras, model(np.full((1, 3), 0.5, "float32"))).tolist()}


def training_data():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(32, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], dtype="float32") + 0.3)
    return x, y.astype("float32")


@scenario(8, tol=1e-4)
def ch08_short_training(keras):
    fresh(keras)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="tanh"),
                              keras.layers.Dense(1)])
    set_known_weights(model)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    x, y = training_data()
    losses = model.fit(x, y, batch_size=8, epochs=5, shuffle=False,
                       verbose=0).history["loss"]
    return {"losses": [float(v) for v in losses],
            "goes down": all(b < a for a, b in itertools.pairwise(losses)),
            "evaluate": float(model.evaluate(x, y, verbose=0)),
            "iterations": int(np.asarray(model.optimizer.iterations.numpy()))}


@scenario(8)
def ch08_cross_loading(keras):
    # Both sides load the same file, written by kerasmini (see the runner).
    path = os.environ.get("KERASMINI_PARITY_FILE")
    model = keras.saving.load_model(path)
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
    return {"type": type(model).__name__, "name": model.name,
            "layers": [[type(la).__name__, la.name] for la in model.layers],
            "weights": [[w.path, list(w.shape)] for w in model.weights],
            "outputs": model.predict(x, verbose=0).tolist()}


def write_cross_loading_file(keras, path):
    """The file ``ch08_cross_loading`` reads: a kerasmini model saved as ``.keras``."""
    fresh(keras)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu"),
                              keras.layers.Dropout(0.2), keras.layers.Dense(2)],
                             name="saved_by_kerasmini")
    set_known_weights(model)
    model.save(path)
