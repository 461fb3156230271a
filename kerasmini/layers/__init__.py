"""Concrete layers, grouped as in Keras (``core``, ``reshaping``, ...).

>>> from kerasmini import layers
>>> layers.Dense(3).units
3
"""

from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import Input, InputLayer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv2d import Conv2D
from kerasmini.layers.core.activation import Activation
from kerasmini.layers.core.dense import Dense
from kerasmini.layers.core.dropout import Dropout
from kerasmini.layers.core.embedding import Embedding
from kerasmini.layers.core.lambda_layer import Lambda
from kerasmini.layers.merging.merge import Add, Concatenate
from kerasmini.layers.normalization.batch_normalization import BatchNormalization
from kerasmini.layers.pooling.pooling2d import (
    AveragePooling2D,
    GlobalAveragePooling2D,
    MaxPooling2D,
)
from kerasmini.layers.reshaping.flatten import Flatten
from kerasmini.layers.reshaping.reshape import Reshape
from kerasmini.layers.serialization import deserialize, serialize

AvgPool2D = AveragePooling2D  # the short names Keras also exports
GlobalAvgPool2D = GlobalAveragePooling2D
MaxPool2D = MaxPooling2D

__all__ = [
    "Activation", "Add", "AveragePooling2D", "AvgPool2D", "BatchNormalization",
    "Concatenate", "Conv2D", "Dense", "Dropout", "Embedding", "Flatten",
    "GlobalAveragePooling2D", "GlobalAvgPool2D", "Input", "InputLayer", "InputSpec",
    "Lambda", "Layer", "MaxPool2D", "MaxPooling2D", "Reshape",
]
__all__ += ["deserialize", "serialize"]
