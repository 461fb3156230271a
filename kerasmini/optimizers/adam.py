"""``Adam``: momentum plus a per-weight step size from gradient magnitudes.

With slots ``m`` (mean of gradients) and ``v`` (mean of squared gradients)
and step number ``t`` (starting at 1)::

    m = m + (g - m) * (1 - beta_1)
    v = v + (g**2 - v) * (1 - beta_2)
    alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)   # bias correction
    w = w - alpha * m / (sqrt(v) + epsilon)

This is the form Keras 3 writes (``keras/src/optimizers/adam.py``), and
:meth:`Adam.update_step` writes it the same way, with ops and ``assign``.
A traced ``fit`` step runs the same formula as one fused kernel over every
variable (:meth:`Adam.fused_update_step`): ``alpha`` computed once per step,
``m``, ``v`` and the weights written in place in cache-sized blocks, so a
step allocates no new weights (:mod:`kerasmini.backend.fast.kernels`).

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = Adam(learning_rate=0.1).apply_gradients([(np.array([0.5], "float32"), w)])
>>> w.numpy().round(4)  # the first step moves by ~lr whatever the gradient's size
array([0.9], dtype=float32)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.fast import kernels
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
        # 1 would divide by zero in the bias correction, 1 - beta_1**t
        self.beta_1 = self._checked(beta_1, "beta_1", low=0, high=1, high_open=True)
        self.beta_2 = self._checked(beta_2, "beta_2", low=0, high=1, high_open=True)
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

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        t = ops.cast(self.iterations + 1, variable.dtype)  # this step, from 1
        beta_1_power = ops.power(ops.cast(self.beta_1, variable.dtype), t)
        beta_2_power = ops.power(ops.cast(self.beta_2, variable.dtype), t)
        index = self._get_variable_index(variable)
        m, v = self._momentums[index], self._velocities[index]
        alpha = lr * ops.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add(ops.multiply(ops.subtract(gradient, m), 1 - self.beta_1))
        v.assign_add(ops.multiply(ops.subtract(ops.square(gradient), v),
                                  1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[index]
            v_hat.assign(ops.maximum(v_hat, v))
            v = v_hat
        variable.assign_sub(ops.divide(ops.multiply(m, alpha),
                                       ops.add(ops.sqrt(v), self.epsilon)))

    def fused_update_step(self, grads, trainable_variables, learning_rate):
        """Every variable's ``update_step`` as one call of the fused kernel
        :func:`~kerasmini.backend.fast.kernels.adam_update` (the same
        formula, in place): what a traced step runs. None for AMSGrad."""
        if self.amsgrad:
            return None
        groups = []
        for gradient, variable in zip(grads, trainable_variables):
            index = self._get_variable_index(variable)
            groups += [variable, self._momentums[index], self._velocities[index],
                       gradient]
        return kernels.adam(groups, learning_rate, self.iterations,
                            self.beta_1, self.beta_2, self.epsilon)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2,
                       "epsilon": self.epsilon, "amsgrad": self.amsgrad})
        return config
