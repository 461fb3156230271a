"""``ConvLSTM2D``: :class:`~kerasmini.layers.rnn.conv_lstm.ConvLSTM` of rank 2.

>>> ConvLSTM2D(8, 3).filters
8
"""

from kerasmini.api_export import keras_export
from kerasmini.layers.rnn.conv_lstm import ConvLSTM


@keras_export("kerasmini.layers.ConvLSTM2D")
class ConvLSTM2D(ConvLSTM):
    """A 2D convolutional LSTM over sequences ``(batch, time, rows, cols, channels)``.

    Args:
        filters, kernel_size, strides, padding, data_format, dilation_rate:
            the input convolution's (the recurrent one is "same", stride 1).
        activation, recurrent_activation, use_bias, unit_forget_bias, the
            kernel_/recurrent_/bias_ initializers, regularizers and
            constraints, dropout, recurrent_dropout, seed: as in
            :class:`~kerasmini.layers.LSTM`.
        return_sequences, return_state, go_backwards, stateful: as in
            :class:`~kerasmini.layers.RNN`.

    >>> import numpy as np
    >>> ConvLSTM2D(2, 3, return_sequences=True)(np.ones((1, 4, 6, 6, 1), "float32")).shape
    (1, 4, 4, 4, 2)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, **kwargs):
        super().__init__(
            rank=2, filters=filters, kernel_size=kernel_size, strides=strides,
            padding=padding, data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed,
            return_sequences=return_sequences, return_state=return_state,
            go_backwards=go_backwards, stateful=stateful, **kwargs)
