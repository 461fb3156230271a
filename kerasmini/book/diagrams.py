"""The book's diagrams, drawn from live objects with Graphviz.

* :func:`plot_nodes` draws what ``Functional`` actually walks: layers, the
  :class:`~kerasmini.ops.node.Node` of each call (``node_index``) and the
  KerasTensors each node produced (``tensor_index``);
* :func:`plot_classes` draws a class's MRO, each box listing the public
  methods and properties that class defines itself;
* :func:`plot_module_tree` draws the attribute tree ``tf.Module`` walks to
  find variables;
* :func:`plot_sublayers` draws a layer made of layers: its sublayers in the
  order it tracks them, each with its weights;
* :func:`plot_depths` draws a Functional model's nodes row by row, by depth;
* :func:`plot_call_steps` draws the numbered steps of ``Layer.__call__``
  from the banners in its source;
* :func:`plot_tape` draws what a ``GradientTape`` recorded.

Each returns a ``graphviz.Digraph`` in the style of
:func:`kerasmini.utils.plot.new_digraph`, whose plain-text ``repr`` is a short,
deterministic description of the drawing (what nbval compares).
"""

from __future__ import annotations

import inspect

from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.backend.variables import Variable
from kerasmini.book.source import relative_path
from kerasmini.book.steps import call_steps
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.module import Module
from kerasmini.models.model import Model
from kerasmini.tree import flatten
from kerasmini.utils.plot import (
    FILL_INPUT,
    FILL_LAYER,
    FILL_MODEL,
    FILL_NODE,
    FILL_TENSOR,
    LINE,
    _esc,
    new_digraph,
)


def _collect_nodes(model_or_tensors):
    """(nodes in walk order, stop ids) for a model or for output tensors."""
    if isinstance(model_or_tensors, Model):
        model = model_or_tensors
        try:
            outputs, inputs = list(model.outputs), list(model.inputs)
        except AttributeError:
            raise ValueError(
                f"Model '{model.name}' has no graph of nodes to draw: only models "
                "built from symbolic inputs (Functional, or a built Sequential) "
                "have one."
            ) from None
    else:
        outputs, inputs = flatten(model_or_tensors), []
        for x in outputs:
            if not is_keras_tensor(x) or x._keras_history is None:
                raise ValueError(
                    "plot_nodes() takes a model or KerasTensors produced by layer "
                    f"calls. Received: {x!r}"
                )
    stops = {id(x) for x in inputs}
    ordered, seen = [], set()

    def visit(tensor):
        layer, node_index, _ = tensor._keras_history
        node = layer._inbound_nodes[node_index]
        if id(node) in seen:
            return
        seen.add(id(node))
        if id(tensor) not in stops:
            for kt in node.keras_inputs:
                visit(kt)
        ordered.append(node)

    for x in outputs:
        visit(x)
    return ordered


