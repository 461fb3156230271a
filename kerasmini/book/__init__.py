"""The book's instruments: what the chapters use to look inside kerasmini.

These are not Keras API (``keras`` has nothing like them); they serve the
book "Reading Keras with kerasmini":

* :mod:`~kerasmini.book.source`: ``show_source`` (kerasmini's live code beside
  pinned links to the real Keras lines) and ``keras_links``;
* :mod:`~kerasmini.book.keras_sources`: the table of pinned links
  (:mod:`~kerasmini.book.keras_source_table`) and how it is checked;
* :mod:`~kerasmini.book.keras_excerpts`: pinned Keras lines inside a
  definition, or in code kerasmini does not mirror, each checked by its text;
* :mod:`~kerasmini.book.tf_sources`: the TensorFlow 2.6 APIs Keras 2 stands on,
  pinned, each with the kerasmini piece that plays its part;
* :mod:`~kerasmini.book.trace`: the call tracer (``with trace() as t: ...``);
* :mod:`~kerasmini.book.diagrams`: Graphviz drawings of live objects (nodes,
  class chains, module trees, depths, the ``__call__`` steps);
* :mod:`~kerasmini.book.fit_diagrams`: the training chapters' drawings (the
  order of callback hooks, an optimizer's slot variables);
* :mod:`~kerasmini.book.saving_diagrams`: the saving chapter's drawings (what
  a ``.keras`` file holds, the order of loading as ``load_model`` ran it);
* :mod:`~kerasmini.book.steps`: the numbered steps of ``Layer.__call__``;
* :mod:`~kerasmini.book.compiled`: ``show_compiled`` (the Python a traced
  step replays, as recorded or with its fused kernels);
* :mod:`~kerasmini.book.codebase`: the module map and the import graph.

``import kerasmini`` does not import this package (which loads every public
name, those left for first use too); graphviz and pygments are
imported only when a drawing or an HTML listing is made.

>>> from kerasmini.book import show_source
>>> show_source.__module__
'kerasmini.book.source'
"""

from kerasmini import callbacks, saving
from kerasmini.book.compiled import show_compiled
from kerasmini.book.diagrams import (
    plot_call_steps,
    plot_classes,
    plot_depths,
    plot_module_tree,
    plot_nodes,
    plot_sublayers,
    plot_tape,
)
from kerasmini.book.fit_diagrams import (
    HookRecorder,
    plot_hook_calls,
    plot_optimizer_slots,
)
from kerasmini.book.keras_sources import keras_source
from kerasmini.book.saving_diagrams import (
    LoadingRecorder,
    plot_keras_archive,
    plot_loading_order,
)
from kerasmini.book.source import SourceView, keras_links, show_source
from kerasmini.book.steps import call_steps, step_lines
from kerasmini.book.tf_sources import tf_source, tf_table
from kerasmini.book.trace import Trace, side_by_side, trace

# The book reads the whole library, so it loads the public names that
# `import kerasmini` leaves for first use (the callbacks a user picks, the
# saving archive floor): then the registry of public names
# (kerasmini.api_export.REGISTERED_NAMES_TO_OBJS) lists all of them, as
# Keras's registry does after `import keras`.
for _package in (callbacks, saving):
    for _name in dir(_package):
        getattr(_package, _name)

__all__ = [
    "HookRecorder", "SourceView", "Trace", "call_steps", "keras_links",
    "keras_source", "plot_call_steps", "plot_classes", "plot_depths",
    "plot_hook_calls", "plot_module_tree", "plot_nodes", "plot_optimizer_slots",
    "plot_sublayers", "plot_tape", "show_compiled", "show_source", "side_by_side",
    "step_lines", "tf_source", "tf_table", "trace",
    # the saving chapter's drawings
    "LoadingRecorder", "plot_keras_archive", "plot_loading_order",
]
