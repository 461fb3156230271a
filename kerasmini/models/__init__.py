"""``kerasmini.models``: the model classes under their Keras path, plus
``clone_model`` and ``model_from_json``.

>>> from kerasmini import models
>>> models.Sequential.__mro__[1].__name__
'Functional'
"""

import json

from kerasmini.api_export import keras_export
from kerasmini.engine.functional import Functional
from kerasmini.engine.sequential import Sequential
from kerasmini.engine.training import Model
from kerasmini.models.cloning import clone_model
from kerasmini.saving import serialization
from kerasmini.saving.saving_api import load_model, save_model


@keras_export("kerasmini.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
    """A new model (fresh weights) from the JSON of :meth:`Model.to_json`.

    Args:
        json_string: the JSON text.
        custom_objects: ``{name: class}`` for custom layers and models.

    >>> from kerasmini import Input, layers
    >>> x = Input((3,))
    >>> model = Model(x, layers.Dense(2, name="d")(x), name="small")
    >>> copy = model_from_json(model.to_json())
    >>> copy.name, copy.get_layer("d").units, copy.get_layer("d") is model.get_layer("d")
    ('small', 2, False)
    """
    try:
        config = json.loads(json_string)
    except (TypeError, ValueError) as error:
        raise ValueError(
            "`model_from_json` expects the JSON text of `model.to_json()`. "
            f"Received: json_string={str(json_string)[:80]!r}") from error
    return serialization.deserialize_keras_object(config,
                                                  custom_objects=custom_objects)


__all__ = ["Functional", "Model", "Sequential", "clone_model", "load_model",
           "model_from_json", "save_model"]
