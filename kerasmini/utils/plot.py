"""``plot_model``: a Graphviz drawing of a model, and the drawing style.

:func:`plot_model` draws a model's layers and their connections, as
``keras.utils.plot_model`` does (Keras 3 ``keras/src/utils/
model_visualization.py``): one box per layer with its name and class, and, on
request, input/output shapes, dtype, activation and trainability.
:func:`new_digraph` and the colours below are the style every drawing of the
book shares (the book's own diagrams are in :mod:`kerasmini.book.diagrams`).

It returns a ``graphviz.Digraph`` (it renders as SVG in a notebook) whose
plain-text ``repr`` is a short, deterministic description of the drawing.
Node ids come from positions and names, never from ``id()``, so the same
objects always give the same DOT source. The colours are mid-tone fills with
dark text on a transparent background: readable on light and dark pages.

The ``graphviz`` package is imported only when a drawing is made; it calls
Graphviz's ``dot`` program, which is a system package.
"""

from __future__ import annotations

import functools
import html
import itertools
import os
import shutil

from kerasmini.tree import flatten

# Colours: mid-tone fills, dark-grey text, grey lines (light and dark themes).
TEXT = "#262626"
LINE = "#8c8c8c"
FILL_LAYER = "#9ecae1"
FILL_INPUT = "#c7c7c7"
FILL_MODEL = "#bcbddc"
FILL_NODE = "#fdd0a2"
FILL_TENSOR = "#c7e9c0"
FILL_TRAINABLE = "#74c476"
FILL_FROZEN = "#fb6a4a"
FONT = "Helvetica"


def _require_dot():
    """Raise one clear ``OSError`` when Graphviz's ``dot`` is not installed."""
    if shutil.which("dot") is None:
        raise OSError(
            "Graphviz's `dot` program was not found. Install it: apt-get install "
            "graphviz (Debian/Ubuntu), brew install graphviz (macOS), conda "
            "install graphviz, or see https://graphviz.org/download/"
        )


@functools.cache
def _digraph_class():
    """A ``graphviz.Digraph`` whose ``repr`` is a description, not an address."""
    try:
        import graphviz
    except ImportError:
        raise ImportError(
            "Drawing a model needs the `graphviz` Python package (it calls "
            "Graphviz's `dot` program). Install the book's extra: pip install "
            "'kerasmini[book]' (or pip install graphviz)."
        ) from None

    class Digraph(graphviz.Digraph):
        """``graphviz.Digraph`` with a deterministic plain-text ``repr``."""

        description: str = ""

        def __repr__(self):
            return self.description or f"<Digraph {self.name!r}>"

    return Digraph


def new_digraph(name: str, rankdir: str = "TB", dpi: int | None = None, **graph_attr):
    """An empty Digraph in the book's style (transparent, grey lines).

    Raises:
        OSError: if Graphviz's ``dot`` program is missing.

    >>> new_digraph("g", rankdir="LR").graph_attr["rankdir"]
    'LR'
    """
    _require_dot()
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(
            f"`rankdir` must be one of 'TB', 'LR', 'BT', 'RL'. Received: {rankdir!r}"
        )
    attrs = {"rankdir": rankdir, "bgcolor": "transparent", "fontname": FONT,
             "fontcolor": TEXT, "nodesep": "0.3", "ranksep": "0.35"}
    if dpi is not None:
        attrs["dpi"] = str(dpi)
    attrs.update({k: str(v) for k, v in graph_attr.items()})
    dot = _digraph_class()(name=name, graph_attr=attrs)
    dot.attr("node", fontname=FONT, fontcolor=TEXT, color=LINE, fontsize="11",
             penwidth="1")
    dot.attr("edge", color=LINE, fontcolor=TEXT, fontname=FONT, fontsize="10",
             penwidth="1.4", arrowsize="0.7")
    return dot


def _esc(value) -> str:
    return html.escape(str(value), quote=True)


def _shape_text(structure) -> str:
    shapes = [tuple(x.shape) for x in flatten(structure)]
    if not shapes:
        return "?"
    return ", ".join(str(s) for s in shapes) if len(shapes) > 1 else str(shapes[0])


def _layer_shapes(layer):
    """(input shape text, output shape text, output dtype) of the first call."""
    try:
        node = layer._inbound_nodes[0]
    except (AttributeError, IndexError):
        return "?", "?", "?"
    inputs = _shape_text(node.keras_inputs) if node.keras_inputs else "?"
    outputs = _shape_text(node.outputs)
    dtypes = sorted({x.dtype for x in node.outputs}) or ["?"]
    return inputs, outputs, ", ".join(dtypes)


