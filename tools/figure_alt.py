"""The chapters' figures described for readers who cannot see them (alt texts).

Every figure a chapter draws (an ``image/png`` or ``image/svg+xml`` output)
carries a description in its cell's metadata, ``"mystnb": {"image": {"alt":
...}}``, which myst-nb writes into the page's ``<img alt="...">`` (without it
the alt text is the image's file path). The descriptions live in ``ALT`` below,
keyed by chapter and cell id, so that re-running or merging notebooks never
loses them: ``--write`` puts them into the notebooks' metadata (metadata only:
outputs are untouched, nothing needs re-running), ``--check`` reports figures
without a description, descriptions that are empty or a file path, and rows
whose cell is gone or no longer draws a figure. ``tests/test_figure_alt.py``
runs the check.

A description says what the figure shows and what to read in it, in a sentence
or three, without figures that change from run to run.

The Chinese edition translates them like the prose: the gettext build keeps
the figures (``nb_mime_priority_overrides`` in ``_config.yml``), so Sphinx
extracts each alt text as a message of its chapter's catalog, and the
``zh_CN`` build writes the translation into ``<img alt>``; after changing a
description, run ``tools/i18n.py update`` and translate it (CONTRIBUTING.md).

Usage::

    python tools/figure_alt.py --check            # every chapter
    python tools/figure_alt.py --write [chapters/NN_x.ipynb ...]
"""

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
FIGURE_TYPES = ("image/png", "image/svg+xml", "image/jpeg", "image/gif")

