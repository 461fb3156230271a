"""The built website in a real browser (headless Debian Chromium via Playwright).

Run with ``make browser-test``: it installs Chromium and Playwright and builds the
book first. Without Chromium, Playwright or ``_build/html`` every test here skips
with a one-line reason, so ``make test`` passes on a machine without a browser.
Screenshots of every chapter, light and dark, go to ``_build/screenshots/``.
"""

import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import quote, urldefrag, urljoin, urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
# Whole-page screenshots are for a person to look at (about 2 s of Chromium's
# CPU each for a long chapter); CI, where nobody does, turns them off with
# KERASMINI_FULL_PAGE_SHOTS=0.
FULL_PAGE_SHOTS = os.environ.get("KERASMINI_FULL_PAGE_SHOTS", "1") != "0"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHAPTERS = sorted(p.stem for p in (ROOT / "chapters").glob("*.ipynb"))
THEMES = ["light", "dark"]
# Flags this machine needs: no sandbox as root, no calls to Google's servers.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
# Everything that must fit the text column at 1280 px with both sidebars open:
# code cells, outputs, show_source listings, Markdown code blocks and tables,
# figures. A block is too wide when it scrolls sideways or sticks out of the
# column (a table wider than its column does not scroll itself).
BLOCKS = "article pre, article table, article div.kerasmini-highlight, " \
         "article div.cell_output svg, article div.cell_output img"
WIDE_JS = """(sel) => {
  const column = document.querySelector('article.bd-article')
    .getBoundingClientRect();
  const cells = [...document.querySelectorAll('.cell')];
  return [...document.querySelectorAll(sel)]
    .filter(e => e.offsetParent !== null || e.tagName === 'svg')
    .filter(e => e.scrollWidth > e.clientWidth + 1 ||
                 e.getBoundingClientRect().right > column.right + 1)
    .map(e => {
      const where = e.closest('.cell') ?
        `cell ${cells.indexOf(e.closest('.cell'))}` : 'text';
      const kind = e.closest('.cell_input') ? 'code' : 'output';
      const cls = (e.className.baseVal ?? e.className).split(' ')[0];
      const text = (e.textContent || '').trim().split('\\n')[0].slice(0, 40);
      return `${where} ${kind} ${e.tagName.toLowerCase()}.${cls}: ` +
        `${Math.max(e.scrollWidth, Math.round(e.getBoundingClientRect().width))}` +
        `px in ${Math.round(column.width)}px (${text})`;
    });
}"""


def _skip_reason():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make browser-test installs it)"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (make browser-test installs it)"
    if not (HTML / "index.html").exists() and not (HTML / "intro.html").exists():
        return "the book is not built (make book)"
    return None


