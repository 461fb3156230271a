"""The Chinese edition stays complete and in step with the English book.

- every catalog in locales/zh_CN/LC_MESSAGES/ is translated, nothing fuzzy,
  and each translation keeps its message's code spans, roles, link targets,
  math and tags, and is one Markdown paragraph (tools/i18n.py ``problems``);
- the catalogs hold exactly the messages Sphinx extracts from the book today;
- the Chinese notebooks (locales/zh_CN/chapters/) are what
  ``tools/i18n.py notebooks`` writes, their code, outputs and metadata are the
  English ones, their Markdown has the English structure, and Sphinx reads
  from them exactly the translations of the English messages.

Two gettext builds (the book, and the book with the Chinese notebooks in
place of the chapters) run side by side once per session, about 10 s.
"""

import copy
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402
import i18n_markdown  # noqa: E402
import i18n_notebooks  # noqa: E402

PAGES = i18n.pages()
CHAPTERS = i18n_notebooks.chapters()


def messages(path):
    from babel.messages.pofile import read_po

    with Path(path).open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


# --------------------------------------------------------------------------
# (a) The catalogs are complete, not fuzzy, and keep their markup.

@pytest.mark.parametrize("page", PAGES)
def test_catalog_is_translated_without_fuzzy_and_keeps_markup(page):
    found = []
    for number, message in enumerate(messages(i18n.catalog_path(page)), 1):
        problems = i18n.problems(message.id, message.string)
        if message.fuzzy:
            problems.append("fuzzy")
        found += [f"{page} @@ {number}: {p}: {message.id[:80]!r}" for p in problems]
    assert not found, "\n".join(found)


def test_every_page_of_the_book_has_a_catalog():
    # book: the strings of _config.yml and _toc.yml (_ext/kerasmini_editions.py)
    expected = {"intro", "teachers", "sphinx", "book"}
    expected |= {f"chapters/{c.stem}" for c in CHAPTERS}
    assert set(PAGES) == expected


# --------------------------------------------------------------------------
# (b) Extraction is current: the catalogs hold what the book says today.

def _zh_source_tree(tmp):
    """The book with the Chinese notebooks in place of the chapters."""
    tree = tmp / "zh-book"
    tree.mkdir()
    for entry in ROOT.iterdir():
        if entry.name.startswith(".") or entry.name in ("_build", "chapters"):
            continue
        (tree / entry.name).symlink_to(entry)
    (tree / "chapters").mkdir()
    for notebook in i18n_notebooks.NOTEBOOKS.glob("*.ipynb"):
        (tree / "chapters" / notebook.name).symlink_to(notebook)
    return tree


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """``(English .pot folder, .pot folder of the book with the zh notebooks)``."""
    tmp = tmp_path_factory.mktemp("gettext")
    tree = _zh_source_tree(tmp)
    with ThreadPoolExecutor(2) as pool:
        english = pool.submit(i18n.extract, tmp / "en")
        chinese = pool.submit(i18n.extract, tmp / "zh", tree)
        return english.result(), chinese.result()


def test_extraction_gives_one_template_per_catalog(templates):
    english, _ = templates
    pots = sorted(str(p.relative_to(english))[:-4] for p in english.rglob("*.pot"))
    assert pots == PAGES


@pytest.mark.parametrize("page", PAGES)
def test_catalog_holds_exactly_the_extracted_messages(templates, page):
    english, _ = templates
    extracted = {m.id for m in messages(english / f"{page}.pot")}
    catalog = {m.id for m in messages(i18n.catalog_path(page))}
    new, gone = sorted(extracted - catalog), sorted(catalog - extracted)
    assert not new, f"new messages (run tools/i18n.py update): {new[:5]}"
    assert not gone, f"messages gone (run tools/i18n.py update): {gone[:5]}"


# --------------------------------------------------------------------------
# (c) The Chinese notebooks are in step with the English ones.

def test_zh_notebooks_are_what_the_generator_writes():
    texts = i18n_notebooks.render_all()
    committed = sorted(i18n_notebooks.NOTEBOOKS.glob("*.ipynb"))
    assert committed == sorted(texts), "run tools/i18n.py notebooks"
    stale = [p.name for p, text in texts.items()
             if p.read_text(encoding="utf-8") != text]
    assert not stale, f"not in step: {stale}; run tools/i18n.py notebooks"


