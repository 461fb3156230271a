"""Mixed precision's autocast: float variables read in the compute dtype.

A layer whose policy computes in float16 but keeps float32 weights
(``"mixed_float16"``) runs ``call`` inside an :class:`AutocastScope`. There,
every primitive that receives a float :class:`~kerasmini.backend.Variable`
receives ``cast(variable, "float16")`` instead: a recorded op, so the
gradient flows back through the cast to the float32 variable (in float32),
and a traced step replays the cast. Keras 3 does the same when a variable's
``value`` is read in its ``AutocastScope`` (``keras/src/backend/common/
variables.py``); kerasmini reads variables in one place, the primitive's call
(:class:`~kerasmini.backend.core.Primitive`), so that is where it casts.

>>> import numpy as np
>>> from kerasmini.backend import Variable, numpy as bnp
>>> w = Variable(np.ones(2, "float32"))
>>> with AutocastScope("float16"):
...     y = bnp.multiply(w, np.ones(2, "float16"))
>>> y.dtype, w.dtype
(dtype('float16'), 'float32')
"""

from kerasmini.backend import config
from kerasmini.backend.core import STATE
from kerasmini.backend.numpy import cast


def _is_float_variable(x):
    return getattr(x, "__kerasmini_variable__", False) and \
        x.dtype.startswith("float") and getattr(x, "autocast", True)


class AutocastScope:
    """Inside it, float variables are read as ``dtype`` (``None``: as they
    are, which a layer with ``autocast=False`` uses to leave an outer scope).

    >>> AutocastScope("int32")
    Traceback (most recent call last):
      ...
    ValueError: `AutocastScope` can only be used with a floating-point target ...
    """

    def __init__(self, dtype):
        if dtype is not None:
            dtype = config.standardize_dtype(dtype)
            if not dtype.startswith("float"):
                raise ValueError(
                    "`AutocastScope` can only be used with a floating-point target "
                    f"dtype, such as 'float16'. Received: dtype={dtype}"
                )
        self.dtype = dtype
        self._outer = None

    def maybe_cast(self, args):
        """``args`` with each float variable replaced by its cast (the casts
        themselves run outside the scope, so they do not cast again)."""
        STATE.autocast = None
        try:
            return tuple(cast(a, self.dtype) if _is_float_variable(a) and
                         a.dtype != self.dtype else a for a in args)
        finally:
            STATE.autocast = self.maybe_cast

    def __enter__(self):
        self._outer = STATE.autocast_scope
        STATE.autocast_scope = self
        STATE.autocast = self.maybe_cast if self.dtype is not None else None
        return self

    def __exit__(self, *exc):
        STATE.autocast_scope = self._outer
        outer = self._outer
        STATE.autocast = outer.maybe_cast if outer is not None and \
            outer.dtype is not None else None


def get_autocast_scope():
    """The innermost :class:`AutocastScope`, or ``None``.

    >>> get_autocast_scope() is None
    True
    """
    return STATE.autocast_scope


def read_dtype(variable):
    """The dtype ``variable`` is read in here (the scope's, for a float
    variable inside an autocast scope): what a symbolic call infers with.

    >>> from kerasmini.backend import Variable
    >>> with AutocastScope("float16"):
    ...     read_dtype(Variable(1.0))
    'float16'
    """
    scope = STATE.autocast_scope
    if scope is not None and scope.dtype is not None and _is_float_variable(variable):
        return scope.dtype
    return variable.dtype


__all__ = ["AutocastScope", "get_autocast_scope", "read_dtype"]
