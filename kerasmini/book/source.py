"""Show kerasmini's own source beside pinned links to the real Keras lines.

The chapters never paste code: they call :func:`show_source` on a live
kerasmini object, which reads the source with :mod:`inspect` (so the page
always shows the code that runs) and adds the Keras 2 and Keras 3 links of
the same name from :data:`~kerasmini.book.keras_sources.KERAS_SOURCES`.

In a notebook the result renders as highlighted code with line numbers
(``_repr_html_``, pygments); as plain text (``repr``, what nbval compares)
it is the file path, the source and one line per link.

>>> from kerasmini.layers import Dense
>>> view = show_source(Dense.call)
>>> print(view)  # doctest: +ELLIPSIS
# kerasmini/layers/core/dense.py:... (Dense.call)
def call(self, inputs):
...
Keras 2.6 keras/layers/core.py#L1199-L1244 (Dense.call): https://github.com/keras-team/keras/blob/v2.6.0/keras/layers/core.py#L1199-L1244
Keras 3.15 keras/src/layers/core/dense.py#L221-L227 (Dense.call): https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/core/dense.py#L221-L227
"""

from __future__ import annotations

import html
import inspect
import re
import textwrap
from pathlib import Path

from kerasmini.book.keras_sources import KERAS_SOURCES, NOT_IN_KERAS, keras_source

# The repository root: the parent of the ``kerasmini`` package directory.
_ROOT = Path(__file__).resolve().parent.parent.parent

# Code typed in a notebook lives in files like /tmp/ipykernel_123/456.py.
_CELL_FILE = re.compile(r"ipykernel_\d+|<ipython-input-|<stdin>|<string>")


def relative_path(filename: str) -> str:
    """``filename`` relative to the repository root (``kerasmini/...``).

    Files outside the repository keep only their name, and code typed in a
    notebook cell is shown as ``<cell>``, so no absolute path (which differs
    on every machine) reaches a notebook output.

    >>> import kerasmini.book.source as mod
    >>> relative_path(mod.__file__)
    'kerasmini/book/source.py'
    >>> relative_path("/tmp/ipykernel_4242/3141.py")
    '<cell>'
    """
    if not filename:
        return "<unknown>"
    if _CELL_FILE.search(filename):
        return "<cell>"
    try:
        return Path(filename).resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return Path(filename).name


def _unwrap(obj):
    """The function or class behind properties, bound methods and wrappers."""
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    if inspect.ismethod(obj):
        obj = obj.__func__
    return inspect.unwrap(obj)


def _default_key(obj) -> str:
    """The table key of ``obj``: its qualified name (``Layer.__call__``)."""
    return getattr(_unwrap(obj), "__qualname__", None) or getattr(obj, "__name__", "")


class _Links:
    """The Keras 2 / Keras 3 links of one table key (``None`` parts skipped)."""

    def __init__(self, key: str):
        self.key = key
        self.refs = []
        self.note = ""
        if key in KERAS_SOURCES:
            source = keras_source(key)
            self.refs = [ref for ref in (source.keras2, source.keras3) if ref]
        elif key in NOT_IN_KERAS:
            self.note = f"{key} is not in keras-team/keras: {NOT_IN_KERAS[key]}."

    def text_lines(self) -> list[str]:
        lines = [f"{ref.label} ({ref.symbol or self.key}): {ref.url}" for ref in self.refs]
        if self.note:
            lines.append(self.note)
        return lines

    def html(self) -> str:
        if not self.refs and not self.note:
            return ""
        items = []
        for ref in self.refs:
            symbol = html.escape(ref.symbol or self.key)
            items.append(
                f'<li><a href="{html.escape(ref.url)}" target="_blank" '
                f'rel="noopener">{html.escape(ref.label)}</a> '
                f"<code>{symbol}</code></li>"
            )
        if self.note:
            items.append(f"<li>{html.escape(self.note)}</li>")
        # Colours for the light and dark themes come from theme_style().
        return '<ul class="kerasmini-themed">' + "".join(items) + "</ul>"


class KerasLinks:
    """What :func:`keras_links` returns: two links, as HTML and as text.

    >>> keras_links("Layer.add_weight").urls[0]
    'https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/base_layer.py#L527-L685'
    """

    def __init__(self, key: str):
        keras_source(key)  # raises a helpful ValueError for unknown keys
        self._links = _Links(key)

    @property
    def urls(self) -> list[str]:
        """The GitHub URLs, Keras 2 first."""
        return [ref.url for ref in self._links.refs]

    def _repr_html_(self) -> str:
        return ('<div class="kerasmini-links">' + theme_style()
                + self._links.html() + "</div>")

    def __repr__(self) -> str:
        return "\n".join(self._links.text_lines())


