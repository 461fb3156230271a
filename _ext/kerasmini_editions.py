"""The book's editions: English at the site's root, Chinese in ``zh_CN/``.

One Sphinx extension, loaded by both builds (``make book``), for what a
translated edition needs beyond Sphinx's own catalogs:

- **The language switcher.** Every page gets ``kerasmini_edition_links``,
  links to the same page in the other editions (``kerasmini_editions`` in
  ``_config.yml``), computed when the page is written
  (``chapters/03_layer.html`` <-> ``zh_CN/chapters/03_layer.html``), so it
  works from ``file://`` and under any sub-path without JavaScript;
  ``_templates/article-header-buttons.html`` shows it in the page's header.
- **Chinese search** indexes the words jieba finds (a requirement of the
  build); Sphinx's own splitter is kept, made faster (``chinese_search``).
- **The book's own strings.** The title, the author, the table of contents'
  captions and the footer's paragraphs come from ``_config.yml`` and
  ``_toc.yml``, which jupyter-book hands to Sphinx outside any catalog. The
  gettext build (``tools/i18n.py extract``) puts them into a catalog of their
  own, ``book.pot``; ``tools/edition.py`` writes the translated edition's
  ``_config.yml`` and ``_toc.yml`` from ``locales/<lang>/LC_MESSAGES/book.po``.
- **The themes' strings** that their catalogs leave in English (the search
  box's "Search this book...", "Suggest edit", ...): extracted into
  ``sphinx.pot`` with the strings of ``_templates/``, translated through
  Sphinx's own catalog (``sphinx.po``).
- **The header's buttons on a translated page** open the translated notebook
  (``locales/<lang>/chapters/NN_name.ipynb``) in Colab and Binder, download it
  (it replaces the English one in ``_sources/``), and "Suggest edit" opens the
  page's catalog, where a translated page is edited. A missing translated
  notebook stops the build.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import quote

from sphinx.errors import ExtensionError
from sphinx.locale import _

# language -> (folder of the site, name of the language in itself, BCP 47 tag).
EDITIONS = {
    "en": ("", "English", "en"),
    "zh_CN": ("zh_CN/", "中文", "zh-CN"),
}
# What a reader sees on the switcher's tooltip, in the language it leads to.
SWITCH_TITLE = {"en": "Read this page in English", "zh_CN": "阅读本页的中文版"}

# The themes' strings that stay English on a translated page unless the
# book's sphinx.po translates them: jupyter-book's search box text, and the
# header buttons' texts and tooltips sphinx-book-theme's catalog lacks.
UI_MESSAGES = [
    "Search this book...",
    "Launch interactive content",
    "Launch on Binder",
    "Launch on Colab",
    "Source repositories",
    "Repository",
    "Suggest edit",
    "Open issue",
    "Print to PDF",
    "Link to this heading",
    "Click to show",
    "Click to hide",
]
# Buttons whose tooltip the theme translates before we see it: retranslated
# from the English the theme started from.
_TOOLTIP_OF = {"download-pdf-button": "Print to PDF"}

_FOOTER_PARAGRAPH = re.compile(r"(<p\b[^>]*>)(.*?)(</p>)", re.S)


def _words(text: str) -> str:
    return " ".join(text.split())


def footer_paragraphs(footer: str) -> list[str]:
    """The text of each ``<p>`` of the footer, its spaces folded (a message each).

    >>> footer_paragraphs('<p class="x">\\nOne <a href="L">two</a>\\n</p>\\n<p>Three</p>')
    ['One <a href="L">two</a>', 'Three']
    """
    return [_words(match.group(2)) for match in _FOOTER_PARAGRAPH.finditer(footer)]


def translate_footer(footer: str, translate) -> str:
    """``footer`` with the text of each paragraph put through ``translate``."""
    return _FOOTER_PARAGRAPH.sub(
        lambda m: m.group(1) + translate(_words(m.group(2))) + m.group(3), footer)


def book_messages(title: str, author: str, captions: list[str],
                  footer: str) -> list[str]:
    """The book's own strings, in the order ``book.pot`` lists them."""
    found = [title, author, *captions, *footer_paragraphs(footer)]
    return list(dict.fromkeys(text for text in found if text))


