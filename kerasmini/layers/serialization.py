"""``keras.layers.serialize`` / ``deserialize``: a layer to its config dict
(class, module, constructor arguments) and back to a new layer.

>>> from kerasmini.layers import Dense
>>> config = serialize(Dense(3, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 3)
>>> deserialize(config).name
'd'
"""

from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.saving import serialization


@keras_export("kerasmini.layers.serialize")
def serialize(layer):
    """The layer's config wrapped with its class and module (what a
    ``.keras`` archive stores for it).

    >>> from kerasmini.layers import Dropout
    >>> sorted(serialize(Dropout(0.5)))
    ['class_name', 'config', 'module', 'registered_name']
    """
    return serialization.serialize_keras_object(layer)


@keras_export("kerasmini.layers.deserialize")
def deserialize(config, custom_objects=None):
    """A new layer from :func:`serialize`'s dict (fresh weights).

    Args:
        config: the dict.
        custom_objects: ``{name: class}`` for custom layers.

    >>> deserialize({"module": "keras.regularizers", "class_name": "L2",
    ...              "config": {"l2": 0.1}, "registered_name": None})
    Traceback (most recent call last):
      ...
    ValueError: `keras.layers.deserialize` was passed a `config` object that is not a ...
    """
    obj = serialization.deserialize_keras_object(config,
                                                 custom_objects=custom_objects)
    if not isinstance(config, dict) or not isinstance(obj, Layer):
        raise ValueError(
            "`keras.layers.deserialize` was passed a `config` object that is not a "
            f"`keras.layers.Layer`. Received: {config}")
    return obj


__all__ = ["deserialize", "serialize"]