def keras_links(key: str) -> KerasLinks:
    """The pinned Keras 2 and Keras 3 links for ``key``, ready to display.

    Args:
        key: a key of :data:`~kerasmini.book.keras_sources.KERAS_SOURCES`,
            e.g. ``"Layer.add_weight"``.

    Raises:
        ValueError: if ``key`` is not in the table (the message lists close keys).

    >>> keras_links("Layer.build")
    Keras 2.6 keras/engine/base_layer.py#L438-L457 (Layer.build): https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/base_layer.py#L438-L457
    Keras 3.15 keras/src/layers/layer.py#L427-L439 (Layer.build): https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/layer.py#L427-L439
    """
    return KerasLinks(key)


class SourceView:
    """kerasmini source plus Keras links; what :func:`show_source` returns.

    Attributes:
        key: the table key used for the links.
        path: the file, relative to the repository (``kerasmini/...``).
        first_line: the file line number of the first line shown.
        source: the source text shown (dedented).
        links: the link lines (plain text), possibly empty.
        urls: the GitHub URLs of the links.

    >>> from kerasmini.layers import Dense
    >>> view = show_source(Dense.call)
    >>> view.path, view.source.splitlines()[0]
    ('kerasmini/layers/core/dense.py', 'def call(self, inputs):')
    """

    def __init__(self, key, path, first_line, source, links):
        self.key = key
        self.path = path
        self.first_line = first_line
        self.source = source
        self._links = links

    @property
    def last_line(self) -> int:
        return self.first_line + self.source.count("\n") - (
            1 if self.source.endswith("\n") else 0)

    @property
    def links(self) -> list[str]:
        return self._links.text_lines()

    @property
    def urls(self) -> list[str]:
        return [ref.url for ref in self._links.refs]

    @property
    def location(self) -> str:
        """``path:first-last``, e.g. ``kerasmini/layers/core/dense.py:70-75``."""
        return f"{self.path}:{self.first_line}-{self.last_line}"

    def __repr__(self) -> str:
        lines = [f"# {self.location} ({self.key})", self.source.rstrip("\n")]
        lines += self.links
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.__repr__()

    def _repr_html_(self) -> str:
        highlight, HtmlFormatter, PythonLexer = _pygments()
        formatter = HtmlFormatter(
            linenos="inline", linenostart=self.first_line, nobackground=True,
            cssclass="kerasmini-highlight kerasmini-themed", wrapcode=True,
        )
        code = highlight(self.source, PythonLexer(), formatter)
        header = (
            '<div class="kerasmini-source-header">'
            f"{html.escape(self.location)} &nbsp;<b>{html.escape(self.key)}</b></div>"
        )
        return (
            '<div class="kerasmini-source">' + theme_style(code) + header + code
            + self._links.html() + "</div>"
        )


# Listings carry their own colours, one set per theme, so they read well in the
# book's light and dark themes (html[data-theme=dark]), in JupyterLab's dark
# theme and in a plain notebook viewer. Only the token classes a listing uses
# are written into it.
LIGHT_STYLE, DARK_STYLE = "github-light", "github-dark"
_SCOPES = {
    "light": (".kerasmini-themed",),
    "dark": ('html[data-theme="dark"] .kerasmini-themed',
             'body[data-jp-theme-light="false"] .kerasmini-themed'),
}
_BOX = {  # the listing's box and the links under it
    "light": "background: #f6f8fa; color: #1f2328; border-color: #d0d7de",
    "dark": "background: #161b22; color: #e6edf3; border-color: #30363d",
}
_LINK = {"light": ("#0969da", "#8250df"), "dark": ("#58a6ff", "#d2a8ff")}
_BASE_CSS = (
    ".kerasmini-themed { border: 1px solid; border-radius: 4px; "
    "padding: 0 0.6em; overflow-x: auto; }\n"
    ".kerasmini-themed pre { background: transparent; color: inherit; "
    "margin: 0; padding: 0.4em 0; white-space: pre-wrap; "
    "overflow-wrap: anywhere; }\n"
    ".kerasmini-themed .linenos { opacity: 0.55; padding-right: 0.8em; "
    "user-select: none; }\n"
    "ul.kerasmini-themed { margin: 0.3em 0 0.8em 0; "
    "padding: 0.3em 0.6em 0.3em 1.8em; }\n"
    ".kerasmini-source-header { font-family: monospace; font-size: 0.85em; "
    "color: #808080; margin-bottom: 0.2em; }\n"
)


def _pygments():
    """pygments' ``highlight``, ``HtmlFormatter`` and ``PythonLexer``.

    Imported on first use: ``import kerasmini`` must not load pygments.
    """
    from pygments import formatters, highlight, lexers

    return highlight, formatters.HtmlFormatter, lexers.PythonLexer


def _token_rules(style: str) -> dict:
    """``{class: declarations}`` of one Pygments style."""
    rules = {}
    for line in _pygments()[1](style=style).get_style_defs(".X").splitlines():
        match = re.match(r"\.X \.([\w-]+) \{ (.*?) \}", line)
        if match:
            rules[match.group(1)] = match.group(2)
    return rules