# chapter (file stem) -> cell id -> description of the figure the cell draws.
ALT = {
    "00_getting_started": {
        "3372f0a1": (
            "plot_model drawing of the first model: an InputLayer named pixels "
            "with output shape (None, 64), then three Dense layers in a column, "
            "dense from (None, 64) to (None, 32), dense_1 from (None, 32) to "
            "(None, 32) and dense_2 from (None, 32) to (None, 10)."
        ),
    },
    "01_codebase_map": {
        "e13415a6": (
            "Dot chart of kerasmini's files by lines of code: one row per "
            "folder (or top-level module), from the lowest floor at the top "
            "(api_export.py, tree.py, backend/) to the highest at the bottom "
            "(models/, book/), one dot per file, coloured by floor. A dashed "
            "line marks 400 lines: most dots sit well left of it, and the few "
            "to its right are the tables (backend, ops, losses), the large "
            "classes (engine, trainers, models) and some of the book's tools."
        ),
        "05f50905": (
            "Graph of kerasmini's floors: each box is a folder or a group of "
            "modules, and each arrow goes from a floor to a floor it imports. "
            "tree and api_export sit at the top with backend just below them, "
            "KerasTensor, Node and Operation and the layer engine in the middle, "
            "and layers, ops, optimizers, losses and metrics, saving, models, "
            "callbacks, utils and plot_model below, with book at the bottom; "
            "every arrow points up, towards a lower floor."
        ),
    },
    "02_module_and_variable": {
        "3ad8be4c": (
            "Tree of the module mlp (an MLP): arrows labelled blocks[0] and "
            "blocks[1] lead to its two Linear submodules, linear_0 and "
            "linear_1, and each Linear has arrows b and w to its variables "
            "(mlp/linear_0/b of shape (4,) and mlp/linear_0/w of shape (3, 4); "
            "mlp/linear_1/b (2,) and mlp/linear_1/w (4, 2)). An arrow labelled "
            "extras['scale'] leads to mlp/scale, a scalar drawn grey because it "
            "is not trainable."
        ),
    },
    "03_layer": {
        "955c6de0": (
            "Class diagram of SimpleDense and its bases, top to bottom: "
            "Operation, Module, Layer and SimpleDense, each box listing the "
            "methods and properties the class defines, with an arrow from each "
            "class up to its base. Layer's box is the long one (add_weight, "
            "build, call, __call__, the weight lists, count_params, get_config "
            "and more); SimpleDense, defined in a notebook cell, has only "
            "__init__, build and call, in italics because they override Layer's."
        ),
    },
    "04_lazy_building": {
        "a658c61b": (
            "Call tree of a Dense layer's first call, numbered in the order the "
            "calls happen: Layer.__call__ branches to the steps it runs "
            "(splitting and converting the inputs, checking them, _maybe_build, "
            "resolving training, clearing losses, the mask, _call_layer). "
            "_maybe_build leads through the build wrapper to Dense.build, which "
            "calls add_weight twice, each creating a Variable inside a name "
            "scope, and makes an InputSpec; _call_layer ends in Dense.call."
        ),
    },
    "05_call_modes": {
        "6432bde6": (
            "Flow chart of the eight steps of Layer.__call__, one box each, top "
            "to bottom: 1. convert array arguments to tensors of the layer's "
            "dtype; 2. enforce that only tensors are passed positionally; "
            "3. check the input spec of the first positional argument; 4. call "
            "build (once); 5. infer the training value; 6. populate mask "
            "arguments; 7. call the layer, inferring the output (symbolic) or "
            "computing it; 8. add a node in the graph for symbolic calls."
        ),
    },
    "06_kerastensor_and_node": {
        "9f030be6": (
            "Node graph of a Dense layer named shared, called on two inputs. "
            "The InputLayers a and b each have a Node #0 that outputs a "
            "(None, 4) tensor. The first call of shared is its Node #0 and the "
            "second its Node #1, each giving a (None, 3) tensor; the Add layer "
            "add's Node #0 sums them into one (None, 3) tensor. Dashed arrows "
            "labelled node_index join each layer to its nodes; solid arrows "
            "labelled tensor_index lead from a node to the tensors it outputs."
        ),
        "917835fa": (
            "Node graph of a layer with two outputs: the input x, (None, 4), "
            "goes into Node #0 of the Split layer split, whose arrows "
            "tensor_index=0 and tensor_index=1 lead to two (None, 2) tensors; "
            "the Concatenate layer swap joins them in the other order into a "
            "(None, 4) tensor."
        ),
    },
    "07_functional": {
        "e82c08a6": (
            "Node graph of a functional model with two branches and a skip "
            "connection: the input x, (None, 4), feeds the Dense layers right "
            "then right2 on one branch, the Dense layer left on the other, and "
            "goes straight on to the end. The Add layer add sums the two "
            "(None, 3) branches, the Concatenate layer concat joins that sum "
            "with x into (None, 7), and the Dense layer out gives the (None, 1) "
            "output. Layers are blue, their calls (nodes) orange, tensors green."
        ),
        "8e655e87": (
            "The same model's layers placed by depth, from depth 5 at the top "
            "to depth 0 at the bottom: the InputLayer x at depth 5, right at 4, "
            "right2 and left at 3, add at 2, concat at 1 and out at 0, with "
            "arrows along the data flow. A layer's depth is the longest path "
            "from it to the output."
        ),
        "73157a59": (
            "plot_model drawing with expand_nested=True of a model that calls "
            "another model: the input z, (None, 5), goes to the Dense layer "
            "hidden, (None, 5) to (None, 3), then into a dashed box labelled "
            "encoder that holds the inner model's own InputLayer encoder_in, "
            "(None, 3), and its Dense layer code, (None, 3) to (None, 2)."
        ),
        "f2db12d4": (
            "plot_model drawing of a model with two inputs and two outputs: the "
            "InputLayers title, (None, 2), and body, (None, 3), meet in the "
            "Concatenate layer features, (None, 5), which feeds two Dense "
            "heads side by side, department with output (None, 4) and priority "
            "with output (None, 1)."
        ),
    },
    "08_model_and_sequential": {
        "09869948": (
            "Class diagram of Sequential and its bases, top to bottom: "
            "Operation, Module, Layer, Model, Functional and Sequential, each "
            "box listing what the class defines. Model adds compile, fit, "
            "evaluate, predict, the train, test and predict steps, save and the "
            "configs; Functional adds the graph (operations, inputs, outputs, "
            "call); Sequential adds add and pop. Names in italics override a "
            "base class."
        ),
        "314b5d83": (
            "plot_model drawing with the layers' activations of a two-layer "
            "Sequential model: dense, activation relu, from (None, 10) to "
            "(None, 10), then dense_1, activation linear, from (None, 10) to "
            "(None, 1)."
        ),
        "2af5cf30": (
            "plot_model drawing of a subclassed model: a single box, my_model "
            "(MyModel), with nothing inside it, because a subclassed model's "
            "call is Python code, not a graph of layers to draw."
        ),
    },
    "09_ops_and_backend": {
        "e1ff86f4": (
            "Node graph of a functional model with ops between its layers, top "
            "to bottom: the input features, (None, 4); the Dense layer hidden, "
            "(None, 8); the ops relu and multiply, each drawn like a layer with "
            "its own Node #0 and a (None, 8) output; and the Dense layer score "
            "with the (None, 1) output."
        ),
    },
    "10_gradients": {
        "f66bf3e8": (
            "The tape of a small loss, top to bottom: #0 matmul of a constant "
            "array of shape (3, 2) with the variable w, #1 add of the variable "
            "b, #2 square and #3 mean. Variables are green notes, the constant "
            "is grey, and each recorded op is an orange box numbered in the "
            "order it was recorded."
        ),
    },
    "11_compile_and_fit": {
        "1b5c1e37": (
            "The callback hooks of one epoch of fit, nested in boxes in the "
            "order they ran: on_train_begin; then epoch 0, with "
            "on_epoch_begin(0), train batches 0 and 1 (each "
            "on_train_batch_begin then on_train_batch_end), a test box for the "
            "validation data (on_test_begin, test batch 0, on_test_end) and "
            "on_epoch_end(0); then on_train_end."
        ),
        "9021234d": (
            "The tape of one training step of a two-layer Sequential model, "
            "top to bottom: #0 matmul of a (4, 3) batch with "
            "sequential/hidden/kernel, #1 add of the hidden bias, #2 relu, "
            "#3 matmul with sequential/out/kernel, #4 add of the out bias, "
            "#5 subtract of the (4, 1) targets, #6 square, #7 mean and #8 mean: "
            "the forward pass followed by the mean squared error."
        ),
        "ff683776": (
            "Two line charts of a training history against the epoch, training "
            "as a solid line and validation as a dashed one. Left, the loss "
            "falls steeply over the first few epochs and then stays near zero; "
            "right, the mean absolute error does the same and levels off just "
            "above zero. The validation curves follow the training curves "
            "closely."
        ),
        "9fa41505": (
            "Optimizer slots of Adam on a model whose hidden layer is frozen: "
            "only the out layer's kernel, (8, 1), and bias, (1,), drawn green, "
            "have arrows to their momentum and velocity slots of the same "
            "shapes, drawn orange; adam/iteration and adam/learning_rate are "
            "grey scalars. The frozen layer gets no slots."
        ),
    },
    "12_optimizers_losses_metrics": {
        "d31d36ea": (
            "Adam's variables after one step on a model with layers hidden and "
            "out: each of the four trainable variables, drawn green "
            "(sequential/hidden/kernel (3, 4), sequential/hidden/bias (4,), "
            "sequential/out/kernel (4, 1) and sequential/out/bias (1,)), has "
            "arrows to two slots of its own shape, a momentum and a velocity, "
            "drawn orange; adam/iteration and adam/learning_rate are grey "
            "scalars."
        ),
        "1c49758a": (
            "Line chart of the binary cross-entropy of a wrong prediction "
            "against the logit of the wrong class, from 0 to 40, computed three "
            "ways. All three rise together in a straight line at first; "
            "'sigmoid, then log' (thick solid line) shoots straight up out of "
            "the top of the plot at 16.75, where the sigmoid rounds to 1 and "
            "the log becomes infinite, as an arrow labelled 'infinite from "
            "x = 16.75' points out; 'clipped probabilities' (dashed) flattens "
            "at about 16; 'from logits' (dotted) keeps rising to 40."
        ),
    },
    "14_capstone": {
        "75b42992": (
            "The first sixteen training digits, 8 by 8 pixel grey-scale "
            "images in two rows of eight, each titled with its label: 0 to 9, "
            "then 0 to 5."
        ),
        "3c58475d": (
            "plot_model drawing of the capstone's convolutional network, top "
            "to bottom: the InputLayer digit, (None, 8, 8, 1); the Conv2D layer "
            "conv, to (None, 6, 6, 16); the MaxPooling2D layer pool, to "
            "(None, 3, 3, 16); the Flatten layer flatten, to (None, 144); the "
            "Dropout layer dropout, (None, 144); and the Dense layer classes, "
            "to (None, 10)."
        ),
        "e1154980": (
            "Two line charts of the capstone's training history against the "
            "epoch, training as a solid line and validation as a dashed one. "
            "Left, accuracy climbs steeply in the first epochs and levels off "
            "close to 1, validation a little below training; right, the loss "
            "falls steeply and flattens near zero, validation slightly above "
            "training."
        ),
    },
    "13_saving": {
        "ch13-archive-plot": (
            "Drawing of what the file small.keras holds, read from the file: "
            "the zip on the left, with an arrow to each of its three members, "
            "drawn as tables stacked on the right. metadata.json holds two "
            "keys, date_saved and keras_version. config.json holds the envelope "
            "of a Sequential model with module keras, then what it nests, one "
            "block each: the layers (InputLayer input_layer, Dense dense, Dense "
            "dense_1), a build_config with input_shape (None, 4), and a "
            "compile_config naming the optimizer Adam, the loss "
            "binary_crossentropy and the metric accuracy. model.weights.h5 "
            "holds three groups of arrays: layers/dense/vars with 0 of shape "
            "(4, 8) and 1 of shape (8,), layers/dense_1/vars with 0 of shape "
            "(8, 1) and 1 of shape (1,), and optimizer/vars with ten arrays, "
            "two scalars first, folded in the middle."
        ),
        "ch13-order-plot": (
            "Column of eight numbered boxes, the steps load_model took, in the "
            "order it took them, each listing what it did: 1, read config.json, "
            "checked before it is parsed; 2, find the classes Sequential, "
            "InputLayer, Dense, GlorotUniform and Zeros; 3, build, creating "
            "dense/kernel (4, 8) and dense/bias (8,); 4, find Dense, "
            "GlorotUniform and Zeros again for the second layer; 5, build, "
            "creating dense_1/kernel (8, 1) and dense_1/bias (1,); 6, compile, "
            "which finds Adam and builds it with 10 variables; 7, assign the "
            "saved arrays, 2 to dense, 2 to dense_1 and 10 to adam; 8, load "
            "the assets, none in this file."
        ),
    },
    "15_attention": {
        "ch15-plot-sublayers": (
            "Drawing of a MultiHeadAttention layer and its six sublayers, from "
            "left to right. Arrows numbered 0 to 5 go from multi_head_attention "
            "to query, key and value (EinsumDense), softmax, dropout and "
            "attention_output (EinsumDense), each labelled with the attribute "
            "that holds it. Dashed lines join each EinsumDense to its two "
            "weights, a kernel and a bias with their paths and shapes: (8, 2, 4) "
            "and (2, 4) for the three projections, (2, 4, 8) and (8,) for the "
            "output; softmax and dropout have none."
        ),
        "ch15-heatmap": (
            "Two heat maps of the first head's attention weights, query "
            "position down the side, key position along the bottom, each cell "
            "labelled with its weight. Left, a sequence of six tokens with the "
            "causal mask: only the lower triangle is coloured, each row summing "
            "to one, position 0 giving all its weight to itself. Right, three "
            "tokens and three padding positions: only a three by three lower "
            "triangle is coloured, and the padded rows and columns are zero."
        ),
    },
}

