"""``model.summary()``: a table of layers, output shapes and parameters.

The figures follow Keras 3: one row per layer (a Functional model shows its
InputLayers, a Sequential does not), ``?`` for unknown shapes, parameter
counts with thousands separators, a ``Connected to`` column when the graph
is not a simple chain (``name[node_index][tensor_index]``), and totals with
their size in bytes. Keras draws the box with the ``rich`` library; kerasmini
draws the same box by hand, with the column widths ``rich`` gives Keras.

>>> from kerasmini import Sequential, layers, backend
>>> backend.clear_session()
>>> model = Sequential([layers.Dense(10, input_shape=(10,), activation="relu"),
...                     layers.Dense(1)])
>>> model.summary(line_length=60)
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Layer (type)             ┃ Output Shape      ┃   Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ dense (Dense)            │ (None, 10)        │       110 │
├──────────────────────────┼───────────────────┼───────────┤
│ dense_1 (Dense)          │ (None, 1)         │        11 │
└──────────────────────────┴───────────────────┴───────────┘
 Total params: 121 (484.00 B)
 Trainable params: 121 (484.00 B)
 Non-trainable params: 0 (0.00 B)
"""

import numpy as np


def readable_memory_size(size):
    """Bytes as ``'484.00 B'``, ``'1.50 KB'``... (1 KB = 1024 B).

    >>> readable_memory_size(484), readable_memory_size(1536)
    ('484.00 B', '1.50 KB')
    """
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _weights_size(weights):
    count = sum(int(np.prod(w.shape)) for w in weights)
    nbytes = sum(int(np.prod(w.shape)) * np.dtype(w.dtype).itemsize for w in weights)
    return count, nbytes


def is_sequential_like(model) -> bool:
    """Whether every depth has one node with one input and no layer is
    called twice (then ``Connected to`` adds nothing).

    >>> from kerasmini import Sequential, layers
    >>> is_sequential_like(Sequential([layers.Dense(1)]))
    True
    """
    if type(model).__name__ == "Sequential" or not hasattr(model, "_nodes_by_depth"):
        return True
    nodes = []
    for depth_nodes in model._nodes_by_depth.values():
        if len(depth_nodes) > 1 or (
                len(depth_nodes) == 1 and len(depth_nodes[0].keras_inputs) > 1):
            return False
        nodes += depth_nodes
    for layer in model.layers:
        if sum(node in nodes for node in layer._inbound_nodes) > 1:
            return False
    return True


def _relevant_nodes(model, layer):
    nodes = getattr(model, "_network_nodes", None)
    if nodes is None:
        return []
    return [n for n in layer._inbound_nodes if n in nodes]


def _format_shape(model, layer):
    nodes = _relevant_nodes(model, layer) or layer._inbound_nodes
    shapes = {str(n.output_shapes) for n in nodes}
    if not shapes and layer.built and layer._build_input_shape is not None:
        # never called symbolically (a subclassed model's layers): infer the
        # output shape from the shape it was built with, as Keras 3 does
        try:
            return str(layer.compute_output_shape(layer._build_input_shape))
        except Exception:
            return "?"
    if not shapes:
        return "?"
    if len(shapes) > 1:
        return "multiple"
    shape = shapes.pop()
    return shape


def _connections(model, layer):
    parts = []
    for node in _relevant_nodes(model, layer):
        for inbound, node_index, tensor_index, _ in node.iterate_inbound():
            parts.append(f"{inbound.name}[{node_index}][{tensor_index}]")
    return ", ".join(parts) or "-"


def _params(layer):
    if not layer.built:
        return "0 (unbuilt)"
    return f"{layer.count_params():,}"


def _wrap(text, width):
    """Split ``text`` into lines of at most ``width`` characters, at ', '."""
    lines, current = [], ""
    for word in text.split(", "):
        candidate = word if not current else current + ", " + word
        if len(candidate) <= width or not current:
            current = candidate
        else:
            lines.append(current + ",")
            current = word
    lines.append(current)
    out = []
    for line in lines:
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return out