def _captions(site_map) -> list[str]:
    """The captions of the table of contents, in reading order."""
    captions, seen, todo = [], set(), [site_map.root.docname]
    while todo:
        docname = todo.pop(0)
        if docname in seen or docname not in site_map:
            continue
        seen.add(docname)
        for subtree in site_map[docname].subtrees:
            if subtree.caption:
                captions.append(subtree.caption)
            todo.extend(getattr(item, "docname", item) for item in subtree.items
                        if isinstance(getattr(item, "docname", item), str))
    return captions


def _language(app) -> str:
    return app.config.language or "en"


# ---------------------------------------------------------------- extraction

def _extract_book_messages(app):
    """In the gettext build: book.pot, and the themes' strings in sphinx.pot."""
    if app.builder.name != "gettext":
        return
    from sphinx.builders.gettext import MsgOrigin

    options = app.config.html_theme_options or {}
    messages = book_messages(
        app.config.html_title or app.config.project, app.config.author,
        _captions(app.config.external_site_map), options.get("extra_footer", ""))
    for number, text in enumerate(messages, 1):
        app.builder.catalogs["book"].add(text, MsgOrigin("_config.yml", number))
    for number, text in enumerate(UI_MESSAGES, 1):
        app.builder.catalogs["sphinx"].add(text, MsgOrigin(__file__, number))


# ---------------------------------------------------------------- every page

def _interface_texts(app, config):
    """jupyter-book's "Search this book..." and sphinx-togglebutton's hints
    ("Click to show", which it looks up before its catalog is loaded) in the
    edition's language."""
    options = config.html_theme_options
    if options.get("search_bar_text"):
        options["search_bar_text"] = str(_(options["search_bar_text"]))
    for name in ("togglebutton_hint", "togglebutton_hint_hide"):
        if getattr(config, name, None):
            setattr(config, name, str(_(getattr(config, name))))


def edition_link(pagename: str, language: str, target: str, suffix=".html"):
    """The relative address of ``pagename`` in the ``target`` edition.

    >>> edition_link("chapters/03_layer", "en", "zh_CN")
    '../zh_CN/chapters/03_layer.html'
    >>> edition_link("chapters/03_layer", "zh_CN", "en")
    '../../chapters/03_layer.html'
    >>> edition_link("intro", "zh_CN", "en")
    '../intro.html'
    """
    here = EDITIONS[language][0]
    to_root = "../" * (pagename.count("/") + here.count("/"))
    return to_root + EDITIONS[target][0] + pagename + suffix


def _switcher(app, pagename, templatename, context, doctree):
    """``kerasmini_edition_links``: this page in each other edition of the site."""
    language, editions = _language(app), app.config.kerasmini_editions
    unknown = sorted(set(editions) - set(EDITIONS))
    if unknown:
        raise ExtensionError(f"kerasmini_editions: no edition {unknown} in "
                             f"_ext/kerasmini_editions.py (it knows {sorted(EDITIONS)})")
    if language not in editions:
        return
    suffix = app.builder.get_target_uri(pagename)[len(pagename):] or ".html"
    context["kerasmini_edition_links"] = [
        {"href": edition_link(pagename, language, target, suffix),
         "text": EDITIONS[target][1], "lang": EDITIONS[target][2],
         "title": SWITCH_TITLE[target]}
        for target in editions if target != language]


# ------------------------------------------------------------ translated pages

def translated_notebook(srcdir, config, docname: str) -> Path:
    """Where the translated edition keeps the notebook of ``docname``."""
    return Path(srcdir, config.locale_dirs[0], config.language, f"{docname}.ipynb")


def _notebook_pages(app) -> list[str]:
    site_map = app.config.external_site_map
    return sorted(name for name in site_map
                  if Path(app.srcdir, f"{name}.ipynb").is_file())


def _require_translated_notebooks(app):
    """Stop a translated build early when a chapter's notebook is missing."""
    if _language(app) == "en" or app.builder.format != "html":
        return
    missing = [str(translated_notebook(app.srcdir, app.config, name))
               for name in _notebook_pages(app)
               if not translated_notebook(app.srcdir, app.config, name).is_file()]
    if missing:
        raise ExtensionError(
            f"the {app.config.language} edition's notebooks are missing (the "
            "download, Colab and Binder buttons would give the English ones): "
            + ", ".join(missing) + ". Generate them from the catalogs first.")


