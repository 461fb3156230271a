"""``LeakyReLU``: ``x`` where positive, ``negative_slope * x`` elsewhere.

A small slope below zero keeps a gradient flowing through units that are
off (DCGAN-style discriminators use it). Keras 2 called the slope ``alpha``;
Keras 3 still takes ``alpha=`` with a warning.

>>> import numpy as np
>>> LeakyReLU(negative_slope=0.5)(np.array([-10.0, -5.0, 0.0, 5.0, 10.0]))
array([-5. , -2.5,  0. ,  5. , 10. ], dtype=float32)
"""

import warnings

from kerasmini import activations
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.activations.relu import non_negative


@keras_export("kerasmini.layers.LeakyReLU")
class LeakyReLU(Layer):
    """Leaky version of the rectified linear unit.

    Args:
        negative_slope: float >= 0, the slope below zero (default 0.3).
        **kwargs: base layer arguments (``name``, ``dtype``); ``alpha`` is
            Keras 2's name of ``negative_slope`` (deprecated).

    >>> import numpy as np
    >>> LeakyReLU()(np.array([-1.0, 2.0]))
    array([-0.3,  2. ], dtype=float32)
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use `negative_slope` "
                          "instead.", stacklevel=2)
        super().__init__(**kwargs)
        try:
            self.negative_slope = non_negative(negative_slope, "negative_slope",
                                               "LeakyReLU")
        except ValueError:
            raise ValueError(
                "The negative_slope value of a Leaky ReLU layer cannot be None or "
                f"negative value. Expected a float. Received: negative_slope="
                f"{negative_slope!r}"
            ) from None
        self.supports_masking = True
        self._build_at_init()  # no weights: built at construction, as in Keras 3

    def call(self, inputs):
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config
