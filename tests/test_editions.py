"""The book's two editions (``make book``): English at the site's root, Chinese
in ``zh_CN/``.

Without a build: the Chinese edition's ``_config.yml`` and ``_toc.yml``
(``tools/edition.py``) are ours with the language and the book's strings
translated from ``book.po``, and refuse a missing translation; ``book.po`` holds
exactly the strings of ``_config.yml`` and ``_toc.yml``; the switcher's links
go to the same page and back, from any folder; a translated build stops without
its notebooks; Chinese search finds Chinese words and refuses to run without
jieba; ``tools/check_book.py`` catches a missing page, a wrong language and an
English notebook on a Chinese page.

After ``make book`` (skipped before): every page links to itself in the other
edition, the Chinese chapters' Colab, Binder, download and edit buttons give
the Chinese notebook and the page's catalog, the English ones are unchanged,
and the Chinese pages' frame (title, captions, footer, buttons, search box)
has no English left.
"""

import doctest
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "_ext"))
import check_book  # noqa: E402
import edition  # noqa: E402
import i18n  # noqa: E402
import kerasmini_editions as editions  # noqa: E402

HTML = ROOT / "_build" / "html"
ZH = HTML / "zh_CN"
CHAPTERS = sorted(p.stem for p in (ROOT / "chapters").glob("*.ipynb"))
REPOSITORY = "https://github.com/kerasmini/kerasmini-book"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _yaml(name):
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))


def _captions(toc):
    return [part["caption"] for part in toc["parts"] if part.get("caption")]


def _without_captions(toc):
    return [[c["file"] for c in part["chapters"]] for part in toc["parts"]]


