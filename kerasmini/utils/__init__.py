"""Keras's utilities: seeds, the progress bar, ``plot_model``, summaries.

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
