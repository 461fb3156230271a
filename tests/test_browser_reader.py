"""Pages every reader can read: the built site in headless Chromium, every page,
light and dark, at a desktop (1280 px) and a phone width (390 px).

- axe-core (the npm package, run inside the page) finds no violation of the
  WCAG 2.0/2.1 A and AA rules (colour contrast, image alt text, names of links
  and buttons, ...);
- no page scrolls sideways, at 1280 px nor at 390 px (phone screenshots in
  _build/screenshots/phone/);
- every figure's alt text is a description, not a file path;
- the footer gives the book's licences and Keras's attribution apart, each
  edition's front page links its PDF (when ``make pdf`` and ``make pdf-zh``
  have put them beside the pages), and the header has the repository, "open
  an issue" and "edit this page" buttons.

Every page of the site is checked, the Chinese edition's in ``zh_CN/``
included (``tests/test_browser_zh.py`` checks what is particular to them).

Run with ``make browser-test``, which installs Chromium, Playwright and axe-core
and builds the book first; without them every test here skips with a reason.
``KERASMINI_SITE`` points at another built site (default ``_build/html``), e.g.
a translated edition; ``KERASMINI_AXE`` at another ``axe.min.js``.
"""

import functools
import http.server
import json
import os
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("KERASMINI_SITE", ROOT / "_build" / "html"))
AXE = Path(os.environ.get(
    "KERASMINI_AXE", ROOT / "_build" / "node" / "node_modules" / "axe-core" /
    "axe.min.js"))
SHOTS = ROOT / "_build" / "screenshots" / "phone"
# for a person to look at; CI turns them off (tests/test_browser.py says why)
FULL_PAGE_SHOTS = os.environ.get("KERASMINI_FULL_PAGE_SHOTS", "1") != "0"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
THEMES = ["light", "dark"]
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
# axe-core's rule sets for WCAG 2.0 and 2.1, levels A and AA (color-contrast,
# image-alt, link-name, button-name, html-has-lang, ...).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
REPOSITORY = "https://github.com/kerasmini/kerasmini-book"

sys.path.insert(0, str(ROOT / "tools"))
import figure_alt  # noqa: E402


def _pages():
    """The site's pages (not the theme's files, not the redirecting index)."""
    if not SITE.is_dir():
        return []
    pages = []
    for path in sorted(SITE.rglob("*.html")):
        rel = path.relative_to(SITE)
        if {"_static", "_sources", "_images"} & set(rel.parts):  # zh_CN/_static too
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if 'http-equiv="Refresh"' in text or "http-equiv=\"refresh\"" in text:
            continue  # index.html only sends the reader on to the front page
        pages.append(rel.as_posix())
    return pages


PAGES = _pages() or ["(the book is not built)"]


def _skip_reason():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make browser-test installs it)"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (make browser-test installs it)"
    if not _pages():
        return f"no built site in {SITE} (make book)"
    if not AXE.exists():
        return f"axe-core is not installed at {AXE} (make browser-test installs it)"
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, url, theme, width):
    """A page loaded in a fresh context of the given theme and width."""
    w, h = WIDTHS[width]
    ctx = browser.new_context(viewport={"width": w, "height": h},
                              color_scheme=theme)
    if theme == "dark":  # a reader who chose dark: the theme keeps it here
        ctx.add_init_script("localStorage.setItem('mode', 'dark');"
                            "localStorage.setItem('theme', 'dark');")
    page = ctx.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    return page


AXE_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' +
                                   (n.failureSummary || '').split('\\n')[1])
  }));
}"""


def _axe(page):
    page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN, AXE_TAGS)


# What makes a page wider than the phone: elements of the article or the header
# whose right edge passes the window (the off-canvas sidebars are left out).
WIDE_ON_PHONE = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('.bd-article *, .bd-header-article *, footer *')]
    .filter(e => e.getBoundingClientRect().right > width + 1)
    .filter(e => ![...e.querySelectorAll('*')].some(
        c => c.getBoundingClientRect().right > width + 1))
    .filter(e => !e.closest('pre, .highlight, .cell_output, table'))
    .slice(0, 5)
    .map(e => `${e.tagName.toLowerCase()}.${(e.className.baseVal ?? e.className)
      .split(' ')[0]} to ${Math.round(e.getBoundingClientRect().right)}px: ` +
      (e.textContent || '').trim().slice(0, 50));
}"""


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", PAGES)
def test_page_passes_axe_and_fits_the_width(browser, server, name, theme, width):
    """axe-core finds nothing; on the phone the page does not scroll sideways."""
    page = _open(browser, server + name, theme, width)
    try:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        window = page.evaluate("document.documentElement.clientWidth")
        culprits = page.evaluate(WIDE_ON_PHONE) if scroll > window else []
        if width == "phone" and FULL_PAGE_SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = re.sub(r"[^\w.-]+", "_", name.removesuffix(".html"))
            page.screenshot(path=str(SHOTS / f"{shot}-{theme}.png"), full_page=True)
        violations = _axe(page)
    finally:
        page.context.close()
    problems = [f"{v['id']} ({v['impact']}): {v['count']} elements, e.g. "
                + " | ".join(v["nodes"]) for v in violations]
    if scroll > window:
        problems.append(f"{scroll}px wide in a {window}px window: {culprits}")
    assert not problems, f"{name}, {theme}, {width}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", [p for p in PAGES if p.startswith("chapters/")]
                         or PAGES[:1])
