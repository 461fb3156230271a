"""Keras's own lines for a pinned range, read from the cached releases.

The chapters link every piece of Keras they read to a pinned range of lines
(:mod:`~kerasmini.book.keras_source_table` for whole definitions,
:mod:`~kerasmini.book.keras_excerpts` for lines inside one). The repository
holds none of those lines: they come from the two wheels that
:mod:`~kerasmini.book.keras_releases` fetches from PyPI into a cache outside the
repository. This module turns a range into a listing:

* on the website, the book's Sphinx extension (``_ext/keras_lines.py``) puts
  one beside every link when the site is built (:func:`range_html`);
* in your own notebook, :func:`keras_lines` shows the lines of a table key on
  demand (the chapters never store what it prints).

Each listing is highlighted and numbered as on GitHub, with the file, tag and
link above it and an attribution line under it: the lines are the Keras
authors' work, under the Apache License 2.0, not the book's.

>>> from kerasmini.book.keras_sources import keras_source
>>> ref = keras_source("Dense.call").keras3
>>> pinned_ref(ref.url) == ref
True
>>> attribution_text(ref)
'© The Keras authors, Apache License 2.0: keras/src/layers/core/dense.py, keras-team/keras v3.15.1'
"""

from __future__ import annotations

import ast
import html
import io
import re

from kerasmini.book import keras_releases
from kerasmini.book.keras_excerpts import KERAS_EXCERPTS
from kerasmini.book.keras_sources import KERAS_SOURCES, keras_source
from kerasmini.book.source import _pygments, theme_style
from kerasmini.book.source_refs import REPO_URL, SourceRef

LICENSE_URL = "https://www.apache.org/licenses/LICENSE-2.0"
_URL = re.compile(
    re.escape(REPO_URL) + r"/blob/(v[\d.]+)/([^#\s\"'<>]+)#L(\d+)(?:-L(\d+))?"
)


def _pinned() -> dict[tuple, tuple[SourceRef, str]]:
    """``(tag, path, start, end) -> (ref, symbol)`` for every pinned range."""
    found = {}
    for key, entry in KERAS_SOURCES.items():
        for ref in (entry.keras2, entry.keras3):
            if ref is not None:
                found.setdefault((ref.tag, ref.path, ref.start, ref.end),
                                 (ref, ref.symbol or key))
    for excerpt in KERAS_EXCERPTS.values():
        ref = excerpt.ref
        found.setdefault((ref.tag, ref.path, ref.start, ref.end), (ref, ""))
    return found


_PINNED = _pinned()


def pinned_ref(url: str) -> SourceRef | None:
    """The pinned range a GitHub URL points at, or ``None`` if it is not pinned.

    Both tables count: the definitions and the excerpts (whose one-line links
    are written ``#L<n>``).

    >>> pinned_ref("https://github.com/keras-team/keras/blob/v2.6.0/"
    ...            "keras/engine/base_layer.py#L1020").end
    1020
    >>> pinned_ref("https://example.org") is None
    True
    """
    match = _URL.fullmatch(url.strip())
    if match is None:
        return None
    tag, path, start, end = match.groups()
    entry = _PINNED.get((tag, path, int(start), int(end or start)))
    return entry[0] if entry else None


def pinned_symbol(ref: SourceRef) -> str:
    """The definition a pinned range holds (``""`` for an excerpt).

    >>> pinned_symbol(KERAS_SOURCES["map_graph"].keras2)
    '_map_graph_network'
    """
    entry = _PINNED.get((ref.tag, ref.path, ref.start, ref.end))
    return entry[1] if entry else ""


def find_pinned_urls(text: str) -> list[SourceRef]:
    """The pinned ranges linked in ``text`` (HTML or Markdown), in order, once each.

    >>> text = ('<a href="https://github.com/keras-team/keras/blob/v3.15.1/'
    ...         'keras/src/layers/core/dense.py#L221-L227">x</a>')
    >>> [ref.label for ref in find_pinned_urls(text)]
    ['Keras 3.15 keras/src/layers/core/dense.py#L221-L227']
    """
    refs = []
    for match in _URL.finditer(html.unescape(text)):
        ref = pinned_ref(match.group(0))
        if ref is not None and ref not in refs:
            refs.append(ref)
    return refs


def range_lines(ref: SourceRef) -> list[str]:
    """The lines of ``ref`` from the cached release (``KerasReleaseError`` if absent).

    >>> range_lines(KERAS_SOURCES["Dense.call"].keras3)[0].strip()
    'def call(self, inputs, training=None):'
    """
    lines = keras_releases.file_lines(ref.tag, ref.path)
    if not 1 <= ref.start <= ref.end <= len(lines):
        raise keras_releases.KerasReleaseError(
            f"{ref.label} is outside {ref.path} ({len(lines)} lines) in "
            f"{keras_releases.RELEASES[ref.tag].filename}."
        )
    return list(lines[ref.start - 1:ref.end])


