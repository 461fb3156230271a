"""The TensorFlow APIs Keras 2 stands on, pinned, and the kerasmini piece for each.

Keras 2 is not a framework on its own: its ``Layer`` is a ``tf.Module``, its
weights are ``tf.Variable`` objects, its graphs are ``tf.function`` traces, and
its saving follows TensorFlow's object tracking. None of that lives in
``keras-team/keras``, so :mod:`kerasmini.book.keras_sources` cannot link it.
This table does: each row is one TensorFlow definition at tag ``v2.6.0`` of
``tensorflow/tensorflow`` (the TensorFlow that Keras 2.6 runs on), the
kerasmini object that plays its part, and one line on what Keras 2 uses it for.

Ranges follow the rule of the Keras table: from the ``def``/``class`` line (or
its first decorator) to the end of the body; classes longer than 400 lines stop
at the end of their docstring. :func:`verify_against_tree` re-checks them
against the ``tensorflow/`` directory of a TensorFlow 2.6.0 checkout or wheel.

>>> tf_source("tf.init_scope").url
'https://github.com/tensorflow/tensorflow/blob/v2.6.0/tensorflow/python/framework/ops.py#L5674-L5776'
>>> tf_source("tf.init_scope").kerasmini
'kerasmini.backend.graph.init_scope'
"""

from __future__ import annotations

import ast
import difflib
import importlib
from dataclasses import dataclass
from html import escape
from pathlib import Path

TF_TAG = "v2.6.0"
TF_REPO_URL = "https://github.com/tensorflow/tensorflow"


@dataclass(frozen=True)
class TFSource:
    """One pinned TensorFlow definition and its kerasmini stand-in.

    Args:
        path: the file in ``tensorflow/tensorflow``.
        start: first line of the definition (``def``/``class`` or decorator).
        end: last line, inclusive.
        symbol: the dotted name of the definition in that file.
        kerasmini: the importable dotted name of the kerasmini counterpart.
        role: what Keras 2 uses it for, and how kerasmini does the same.

    >>> source = tf_source("tf.nest.flatten")
    >>> source.label
    'TF 2.6 tensorflow/python/util/nest.py#L320-L417'
    """

    path: str
    start: int
    end: int
    symbol: str
    kerasmini: str
    role: str

    @property
    def url(self) -> str:
        """The GitHub link that highlights the range at the pinned tag."""
        return f"{TF_REPO_URL}/blob/{TF_TAG}/{self.path}#L{self.start}-L{self.end}"

    @property
    def label(self) -> str:
        """Short link text: TF major.minor, path and line range."""
        version = ".".join(TF_TAG.lstrip("v").split(".")[:2])
        return f"TF {version} {self.path}#L{self.start}-L{self.end}"

    def resolve(self):
        """Import and return the kerasmini object named by :attr:`kerasmini`."""
        parts = self.kerasmini.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
            return obj
        raise ImportError(f"Cannot import {self.kerasmini!r}.")  # pragma: no cover


_P = "tensorflow/python/"

