"""``ELU``: ``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

>>> import numpy as np
>>> ELU()(np.array([-1.0, 0.0, 2.0])).round(4)
array([-0.6321,  0.    ,  2.    ], dtype=float32)
"""

from kerasmini import activations
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.ELU")
class ELU(Layer):
    """Exponential linear unit activation layer.

    Args:
        alpha: the scale of the negative part (default 1.0).
        **kwargs: base layer arguments (``name``, ``dtype``).

    >>> ELU(alpha=0.5).get_config()["alpha"]
    0.5
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = validation.check_float(alpha, "alpha", owner="ELU")
        self.supports_masking = True
        self._build_at_init()  # no weights: built at construction, as in Keras 3

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config
