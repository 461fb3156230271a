"""kerasmini.backend.init_scope: tf.init_scope's part, stepping out of a trace."""

import numpy as np

import kerasmini as keras
from kerasmini.backend import (
    GradientTape,
    executing_eagerly,
    function,
    get_graph_variables,
    init_scope,
)
from kerasmini.backend import numpy as bnp


def test_init_scope_is_eager_inside_a_trace_and_restores_it():
    seen = []

    @function
    def body(x):
        seen.append(executing_eagerly())
        with init_scope():
            seen.append(executing_eagerly())
        seen.append(executing_eagerly())
        return bnp.multiply(x, 2.0)

    assert np.allclose(body(np.ones(2)), 2.0)
    assert seen == [False, True, False]
    assert np.allclose(body(np.ones(2)), 2.0)  # replay: the body does not run
    assert seen == [False, True, False]


def test_variable_made_in_init_scope_is_eager_not_the_graphs():
    made = {}

    @function
    def body(x):
        made["traced"] = keras.Variable(1.0, name="in_graph")
        with init_scope():
            made["lifted"] = keras.Variable(1.0, name="lifted")
        return x

    body(np.ones(1))
    graph = next(iter(body.graphs.values()))
    assert made["traced"] in graph.variables
    assert made["lifted"] not in graph.variables
    assert made["lifted"] in get_graph_variables()


def test_layer_built_in_init_scope_keeps_eager_weights_and_still_trains():
    class LiftedDense(keras.layers.Dense):
        def _maybe_build(self, *args, **kwargs):
            with init_scope():
                return super()._maybe_build(*args, **kwargs)

    layer = LiftedDense(2, kernel_initializer="ones")
    forward = function(lambda x: layer(x))
    out = forward(np.ones((1, 3), "float32"))
    assert np.allclose(out, 3.0)
    graph = next(iter(forward.graphs.values()))
    assert not set(layer.weights) & set(graph.variables)
    assert all(w in get_graph_variables() for w in layer.weights)
    layer.kernel.assign(np.full((3, 2), 2.0))
    assert np.allclose(forward(np.ones((1, 3), "float32")), 6.0)


def test_init_scope_pauses_tapes():
    x = keras.Variable(3.0)
    with GradientTape(persistent=True) as tape:
        with init_scope():
            hidden = bnp.multiply(x, x)
        y = bnp.multiply(x, 2.0)
    assert np.allclose(hidden, 9.0)
    assert tape.gradient(hidden, x) is None  # not recorded
    assert np.allclose(tape.gradient(y, x), 2.0)
