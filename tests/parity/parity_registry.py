"""The registry of parity scenarios and the helpers they share.

A scenario is a function of the ``keras`` module (``import kerasmini as keras``
or the real ``keras``) returning JSON-able observations, a dict from an
observation name to a value. ``@scenario(chapter, known=..., xfail=...,
cells=...)`` records it with the chapter it checks, the observations that
differ on purpose (each with its reason) or, for an expected failure, the
precise difference, and the ids of the chapter's code cells whose behaviour it
re-runs in both libraries (the website marks those cells "✓ Keras 3.15.1";
a scenario about what the prose states, not a cell, names none).
This module imports neither library, so the real-Keras subprocess can load it.

>>> error_of(lambda: int("x"))
'ValueError'
"""

import re

import numpy as np

SCENARIOS = {}
CHAPTER = {}
KNOWN = {}
XFAIL = {}
TOLERANCE = {}  # scenario -> absolute/relative tolerance for its floats
CELLS = {}  # scenario -> ids of the chapter's code cells it re-runs


def scenario(chapter, known=None, xfail=None, tol=1e-6, cells=()):
    """Register a scenario for ``chapter`` (documented differences in ``known``,
    the chapter's code cells it checks in ``cells``)."""
    def register(fn):
        SCENARIOS[fn.__name__] = fn
        CHAPTER[fn.__name__] = chapter
        KNOWN[fn.__name__] = dict(known or {})
        TOLERANCE[fn.__name__] = tol
        CELLS[fn.__name__] = tuple(cells)
        if xfail:
            XFAIL[fn.__name__] = xfail
        return fn
    return register


def fresh(keras):
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)


def error_of(fn):
    """The exception class name ``fn()`` raises, or ``None``."""
    try:
        fn()
    except Exception as error:  # noqa: BLE001 (its type is the observation)
        return type(error).__name__
    return None


def set_known_weights(model):
    """Give every weight of ``model`` the same deterministic values on both sides."""
    rng = np.random.default_rng(42)
    model.set_weights([rng.normal(scale=0.5, size=tuple(w.shape)).astype("float32")
                       for w in model.get_weights()])


def to_numpy(keras, value):
    """A NumPy copy of ``value`` (Keras's torch tensors refuse ``np.asarray``)."""
    ops = getattr(keras, "ops", None)
    return np.asarray(ops.convert_to_numpy(value) if ops else value)


def functional_class(keras):
    """The class ``Model(inputs, outputs)`` returns (not public in Keras 3)."""
    x = keras.Input(shape=(1,))
    return type(keras.Model(x, keras.layers.Dense(1)(x)))


def history(tensor):
    layer, node_index, tensor_index = tensor._keras_history
    return [layer.name, node_index, tensor_index]


def summary_figures(model):
    lines = []
    model.summary(print_fn=lambda line, *args, **kwargs: lines.append(str(line)))
    text = "\n".join(lines)
    figures = {}
    for label in ("Total params", "Trainable params", "Non-trainable params"):
        match = re.search(label + r":\s*([\d,]+)", text)
        figures[label] = int(match.group(1).replace(",", "")) if match else None
    return figures
