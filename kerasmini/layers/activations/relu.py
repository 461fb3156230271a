"""``ReLU``: the rectified linear unit as a layer, with Keras's options.

``max_value`` caps the output (``ReLU(6.0)`` is ReLU6, MobileNet's),
``negative_slope`` lets values below ``threshold`` through scaled
(a leaky ReLU), ``threshold`` moves the kink. The maths is
:func:`kerasmini.activations.relu`.

>>> import numpy as np
>>> ReLU(max_value=10, negative_slope=0.5)(np.array([-10.0, -5.0, 0.0, 5.0, 10.0]))
array([-5. , -2.5,  0. ,  5. , 10. ], dtype=float32)
"""

from kerasmini import activations
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.engine.base_layer import Layer


def non_negative(value, name, layer, allow_none=False):
    """A number >= 0 (kept as given) for an activation layer's argument:
    Keras's wording when it is ``None`` or negative, a ``TypeError`` (or a
    ``ValueError`` for a string) naming it when it is not a number.

    >>> non_negative(-1, "threshold", "ReLU")
    Traceback (most recent call last):
      ...
    ValueError: threshold of a ReLU layer cannot be None or a negative value. Received: threshold=-1
    """
    if value is None and allow_none:
        return None
    if value is not None:
        validation.check_float(value, name, owner=layer)  # a real number
    if value is None or value < 0:
        raise ValueError(
            f"{name} of a {layer} layer cannot be None or a negative value. "
            f"Received: {name}={value!r}"
        )
    return value


@keras_export("kerasmini.layers.ReLU")
class ReLU(Layer):
    """Rectified linear unit activation layer.

    Args:
        max_value: float >= 0, the largest output (``None``: no cap).
        negative_slope: float >= 0, the slope below ``threshold`` (default 0).
        threshold: float >= 0, where the unit turns on (default 0).
        **kwargs: base layer arguments (``name``, ``dtype``).

    >>> import numpy as np
    >>> ReLU(6.0)(np.array([-1.0, 3.0, 9.0]))
    array([0., 3., 6.], dtype=float32)
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        self.max_value = non_negative(max_value, "max_value", "ReLU", allow_none=True)
        self.negative_slope = non_negative(negative_slope, "negative_slope", "ReLU")
        self.threshold = non_negative(threshold, "threshold", "ReLU")
        self.supports_masking = True
        self._build_at_init()  # no weights: built at construction, as in Keras 3

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value,
                       "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config
