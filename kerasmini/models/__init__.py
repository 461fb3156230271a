"""``kerasmini.models``: the model floor, as Keras 3's ``keras/src/models/``.

``model.py`` (``Model``, a ``Layer`` and a
:class:`~kerasmini.trainers.trainer.Trainer`), ``functional.py``
(``Functional``: a model that is a graph of layer calls), ``sequential.py``
(``Sequential``: a stack of layers, a ``Functional`` here as in Keras 2) and
``cloning.py`` (``clone_model``); ``model_from_json``, ``load_model`` and
``save_model`` come from :mod:`kerasmini.saving`.

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
