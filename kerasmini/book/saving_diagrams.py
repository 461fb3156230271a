"""Drawings for the saving chapter: a ``.keras`` file, and the order of loading.

* :func:`plot_keras_archive` opens a ``.keras`` file and draws what is in it:
  the zip's members, the nesting of ``config.json`` (the model's envelope,
  its layers, its build and compile configs) and the groups of
  ``model.weights.h5`` with the shape of every array;
* :class:`LoadingRecorder` writes down what :func:`kerasmini.saving.load_model`
  does while it runs (the file it reads, the classes it finds, the layers it
  builds and the variables they create, the compile, the weights it assigns,
  the assets), and :func:`plot_loading_order` draws that record as the steps
  of loading, in the order they happened.

Like the other diagrams of :mod:`kerasmini.book`, each returns a Graphviz
``Digraph`` whose plain-text ``repr`` describes the drawing.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
import zipfile
from dataclasses import dataclass, field

from kerasmini.api_export import get_name_from_symbol
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


def _describe(lines, width=80):
    """The description, each line wrapped at ``width`` (continued further in)."""
    out = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent,
                                 break_long_words=False) or [line])
    return "\n".join(out)


# ----------------------------------------------------------- the archive
def _h5_tree(data):
    """``[(group path, [(dataset name, shape), ...]), ...]`` for the groups of
    an HDF5 file (given as bytes) that hold datasets, in the file's order."""
    import h5py  # the book extra; imported only to draw

    groups = {}
    with h5py.File(io.BytesIO(data), "r") as h5file:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                group, _, leaf = name.rpartition("/")
                groups.setdefault(group, []).append((leaf, tuple(obj.shape)))

        h5file.visititems(visit)
    return list(groups.items())


def _short(value):
    """A config value in a few characters (lists of numbers as tuples)."""
    if isinstance(value, list):
        return "(" + ", ".join(_short(v) for v in value) + \
            ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return value.get("class_name", "{...}")
    return "None" if value is None else str(value)


def _rows(title, rows, fill, columns=2):
    """An HTML-like Graphviz label: a title row, then rows of cells."""
    head = (f'<tr><td colspan="{columns}" bgcolor="{fill}" align="left">'
            f"<b>{_esc(title)}</b></td></tr>")
    body = "".join(
        "<tr>" + "".join(f'<td align="left">{_esc(str(cell))}</td>'
                         for cell in row) + "</tr>"
        for row in rows)
    return ('<<table border="0" cellborder="1" cellspacing="0" cellpadding="3" '
            f'color="{LINE}">{head}{body}</table>>')


def _table(title, fill, sections, section_fill=None):
    """One member of the archive as a table: its name, then sections (a
    heading, or ``None`` for none, two-cell rows, and optionally a colour of
    their own), so that what the file nests reads as nested blocks in a
    narrow box."""
    out = [f'<tr><td colspan="2" bgcolor="{fill}" align="left">'
           f"<b>{_esc(title)}</b></td></tr>"]
    for heading, rows, *colour in sections:
        if heading is not None:
            shade = colour[0] if colour else section_fill
            out.append(f'<tr><td colspan="2" bgcolor="{shade}" '
                       f'align="left"><b>{_esc(heading)}</b></td></tr>')
        for left, right in rows:
            right = str(right)
            if right:
                out.append(f'<tr><td align="left">{_esc(str(left))}</td>'
                           f'<td align="left">{_esc(right)}</td></tr>')
            else:
                out.append(f'<tr><td colspan="2" align="left">'
                           f"{_esc(str(left))}</td></tr>")
    return ('<<table border="0" cellborder="1" cellspacing="0" cellpadding="3" '
            f'color="{LINE}">{"".join(out)}</table>>')


