"""``kerasmini.saving``: configs, the ``.keras`` archive, weights files.

Two floors, so that every import arrow points down:

* the **config floor**, which layers, optimizers, losses and metrics use for
  their ``get_config``: :mod:`~kerasmini.saving.object_registration`
  (custom objects: ``register_keras_serializable``, ``CustomObjectScope``)
  and :mod:`~kerasmini.saving.serialization` (objects to JSON-ready dicts and
  back, safe mode, the ``get()`` resolver);
* the **archive floor**, which needs whole models and so sits above the
  engine: :mod:`~kerasmini.saving.stores` (the HDF5/NPZ weight layout),
  :mod:`~kerasmini.saving.saving_lib` (the archive and the walk over a
  model), :mod:`~kerasmini.saving.files` (atomic writes),
  :mod:`~kerasmini.saving.limits` and :mod:`~kerasmini.saving.weight_budget`
  (what loading may cost), :mod:`~kerasmini.saving.backup`
  (``BackupAndRestore``'s archive) and :mod:`~kerasmini.saving.saving_api`
  (``save_model``, ``load_model``, ...).

Importing this package loads only the config floor; the archive floor's
public names are loaded on first use (the module ``__getattr__`` below), so a
layer can import ``kerasmini.saving.serialization`` without pulling in the
models that the archive floor imports.

>>> from kerasmini import saving
>>> saving.get_registered_name(saving.load_model)
'load_model'
"""

from kerasmini.api_export import lazy_attributes
from kerasmini.saving.object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    enable_unsafe_deserialization,
    serialize_keras_object,
)

# the archive floor: public name -> module (imported on first access)
_ARCHIVE = {
    "load_model": "kerasmini.saving.saving_api",
    "model_from_json": "kerasmini.saving.json_io",
    "model_to_json": "kerasmini.saving.json_io",
    "load_weights": "kerasmini.saving.saving_api",
    "save_model": "kerasmini.saving.saving_api",
    "save_weights": "kerasmini.saving.saving_api",
}


__getattr__, __dir__ = lazy_attributes(__name__, _ARCHIVE)


__all__ = [
    "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
    "enable_unsafe_deserialization", "get_custom_objects", "get_registered_name",
    "get_registered_object", "load_model", "load_weights",
    "register_keras_serializable",
    "save_model", "save_weights", "serialize_keras_object",
]
