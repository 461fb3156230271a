"""Weight regularizers: penalties added to the model's loss.

A regularizer is a callable ``reg(weight) -> scalar``. ``add_weight(...,
regularizer=...)`` attaches it to the variable, and ``layer.losses`` collects
``reg(weight)`` for every weight, so ``fit`` minimises loss plus penalties.

>>> import numpy as np
>>> float(L2(0.5)(np.array([1.0, 2.0])))
2.5
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.saving import serialization


class Regularizer:
    """Base class: ``__call__(x)`` returns a scalar penalty.

    >>> Regularizer()(1.0)
    0.0
    """

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def _check(name, value):
    if not isinstance(value, (int, float)) or value < 0:
        raise ValueError(
            f"Value for argument `{name}` must be a non-negative number. "
            f"Received: {name}={value!r}"
        )
    return float(value)


@keras_export(["kerasmini.regularizers.L1L2", "kerasmini.regularizers.l1_l2"])
class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)``.

    >>> import numpy as np
    >>> round(float(L1L2(l1=0.1, l2=0.1)(np.array([1.0, -2.0]))), 4)
    0.8
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _check("l1", l1), _check("l2", l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = ops.add(penalty, ops.multiply(self.l1, ops.sum(ops.abs(x))))
        if self.l2:
            penalty = ops.add(penalty, ops.multiply(self.l2, ops.sum(ops.square(x))))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


@keras_export(["kerasmini.regularizers.L1", "kerasmini.regularizers.l1"])
class L1(L1L2):
    """``l1 * sum(|x|)``.

    >>> import numpy as np
    >>> float(L1(0.5)(np.array([1.0, -2.0])))
    1.5
    """

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


@keras_export(["kerasmini.regularizers.L2", "kerasmini.regularizers.l2"])
class L2(L1L2):
    """``l2 * sum(x**2)``.

    >>> import numpy as np
    >>> float(L2(0.5)(np.array([1.0, -2.0])))
    2.5
    """

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


# Keras's lower-case aliases of the classes.
l1 = L1
l2 = L2
l1_l2 = L1L2

ALL = {"l1": L1, "l2": L2, "l1_l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2}


@keras_export("kerasmini.regularizers.get")
def get(identifier):
    """Resolve a regularizer from ``None``, a name, an object or a callable.

    >>> get("l2")
    L2(l2=0.01)
    """
    return serialization.resolve_identifier(identifier, "regularizer", ALL)


@keras_export("kerasmini.regularizers.serialize")
def serialize(regularizer):
    """The config form of ``regularizer`` (``None`` stays ``None``), what a layer's
    ``get_config`` stores.

    >>> serialize(L2(0.1))["class_name"]
    'L2'
    >>> serialize(None) is None
    True
    """
    return serialization.serialize_keras_object(regularizer)
