"""Tracing: ``kerasmini.function``, the ``tf.function`` of this world.

The first call of a function with a given input signature (shapes, dtypes and
any Python arguments) runs it for real while every primitive it calls is
appended to a :class:`Graph`: a flat list of steps
``slots[out] = forward(*slots[ins])``. Later calls with the same signature
skip Python entirely and *replay* the steps on the new inputs, which is where
``fit``'s speed comes from. While tracing, :func:`executing_eagerly` is False.
:meth:`Graph.replay` shows what a replay does, step by step; the function
actually runs :meth:`Graph.compile`'s version of the same steps, written once
as straight-line Python (``graph.source``) by the tracer's fast lane
(:mod:`kerasmini.backend.fast`), which may run a fused kernel in place of a
region of steps marked :func:`fusible`.

Variables are read by a step at the point of use and written by a step
(``assign``), so a replay sees the values of the moment, and random ops draw
fresh numbers on every replay.

>>> import numpy as np
>>> from kerasmini import ops
>>> @function
... def affine(x):
...     return ops.add(ops.multiply(x, 2.0), 1.0)
>>> affine(np.array([1.0, 2.0], "float32"))
array([3., 5.], dtype=float32)
>>> affine(np.array([0.0, 5.0], "float32"))  # replayed, not re-run
array([ 1., 11.], dtype=float32)
>>> affine.trace_count
1
"""

import contextlib
import functools
import weakref

import numpy as np

from kerasmini import tree
from kerasmini.backend.core import STATE, GraphTensor, is_tensor, value_of
from kerasmini.backend.fast import codegen


