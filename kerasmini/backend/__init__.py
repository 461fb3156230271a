"""The backend: the only part of kerasmini that touches NumPy maths.

It holds the :class:`Variable`, the primitive ops with their gradient rules
(the NumPy API in :mod:`kerasmini.backend.numpy` and
:mod:`kerasmini.backend.numpy_extra`; activations, softmax, convolution and
pooling in :mod:`kerasmini.backend.nn`; ``erf``, ``top_k`` and ``fft2`` in
:mod:`kerasmini.backend.math`; resizing images in
:mod:`kerasmini.backend.image`), the :class:`GradientTape`, the
tracing :func:`function`, the symbolic :class:`KerasTensor`, name scopes and
unique names, the seeded random generator, the dtype settings and the checks
of user values. Nothing here imports from above the backend: ``kerasmini.ops``
computes with these primitives on arrays.

>>> from kerasmini import backend
>>> backend.floatx(), backend.executing_eagerly()
('float32', True)
"""

from kerasmini.backend import image, math, nn, numpy, numpy_extra, random
from kerasmini.backend.config import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
    standardize_dtype,
)
from kerasmini.backend.core import (
    GraphTensor,
    Primitive,
    convert_to_tensor,
    executing_eagerly,
    is_tensor,
)
from kerasmini.backend.graph import (
    Function,
    Graph,
    current_graph,
    function,
    init_scope,
)
from kerasmini.backend.naming import (
    auto_name,
    current_path,
    get_uid,
    name_scope,
    reset_names,
    reset_scopes,
    to_snake_case,
)
from kerasmini.backend.tape import GradientTape, stop_gradient
from kerasmini.backend.variables import Variable, get_graph_variables, track_variable

_SESSION_HOOKS = []


def clear_session() -> None:
    """Forget auto names (``dense`` is free again) and reset global state.

    Other modules (e.g. the training engine) register extra resets with
    :func:`register_session_hook`.

    >>> from kerasmini.backend import auto_name
    >>> clear_session(); auto_name("Dense")
    'dense'
    """
    reset_names()
    reset_scopes()
    for hook in _SESSION_HOOKS:
        hook()


def register_session_hook(hook) -> None:
    """Call ``hook()`` whenever :func:`clear_session` runs.

    >>> calls = []
    >>> register_session_hook(lambda: calls.append("reset"))
    >>> clear_session(); calls
    ['reset']
    >>> _SESSION_HOOKS.pop() is not None
    True
    """
    _SESSION_HOOKS.append(hook)


__all__ = [
    "Function", "GradientTape", "Graph", "GraphTensor", "Primitive", "Variable",
    "auto_name", "backend", "clear_session", "convert_to_tensor", "current_graph",
    "current_path", "epsilon", "executing_eagerly", "floatx", "function",
    "get_graph_variables", "get_uid", "image", "image_data_format", "init_scope",
    "is_tensor", "math", "name_scope", "nn", "numpy", "numpy_extra", "random",
    "register_session_hook", "reset_names", "set_epsilon", "set_floatx",
    "set_image_data_format", "standardize_dtype", "stop_gradient", "to_snake_case",
    "track_variable",
]
