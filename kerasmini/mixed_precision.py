"""``keras.mixed_precision``: Keras's legacy names for the dtype policies.

Keras 3 keeps this namespace for code written for Keras 2 (``Policy``,
``set_global_policy``, ``global_policy``); the classes live in
:mod:`kerasmini.dtype_policies`. ``LossScaleOptimizer`` is not here:
kerasmini does not scale losses (see the README).

>>> from kerasmini import mixed_precision
>>> mixed_precision.set_global_policy("mixed_float16")
>>> mixed_precision.global_policy()
<DTypePolicy "mixed_float16">
>>> mixed_precision.set_global_policy("float32")
"""

from kerasmini.dtype_policies.dtype_policy import (
    DTypePolicy,
    dtype_policy,
    set_dtype_policy,
)

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy

__all__ = ["DTypePolicy", "Policy", "dtype_policy", "global_policy",
           "set_dtype_policy", "set_global_policy"]
