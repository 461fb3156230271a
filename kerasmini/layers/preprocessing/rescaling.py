"""``Rescaling``: ``inputs * scale + offset``, in training and inference.

The usual first layer of an image model: ``Rescaling(1 / 255)`` maps pixels
in ``[0, 255]`` to ``[0, 1]``, ``Rescaling(1 / 127.5, offset=-1)`` to
``[-1, 1]``. Integer inputs come out as floats of the layer's dtype. ``scale``
and ``offset`` may be arrays (one value per channel); ``get_config`` writes
an array as Keras does, ``{"class_name": "__numpy__", ...}``.

>>> Rescaling(1 / 255)(np.array([[0, 255]], "uint8")).tolist()
[[0.0, 1.0]]
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.layers.preprocessing.data_layer import DataLayer
from kerasmini.saving import serialization


def _check_number_or_array(value, name):
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        array = np.asarray(None)
    if array.dtype.kind not in "biuf" or isinstance(value, (bool, np.bool_)):
        raise (ValueError if isinstance(value, str) else TypeError)(
            f"Rescaling: argument `{name}` must be a number or an array of "
            f"numbers. Received: {name}={value!r} (of type {type(value).__name__})"
        )
    return value


@keras_export("kerasmini.layers.Rescaling")
class Rescaling(DataLayer):
    """Multiply the inputs by ``scale`` and add ``offset``.

    Args:
        scale: a number (or an array of numbers, broadcast on the last axis).
        offset: a number (or an array), added after scaling.
        **kwargs: ``name``, ``dtype``... as for every layer.

    >>> Rescaling(2.0, offset=-1.0)(np.array([[0.0, 1.0]])).tolist()
    [[-1.0, 1.0]]
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = _check_number_or_array(scale, "scale")
        self.offset = _check_number_or_array(offset, "offset")
        self.supports_masking = True

    def call(self, inputs):
        dtype = self.dtype
        scale = np.asarray(self.scale, dtype=dtype)
        offset = np.asarray(self.offset, dtype=dtype)
        return ops.add(ops.multiply(ops.cast(inputs, dtype), scale), offset)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "scale": serialization.serialize_keras_object(self.scale),
            "offset": serialization.serialize_keras_object(self.offset),
        })
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("scale", "offset"):
            config[key] = serialization.deserialize_keras_object(config[key])
        return super().from_config(config)


__all__ = ["Rescaling"]