def _buttons(buttons):
    for button in buttons:
        yield button
        yield from _buttons(button.get("buttons", []))


def _replace_once(url: str, old: str, new: str) -> str:
    if url.count(old) != 1:
        raise ExtensionError(f"expected {old!r} once in the button's {url!r}")
    return url.replace(old, new)


def _translated_buttons(app, pagename, templatename, context, doctree):
    """Header buttons of a translated page: its notebook, its catalog, its words."""
    language = _language(app)
    if language == "en" or "header_buttons" not in context:
        return
    options = app.config.html_theme_options
    docs = options.get("path_to_docs", "").strip("/")
    docs = docs + "/" if docs else ""
    locales = app.config.locale_dirs[0].strip("/")
    source = Path(app.env.doc2path(pagename, base=False)).as_posix()
    notebook = pagename in _notebook_pages(app)
    kept = []
    for button in context["header_buttons"]:
        if button.get("label") == "download-buttons" and not notebook:
            # The page's Markdown is English; its translation is the catalog.
            button["buttons"] = [b for b in button["buttons"]
                                 if b.get("label") != "download-source-button"]
        kept.append(button)
    context["header_buttons"] = kept
    for button in _buttons(kept):
        url, label = button.get("url", ""), button.get("label", "")
        if button.get("text") in ("Colab", "Binder", "JupyterHub"):
            button["url"] = _replace_once(
                url, f"/{docs}{pagename}.ipynb",
                f"/{docs}{locales}/{language}/{pagename}.ipynb")
        elif label == "source-edit-button":
            button["url"] = _replace_once(
                url, f"/{docs}{source}",
                f"/{docs}{locales}/{language}/LC_MESSAGES/{pagename}.po")
        elif label == "source-issues-button":
            button["url"] = _replace_once(
                url, "page%20%2F", "page%20%2F" + quote(EDITIONS[language][0]))
        for key in ("text", "tooltip"):
            if button.get(key):
                button[key] = str(_(button[key]))
        if label in _TOOLTIP_OF:
            button["tooltip"] = str(_(_TOOLTIP_OF[label]))


def _translated_notebooks_for_download(app, exception):
    """``_sources/`` of a translated site holds the translated notebooks."""
    if exception is not None or _language(app) == "en" or app.builder.format != "html":
        return
    for name in _notebook_pages(app):
        target = Path(app.outdir, "_sources", f"{name}.ipynb")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(translated_notebook(app.srcdir, app.config, name), target)


# ---------------------------------------------------------------- search

class _Terms(set):
    """A set that takes ``extend``, for Sphinx's Chinese search's Latin terms."""

    def extend(self, words):
        self.update(words)


def chinese_search():
    """Sphinx 7.4's Chinese search, its Latin terms kept in a set.

    ``SearchChinese`` appends every Latin word of the book to a list and looks
    each word it stems up in it: the Chinese build spent 22 of its 50 CPU
    seconds there. Same words, same index; jieba still splits the Chinese, and
    without jieba the build stops (Sphinx would index no Chinese word at all).
    """
    from sphinx.search import zh

    class FastSearchChinese(zh.SearchChinese):
        def init(self, options):
            if not zh.JIEBA:  # Sphinx would index no Chinese word, silently
                raise ExtensionError(
                    "Chinese search needs jieba: pip install -r requirements.txt")
            super().init(options)
            self.latin_terms = _Terms()

    return FastSearchChinese


def setup(app):
    app.add_search_language(chinese_search())
    # The editions published together, each in its folder (EDITIONS): every
    # page links to itself in the others. Empty: no switcher.
    app.add_config_value("kerasmini_editions", [], "html", types=[list])
    # before sphinx-togglebutton writes its hints into the pages (priority 500)
    app.connect("config-inited", _interface_texts, priority=100)
    app.connect("builder-inited", _extract_book_messages)
    app.connect("builder-inited", _require_translated_notebooks)
    app.connect("html-page-context", _switcher)
    # after sphinx-book-theme's buttons (priority 501)
    app.connect("html-page-context", _translated_buttons, priority=600)
    app.connect("build-finished", _translated_notebooks_for_download)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