class Graph:
    """The steps recorded while tracing one call signature of a function.

    >>> from kerasmini import ops
    >>> f = function(lambda x: ops.square(x))
    >>> _ = f(np.ones(3))
    >>> list(f.graphs.values())
    [<Graph <lambda>: 1 inputs, 1 steps>]
    """

    def __init__(self, name="graph"):
        self.name = name
        self.steps = []  # (forward, input slots, output slot, op name)
        self.template = []  # initial slots: inputs (None) and constants
        self.num_inputs = 0
        self.outputs = None  # output structure with slot numbers
        self.variables = weakref.WeakSet()  # tracked by track_variable()
        self.constant_slots = set()  # slots whose value no replay can change
        self._stateful_slots = set()  # outputs of steps that must always run
        self._reads = {}  # id(variable) -> slot of its read since the last write
        self._computed = {}  # (primitive, input slots, params) -> output slot
        self._scalar_slots = set()  # outputs that were 0-d when traced
        self.regions = []  # fusible regions (see fusible)
        self._region = None  # the region being recorded
        self.aliases = {}  # slot -> the variable reads whose array it may view
        self.run = None  # the steps compiled to one function (see compile)
        self.source = None  # its Python source, to read

    def _new_slot(self, value=None):
        self.template.append(value)
        return len(self.template) - 1

    def placeholder(self, value):
        """A graph input; its slot is filled by each replay's arguments."""
        self.num_inputs += 1
        return GraphTensor(value, self._new_slot(), self)

    def _slot_of(self, arg, value=None):
        if isinstance(arg, GraphTensor) and arg.graph is self:
            return arg.slot
        if getattr(arg, "__kerasmini_variable__", False):
            # one read step per variable until it is written again
            slot = self._reads.get(id(arg))
            if slot is None:
                slot = self._new_slot()
                self.steps.append((arg._read, (), slot, "read:" + arg.path))
                self._reads[id(arg)] = slot
                self.aliases[slot] = {slot}  # the variable's own array
            return slot
        if isinstance(arg, GraphTensor):
            raise ValueError(
                "A tensor traced by another `kerasmini.function` was used in this "
                f"one. Pass it as an argument instead. Received: {arg!r}"
            )
        # a constant: exactly the value the eager call ran on (a Python number
        # stays one, so replays promote dtypes as the trace did)
        slot = self._new_slot(value_of(arg) if value is None else value)
        self.constant_slots.add(slot)
        return slot

    def record(self, primitive, args, params, out, values=None):
        """Append one primitive call; return its output as a GraphTensor.

        Three shortcuts keep replays short: an op whose inputs are all
        constants (or whose value depends on shapes only, like ``ones_like``)
        is *folded*: its traced value becomes a constant and no step is
        recorded; a variable is read once until it is written (see
        ``_slot_of``); and an op already recorded on the same input slots with
        the same parameters is *reused* (see ``_reuse_key``).
        """
        values = values if values is not None else [None] * len(args)
        ins = tuple(self._slot_of(a, v) for a, v in zip(args, values))
        if not primitive.stateful and (getattr(primitive, "shape_only", False) or all(
                i in self.constant_slots for i in ins)):
            slot = self._new_slot(out)
            self.constant_slots.add(slot)
            return GraphTensor(out, slot, self)
        key = _reuse_key(primitive, ins, params)
        if key is not None and key in self._computed:
            return GraphTensor(out, self._computed[key], self)
        forward = primitive.forward
        if params:
            forward = functools.partial(forward, **params)
        slot = self._new_slot()
        self.steps.append((forward, ins, slot, primitive.name))
        if np.ndim(out) == 0:
            self._scalar_slots.add(slot)  # NumPy may return a scalar here
        for i, value in zip(ins, values):
            # a view of a variable's array (``w.value``, a reshape) would see
            # an in-place write to it: a fused kernel's, for instance
            if i in self.aliases and np.may_share_memory(out, value):
                self.aliases[slot] = self.aliases.get(slot, set()) | self.aliases[i]
        if key is not None:
            self._computed[key] = slot
        if primitive.stateful:
            self._stateful_slots.add(slot)
            written = getattr(primitive.forward, "__self__", None)
            if getattr(written, "__kerasmini_variable__", False):
                # an assign returns the variable's new value: later uses of the
                # variable read this slot instead of a new read step
                self._reads[id(written)] = slot
                self.aliases[slot] = {slot}
        return GraphTensor(out, slot, self)

    def open_region(self, fused):
        """Start recording a fusible region (see :func:`fusible`); ``fused``
        is the :class:`~kerasmini.backend.fast.kernels.Fused` call that can
        replace it. Its tensors are read now, before the region."""
        ins = tuple(self._slot_of(t) for t in fused.tensors)
        forward = functools.partial(fused.kernel, **fused.params)
        step = (forward, ins, self._new_slot(), fused.name)
        self._region = _Region(step, {ins[i] for i in fused.writes},
                               start=len(self.template))
        self._region.fused = fused
        written = [fused.tensors[i] for i in fused.writes]
        if all(getattr(t, "__kerasmini_variable__", False) for t in written):
            self._region.before = [(t, t._value) for t in written]

    def close_region(self):
        """End the fusible region: nothing recorded inside it is reused or
        read again after it, so the compiler may leave its steps out.

        The traced call then takes the kernel's step too, as every compiled
        replay will, so a step rounds the same way whether it was traced or
        replayed (a model resumed from a file, which traces again, goes on
        exactly as an uninterrupted one). The region's assigns stored new
        arrays, so the variables' arrays from before it are untouched: they
        are put back and the kernel runs on them.
        """
        region, self._region = self._region, None
        region.slots = range(region.slots.start, len(self.template))
        self.regions.append(region)
        self._reads = {key: slot for key, slot in self._reads.items()
                       if slot < region.slots.start and slot not in region.writes}
        self._computed.clear()
        if region.before is not None:
            for variable, array in region.before:
                variable._value = array
            fused = region.fused
            fused.kernel(*[value_of(t) for t in fused.tensors], **fused.params)

    def prune(self, output_slots):
        """Drop the steps no output and no stateful step depends on."""
        needed = {s for s in output_slots if s is not None}
        for region in self.regions:  # what a fused kernel reads
            needed.update(region.step[1])
        kept = []
        for step in reversed(self.steps):
            if step[2] in needed or step[2] in self._stateful_slots:
                kept.append(step)
                needed.update(step[1])
        self.steps = kept[::-1]

    def output_slot(self, value):
        """Slot of a returned value (constants and variables get one too;
        ``None`` stays ``None``)."""
        return None if value is None else self._slot_of(value)

    def replay(self, inputs):
        """Run the recorded steps on new input arrays; return the slots."""
        slots = list(self.template)
        slots[: len(inputs)] = inputs
        for forward, ins, out, _ in self.steps:
            if len(ins) == 1:
                value = forward(slots[ins[0]])
            elif len(ins) == 2:
                value = forward(slots[ins[0]], slots[ins[1]])
            else:
                value = forward(*[slots[i] for i in ins])
            # NumPy returns scalars for 0-d results; eager calls return arrays
            slots[out] = value if isinstance(value, np.ndarray) else np.asarray(value)
        return slots

    def compile(self, fused=True):
        """Write the steps as one Python function of straight-line code.

        The tracer's fast lane does it (:func:`kerasmini.backend.fast.codegen.
        compile_graph`): one line per step, the slots as local variables,
        ``del`` after a value's last use, and with ``fused=True`` (what
        ``fit`` runs) fused kernels in place of the regions marked
        :func:`fusible`. Read it in ``graph.source``; ``run(*inputs)`` gives
        the outputs, as :meth:`replay` does.
        """
        self.run, self.source = codegen.compile_graph(self, fused=fused)
        return self.run

    def __repr__(self):
        return (
            f"<Graph {self.name}: {self.num_inputs} inputs, "
            f"{len(self.steps)} steps>"
        )