def _lexing_start(ref: SourceRef) -> int:
    """The first line to lex so that ``ref`` is coloured as in the whole file.

    The innermost ``def``/``class`` (decorators included) that holds the
    range's first line: a definition never starts inside a string, so the
    lexer starts there in the state it has at that point of the file. For a
    table range that is the range itself; an excerpt starts at its function.
    """
    start = 1
    tree = ast.parse("\n".join(keras_releases.file_lines(ref.tag, ref.path)))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if first <= ref.start <= node.end_lineno and first > start:
                start = first
    return start


def _line_tokens(ref: SourceRef) -> list[list]:
    """One token list per line of ``ref``, lexed from :func:`_lexing_start`."""
    first = ref.start if pinned_symbol(ref) else _lexing_start(ref)
    lexer = _pygments()[2](stripnl=False, ensurenl=True)
    text = "\n".join(keras_releases.file_lines(ref.tag, ref.path)[first - 1:ref.end])
    lines, current = [], []
    for token_type, value in lexer.get_tokens(text + "\n"):
        pieces = value.split("\n")
        for piece in pieces[:-1]:
            if piece:
                current.append((token_type, piece))
            current.append((token_type, "\n"))
            lines.append(current)
            current = []
        if pieces[-1]:
            current.append((token_type, pieces[-1]))
    if current:
        lines.append(current)
    return lines[ref.start - first:]


def code_html(ref: SourceRef) -> str:
    """The highlighted, numbered lines of ``ref`` (the listings' own palette).

    >>> html_code = code_html(KERAS_SOURCES["Dense.call"].keras3)
    >>> html_code.count('<span class="linenos">'), '>221</span>' in html_code
    (7, True)
    """
    range_lines(ref)  # checks the range
    tokens = [token for line in _line_tokens(ref) for token in line]
    formatter = _pygments()[1](
        linenos="inline", linenostart=ref.start, nobackground=True,
        cssclass="kerasmini-highlight kerasmini-themed", wrapcode=True,
    )
    out = io.StringIO()
    formatter.format(tokens, out)
    return out.getvalue()


_STYLES: dict[frozenset, str] = {}


def _style(code: str) -> str:
    """:func:`theme_style` for ``code``, computed once per set of token classes."""
    used = frozenset(c for classes in re.findall(r'class="([\w -]+)"', code)
                     for c in classes.split())
    if used not in _STYLES:
        _STYLES[used] = theme_style(" ".join(f'class="{c}"' for c in sorted(used)))
    return _STYLES[used]


def version_label(ref: SourceRef) -> str:
    """``"Keras 2.6"`` or ``"Keras 3.15"``: the first words of the link label.

    >>> version_label(KERAS_SOURCES["Dense.call"].keras3)
    'Keras 3.15'
    """
    return ref.label.split(" ", 2)[0] + " " + ref.label.split(" ", 2)[1]


def attribution_text(ref: SourceRef) -> str:
    """The line under each listing: whose lines, their licence, file and tag.

    >>> attribution_text(KERAS_SOURCES["Dense"].keras2)
    '© The Keras authors, Apache License 2.0: keras/layers/core.py, keras-team/keras v2.6.0'
    """
    return (f"© The Keras authors, Apache License 2.0: {ref.path}, "
            f"keras-team/keras {ref.tag}")


def range_head(ref: SourceRef, symbol: str | None = None) -> str:
    """The line above a listing: the GitHub link and the definition's name.

    >>> print(range_head(KERAS_SOURCES["map_graph"].keras2))  # doctest: +ELLIPSIS
    <a class="kerasmini-keras-link" href="https://..." ...>Keras 2.6 ...</a> <code>...
    """
    if symbol is None:
        symbol = pinned_symbol(ref)
    head = (f'<a class="kerasmini-keras-link" href="{html.escape(ref.url)}" '
            f'target="_blank" rel="noopener">{html.escape(ref.label)}</a>')
    if symbol:
        head += f" <code>{html.escape(symbol)}</code>"
    return head


