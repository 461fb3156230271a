"""``AdamW``: Adam with decoupled weight decay (Loshchilov and Hutter, 2019).

L2 regularisation adds ``wd * w`` to the gradient, and Adam then divides it
by ``sqrt(v)``: weights with large gradients are barely decayed. AdamW
decays the weights directly instead, before each Adam step::

    w = w - w * weight_decay * lr     # decoupled: no gradient involved
    w = adam_step(w, g)               # Adam's update, unchanged

The decay is the base optimizer's (:meth:`Optimizer.apply`, as Keras 3's
``_apply_weight_decay``); ``AdamW`` only makes it on by default
(``weight_decay=0.004``) and refuses ``None``. So a traced step runs the
decay as recorded ops and then Adam's fused kernel
(:func:`~kerasmini.backend.fast.kernels.adam_update`), unchanged.

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> w = Variable([1.0], name="w")
>>> _ = AdamW(learning_rate=0.1, weight_decay=0.5).apply_gradients(
...     [(np.array([0.0], "float32"), w)])
>>> w.numpy()  # a zero gradient: only the decay, 1 - 1 * 0.5 * 0.1
array([0.95], dtype=float32)
"""

from kerasmini.api_export import keras_export
from kerasmini.optimizers.adam import Adam


@keras_export("kerasmini.optimizers.AdamW")
class AdamW(Adam):
    """The AdamW optimizer.

    Args:
        learning_rate: default 0.001.
        weight_decay: the decay rate (default 0.004); must be a number.
        beta_1, beta_2, epsilon, amsgrad: as in :class:`Adam`.
        **kwargs: see :class:`~kerasmini.optimizers.Optimizer`
            (``clipnorm``, ``clipvalue``, ``global_clipnorm``).

    >>> AdamW().get_config()["weight_decay"], AdamW().name.startswith("adam_w")
    (0.004, True)
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9,
                 beta_2=0.999, epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        if weight_decay is None:
            raise ValueError(
                "Argument `weight_decay` must be a float. Received: weight_decay=None"
            )
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, name=name,
                         weight_decay=weight_decay, **kwargs)
