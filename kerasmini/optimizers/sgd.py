"""``SGD``: gradient descent, with optional (Nesterov) momentum.

Without momentum: ``w -= lr * g``. With momentum ``m`` (a slot per
variable, zeros at first)::

    v = momentum * v - lr * g
    w += v                          # classic
    w += momentum * v - lr * g      # nesterov

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> opt = SGD(learning_rate=0.5, momentum=0.9)
>>> for _ in range(2):
...     _ = opt.apply_gradients([(np.array([1.0], "float32"), w)])
>>> w.numpy()  # 1 - 0.5 - (0.9 * 0.5 + 0.5)
array([-0.45], dtype=float32)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.optimizers.optimizer import Optimizer


@keras_export("kerasmini.optimizers.SGD")
class SGD(Optimizer):
    """Stochastic gradient descent.

    Args:
        learning_rate: default 0.01.
        momentum: in ``[0, 1]``; 0 means plain gradient descent.
        nesterov: use Nesterov momentum.
        **kwargs: see :class:`~kerasmini.optimizers.Optimizer`.

    >>> SGD(momentum=0.9, nesterov=True).get_config()["nesterov"]
    True
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False,
                 name="SGD", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(
                f"`momentum` must be a float between [0, 1]. Received: "
                f"momentum={momentum} (of type {type(momentum)})."
            )
        self.momentum = float(momentum)
        self.nesterov = nesterov

    def build(self, var_list):
        super().build(var_list)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(var_list, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        step = ops.multiply(gradient, lr)  # lr * g
        if self.momentum == 0:
            variable.assign_sub(step)
            return
        m = self.momentums[self._get_variable_index(variable)]
        m.assign(ops.subtract(ops.multiply(m, self.momentum), step))
        if self.nesterov:
            variable.assign_add(ops.subtract(ops.multiply(m, self.momentum), step))
        else:
            variable.assign_add(m)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