def range_html(ref: SourceRef, symbol: str | None = None, head: bool = True) -> str:
    """One listing of Keras's lines: link above, code, attribution under it.

    The block carries ``data-keras-ref="<tag> <path> <start> <end>"`` so the
    tests can tell which range a page shows. Its colours are the ones of
    kerasmini's own listings (:func:`kerasmini.book.source.theme_style`).
    ``head=False`` leaves out the link line (a fold shows it as its title).

    >>> block = range_html(KERAS_SOURCES["Dense.call"].keras3)
    >>> 'data-keras-ref="v3.15.1 keras/src/layers/core/dense.py 221 227"' in block
    True
    """
    code = code_html(ref)
    label = html.escape(ref.label)
    top = (f'<div class="kerasmini-keras-head">{range_head(ref, symbol)}</div>'
           if head else "")
    foot = (
        f'© The Keras authors, <a href="{LICENSE_URL}" target="_blank" '
        f'rel="noopener">Apache License 2.0</a>: {html.escape(ref.path)}, '
        f"keras-team/keras {html.escape(ref.tag)}"
    )
    data = html.escape(f"{ref.tag} {ref.path} {ref.start} {ref.end}")
    return (
        f'<div class="kerasmini-keras" data-keras-ref="{data}">'
        + _style(code)
        + top
        + f'<div class="kerasmini-keras-scroll" tabindex="0" role="region" '
        f'aria-label="{label}">{code}</div>'
        + f'<div class="kerasmini-keras-attribution">{foot}</div></div>'
    )


def range_text(ref: SourceRef, symbol: str | None = None) -> str:
    """The plain-text form of :func:`range_html` (what ``print`` shows).

    >>> print(range_text(KERAS_SOURCES["Dense.call"].keras3).splitlines()[1])
    221      def call(self, inputs, training=None):
    """
    if symbol is None:
        symbol = pinned_symbol(ref)
    lines = range_lines(ref)
    width = len(str(ref.end))
    head = f"{ref.label}" + (f" ({symbol})" if symbol else "") + f": {ref.url}"
    body = [f"{ref.start + i:>{width}}  {line}" for i, line in enumerate(lines)]
    return "\n".join([head, *body, attribution_text(ref)])


class KerasLines:
    """What :func:`keras_lines` returns: the listings, as HTML and as text.

    >>> [version_label(ref) for ref in keras_lines("Dense.call").refs]
    ['Keras 2.6', 'Keras 3.15']
    """

    def __init__(self, refs: list[SourceRef], problem: str = ""):
        self.refs = refs
        self.problem = problem

    def _repr_html_(self) -> str:
        if self.problem:
            return f"<p>{html.escape(self.problem)}</p>"
        return "".join(range_html(ref) for ref in self.refs)

    def __repr__(self) -> str:
        if self.problem:
            return self.problem
        return "\n\n".join(range_text(ref) for ref in self.refs)


def keras_lines(key: str, version: int | None = None) -> KerasLines:
    """Keras's own lines for a table key, from the cached pinned releases.

    Args:
        key: a key of :data:`~kerasmini.book.keras_sources.KERAS_SOURCES`
            (``"Layer.add_weight"``) or of
            :data:`~kerasmini.book.keras_excerpts.KERAS_EXCERPTS`
            (``"keras2-dynamic"``).
        version: ``2`` or ``3`` for one version only; both by default.

    Returns:
        A :class:`KerasLines`: highlighted listings in a notebook, numbered
        lines as text. When the releases are not cached it says how to fetch
        them (``make keras-releases``) instead of raising, so a notebook runs
        anywhere.

    Raises:
        ValueError: for an unknown key or version.

    >>> print(repr(keras_lines("Dense.call", version=3)).splitlines()[0])
    Keras 3.15 keras/src/layers/core/dense.py#L221-L227 (Dense.call): https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/core/dense.py#L221-L227
    """
    if version not in (None, 2, 3):
        raise ValueError(f"`version` must be 2, 3 or None. Received: version={version!r}")
    if key in KERAS_EXCERPTS:
        refs = [KERAS_EXCERPTS[key].ref]
    else:
        entry = keras_source(key)  # ValueError with close keys
        refs = [ref for ref in (entry.keras2, entry.keras3) if ref is not None]
    if version is not None:
        tag = ("v2." if version == 2 else "v3.")
        refs = [ref for ref in refs if ref.tag.startswith(tag)]
        if not refs:
            raise ValueError(f"{key!r} has no Keras {version} counterpart.")
    try:
        for ref in refs:
            range_lines(ref)
    except keras_releases.KerasReleaseError as error:
        return KerasLines(refs, f"Keras's lines are not here: {error}")
    return KerasLines(refs)


__all__ = [
    "KerasLines", "attribution_text", "code_html", "find_pinned_urls",
    "keras_lines", "pinned_ref", "range_head", "range_html", "range_lines",
    "range_text",
]
