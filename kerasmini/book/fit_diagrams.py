"""Drawings for the training chapters: the order of callback hooks, and an
optimizer's variables beside the model variables they belong to.

* :class:`HookRecorder` is a callback that writes down every hook ``fit``,
  ``evaluate`` or ``predict`` calls on it, with the epoch or batch number;
* :func:`plot_hook_calls` draws such a record as nested boxes (training,
  then each epoch, each batch, the validation pass inside the epoch);
* :func:`plot_optimizer_slots` draws an optimizer's variables: its step
  counter and learning rate, then for each model variable the slots (Adam's
  ``momentum`` and ``velocity``) the optimizer keeps for it.

Like the other diagrams of :mod:`kerasmini.book`, each returns a Graphviz
``Digraph`` whose plain-text ``repr`` describes the drawing.
"""

from __future__ import annotations

from kerasmini.callbacks import Callback
from kerasmini.utils.plot import (
    FILL_INPUT,
    FILL_LAYER,
    FILL_NODE,
    FILL_TENSOR,
    _esc,
    new_digraph,
)

HOOKS = (
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
    "on_test_batch_begin", "on_test_batch_end", "on_predict_begin",
    "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end",
)


def _recording_hook(hook):
    takes_index = "batch" in hook or "epoch" in hook

    def record(self, *args, logs=None):
        index = args[0] if takes_index and args else None
        self.calls.append((hook, index))

    record.__name__ = hook
    return record


class HookRecorder(Callback):
    """A callback that records ``(hook, index)`` for every hook called.

    ``index`` is the epoch or batch number, ``None`` for the hooks that have
    none (``on_train_begin``...).

    >>> recorder = HookRecorder()
    >>> recorder.on_epoch_begin(0); recorder.on_train_batch_end(3, {"loss": 1.0})
    >>> recorder.calls
    [('on_epoch_begin', 0), ('on_train_batch_end', 3)]
    """

    def __init__(self):
        super().__init__()
        self.calls = []


for _hook in HOOKS:
    setattr(HookRecorder, _hook, _recording_hook(_hook))


def _scope(hook, index):
    """``("epoch", 0)`` for ``on_epoch_begin``; the part between on_ and _."""
    part = hook[len("on_"):].rsplit("_", 1)[0]
    return part.replace("_", " ") + ("" if index is None else f" {index}")


def plot_hook_calls(calls, rankdir="TB"):
    """Draw recorded hook calls: one box per call, in order, each ``*_begin``
    ... ``*_end`` pair framing the calls made between them.

    Args:
        calls: ``(hook, index)`` pairs, e.g. :attr:`HookRecorder.calls`.
        rankdir: the Graphviz direction (``"TB"`` top to bottom).

    >>> print(repr(plot_hook_calls([("on_train_begin", None),
    ...     ("on_epoch_begin", 0), ("on_epoch_end", 0), ("on_train_end", None)])))
    plot_hook_calls: 4 calls
      on_train_begin
        on_epoch_begin(0)
        on_epoch_end(0)
      on_train_end
    """
    dot = new_digraph("hooks", rankdir=rankdir)
    stack = [dot]  # the graph, then one open cluster per unfinished *_begin
    lines = [f"plot_hook_calls: {len(calls)} calls"]
    fills = {"train": FILL_INPUT, "epoch": FILL_LAYER, "test": FILL_TENSOR}
    previous = None
    for number, (hook, index) in enumerate(calls):
        label = hook if index is None else f"{hook}({index})"
        if hook.endswith("_begin"):
            part = _scope(hook, index)
            cluster = new_digraph(f"cluster_{number}")
            cluster.attr(label=_esc(part), style="rounded", color="#8c8c8c",
                         fontsize="10")
            stack.append(cluster)
        depth = max(len(stack) - 2, 0)  # boxes around this call, its own included
        kind = hook[len("on_"):].split("_")[0]
        stack[-1].node(f"call_{number}", _esc(label), shape="box",
                       style="rounded,filled", fillcolor=fills.get(kind, FILL_NODE))
        if previous is not None:
            dot.edge(previous, f"call_{number}")
        previous = f"call_{number}"
        lines.append("  " * (depth + 1) + label)
        if hook.endswith("_end") and len(stack) > 1:
            cluster = stack.pop()
            stack[-1].subgraph(cluster)
    while len(stack) > 1:  # unmatched *_begin (a run that stopped early)
        cluster = stack.pop()
        stack[-1].subgraph(cluster)
    dot.description = "\n".join(lines)
    return dot


def _slot_owner(slot, variables):
    """The model variable whose path (``/`` as ``_``) starts the slot's name."""
    best = None
    for variable in variables:
        prefix = variable.path.replace("/", "_") + "_"
        if slot.name.startswith(prefix) and (
                best is None or len(prefix) > len(best.path) + 1):
            best = variable
    return best


def plot_optimizer_slots(optimizer, rankdir="LR"):
    """Draw an optimizer's variables: each model variable it updates, with an
    arrow to every slot it keeps for that variable; the step counter and
    learning rate stand alone.

    Args:
        optimizer: a built :class:`~kerasmini.optimizers.Optimizer` (one that
            has applied gradients at least once, or was built explicitly).
        rankdir: the Graphviz direction (``"LR"`` left to right).

    >>> import numpy as np
    >>> from kerasmini.backend import Variable
    >>> from kerasmini.optimizers import Adam
    >>> w = Variable(np.ones(2), name="w")
    >>> adam = Adam()
    >>> _ = adam.apply_gradients([(np.ones(2, "float32"), w)])
    >>> plot_optimizer_slots(adam)
    plot_optimizer_slots(adam): 4 variables
      adam/iteration ()
      adam/learning_rate ()
      w (2,) -> momentum, velocity
    """
    dot = new_digraph("optimizer", rankdir=rankdir)
    model_variables = list(getattr(optimizer, "_trainable_variables", []))
    lines = [f"plot_optimizer_slots({optimizer.name}): "
             f"{len(optimizer.variables)} variables"]
    slots = {id(v): [] for v in model_variables}
    alone = []
    for variable in optimizer.variables:
        owner = _slot_owner(variable, model_variables)
        if owner is None:
            alone.append(variable)
        else:
            slots[id(owner)].append(variable)
    lines += [f"  {v.path} {tuple(v.shape)}" for v in alone]
    for variable in model_variables:
        prefix = variable.path.replace("/", "_") + "_"
        names = [slot.name[len(prefix):] for slot in slots[id(variable)]]
        lines.append(f"  {variable.path} {tuple(variable.shape)} -> "
                     + (", ".join(names) or "(no slots)"))

    def box(variable, fill, shape):
        node = f"v_{variable.path}"
        dot.node(node, _esc(f"{variable.path}\n{tuple(variable.shape)}"),
                 shape=shape, style="rounded,filled" if shape == "box" else "filled",
                 fillcolor=fill)
        return node

    # Graphviz stacks a left-to-right drawing from the bottom up: declare the
    # boxes last to first so that they read top down in the description's order
    for variable in reversed(model_variables):
        for slot in slots[id(variable)]:
            box(slot, FILL_NODE, "note")
        node = box(variable, FILL_TENSOR, "box")
        for slot in slots[id(variable)]:
            dot.edge(node, f"v_{slot.path}")
    for variable in reversed(alone):
        box(variable, FILL_INPUT, "note")
    dot.description = "\n".join(lines)
    return dot


__all__ = ["HOOKS", "HookRecorder", "plot_hook_calls", "plot_optimizer_slots"]
