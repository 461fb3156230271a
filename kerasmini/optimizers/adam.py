"""``Adam``: momentum plus a per-weight step size from gradient magnitudes.

With slots ``m`` (mean of gradients) and ``v`` (mean of squared gradients)
and step number ``t`` (starting at 1)::

    m = m + (g - m) * (1 - beta_1)
    v = v + (g**2 - v) * (1 - beta_2)
    alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)   # bias correction
    w = w - alpha * m / (sqrt(v) + epsilon)

This is the form Keras 3 writes (``keras/src/optimizers/adam.py``); the
bias-corrected ``alpha`` is the same for every variable, so it is computed
once per step in :meth:`Adam.apply` instead of once per variable.

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = Adam(learning_rate=0.1).apply_gradients([(np.array([0.5], "float32"), w)])
>>> w.numpy().round(4)  # the first step moves by ~lr whatever the gradient's size
array([0.9], dtype=float32)
"""

from kerasmini.api_export import keras_export
from kerasmini.backend import ops
from kerasmini.optimizers.optimizer import Optimizer


@keras_export("kerasmini.optimizers.Adam")
class Adam(Optimizer):
    """The Adam optimizer (Kingma and Ba, 2014).

    Args:
        learning_rate: default 0.001.
        beta_1: decay of the gradient mean (default 0.9).
        beta_2: decay of the squared-gradient mean (default 0.999).
        epsilon: added to the denominator (default 1e-7, as in Keras).
        amsgrad: use the running maximum of ``v`` (AMSGrad).
        **kwargs: see :class:`~kerasmini.optimizers.Optimizer`.

    >>> opt = Adam(learning_rate=1e-2)
    >>> (opt.beta_1, opt.beta_2, opt.epsilon)
    (0.9, 0.999, 1e-07)
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="adam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = self._checked(beta_1, "beta_1", low=0, high=1)
        self.beta_2 = self._checked(beta_2, "beta_2", low=0, high=1)
        self.epsilon = self._checked(epsilon, "epsilon", low=0)
        self.amsgrad = amsgrad

    def build(self, var_list):
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        self._velocity_hats = []
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list,
                                                               "velocity_hat")

    def apply(self, grads, trainable_variables=None):
        # bias correction, once per step: t = iterations + 1
        t = ops.cast(ops.add(self.iterations, 1), "float32")
        lr = self.learning_rate  # a float32 variable, or a schedule's value
        self._alpha = ops.divide(
            ops.multiply(lr, ops.sqrt(ops.subtract(1.0, ops.power(self.beta_2, t)))),
            ops.subtract(1.0, ops.power(self.beta_1, t)))
        super().apply(grads, trainable_variables)

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m, v = self._momentums[index], self._velocities[index]
        alpha = ops.cast(self._alpha, variable.dtype)
        m.assign_add(ops.multiply(ops.subtract(gradient, m), 1 - self.beta_1))
        v.assign_add(ops.multiply(ops.subtract(ops.square(gradient), v),
                                  1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[index]
            v_hat.assign(ops.maximum(v_hat, v))
            v = v_hat
        variable.assign_sub(ops.divide(ops.multiply(m, alpha),
                                       ops.add(ops.sqrt(v), self.epsilon)))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2,
                       "epsilon": self.epsilon, "amsgrad": self.amsgrad})
        return config
