"""The compiler of traced steps: a graph written as one straight-line function.

:meth:`Graph.replay <kerasmini.backend.graph.Graph.replay>` *interprets* the
recorded steps: for each one it looks up the slots, calls ``forward`` and
stores the result, about a microsecond of Python per step. :func:`compile_graph`
writes the same steps once as source code, one line per step with the slots
as local variables, and lets Python compile it, so a replay is one call of
ordinary Python (what ``tf.function``'s generated graph code is to
TensorFlow). On the way it does what compilers do:

1. **fusion**: a region of steps that the traced code marked as fusible
   (:func:`kerasmini.backend.graph.fusible`: Adam's loop of
   ``update_step`` calls) becomes one call of the fused kernel offered for
   it, when nothing after the region reads a value made inside it;
2. **faster kernels**: a step whose primitive has a faster twin in
   :mod:`kerasmini.backend.fast.kernels` calls the twin;
3. **dead code**: steps whose values no later step, output or side effect
   needs are dropped;
4. **early frees**: ``del`` after a value's last use, so big intermediates
   (a gradient) are freed as early as in eager code.

The output structure is built in the return statement.

>>> import numpy as np
>>> from kerasmini.backend import function
>>> from kerasmini.backend import numpy as bnp
>>> f = function(lambda x: bnp.add(bnp.multiply(x, 2.0), 1.0), name="affine")
>>> _ = f(np.ones(2))
>>> print(compile_graph(next(iter(f.graphs.values())))[1], end="")
def affine(s0):
    s2 = f0(s0, c1)  # multiply
    del s0
    s4 = f1(s2, c3)  # add
    del s2
    return s4
"""

import functools

import numpy as np

from kerasmini import tree
from kerasmini.backend.fast import kernels, peephole


def compile_graph(graph, fused=True):
    """Write ``graph``'s steps as one Python function.

    Args:
        graph: a traced :class:`~kerasmini.backend.graph.Graph` (with its
            ``outputs`` set).
        fused: swap in fused kernels and faster twins (what ``fit`` runs);
            ``False`` writes the recorded steps as they are, the version to
            read beside the fused one.

    Returns:
        ``(run, source)``: the function (``run(*inputs)`` gives the outputs)
        and its Python source.

    >>> import numpy as np
    >>> from kerasmini.backend import function
    >>> from kerasmini.backend import numpy as bnp
    >>> f = function(lambda x: bnp.sqrt(x), name="root")
    >>> _ = f(np.ones(2))
    >>> run, source = compile_graph(next(iter(f.graphs.values())))
    >>> run(np.array([4.0, 9.0])), source.splitlines()[1]
    (array([2., 3.]), '    s1 = f0(s0)  # sqrt')
    """
    output_structure, output_slots = graph.outputs
    steps = plan(graph, fused)
    namespace = {"asarray": np.asarray, "structure": output_structure,
                 "pack_sequence_as": tree.pack_sequence_as}

    def name(slot):
        if slot < graph.num_inputs or graph.template[slot] is None:
            return f"s{slot}"
        namespace[f"c{slot}"] = graph.template[slot]  # a constant
        return f"c{slot}"

    last_use = {}
    for index, (_, ins, _, _) in enumerate(steps):
        for slot in ins:
            last_use[slot] = index
    keep = set(output_slots)
    args = ", ".join(f"s{i}" for i in range(graph.num_inputs))
    lines = [f"def {_identifier(graph.name)}({args}):"]
    for index, (forward, ins, out, op) in enumerate(steps):
        namespace[f"f{index}"] = forward
        call = f"f{index}({', '.join(name(i) for i in ins)})"
        if isinstance(out, tuple):  # a peephole's step of several outputs
            lines.append(f"    {', '.join(f's{o}' for o in out)} = {call}  # {op}")
        else:
            used = out in keep or out in last_use
            if used and out in graph._scalar_slots:
                call = f"asarray({call})"  # eager calls return 0-d arrays
            lines.append(f"    {'s%d = ' % out if used else ''}{call}  # {op}")
        dead = {i for i in ins if last_use[i] == index and i not in keep
                and name(i).startswith("s")}
        if isinstance(out, tuple):  # outputs nothing reads
            dead.update(o for o in out if o not in keep and o not in last_use)
        dead = sorted(dead)
        if dead:
            lines.append(f"    del {', '.join(f's{i}' for i in dead)}")
    lines.append(f"    return {_pack_source(output_structure, output_slots, name)}")
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<kerasmini.function {graph.name}>", "exec"), namespace)
    return namespace[_identifier(graph.name)], source


