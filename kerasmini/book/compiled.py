"""The Python a traced function replays, as the tracer's compiler writes it.

``fit`` traces ``train_step`` once and then replays the recorded steps,
written as one straight-line Python function
(:mod:`kerasmini.backend.fast.codegen`). :func:`show_compiled` prints that
function, as recorded or as compiled (``fused=True``: Adam's update of every
variable as one kernel call), whole or only the lines of its fusible regions,
so a chapter can put the two side by side.

>>> import numpy as np
>>> from kerasmini import ops
>>> from kerasmini.backend import function
>>> f = function(lambda x: ops.add(ops.square(x), 1.0), name="f")
>>> _ = f(np.ones(2))
>>> print(show_compiled(next(iter(f.graphs.values()))))
# <kerasmini.function f>:1-6 (f, compiled)
def f(s0):
    s1 = f0(s0)  # square
    del s0
    s3 = f1(s1, c2)  # add
    del s1
    return s3
"""

import textwrap

from kerasmini.backend.fast import codegen
from kerasmini.book.source import SourceView, _Links


def show_compiled(graph, fused=True, region=False) -> SourceView:
    """The replay function of ``graph`` as a listing (HTML in a notebook).

    Args:
        graph: a traced :class:`~kerasmini.backend.graph.Graph`, e.g.
            ``next(iter(model.train_function.graphs.values()))``.
        fused: the function ``fit`` runs (fused kernels swapped in); ``False``
            writes the steps as the trace recorded them.
        region: show only the lines of the fusible regions (the recorded
            ``update_step`` ops, or the one kernel call that replaces them),
            numbered as in the whole function (and dedented).

    Raises:
        ValueError: if ``region=True`` and the graph has no fusible region.

    >>> import numpy as np
    >>> from kerasmini.backend import Variable, function
    >>> from kerasmini.optimizers import Adam
    >>> w, adam = Variable([1.0], name="w"), Adam()
    >>> step = function(lambda g: adam.apply_gradients([(g, w)]), name="step")
    >>> _ = step(np.ones(1, "float32"))
    >>> print(show_compiled(next(iter(step.graphs.values())), region=True))
    # <kerasmini.function step>:7-8 (step, compiled)
    f5(s1, s2, s3, s4, s5, s0)  # adam_update
    del s0, s1, s2, s3, s4, s5
    """
    _, source = codegen.compile_graph(graph, fused=fused)
    lines = source.splitlines(keepends=True)
    label = f"{graph.name}, {'compiled' if fused else 'as recorded'}"
    path = f"<kerasmini.function {graph.name}>"
    if not region:
        return SourceView(label, path, 1, source, _Links(label))
    # the source is the def line, then one line per step (and its `del`)
    first_of_step, line = [], 1
    for text in lines[1:-1]:
        line += 1
        if not text.lstrip().startswith("del "):
            first_of_step.append(line)
    first_of_step.append(len(lines))  # the return line ends the last step
    fused_slots = {r.step[2] for r in graph.regions}
    chosen = [i for i, step in enumerate(codegen.plan(graph, fused))
              if step[2] in fused_slots
              or any(step[2] in r.slots for r in graph.regions)]
    if not chosen:
        raise ValueError(
            f"The graph {graph.name!r} has no fusible region (an optimizer "
            "that offers a fused kernel marks its update as one). Received: "
            f"{graph!r}"
        )
    start, stop = first_of_step[chosen[0]], first_of_step[chosen[-1] + 1]
    excerpt = textwrap.dedent("".join(lines[start - 1:stop - 1]))
    return SourceView(label, path, start, excerpt, _Links(label))


__all__ = ["show_compiled"]
