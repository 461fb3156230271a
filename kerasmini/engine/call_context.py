"""The call context: what an outer layer call tells the inner ones.

The outermost ``Layer.__call__`` opens a context holding the resolved
``training`` flag; layers called from inside its ``call`` (sub-layers, the
layers of a Functional model) read it when they were not given ``training``
explicitly. That is how ``model(x, training=True)`` reaches a ``Dropout``
three levels down. (Keras 3 keeps it in ``global_state`` as
``current_call_ctx``; Keras 2 in ``base_layer_utils.call_context()``.)

>>> with scope("outer", training=True):
...     current().training
True
>>> current() is None
True
"""

import contextlib


class CallContext:
    """The state shared by nested layer calls.

    >>> CallContext("dense", training=True)
    CallContext(entry_layer='dense', training=True)
    """

    def __init__(self, entry_layer, training):
        self.entry_layer = entry_layer
        self.training = training

    def __repr__(self):
        return f"CallContext(entry_layer={self.entry_layer!r}, training={self.training})"


_STACK = []


def current():
    """The innermost open context, or ``None`` outside any layer call.

    >>> current() is None
    True
    """
    return _STACK[-1] if _STACK else None


@contextlib.contextmanager
def scope(layer, training):
    """Open a context for a call of ``layer`` (the outermost call becomes
    ``entry_layer``); an explicit ``training`` overrides the outer value.

    >>> with scope("outer", training=True):
    ...     with scope("inner", training=None) as ctx:
    ...         ctx.entry_layer
    'outer'
    """
    outer = current()
    if outer is None:
        ctx = CallContext(layer, training)
    else:
        ctx = CallContext(outer.entry_layer, training)
    _STACK.append(ctx)
    try:
        yield ctx
    finally:
        _STACK.pop()