def plot_nodes(model_or_tensors, rankdir="LR"):
    """Draw the live Node graph: layers, their call nodes and the tensors.

    For each layer call recorded on the way from the outputs back to the
    inputs there is one Node: the layer box points to it (labelled with its
    ``node_index``: the position in ``layer._inbound_nodes``); the node points
    to each KerasTensor it produced (labelled ``tensor_index``), and each
    tensor points to the nodes that consumed it. A layer called twice has two
    nodes.

    Args:
        model_or_tensors: a Functional (or built Sequential) model, or
            KerasTensor(s) to walk back from.
        rankdir: ``"LR"`` (default) or ``"TB"``.

    Returns:
        A ``graphviz.Digraph``.

    >>> import kerasmini as keras
    >>> keras.backend.clear_session()
    >>> plot_nodes(keras.Sequential([keras.layers.Dense(2, input_shape=(3,))]))
    plot_nodes(sequential): 2 layers, 2 nodes, 2 tensors
      input_layer node_index=0: (-) -> (keras_tensor)
      dense node_index=0: (keras_tensor) -> (keras_tensor_1)
    """
    nodes = _collect_nodes(model_or_tensors)
    name = getattr(model_or_tensors, "name", "nodes")
    dot = new_digraph(f"{name}_nodes", rankdir=rankdir)
    layer_ids, tensor_ids = {}, {}
    lines = []

    def layer_id(layer):
        if id(layer) not in layer_ids:
            layer_ids[id(layer)] = f"layer_{len(layer_ids)}"
            dot.node(layer_ids[id(layer)],
                     label=f"{layer.name}\n({type(layer).__name__})",
                     shape="box", style="rounded,filled", fillcolor=FILL_LAYER)
        return layer_ids[id(layer)]

    def tensor_id(kt):
        if id(kt) not in tensor_ids:
            tensor_ids[id(kt)] = f"tensor_{len(tensor_ids)}"
            dot.node(tensor_ids[id(kt)], label=f"{kt.name}\n{kt.shape}",
                     shape="note", style="filled", fillcolor=FILL_TENSOR)
        return tensor_ids[id(kt)]

    for node in nodes:
        index = node.layer._inbound_nodes.index(node)
        lid = layer_id(node.layer)
        nid = f"{lid}_node_{index}"
        dot.node(nid, label=f"Node #{index}", shape="ellipse", style="filled",
                 fillcolor=FILL_NODE)
        dot.edge(lid, nid, label=f"node_index={index}", style="dashed")
        for kt in node.keras_inputs:
            dot.edge(tensor_id(kt), nid)
        outs = []
        for tensor_index, kt in enumerate(node.outputs):
            dot.edge(nid, tensor_id(kt), label=f"tensor_index={tensor_index}")
            outs.append(kt.name)
        ins = ", ".join(kt.name for kt in node.keras_inputs) or "-"
        lines.append(f"  {node.layer.name} node_index={index}: "
                     f"({ins}) -> ({', '.join(outs)})")
    dot.description = "\n".join(
        [(f"plot_nodes({name}): {len(layer_ids)} layers, {len(nodes)} nodes, "
          f"{len(tensor_ids)} tensors"), *lines])
    return dot


def _public_members(cls, defined_in=None):
    """Names ``cls`` defines itself: public methods and properties, plus
    ``__init__``/``__call__``/``__new__``; each marked if it overrides."""
    defined_in = cls.__dict__ if defined_in is None else defined_in
    keep_dunder = {"__init__", "__call__", "__new__"}
    members = []
    for name, value in defined_in.items():
        if name.startswith("_") and name not in keep_dunder:
            continue
        if isinstance(value, property):
            kind = "property"
        elif callable(value) or isinstance(value, (classmethod, staticmethod)):
            kind = "method"
        else:
            continue
        overrides = any(name in base.__dict__ for base in cls.__mro__[1:]
                        if base is not object)
        members.append((name, kind, overrides))
    return members


