"""kerasmini: a small, NumPy-only Keras, written to be read.

``import kerasmini as keras`` runs ordinary Keras code:

>>> import kerasmini as keras
>>> keras.backend.clear_session()
>>> model = keras.Sequential()
>>> model.add(keras.layers.Dense(input_shape=(10,), units=10, activation='relu'))
>>> model.add(keras.layers.Dense(units=1))
>>> model.count_params()
121

Every public name is re-exported here one by one (no star imports); the
``keras_export`` registry (:mod:`kerasmini.api_export`) records the same
names and a test checks that both agree.
"""

from kerasmini import (
    activations,
    backend,
    constraints,
    initializers,
    layers,
    regularizers,
    utils,
)
from kerasmini.backend import GradientTape, Variable, function, name_scope
from kerasmini.engine.functional import Functional
from kerasmini.engine.input_layer import Input
from kerasmini.engine.keras_tensor import KerasTensor
from kerasmini.engine.module import Module
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.sequential import Sequential
from kerasmini.engine.training import Model
from kerasmini import models

__version__ = "0.1.0"

__all__ = [
    "Functional", "GradientTape", "Input", "KerasTensor", "Layer", "Model",
    "Module", "Sequential", "Variable", "activations", "backend", "constraints",
    "function", "initializers", "layers", "models", "name_scope",
    "regularizers", "utils",
]