def theme_style(code: str = "") -> str:
    """A ``<style>`` block with light and dark colours for a listing's tokens.

    >>> css = theme_style('<span class="k">def</span>')
    >>> '.kerasmini-themed .k {' in css, 'data-theme="dark"' in css
    (True, True)
    """
    used = set()
    for classes in re.findall(r'class="([\w -]+)"', code):
        used.update(classes.split())
    parts = [_BASE_CSS]
    for theme, style in (("light", LIGHT_STYLE), ("dark", DARK_STYLE)):
        rules = _token_rules(style)
        link, symbol = _LINK[theme]
        for scope in _SCOPES[theme]:
            parts.append(f"{scope} {{ {_BOX[theme]} }}\n")
            parts.append(f"{scope} a {{ color: {link} }}\n")
            parts.append(f"{scope} code {{ color: {symbol}; "
                         "background: transparent }\n")
            parts += [f"{scope} .{name} {{ {rules[name]} }}\n"
                      for name in sorted(used & rules.keys())]
    return "<style>\n" + "".join(parts) + "</style>"


def _resolve_lines(lines, source_lines):
    """``(start, end)`` as 1-based line numbers; string ends are markers."""
    if isinstance(lines, (str, bytes)) or not hasattr(lines, "__len__") or \
            len(lines) != 2:
        raise ValueError(
            "`lines` must be a pair (start, end) of line numbers or marker "
            f"strings. Received: lines={lines!r}"
        )
    stripped = [line.strip() for line in source_lines]
    start, end = lines
    if isinstance(start, str):
        found = [i for i, text in enumerate(stripped, 1) if text.startswith(start)]
        if not found:
            raise ValueError(f"`lines`: no line starts with {start!r}.")
        start = found[0]
    if isinstance(end, str):
        found = [i for i, text in enumerate(stripped, 1)
                 if i > start and text.startswith(end)]
        if not found:
            raise ValueError(f"`lines`: no line after {start} starts with {end!r}.")
        end = found[0] - 1
    try:
        return int(start), int(end)
    except (TypeError, ValueError):
        raise ValueError(
            f"`lines` must be a pair (start, end) of line numbers or marker "
            f"strings. Received: lines={lines!r}"
        ) from None


def show_source(obj, key: str | None = None, lines=None) -> SourceView:
    """kerasmini's source of ``obj`` beside the real Keras lines.

    Args:
        obj: a kerasmini class, function, method or property, e.g.
            ``keras.layers.Dense.build`` or ``keras.Layer.__call__``.
        key: the :data:`~kerasmini.book.keras_sources.KERAS_SOURCES` key for
            the links; defaults to the qualified name (``"Layer.__call__"``).
            A key that is not in the table gives no links (the source is
            still shown).
        lines: ``(start, end)``, 1-based and inclusive, counted from the
            first line of ``obj``'s source, to show an excerpt. Either end
            may be a marker string instead: ``start`` is the first line that
            begins with it (after indentation), ``end`` the line *before* the
            next line that begins with it, so ``lines=("# 4.", "# 5.")``
            shows step 4 of ``Layer.__call__`` however the file moves.

    Returns:
        A :class:`SourceView` (HTML in a notebook, plain text otherwise).

    Raises:
        TypeError: if the source of ``obj`` cannot be found.
        ValueError: if ``lines`` is not a valid range of the source.

    >>> from kerasmini import Layer
    >>> show_source(Layer.__call__, lines=(1, 2)).source
    'def __call__(self, *args, **kwargs):\\n    self._check_super_called()\\n'
    >>> print(show_source(Layer.__call__, lines=("# 4.", "# 5.")).source)
    # 4. Call build (once).
    self._maybe_build(inputs)
    <BLANKLINE>
    """
    target = _unwrap(obj)
    try:
        source_lines, first_line = inspect.getsourcelines(target)
        filename = inspect.getsourcefile(target) or inspect.getfile(target)
    except (OSError, TypeError) as error:
        raise TypeError(
            f"Cannot show the source of {obj!r}: {error}. Pass a class, function, "
            "method or property defined in a Python file."
        ) from None
    first_line = max(first_line, 1)
    if lines is not None:
        start, end = _resolve_lines(lines, source_lines)
        if not 1 <= start <= end <= len(source_lines):
            raise ValueError(
                f"`lines` must satisfy 1 <= start <= end <= {len(source_lines)} "
                f"(the source of {_default_key(obj)} has {len(source_lines)} lines). "
                f"Received: lines={lines!r}"
            )
        source_lines = source_lines[start - 1:end]
        first_line += start - 1
    source = textwrap.dedent("".join(source_lines))
    if key is None:
        key = _default_key(obj)
    return SourceView(key, relative_path(filename), first_line, source, _Links(key))


__all__ = [
    "KerasLinks", "SourceView", "keras_links", "relative_path", "show_source",
    "theme_style",
]