def test_figures_are_described(browser, server, name):
    page = _open(browser, server + name, "light", "desktop")
    try:
        # Figures are <img> (myst-nb writes SVG outputs to files too); inline
        # <svg> icons of the theme are aria-hidden and not figures.
        figures = page.evaluate("""() => [...document.querySelectorAll(
            '.cell_output img, .cell_output .output > svg:not([aria-hidden="true"])')]
            .map(e => [e.tagName, e.getAttribute('alt'), e.getAttribute('aria-label')])""")
    finally:
        page.context.close()
    for tag, alt, label in figures:
        text = alt if tag == "IMG" else label
        assert not figure_alt.describes(text), f"{name}: a {tag} figure: {text!r}"


def _html(name):
    return (SITE / name).read_text(encoding="utf-8")


# Where the footer's second paragraph names Keras's authors, by edition.
KERAS_AUTHORS = {"en": "the Keras authors", "zh-CN": "Keras 作者"}


def test_footer_separates_our_licences_from_keras_attribution(server):
    for name in _pages():
        html = _html(name)
        lang = re.search(r'<html lang="([^"]+)"', html).group(1)
        footer = html.split('class="bd-footer-content"', 1)[1]
        assert "© Copyright" not in footer, name
        ours, keras = footer.split(KERAS_AUTHORS[lang], 1)
        assert "Apache License 2.0" in ours and "CC BY 4.0" in ours, name
        assert "/LICENSE" in ours and "/LICENSE-text" in ours, name
        assert "keras-team/keras" in keras and "Apache License 2.0" in keras, name


def test_header_has_repository_issue_and_edit_buttons(server):
    for name in _pages():
        if not re.match(r"(zh_CN/)?chapters/", name):
            continue
        html = _html(name)
        source = "chapters/" + Path(name).stem + ".ipynb"
        if '<html lang="zh-CN"' in html:  # a Chinese page is edited in its catalog
            source = "locales/zh_CN/LC_MESSAGES/chapters/" + Path(name).stem + ".po"
        assert f'href="{REPOSITORY}"' in html, name
        assert f'href="{REPOSITORY}/issues/new?title=' in html, name
        assert f'href="{REPOSITORY}/edit/main/{source}"' in html, name


@pytest.mark.parametrize("front", ["intro.html", "zh_CN/intro.html"])
def test_front_page_links_the_pdf(browser, server, front):
    """Each edition's front page links its PDF (make pdf, make pdf-zh)."""
    if not (SITE / front).exists():
        pytest.skip(f"no {front} in {SITE}")
    links = re.findall(r'href="([^"]+\.pdf)"', _html(front))
    assert links, f"{front} links no PDF"
    folder = Path(front).parent
    for link in links:
        pdf = SITE / folder / link
        if not pdf.exists():
            pytest.skip(f"{folder / link} is not built (make pdf and make pdf-zh "
                        "put the PDFs beside the pages)")
        page = browser.new_page()
        try:
            response = page.request.get(server + (folder / link).as_posix())
            assert response.ok and response.body()[:5] == b"%PDF-"
        finally:
            page.close()


def test_axe_is_the_pinned_release(server):
    package = json.loads((AXE.parent / "package.json").read_text(encoding="utf-8"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    pinned = re.search(r"^AXE_VERSION\s*:?=\s*(\S+)", makefile, re.MULTILINE)
    if pinned and "KERASMINI_AXE" not in os.environ:
        assert package["version"] == pinned.group(1)
