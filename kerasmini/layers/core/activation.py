"""``Activation``: apply an activation function as a layer.

>>> import numpy as np
>>> Activation("relu")(np.array([[-1.0, 2.0]]))
array([[0., 2.]], dtype=float32)
"""

from kerasmini import activations, ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Activation")
class Activation(Layer):
    """Applies ``activation`` (a name or a callable) element-wise.

    >>> import numpy as np
    >>> Activation("relu")(np.array([[-1.0, 1.0]]))
    array([[0., 1.]], dtype=float32)
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # the mask passes through
        self.activation = activations.get(activation)
        self._build_at_init()

    def call(self, inputs):
        if inputs.dtype == bool:  # NumPy has no `-x` for booleans
            raise TypeError(
                f"Layer '{self.name}' expects inputs of numbers, not booleans. "
                f"Received: inputs of dtype bool and shape {tuple(inputs.shape)}"
            )
        if 0 in inputs.shape:  # nothing to compute (a softmax has no maximum)
            return ops.cast(inputs, self.dtype)
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config
