"""``Reshape``: give the non-batch axes a new shape (one ``-1`` allowed).

>>> import numpy as np
>>> Reshape((3, -1))(np.zeros((2, 12))).shape
(2, 3, 4)
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Reshape")
class Reshape(Layer):
    """Reshapes each sample to ``target_shape`` (batch axis kept).

    >>> import numpy as np
    >>> Reshape((2, -1))(np.zeros((5, 6))).shape
    (5, 2, 3)
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        if isinstance(target_shape, int):
            target_shape = (target_shape,)
        if not isinstance(target_shape, (list, tuple)):
            raise ValueError(
                "The `target_shape` of `Reshape` must be a tuple of integers. "
                f"Received: target_shape={target_shape!r}"
            )
        target_shape = tuple(target_shape)
        if sum(d == -1 for d in target_shape) > 1 or any(
                not isinstance(d, int) or isinstance(d, bool) or (d < 1 and d != -1)
                for d in target_shape):
            raise ValueError(
                "The `target_shape` of `Reshape` must contain positive integers and "
                f"at most one -1. Received: target_shape={target_shape}"
            )
        self.target_shape = target_shape
        self.built = True  # nothing to create: built now, as in Keras 3

    def _resolve(self, input_shape):
        if not input_shape:
            raise ValueError(
                f"Layer '{self.name}' expects inputs with a batch axis (rank >= 1). "
                f"Received: inputs of shape {tuple(input_shape)}"
            )
        rest = input_shape[1:]
        if None in rest:
            return tuple(None if d == -1 else d for d in self.target_shape)
        size = int(np.prod(rest))
        known = int(np.prod([d for d in self.target_shape if d != -1]))
        if (-1 in self.target_shape and size % known) or (
                -1 not in self.target_shape and size != known):
            raise ValueError(
                f"Layer '{self.name}': total size of the input ({size}, from shape "
                f"{tuple(input_shape)}) cannot be reshaped into target_shape="
                f"{self.target_shape}."
            )
        return tuple(size // known if d == -1 else d for d in self.target_shape)

    def call(self, inputs):
        target = self._resolve(inputs.shape)  # checks the batch axis first
        return ops.reshape(inputs, (inputs.shape[0],) + target)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolve(input_shape)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config
