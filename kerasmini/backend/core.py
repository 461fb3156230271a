"""The one door every computation goes through: :class:`Primitive`.

A primitive is a NumPy function plus, optionally, its gradient rule. Calling
one does three things, in the same place for every op:

1. unwrap the arguments (a :class:`~kerasmini.backend.variables.Variable` or a
   :class:`GraphTensor` gives its NumPy value) and run the NumPy function;
2. if a graph is being traced (inside :func:`kerasmini.function`), append the
   call to that graph and hand back a :class:`GraphTensor`;
3. if any :class:`~kerasmini.backend.tape.GradientTape` is recording, append
   the call to it, so :meth:`GradientTape.gradient` can walk it backwards.

Eager values are plain ``np.ndarray``; nothing else in kerasmini touches NumPy
maths directly. This is what Keras's backend directory is to Keras.

>>> import numpy as np
>>> double = Primitive("double", lambda x: x * 2)
>>> double(np.array([1.0, 2.0]))
array([2., 4.])
"""

import numpy as np

from kerasmini.backend import config


class _State:
    """Mutable global state of the backend (one process, one thread)."""

    def __init__(self):
        self.graphs = []  # graphs being traced, innermost last
        self.tapes = []  # recording GradientTapes
        self.symbolic = 0  # >0 while shapes are inferred by a dry run
        # mixed precision (backend/autocast.py): the innermost AutocastScope,
        # and its `maybe_cast` of a primitive's arguments while it casts
        self.autocast_scope = None
        self.autocast = None


STATE = _State()


def executing_eagerly() -> bool:
    """``True`` unless a :func:`kerasmini.function` is being traced.

    >>> executing_eagerly()
    True
    """
    return not STATE.graphs


class GraphTensor:
    """A value inside a graph being traced by :func:`kerasmini.function`.

    It knows its concrete value from the tracing run (so shapes are exact), and
    the ``slot`` the replayed graph stores it in. Arithmetic on it records ops;
    turning it into a NumPy array or a Python bool is refused, because the
    value will be different on the next call (as in ``tf.function``).

    >>> from kerasmini.backend.graph import function
    >>> seen = []
    >>> _ = function(lambda x: seen.append(type(x).__name__) or x)(np.ones(2))
    >>> seen
    ['GraphTensor']
    """

    # `_keras_logits`: set by the softmax/sigmoid activations (as Keras does on
    # TensorFlow tensors) so a crossentropy can start from the logits;
    # `_keras_mask`: the mask a layer attached (see backend/masking.py)
    __slots__ = ("_value", "slot", "graph", "_keras_logits", "_keras_mask")
    __array_priority__ = 100

    def __init__(self, value, slot, graph):
        self._value = value
        self.slot = slot
        self.graph = graph
        self._keras_logits = None
        self._keras_mask = None

    shape = property(lambda self: self._value.shape)
    dtype = property(lambda self: self._value.dtype.name)
    ndim = property(lambda self: self._value.ndim)

    def __len__(self):
        return len(self._value)

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "A graph tensor is being traced by `kerasmini.function` and has no "
            "fixed NumPy value: use `kerasmini.ops` functions on it instead of "
            "NumPy, or run eagerly (`run_eagerly=True`). "
            f"Received: {self!r}"
        )

    def __bool__(self):
        raise TypeError(
            "Using a traced graph tensor as a Python `bool` is not allowed: the "
            "branch would be frozen into the graph. Received: " + repr(self)
        )

    def numpy(self):
        return self.__array__()

    def __repr__(self):
        return f"<GraphTensor shape={self.shape}, dtype={self.dtype}, slot={self.slot}>"

    # Operators are attached in numpy.py (they need the primitives).


class TapeTensor(np.ndarray):
    """An eager result computed while a ``GradientTape`` records.

    It is a NumPy array whose Python operators (``a + b``, ``a * b``,
    ``a @ b``, ``a[i]``, ``-a``...) go through the backend's primitives, so
    arithmetic written on intermediate results is recorded like a call of
    ``ops.add`` (TensorFlow's eager tensors behave the same way). Outside a
    tape, results are plain arrays and cost nothing extra.

    >>> from kerasmini import ops
    >>> from kerasmini.backend import GradientTape, Variable
    >>> w = Variable(3.0)
    >>> with GradientTape() as tape:
    ...     y = ops.multiply(w, 2.0)
    ...     z = y * y  # operators on a TapeTensor are recorded
    >>> type(y).__name__, float(tape.gradient(z, w))
    ('TapeTensor', 24.0)
    """

    __kerasmini_tape_tensor__ = True

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


def value_of(x):
    """The NumPy value behind a tensor-like (Variable, GraphTensor or array).

    >>> value_of(3.0)
    array(3., dtype=float32)
    """
    if isinstance(x, np.ndarray):
        # a plain view of a TapeTensor: NumPy's own code must not record
        return x if type(x) is np.ndarray else x.view(np.ndarray)
    raw = getattr(x, "_value", None)
    if raw is not None and hasattr(x, "__kerasmini_tensor__"):
        return raw
    return convert_to_tensor(x)