def _activation_name(layer):
    activation = getattr(layer, "activation", None)
    if activation is None:
        return None
    return getattr(activation, "__name__", None) or type(activation).__name__


def _kind(obj):
    """What a layer says it is (``_obj_type()``, as :mod:`kerasmini.saving`
    asks): ``"Layer"``, ``"Model"``, ``"Functional"`` or ``"Sequential"``, so
    this module imports none of the model classes."""
    return obj._obj_type() if hasattr(obj, "_obj_type") else None


def _is_input_layer(layer):
    return type(layer).__name__ == "InputLayer"  # as Keras's plot_model asks


def _is_graph_model(layer):
    return _kind(layer) in ("Functional", "Sequential")


def _layer_label(layer, show_shapes, show_dtype, show_layer_names,
                 show_layer_activations, show_trainable):
    """An HTML-like Graphviz label: a small table, as Keras draws."""
    cls = type(layer).__name__
    if _is_input_layer(layer):
        fill = FILL_INPUT
    elif _kind(layer) in ("Model", "Functional", "Sequential"):
        fill = FILL_MODEL
    else:
        fill = FILL_LAYER
    title = f"<b>{_esc(layer.name)}</b> ({_esc(cls)})" if show_layer_names \
        else f"<b>{_esc(cls)}</b>"
    cells = []
    if show_shapes:
        in_shape, out_shape, _ = _layer_shapes(layer)
        if not _is_input_layer(layer):
            cells.append(f"Input shape: <b>{_esc(in_shape)}</b>")
        cells.append(f"Output shape: <b>{_esc(out_shape)}</b>")
    if show_dtype:
        cells.append(f"Output dtype: <b>{_esc(_layer_shapes(layer)[2])}</b>")
    trainable_cell = ""
    if show_trainable and layer.weights:
        if layer.trainable:
            trainable_cell = (f'<td bgcolor="{FILL_TRAINABLE}"><b>Trainable</b></td>')
        else:
            trainable_cell = (f'<td bgcolor="{FILL_FROZEN}"><b>Non-trainable</b></td>')
    span = max(1, len(cells) + (1 if trainable_cell else 0))
    rows = [(f'<tr><td colspan="{span}" bgcolor="{fill}">'
             f'<font point-size="12">{title}</font></td></tr>')]
    activation = _activation_name(layer) if show_layer_activations else None
    if activation is not None:
        rows.append(f'<tr><td colspan="{span}" bgcolor="{fill}">'
                    f"Activation: <b>{_esc(activation)}</b></td></tr>")
    if cells or trainable_cell:
        row = "".join(f'<td bgcolor="{fill}">{c}</td>' for c in cells)
        rows.append(f"<tr>{row}{trainable_cell}</tr>")
    return ('<<table border="0" cellborder="1" cellspacing="0" cellpadding="6" '
            f'color="{LINE}">' + "".join(rows) + "</table>>")


def _model_layers(model):
    """The boxes of a model: what ``keras.utils.plot_model`` draws."""
    if _kind(model) == "Sequential":
        return model.layers, "sequential"
    if _kind(model) == "Functional":
        return model.layers, "functional"
    return [model], "subclassed"