def _without_alt(cell):
    cell = copy.deepcopy(cell)
    image = cell.get("metadata", {}).get("mystnb", {}).get("image", {})
    image.pop("alt", None)
    return cell


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_zh_notebook_has_the_english_code_outputs_and_metadata(chapter):
    english = i18n_notebooks.load(chapter)
    chinese = i18n_notebooks.load(i18n_notebooks.target(chapter))
    assert {k: v for k, v in chinese.items() if k != "cells"} == {
        k: v for k, v in english.items() if k != "cells"}
    assert len(chinese["cells"]) == len(english["cells"])
    for en, zh in zip(english["cells"], chinese["cells"]):
        where = f"{chapter.stem}, cell {en.get('id')}"
        if en["cell_type"] == "code":
            assert _without_alt(zh) == _without_alt(en), where
            assert (i18n_notebooks._alt(zh) is None) == (i18n_notebooks._alt(en) is None)
        else:
            assert {k: v for k, v in zh.items() if k != "source"} == {
                k: v for k, v in en.items() if k != "source"}, where
            assert i18n_notebooks.cell_skeleton(zh) == i18n_notebooks.cell_skeleton(en), where


def test_zh_notebooks_carry_the_translated_alt_texts():
    for chapter in CHAPTERS:
        table = i18n_notebooks.translations(f"chapters/{chapter.stem}")
        english = i18n_notebooks.load(chapter)["cells"]
        chinese = i18n_notebooks.load(i18n_notebooks.target(chapter))["cells"]
        for en, zh in zip(english, chinese):
            if i18n_notebooks._alt(en):
                assert i18n_notebooks._alt(zh) == table[i18n_notebooks._alt(en)]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_sphinx_reads_the_translations_from_the_zh_notebook(templates, chapter):
    # Sphinx extracts from the Chinese notebook the translation of every
    # message of the English page, and nothing else, except the messages of
    # the code cells' Markdown outputs (the parity notes): outputs are the
    # English notebook's, so those come back as they are.
    english, chinese = templates
    page = f"chapters/{chapter.stem}"
    table = i18n_notebooks.translations(page)
    got = {m.id for m in messages(chinese / f"{page}.pot")}
    outputs = [text for cell in i18n_notebooks.load(chapter)["cells"]
               for text in _markdown_outputs(cell)]
    lost, allowed = [], set()
    for message in messages(english / f"{page}.pot"):
        translated = i18n_markdown.unescape_heading(table.get(message.id, ""))
        in_output = any(message.id in text for text in outputs)
        allowed |= {translated, message.id} if in_output else {translated}
        if translated not in got and not (in_output and message.id in got):
            lost.append(message.id)
    assert not lost, f"not read back translated: {lost[:5]}"
    assert got <= allowed, f"read but not a translation: {sorted(got - allowed)[:5]}"


def _markdown_outputs(cell):
    for output in cell.get("outputs", []):
        text = output.get("data", {}).get("text/markdown")
        if text:
            yield " ".join("".join(text).split())


# --------------------------------------------------------------------------
# (d) The checks refuse what they guard against.

@pytest.mark.parametrize("msgid, msgstr, phrase", [
    ("`Layer` keeps `_trainable_weights`.", "`Layer` 保存可训练权重。", "markup changed"),
    ("See {ref}`ch03-add-weight` and [the guide](https://keras.io).",
     "见 {ref}`ch03-add-weight` 和[指南](https://keras.io/)。", "markup changed"),
    ("The loss is $-\\sum t \\log p$.", "损失是 -sum t log p。", "markup changed"),
    ("The layer builds once.", "The layer builds once.", "left in English"),
    ("The layer builds once.", "", "untranslated"),
    ("3. Layer: `build`", "3. 层：`build`", "numbered heading"),
    ("3. Layer: `build`", "三、层：`build`", "numbered heading"),
    ("Layers in a list", "- 列表中的层", "not one paragraph"),
    ("A heading-like line", "# 标题", "not one paragraph"),
])
def test_problems_refuses(msgid, msgstr, phrase):
    assert any(phrase in p for p in i18n.problems(msgid, msgstr)), (
        i18n.problems(msgid, msgstr))


