"""``Dense``: ``activation(inputs @ kernel + bias)``.

The example every chapter comes back to: configuration in ``__init__``,
weights in ``build`` (the kernel's first dimension is the input's last), a
seven-line ``call``.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Dense(3)
>>> layer(np.ones((2, 4))).shape
(2, 3)
>>> [w.path for w in layer.weights], layer.input_spec
(['dense/kernel', 'dense/bias'], InputSpec(min_ndim=2, axes={-1: 4}))
"""

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.Dense")
class Dense(Layer):
    """A densely connected layer.

    Args:
        units: size of the last output dimension (a positive integer).
        activation: name or callable; ``None`` means linear.
        use_bias: whether to add a bias vector.
        kernel_initializer, bias_initializer: initializers
            (``"glorot_uniform"`` and ``"zeros"``).
        kernel_regularizer, bias_regularizer: optional penalties.
        kernel_constraint, bias_constraint: optional constraints.

    >>> import numpy as np
    >>> layer = Dense(2, kernel_initializer="ones")
    >>> layer(np.array([[1.0, 2.0, 3.0]]))
    array([[6., 6.]], dtype=float32)
    """

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True  # the mask passes through
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                "Received an invalid value for `units`, expected a positive "
                f"integer. Received: units={units!r} (of type {type(units).__name__})"
            )
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        last_dim = input_shape[-1]
        if last_dim is None:
            raise ValueError(
                "The last dimension of the inputs to `Dense` should be defined. "
                f"Found `None`. Full input shape received: {input_shape}"
            )
        self.kernel = self.add_weight(
            name="kernel", shape=(last_dim, self.units),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.units,), initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})

    def call(self, inputs):
        if not str(inputs.dtype).startswith("float"):
            inputs = ops.cast(inputs, self.dtype)
        x = ops.matmul(inputs, self.kernel)  # (batch, ..., units)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
        })
        return config
