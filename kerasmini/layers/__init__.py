"""Concrete layers, grouped as in Keras (``core``, ``reshaping``, ...).

>>> from kerasmini import layers
>>> layers.Dense(3).units
3
"""

from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import Input, InputLayer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.core.activation import Activation
from kerasmini.layers.core.dense import Dense
from kerasmini.layers.core.dropout import Dropout
from kerasmini.layers.core.lambda_layer import Lambda
from kerasmini.layers.merging.merge import Add, Concatenate
from kerasmini.layers.reshaping.flatten import Flatten
from kerasmini.layers.reshaping.reshape import Reshape

__all__ = [
    "Activation", "Add", "Concatenate", "Dense", "Dropout", "Flatten", "Input",
    "InputLayer", "InputSpec", "Lambda", "Layer", "Reshape",
]
