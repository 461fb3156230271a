"""``GradientTape``: reverse-mode autodiff over recorded primitive calls.

While a tape is open, every primitive call is appended to it (see
:class:`~kerasmini.backend.core.Primitive`). :meth:`GradientTape.gradient`
then (1) walks the records forwards to find which ones depend on the
sources, (2) walks them backwards from the target, applying each primitive's
gradient rule and adding up (``+=``) the contributions that meet at a value.
Because the rules are written with primitives, the backward pass is itself
traced when it runs inside :func:`kerasmini.function`, and recorded by an outer
tape (so gradients of gradients work).

>>> import numpy as np
>>> from kerasmini import ops
>>> from kerasmini.backend.variables import Variable
>>> w = Variable(3.0)
>>> with GradientTape() as tape:
...     y = ops.multiply(w, w)
>>> tape.gradient(y, w)
array(6., dtype=float32)
"""

import numpy as np

from kerasmini import tree
from kerasmini.backend.core import STATE, is_tensor
from kerasmini.backend.numpy import add, cast, ones_like
from kerasmini.backend.numpy import stop_gradient as _stop_gradient


class _Record:
    __slots__ = ("primitive", "args", "params", "out")

    def __init__(self, primitive, args, params, out):
        self.primitive = primitive
        self.args = args
        self.params = params
        self.out = out


class GradientTape:
    """Record operations so their gradients can be computed.

    Args:
        persistent: allow more than one :meth:`gradient` call.
        watch_accessed_variables: watch every trainable variable an op reads
            (the default, as in TensorFlow). Arrays must be :meth:`watch`-ed.

    >>> x = np.array([1.0, 2.0])
    >>> with GradientTape() as tape:
    ...     tape.watch(x)
    ...     from kerasmini import ops
    ...     y = ops.sum(ops.square(x))
    >>> tape.gradient(y, x)
    array([2., 4.])
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self.records = []
        self._watched = {}  # id -> object, keeps watched arrays alive
        self.recording = False
        self._used = False

    def __enter__(self):
        self.recording = True
        STATE.tapes.append(self)
        return self

    def __exit__(self, *exc):
        self.recording = False
        if self in STATE.tapes:
            STATE.tapes.remove(self)
        return False

    def watch(self, tensor):
        """Ask the tape to follow ``tensor`` (an array, or a nest of them)."""
        for t in tree.flatten(tensor):
            if not is_tensor(t):
                raise ValueError(
                    "Passed in object of type "
                    f"{type(t).__name__}, not a tensor. Received: {t!r}"
                )
            self._watched[id(t)] = t

    def watched_variables(self):
        """The variables this tape has seen, in the order first seen."""
        seen = {}
        for rec in self.records:
            for arg in rec.args:
                if getattr(arg, "__kerasmini_variable__", False):
                    seen.setdefault(id(arg), arg)
        return tuple(seen.values())

    def _is_watched(self, source):
        if id(source) in self._watched:
            return True
        return (
            self.watch_accessed_variables
            and getattr(source, "__kerasmini_variable__", False)
            and source.trainable
        )

    def stop_recording(self):
        """A context manager that pauses recording on this tape."""
        return _Paused(self)

    def record(self, primitive, args, params, out):
        self.records.append(_Record(primitive, args, params, out))

    def reset(self):
        """Forget everything recorded so far."""
        self.records.clear()

    def gradient(self, target, sources, output_gradients=None):
        """Gradients of ``target`` with respect to ``sources``.

        ``target`` may be a tensor or a list of them (their gradients add up).
        ``sources`` may be one tensor/variable or a list/tuple/dict of them;
        the result has the same structure, with ``None`` for a source the
        target does not depend on (as in TensorFlow).
        """
        if self._used and not self.persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one "
                "set of gradients (or jacobians)"
            )
        self._used = True
        flat_sources = tree.flatten(sources)
        targets = tree.flatten(target)
        seeds = tree.flatten(output_gradients) if output_gradients is not None else None

        # 1. forward: which records lie between the sources and the target?
        reach = {id(s) for s in flat_sources if self._is_watched(s)}
        live = []
        for rec in self.records:
            if any(id(a) in reach for a in rec.args):
                reach.add(id(rec.out))
                live.append(rec)

        # 2. backward from the targets.
        was_recording = self.recording
        self.recording = False  # our own backward ops are not part of the tape
        try:
            grads = {}
            for i, t in enumerate(targets):
                seed = seeds[i] if seeds is not None else ones_like(t)
                _accumulate(grads, id(t), seed)
            keep = {id(s) for s in flat_sources}  # a source may be an op's output
            for rec in reversed(live):
                key = id(rec.out)
                g = grads.get(key) if key in keep else grads.pop(key, None)
                if g is None:
                    continue
                for i, arg in enumerate(rec.args):
                    if id(arg) not in reach or i >= len(rec.primitive.vjps):
                        continue
                    rule = rec.primitive.vjps[i]
                    if rule is None:
                        continue
                    contribution = rule(g, rec.out, *rec.args, **rec.params)
                    _accumulate(grads, id(arg), contribution)
        finally:
            self.recording = was_recording
        results = [grads.get(id(s)) for s in flat_sources]
        results = [_cast_like(g, s) for g, s in zip(results, flat_sources)]
        if not self.persistent:
            self.records = []
        return tree.pack_sequence_as(sources, results)

    def __repr__(self):
        return f"<GradientTape records={len(self.records)}, persistent={self.persistent}>"


class _Paused:
    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        self.was = self.tape.recording
        self.tape.recording = False

    def __exit__(self, *exc):
        self.tape.recording = self.was
        return False


def _accumulate(grads, key, g):
    """Gradients meeting at one value add up: ``grads[key] += g``."""
    if g is None:
        return
    previous = grads.get(key)
    grads[key] = g if previous is None else add(previous, g)


def _cast_like(g, source):
    if g is None:
        return None
    dtype = source.dtype if isinstance(source.dtype, str) else np.dtype(source.dtype).name
    if g.dtype != dtype:
        return cast(g, dtype)
    return g


def stop_gradient(x):
    """The value of ``x``, through which no gradient flows.

    >>> from kerasmini.backend.variables import Variable
    >>> from kerasmini import ops
    >>> w = Variable(2.0)
    >>> with GradientTape() as tape:
    ...     y = ops.multiply(w, stop_gradient(w))
    >>> tape.gradient(y, w)
    array(2., dtype=float32)
    """
    return _stop_gradient(x)
