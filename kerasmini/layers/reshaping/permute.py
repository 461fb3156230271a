"""``Permute``: reorder the non-batch axes (a ``transpose`` that keeps axis 0).

>>> import numpy as np
>>> Permute((2, 1))(np.zeros((5, 3, 4))).shape
(5, 4, 3)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Permute")
class Permute(Layer):
    """Permute the axes of each sample; ``dims`` counts from 1 (the batch
    axis is 0 and stays first).

    >>> import numpy as np
    >>> Permute((3, 1, 2))(np.zeros((1, 2, 3, 4))).shape
    (1, 4, 2, 3)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(dims, (list, tuple)) or \
                sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(
                "Invalid permutation argument `dims` for Permute Layer. The set of "
                "indices in `dims` must be consecutive and start from 1. "
                f"Received dims={dims}"
            )
        self.dims = tuple(dims)

    def build(self, input_shape):
        if len(input_shape) != len(self.dims) + 1:
            raise ValueError(
                f"Layer '{self.name}': `dims` {self.dims} permute {len(self.dims)} "
                f"axes but the input has {len(input_shape) - 1} non-batch axes. "
                f"Received: input_shape={tuple(input_shape)}"
            )

    def call(self, inputs):
        return ops.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config
