"""Weight constraints, applied by the optimizer after each update.

>>> import numpy as np
>>> NonNeg()(np.array([-1.0, 2.0]))
array([0., 2.])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.saving import serialization


class Constraint:
    """Base class: ``__call__(w)`` returns the projected weight.

    >>> import numpy as np
    >>> Constraint()(np.array([1.0, -1.0]))
    array([ 1., -1.])
    """

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"{type(self).__name__}()"


@keras_export("kerasmini.constraints.NonNeg")
class NonNeg(Constraint):
    """Clip weights at zero from below.

    >>> import numpy as np
    >>> NonNeg()(np.array([-1.0, 2.0]))
    array([0., 2.])
    """

    def __call__(self, w):
        return ops.maximum(w, 0.0)


@keras_export("kerasmini.constraints.MaxNorm")
class MaxNorm(Constraint):
    """Rescale so the norm along ``axis`` is at most ``max_value``.

    >>> import numpy as np
    >>> MaxNorm(max_value=1.0)(np.array([[3.0], [4.0]])).round(4).ravel()
    array([0.6, 0.8])
    """

    def __init__(self, max_value=2.0, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = ops.sqrt(ops.sum(ops.square(w), axis=self.axis, keepdims=True))
        desired = ops.clip(norms, 0.0, self.max_value)
        return ops.multiply(w, ops.divide(desired, ops.add(norms, 1e-7)))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


ALL = {"non_neg": NonNeg, "max_norm": MaxNorm}


@keras_export("kerasmini.constraints.get")
def get(identifier):
    """Resolve a constraint from ``None``, a name, an object or a callable.

    >>> get("non_neg")
    NonNeg()
    """
    return serialization.resolve_identifier(identifier, "constraint", ALL)


@keras_export("kerasmini.constraints.serialize")
def serialize(constraint):
    """The config form of ``constraint`` (``None`` stays ``None``), what a layer's
    ``get_config`` stores.

    >>> serialize(NonNeg())["class_name"]
    'NonNeg'
    >>> serialize(None) is None
    True
    """
    return serialization.serialize_keras_object(constraint)