def plot_classes(cls, columns=3, include_object=False):
    """Draw the MRO of ``cls``: one box per class, base classes on top.

    Each box lists what that class defines in its own ``__dict__``: public
    methods (``name()``), properties (``name``) and ``__init__``/``__call__``;
    names in italics override a base class's.

    Args:
        cls: a class (or an instance, whose class is drawn).
        columns: names per row inside a box.
        include_object: also draw ``object`` at the top.

    Returns:
        A ``graphviz.Digraph``.

    >>> import kerasmini as keras
    >>> print(repr(plot_classes(keras.Layer)).splitlines()[0])
    plot_classes(Layer): Layer -> Module -> Operation
    """
    if not isinstance(cls, type):
        cls = type(cls)
    chain = [c for c in cls.__mro__ if include_object or c is not object]
    dot = new_digraph(f"{cls.__name__}_mro", rankdir="BT", nodesep="0.25",
                      ranksep="0.3")
    lines = [f"plot_classes({cls.__name__}): " +
             " -> ".join(c.__name__ for c in chain)]
    for index, klass in enumerate(chain):
        members = _public_members(klass)
        try:
            where = relative_path(inspect.getsourcefile(klass) or "")
        except (TypeError, OSError):  # built in, or typed in a notebook
            where = "<cell>" if klass.__module__ == "__main__" else klass.__module__
        cells = []
        for name, kind, overrides in members:
            text = f"{name}()" if kind == "method" else name
            text = _esc(text)
            cells.append(f"<i>{text}</i>" if overrides else text)
        rows = [(f'<tr><td colspan="{columns}" bgcolor="{FILL_MODEL}">'
                 f'<font point-size="13"><b>{_esc(klass.__name__)}</b></font><br/>'
                 f'<font point-size="9">{_esc(where)}</font></td></tr>')]
        for start in range(0, len(cells), columns):
            row = cells[start:start + columns]
            row += [""] * (columns - len(row))
            rows.append("<tr>" + "".join(
                f'<td align="left" bgcolor="{FILL_LAYER}">{c}</td>' for c in row)
                + "</tr>")
        if not cells:
            rows.append(f'<tr><td colspan="{columns}" bgcolor="{FILL_LAYER}">'
                        "<i>(adds nothing public)</i></td></tr>")
        label = ('<<table border="0" cellborder="1" cellspacing="0" '
                 f'cellpadding="4" color="{LINE}">' + "".join(rows) + "</table>>")
        dot.node(f"class_{index}", label=label, shape="plain")
        if index:
            # from the subclass up to its base, with an open triangle (UML)
            dot.edge(f"class_{index - 1}", f"class_{index}", arrowhead="empty",
                     arrowsize="1.0")
        names = ", ".join(
            (f"{n}()" if k == "method" else n) + ("*" if o else "")
            for n, k, o in members)
        lines.append(f"  {klass.__name__} ({where}): {names or '-'}")
    lines.append("  (* overrides a base class)")
    dot.description = "\n".join(lines)
    return dot


def plot_module_tree(root):
    """Draw the attribute tree a ``Module`` walks to find its variables.

    Each module is a box, each variable a note with its path and shape
    (trainable ones green); an arrow is labelled with the attribute (and the
    list index or dict key) it goes through, in the sorted order
    ``tf.Module`` walks them.

    >>> import numpy as np
    >>> import kerasmini as keras
    >>> class Pair(keras.Module):
    ...     def __init__(self):
    ...         super().__init__(name="pair")
    ...         with self.name_scope:
    ...             self.parts = [keras.Variable(np.zeros(2), name="a")]
    >>> plot_module_tree(Pair())
    plot_module_tree(pair): 1 modules, 1 variables
      pair -parts[0]-> pair/a (2,)
    """
    dot = new_digraph(f"{root.name}_tree", rankdir="LR")
    ids, lines = {}, []
    counts = {"modules": 0, "variables": 0}

    def box(obj):
        ids[id(obj)] = f"n{len(ids)}"
        if isinstance(obj, Module):
            counts["modules"] += 1
            dot.node(ids[id(obj)], f"{obj.name}\n({type(obj).__name__})", shape="box",
                     style="rounded,filled", fillcolor=FILL_LAYER)
        else:
            counts["variables"] += 1
            fill = FILL_TENSOR if obj.trainable else FILL_INPUT
            dot.node(ids[id(obj)], f"{obj.path}\n{obj.shape}", shape="note",
                     style="filled", fillcolor=fill)

    def label(obj):
        return obj.name if isinstance(obj, Module) else f"{obj.path} {obj.shape}"

    def visit(obj):
        for key in sorted(vars(obj)):
            value = vars(obj)[key]
            if isinstance(value, dict):
                items = [(f"[{k!r}]", v) for k, v in value.items()]
            elif isinstance(value, (list, tuple)):
                items = [(f"[{i}]", v) for i, v in enumerate(value)]
            else:
                items = [("", value)]
            for suffix, leaf in items:
                if not isinstance(leaf, (Module, Variable)):
                    continue
                new = id(leaf) not in ids
                if new:
                    box(leaf)
                dot.edge(ids[id(obj)], ids[id(leaf)], label=key + suffix)
                lines.append(f"  {label(obj)} -{key + suffix}-> {label(leaf)}")
                if new and isinstance(leaf, Module):
                    visit(leaf)

    box(root)
    visit(root)
    dot.description = "\n".join(
        [f"plot_module_tree({root.name}): {counts['modules']} modules, "
         f"{counts['variables']} variables", *lines])
    return dot