class _Region:
    """A fusible region: the slots its steps made, the fused step that can
    replace them, and the slots of the arrays that step writes into."""

    def __init__(self, step, writes, start):
        self.step = step
        self.writes = writes
        self.slots = range(start, start)
        self.fused = None  # the Fused call
        self.before = None  # (variable, its array before the region) pairs


def _reuse_key(primitive, ins, params):
    """What makes two recorded calls give the same value, or ``None``.

    The same pure primitive on the same slots with the same static
    parameters computes the same array, so the second call can read the
    first one's slot (common-subexpression elimination). This is how the
    crossentropy's gradient takes the softmax of the forward pass instead of
    computing it again. Stateful ops (writes, random draws) are never
    reused, nor calls whose parameters cannot be compared (arrays, lists).
    """
    if primitive.stateful:
        return None
    key = (primitive, ins, tuple(sorted(
        (name, type(value), value) for name, value in params.items())))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _only_arrays(args, kwargs):
    """The arrays of a call ``f(x, y)`` or ``f((x, y))`` holding NumPy arrays
    only (in flattening order), else ``None``."""
    if kwargs:
        return None
    if len(args) == 1 and type(args[0]) is tuple:
        args = args[0]
    for arg in args:
        if type(arg) is not np.ndarray:
            return None
    return args


def _signature_part(leaf):
    if isinstance(leaf, np.ndarray):
        return ("T", leaf.shape, leaf.dtype)
    if getattr(leaf, "__kerasmini_variable__", False):
        return ("V", id(leaf))
    if isinstance(leaf, (int, float, str, bool, type(None), np.generic)):
        return ("P", type(leaf).__name__, leaf)
    return ("O", id(leaf))


class Function:
    """A callable that traces ``fn`` once per input signature, then replays.

    Build it with :func:`function`. ``trace_count`` counts traces;
    ``graphs`` maps signatures to their :class:`Graph`.

    >>> from kerasmini import ops
    >>> f = Function(lambda x: ops.multiply(x, 3.0))
    >>> f(np.ones(2)), f
    (array([3., 3.]), <kerasmini.function <lambda>: 1 trace(s)>)
    """

    def __init__(self, fn, name=None):
        self.python_function = fn
        self.name = name or getattr(fn, "__name__", "function")
        self.graphs = {}
        self.trace_count = 0
        self._attribute = None
        functools.update_wrapper(self, fn)

    def __set_name__(self, owner, name):
        self._attribute = name

    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = Function(fn=functools.partial(self.python_function, instance),
                         name=self.name)
        # cache it on the instance (as functools.cached_property does), so the
        # next `obj.method(...)` finds its graphs instead of tracing again
        if self._attribute is not None and isinstance(
                getattr(instance, "__dict__", None), dict):
            instance.__dict__[self._attribute] = bound
        return bound

    def __call__(self, *args, **kwargs):
        if STATE.graphs:
            # called while another function is traced: inline it into that
            # graph (tf.function does the same with nested functions)
            return self.python_function(*args, **kwargs)
        # fast path for fit's call, train_function((x, y)): arrays only, so
        # the signature is read off directly without flattening the arguments
        arrays = _only_arrays(args, kwargs)
        if arrays is not None:
            graph = self.graphs.get(tuple(("T", a.shape, a.dtype) for a in arrays))
            if graph is not None:
                return graph.run(*arrays)
        structure = (args, kwargs)
        leaves = tree.flatten(structure)
        leaves = [np.asarray(x) if isinstance(x, (np.generic,)) else x for x in leaves]
        key = tuple(_signature_part(leaf) for leaf in leaves)
        graph = self.graphs.get(key)
        if graph is None:
            return self._trace(key, structure, leaves)
        return graph.run(*[leaf for leaf in leaves if isinstance(leaf, np.ndarray)])

    def _trace(self, key, structure, leaves):
        graph = Graph(self.name)
        traced = [graph.placeholder(x) if isinstance(x, np.ndarray) else x for x in leaves]
        args, kwargs = tree.pack_sequence_as(structure, traced)
        STATE.graphs.append(graph)
        try:
            result = self.python_function(*args, **kwargs)
            flat = tree.flatten(result)
            out_slots = [graph.output_slot(x) for x in flat]
        finally:
            STATE.graphs.pop()
        graph.prune(out_slots)
        graph.outputs = (result, out_slots)
        graph.compile()
        self.graphs[key] = graph
        self.trace_count += 1
        values = [x._value if isinstance(x, GraphTensor) else
                  (x._read() if getattr(x, "__kerasmini_variable__", False) else
                   None if x is None else value_of(x))
                  for x in flat]
        return tree.pack_sequence_as(result, values)

    def __repr__(self):
        return f"<kerasmini.function {self.name}: {self.trace_count} trace(s)>"