# A path or a file name is not a description (myst-nb's default alt is the
# image's path, e.g. "../_images/3f2a....svg").
_PATH_LIKE = re.compile(r"(\.(png|svg|jpe?g|gif|pdf)\b|_images/|^\S+$)", re.I)
MIN_WORDS = 8


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(nb):
    """The notebook's text as nbformat writes it (indent 1, non-ASCII kept)."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def figure_cells(nb):
    """``{cell id: cell}`` of the code cells whose outputs hold a figure."""
    cells = {}
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for output in cell.get("outputs", []):
            if any(kind in output.get("data", {}) for kind in FIGURE_TYPES):
                cells[cell.get("id")] = cell
                break
    return cells


def alt_of(cell):
    """The alt text stored in a cell's metadata, or ``None``."""
    image = cell.get("metadata", {}).get("mystnb", {}).get("image", {})
    return image.get("alt")


def describes(text):
    """Why ``text`` is not a description, or ``""`` if it is one."""
    if not isinstance(text, str) or not text.strip():
        return "no alt text"
    if _PATH_LIKE.search(text.strip()):
        return f"alt text is a file path, not a description: {text!r}"
    if len(text.split()) < MIN_WORDS:
        return f"alt text is too short to describe the figure: {text!r}"
    return ""


def problems(nb, chapter):
    """What is not right about the figures' alt texts in one notebook."""
    found = []
    table = ALT.get(chapter, {})
    figures = figure_cells(nb)
    for cell_id, cell in figures.items():
        if cell_id not in table:
            found.append(f"{chapter}: the figure of cell {cell_id} has no row in "
                         "tools/figure_alt.py ALT")
        why = describes(alt_of(cell))
        if why:
            found.append(f"{chapter}: cell {cell_id}: {why}"
                         + (" (run tools/figure_alt.py --write)"
                            if cell_id in table else ""))
        elif cell_id in table and alt_of(cell) != table[cell_id]:
            found.append(f"{chapter}: cell {cell_id}: alt text differs from "
                         "tools/figure_alt.py ALT (run it with --write)")
    for cell_id in table:
        if cell_id not in figures:
            found.append(f"{chapter}: ALT has a row for cell {cell_id}, which does "
                         "not draw a figure (or is gone)")
    return found


