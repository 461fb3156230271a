"""Keras's utilities: seeds, the progress bar, ``plot_model``, summaries, and
(as in Keras 3) the saving helpers ``serialize_keras_object``,
``deserialize_keras_object`` and the custom-object registry.

``plot_model``, ``plot_history`` and ``Progbar`` are loaded on first access by
the module ``__getattr__`` below: importing kerasmini never imports graphviz
or matplotlib. (The book's own instruments, ``show_source``, ``trace`` and the
diagrams, are in :mod:`kerasmini.book`.)

>>> from kerasmini import utils
>>> utils.set_random_seed(0)
>>> utils.plot_model.__module__
'kerasmini.utils.plot'
"""

from kerasmini.api_export import keras_export, lazy_attributes
from kerasmini.backend.random import set_seed
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
    serialize_keras_object,
)


@keras_export("kerasmini.utils.set_random_seed")
def set_random_seed(seed: int) -> None:
    """Seed every random generator kerasmini uses (and NumPy's, and Python's).

    >>> set_random_seed(42)
    """
    set_seed(seed)


# public name -> the submodule that defines it (imported on first access)
_LAZY = {
    "plot_model": "kerasmini.utils.plot",
    "PyDataset": "kerasmini.trainers.data_adapters.py_dataset_adapter",
    "plot_history": "kerasmini.utils.plotting",
    "Progbar": "kerasmini.utils.progbar",
}


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = ["Progbar", "PyDataset", "plot_history", "plot_model", "set_random_seed"]
# the saving helpers Keras 3 also exports from keras.utils
__all__ += ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
            "get_custom_objects", "get_registered_name", "get_registered_object",
            "register_keras_serializable", "serialize_keras_object"]