def plot_keras_archive(path):
    """Draw what a ``.keras`` file holds, read from the file itself.

    Three branches leave the archive: ``metadata.json`` (its keys),
    ``config.json`` (the model's envelope: class and module, then its
    layers in order with their classes and names, its ``build_config`` and
    ``compile_config``), and ``model.weights.h5`` (one box per group that
    holds arrays, with each array's name and shape: ``vars/0`` is a layer's
    first variable).

    Args:
        path: a ``.keras`` file.

    Returns:
        A ``graphviz.Digraph``.

    >>> import os, tempfile
    >>> import kerasmini as keras
    >>> keras.backend.clear_session()
    >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.keras")
    >>> model.save(path)
    >>> plot_keras_archive(path)
    plot_keras_archive(tiny.keras): 3 members
      metadata.json: date_saved, keras_version
      config.json: Sequential (module keras)
        layers: InputLayer input_layer, Dense dense
        build_config: input_shape (None, 3)
      model.weights.h5:
        layers/dense/vars: 0 (3, 2), 1 (2,)
    """
    name = str(path).replace("\\", "/").rsplit("/", 1)[-1]
    with zipfile.ZipFile(path) as archive:
        members = archive.namelist()
        config = json.loads(archive.read("config.json"))
        metadata = json.loads(archive.read("metadata.json")) \
            if "metadata.json" in members else {}
        weights = archive.read("model.weights.h5") \
            if "model.weights.h5" in members else None

    dot = new_digraph("keras_archive", rankdir="LR", nodesep="0.2",
                      ranksep="0.35")
    dot.node("archive", f"{name}\n(a zip)", shape="folder", style="filled",
             fillcolor=FILL_INPUT)
    lines = [f"plot_keras_archive({name}): {len(members)} members"]

    # metadata.json: its keys (the values are a version and a date)
    if metadata:
        dot.node("metadata", _table("metadata.json", FILL_INPUT,
                                    [(None, [(k, "") for k in sorted(metadata)])]),
                 shape="plain")
        dot.edge("archive", "metadata")
        lines.append(f"  metadata.json: {', '.join(sorted(metadata))}")

    # config.json: the envelope, then what it nests, one section each
    module = config.get("module") or "null"
    sections = [(None, [("class_name", config["class_name"]), ("module", module)])]
    lines.append(f"  config.json: {config['class_name']} (module {module})")
    layers = (config.get("config") or {}).get("layers") or []
    if layers:
        rows = [(layer["class_name"], layer["config"].get("name", ""))
                for layer in layers]
        sections.append(('config["layers"]', rows))
        lines.append("    layers: " + ", ".join(f"{c} {n}" for c, n in rows))
    if config.get("build_config"):
        rows = [(key, _short(value)) for key, value in config["build_config"].items()]
        sections.append(("build_config", rows, FILL_NODE))
        lines.append("    build_config: " + ", ".join(f"{k} {v}" for k, v in rows))
    if config.get("compile_config"):
        compiled = config["compile_config"]
        rows = [(key, _short(compiled[key])) for key in ("optimizer", "loss", "metrics")
                if compiled.get(key) is not None]
        sections.append(("compile_config", rows, FILL_NODE))
        lines.append("    compile_config: " + ", ".join(f"{k} {v}" for k, v in rows))
    dot.node("config", _table("config.json", FILL_MODEL, sections, FILL_LAYER),
             shape="plain")
    dot.edge("archive", "config")

    # model.weights.h5: one section per group that holds arrays
    if weights is not None:
        sections = []
        lines.append("  model.weights.h5:")
        for group, arrays in _h5_tree(weights):
            rows = list(arrays)
            if len(rows) > 6:  # an optimizer's: fold the middle
                rows = rows[:3] + [("...", f"{len(rows) - 5} more")] + rows[-2:]
            sections.append((group, rows))
            shown = ", ".join(f"{n} {s}" for n, s in arrays)
            if len(arrays) > 6:
                shown = f"{len(arrays)} arrays, {arrays[0][0]} to {arrays[-1][0]}"
            lines.append(f"    {group}: {shown}")
        dot.node("weights", _table("model.weights.h5", FILL_INPUT, sections,
                                   FILL_TENSOR), shape="plain")
        dot.edge("archive", "weights")
    dot.description = _describe(lines)
    return dot


# ------------------------------------------------------ the order of loading
STEPS = (
    ("read", "read config.json"),
    ("classes", "find each class (registry)"),
    ("build", "build: create the variables"),
    ("compile", "compile: build the optimizer"),
    ("weights", "assign the saved arrays"),
    ("assets", "load the assets"),
)
_WATCHED = frozenset({"read_json", "_retrieve", "spend",
                      "compile_from_config", "load_own_variables",
                      "_load_optimizer", "load_assets"})


