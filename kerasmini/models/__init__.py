"""``kerasmini.models``: the model classes under their Keras path, plus
``clone_model`` and ``model_from_json``.

>>> from kerasmini import models
>>> models.Sequential.__mro__[1].__name__
'Functional'
"""

from kerasmini.api_export import lazy_attributes
from kerasmini.models.cloning import clone_model
from kerasmini.models.functional import Functional
from kerasmini.models.model import Model
from kerasmini.models.sequential import Sequential

# load_model, model_from_json and save_model come from the saving archive
# floor, loaded on first use (see kerasmini.saving): `import kerasmini` stays
# cheap
__getattr__, __dir__ = lazy_attributes(__name__, dict.fromkeys(
    ["load_model", "model_from_json", "save_model"], "kerasmini.saving"))


# load_model, model_from_json and save_model are provided by __getattr__
__all__ = ["Functional", "Model", "Sequential", "clone_model",  # noqa: F822
           "load_model", "model_from_json", "save_model"]
