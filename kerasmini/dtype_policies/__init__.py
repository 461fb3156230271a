"""Dtype policies (Keras 3's ``keras/src/dtype_policies/``): what a layer
computes in and stores its weights in.

:func:`get` turns what a layer's ``dtype=`` receives (``None``, a name, a
policy, or the dict a config holds) into a :class:`DTypePolicy`.

>>> get("mixed_float16").compute_dtype
'float16'
>>> get({"class_name": "DTypePolicy", "config": {"name": "float64"}})
<DTypePolicy "float64">
"""

import numpy as np  # noqa: F401 (the examples use it)

from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.dtype_policies.dtype_policy import (
    DTypePolicy,
    FloatDTypePolicy,
    dtype_policy,
    reset_dtype_policy,
    set_dtype_policy,
)
from kerasmini.saving import serialization

ALL_OBJECTS_DICT = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy}


@keras_export("kerasmini.dtype_policies.serialize")
def serialize(policy):
    """A policy as Keras 3 writes it in a layer's config.

    >>> serialize(DTypePolicy("mixed_float16"))["config"]
    {'name': 'mixed_float16'}
    """
    return serialization.serialize_dtype_policy(policy.name)


@keras_export("kerasmini.dtype_policies.deserialize")
def deserialize(config_, custom_objects=None):
    """A policy from :func:`serialize`'s dict.

    >>> deserialize(serialize(DTypePolicy("float16")))
    <DTypePolicy "float16">
    """
    if not isinstance(config_, dict) or not isinstance(config_.get("config"), dict) \
            or config_.get("class_name") not in ALL_OBJECTS_DICT:
        raise ValueError(
            "Expected a dtype policy config: {'class_name': 'DTypePolicy', "
            f"'config': {{'name': ...}}}}. Received: config={config_!r}"
        )
    return ALL_OBJECTS_DICT[config_["class_name"]].from_config(config_["config"])


@keras_export("kerasmini.dtype_policies.get")
def get(identifier):
    """A :class:`DTypePolicy` from ``None`` (the global policy), a name, a
    NumPy dtype, a policy or a config dict.

    >>> get(None) == dtype_policy(), get(np.float64)
    (True, <DTypePolicy "float64">)
    """
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, dict):  # the config get_config writes
        try:
            return deserialize(identifier)
        except (TypeError, ValueError):
            raise ValueError(
                "Cannot interpret `dtype` argument: a dict must be a "
                "`DTypePolicy` config, `{'class_name': 'DTypePolicy', "
                f"'config': {{'name': ...}}}}`. Received: dtype={identifier!r}"
            ) from None
    if isinstance(identifier, (DTypePolicy, str)):  # a policy, or its name
        return identifier if isinstance(identifier, DTypePolicy) else \
            DTypePolicy(identifier)
    try:
        return DTypePolicy(config.standardize_dtype(identifier))
    except ValueError:
        raise ValueError(
            "Cannot interpret `dtype` argument. Expected a string or an instance "
            f"of DTypePolicy. Received: dtype={identifier!r}"
        ) from None


__all__ = ["ALL_OBJECTS_DICT", "DTypePolicy", "FloatDTypePolicy", "deserialize",
           "dtype_policy", "get", "reset_dtype_policy", "serialize",
           "set_dtype_policy"]