def convert_to_tensor(x, dtype=None):
    """Make ``x`` a NumPy array; Python floats become :func:`floatx`.

    >>> convert_to_tensor([1, 2]).dtype.name, convert_to_tensor(1.5).dtype.name
    ('int64', 'float32')
    """
    if hasattr(x, "__kerasmini_tensor__"):
        x = x._value
    if dtype is not None:
        return np.asarray(x, dtype=config.standardize_dtype(dtype))
    if isinstance(x, np.ndarray):
        return x
    array = np.asarray(x)
    if array.dtype == np.float64 and not isinstance(x, (np.floating, np.generic)):
        array = array.astype(config.floatx())
    if array.dtype.kind in "US" or array.dtype == object:
        raise TypeError(
            "Expected a number or an array of numbers. "
            f"Received: x={x!r} (of type {type(x).__name__})"
        )
    return array


def is_tensor(x) -> bool:
    """Whether ``x`` is something a primitive accepts as a tensor.

    >>> is_tensor(np.zeros(2)), is_tensor("a")
    (True, False)
    """
    return isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "__kerasmini_tensor__")


GraphTensor.__kerasmini_tensor__ = True


def unwrap(args):
    """The NumPy values a primitive runs on.

    A Python number next to a numeric tensor stays a Python number, so NumPy
    treats it as weakly typed, as Keras does: ``float32 tensor * 2`` stays
    float32 (a 0-d ``int64`` array would make it float64 under NumPy 2).

    >>> unwrap([np.ones(2, "float32"), 2])[1], unwrap([2.0])[0].dtype.name
    (2, 'float32')
    """
    values = [value_of(a) for a in args]
    if any(type(a) in (int, float) for a in args) and any(
            is_tensor(a) and v.dtype.kind != "b" for a, v in zip(args, values)):
        values = [a if type(a) in (int, float) else v for a, v in zip(args, values)]
    return values


class _ArgnumRules:
    """Looks like a tuple of rules, one per argument, for variadic ops."""

    def __init__(self, rule):
        self.rule = rule

    def __len__(self):
        return 1 << 30

    def __getitem__(self, argnum):
        rule = self.rule
        return lambda g, ans, *args, **params: rule(argnum, g, ans, *args, **params)


class Primitive:
    """A backend operation: a NumPy ``forward`` and per-argument gradient rules.

    Args:
        name: the op's name (shown in traces and graphs).
        forward: ``forward(*arrays, **params) -> array``. Positional arguments
            are tensors; keyword arguments are static Python values (axis,
            shape, ...), fixed when a graph is traced.
        stateful: the op has a side effect or draws random numbers; a traced
            graph must replay it even if its output is unused.

    Gradient rules are attached with :meth:`defvjp`: one function per
    positional argument, ``rule(g, ans, *args, **params)`` returning the
    gradient for that argument (written with primitives, so it can itself be
    traced and differentiated).

    >>> import numpy as np
    >>> square = Primitive("square", np.square)
    >>> square.defvjp(lambda g, ans, x: g * 2 * x)
    >>> square(np.array([3.0]))
    array([9.])
    """

    def __init__(self, name, forward, stateful=False):
        self.name = name
        self.forward = forward
        self.stateful = stateful
        self.vjps = None  # tuple of rules, one per positional argument

    def defvjp(self, *rules):
        """Attach gradient rules, one per positional argument (``None`` = none)."""
        self.vjps = rules

    def defvjp_argnum(self, rule):
        """Attach one rule ``rule(argnum, g, ans, *args, **params)`` for ops
        that take any number of tensors (``concatenate``, ``stack``)."""
        self.vjps = _ArgnumRules(rule)

    def __call__(self, *args, **params):
        if STATE.autocast is not None:  # mixed precision: see backend/autocast.py
            args = STATE.autocast(args)
        # 1. run NumPy on the unwrapped values.
        values = unwrap(args)
        out = self.forward(*values, **params)
        if not isinstance(out, np.ndarray):
            out = np.asarray(out)
        elif any(out is v for v in values):
            out = out.view()  # a fresh object, so the tape can tell them apart
        if STATE.tapes and not STATE.graphs and type(out) is np.ndarray:
            # arithmetic written on this result is recorded too
            out = out.view(TapeTensor)
        # 2. record into the graph being traced (returns a GraphTensor).
        if STATE.graphs:
            out = STATE.graphs[-1].record(self, args, params, out, values)
        # 3. record onto every tape that is watching.
        if STATE.tapes and self.vjps is not None:
            for tape in STATE.tapes:
                if tape.recording:
                    tape.record(self, args, params, out)
        return out

    def __repr__(self):
        return f"<Primitive {self.name}>"


# The value unchanged, as a new recorded op: how a traced function reads a
# variable at the point of use (``Variable.value``). Gradient: passed through.
identity = Primitive("identity", lambda x: x)
identity.defvjp(lambda g, ans, x: g)
