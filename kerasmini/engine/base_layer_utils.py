"""Small helpers of ``Layer`` that are not part of its story.

Keras 2 keeps the same kind of helpers in ``keras/engine/base_layer_utils.py``:
finding sub-layers among attributes, the ``build`` wrapper, input checks.

>>> _dedup([1, 2, 1, 3])
[1, 2, 3]
"""

import functools
import inspect

import numpy as np

from kerasmini.backend.core import is_tensor
from kerasmini.backend.naming import name_scope

_NOT_SUBLAYERS = frozenset({"_inbound_nodes", "_outbound_nodes", "_keras_history",
                            "_output_layers", "_input_layers", "_self_ref",
                            # (layer, node_index, tensor_index) records, not
                            # sub-layers: walking them first would put a nested
                            # model's weights before its predecessors'
                            "_input_coordinates", "_output_coordinates"})


def _extra_init_args(cls):
    """``__init__`` parameters beyond the base layer's, for the error telling
    the author to write ``get_config``."""
    base = {"self", "trainable", "name", "dtype"}
    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.name not in base
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _build_wrapper(build):
    """Make a subclass's ``build`` run in the layer's name scope and mark the
    layer built, however it is called (as Keras 3's ``build_wrapper`` does)."""
    if getattr(build, "_is_build_wrapper", False):
        return build

    @functools.wraps(build)
    def wrapper(self, *args, **kwargs):
        with name_scope(self.name, caller=self):
            result = build(self, *args, **kwargs)
        self.built = True
        if args and self._build_input_shape is None:
            self._build_input_shape = args[0]
        return result

    wrapper._is_build_wrapper = True
    return wrapper


def _dedup(items):
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def _is_numeric_like(x):
    dtype = getattr(x, "dtype", None)
    if dtype is not None and is_tensor(x):  # no copy for arrays and Variables
        return np.dtype(dtype).kind in "biuf"
    try:
        return np.asarray(x).dtype.kind in "biuf"
    except (TypeError, ValueError):
        return False

