"""Optimizers: ``Optimizer`` and the update rules built on it.

:func:`get` resolves what ``compile(optimizer=...)`` receives: a name
(``"adam"``), a config dict or an instance.

>>> get("adam")
<Adam name=adam, learning_rate=0.001, iterations=0>
"""

from kerasmini.api_export import keras_export
from kerasmini.optimizers import schedules
from kerasmini.optimizers.adagrad import Adagrad
from kerasmini.optimizers.adam import Adam
from kerasmini.optimizers.adamw import AdamW
from kerasmini.optimizers.optimizer import Optimizer
from kerasmini.optimizers.rmsprop import RMSprop
from kerasmini.optimizers.sgd import SGD
from kerasmini.saving import serialization

ALL_OBJECTS_DICT = {
    "sgd": SGD, "adam": Adam, "adamw": AdamW, "rmsprop": RMSprop, "adagrad": Adagrad,
    "SGD": SGD, "Adam": Adam, "AdamW": AdamW, "RMSprop": RMSprop, "Adagrad": Adagrad,
}


@keras_export("kerasmini.optimizers.get")
def get(identifier):
    """Resolve an optimizer from a name, a config dict or an instance.

    >>> round(get("sgd").get_config()["learning_rate"], 6)  # a float32 variable
    0.01
    >>> get("nadam")
    Traceback (most recent call last):
      ...
    ValueError: Could not interpret optimizer identifier: 'nadam'. Known optimizers: ...
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        optimizer = serialization.deserialize_keras_object(identifier)
        if isinstance(optimizer, Optimizer):
            return optimizer
    elif isinstance(identifier, str):
        cls = ALL_OBJECTS_DICT.get(identifier) or ALL_OBJECTS_DICT.get(identifier.lower())
        if cls is not None:
            return cls()
    known = sorted(k for k in ALL_OBJECTS_DICT if k.islower() or k == "SGD")
    known = sorted({k.lower() for k in known})
    raise ValueError(
        f"Could not interpret optimizer identifier: {identifier!r}. "
        f"Known optimizers: {known}"
    )


__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "get",
           "schedules"]