@pytest.mark.parametrize("msgid, msgstr", [
    ("3. Layer: `build`", "3\\. 层：`build`"),
    ("`Layer` keeps `_trainable_weights`.", "`Layer` 保存 `_trainable_weights`。"),
    ("-", "-"),  # the same text: Sphinx keeps the source
])
def test_problems_accepts(msgid, msgstr):
    assert i18n.problems(msgid, msgstr) == []


SAMPLE = """\
# 3. A chapter

(ch-label)=
Two lines of
prose, joined

- first item
  wrapped
- second `item`

| Name | What |
|---|---|
| `a \\| b` | an alternative |
|  | empty cell |

$$
x^2
$$

::::{exercise} Count `it`
:label: ch00-count

Write `f`.

- a step
  - a sub step
::::
```python
print("code stays")
```"""

SAMPLE_ZH = {
    "3. A chapter": "3\\. 一章",
    "Two lines of prose, joined": "两行文字，合为一行",
    "first item wrapped": "第一项",
    "second `item`": "第二项 `item`",
    "Name": "名字", "What": "含义",
    "`a | b`": "`a | b`",
    "an alternative": "二选一", "empty cell": "空单元格",
    "Count `it`": "数一数 `it`",
    "Write `f`.": "编写 `f`。",
    "a step": "一步", "a sub step": "一小步",
}


def test_translate_replaces_each_span_and_keeps_the_structure():
    out = i18n_markdown.translate(SAMPLE, SAMPLE_ZH.get, "sample")
    assert out == """\
# 3. 一章

(ch-label)=
两行文字，合为一行

- 第一项
- 第二项 `item`

| 名字 | 含义 |
|---|---|
| `a \\| b` | 二选一 |
|  | 空单元格 |

$$
x^2
$$

::::{exercise} 数一数 `it`
:label: ch00-count

编写 `f`。

- 一步
  - 一小步
::::
```python
print("code stays")
```"""
    assert i18n_markdown.skeleton(out) == i18n_markdown.skeleton(SAMPLE)


def test_translate_names_every_span_without_translation():
    table = dict(SAMPLE_ZH)
    del table["second `item`"], table["Write `f`."]
    with pytest.raises(i18n_markdown.NotTranslated) as caught:
        i18n_markdown.translate(SAMPLE, table.get, "chapters/99_sample")
    message = str(caught.value)
    assert "chapters/99_sample" in message
    assert "second `item`" in message and "Write `f`." in message


def test_translate_notebook_refuses_an_untranslated_alt_text():
    chapter = ROOT / "chapters" / "00_getting_started.ipynb"
    table = dict(i18n_notebooks.translations("chapters/00_getting_started"))
    nb = i18n_notebooks.load(chapter)
    alt = next(i18n_notebooks._alt(c) for c in nb["cells"] if i18n_notebooks._alt(c))
    del table[alt]
    with pytest.raises(i18n_markdown.NotTranslated, match="alt text"):
        i18n_notebooks.translate_notebook(nb, table.get, "chapters/00_getting_started")


def test_skeleton_sees_a_lost_list_marker_or_fence_option():
    base = "- one\n- two\n\n````{exercise} T\n:label: x\n\nBody.\n````"
    same = "- 一\n- 二\n\n````{exercise} 题\n:label: x\n\n正文。\n````"
    assert i18n_markdown.skeleton(base) == i18n_markdown.skeleton(same)
    assert i18n_markdown.skeleton(base) != i18n_markdown.skeleton(
        "- one\n二\n\n````{exercise} T\n:label: x\n\nBody.\n````")
    assert i18n_markdown.skeleton(base) != i18n_markdown.skeleton(
        "- one\n- two\n\n````{exercise} T\n:label: y\n\nBody.\n````")


def test_zh_notebooks_are_valid_json_notebooks():
    for path in i18n_notebooks.NOTEBOOKS.glob("*.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["nbformat"] == 4 and nb["cells"]