@pytest.fixture(scope="module")
def server():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    SHOTS.mkdir(parents=True, exist_ok=True)
    if "PYTEST_XDIST_WORKER" not in os.environ:  # this run's list only (make
        (SHOTS / "overflow.txt").unlink(missing_ok=True)  # browser-test: rm -f)
    handler = functools.partial(_QuietHandler, directory=str(HTML))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, url, theme):
    """Load a page in a fresh context; return it with its console errors."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              color_scheme=theme)
    # Light is a first visit (nothing stored; the system is light); dark is a
    # reader who chose it, which the theme keeps in localStorage.
    if theme == "dark":
        ctx.add_init_script("localStorage.setItem('mode', 'dark');"
                            "localStorage.setItem('theme', 'dark');")
    page = ctx.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(
        f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("response", lambda r: r.status >= 400 and r.url.startswith("http://127")
            and errors.append(f"{r.status}: {r.url}"))
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    return page, errors


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_page(browser, server, chapter, theme):
    page, errors = _open(browser, f"{server}chapters/{chapter}.html", theme)
    try:
        if FULL_PAGE_SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{chapter}-{theme}.png"), full_page=True)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert page.locator("div.cell_output").count() > 0, "no executed outputs"
        sizes = page.evaluate("""() => [...document.querySelectorAll(
            'div.cell_output svg, div.cell_output img')].map(e => {
              const r = e.getBoundingClientRect();
              return [e.tagName, r.width, r.height,
                      e.tagName === 'IMG' ? e.naturalWidth : 1];
            })""")
        broken = [s for s in sizes if min(s[1], s[2], s[3]) <= 0]
        assert not broken, f"figures that did not render: {broken}"
        wide = page.evaluate(WIDE_JS, BLOCKS)
        if wide and theme == "light":
            with open(SHOTS / "overflow.txt", "a", encoding="utf-8") as f:
                f.writelines(f"{chapter}: {w}\n" for w in wide)
        assert not errors, f"console errors: {errors}"
        assert not wide, f"{len(wide)} blocks wider than the column: {wide}"
    finally:
        page.context.close()


def test_folded_solution_opens(browser, server):
    for chapter in CHAPTERS:
        page, _ = _open(browser, f"{server}chapters/{chapter}.html", "light")
        # sphinx-togglebutton adds the button and hides the body when the page loads.
        toggles = page.locator(".solution.dropdown .toggle-button")
        if toggles.count():
            body = page.locator(".solution.dropdown").first.locator(
                ":scope > :not(.admonition-title)").first
            assert not body.is_visible()
            toggles.first.click()
            page.wait_for_timeout(300)
            assert body.is_visible(), f"{chapter}: the solution did not open"
            page.context.close()
            return
        page.context.close()
    pytest.fail("no folded solution found on any chapter page")


def test_search_finds_layer(browser, server):
    page, errors = _open(browser, f"{server}search.html?q=Layer", "light")
    try:
        page.wait_for_selector("#search-results li", timeout=15000)
        assert page.locator("#search-results li").count() > 0
    finally:
        page.context.close()


def test_internal_links_resolve(server):
    import urllib.error
    import urllib.request
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.links = []

        def handle_starttag(self, tag, attrs):
            for name, value in attrs:
                if name in ("href", "src") and value:
                    self.links.append(value)

    seen, missing = set(), []
    # The book's pages; _static/ holds the theme's Jinja macro files, not pages.
    pages = [p for p in sorted(HTML.rglob("*.html")) if "_static" not in p.parts]
    for path in pages:
        url = urljoin(server, path.relative_to(HTML).as_posix())
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        for link in parser.links:
            target = urldefrag(urljoin(url, link)).url
            if urlparse(target).netloc != urlparse(server).netloc or target in seen:
                continue
            built = HTML / urlparse(target).path.lstrip("/")
            if target.endswith(".pdf") and not built.exists():
                continue  # make pdf (pdf-zh) puts the PDF beside the pages, not make book
            seen.add(target)
            try:
                safe = quote(target, safe=":/?&=%;+,@")  # spaces etc. in links
                urllib.request.urlopen(safe, timeout=10).close()
            except urllib.error.HTTPError as err:
                missing.append(f"{path.name} -> {link}: {err.code}")
    assert seen, "no internal links found"
    assert not missing, f"broken internal links: {missing}"


# --------------------------------------------------------------------------
# Keras's own lines (_ext/keras_lines.py): every pinned range a chapter links
# is shown on its page, in a tab or a fold, starting at the def/class it names.

KERAS_BLOCKS_JS = """() => [...document.querySelectorAll('article .kerasmini-keras')].map(
  b => b.dataset.kerasRef)"""
KERAS_LINKS_JS = """() => [...document.querySelectorAll('article a[href]')]
  .map(a => a.href).filter(h => h.startsWith(
    'https://github.com/keras-team/keras/blob/'))"""


def _first_code_line(block):
    """The def/class line a listing opens with, past its decorators (if any)."""
    lines = [line.lstrip().lstrip("0123456789").strip()
             for line in block.locator("pre").inner_text().splitlines()]
    if lines and lines[0].startswith("@"):  # decorators may span lines
        return next((line for line in lines
                     if re.match(r"(async )?(def|class) ", line)), "")
    return lines[0] if lines else ""


@pytest.mark.parametrize("chapter", [c for c in CHAPTERS if c[:2] != "00"])
def test_chapter_shows_keras_lines_of_its_links(browser, server, chapter):
    from kerasmini.book.keras_excerpts import KERAS_EXCERPTS
    from kerasmini.book.keras_lines import pinned_ref, pinned_symbol

    page, errors = _open(browser, f"{server}chapters/{chapter}.html", "light")
    try:
        linked = {pinned_ref(url) for url in page.evaluate(KERAS_LINKS_JS)} - {None}
        shown = page.evaluate(KERAS_BLOCKS_JS)
        keys = {f"{r.tag} {r.path} {r.start} {r.end}": r for r in linked}
        missing = sorted(set(keys) - set(shown))
        assert not missing, f"linked ranges without their lines: {missing}"
        contains = {(e.ref.tag, e.ref.path, e.ref.start): e.contains
                    for e in KERAS_EXCERPTS.values()}
        blocks = page.locator("article .kerasmini-keras")
        for index in range(blocks.count()):
            block = blocks.nth(index)
            panel = block.locator("xpath=ancestor::div[@class='kerasmini-tab-panel']")
            if panel.count():  # a tab: click its label first
                panel.locator("xpath=preceding-sibling::label[1]").click()
            fold = block.locator("xpath=ancestor::details")
            if fold.count():
                assert fold.get_attribute("open") is not None, "a fold is closed"
            assert block.is_visible(), f"{block.get_attribute('data-keras-ref')}"
            tag, path, start, end = block.get_attribute("data-keras-ref").split()
            ref = keys.get(f"{tag} {path} {start} {end}")
            numbers = [int(n) for n in block.locator(".linenos").all_inner_texts()]
            assert numbers == list(range(int(start), int(end) + 1)), path
            symbol = pinned_symbol(ref) if ref else ""
            if symbol:
                name = symbol.rsplit(".", 1)[-1]
                first = _first_code_line(block)
                assert re.match(rf"(async )?(def|class) {re.escape(name)}\b", first), (
                    f"{path}#L{start}: expected def/class {name}, got {first!r}")
            else:
                text = block.locator("pre").inner_text()
                assert contains[(tag, path, int(start))] in text, path
        assert not errors, f"console errors: {errors}"
    finally:
        page.context.close()


def test_keras_lines_fit_a_phone(browser, server):
    """At 390 px no chapter scrolls sideways, Keras's lines included."""
    shots = {}
    for theme in THEMES:
        ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                  color_scheme=theme, device_scale_factor=2)
        if theme == "dark":
            ctx.add_init_script("localStorage.setItem('mode', 'dark');"
                                "localStorage.setItem('theme', 'dark');")
        shots[theme] = ctx
    page = shots["light"].new_page()
    try:
        wide = []
        for chapter in CHAPTERS:  # widths do not depend on the theme
            page.goto(f"{server}chapters/{chapter}.html", wait_until="load")
            for label in page.locator("article .kerasmini-tabs > label").all():
                if label.inner_text().startswith("Keras"):
                    label.click()
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide.append(f"{chapter}: {width}px")
        SHOTS.mkdir(parents=True, exist_ok=True)
        for theme, ctx in shots.items():
            shot = page if theme == "light" else ctx.new_page()
            shot.goto(f"{server}chapters/03_layer.html", wait_until="load")
            block = shot.locator("article .kerasmini-tabs").nth(4)
            block.locator("label").first.click()
            block.scroll_into_view_if_needed()
            shot.screenshot(path=str(SHOTS / f"keras-lines-03-390px-{theme}.png"))
        assert not wide, f"pages wider than a 390 px phone: {wide}"
    finally:
        for ctx in shots.values():
            ctx.close()


@pytest.mark.parametrize("theme", THEMES)
def test_keras_lines_screenshots(browser, server, theme):
    """A Keras tab and a fold of chapter 3, for a person to look at."""
    page, errors = _open(browser, f"{server}chapters/03_layer.html", theme)
    try:
        tabs = page.locator("article .kerasmini-tabs:has(.kerasmini-source)").first
        tabs.locator("label").first.click()
        tabs.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"keras-lines-03-tab-{theme}.png"))
        fold = page.locator("article details.kerasmini-keras-fold").first
        fold.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"keras-lines-03-fold-{theme}.png"))
        assert not errors, f"console errors: {errors}"
    finally:
        page.context.close()
