"""``RepeatVector``: ``(batch, features)`` -> ``(batch, n, features)``.

>>> import numpy as np
>>> RepeatVector(3)(np.array([[1.0, 2.0]])).tolist()
[[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.RepeatVector")
class RepeatVector(Layer):
    """Repeat each sample's vector ``n`` times along a new axis 1 (a broadcast,
    whose gradient sums the copies).

    >>> import numpy as np
    >>> RepeatVector(4)(np.zeros((2, 3))).shape
    (2, 4, 3)
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        batch, features = inputs.shape
        return ops.broadcast_to(ops.expand_dims(inputs, axis=1),
                                (batch, self.n, features))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config