def table_problems():
    """Descriptions in the table that are not descriptions, or repeated."""
    found, seen = [], {}
    for chapter, rows in ALT.items():
        if not (CHAPTERS / f"{chapter}.ipynb").exists():
            found.append(f"ALT names a chapter that does not exist: {chapter}")
        for cell_id, text in rows.items():
            why = describes(text)
            if why:
                found.append(f"{chapter}: cell {cell_id}: {why}")
            if text in seen:
                found.append(f"{chapter}: cell {cell_id} has the same alt text as "
                             f"{seen[text]}")
            seen[text] = f"{chapter} cell {cell_id}"
    return found


def write(nb, chapter):
    """Put the table's descriptions into the notebook's metadata; changed?"""
    changed = False
    figures = figure_cells(nb)
    for cell_id, text in ALT.get(chapter, {}).items():
        cell = figures.get(cell_id)
        if cell is None or alt_of(cell) == text:
            continue
        meta = cell.setdefault("metadata", {})
        meta.setdefault("mystnb", {}).setdefault("image", {})["alt"] = text
        changed = True
    return changed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="report, change nothing")
    mode.add_argument("--write", action="store_true",
                      help="write the descriptions into the notebooks' metadata")
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="default: every chapters/*.ipynb")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(CHAPTERS.glob("*.ipynb"))
    status = 0
    for line in table_problems():
        print(line, file=sys.stderr)
        status = 1
    for path in paths:
        nb = load(path)
        if args.write and write(nb, path.stem):
            path.write_text(dump(nb), encoding="utf-8")
            print(f"described the figures of {path}")
        for line in problems(load(path), path.stem):
            print(line, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