@dataclass
class LoadingRecorder:
    """Record what loading does, step by step, while it runs.

    Use it around :func:`kerasmini.saving.load_model` (or any code that
    loads): ``with LoadingRecorder() as record: model = load_model(path)``.
    ``events`` lists ``(step, detail)`` in the order things happened, the
    steps being the keys of :data:`STEPS`.

    >>> record = LoadingRecorder()
    >>> record.events.append(("read", "812 bytes"))
    >>> record.steps()
    [('read', ['812 bytes'])]
    """

    events: list = field(default_factory=list)
    _previous: object = None
    _compiling: int = 0  # inside compile_from_config: its classes are its own

    def _profile(self, frame, event, arg):
        if self._previous is not None:
            self._previous(frame, event, arg)
        code = frame.f_code
        if code.co_name not in _WATCHED or event not in ("call", "return") or \
                not frame.f_globals.get("__name__", "").startswith("kerasmini"):
            return
        local = frame.f_locals
        name = code.co_name
        if event == "return":
            if name == "_retrieve" and arg is not None:
                found = getattr(arg, "__name__", str(arg))
                if get_name_from_symbol(arg) is None:
                    found += " (registered)"
                if self._compiling:
                    self.events.append(("compile", f"finds {found}"))
                else:
                    self.events.append(("classes", found))
            elif name == "compile_from_config":
                self._compiling -= 1
                optimizer = getattr(local["self"], "optimizer", None)
                if optimizer is not None:
                    state = (f"built, {len(optimizer.variables)} variables"
                             if optimizer.built else "not built yet")
                    self.events.append(("compile", f"{optimizer.name}: {state}"))
            return
        if name == "read_json" and local.get("name") == "config.json":
            size = len(local["data"])
            self.events.append(("read", f"{size:,} bytes, checked, then parsed"))
        elif name == "spend":
            self.events.append(("build", f"{local['path']} {tuple(local['shape'])}"))
        elif name == "compile_from_config":
            self._compiling += 1
        elif name == "load_own_variables":
            count = len(local["store"])
            self.events.append(("weights", f"{local['self'].name}: " + (
                f"{count} arrays" if count else "none of its own")))
        elif name == "_load_optimizer":
            optimizer, entry = local["optimizer"], local["entry"]
            self.events.append(("weights", f"{optimizer.name}: {len(entry)} arrays"))
        elif name == "load_assets" and "archive" in local:  # the archive's
            files = [n for n in local["archive"].namelist()
                     if n.startswith("assets/") and not n.endswith("/")]
            self.events.append(("assets", f"{len(files)} files under assets/"
                                if files else "none in this file"))
        elif name == "load_assets":  # an object's own method
            self.events.append(("assets", f"{local['self'].name}.load_assets"))

    def __enter__(self):
        self.events = []
        self._previous = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(self._previous)
        self._previous = None
        return False

    def steps(self):
        """``[(step, [details...]), ...]``: consecutive events of one step
        together, in the order they happened (a step that comes back later,
        as building does inside another step, appears again)."""
        grouped = []
        for step, detail in self.events:
            if grouped and grouped[-1][0] == step:
                grouped[-1][1].append(detail)
            else:
                grouped.append((step, [detail]))
        return grouped


def _fold(step, details, keep=5, width=34):
    """The rows of a step's box: class names run on, wrapped at ``width``;
    other details one per row, the middle of a long list folded."""
    if step == "classes":
        return textwrap.wrap(", ".join(details), width) or [""]
    if len(details) <= keep:
        return details
    return details[:keep - 2] + [f"... {len(details) - keep + 1} more"] + details[-1:]


def plot_loading_order(record):
    """Draw a :class:`LoadingRecorder`'s record: one box per step of loading,
    numbered in the order it happened, listing what it did (the classes it
    found, the variables it created with their shapes, the arrays it
    assigned per layer).

    >>> record = LoadingRecorder()
    >>> record.events += [("read", "config.json"), ("classes", "Sequential"),
    ...                   ("classes", "Dense"), ("build", "dense/kernel (3, 2)")]
    >>> plot_loading_order(record)
    plot_loading_order: 3 steps
      1. read config.json: config.json
      2. find each class (registry): Sequential, Dense
      3. build: create the variables: dense/kernel (3, 2)
    """
    titles = dict(STEPS)
    steps = record.steps()
    dot = new_digraph("loading_order", rankdir="TB", nodesep="0.2", ranksep="0.22")
    fills = {"read": FILL_INPUT, "classes": FILL_MODEL, "build": FILL_LAYER,
             "compile": FILL_NODE, "weights": FILL_TENSOR, "assets": FILL_INPUT}
    lines = [f"plot_loading_order: {len(steps)} steps"]
    for number, (step, details) in enumerate(steps, start=1):
        rows = [(row,) for row in _fold(step, details)]
        dot.node(f"step_{number}", _rows(f"{number}. {titles[step]}", rows,
                                         fills[step], columns=1), shape="plain")
        if number > 1:
            dot.edge(f"step_{number - 1}", f"step_{number}")
        lines.append(f"  {number}. {titles[step]}: {', '.join(details)}")
    dot.description = _describe(lines)
    return dot
