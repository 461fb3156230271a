"""The PDF of the book (``make pdf``), read back as a reader's viewer would.

Checks: one outline entry per page of the table of contents, in order, each
chapter a few pages long; every figure the notebooks draw is in the PDF as an
image (a PNG, or an SVG drawing converted to PDF), none fell back to its text
(``<Digraph ...>``, ``<Figure size ...>``); every font is embedded.

``make pdf`` builds the PDF, copies it beside the website's pages and runs this
file with ``KERASMINI_PDF`` set to it (another edition: another PDF). Without a
built PDF every test here skips. ``make pdf-zh`` sets ``KERASMINI_PDF_LANGUAGE``
to ``zh_CN``: then the parts and chapters of the outline are Chinese, most of
the text is, and a Noto CJK font (xeCJK) set it.
"""

import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PDF = Path(os.environ.get("KERASMINI_PDF",
                          ROOT / "_build" / "html" / "kerasmini-book.pdf"))
LANGUAGE = os.environ.get("KERASMINI_PDF_LANGUAGE", "en")
CJK = re.compile(r"[\u4e00-\u9fff]")
FIGURE_TYPES = ("image/png", "image/svg+xml", "image/jpeg", "image/gif")
# What a figure becomes when LaTeX gets its text/plain instead of the image.
FALLBACK_TEXT = re.compile(r"<Digraph\b|<graphviz\.|<Figure size \d|<IPython\.core")


@pytest.fixture(scope="module")
def reader():
    if not PDF.exists():
        pytest.skip(f"no PDF at {PDF} (make pdf)")
    from pypdf import PdfReader

    return PdfReader(PDF)


def _toc_files():
    text = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    return re.findall(r"^\s*-\s*file:\s*(\S+)", text, re.MULTILINE)


def _notebook_figures():
    """The first line of the text/plain of each figure the notebooks draw:
    what the PDF would show if the figure fell back to its text."""
    texts = []
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if any(kind in data for kind in FIGURE_TYPES):
                    plain = "".join(data.get("text/plain", "")).strip()
                    texts.append(plain.splitlines()[0] if plain else "")
                    break
    return texts


def _chapter_entries(reader):
    """The outline's chapter entries (under the parts), with their first page."""
    entries = []
    for item in reader.outline:
        if isinstance(item, list):  # the chapters of the part before it
            entries += [(e.title, reader.get_destination_page_number(e))
                        for e in item if not isinstance(e, list)]
    return entries


def test_one_chapter_per_page_of_the_table_of_contents(reader):
    pages = len(reader.pages)
    entries = _chapter_entries(reader)
    assert len(entries) == len(_toc_files()), [title for title, _ in entries]
    starts = [page for _, page in entries]
    assert starts == sorted(starts)
    lengths = [b - a for a, b in zip(starts, starts[1:] + [pages])]
    assert min(lengths) >= 2, list(zip([t for t, _ in entries], lengths))
    # 250 pages when this test was written; a PDF that lost its chapters'
    # outputs or code would be far shorter.
    assert pages >= 8 * len(entries), pages


# LaTeX's own chapter label ("CHAPTER FOUR", or "第 4 章" in Chinese) above a
# title that says "3. Layer": the titles carry the book's numbers ("Getting
# started" is chapter 0), so LaTeX numbers nothing (secnumdepth -1 in
# _config.yml; its section numbers, "4.1", went with the label).
LATEX_LABEL = re.compile(r"CHAPTER\s+[A-Z]+|第\s*\d+\s*章")


def test_chapters_are_numbered_by_their_titles_only(reader):
    entries = _chapter_entries(reader)
    numbered = [title for title, _ in entries if re.match(r"\d+\. ", title)]
    assert len(numbered) == len(entries) - 2  # all but Getting started, teachers
    labels = []
    for title, page in entries:
        text = " ".join((reader.pages[page].extract_text() or "").split())
        at = text.upper().find(title.split()[0].upper())  # headings are capitals
        assert at >= 0, (title, text[:200])
        labels += [(title, label) for label in LATEX_LABEL.findall(text[:at])]
    assert not labels, labels[:5]


def test_every_figure_is_an_image_not_its_text(reader):
    # A PNG is an image XObject on its page; an SVG drawing, converted to PDF by
    # rsvg-convert, is a form XObject (its text and shapes stay vectors).
    figures = set()
    for page in reader.pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject")
        for ref in (xobjects.get_object().values() if xobjects else ()):
            if ref.get_object().get("/Subtype") in ("/Image", "/Form"):
                figures.add(getattr(ref, "idnum", None) or id(ref))
    fallbacks = _notebook_figures()
    assert len(fallbacks) >= 27  # the book's figures when this test was written
    assert len(figures) == len(fallbacks), (len(figures), len(fallbacks))
    text = " ".join(" ".join((page.extract_text() or "").split())
                    for page in reader.pages)
    assert not FALLBACK_TEXT.findall(text), FALLBACK_TEXT.findall(text)[:5]
    shown = [line for line in fallbacks
             if len(line) > 12 and " ".join(line.split()) in text]
    assert not shown, f"figures printed as text: {shown}"


def test_chinese_edition_is_chinese(reader):
    if LANGUAGE != "zh_CN":
        pytest.skip(f"the {LANGUAGE} edition")
    parts = [item.title for item in reader.outline if not isinstance(item, list)]
    chapters = [title for title, _ in _chapter_entries(reader)]
    english = [title for title in parts + chapters if not CJK.search(title)]
    assert parts and not english, f"outline entries in English: {english}"
    text = "".join(page.extract_text() or "" for page in reader.pages)
    assert len(CJK.findall(text)) > 20 * len(reader.pages), "little Chinese text"
    seen, fonts = set(), {}
    for page in reader.pages:
        fonts.update(_fonts(page.get("/Resources"), seen))
    assert any("CJK" in name for name in fonts), sorted(fonts)


def _fonts(resources, seen):
    """``{name: font dict}`` of every font used by ``resources``, forms included."""
    fonts = {}
    if not resources:
        return fonts
    resources = resources.get_object()
    for ref in (resources.get("/Font") or {}).values():
        font = ref.get_object()
        fonts[str(font.get("/BaseFont"))] = font
    for ref in (resources.get("/XObject") or {}).values():
        key = getattr(ref, "idnum", None) or id(ref)
        if key in seen:
            continue
        seen.add(key)
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Form":
            fonts.update(_fonts(obj.get("/Resources"), seen))
    return fonts


def _embedded(font):
    if font.get("/Subtype") == "/Type3":  # glyphs drawn in the PDF itself
        return True
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = (font.get("/FontDescriptor") or {})
    descriptor = descriptor.get_object() if descriptor else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_every_font_is_embedded(reader):
    seen, fonts = set(), {}
    for page in reader.pages:
        fonts.update(_fonts(page.get("/Resources"), seen))
    assert fonts
    missing = sorted(name for name, font in fonts.items() if not _embedded(font))
    assert not missing, f"fonts not embedded: {missing}"
