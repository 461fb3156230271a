"""``Dropout``: zero a random fraction of the inputs, during training only.

Kept values are scaled by ``1 / (1 - rate)`` so the expected sum is
unchanged; at inference (``training`` false or unset) the layer is the
identity. ``training`` reaches it from the outermost call (``fit`` passes
``training=True``).

>>> import numpy as np
>>> layer = Dropout(0.5)
>>> x = np.ones((1, 4), "float32")
>>> bool((layer(x) == x).all()), set(np.unique(layer(x, training=True))) <= {0.0, 2.0}
(True, True)
"""

from kerasmini import ops, random
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Dropout")
class Dropout(Layer):
    """Randomly sets inputs to 0 with frequency ``rate`` when training.

    Args:
        rate: a float in ``[0, 1)``, the fraction to drop.
        noise_shape: optional shape of the mask (to drop whole channels).
        seed: unused here (kerasmini draws from its one seeded generator);
            kept for signature compatibility.

    >>> import numpy as np
    >>> Dropout(0.5)(np.ones((1, 2)), training=False)
    array([[1., 1.]], dtype=float32)
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # the mask passes through
        if not isinstance(rate, (int, float)) or not 0 <= rate < 1:
            raise ValueError(
                "Invalid value received for argument `rate`. Expected a float "
                f"value between 0 and 1. Received: rate={rate}"
            )
        self.rate = float(rate)
        if noise_shape is not None:
            noise_shape = validation.check_shape(noise_shape, "noise_shape",
                                                 owner=f"Dropout '{self.name}'")
        self.noise_shape = noise_shape
        self.seed = seed
        self._build_at_init()

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        shape = self.noise_shape or inputs.shape
        if len(shape) != len(inputs.shape) or any(
                d is not None and d not in (1, s) for d, s in zip(shape, inputs.shape)):
            raise ValueError(
                f"Layer '{self.name}': `noise_shape` must have the rank of the "
                "inputs, each entry None, 1 or the input's size on that axis. "
                f"Received: noise_shape={self.noise_shape} for inputs of shape "
                f"{tuple(inputs.shape)}"
            )
        shape = tuple(d if d is not None else s for d, s in zip(shape, inputs.shape))
        keep = ops.greater_equal(random.uniform(shape, dtype=inputs.dtype), self.rate)
        mask = ops.cast(keep, inputs.dtype)
        return ops.multiply(inputs, ops.multiply(mask, 1.0 / (1.0 - self.rate)))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape,
                       "seed": self.seed})
        return config
