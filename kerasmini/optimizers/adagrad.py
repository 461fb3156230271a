"""``Adagrad``: per-weight steps shrinking with the sum of squared gradients.

With slot ``a`` (starting at ``initial_accumulator_value``)::

    a = a + g**2
    w = w - lr * g / sqrt(a + epsilon)

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = Adagrad(learning_rate=0.1).apply_gradients([(np.array([1.0], "float32"), w)])
>>> round(float(w.numpy()[0]), 4)  # 1 - 0.1 / sqrt(0.1 + 1)
0.9047
"""

from kerasmini import initializers, ops
from kerasmini.api_export import keras_export
from kerasmini.optimizers.optimizer import Optimizer


@keras_export("kerasmini.optimizers.Adagrad")
class Adagrad(Optimizer):
    """The Adagrad optimizer (Duchi et al., 2011).

    Args:
        learning_rate: default 0.001.
        initial_accumulator_value: starting value of the accumulators (0.1).
        epsilon: default 1e-7.
        **kwargs: see :class:`~kerasmini.optimizers.Optimizer`.

    >>> Adagrad().get_config()["initial_accumulator_value"]
    0.1
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1,
                 epsilon=1e-7, name="adagrad", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value = self._checked(
            initial_accumulator_value, "initial_accumulator_value", low=0)
        self.epsilon = self._checked(epsilon, "epsilon", low=0)

    def build(self, var_list):
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(
            var_list, "accumulator",
            initializer=initializers.Constant(self.initial_accumulator_value))

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        accumulator = self._accumulators[self._get_variable_index(variable)]
        accumulator.assign_add(ops.square(gradient))
        variable.assign_sub(ops.divide(ops.multiply(lr, gradient),
                                       ops.sqrt(ops.add(accumulator, self.epsilon))))

    def get_config(self):
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config