def test_module_examples():
    result = doctest.testmod(editions, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and not result.failed


# ------------------------------------------------------------- book.po

def test_book_catalog_holds_the_strings_of_config_and_toc():
    config, toc = _yaml("_config.yml"), _yaml("_toc.yml")
    wanted = editions.book_messages(config["title"], config["author"], _captions(toc),
                                    config["html"]["extra_footer"])
    catalog = i18n._read(i18n.catalog_path("book"))
    assert [m.id for m in catalog if m.id] == wanted
    assert len(wanted) == 2 + len(_captions(toc)) + 2  # two footer paragraphs


def test_book_and_interface_catalogs_pass_the_check(capsys):
    assert i18n.check(["book", "sphinx"]) == 0, capsys.readouterr().out
    catalog = {m.id: m.string for m in i18n._read(i18n.catalog_path("sphinx")) if m.id}
    assert all(catalog.get(text) for text in editions.UI_MESSAGES)


# --------------------------------------------------- the zh configuration

def test_zh_config_is_ours_with_the_language_and_the_translations():
    config, toc = edition.edition_files("zh_CN")
    ours, our_toc = _yaml("_config.yml"), _yaml("_toc.yml")
    assert config["sphinx"]["config"]["language"] == "zh_CN"
    assert CJK.search(config["title"]) and CJK.search(config["author"])
    assert len(_captions(toc)) == len(_captions(our_toc))
    assert all(CJK.search(caption) for caption in _captions(toc))
    assert _without_captions(toc) == _without_captions(our_toc)
    assert toc["root"] == our_toc["root"]
    footer, our_footer = config["html"]["extra_footer"], ours["html"]["extra_footer"]
    href = re.compile(r'href="([^"]+)"')
    assert href.findall(footer) == href.findall(our_footer)
    assert CJK.search(footer) and "is under the" not in footer
    for name, folder in config["sphinx"]["local_extensions"].items():
        assert Path(folder).is_absolute() and (Path(folder) / f"{name}.py").is_file()
    # everything else is ours, unchanged
    for key in ("title", "author"):
        config.pop(key), ours.pop(key)
    config["html"].pop("extra_footer"), ours["html"].pop("extra_footer")
    for settings in (config["sphinx"], ours["sphinx"]):
        settings.pop("local_extensions")
        for key in ("language", "latex_elements", "html_search_options"):
            settings["config"].pop(key, None)
    assert config == ours


def test_zh_pdf_sets_cjk_fonts():
    config, _toc = edition.edition_files("zh_CN")
    preamble = config["sphinx"]["config"]["latex_elements"]["preamble"]
    assert r"\setCJKmainfont{Noto Serif CJK SC}" in preamble


def test_zh_config_refuses_a_missing_translation(monkeypatch):
    table = edition.translations("zh_CN")
    table.pop(_yaml("_toc.yml")["parts"][1]["caption"])
    monkeypatch.setattr(edition, "translations", lambda language: table)
    with pytest.raises(SystemExit, match="no translation of 'Modeling'"):
        edition.edition_files("zh_CN")


def test_zh_config_ignores_a_fuzzy_translation(tmp_path, monkeypatch):
    folder = tmp_path / "locales" / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    text = i18n.catalog_path("book").read_text(encoding="utf-8")
    title = _yaml("_config.yml")["title"]
    text = text.replace(f'msgid "{title}"', f'#, fuzzy\nmsgid "{title}"')
    (folder / "book.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(edition, "ROOT", tmp_path)
    assert title not in edition.translations("zh_CN")
    assert len(edition.translations("zh_CN")) >= 8


# ----------------------------------------------------------- the switcher

@pytest.mark.parametrize("base", ["file:///home/reader/site/",
                                  "https://example.org/books/kerasmini/"])
def test_switcher_goes_to_the_same_page_and_back(base):
    pages = ["intro", "teachers", "search", "genindex"]
    pages += [f"chapters/{name}" for name in CHAPTERS]
    for page in pages:
        english = base + page + ".html"
        chinese = urljoin(english, editions.edition_link(page, "en", "zh_CN"))
        assert chinese == base + "zh_CN/" + page + ".html"
        assert urljoin(chinese, editions.edition_link(page, "zh_CN", "en")) == english


# -------------------------------------------- the zh notebooks and search

def _fake_app(tmp_path, language="zh_CN"):
    site_map = {"intro": None, "chapters/00_a": None, "chapters/01_b": None}
    (tmp_path / "intro.md").write_text("# Intro\n", encoding="utf-8")
    (tmp_path / "chapters").mkdir()
    for name in ("00_a", "01_b"):
        (tmp_path / "chapters" / f"{name}.ipynb").write_text("{}", encoding="utf-8")
    config = SimpleNamespace(language=language, locale_dirs=["locales/"],
                             external_site_map=site_map)
    return SimpleNamespace(srcdir=str(tmp_path), config=config,
                           builder=SimpleNamespace(format="html"))


def test_translated_build_stops_without_its_notebooks(tmp_path):
    from sphinx.errors import ExtensionError

    app = _fake_app(tmp_path)
    with pytest.raises(ExtensionError, match=r"locales/zh_CN/chapters/00_a\.ipynb"):
        editions._require_translated_notebooks(app)
    folder = tmp_path / "locales" / "zh_CN" / "chapters"
    folder.mkdir(parents=True)
    (folder / "00_a.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(ExtensionError, match=r"01_b\.ipynb") as caught:
        editions._require_translated_notebooks(app)
    assert "00_a" not in str(caught.value)
    (folder / "01_b.ipynb").write_text("{}", encoding="utf-8")
    editions._require_translated_notebooks(app)  # all there: no error
    (tmp_path / "en").mkdir()
    editions._require_translated_notebooks(_fake_app(tmp_path / "en", "en"))


def test_chinese_search_splits_chinese_words_as_sphinx_does():
    from sphinx.search.zh import SearchChinese

    ours, sphinx = editions.chinese_search()({}), SearchChinese({})
    text = "惰性构建（lazy building）：第一次调用 Layer 时才创建权重 weights"
    words = ours.split(text)
    assert words == sphinx.split(text)
    assert "构建" in words and "权重" in words and "Layer" in words
    assert [ours.stem(w) for w in words] == [sphinx.stem(w) for w in words]
    assert isinstance(ours.latin_terms, set)


def test_chinese_search_refuses_to_index_without_jieba(monkeypatch):
    from sphinx.errors import ExtensionError
    from sphinx.search import zh

    monkeypatch.setattr(zh, "JIEBA", False)
    with pytest.raises(ExtensionError, match="jieba"):
        editions.chinese_search()({})


# ------------------------------------------------------------- check_book

def _site(tmp_path, language, lang, notebook=b"{}"):
    site = tmp_path / "html" / language
    (site / "chapters").mkdir(parents=True)
    for name in ("index.html", "search.html", "searchindex.js"):
        (site / name).write_text("", encoding="utf-8")
    for name in ("intro", "teachers", "chapters/00_a"):
        (site / f"{name}.html").write_text(f'<html lang="{lang}">', encoding="utf-8")
    (site / "_sources" / "chapters").mkdir(parents=True)
    (site / "_sources" / "chapters" / "00_a.ipynb").write_bytes(notebook)
    return site


def test_check_book_catches_what_a_broken_edition_lacks(tmp_path, monkeypatch):
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "00_a.ipynb").write_bytes(b"english")
    (tmp_path / "locales" / "zh_CN" / "chapters").mkdir(parents=True)
    (tmp_path / "locales" / "zh_CN" / "chapters" / "00_a.ipynb").write_bytes(b"chinese")
    good = _site(tmp_path, "zh_CN", "zh-CN", notebook=b"chinese")
    monkeypatch.setattr(check_book, "ROOT", tmp_path)
    monkeypatch.setattr(check_book, "EDITIONS", {"zh_CN": (good, "zh-CN")})
    assert check_book.problems("zh_CN") == []
    (good / "_sources" / "chapters" / "00_a.ipynb").write_bytes(b"english")
    (good / "teachers.html").write_text('<html lang="en">', encoding="utf-8")
    (good / "chapters" / "00_a.html").unlink()
    found = "\n".join(check_book.problems("zh_CN"))
    assert "_sources/chapters/00_a.ipynb is not locales/zh_CN/chapters/00_a.ipynb" in found
    assert "teachers.html: <html lang> is not zh-CN" in found
    assert "missing html/zh_CN/chapters/00_a.html" in found


# ------------------------------------------------------ after make book

built = pytest.mark.skipif(not (ZH / "intro.html").is_file(),
                           reason="the Chinese edition is not built (make book)")


def _pages(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in ("_static", "_sources",
                                                          "_images", "zh_CN")
                  and "http-equiv=\"Refresh\"" not in p.read_text(encoding="utf-8"))


def _hrefs(html):
    return re.findall(r'href="([^"]+)"', html)


@built
def test_every_page_links_to_itself_in_the_other_edition():
    for site, other in ((HTML, ZH), (ZH, HTML)):
        pages = _pages(site)
        assert len(pages) >= len(CHAPTERS) + 4
        for page in pages:
            html = (site / page).read_text(encoding="utf-8")
            links = re.findall(r'class="[^"]*kerasmini-edition-switch[^"]*" '
                               r'href="([^"]+)"', html)
            assert len(links) == 1, page
            target = (site / page).parent / links[0]
            assert target.resolve() == (other / page).resolve(), (page, links[0])
            assert target.is_file(), page


@built
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chinese_chapter_buttons_give_the_chinese_notebook(chapter):
    html = (ZH / "chapters" / f"{chapter}.html").read_text(encoding="utf-8")
    links = _hrefs(html)
    notebook = f"locales/zh_CN/chapters/{chapter}.ipynb"
    catalog = f"locales/zh_CN/LC_MESSAGES/chapters/{chapter}.po"
    colab = "https://colab.research.google.com/github/kerasmini/kerasmini-book/blob/main/"
    binder = "https://mybinder.org/v2/gh/kerasmini/kerasmini-book/main?urlpath=tree/"
    assert colab + notebook in links and binder + notebook in links
    assert f"{REPOSITORY}/edit/main/{catalog}" in links
    assert (ROOT / notebook).is_file() and (ROOT / catalog).is_file()
    assert f"../_sources/chapters/{chapter}.ipynb" in links
    served = ZH / "_sources" / "chapters" / f"{chapter}.ipynb"
    assert served.read_bytes() == (ROOT / notebook).read_bytes()
    assert not any(f"/chapters/{chapter}.ipynb" in link and "locales" not in link
                   for link in links if link.startswith("http"))


@built
@pytest.mark.parametrize("chapter", CHAPTERS[:3])
def test_english_chapter_buttons_are_unchanged(chapter):
    links = _hrefs((HTML / "chapters" / f"{chapter}.html").read_text(encoding="utf-8"))
    assert f"{REPOSITORY}/edit/main/chapters/{chapter}.ipynb" in links
    assert ("https://colab.research.google.com/github/kerasmini/kerasmini-book/blob/"
            f"main/chapters/{chapter}.ipynb") in links
    assert not any("locales/" in link for link in links)


@built
def test_chinese_markdown_pages_offer_their_catalog_not_the_english_source():
    for page in ("intro", "teachers"):
        links = _hrefs((ZH / f"{page}.html").read_text(encoding="utf-8"))
        assert f"{REPOSITORY}/edit/main/locales/zh_CN/LC_MESSAGES/{page}.po" in links
        assert f"_sources/{page}.md" not in links
        assert not any(link.endswith(f"{page}.md") for link in links)


# English the themes, jupyter-book or our configuration would leave on a
# Chinese page's frame (the prose is the catalogs' business).
LEFT_IN_ENGLISH = [
    "Search this book", ">Repository<", "Suggest edit", "Open issue", "Launch on",
    "Toggle primary sidebar", "Toggle secondary sidebar", "Source repositories",
    "Launch interactive content", "Link to this heading", "Color mode",
    "Start here", "Print to PDF", "Click to show", "Click to hide",
]


@built
def test_chinese_frame_has_no_english_left():
    config, toc = edition.edition_files("zh_CN")
    for page in _pages(ZH):
        html = (ZH / page).read_text(encoding="utf-8")
        found = [text for text in LEFT_IN_ENGLISH if text in html]
        assert not found, f"{page}: {found}"
        assert re.search(rf"<title>[^<]* (&#8212;|-) {config['title']}</title>", html), page
        for caption in _captions(toc):
            assert caption in html, (page, caption)
        footer = html.split('class="bd-footer-content', 1)[1]
        assert "The kerasmini authors" not in footer and "is under the" not in footer
        assert config["author"] in footer, page


# ------------------------------------------------- the search's word list

def test_search_words_are_the_books_terms_and_stay_whole():
    import jieba

    words = (ROOT / "locales" / "zh_CN" / edition.SEARCH_WORDS).read_text(
        encoding="utf-8").split()
    assert len(words) == len(set(words)) >= 20
    text = "\n".join(m.string for page in i18n.pages()
                     for m in i18n._read(i18n.catalog_path(page)) if m.id)
    unused = [word for word in words if word not in text]
    assert not unused, f"terms the Chinese edition never uses: {unused}"
    tokenizer = jieba.Tokenizer()
    tokenizer.load_userdict(str(ROOT / "locales" / "zh_CN" / edition.SEARCH_WORDS))
    for word in words:
        assert word in tokenizer.lcut_for_search(f"这里的{word}是"), word
    config, _toc = edition.edition_files("zh_CN")
    assert config["sphinx"]["config"]["html_search_options"]["dict"].endswith(
        "locales/zh_CN/search_words.txt")