TF_SOURCES: dict[str, TFSource] = {
    "tf.Module": TFSource(
        _P + "module/module.py", 34, 317, "Module",
        "kerasmini.engine.module.Module",
        "Keras 2's Layer subclasses it; variables, trainable_variables and "
        "submodules walk the attributes. kerasmini's Module does the same walk.",
    ),
    "AutoTrackable": TFSource(
        _P + "training/tracking/tracking.py", 41, 126, "AutoTrackable",
        "kerasmini.engine.module.Module._flatten",
        "tf.Module's base: every attribute assignment records a named "
        "dependency for checkpoints. kerasmini records nothing; it walks the "
        "attributes when asked.",
    ),
    "Trackable._track_trackable": TFSource(
        _P + "training/tracking/base.py", 867, 919,
        "Trackable._track_trackable",
        "kerasmini.saving.saving_lib.walk",
        "Adds one named edge of the object graph a checkpoint saves. "
        "kerasmini's saving walks layers and variables by attribute path.",
    ),
    "sticky_attribute_assignment": TFSource(
        _P + "training/tracking/data_structures.py", 136, 169,
        "sticky_attribute_assignment",
        "kerasmini.engine.module.Module._flatten",
        "Wraps lists and dicts set as attributes (ListWrapper) so that what is "
        "appended later is tracked too. kerasmini's walk reads the list as it "
        "is now, so no wrapper is needed.",
    ),
    "tf.train.Checkpoint": TFSource(
        _P + "training/tracking/util.py", 1843, 1943, "Checkpoint",
        "kerasmini.saving.saving_lib.save_state",
        "Saves the object graph of trackables; Keras 2's save_weights in the "
        "TF format uses the same TrackableSaver. kerasmini writes weights by "
        "path instead, as Keras 3 does.",
    ),
    "tf.Variable": TFSource(
        _P + "ops/variables.py", 273, 367, "Variable",
        "kerasmini.backend.variables.Variable",
        "Every Keras 2 weight is one (backend.variable, add_weight). "
        "kerasmini's Variable holds a NumPy array and a path.",
    ),
    "tf.name_scope": TFSource(
        _P + "framework/ops.py", 6652, 6742, "name_scope_v2",
        "kerasmini.backend.naming.name_scope",
        "Prefixes op and variable names (dense/kernel:0). kerasmini's "
        "name_scope builds the variable's path (dense/kernel).",
    ),
    "tf.function": TFSource(
        _P + "eager/def_function.py", 1265, 1649, "function",
        "kerasmini.backend.graph.function",
        "Compiles train_step and predict_step (make_train_function). "
        "kerasmini's function traces once per input signature and replays.",
    ),
    "Function.__call__": TFSource(
        _P + "eager/def_function.py", 858, 902, "Function.__call__",
        "kerasmini.backend.graph.Function.__call__",
        "Looks up or traces the concrete function for the arguments, then "
        "runs it. kerasmini keys its graphs by shapes and dtypes.",
    ),
    "FuncGraph": TFSource(
        _P + "framework/func_graph.py", 138, 168, "FuncGraph",
        "kerasmini.backend.graph.Graph",
        "The graph a tf.function trace records into; Keras 2's backend also "
        "keeps one named keras_graph. kerasmini's Graph records primitives.",
    ),
    "func_graph_from_py_func": TFSource(
        _P + "framework/func_graph.py", 815, 1055,
        "func_graph_from_py_func",
        "kerasmini.backend.graph.Function._trace",
        "Runs the Python function once on placeholders inside a fresh "
        "FuncGraph. kerasmini's _trace does the same with its Graph.",
    ),
    "tf.init_scope": TFSource(
        _P + "framework/ops.py", 5674, 5776, "init_scope",
        "kerasmini.backend.graph.init_scope",
        "Leaves every trace for the outermost eager context; Keras 2 builds "
        "layers under it (maybe_init_scope). kerasmini's init_scope too.",
    ),
    "tf.GradientTape": TFSource(
        _P + "eager/backprop.py", 740, 835, "GradientTape",
        "kerasmini.backend.tape.GradientTape",
        "Records operations for gradients in train_step. kerasmini's tape "
        "records primitives and runs their vector-Jacobian rules.",
    ),
    "tf.nest.flatten": TFSource(
        _P + "util/nest.py", 320, 417, "flatten",
        "kerasmini.tree.flatten",
        "Turns nested inputs and outputs into flat lists (Functional, "
        "__call__). kerasmini.tree sorts dict keys the same way.",
    ),
    "tf.nest.pack_sequence_as": TFSource(
        _P + "util/nest.py", 646, 757, "pack_sequence_as",
        "kerasmini.tree.pack_sequence_as",
        "Puts a flat list back into a structure (a Functional model's "
        "outputs). kerasmini.tree.pack_sequence_as.",
    ),
    "tf.nest.map_structure": TFSource(
        _P + "util/nest.py", 760, 870, "map_structure",
        "kerasmini.tree.map_structure",
        "Applies a function leaf by leaf (casting inputs, making "
        "KerasTensors). kerasmini.tree.map_structure.",
    ),
}  # fmt: skip


