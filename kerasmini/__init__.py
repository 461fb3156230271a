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
    callbacks,
    config,
    constraints,
    datasets,
    dtype_policies,
    initializers,
    layers,
    losses,
    metrics,
    mixed_precision,
    models,
    ops,
    optimizers,
    random,
    regularizers,
    saving,
    utils,
)
from kerasmini.backend import GradientTape, Variable, function, name_scope
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.dtype_policies import DTypePolicy, FloatDTypePolicy
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import Input
from kerasmini.engine.input_spec import InputSpec
from kerasmini.engine.module import Module
from kerasmini.losses import Loss
from kerasmini.metrics import Metric
from kerasmini.models.functional import Functional
from kerasmini.models.model import Model
from kerasmini.models.sequential import Sequential
from kerasmini.ops.operation import Operation
from kerasmini.optimizers import Optimizer

__version__ = "0.1.0"

__all__ = [
    "DTypePolicy", "FloatDTypePolicy", "Functional", "GradientTape", "Input",
    "InputSpec", "KerasTensor", "Layer",
    "Loss", "Metric", "Model", "Module", "Operation", "Optimizer", "Sequential",
    "Variable",
    "activations", "backend", "callbacks", "config", "constraints", "datasets",
    "dtype_policies", "function", "initializers", "layers", "losses", "metrics",
    "mixed_precision", "models", "name_scope", "ops",
    "optimizers", "random", "regularizers", "saving", "utils",
]
