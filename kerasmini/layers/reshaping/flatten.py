"""``Flatten``: keep the batch axis, merge all the others.

>>> import numpy as np
>>> Flatten()(np.zeros((2, 3, 4))).shape
(2, 12)
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.config import standardize_data_format
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.Flatten")
class Flatten(Layer):
    """Flattens every axis but the first (batch) one.

    Args:
        data_format: ``"channels_last"`` or ``"channels_first"`` (channels
            are moved last before flattening); ``None``: the global
            ``kerasmini.config.image_data_format()``.

    >>> import numpy as np
    >>> Flatten()(np.zeros((2, 3, 4))).shape
    (2, 12)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        # None: the global default, keras.config.image_data_format()
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rank = len(inputs.shape)
        if self.data_format == "channels_first" and rank > 2:
            # channels moved last first, so the order of the flat features
            # does not depend on the layout (Keras 3 does the same)
            inputs = ops.transpose(inputs, (0, *range(2, rank), 1))
        return ops.reshape(inputs, (inputs.shape[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        size = None if None in rest else int(np.prod(rest))
        return (input_shape[0], size)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config