def plan(graph, fused=True):
    """The steps :func:`compile_graph` writes, one line each, in order:
    ``graph.steps`` as recorded, or (``fused=True``) with the fusible regions
    and primitives swapped for their kernels and dead steps dropped.

    >>> import numpy as np
    >>> from kerasmini.backend import function
    >>> from kerasmini.backend import numpy as bnp
    >>> f = function(lambda x: bnp.exp(x))
    >>> _ = f(np.zeros(1))
    >>> [step[3] for step in plan(next(iter(f.graphs.values())))]
    ['exp']
    """
    output_slots = graph.outputs[1]
    steps = list(graph.steps)
    if fused:
        steps = _fuse(graph, steps, output_slots)
        steps = [(_faster(forward), ins, out, op) for forward, ins, out, op in steps]
        steps = _live(graph, steps, output_slots)
        steps = peephole.rewrite(graph, steps, output_slots)
    return steps


def _fuse(graph, steps, output_slots):
    """``steps`` with each fusible region replaced by its kernel's one step.

    A region is the run of steps recorded inside a ``fusible`` block (their
    output slots lie in ``region.slots``). It is replaced only when that is
    invisible: no later step and no output reads a value made inside it, or
    an array the kernel writes into, or a view of one (a value read before
    the region would change under its feet). Otherwise the recorded steps
    stay.
    """
    for region in graph.regions:
        inside = [i for i, step in enumerate(steps) if step[2] in region.slots]
        if not inside or inside != list(range(inside[0], inside[-1] + 1)):
            continue
        made = {steps[i][2] for i in inside}
        read_later = set(output_slots)
        for _, ins, _, _ in steps[inside[-1] + 1:]:
            read_later.update(ins)
        if read_later & made or any(
                graph.aliases.get(slot, set()) & region.writes for slot in read_later):
            continue
        steps[inside[0]:inside[-1] + 1] = [region.step]
    return steps


def _faster(forward):
    """A step's forward function, or its faster twin (same parameters)."""
    if isinstance(forward, functools.partial):
        twin = kernels.FASTER.get(forward.func)
        if twin is None:
            return forward
        return functools.partial(twin, *forward.args, **forward.keywords)
    return kernels.FASTER.get(forward, forward)


def _live(graph, steps, output_slots):
    """``steps`` without those no output, later step or side effect needs."""
    needed = {slot for slot in output_slots if slot is not None}
    side_effects = graph._stateful_slots | {r.step[2] for r in graph.regions}
    kept = []
    for step in reversed(steps):
        if step[2] in needed or step[2] in side_effects:  # (one output each)
            kept.append(step)
            needed.update(step[1])
    return kept[::-1]


def _identifier(name):
    """``name`` as a Python identifier (for the compiled replay function)."""
    text = "".join(c if c.isalnum() else "_" for c in name)
    return text if text.isidentifier() else "graph_" + text


def _pack_source(structure, slots, name):
    """Source of an expression building ``structure`` (a result of a traced
    function) from its output slots: dicts, lists and tuples are written as
    literals, ``None`` stays ``None``. Other containers (a named tuple)
    are packed by :func:`tree.pack_sequence_as` at run time."""
    leaves = iter("None" if s is None else name(s) for s in slots)

    def source(node):
        if type(node) is dict and all(type(k) is str for k in node):
            # leaves come in flattening order (sorted keys); keep the dict's order
            values = {key: source(node[key]) for key in tree._sorted_keys(node)}
            return "{" + ", ".join(f"{k!r}: {values[k]}" for k in node) + "}"
        if type(node) in (list, tuple):
            items = [source(child) for child in node]
            if type(node) is list:
                return "[" + ", ".join(items) + "]"
            return "(" + "".join(item + ", " for item in items) + ")"
        if tree.is_nested(node):
            raise _NotALiteral
        return next(leaves)

    try:
        return source(structure)
    except _NotALiteral:
        flat = ", ".join("None" if s is None else name(s) for s in slots)
        return f"pack_sequence_as(structure, [{flat}])"


class _NotALiteral(Exception):
    pass


__all__ = ["compile_graph", "plan"]
