"""Utilities for the book and for users: summaries, seeds, and (lazily
imported, so ``import kerasmini`` stays cheap) drawing and source display.

``plot_model``, ``plot_nodes``, ``plot_classes``, ``trace``, ``show_source``
and ``keras_links`` are loaded on first access by the module ``__getattr__``
below: importing kerasmini never imports graphviz, matplotlib or pygments.

>>> from kerasmini import utils
>>> utils.set_random_seed(0)
>>> utils.show_source.__module__
'kerasmini.utils.source'
"""

import importlib

from kerasmini.api_export import keras_export
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
    "plot_nodes": "kerasmini.utils.plot",
    "plot_classes": "kerasmini.utils.plot",
    "trace": "kerasmini.utils.trace",
    "Trace": "kerasmini.utils.trace",
    "show_source": "kerasmini.utils.source",
    "keras_links": "kerasmini.utils.source",
    "SourceView": "kerasmini.utils.source",
    "plot_history": "kerasmini.utils.plotting",
    "Progbar": "kerasmini.utils.progbar",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kerasmini.utils' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Progbar", "SourceView", "Trace", "keras_links", "plot_classes", "plot_history",
    "plot_model", "plot_nodes", "set_random_seed", "show_source", "trace",
]
