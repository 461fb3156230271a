"""Keras's own lines on the page, rendered when the site is built.

The notebooks link every piece of Keras they read to a pinned range
(``kerasmini/book/keras_source_table.py``, ``keras_excerpts.py``); the
repository holds none of Keras's lines. This extension puts the lines of each
pinned range on the page that links it, read from the two releases
``make keras-releases`` caches (``kerasmini.book.keras_releases``):

* an output of ``show_source`` (kerasmini's listing and its links) becomes tabs
  "Keras 2.6 | Keras 3.15 | kerasmini", kerasmini's open as in the notebook;
  an output of ``keras_links`` becomes tabs "Keras 2.6 | Keras 3.15". The
  stored output is the placeholder: its links name the ranges to fill in;
* a link in the prose gets the lines folded open under its paragraph (under the
  table, for a link in a table), so a chapter can walk them line by line.

Only HTML builders change anything; the gettext builder of a translation sees
the doctree as the notebooks give it, and every text this adds is either
Keras's code or language-neutral (file names, tags, "Keras 2.6", the
attribution line). Without the cached releases the build stops with one
paragraph saying how to fetch them.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.util import logging

from kerasmini.book import keras_releases
from kerasmini.book.keras_lines import (
    find_pinned_urls,
    pinned_symbol,
    range_html,
    version_label,
)

logger = logging.getLogger(__name__)

_LISTING = re.compile(r'^\s*<div class="kerasmini-(source|links)"')
_CSS_NAME = "kerasmini_keras_lines.css"

# The tabs are radio buttons and labels (no script): the checked one's panel
# shows. Text colours are the theme's own (pydata-sphinx-theme's variables),
# which pass WCAG AA in its light and dark modes.
_CSS = """\
.kerasmini-tabs { display: flex; flex-wrap: wrap; margin: 0.4em 0 1em 0; }
.kerasmini-tabs > input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.kerasmini-tabs > label { order: 1; cursor: pointer; padding: 0.25em 0.8em;
  margin: 0; font-size: 0.9em; color: var(--pst-color-text-base, inherit);
  border-bottom: 2px solid transparent; }
.kerasmini-tabs > input:checked + label { font-weight: 600;
  border-bottom-color: var(--pst-color-primary, currentColor); }
.kerasmini-tabs > input:focus-visible + label { outline: 2px solid
  var(--pst-color-primary, currentColor); outline-offset: 1px; }
