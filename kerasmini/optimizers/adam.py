"""``Adam``: momentum plus a per-weight step size from gradient magnitudes.

With slots ``m`` (mean of gradients) and ``v`` (mean of squared gradients)
and step number ``t`` (starting at 1)::

    m = m + (g - m) * (1 - beta_1)
    v = v + (g**2 - v) * (1 - beta_2)
    alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)   # bias correction
    w = w - alpha * m / (sqrt(v) + epsilon)

This is the form Keras 3 writes (``keras/src/optimizers/adam.py``). Two
steps make it fast without changing the maths:

1. *scalar step factors computed once*: the bias-corrected ``alpha`` is the
   same for every variable, so :meth:`Adam.apply` computes it once per step,
   as one number (:func:`bias_corrected_rate`), not once per variable;
2. *in-place updates*: :func:`adam_update` writes ``m``, ``v`` and the
   variable in place with one scratch array, as one recorded step per
   variable (a traced ``fit`` replays 4 steps for a 2-layer MLP where the
   formula written with ops replays 44), and a step allocates no new
   weights (this matters for big layers: the torch backend of Keras updates
   in place too). ``amsgrad=True`` keeps the formula written with ops;
3. *in blocks*: a big variable is updated :data:`BLOCK` entries at a time,
   so the scratch array is one block, not a whole kernel, and the block's
   eleven passes run in the CPU cache instead of in main memory (a
   3000 x 3000 kernel updates about 1.5x faster).

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = Adam(learning_rate=0.1).apply_gradients([(np.array([0.5], "float32"), w)])
>>> w.numpy().round(4)  # the first step moves by ~lr whatever the gradient's size
array([0.9], dtype=float32)
"""

import math

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.core import Primitive
from kerasmini.optimizers.optimizer import Optimizer


def _bias_corrected_rate(iterations, learning_rate, beta_1, beta_2):
    t = float(iterations) + 1  # the step being taken, from 1
    alpha = float(learning_rate) * math.sqrt(1 - beta_2**t) / (1 - beta_1**t)
    return np.asarray(alpha, dtype=np.asarray(learning_rate).dtype)


# One primitive, so a traced step replays it as one step (no gradient: an
# update is never differentiated). It reads `iterations` and the learning
# rate at replay time, so a callback that changes the rate is seen.
bias_corrected_rate = Primitive("adam_bias_corrected_rate", _bias_corrected_rate)


# Entries per block of a big update: 256 KB of float32 per array, so the
# five arrays of a block fit in a typical 1-2 MB L2 cache.
BLOCK = 1 << 16


def _adam_update(variable, m, v, gradient, alpha, beta_1, beta_2, epsilon):
    # The three arrays are the variables' own values (a Primitive unwraps a
    # Variable to its array), so writing into them updates the variables.
    arrays = (variable, m, v)
    if variable.size > BLOCK and all(a.flags.c_contiguous for a in arrays):
        # flat views of the same buffers (the gradient may be a copy: it is
        # only read), updated one block at a time
        w_flat, m_flat, v_flat = (a.reshape(-1) for a in arrays)
        g_flat = np.reshape(gradient, -1)
        for i in range(0, w_flat.size, BLOCK):
            block = slice(i, i + BLOCK)
            _adam_block(w_flat[block], m_flat[block], v_flat[block],
                        g_flat[block], alpha, beta_1, beta_2, epsilon)
        return variable
    return _adam_block(variable, m, v, gradient, alpha, beta_1, beta_2, epsilon)


def _adam_block(variable, m, v, gradient, alpha, beta_1, beta_2, epsilon):
    step = np.subtract(gradient, m)  # the one scratch array, reused below
    step *= 1 - beta_1
    m += step  # m = m + (g - m) * (1 - beta_1)
    np.square(gradient, out=step)
    step -= v
    step *= 1 - beta_2
    v += step  # v = v + (g**2 - v) * (1 - beta_2)
    np.sqrt(v, out=step)
    step += epsilon
    np.divide(m, step, out=step)
    step *= alpha
    variable -= step  # w = w - alpha * m / (sqrt(v) + epsilon)
    return variable


# Stateful: a traced graph must replay it although nothing reads its output;
# it writes into its inputs, so a graph reuses nothing computed before it.
adam_update = Primitive("adam_update", _adam_update, stateful=True)
adam_update.writes_in_place = True


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

    def apply(self, grads, trainable_variables=None):
        # 1. scalar step factors, once per step: alpha for step t = iterations + 1
        self._alpha = bias_corrected_rate(self.iterations, self.learning_rate,
                                          beta_1=self.beta_1, beta_2=self.beta_2)
        super().apply(grads, trainable_variables)

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m, v = self._momentums[index], self._velocities[index]
        if not self.amsgrad:
            # 2. in place, one step: the formula of the module docstring
            adam_update(variable, m, v, gradient, self._alpha, beta_1=self.beta_1,
                        beta_2=self.beta_2, epsilon=self.epsilon)
            return
        alpha = ops.cast(self._alpha, variable.dtype)
        m.assign_add(ops.multiply(ops.subtract(gradient, m), 1 - self.beta_1))
        v.assign_add(ops.multiply(ops.subtract(ops.square(gradient), v),
                                  1 - self.beta_2))
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
