"""``Flatten``: keep the batch axis, merge all the others.

>>> import numpy as np
>>> Flatten()(np.zeros((2, 3, 4))).shape
(2, 12)
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.Flatten")
class Flatten(Layer):
    """Flattens every axis but the first (batch) one.

    >>> import numpy as np
    >>> Flatten()(np.zeros((2, 3, 4))).shape
    (2, 12)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        validation.check_choice(data_format, "data_format",
                                (None, "channels_last", "channels_first"), owner="Flatten")
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        return ops.reshape(inputs, (inputs.shape[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        size = None if None in rest else int(np.prod(rest))
        return (input_shape[0], size)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config
