"""Concrete layers, grouped as in Keras (``core``, ``reshaping``, ...).

>>> from kerasmini import layers
>>> layers.Dense(3).units
3
"""

from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import Input, InputLayer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.activations.elu import ELU
from kerasmini.layers.activations.leaky_relu import LeakyReLU
from kerasmini.layers.activations.prelu import PReLU
from kerasmini.layers.activations.relu import ReLU
from kerasmini.layers.activations.softmax import Softmax
from kerasmini.layers.attention.additive_attention import AdditiveAttention
from kerasmini.layers.attention.attention import Attention
from kerasmini.layers.attention.multi_head_attention import MultiHeadAttention
from kerasmini.layers.convolutional.conv1d import Conv1D
from kerasmini.layers.convolutional.conv1d_transpose import Conv1DTranspose
from kerasmini.layers.convolutional.conv2d import Conv2D
from kerasmini.layers.convolutional.conv2d_transpose import Conv2DTranspose
from kerasmini.layers.convolutional.conv3d import Conv3D
from kerasmini.layers.convolutional.depthwise_conv1d import DepthwiseConv1D
from kerasmini.layers.convolutional.depthwise_conv2d import DepthwiseConv2D
from kerasmini.layers.convolutional.separable_conv1d import SeparableConv1D
from kerasmini.layers.convolutional.separable_conv2d import SeparableConv2D
from kerasmini.layers.core.activation import Activation
from kerasmini.layers.core.dense import Dense
from kerasmini.layers.core.dropout import Dropout
from kerasmini.layers.core.einsum_dense import EinsumDense
from kerasmini.layers.core.embedding import Embedding
from kerasmini.layers.core.lambda_layer import Lambda
from kerasmini.layers.core.masking import Masking
from kerasmini.layers.merging.dot import Dot
from kerasmini.layers.merging.elementwise import (
    Average,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
)
from kerasmini.layers.merging.functional import (
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from kerasmini.layers.merging.merge import Add, Concatenate
from kerasmini.layers.normalization.batch_normalization import BatchNormalization
from kerasmini.layers.normalization.layer_normalization import LayerNormalization
from kerasmini.layers.normalization.unit_normalization import UnitNormalization
from kerasmini.layers.pooling.global_pooling import (
    GlobalAveragePooling1D,
    GlobalAveragePooling3D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    GlobalMaxPooling3D,
)
from kerasmini.layers.pooling.pooling1d import AveragePooling1D, MaxPooling1D
from kerasmini.layers.pooling.pooling2d import (
    AveragePooling2D,
    GlobalAveragePooling2D,
    MaxPooling2D,
)
from kerasmini.layers.pooling.pooling3d import AveragePooling3D, MaxPooling3D
from kerasmini.layers.preprocessing import (
    CenterCrop,
    Discretization,
    IntegerLookup,
    Normalization,
    RandomContrast,
    RandomCrop,
    RandomFlip,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
    Rescaling,
    Resizing,
    StringLookup,
    TextVectorization,
)
from kerasmini.layers.reshaping.cropping import Cropping1D, Cropping2D
from kerasmini.layers.reshaping.flatten import Flatten
from kerasmini.layers.reshaping.permute import Permute
from kerasmini.layers.reshaping.repeat_vector import RepeatVector
from kerasmini.layers.reshaping.reshape import Reshape
from kerasmini.layers.reshaping.up_sampling import UpSampling1D, UpSampling2D
from kerasmini.layers.reshaping.zero_padding import ZeroPadding1D, ZeroPadding2D
from kerasmini.layers.rnn.bidirectional import Bidirectional
from kerasmini.layers.rnn.conv_lstm1d import ConvLSTM1D
from kerasmini.layers.rnn.conv_lstm2d import ConvLSTM2D
from kerasmini.layers.rnn.conv_lstm3d import ConvLSTM3D
from kerasmini.layers.rnn.gru import GRU, GRUCell
from kerasmini.layers.rnn.lstm import LSTM, LSTMCell
from kerasmini.layers.rnn.rnn import RNN
from kerasmini.layers.rnn.simple_rnn import SimpleRNN, SimpleRNNCell
from kerasmini.layers.serialization import deserialize, serialize

AvgPool1D = AveragePooling1D  # the short names Keras also exports
AvgPool2D = AveragePooling2D
AvgPool3D = AveragePooling3D
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3D = Conv3D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
MaxPool1D = MaxPooling1D
MaxPool2D = MaxPooling2D
MaxPool3D = MaxPooling3D
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D

__all__ = [
    "Activation", "Add", "AdditiveAttention", "Attention", "Average",
    "AveragePooling1D", "AveragePooling2D", "AvgPool1D", "AvgPool2D",
    "BatchNormalization", "Concatenate", "Conv1D", "Conv2D", "Conv2DTranspose",
    "Convolution2DTranspose", "Cropping1D", "Cropping2D", "Dense", "Dot", "Dropout",
    "EinsumDense", "Embedding", "Flatten", "GRU", "GRUCell",
    "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAvgPool1D",
    "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPooling1D",
    "GlobalMaxPooling2D", "Input", "InputLayer", "InputSpec", "LSTM", "LSTMCell",
    "Lambda", "Layer", "LayerNormalization", "Masking", "MaxPool1D", "MaxPool2D",
    "MaxPooling1D", "MaxPooling2D", "Maximum", "Minimum", "MultiHeadAttention",
    "Multiply", "Permute", "RNN", "RepeatVector", "Reshape", "SimpleRNN",
    "SimpleRNNCell", "Subtract", "UpSampling1D", "UpSampling2D",
    "ZeroPadding1D", "ZeroPadding2D", "add", "average", "concatenate", "dot",
    "maximum", "minimum", "multiply", "subtract",
]
__all__ += ["deserialize", "serialize"]
__all__ += [  # the preprocessing layers
    "CenterCrop", "Discretization", "IntegerLookup", "Normalization",
    "RandomContrast", "RandomCrop", "RandomFlip", "RandomRotation",
    "RandomTranslation", "RandomZoom", "Rescaling", "Resizing", "StringLookup",
    "TextVectorization",
]
__all__ += [  # the layers of keras.io's examples (issue 24)
    "AveragePooling3D", "AvgPool3D", "Bidirectional", "Conv1DTranspose", "Conv3D",
    "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D", "Convolution1DTranspose",
    "Convolution3D", "DepthwiseConv1D", "DepthwiseConv2D", "ELU",
    "GlobalAveragePooling3D", "GlobalAvgPool3D", "GlobalMaxPool3D",
    "GlobalMaxPooling3D", "LeakyReLU", "MaxPool3D", "MaxPooling3D", "PReLU", "ReLU",
    "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
    "SeparableConvolution2D", "Softmax", "UnitNormalization",
]
