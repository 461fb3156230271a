"""A model's configuration as JSON text: ``Model.to_json`` and
``models.model_from_json`` (the ``config.json`` of a ``.keras`` archive,
without the weights).

Part of the archive floor, so the ``json`` module loads on first use and
``import kerasmini`` stays cheap.

>>> from kerasmini import Input, Model, layers
>>> x = Input((3,))
>>> model = Model(x, layers.Dense(2, name="d")(x), name="small")
>>> text = model_to_json(model)
>>> copy = model_from_json(text)
>>> copy.name, copy.get_layer("d").units, copy.get_layer("d") is model.get_layer("d")
('small', 2, False)
"""

import json

from kerasmini.api_export import keras_export
from kerasmini.saving import serialization


def model_to_json(model, **kwargs):
    """``model``'s serialized config as JSON text; ``kwargs`` go to ``json.dumps``.

    >>> from kerasmini import Sequential, layers
    >>> '"class_name": "Sequential"' in model_to_json(Sequential([layers.Dense(1)]))
    True
    """
    return json.dumps(serialization.serialize_keras_object(model), **kwargs)


@keras_export("kerasmini.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
    """A new model (fresh weights) from the JSON of :meth:`Model.to_json`.

    Args:
        json_string: the JSON text.
        custom_objects: ``{name: class}`` for custom layers and models.

    >>> model_from_json("not json")
    Traceback (most recent call last):
      ...
    ValueError: `model_from_json` expects the JSON text of `model.to_json()`. Received: ...
    """
    try:
        config = json.loads(json_string)
    except (TypeError, ValueError) as error:
        raise ValueError(
            "`model_from_json` expects the JSON text of `model.to_json()`. "
            f"Received: json_string={str(json_string)[:80]!r}") from error
    return serialization.deserialize_keras_object(config,
                                                  custom_objects=custom_objects)
