"""``kerasmini.saving``: configs, the ``.keras`` archive, weights files.

* :mod:`~kerasmini.saving.serialization`: objects to JSON-ready dicts and
  back (``serialize_keras_object``/``deserialize_keras_object``), safe mode;
* :mod:`~kerasmini.saving.object_registration`: custom objects
  (``register_keras_serializable``, ``CustomObjectScope``);
* :mod:`~kerasmini.saving.stores`: the HDF5/NPZ weight layout;
* :mod:`~kerasmini.saving.saving_lib`: the archive and the walk over a model;
* :mod:`~kerasmini.saving.saving_api`: ``save_model``, ``load_model``,
  ``save_weights``, ``load_weights``.

>>> from kerasmini import saving
>>> saving.get_registered_name(saving.load_model)
'load_model'
"""

from kerasmini.saving.object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from kerasmini.saving.saving_api import (
    load_model,
    load_weights,
    save_model,
    save_weights,
)
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    enable_unsafe_deserialization,
    serialize_keras_object,
)

__all__ = [
    "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
    "enable_unsafe_deserialization", "get_custom_objects", "get_registered_name",
    "get_registered_object", "load_model", "load_weights",
    "register_keras_serializable",
    "save_model", "save_weights", "serialize_keras_object",
]