def _add_model(dot, model, options, expand_nested, ids, prefix):
    """Add ``model``'s boxes and arrows to ``dot``; return (boxes, arrows)."""
    layers, kind = _model_layers(model)
    boxes, arrows = [], []
    for index, layer in enumerate(layers):
        node_id = f"{prefix}{index}"
        if expand_nested and _is_graph_model(layer):
            with dot.subgraph(name=f"cluster_{node_id}") as sub:
                sub.attr(label=layer.name, style="dashed", color=LINE,
                         fontcolor=TEXT, labeljust="l")
                inner_boxes, inner_arrows = _add_model(
                    sub, layer, options, True, ids, node_id + "_")
            boxes += inner_boxes
            arrows += inner_arrows
            ids[id(layer)] = ("model", layer)
        else:
            dot.node(node_id, label=_layer_label(layer, **options), shape="plain")
            ids[id(layer)] = node_id
            boxes.append(layer.name)
    if kind == "subclassed":
        return boxes, arrows

    def entry(layer, input_index=0):
        """The box an arrow into ``layer`` should end at."""
        target = ids.get(id(layer))
        while isinstance(target, tuple):
            inner = target[1]
            if _kind(inner) == "Sequential":
                inner_layer = inner._stack[0]
                if id(inner_layer) not in ids:
                    inner_layer = inner.layers[0]
            else:
                inner_layer = inner.inputs[input_index]._keras_history.layer
            layer, target = inner_layer, ids.get(id(inner_layer))
            input_index = 0
        return target

    def exit_(layer, tensor_index=0):
        """The box an arrow out of ``layer`` should start at."""
        target = ids.get(id(layer))
        while isinstance(target, tuple):
            inner = target[1]
            layer, _, tensor_index = inner.outputs[tensor_index]._keras_history
            target = ids.get(id(layer))
        return target

    if kind == "sequential" and not expand_nested:
        for a, b in itertools.pairwise(layers):
            dot.edge(ids[id(a)], ids[id(b)])
            arrows.append((a.name, b.name))
        return boxes, arrows
    graph_layers = list(layers)
    if kind == "sequential":  # its InputLayer is hidden but still in the graph
        graph_layers = model._stack
    nodes = model._network_nodes
    seen = set()
    for layer in graph_layers:
        for node in layer._inbound_nodes:
            if node not in nodes:
                continue
            for input_index, kt in enumerate(node.keras_inputs):
                source_layer, _, tensor_index = kt._keras_history
                if source_layer not in graph_layers:
                    continue
                src = exit_(source_layer, tensor_index)
                dst = entry(layer, input_index)
                if src is None or dst is None or (src, dst) in seen:
                    continue
                seen.add((src, dst))
                dot.edge(src, dst)
                arrows.append((source_layer.name, layer.name))
    return boxes, arrows


def plot_model(model, to_file=None, show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
               show_layer_activations=False, show_trainable=False):
    """Draw a model as boxes and arrows, like ``keras.utils.plot_model``.

    A Sequential model is a chain of its layers (no InputLayer box, as in
    Keras); a Functional model shows every layer of its graph, InputLayers
    included, with one arrow per connection; a subclassed model is one box.

    Args:
        model: a built kerasmini model.
        to_file: also write the drawing there; the format comes from the
            extension (``.png``, ``.svg``, ``.pdf``, ``.dot``...).
        show_shapes: add each layer's input and output shapes.
        show_dtype: add each layer's output dtype.
        show_layer_names: title boxes ``name (Class)`` instead of ``Class``.
        rankdir: ``"TB"`` (top to bottom) or ``"LR"`` (left to right).
        expand_nested: draw nested models as dashed clusters of their layers.
        dpi: resolution of raster output.
        show_layer_activations: add the activation of layers that have one.
        show_trainable: mark layers with weights as trainable or not.

    Returns:
        A ``graphviz.Digraph`` (displayed as SVG in a notebook).

    Raises:
        ValueError: if the model is not built.
        OSError: if Graphviz's ``dot`` program is missing.

    >>> import kerasmini as keras
    >>> keras.backend.clear_session()
    >>> model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    >>> plot_model(model)
    plot_model(sequential): 1 boxes, 0 arrows
      dense
    """
    if not getattr(model, "built", False):
        raise ValueError(
            "This model has not yet been built. Build the model first by calling "
            "`build()` or by calling the model on a batch of data."
        )
    # no `dpi` on the graph itself: Graphviz then scales SVG output twice
    # (width/height and an inner transform) and browsers clip the drawing;
    # `dpi` only applies to raster files written with `to_file`
    dot = new_digraph(model.name, rankdir=rankdir, splines="spline")
    options = {"show_shapes": show_shapes, "show_dtype": show_dtype,
               "show_layer_names": show_layer_names,
               "show_layer_activations": show_layer_activations,
               "show_trainable": show_trainable}
    boxes, arrows = _add_model(dot, model, options, expand_nested, {}, "layer_")
    lines = [f"plot_model({model.name}): {len(boxes)} boxes, {len(arrows)} arrows"]
    lines += [f"  {a} -> {b}" for a, b in arrows]
    lines += [f"  {name}" for name in boxes
              if not any(name in arrow for arrow in arrows)]
    dot.description = "\n".join(lines)
    if to_file is not None:
        _write(dot, to_file, dpi=dpi)
    return dot


def _write(dot, to_file, dpi=None):
    """Write ``dot`` to ``to_file`` in the format of its extension."""
    path = os.fspath(to_file)
    ext = os.path.splitext(path)[1]
    fmt = ext.lstrip(".").lower() or "png"
    if fmt in ("dot", "gv"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(dot.source)
        return
    if dpi is not None and fmt not in ("svg", "pdf", "ps", "eps"):
        dot = dot.copy()
        dot.graph_attr["dpi"] = str(dpi)
    dot.render(outfile=path, format=fmt, cleanup=True)


__all__ = ["new_digraph", "plot_model"]