def tf_source(key: str) -> TFSource:
    """The pinned TensorFlow source for ``key`` (e.g. ``"tf.Module"``).

    Raises:
        ValueError: if ``key`` is not in :data:`TF_SOURCES`; the message lists
            close keys.

    >>> tf_source("tf.Modul")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: No pinned TensorFlow source for 'tf.Modul'. Close keys: 'tf.Module'...
    """
    if key in TF_SOURCES:
        return TF_SOURCES[key]
    close = difflib.get_close_matches(key, list(TF_SOURCES), n=5, cutoff=0.6)
    hint = (
        "Close keys: " + ", ".join(repr(k) for k in close) + "."
        if close
        else "See TF_SOURCES for all keys."
    )
    raise ValueError(f"No pinned TensorFlow source for {key!r}. {hint}")


class TFTable:
    """The rows of :data:`TF_SOURCES` to display: text in a terminal, HTML in Jupyter.

    >>> print(str(TFTable(["tf.Variable"])).splitlines()[0])
    tf.Variable -> kerasmini.backend.variables.Variable
    """

    def __init__(self, keys=None):
        self.keys = list(TF_SOURCES) if keys is None else list(keys)
        self.rows = [(key, tf_source(key)) for key in self.keys]

    def __str__(self) -> str:
        lines = []
        for key, source in self.rows:
            lines.append(f"{key} -> {source.kerasmini}")
            lines.append(f"    {source.label}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        body = []
        for key, source in self.rows:
            where = source.path.removeprefix(_P)
            name = source.kerasmini.removeprefix("kerasmini.")
            body.append(
                '<tr style="vertical-align: top">'
                f'<td><a href="{escape(source.url)}"><code>{escape(key)}</code></a>'
                f"<br><small>{escape(where)}<br>"
                f"L{source.start}-L{source.end}</small></td>"
                f"<td><code>{escape(name)}</code><br>"
                f"<small>{escape(source.role)}</small></td></tr>"
            )
        return (
            '<table class="kerasmini-tf-table"><thead><tr><th>TensorFlow '
            f"{escape(TF_TAG)}</th><th>kerasmini, and the part it plays</th>"
            "</tr></thead><tbody>" + "".join(body) + "</tbody></table>"
        )


def tf_table(keys=None) -> TFTable:
    """A displayable table of TensorFlow APIs and their kerasmini stand-ins.

    Args:
        keys: keys of :data:`TF_SOURCES` to show, in order; all when ``None``.

    >>> len(tf_table().rows) == len(TF_SOURCES)
    True
    """
    return TFTable(keys)


def _definitions(text: str) -> dict[str, tuple[int, int, int]]:
    """Map dotted names to (start, end, docstring end) of every def/class."""
    found: dict[str, tuple[int, int, int]] = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                doc_end = 0
                if isinstance(node, ast.ClassDef) and ast.get_docstring(node):
                    doc_end = node.body[0].end_lineno
                found.setdefault(prefix + node.name, (start, node.end_lineno, doc_end))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")

    visit(ast.parse(text).body, "")
    return found


def verify_against_tree(root) -> list[str]:
    """Check every range against TensorFlow 2.6.0 sources under ``root``.

    ``root`` is a directory that holds ``tensorflow/python/...``: a checkout
    of the tag, or an unpacked ``tensorflow`` 2.6.0 wheel (its ``.py`` files are
    the tag's). Returns the problems found, empty when every range is right.

    >>> verify_against_tree("/path/to/tensorflow-2.6.0")  # doctest: +ELLIPSIS
    ['tf.Module: tensorflow/python/module/module.py not found', ...]
    """
    problems = []
    for key, source in TF_SOURCES.items():
        path = Path(root) / source.path
        if not path.exists():
            problems.append(f"{key}: {source.path} not found")
            continue
        spans = _definitions(path.read_text())
        if source.symbol not in spans:
            problems.append(f"{key}: no {source.symbol} in {source.path}")
            continue
        start, end, doc_end = spans[source.symbol]
        if (source.start, source.end) not in {(start, end), (start, doc_end)}:
            problems.append(
                f"{key}: L{source.start}-L{source.end}, expected "
                f"L{start}-L{end} (docstring ends at L{doc_end})"
            )
    return problems
