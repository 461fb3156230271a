"""Keras's utilities: seeds, the progress bar, ``plot_model``, summaries,
the data helpers (``get_file``, ``to_categorical``, ``pad_sequences``, the
image helpers and the ``*_dataset_from_*`` functions) and, as in Keras 3, the
saving helpers ``serialize_keras_object``, ``deserialize_keras_object`` and
the custom-object registry.

Everything but ``set_random_seed`` and the saving helpers is loaded on first
access by the module ``__getattr__`` below: importing kerasmini never imports
graphviz, matplotlib or Pillow. (The three ``*_dataset_from_*`` functions
return a ``PyDataset`` and so live in ``kerasmini/datasets/``, above
``trainers/``.) The book's own instruments (``show_source``, ``trace`` and the
diagrams) are in :mod:`kerasmini.book`.

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
    "get_file": "kerasmini.utils.file_utils",
    "to_categorical": "kerasmini.utils.numerical_utils",
    "normalize": "kerasmini.utils.numerical_utils",
    "pad_sequences": "kerasmini.utils.sequence_utils",
    "array_to_img": "kerasmini.utils.image_utils",
    "img_to_array": "kerasmini.utils.image_utils",
    "load_img": "kerasmini.utils.image_utils",
    "save_img": "kerasmini.utils.image_utils",
    "image_dataset_from_directory": "kerasmini.datasets.image_dataset",
    "text_dataset_from_directory": "kerasmini.datasets.text_dataset",
    "timeseries_dataset_from_array": "kerasmini.datasets.timeseries_dataset",
}


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "Progbar", "PyDataset", "array_to_img", "get_file", "image_dataset_from_directory",
    "img_to_array", "load_img", "normalize", "pad_sequences", "plot_history",
    "plot_model", "save_img", "set_random_seed", "text_dataset_from_directory",
    "timeseries_dataset_from_array", "to_categorical",
]
# the saving helpers Keras 3 also exports from keras.utils
__all__ += ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
            "get_custom_objects", "get_registered_name", "get_registered_object",
            "register_keras_serializable", "serialize_keras_object"]
