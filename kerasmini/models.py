"""``kerasmini.models``: the model classes under their Keras path.

>>> from kerasmini import models
>>> models.Sequential.__mro__[1].__name__
'Functional'
"""

from kerasmini.engine.functional import Functional
from kerasmini.engine.sequential import Sequential
from kerasmini.engine.training import Model
from kerasmini.saving.saving_api import load_model, save_model

__all__ = ["Functional", "Model", "Sequential", "load_model", "save_model"]
