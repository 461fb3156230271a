"""The Chinese edition (``_build/html/zh_CN``) in headless Chromium.

- every Chinese page opens with ``<html lang="zh-CN">``, no console error and
  no missing file, its title, heading, table of contents and search box in
  Chinese, drawn with a CJK font (Chromium's own report of the fonts it used:
  no tofu boxes);
- a Chinese query on the Chinese search page finds the chapter about it;
- the language switcher takes a reader from an English page to the same page in
  Chinese and back, served over HTTP, under a sub-path, and from ``file://``;
- screenshots of three Chinese chapters, light and dark, at 1280 and 390 px, go
  to ``_build/screenshots/zh/`` for a person to look at (the switcher is on
  screen in each).

axe-core and the 390 px width are checked on these pages by
``tests/test_browser_reader.py``, which walks every page of the site, the
Chinese ones included. Run with ``make browser-test``; without Chromium,
Playwright or the built edition every test here skips with a reason.
"""

import functools
import http.server
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
ZH = HTML / "zh_CN"
SHOTS = ROOT / "_build" / "screenshots" / "zh"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
CJK = re.compile(r"[\u4e00-\u9fff]")
SHOT_CHAPTERS = ["03_layer", "07_functional", "12_optimizers_losses_metrics"]
# A term of the book, and the chapter whose title holds it.
QUERIES = [("惰性构建", "04_lazy_building"), ("梯度带", "10_gradients")]

sys.path.insert(0, str(ROOT / "tools"))
import edition  # noqa: E402


def _pages():
    if not ZH.is_dir():
        return []
    pages = []
    for path in sorted(ZH.rglob("*.html")):
        rel = path.relative_to(ZH)
        if rel.parts[0] in ("_static", "_sources", "_images"):
            continue
        if 'http-equiv="Refresh"' in path.read_text(encoding="utf-8"):
            continue
        pages.append(rel.as_posix())
    return pages


PAGES = _pages() or ["(the Chinese edition is not built)"]


def _skip_reason():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make browser-test installs it)"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (make browser-test installs it)"
    if not _pages():
        return "the Chinese edition is not built (make book)"
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(directory):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


@pytest.fixture(scope="module")
def server():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    httpd, url = _serve(HTML)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def zh_config():
    config, toc = edition.edition_files("zh_CN")
    captions = [part["caption"] for part in toc["parts"] if part.get("caption")]
    return config, captions


def _open(browser, url, theme="light", width=1280):
    """A page in a fresh context; with the console errors and failed requests."""
    ctx = browser.new_context(viewport={"width": width, "height": 900 if width > 500
                                        else 844}, color_scheme=theme)
    if theme == "dark":
        ctx.add_init_script("localStorage.setItem('mode', 'dark');"
                            "localStorage.setItem('theme', 'dark');")
    page = ctx.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(
        f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(
        f"{r.status}: {r.url}"))
    page.on("requestfailed", lambda r: r.url.startswith("file:") and errors.append(
        f"failed: {r.url}"))
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    return page, errors


# The page's visible heading (the theme also writes a hidden one for printing),
# marked for _fonts_of.
HEADING_JS = """() => {
  const h1 = [...document.querySelectorAll('.bd-article-container h1')]
    .find(e => e.offsetParent !== null);
  h1.dataset.kerasminiProbe = '';
  return h1.innerText;
}"""


def _fonts_of(page, selector):
    """The font families Chromium drew the text of ``selector`` with."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
    return {f["familyName"]: f["glyphCount"] for f in fonts["fonts"]}


@pytest.mark.parametrize("name", PAGES)
def test_chinese_page_is_chinese(browser, server, zh_config, name):
    config, captions = zh_config
    page, errors = _open(browser, f"{server}zh_CN/{name}")
    try:
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        assert page.title().endswith(config["title"]), page.title()
        shown = page.locator("nav.bd-docs-nav p.caption").all_inner_texts()
        assert [" ".join(c.split()) for c in shown] == captions
        placeholder = page.locator("input[name='q']").first.get_attribute("placeholder")
        assert CJK.search(placeholder or ""), placeholder
        heading = page.evaluate(HEADING_JS)
        assert CJK.search(heading), f"the heading is not translated: {heading!r}"
        fonts = _fonts_of(page, "[data-kerasmini-probe]")
        cjk = {family: n for family, n in fonts.items() if "CJK" in family}
        assert cjk and sum(cjk.values()) > 0, f"no CJK font drew the heading: {fonts}"
        if name.startswith("chapters/"):
            assert page.locator("div.cell_output").count() > 0, "no outputs"
        assert not errors, f"console errors or missing files: {errors}"
    finally:
        page.context.close()


@pytest.mark.parametrize("query, chapter", QUERIES)
def test_chinese_search_finds_the_chapter(browser, server, query, chapter):
    page, errors = _open(browser, f"{server}zh_CN/search.html?q={quote(query)}")
    try:
        page.wait_for_selector("#search-results li", timeout=15000)
        found = page.locator("#search-results li a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))")
        assert any(f"chapters/{chapter}.html" in link for link in found), found
        assert not errors, errors
    finally:
        page.context.close()


def _round_trip(browser, english_url):
    """English page -> its Chinese page -> back; the three URLs and languages."""
    page, errors = _open(browser, english_url)
    try:
        seen = [(page.url, page.evaluate("document.documentElement.lang"))]
        for _ in range(2):
            switch = page.locator("a.kerasmini-edition-switch")
            assert switch.count() == 1 and switch.is_visible()
            with page.expect_navigation():
                switch.click()
            page.wait_for_load_state("load")
            seen.append((page.url, page.evaluate("document.documentElement.lang")))
        assert not errors, errors
        return seen
    finally:
        page.context.close()


def _expected(base, name):
    return [(base + name, "en"), (base + "zh_CN/" + name, "zh-CN"), (base + name, "en")]


@pytest.mark.parametrize("name", ["chapters/03_layer.html", "intro.html",
                                  "search.html"])
def test_switcher_round_trip_over_http(browser, server, name):
    assert _round_trip(browser, server + name) == _expected(server, name)


def test_switcher_round_trip_under_a_sub_path(browser, server, tmp_path):
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "kerasmini").symlink_to(HTML, target_is_directory=True)
    httpd, url = _serve(tmp_path)
    try:
        base = url + "books/kerasmini/"
        name = "chapters/07_functional.html"
        assert _round_trip(browser, base + name) == _expected(base, name)
    finally:
        httpd.shutdown()


def test_switcher_round_trip_from_files(browser, server):
    base = HTML.as_uri() + "/"
    name = "chapters/12_optimizers_losses_metrics.html"
    assert _round_trip(browser, base + name) == _expected(base, name)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("chapter", SHOT_CHAPTERS)
def test_chinese_chapter_screenshots(browser, server, chapter, theme, width):
    """The top of the page and its first exercise, for a person to look at."""
    page, errors = _open(browser, f"{server}zh_CN/chapters/{chapter}.html",
                         theme, width)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        stem = f"{chapter}-{theme}-{width}"
        page.screenshot(path=str(SHOTS / f"{stem}.png"))
        switch = page.locator("a.kerasmini-edition-switch").bounding_box()
        assert switch and 0 <= switch["x"] and switch["x"] + switch["width"] <= width
        assert page.locator("a.kerasmini-edition-switch").inner_text().strip() == "English"
        exercise = page.locator("article .exercise").first
        if exercise.count():
            exercise.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"{stem}-exercise.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not errors, errors
    finally:
        page.context.close()
