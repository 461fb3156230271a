"""The checks every layer owes (CONTRIBUTING.md, "Add a layer", step 5), in one place.

``check_layer(make, inputs, tmp_path)`` builds ``make()`` on ``inputs`` (an
array or a list of arrays) and asserts: the symbolic shape on ``keras.Input``
equals the eager one and ``compute_output_shape``'s; ``get_config`` ->
``from_config`` gives the same config and, with the same weights, the same
output; a ``.keras`` save/load round trip predicts the same. It returns the
eager output for the caller's own NumPy comparison.
"""

import json

import numpy as np

import kerasmini as keras
from kerasmini.saving import load_model


def _as_json(config):
    return json.loads(json.dumps(config))  # a tuple comes back as a list


def _as_list(inputs):
    return list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]


def check_layer(make, inputs, tmp_path, rtol=1e-6, atol=1e-6, call_kwargs=None):
    """``call_kwargs`` go to every eager call (``training=False`` for a
    random layer, whose own default is to transform)."""
    call_kwargs = call_kwargs or {}
    arrays = _as_list(inputs)
    single = not isinstance(inputs, (list, tuple))
    layer = make()
    out = np.asarray(layer(inputs, **call_kwargs))

    # symbolic shape == eager shape == compute_output_shape
    symbolic_inputs = [keras.Input(a.shape[1:], dtype=str(a.dtype)) for a in arrays]
    symbolic_layer = make()
    symbolic = symbolic_layer(symbolic_inputs[0] if single else symbolic_inputs)
    assert symbolic.shape == (None,) + out.shape[1:]
    shapes = [(None,) + a.shape[1:] for a in arrays]
    assert tuple(layer.compute_output_shape(shapes[0] if single else shapes)) == \
        (None,) + out.shape[1:]

    # get_config -> from_config: same config, same output with the same weights
    config = layer.get_config()
    clone = type(layer).from_config(config)
    clone(inputs, **call_kwargs)
    clone.set_weights(layer.get_weights())
    assert clone.get_config() == config
    np.testing.assert_allclose(np.asarray(clone(inputs, **call_kwargs)), out,
                               rtol=rtol, atol=atol)

    # a .keras archive round trip
    model = keras.Model(symbolic_inputs[0] if single else symbolic_inputs,
                        symbolic)
    for w, v in zip(symbolic_layer.weights, layer.get_weights()):
        w.assign(v)
    path = tmp_path / "layer.keras"
    model.save(path)
    loaded = load_model(path)
    np.testing.assert_allclose(np.asarray(loaded.predict(inputs, verbose=0)), out,
                               rtol=rtol, atol=atol)
    assert _as_json(loaded.layers[-1].get_config()) == \
        _as_json(symbolic_layer.get_config())
    return out


def check_layer_gradients(layer, inputs, eps=1e-6, seed=0):
    """The tape's gradients of ``sum(layer(x) * v)`` for the inputs and every
    trainable weight against central differences, in float64 (build the
    layer with ``dtype="float64"``)."""
    from kerasmini import ops
    from kerasmini.backend import GradientTape

    arrays = [np.array(a, dtype="float64") for a in _as_list(inputs)]
    single = not isinstance(inputs, (list, tuple))

    def call(xs):
        return layer(xs[0] if single else xs)

    v = np.random.default_rng(seed).normal(size=np.shape(call(arrays)))
    weights = list(layer.trainable_weights)
    with GradientTape() as tape:
        tape.watch(arrays)
        loss = ops.sum(ops.multiply(call(arrays), v))
    grads = tape.gradient(loss, arrays + weights)

    def objective():
        return float(np.sum(np.asarray(call(arrays)) * v))

    targets = [(a, None) for a in arrays] + [(w.numpy(), w) for w in weights]
    for (value, variable), grad in zip(targets, grads):
        assert grad is not None
        numeric = np.zeros(value.shape)
        for j in range(value.size):
            total = 0.0
            for sign in (1.0, -1.0):
                moved = value.copy()
                moved.flat[j] += sign * eps
                if variable is None:
                    original = value.copy()
                    value[...] = moved
                    total += sign * objective()
                    value[...] = original
                else:
                    variable.assign(moved)
                    total += sign * objective()
                    variable.assign(value)
            numeric.flat[j] = total / (2 * eps)
        np.testing.assert_allclose(np.asarray(grad), numeric, rtol=1e-5, atol=1e-7)
