"""``RMSprop``: divide each step by a running root-mean-square of gradients.

With slot ``s`` (the running mean of ``g**2``)::

    s = rho * s + (1 - rho) * g**2
    w = w - lr * g / sqrt(s + epsilon)

With ``momentum`` the increment feeds a momentum slot first; with
``centered`` the variance ``s - mean(g)**2`` replaces ``s``.

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = RMSprop(learning_rate=0.1).apply_gradients([(np.array([2.0], "float32"), w)])
>>> round(float(w.numpy()[0]), 4)  # 1 - 0.1 * 2 / sqrt(0.1 * 4)
0.6838
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.optimizers.optimizer import Optimizer


@keras_export("kerasmini.optimizers.RMSprop")
class RMSprop(Optimizer):
    """The RMSprop optimizer (Hinton, lecture 6e).

    Args:
        learning_rate: default 0.001.
        rho: decay of the squared-gradient average (default 0.9).
        momentum: default 0.0.
        epsilon: default 1e-7.
        centered: normalise by the gradient's variance instead.
        **kwargs: see :class:`~kerasmini.optimizers.Optimizer`.

    >>> RMSprop().get_config()["rho"]
    0.9
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="rmsprop", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = self._checked(rho, "rho", low=0, high=1)
        self.momentum = self._checked(momentum, "momentum", low=0, high=1)
        self.epsilon = self._checked(epsilon, "epsilon", low=0)
        self.centered = centered

    def build(self, var_list):
        super().build(var_list)
        add = self.add_optimizer_variables  # one slot per variable, in order
        self._velocities = add(var_list, "velocity")
        self._momentums = add(var_list, "momentum") if self.momentum > 0 else []
        self._average_gradients = (
            add(var_list, "average_gradient") if self.centered else [])

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        lr = ops.cast(learning_rate, variable.dtype)
        velocity = self._velocities[index]
        rho = self.rho
        velocity.assign(ops.add(ops.multiply(rho, velocity),
                                ops.multiply(1 - rho, ops.square(gradient))))
        if self.centered:
            average = self._average_gradients[index]
            average.assign(ops.add(ops.multiply(rho, average),
                                   ops.multiply(1 - rho, gradient)))
            denominator = ops.add(ops.subtract(velocity, ops.square(average)),
                                  self.epsilon)
        else:
            denominator = ops.add(velocity, self.epsilon)
        increment = ops.divide(ops.multiply(lr, gradient), ops.sqrt(denominator))
        if self.momentum > 0:
            momentum = self._momentums[index]
            momentum.assign(ops.add(ops.multiply(self.momentum, momentum), increment))
            variable.assign_sub(momentum)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum,
                       "epsilon": self.epsilon, "centered": self.centered})
        return config
