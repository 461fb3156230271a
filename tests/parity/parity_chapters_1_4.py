"""Parity scenarios of chapters 1-4: names, Variable, Layer, lazy building.

>>> from parity_registry import CHAPTER
>>> sorted({CHAPTER[name] for name in CHAPTER if name.startswith(("ch01", "ch04"))})
[1, 4]
"""

import numpy as np
from parity_registry import (
    error_of,
    fresh,
    functional_class,
    scenario,
    to_numpy,
)

# -- chapter 1: where things live ------------------------------------------------

@scenario(1, known={
    "Module": "Keras 3 has no public Module class (chapter 8's table: kerasmini "
              "keeps Keras 2's tf.Module role)",
    "Functional": "Keras 3 does not export Functional (keras.src.models.functional)"},
          cells=("8e39df38", "62c61348"))
def ch01_public_names(keras):
    names = ["Layer", "Model", "Functional", "Sequential", "Input", "Variable",
             "name_scope", "KerasTensor", "Module"]
    found = {name: hasattr(keras, name) for name in names}
    found["ops"] = hasattr(keras, "ops")
    found["random"] = hasattr(keras, "random")
    found["Operation"] = hasattr(keras, "Operation")
    found["layers.Dense"] = hasattr(keras.layers, "Dense")
    found["layers.InputSpec"] = hasattr(keras.layers, "InputSpec")
    return found


@scenario(1, known={"Sequential<Functional": "chapter 8's table: Keras 3's Sequential "
                                             "is a Model holding a Functional"},
          cells=("a10a0326",))
def ch01_class_chain(keras):
    functional = functional_class(keras)
    return {"Sequential<Functional": issubclass(keras.Sequential, functional),
            "Functional<Model": issubclass(functional, keras.Model),
            "Model<Layer": issubclass(keras.Model, keras.Layer),
            "Dense<Layer": issubclass(keras.layers.Dense, keras.Layer)}


# -- chapter 2: Variable and name_scope -------------------------------------------

@scenario(2, cells=("9e614a1d", "b6667acc"))
def ch02_variable_assign(keras):
    fresh(keras)
    v = keras.Variable(np.zeros(3), name="v")
    y = v + 1.0
    before = to_numpy(keras, y).tolist()
    v.assign([10.0, 20.0, 30.0])
    v.assign_add([1.0, 1.0, 1.0])
    v.assign_sub([0.5, 0.5, 0.5])
    return {"name": v.name, "path": v.path, "value": np.asarray(v.numpy()).tolist(),
            "y unchanged": to_numpy(keras, y).tolist() == before, "shape": list(v.shape),
            "trainable": v.trainable}


@scenario(2, cells=("9e614a1d",))
def ch02_variable_dtype(keras):
    fresh(keras)
    return {"dtype": str(keras.Variable(np.zeros(3), name="v").dtype)}


@scenario(2, cells=("5b3b86e0",))
def ch02_name_scope_paths(keras):
    fresh(keras)
    with keras.name_scope("encoder"):
        with keras.name_scope("dense"):
            kernel = keras.Variable(np.zeros((2, 2)), name="kernel")
        unnamed = keras.Variable(0.0)
    return {"kernel": [kernel.name, kernel.path], "unnamed": [unnamed.name, unnamed.path]}