.kerasmini-tabs > .kerasmini-tab-panel { order: 2; display: none; width: 100%;
  min-width: 0; border-top: 1px solid var(--pst-color-border, #d0d7de);
  padding-top: 0.4em; }
.kerasmini-tabs > input:checked + label + .kerasmini-tab-panel { display: block; }
.kerasmini-keras { margin: 0 0 0.8em 0; min-width: 0; }
.kerasmini-keras-head, .kerasmini-keras-attribution { font-size: 0.85em;
  overflow-wrap: anywhere; }
.kerasmini-keras-head code { font-size: 0.95em; }
.kerasmini-keras-attribution { margin-top: 0.15em; color: var(--pst-color-text-base, inherit); }
.kerasmini-keras-scroll { max-height: 30em; overflow: auto; }
details.kerasmini-keras-fold { margin: 0.2em 0 0.8em 0; }
details.kerasmini-keras-fold > summary { cursor: pointer; font-size: 0.9em;
  overflow-wrap: anywhere; }
"""


def _html(app) -> bool:
    return app.builder.format == "html"


def _check_releases(app) -> None:
    """Fail early, with one paragraph, when the releases are not cached."""
    if not _html(app):
        return
    try:
        for tag in keras_releases.RELEASES:
            keras_releases.wheel_path(tag)
    except keras_releases.KerasReleaseError as error:
        raise ExtensionError(str(error)) from None


class _Page:
    """The tabs of one page need ids of their own."""

    def __init__(self, docname: str):
        self.prefix = "kmk-" + re.sub(r"\W+", "-", docname)
        self.count = 0

    def tab_id(self) -> str:
        self.count += 1
        return f"{self.prefix}-{self.count}"


def _tabs(page: _Page, panels: list[tuple[str, str]], checked: int) -> str:
    group = page.tab_id()
    parts = ['<div class="kerasmini-tabs">']
    for index, (label, body) in enumerate(panels):
        tab = f"{group}-{index}"
        mark = " checked" if index == checked else ""
        parts.append(
            f'<input type="radio" name="{group}" id="{tab}"{mark}>'
            f'<label for="{tab}">{label}</label>'
            f'<div class="kerasmini-tab-panel">{body}</div>'
        )
    parts.append("</div>")
    return "".join(parts)


def _folds(refs) -> str:
    # The summary is plain text: a link inside it would be a focusable
    # element nested in an interactive one (axe's nested-interactive rule);
    # the link line opens the fold's body instead.
    return "".join(
        f'<details class="kerasmini-keras-fold" open><summary>{_fold_title(ref)}'
        f"</summary>{range_html(ref)}</details>"
        for ref in refs
    )


def _fold_title(ref) -> str:
    symbol = pinned_symbol(ref)
    title = html.escape(f"{ref.label}")
    return title + (f" <code>{html.escape(symbol)}</code>" if symbol else "")


def _fill_output(node: nodes.raw, page: _Page) -> None:
    """A show_source or keras_links output becomes tabs (Keras first)."""
    text = node.astext()
    match = _LISTING.match(text)
    if not match:
        return
    refs = find_pinned_urls(text)
    if not refs:
        return
    panels = [(version_label(ref), range_html(ref)) for ref in refs]
    checked = 0
    if match.group(1) == "source":  # kerasmini's listing stays the open tab
        panels.append(("kerasmini", text))
        checked = len(panels) - 1
    html = _tabs(page, panels, checked)
    node.replace_self(nodes.raw("", html, format="html"))


def _insert_prose(doctree: nodes.document) -> None:
    """Under each paragraph (or table) that links pinned ranges, their lines."""
    after: dict[int, tuple[nodes.Element, list]] = {}
    for ref_node in list(doctree.findall(nodes.reference)):
        refs = find_pinned_urls(ref_node.get("refuri", ""))
        if not refs:
            continue
        if any(isinstance(a, nodes.container) and a.get("nb_element", "").startswith(
                "cell_code") for a in _ancestors(ref_node)):
            continue
        anchor = None
        for ancestor in _ancestors(ref_node):
            if isinstance(ancestor, nodes.table):
                anchor = ancestor
                break
            if anchor is None and isinstance(ancestor, nodes.paragraph):
                anchor = ancestor
        if anchor is None:
            continue
        slot = after.setdefault(id(anchor), (anchor, []))
        for ref in refs:
            if ref not in slot[1]:
                slot[1].append(ref)
    for anchor, refs in after.values():
        parent = anchor.parent
        parent.insert(parent.index(anchor) + 1,
                      nodes.raw("", _folds(refs), format="html"))


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def fill_page(app, doctree, docname) -> None:
    if not _html(app):
        return
    page = _Page(docname)
    try:
        _insert_prose(doctree)
        for cell in list(doctree.findall(nodes.container)):
            if cell.get("nb_element") != "cell_code":
                continue
            for raw in list(cell.findall(nodes.raw)):
                if raw.get("format") == "html":
                    _fill_output(raw, page)
    except keras_releases.KerasReleaseError as error:
        raise ExtensionError(f"{docname}: {error}") from None


def write_css(app, exception) -> None:
    if exception is None and _html(app):
        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        (static / _CSS_NAME).write_text(_CSS, encoding="utf-8")


def setup(app):
    app.add_css_file(_CSS_NAME)
    app.connect("builder-inited", _check_releases)
    app.connect("doctree-resolved", fill_page)
    app.connect("build-finished", write_css)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
