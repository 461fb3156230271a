"""Pinned links to the real Keras source, one table for the whole book.

Every chapter reads kerasmini beside the Keras code it imitates. The links go to
exact line ranges at two fixed tags of ``keras-team/keras``, so they never drift:
Keras 2 is tag ``v2.6.0`` (the tf.keras of TensorFlow 2.6, files under
``keras/``) and Keras 3 is tag ``v3.15.1`` (files under ``keras/src/``).

Keys are kerasmini-style dotted names: a class (``"Dense"``), a method
(``"Layer.add_weight"``) or a function (``"map_graph"``). Each key has one
:class:`SourceRef` per Keras version, or ``None`` where that version has no
counterpart. When the counterpart is called something else in the real source
(Keras 2 ``_map_graph_network`` for ``map_graph``, Keras 3
``TensorFlowTrainer.fit`` for ``Model.fit``), :attr:`SourceRef.symbol` names it.

A range starts at the ``def``/``class`` line, or at its first decorator, and ends
at the last line of the body. ``Layer`` and ``Model`` are thousands of lines long,
so their ranges stop at the end of the class docstring.
:func:`verify_against_checkout` re-checks every range against a git mirror.

>>> keras_source("Dense.call").keras3.label
'Keras 3.15 keras/src/layers/core/dense.py#L221-L227'
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
import subprocess

from kerasmini.book.keras_source_table import KERAS_SOURCES, NOT_IN_KERAS
from kerasmini.book.source_refs import (  # noqa: F401 (re-exported)
    KERAS2_TAG,
    KERAS3_TAG,
    REPO_URL,
    KerasSource,
    SourceRef,
)


def keras_source(key: str) -> KerasSource:
    """Return the pinned Keras 2 and Keras 3 source of a kerasmini name.

    Args:
        key: a key of ``KERAS_SOURCES``, e.g. ``"Layer.add_weight"``.

    Returns:
        The :class:`KerasSource` for ``key``.

    Raises:
        ValueError: if ``key`` is not in the table; the message lists close keys,
            or says where the name lives when it is outside the Keras repository.

    >>> keras_source("Layer.add_weight").keras2.url
    'https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/base_layer.py#L527-L685'
    >>> keras_source("map_graph").keras2.symbol
    '_map_graph_network'
    >>> keras_source("Layer.add_weigth")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: No pinned Keras source for 'Layer.add_weigth'. Close keys: ...
    """
    if key in KERAS_SOURCES:
        return KERAS_SOURCES[key]
    if key in NOT_IN_KERAS:
        raise ValueError(
            f"No pinned Keras source for {key!r}: it is not in keras-team/keras. "
            f"{NOT_IN_KERAS[key]}."
        )
    close = difflib.get_close_matches(key, list(KERAS_SOURCES), n=5, cutoff=0.6)
    if close:
        hint = "Close keys: " + ", ".join(repr(k) for k in close) + "."
    else:
        hint = "See KERAS_SOURCES for all keys."
    raise ValueError(f"No pinned Keras source for {key!r}. {hint}")


# ---------------------------------------------------------------------------
# Checking the table against a real checkout (run by hand, not by the tests).

_DEF_RE = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+(\w+)")


@functools.lru_cache(maxsize=128)  # a file has many ranges: parsed once (read-only)
def _definitions(text: str) -> dict[str, list[tuple[int, int, int]]]:
    """Map dotted names to (start, end, docstring end) of every def/class.

    The docstring end is 0 for functions and for classes without a docstring.

    Descends into classes and into module-level ``if``/``try`` blocks (Keras 3
    defines ``keras_export`` twice under ``if namex:``), not into functions.
    """
    found: dict[str, list[tuple[int, int, int]]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + node.name
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                found.setdefault(name, []).append((start, node.end_lineno, 0))
            elif isinstance(node, ast.ClassDef):
                name = prefix + node.name
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                doc_end = 0
                if ast.get_docstring(node, clean=False) is not None:
                    doc_end = node.body[0].end_lineno
                found.setdefault(name, []).append((start, node.end_lineno, doc_end))
                visit(node.body, name + ".")
            elif isinstance(node, ast.If):
                visit(node.body + node.orelse, prefix)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody, prefix)

    visit(ast.parse(text).body, "")
    return found


def _check_ref(text: str, ref: SourceRef, symbol: str) -> str:
    """Return what is wrong with ``ref`` for ``symbol`` in ``text``, or ``""``."""
    lines = text.splitlines()
    name = symbol.rsplit(".", 1)[-1]
    if not 1 <= ref.start <= ref.end <= len(lines):
        return f"range outside the file ({len(lines)} lines)"
    # 1. the start line is the def/class of `name`, or a decorator leading to it
    first = lines[ref.start - 1]
    index = ref.start - 1
    if first.lstrip().startswith("@"):
        while index < ref.end and not _DEF_RE.match(lines[index]):
            index += 1
    match = _DEF_RE.match(lines[index]) if index < len(lines) else None
    if match is None or match.group(1) != name:
        return f"line {ref.start} does not start 'def/class {name}': {first.strip()!r}"
    # 2. the range is exactly the definition (or the class up to its docstring)
    spans = _definitions(text).get(symbol, [])
    if not spans:
        return f"no definition named {symbol!r} in the file"
    for start, end, doc_end in spans:
        if start == ref.start and ref.end in (end, doc_end):
            return ""
    expected = ", ".join(
        f"{s}-{e}" + (f" (docstring {s}-{d})" if d else "") for s, e, d in spans
    )
    return f"{symbol} spans {expected}, table says {ref.start}-{ref.end}"


def verify_against_checkout(git_dir: str) -> list[str]:
    """Check every range of ``KERAS_SOURCES`` against a git clone of Keras.

    Reads each file at its tag with ``git --git-dir=GIT_DIR show TAG:PATH`` and
    checks that the start line opens the definition (``def``/``class`` of the
    symbol, or its first decorator) and that the range ends where the definition
    ends (for a class, the end of the class or of its docstring). Prints each
    mismatch and a summary line. Not run by the tests: it needs a clone.

    Args:
        git_dir: the ``.git`` directory (or bare repository) of a clone of
            ``keras-team/keras`` that has both tags.

    Returns:
        The mismatch messages; empty when the table is right.

    >>> verify_against_checkout("/path/to/keras/.git")  # doctest: +SKIP
    0 mismatches in 174 ranges
    []
    """
    texts: dict[tuple[str, str], str] = {}
    problems = []
    checked = 0
    for key, source in KERAS_SOURCES.items():
        for ref in (source.keras2, source.keras3):
            if ref is None:
                continue
            checked += 1
            if (ref.tag, ref.path) not in texts:
                result = subprocess.run(
                    ["git", f"--git-dir={git_dir}", "show", f"{ref.tag}:{ref.path}"],
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if result.returncode != 0:
                    problems.append(f"{key}: {ref.label}: {result.stderr.strip()}")
                    continue
                texts[ref.tag, ref.path] = result.stdout
            problem = _check_ref(texts[ref.tag, ref.path], ref, ref.symbol or key)
            if problem:
                problems.append(f"{key}: {ref.label}: {problem}")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} mismatches in {checked} ranges")
    return problems
