"""``Metric``: the base class of every metric (``keras/src/metrics/metric.py``).

A :class:`Metric` is *stateful*: ``update_state(...)`` adds a batch to
running totals kept in non-trainable variables, ``result()`` reads the
summary, ``reset_state()`` starts afresh (``fit`` does that at each epoch).
Because the totals are variables updated with ``assign_add``, a metric
update inside a traced ``train_step`` is replayed with the rest of the step.

>>> import numpy as np
>>> from kerasmini.metrics import Mean
>>> m = Mean()
>>> m.update_state(np.array([1.0, 2.0]))
>>> m.update_state(np.array([6.0]))
>>> float(m.result())
3.0
>>> m.reset_state(); float(m.result())
0.0
"""

import numpy as np

from kerasmini import initializers, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.backend.variables import Variable


@keras_export(["kerasmini.metrics.Metric", "kerasmini.Metric"])
class Metric:
    """Base class: state variables plus ``update_state``/``result``/``reset_state``.

    Args:
        name: default: the snake-case class name, uniquified.
        dtype: dtype of the state variables (default floatx).

    >>> class Count(Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable(name="n")
    ...     def update_state(self, values):
    ...         self.n.assign_add(float(np.size(values)))
    ...     def result(self):
    ...         return ops.cast(self.n, self.dtype)
    >>> float(Count()(np.zeros(3)))
    3.0
    """

    def __init__(self, name=None, dtype=None):
        self.name = name or auto_name(type(self).__name__)
        # a dtype name, or the DTypePolicy dict of a config (Keras 3)
        self.dtype = config.standardize_dtype_policy(dtype)
        self._variables = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        """Create a state variable (``<metric name>/<name>``), zeros by default."""
        with name_scope(self.name.replace("/", ">"), caller=self):
            variable = Variable(initializers.get(initializer), shape=shape,
                                dtype=dtype or self.dtype, trainable=False, name=name)
        self._variables.append(variable)
        return variable

    add_weight = add_variable

    @property
    def variables(self):
        """The state variables."""
        return list(self._variables)

    def reset_state(self):
        """Set every state variable back to zeros."""
        for v in self._variables:
            v.assign(np.zeros(v.shape, dtype=v.dtype))

    def update_state(self, *args, **kwargs):
        """Add one batch to the state."""
        raise NotImplementedError

    def result(self):
        """The metric's value from the state so far."""
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        """``update_state`` then ``result``."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        """The constructor arguments."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config_):
        """Create a metric from :meth:`get_config`'s output."""
        return cls(**config_)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

def _as_float(x, dtype):
    if not hasattr(x, "dtype"):
        x = ops.convert_to_tensor(x)
    return x if str(x.dtype) == dtype else ops.cast(x, dtype)