def _attribute_of(parent, child):
    """The attribute of ``parent`` that holds ``child`` (``[i]`` inside a list)."""
    for key, value in vars(parent).items():
        if value is child:
            return key
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                if item is child:
                    return f"{key}[{i}]"
    return "?"


def plot_sublayers(layer, rankdir="LR"):
    """Draw a layer made of layers: its sublayers in the order it tracks them
    (``layer._layers``, the order ``weights`` and the optimizer see), each
    with its weights, and theirs in turn.

    An arrow is labelled with its place in that order and the attribute that
    holds the sublayer; a weight is a note with its path and shape.

    >>> import kerasmini as keras
    >>> keras.backend.clear_session()
    >>> block = keras.layers.Layer(name="block")
    >>> block.inner = keras.layers.Dense(2, name="inner")
    >>> block.inner.build((None, 3))
    >>> plot_sublayers(block)
    plot_sublayers(block): 1 sublayers, 2 weights
      block -#0 inner-> inner (Dense): kernel (3, 2), bias (2,)
    """
    dot = new_digraph(f"{layer.name}_sublayers", rankdir=rankdir)
    ids, lines = {}, []
    counts = {"sublayers": 0, "weights": 0}

    def box(obj, fill):
        ids[id(obj)] = f"l{len(ids)}"
        dot.node(ids[id(obj)], f"{obj.name}\n({type(obj).__name__})", shape="box",
                 style="rounded,filled", fillcolor=fill)
        own = obj._trainable_weights + obj._non_trainable_weights
        for n, weight in enumerate(own):
            counts["weights"] += 1
            wid = f"{ids[id(obj)]}_w{n}"
            fill = FILL_TENSOR if weight.trainable else FILL_INPUT
            dot.node(wid, f"{weight.path}\n{weight.shape}", shape="note",
                     style="filled", fillcolor=fill)
            dot.edge(ids[id(obj)], wid, style="dashed", arrowhead="none")
        return ", ".join(f"{w.name} {w.shape}" for w in own) or "no weights"

    def visit(parent):
        for n, child in enumerate(parent._layers):
            if id(child) in ids:
                continue
            counts["sublayers"] += 1
            weights = box(child, FILL_LAYER)
            attribute = _attribute_of(parent, child)
            dot.edge(ids[id(parent)], ids[id(child)], label=f"#{n} {attribute}")
            lines.append(f"  {parent.name} -#{n} {attribute}-> {child.name} "
                         f"({type(child).__name__}): {weights}")
            visit(child)

    box(layer, FILL_MODEL)
    visit(layer)
    dot.description = "\n".join(
        [f"plot_sublayers({layer.name}): {counts['sublayers']} sublayers, "
         f"{counts['weights']} weights", *lines])
    return dot


