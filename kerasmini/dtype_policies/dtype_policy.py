"""``DTypePolicy``: the dtype a layer computes in and the dtype it stores.

A policy has two dtypes. The **variable dtype** is what ``add_weight``
creates the weights in; the **compute dtype** is what the layer casts its
floating inputs to and reads its weights in while ``call`` runs. They are the
same (``"float32"``) unless the policy is mixed: ``"mixed_float16"`` computes
in float16 with float32 weights, so the optimizer's small updates are not
lost to float16's 11 bits of precision (Keras 3's
``keras/src/dtype_policies/dtype_policy.py``).

The global policy (:func:`set_dtype_policy`, ``keras.mixed_precision.
set_global_policy``) is what a layer built without ``dtype=`` takes.

kerasmini computes with NumPy, which has float16 but no bfloat16, so
``"mixed_bfloat16"`` and ``"bfloat16"`` are refused with a ``ValueError``
that says so (Keras runs them on its other backends).

>>> policy = DTypePolicy("mixed_float16")
>>> policy.compute_dtype, policy.variable_dtype
('float16', 'float32')
>>> DTypePolicy("float64")
<DTypePolicy "float64">
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config, register_session_hook

_BFLOAT16 = (
    "kerasmini computes with NumPy, which has no bfloat16 type: use "
    "'mixed_float16' (float16 computations, float32 weights) or 'float32'. "
    "Received: {arg}={name!r}"
)
_GLOBAL = [None]  # the policy set by set_dtype_policy (None: follow floatx)


@keras_export(["kerasmini.DTypePolicy", "kerasmini.dtype_policies.DTypePolicy",
               "kerasmini.mixed_precision.DTypePolicy",
               "kerasmini.mixed_precision.Policy"])
class DTypePolicy:
    """A layer's compute and variable dtypes, from one name.

    Args:
        name: a dtype name (``"float32"``, ``"float16"``, ``"float64"``, or
            an integer type for layers that compute no floats): both dtypes;
            ``"mixed_float16"``: float16 computations, float32 variables.
            ``None``: the global policy's name.

    >>> DTypePolicy("mixed_float16").name
    'mixed_float16'
    >>> DTypePolicy("mixed_bfloat16")
    Traceback (most recent call last):
      ...
    ValueError: kerasmini computes with NumPy, which has no bfloat16 type: use ...
    """

    def __init__(self, name=None):
        if name is None:
            name = dtype_policy().name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)
        self._name = name

    @staticmethod
    def _parse_name(name):
        if not isinstance(name, str):
            raise TypeError(
                "'name' must be a string, such as 'mixed_float16'. "
                f"Received: name={name!r} (of type {type(name).__name__})"
            )
        if name == "mixed_float16":
            return "float16", "float32"
        if "bfloat16" in name:
            raise ValueError(_BFLOAT16.format(arg="name", name=name))
        try:
            dtype = config.standardize_dtype(name)
        except ValueError:
            raise ValueError(
                f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                "policies include 'mixed_float16' and the name of any float dtype "
                "such as 'float32' (kerasmini has no 'mixed_bfloat16': NumPy has "
                f"no bfloat16). Received: name={name!r}"
            ) from None
        return dtype, dtype

    @property
    def name(self):
        """The policy's name (``"mixed_float16"``, ``"float32"``...)."""
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's inputs, computations and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype the layer's weights are created in."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """Always ``None``: kerasmini has no quantized policies."""
        return None

    def convert_input(self, x, autocast, dtype):
        """``x`` cast to ``dtype`` if it holds floats of another float type
        and ``autocast`` is on (integers and booleans pass unchanged).

        >>> import numpy as np
        >>> DTypePolicy("mixed_float16").convert_input(
        ...     np.ones(2, "float64"), True, "float16").dtype
        dtype('float16')
        """
        from_dtype = config.standardize_dtype(x.dtype)
        if autocast and config.is_float_dtype(from_dtype) and from_dtype != dtype:
            return ops.cast(x, dtype)
        return x

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config_):
        return cls(**config_)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and self._name == other._name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


@keras_export(["kerasmini.FloatDTypePolicy",
               "kerasmini.dtype_policies.FloatDTypePolicy"])
class FloatDTypePolicy(DTypePolicy):
    """Keras 3's alias of :class:`DTypePolicy` (it prints as one).

    >>> FloatDTypePolicy("float32") == DTypePolicy("float32")
    True
    """


@keras_export(["kerasmini.mixed_precision.set_dtype_policy",
               "kerasmini.mixed_precision.set_global_policy"])
def set_dtype_policy(policy):
    """Set the policy of every layer made from now on without ``dtype=``.

    >>> set_dtype_policy("mixed_float16"); dtype_policy().compute_dtype
    'float16'
    >>> set_dtype_policy("float32")
    """
    if isinstance(policy, str):
        policy = DTypePolicy(policy)
    if not isinstance(policy, DTypePolicy):
        raise ValueError(
            "Invalid `policy` argument. Expected the string name of a policy (such "
            "as 'mixed_float16') or a `DTypePolicy` instance. Received: "
            f"policy={policy!r} (of type {type(policy).__name__})"
        )
    _GLOBAL[0] = policy


@keras_export(["kerasmini.mixed_precision.dtype_policy",
               "kerasmini.mixed_precision.global_policy"])
def dtype_policy():
    """The global policy: the one set, else the policy of ``floatx()``.

    Unlike Keras, an unset policy follows :func:`kerasmini.backend.floatx`
    at every call (Keras fixes it the first time it is asked).

    >>> dtype_policy()
    <DTypePolicy "float32">
    """
    if _GLOBAL[0] is not None:
        return _GLOBAL[0]
    return DTypePolicy(config.floatx())


def reset_dtype_policy():
    """Forget the global policy. ``clear_session`` calls it: Keras 3 keeps the
    policy in the global state that ``clear_session`` replaces.

    >>> set_dtype_policy("float16"); reset_dtype_policy(); dtype_policy()
    <DTypePolicy "float32">
    """
    _GLOBAL[0] = None


register_session_hook(reset_dtype_policy)


__all__ = ["DTypePolicy", "FloatDTypePolicy", "dtype_policy", "reset_dtype_policy",
           "set_dtype_policy"]