def function(fn=None, *, name=None):
    """Trace ``fn`` into a graph on first call; replay it on later calls.

    Usable as ``function(fn)`` or as a decorator, also on methods. Arrays in
    the arguments become graph inputs; other arguments are part of the
    signature (a new value means a new trace), as with ``tf.function``.

    Args:
        fn: the Python function to trace.
        name: a name for its graphs (defaults to ``fn.__name__``).

    Returns:
        A :class:`Function`.

    >>> from kerasmini import ops
    >>> from kerasmini.backend import executing_eagerly
    >>> seen = []
    >>> f = function(lambda x: seen.append(executing_eagerly()) or ops.square(x))
    >>> f(np.array(3.0)), f(np.array(4.0)), seen
    (array(9.), array(16.), [False])
    """
    if fn is None:
        return functools.partial(function, name=name)
    return Function(fn, name=name)


def current_graph():
    """The graph being traced, or ``None`` when executing eagerly.

    >>> current_graph() is None
    True
    >>> function(lambda x: current_graph() is not None and x)(np.ones(1))
    array([1.])
    """
    return STATE.graphs[-1] if STATE.graphs else None


def is_traced(x) -> bool:
    """Whether ``x`` is a value inside a graph being traced.

    >>> is_traced(np.ones(1))
    False
    >>> seen = []
    >>> _ = function(lambda x: seen.append(is_traced(x)) or x)(np.ones(1))
    >>> seen
    [True]
    """
    return isinstance(x, GraphTensor)


@contextlib.contextmanager
def fusible(offer, *args):
    """Let the compiled step run a fused kernel in place of this block.

    ``offer(*args)`` describes a kernel that computes what the block
    computes (a :class:`~kerasmini.backend.fast.kernels.Fused` call), or
    returns ``None``. It is asked only while a function is being traced:
    the block's steps are then recorded as usual, as one region of the
    graph, and the compiler may put the kernel's one step in their place
    (:mod:`kerasmini.backend.fast.codegen`). Eagerly, the block just runs.
    This is how ``Optimizer.apply`` lets Adam's update of every variable run
    as one in-place kernel.

    >>> from kerasmini.backend.fast.kernels import Fused
    >>> from kerasmini.backend.variables import Variable
    >>> count = Variable([0.0], name="count")
    >>> def add_two(c):  # a kernel: what the block does, in one NumPy call
    ...     np.add(c, 2.0, out=c)
    >>> def offer():
    ...     return Fused("add_two", add_two, [count], {}, writes=[0])
    >>> @function
    ... def step(x):
    ...     with fusible(offer):
    ...         count.assign_add(1.0)
    ...         count.assign_add(1.0)
    ...     return x
    >>> for _ in range(3):
    ...     _ = step(np.ones(1))
    >>> print(count.numpy(), [line.split("# ")[1] for line in
    ...     next(iter(step.graphs.values())).source.splitlines() if "# " in line])
    [6.] ['read:count', 'add_two']
    """
    graph = current_graph()
    fused = None
    if graph is not None and graph._region is None:
        fused = offer(*args)
    if fused is None:
        yield
        return
    graph.open_region(fused)
    try:
        yield
    finally:
        graph.close_region()


__all__ = ["Function", "Graph", "current_graph", "function", "fusible", "is_tensor",
           "is_traced"]


@contextlib.contextmanager
def init_scope():
    """Step out of any function being traced, back to eager execution.

    What ``tf.init_scope`` is to TensorFlow: inside it ``executing_eagerly()``
    is ``True``, a variable created there is an eager variable (not one of the
    traced graph's), and gradient tapes do not record. On leaving, the traces
    and tapes that were open carry on. Keras 2 builds a layer inside it
    (``tf_utils.maybe_init_scope`` in ``_maybe_build``), so under TensorFlow 2
    a layer first called while a ``tf.function`` is traced still gets eager
    weights; kerasmini's own ``_maybe_build`` does not, so the chapters can
    show both.

    >>> from kerasmini.backend import executing_eagerly
    >>> seen = []
    >>> def body(x):
    ...     with init_scope():
    ...         seen.append(executing_eagerly())
    ...     seen.append(executing_eagerly())
    ...     return x
    >>> _ = function(body)(np.ones(1))
    >>> seen
    [True, False]
    """
    graphs, tapes = STATE.graphs, STATE.tapes
    STATE.graphs, STATE.tapes = [], []
    try:
        yield
    finally:
        STATE.graphs, STATE.tapes = graphs, tapes