def _column_widths(line_length, positions):
    """The text width of each column, as Keras's table (drawn by ``rich``)
    lays them out.

    Keras asks for columns that end at ``positions`` (fractions of
    ``line_length``). Each column also needs a space on either side and each
    border one character, so the request is too wide by the borders; the
    excess is taken back evenly, one column after the other, each share
    rounded as it goes (``rich``'s ``ratio_reduce``).

    >>> _column_widths(72, [0.45, 0.80, 1.0])
    [29, 21, 12]
    """
    requested, edge = [], 0
    for position in positions:
        right = int(line_length * position)
        requested.append(right - edge + 2)  # a space on either side
        edge = right
    excess = sum(requested) - (line_length - len(positions) - 1)  # the borders
    widths, left = [], len(requested)
    for width in requested:
        share = min(width, round(excess / left)) if excess > 0 else 0
        widths.append(width - share - 2)
        excess -= share
        left -= 1
    return widths


def print_summary(model, line_length=None, positions=None, print_fn=None,
                  show_trainable=False):
    """Print (or hand line by line to ``print_fn``) the summary of ``model``.

    Args:
        model: a built or unbuilt model (unbuilt layers show ``?``).
        line_length: total width (default 88, or 108 with ``Connected to``).
        positions: relative right edges of the columns.
        print_fn: called with each line (default ``print``).
        show_trainable: add a ``Trainable`` column.

    >>> from kerasmini import Sequential, layers
    >>> model = Sequential([layers.Dense(1, input_shape=(2,))])
    >>> lines = []
    >>> print_summary(model, print_fn=lines.append)
    >>> lines[-3:]
    [' Total params: 3 (12.00 B)', ' Trainable params: 3 (12.00 B)', ' Non-trainable ...
    """
    print_fn = print_fn or print
    line_length_given = line_length
    sequential_like = is_sequential_like(model)
    headers = ["Layer (type)", "Output Shape", "Param #"]
    if not sequential_like:
        headers.append("Connected to")
    line_length = line_length or (88 if sequential_like else 108)
    positions = positions or ([0.45, 0.80, 1.0] if sequential_like
                              else [0.3, 0.56, 0.74, 1.0])
    if show_trainable:  # Keras 3 widens the default table by 12 for it
        headers.append("Trainable")
        positions = [p * 0.9 for p in positions] + [1.0]
        line_length = line_length + 12 if line_length_given is None else line_length
    widths = _column_widths(line_length, positions)
    layers = model.layers if type(model).__name__ == "Sequential" else \
        getattr(model, "_graph_layers", None) or model.layers

    rows = []
    for layer in layers:
        row = [f"{layer.name} ({type(layer).__name__})", _format_shape(model, layer),
               _params(layer)]
        if not sequential_like:
            row.append(_connections(model, layer))
        if show_trainable:
            row.append("Y" if layer.trainable else "N")
        rows.append(row)

    def border(left, fill, mid, right):
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def cells(values, heavy=False):
        bar = "┃" if heavy else "│"
        wrapped = [_wrap(str(v), w) for v, w in zip(values, widths)]
        height = max(len(w) for w in wrapped)
        out = []
        for i in range(height):
            parts = []
            for col, (lines, w) in enumerate(zip(wrapped, widths)):
                text = lines[i] if i < len(lines) else ""
                if col == 2:
                    parts.append(text.rjust(w))
                elif show_trainable and col == len(widths) - 1:
                    parts.append(text.center(w))
                else:
                    parts.append(text.ljust(w))
            out.append(bar + bar.join(f" {p} " for p in parts) + bar)
        return out

    print_fn(f'Model: "{model.name}"')
    print_fn(border("┏", "━", "┳", "┓"))
    for line in cells(headers, heavy=True):
        print_fn(line)
    print_fn(border("┡", "━", "╇", "┩"))
    for i, row in enumerate(rows):
        for line in cells(row):
            print_fn(line)
        if i < len(rows) - 1:
            print_fn(border("├", "─", "┼", "┤"))
    print_fn(border("└", "─", "┴", "┘"))

    trainable = _weights_size(model.trainable_weights)
    non_trainable = _weights_size(model.non_trainable_weights)
    total = (trainable[0] + non_trainable[0], trainable[1] + non_trainable[1])
    print_fn(f" Total params: {total[0]:,} ({readable_memory_size(total[1])})")
    print_fn(f" Trainable params: {trainable[0]:,} ({readable_memory_size(trainable[1])})")
    print_fn(f" Non-trainable params: {non_trainable[0]:,} "
             f"({readable_memory_size(non_trainable[1])})")
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(optimizer, "variables", None):
        count, nbytes = _weights_size(optimizer.variables)
        print_fn(f" Optimizer params: {count:,} ({readable_memory_size(nbytes)})")
