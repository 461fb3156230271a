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

import functools
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
# are written into it. Every colour of text is readable: at least WCAG AA's
# contrast (4.5:1) against what it is drawn on (tests/test_book_source.py).
LIGHT_STYLE, DARK_STYLE = "github-light", "github-dark"
MIN_CONTRAST = 4.5
_SCOPES = {
    "light": (".kerasmini-themed",),
    "dark": ('html[data-theme="dark"] .kerasmini-themed',
             'body[data-jp-theme-light="false"] .kerasmini-themed'),
}
# What the listing is drawn on: its own box; the file header above the box sits
# on the page itself (the book's theme, or JupyterLab's dark theme).
_PAGE = {"light": ("#ffffff",), "dark": ("#14181e", "#111111")}
_BASE = {  # before the contrast check; palette() returns the readable set
    "light": {"background": "#f6f8fa", "text": "#1f2328", "border": "#d0d7de",
              "line_numbers": "#57606a", "header": "#57606a",
              "link": "#0969da", "symbol": "#8250df"},
    "dark": {"background": "#161b22", "text": "#e6edf3", "border": "#30363d",
             "line_numbers": "#8b949e", "header": "#9198a1",
             "link": "#58a6ff", "symbol": "#d2a8ff"},
}
_BASE_CSS = (
    ".kerasmini-themed { border: 1px solid; border-radius: 4px; "
    "padding: 0 0.6em; overflow-x: auto; }\n"
    ".kerasmini-themed pre { background: transparent; color: inherit; "
    "margin: 0; padding: 0.4em 0; white-space: pre-wrap; "
    "overflow-wrap: anywhere; }\n"
    # pydata-sphinx-theme fades line numbers (opacity .8 !important), which
    # takes them under 4.5:1: they are drawn in full in a readable grey instead.
    ".kerasmini-themed .linenos { padding-right: 0.8em; user-select: none; "
    "opacity: 1 !important; }\n"
    "ul.kerasmini-themed { margin: 0.3em 0 0.8em 0; "
    "padding: 0.3em 0.6em 0.3em 1.8em; }\n"
    ".kerasmini-source-header { font-family: monospace; font-size: 0.85em; "
    "margin-bottom: 0.2em; }\n"
)
_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


def _rgb(colour: str) -> tuple:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an ``#rrggbb`` colour."""
    channels = [c / 255 for c in _rgb(colour)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours, from 1 to 21.

    >>> round(contrast_ratio("#000000", "#ffffff"), 1)
    21.0
    >>> round(contrast_ratio("#777777", "#ffffff"), 2)
    4.48
    """
    light, dark = sorted((_luminance(foreground), _luminance(background)),
                         reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable(colour: str, *backgrounds: str, minimum: float = MIN_CONTRAST) -> str:
    """``colour``, or the nearest shade of it that reads on every background.

    The colour is mixed with black (on light backgrounds) or white (on dark
    ones) in small steps until its contrast with each background is at least
    ``minimum``, so a token keeps its hue and only gets darker or lighter.

    >>> readable("#6e7781", "#f6f8fa")  # github-light's comments: 4.27:1
    '#6b737d'
    >>> readable("#1f2328", "#f6f8fa")  # already readable: unchanged
    '#1f2328'
    """
    colour = "#" + "".join(f"{c:02x}" for c in _rgb(colour))
    dark_page = max(_luminance(b) for b in backgrounds) < 0.18
    target = (255, 255, 255) if dark_page else (0, 0, 0)
    rgb = _rgb(colour)
    for step in range(101):
        mixed = tuple(round(c + (t - c) * step / 100) for c, t in zip(rgb, target))
        shade = "#" + "".join(f"{c:02x}" for c in mixed)
        if all(contrast_ratio(shade, b) >= minimum for b in backgrounds):
            return shade
    raise ValueError(f"No shade of {colour} reaches {minimum}:1 on {backgrounds}.")


def palette(theme: str) -> dict:
    """The listing colours of one theme (``"light"`` or ``"dark"``).

    ``background``, ``border``, ``text``, ``line_numbers``, ``link`` and
    ``symbol`` are drawn in the listing's box; ``header`` (the file and line
    numbers above a listing) on the page; ``tokens`` maps each Pygments token
    class to its CSS declarations. Every text colour reads at 4.5:1 or more on
    what it is drawn on (WCAG AA). Other views of code in the book (Keras's
    lines on the pages) can use the same colours.

    >>> colours = palette("light")
    >>> colours["background"], colours["tokens"]["k"]
    ('#f6f8fa', 'color: #cf222e')
    """
    if theme not in _BASE:
        raise ValueError(f"`theme` must be 'light' or 'dark'. Received: {theme!r}")
    colours = _palette(theme)
    return dict(colours, tokens=dict(colours["tokens"]))


@functools.cache
def _palette(theme: str) -> dict:
    base = _BASE[theme]
    box = base["background"]
    colours = dict(base)
    for name in ("text", "line_numbers", "link", "symbol"):
        colours[name] = readable(base[name], box)
    colours["header"] = readable(base["header"], *_PAGE[theme])
    style = LIGHT_STYLE if theme == "light" else DARK_STYLE
    colours["tokens"] = {name: _readable_rule(rule, box)
                         for name, rule in _token_rules(style).items()}
    return colours


def _readable_rule(rule: str, box: str) -> str:
    """A Pygments rule with its text colour made readable on its background."""
    parts = [part.strip() for part in rule.split(";") if part.strip()]
    background = box
    for part in parts:
        if part.startswith("background-color:") and _HEX.search(part):
            background = _HEX.search(part).group(0)
    fixed = []
    for part in parts:
        if part.startswith("color:") and _HEX.search(part):
            part = "color: " + readable(_HEX.search(part).group(0), background)
        fixed.append(part)
    return "; ".join(fixed)


def _pygments():
    """pygments' ``highlight``, ``HtmlFormatter`` and ``PythonLexer``.

    Imported on first use: ``import kerasmini`` must not load pygments.
    """
    try:
        # LIGHT_STYLE (github-light) is a style of accessible-pygments, which
        # registers it with pygments (pygments alone has only github-dark):
        # without it, highlighting a listing fails.
        import a11y_pygments  # noqa: F401
        from pygments import formatters, highlight, lexers
    except ImportError:
        raise ImportError(
            "Highlighted listings need pygments and accessible-pygments (the "
            "github-light style). Install the book's extra: pip install "
            "'kerasmini[book]' (or pip install pygments accessible-pygments)."
        ) from None

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
    for theme in ("light", "dark"):
        colours = palette(theme)
        box = (f"background: {colours['background']}; color: {colours['text']}; "
               f"border-color: {colours['border']}")
        for scope in _SCOPES[theme]:
            page = scope.replace(".kerasmini-themed", ".kerasmini-source-header")
            parts.append(f"{page} {{ color: {colours['header']} }}\n")
            parts.append(f"{scope} {{ {box} }}\n")
            parts.append(f"{scope} a {{ color: {colours['link']} }}\n")
            parts.append(f"{scope} code {{ color: {colours['symbol']}; "
                         "background: transparent }\n")
            parts.append(f"{scope} .linenos {{ color: {colours['line_numbers']} }}\n")
            parts += [f"{scope} .{name} {{ {colours['tokens'][name]} }}\n"
                      for name in sorted(used & colours["tokens"].keys())]
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
    self._maybe_build(inputs, *rest, **kwargs)
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
    "KerasLinks", "SourceView", "contrast_ratio", "keras_links", "palette",
    "readable", "relative_path", "show_source", "theme_style",
]