def plot_depths(nodes_by_depth):
    """Draw a Functional model's nodes in rows, deepest (the inputs) on top.

    Args:
        nodes_by_depth: ``{depth: [Node]}``, e.g. ``model._nodes_by_depth``.

    >>> import kerasmini as keras
    >>> x = keras.Input((2,), name="x")
    >>> model = keras.Model(x, keras.layers.Dense(1, name="out")(x))
    >>> plot_depths(model._nodes_by_depth)
    depth 1: x
    depth 0: out
    """
    dot = new_digraph("depths", rankdir="TB")
    ids = {}
    depths = sorted(nodes_by_depth, reverse=True)
    for depth in depths:
        with dot.subgraph(name=f"depth_{depth}") as row:
            row.attr(rank="same")
            row.node(f"label_{depth}", f"depth {depth}", shape="plaintext")
            for node in nodes_by_depth[depth]:
                ids[node] = f"{node.layer.name}_{node.node_index}"
                fill = FILL_INPUT if node.is_input else FILL_NODE
                row.node(ids[node], f"{node.layer.name}\n({type(node.layer).__name__})",
                         shape="box", style="rounded,filled", fillcolor=fill)
    for deeper, shallower in zip(depths, depths[1:]):
        dot.edge(f"label_{deeper}", f"label_{shallower}", style="invis")
    for node in ids:
        for parent in node.parent_nodes:
            if parent in ids:
                dot.edge(ids[parent], ids[node])
    dot.description = "\n".join(
        f"depth {d}: " + ", ".join(n.layer.name for n in nodes_by_depth[d])
        for d in depths)
    return dot


def plot_call_steps(fn=None):
    """Draw the numbered steps of ``Layer.__call__`` (or of ``fn``) as a
    pipeline, one box per banner comment of the live source.

    >>> print(repr(plot_call_steps()).splitlines()[4])
      4. Call build (once).
    """
    if fn is None:
        fn = Layer.__call__
    steps = call_steps(fn)
    dot = new_digraph("call_steps", rankdir="TB", nodesep="0.2", ranksep="0.2")
    for step in steps:
        dot.node(f"step_{step.label}", f"{step.label}. {step.title}", shape="box",
                 style="rounded,filled", fillcolor=FILL_MODEL, width="4.5")
    for before, after in zip(steps, steps[1:]):
        dot.edge(f"step_{before.label}", f"step_{after.label}")
    dot.description = "\n".join(
        [f"plot_call_steps({fn.__qualname__}): {len(steps)} steps"] +
        [f"  {step.label}. {step.title}" for step in steps])
    return dot


def plot_tape(tape):
    """Draw what a ``GradientTape`` recorded: one box per primitive call, in
    record order, with arrows from the values it read (variables, arrays, the
    outputs of earlier calls) to the value it produced.

    Walking these arrows backwards from the loss is exactly what
    :meth:`~kerasmini.GradientTape.gradient` does.

    >>> import numpy as np
    >>> import kerasmini as keras
    >>> from kerasmini import ops
    >>> w = keras.Variable(np.ones(2), name="w")
    >>> with keras.GradientTape(persistent=True) as tape:
    ...     loss = ops.sum(ops.square(w))
    >>> plot_tape(tape)
    plot_tape: 2 records
      #0 square(w)
      #1 sum(#0)
    """
    dot = new_digraph("tape", rankdir="LR")
    produced = {}  # id(output) -> record number
    leaves = {}  # id(value) -> node id of a variable or an array
    lines = []
    for number, record in enumerate(tape.records):
        rid = f"rec_{number}"
        dot.node(rid, f"#{number} {record.primitive.name}", shape="box",
                 style="rounded,filled", fillcolor=FILL_NODE)
        names = []
        for arg in record.args:
            if id(arg) in produced:
                dot.edge(f"rec_{produced[id(arg)]}", rid)
                names.append(f"#{produced[id(arg)]}")
                continue
            if getattr(arg, "__kerasmini_variable__", False):
                label, fill = arg.path, FILL_TENSOR
            else:
                label, fill = f"array {getattr(arg, 'shape', ())}", FILL_INPUT
            if id(arg) not in leaves:
                leaves[id(arg)] = f"leaf_{len(leaves)}"
                dot.node(leaves[id(arg)], label, shape="note", style="filled",
                         fillcolor=fill)
            dot.edge(leaves[id(arg)], rid)
            names.append(label)
        produced[id(record.out)] = number
        lines.append(f"  #{number} {record.primitive.name}({', '.join(names)})")
    dot.description = "\n".join([f"plot_tape: {len(tape.records)} records", *lines])
    return dot
