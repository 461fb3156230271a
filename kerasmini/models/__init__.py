"""``kerasmini.models``: the model classes under their Keras path, plus
``clone_model`` and ``model_from_json``.

>>> from kerasmini import models
>>> models.Sequential.__mro__[1].__name__
'Functional'
"""

from kerasmini import saving
from kerasmini.engine.functional import Functional
from kerasmini.engine.sequential import Sequential
from kerasmini.engine.training import Model
from kerasmini.models.cloning import clone_model


def __getattr__(name):
    # load_model, model_from_json and save_model come from the saving archive
    # floor, loaded on first use (see kerasmini.saving): `import kerasmini`
    # stays cheap
    if name in ("load_model", "model_from_json", "save_model"):
        return getattr(saving, name)
    raise AttributeError(f"module 'kerasmini.models' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"load_model", "model_from_json", "save_model"})


# load_model, model_from_json and save_model are provided by __getattr__
__all__ = ["Functional", "Model", "Sequential", "clone_model",  # noqa: F822
           "load_model", "model_from_json", "save_model"]