@scenario(2, cells=("1c33ad01", "3ad8be4c"))
def ch02_layer_tracks_variables(keras):
    # The book's Module tracking, shown on a Layer (Keras 3 tracks in Layer).
    fresh(keras)

    class Linear(keras.Layer):
        def __init__(self, n_out, **kwargs):
            super().__init__(**kwargs)
            self.n_out = n_out

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.n_out), name="w")
            self.b = self.add_weight(shape=(self.n_out,), initializer="zeros", name="b")

        def call(self, x):
            return ops_of(keras).matmul(x, self.w) + self.b

    class MLP(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.first = Linear(4, name="first")
            self.second = Linear(2, name="second")

        def call(self, x):
            return self.second(self.first(x))

    mlp = MLP(name="mlp")
    mlp(np.ones((1, 3), dtype="float32"))
    return {"paths": sorted(v.path for v in mlp.weights),
            "trainable": sorted(v.path for v in mlp.trainable_weights),
            "non_trainable": sorted(v.path for v in mlp.non_trainable_weights),
            "count": mlp.count_params()}


@scenario(2, cells=("1c33ad01",))
def ch02_layer_tracks_variable_attribute(keras):
    fresh(keras)

    class Scaled(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.scale = keras.Variable(1.0, trainable=False, name="scale")

        def call(self, x):
            return x * self.scale

    layer = Scaled(name="scaled")
    layer(np.ones((1, 3), dtype="float32"))
    return {"weights": [v.name for v in layer.weights],
            "non_trainable": [v.name for v in layer.non_trainable_weights],
            "count": layer.count_params()}


# -- chapter 3: Layer, build, add_weight --------------------------------------------

def ops_of(keras):
    return keras.ops


def simple_dense(keras):
    class SimpleDense(keras.Layer):
        def __init__(self, units=32, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                     initializer="random_normal", name="w")
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

        def call(self, inputs):
            return ops_of(keras).matmul(inputs, self.w) + self.b

    return SimpleDense


@scenario(3, known={"private lists": "chapter 3's table: Keras 3 keeps weights in a "
                                     "Tracker, not in _trainable_weights lists"},
          cells=("88034a00", "87ee296b", "6fb64c2b"))
def ch03_simple_dense(keras):
    fresh(keras)
    SimpleDense = simple_dense(keras)
    layer = SimpleDense(4)
    before = {"name": layer.name, "built": layer.built, "weights": len(layer.weights)}
    y = layer(np.ones((2, 3), dtype="float32"))
    second = SimpleDense(4)
    return {"before": before, "shape": list(y.shape), "built": layer.built,
            "paths": [w.path for w in layer.weights],
            "trainable": [w.path for w in layer.trainable_weights],
            "non_trainable": [w.path for w in layer.non_trainable_weights],
            "w is first": layer.w is layer.trainable_weights[0],
            "private lists": hasattr(layer, "_trainable_weights"),
            "count_params": layer.count_params(), "second name": second.name}


@scenario(3, cells=("88034a00", "8c1b42ed"))
def ch03_auto_names(keras):
    fresh(keras)
    made = [keras.layers.Dense(2), keras.layers.Dense(2), keras.layers.Dropout(0.1),
            keras.layers.Activation("relu"), keras.layers.Flatten(),
            simple_dense(keras)(2), simple_dense(keras)(2), keras.layers.Dense(2)]
    names = [layer.name for layer in made]
    x = keras.Input(shape=(3,))
    names += [x._keras_history[0].name, keras.Input(shape=(3,))._keras_history[0].name]
    names.append(keras.Sequential().name)
    names.append(keras.Model(x, keras.layers.Dense(1)(x)).name)
    keras.backend.clear_session()
    names.append(keras.layers.Dense(2).name)  # clear_session frees "dense" again
    return {"names": names}


@scenario(3, cells=("93d9c334", "d1e86c27"))
def ch03_trainable_flag(keras):
    fresh(keras)

    class CountingDense(simple_dense(keras)):
        def build(self, input_shape):
            super().build(input_shape)
            self.calls = self.add_weight(shape=(), dtype="int64", initializer="zeros",
                                         trainable=False, name="calls")

    layer = CountingDense(2, name="counting")
    layer(np.ones((1, 3), dtype="float32"))
    seen = {"all": [w.name for w in layer.weights],
            "trainable": [w.name for w in layer.trainable_weights],
            "non_trainable": [w.name for w in layer.non_trainable_weights]}
    layer.trainable = False
    seen["frozen trainable"] = [w.name for w in layer.trainable_weights]
    seen["frozen non_trainable"] = [w.name for w in layer.non_trainable_weights]
    layer.trainable = True
    seen["calls dtype"] = str(layer.calls.dtype)
    return seen


# -- chapter 4: lazy building and InputSpec -------------------------------------------

@scenario(4, cells=("2f911bba",))
def ch04_lazy_dense(keras):
    fresh(keras)
    a, b = keras.layers.Dense(3), keras.layers.Dense(3)
    seen = {"names": [a.name, b.name], "weights before": len(a.weights),
            "built before": a.built}
    a(np.ones((2, 4), dtype="float32"))
    b(np.ones((2, 7), dtype="float32"))
    seen.update({"a.kernel": list(a.kernel.shape), "b.kernel": list(b.kernel.shape),
                 "built": [a.built, b.built],
                 "paths": [w.path for w in a.weights + b.weights]})
    return seen


@scenario(4, cells=("21d923b9",))
def ch04_build_receives(keras):
    fresh(keras)
    got = []

    class ShapeProbe(keras.Layer):
        def build(self, input_shape):
            got.append([type(input_shape).__name__, list(input_shape)])

        def call(self, inputs):
            return inputs

    ShapeProbe()(np.ones((2, 4)))
    ShapeProbe()(keras.Input(shape=(5,)))
    return {"build args": got}


@scenario(4, cells=("1477e644", "2d9d685f"))
def ch04_input_spec_errors(keras):
    fresh(keras)
    dense = keras.layers.Dense(3)
    seen = {"spec before": dense.input_spec is None}
    dense(np.ones((2, 4), dtype="float32"))
    spec = dense.input_spec
    seen["spec after"] = [spec.min_ndim, {str(k): v for k, v in spec.axes.items()}]
    seen["wrong last axis"] = error_of(lambda: dense(np.ones((2, 5), dtype="float32")))
    seen["kernel after error"] = list(dense.kernel.shape)
    return seen


@scenario(4, cells=("667d61eb", "c21f5627"))
def ch04_rank_one_input(keras):
    fresh(keras)
    fresh_dense = keras.layers.Dense(3)
    error = error_of(lambda: fresh_dense(np.ones(4, dtype="float32")))
    return {"rank 1 error": error, "rank 1 built": fresh_dense.built}


@scenario(4, cells=("988fa67d", "3491b4c8"))
def ch04_input_spec_per_input(keras):
    fresh(keras)

    class Difference(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.input_spec = [keras.layers.InputSpec(ndim=2),
                               keras.layers.InputSpec(ndim=2)]

        def call(self, inputs):
            first, second = inputs
            return first - second

    diff = Difference(name="diff")
    ones = np.ones((1, 2), dtype="float32")
    return {"two inputs": list(diff([ones, ones]).shape),
            "one input": error_of(lambda: diff(ones)),
            "wrong rank": error_of(lambda: diff([ones, np.ones((1, 2, 1))]))}
