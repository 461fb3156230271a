"""The Chinese edition's message catalogs: extract, update, fill and check them.

The book is translated the way Sphinx projects are (the Python documentation,
for one): Sphinx's ``gettext`` builder extracts every translatable paragraph,
heading and list item of the book into one ``.pot`` template per page
(``gettext_compact: false``), ``sphinx-intl`` keeps one ``.po`` catalog per page
in ``locales/zh_CN/LC_MESSAGES/`` in step with them, and a second build with
``language: zh_CN`` reads the translations. Code cells and their outputs are
not extracted: they stay single-sourced.

    python tools/i18n.py extract [DIR]    # .pot templates into DIR (_build/gettext)
    python tools/i18n.py update           # extract, then sphinx-intl update locales/
    python tools/i18n.py todo PAGE        # PAGE's untranslated or fuzzy messages, numbered
    python tools/i18n.py fill PAGE FILE   # translations from FILE into PAGE's catalog
    python tools/i18n.py check [PAGE ...] # complete, not fuzzy, markup kept (exit 1 if not)
    python tools/i18n.py notebooks [--check]  # locales/zh_CN/chapters/*.ipynb

PAGE is a docname: ``intro``, ``teachers``, ``chapters/03_layer``, ``sphinx``
(the strings of ``_templates/``). FILE holds blocks, each starting with a line
``@@ N`` (N from ``todo``) followed by the translation, e.g.::

    @@ 3
    `Layer` 是一个带着约定的 `Module`……

``fill`` refuses a translation that changes the message's code spans, roles,
links or math (see ``markup``), or that Sphinx would not read as one paragraph
(``i18n_markdown.block_problem``: a chapter title ``3. 层`` must be written
``3\\. 层``), and writes nothing then. Once a chapter's catalog is complete,
``fill`` writes its Chinese notebook (``i18n_notebooks``): the English
notebook with its prose and figures' alt texts translated, for the Chinese
pages' download, Colab and Binder buttons. ``update`` writes them all when
nothing is left to translate.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import i18n_notebooks  # noqa: E402
from i18n_markdown import block_problem  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = "zh_CN"
LOCALES = ROOT / "locales"
CATALOGS = LOCALES / LANGUAGE / "LC_MESSAGES"
BIN = Path(sys.executable).parent

# What a translation must carry over unchanged (as a multiset): inline code,
# MyST roles with their targets, link targets, inline and display math,
# substitutions and HTML tags. The words around them are the translator's.
_MARKUP = [
    re.compile(r"\{[\w:.-]+\}`[^`]*`"),          # {role}`target`
    re.compile(r"(?<![`{}\w])(`+)(?!`)(.+?)(?<!`)\1(?!`)"),  # `code`, ``code``
    re.compile(r"\]\(([^)\s]*)\)"),               # [text](target): the target
    re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\s][^$]*?\$"),  # math
    re.compile(r"\{\{[^}]*\}\}"),                 # {{ substitution }}
    re.compile(r"</?[a-zA-Z][^>]*>"),             # <tag>
]
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def markup(text: str) -> Counter:
    """The code spans, roles, link targets, math and tags of ``text``, counted."""
    found: Counter = Counter()
    rest = text
    for pattern in _MARKUP:
        for match in pattern.finditer(rest):
            found[match.group(0) if pattern is not _MARKUP[2]
                  else "](" + match.group(1) + ")"] += 1
        rest = pattern.sub(" ", rest)
    return found


# Names that stay as they are in Chinese text: a message made only of them and
# of markup (a tab label "Keras 2 (v2.6.0)", a table cell "kerasmini") has
# nothing to translate.
NAMES = re.compile(
    r"\b(?:Keras|kerasmini|TensorFlow|NumPy|JAX|PyTorch|nbgrader|Jupyter(?:Lab)?"
    r"|Colab|Binder|Sphinx|HDF5|SavedModel|Python|GitHub|API|CPU|GPU|JSON|PDF"
    r"|v\d+(?:\.\d+)*|n/a)\b")


def _prose(text: str) -> str:
    """``text`` without its markup: the words a reader reads as prose."""
    for pattern in _MARKUP:
        text = pattern.sub(" ", text)
    text = re.sub(r"\[([^\]]*)\]", r"\1", text)
    return text


def needs_words(msgid: str) -> bool:
    """Whether a message has English words to translate (not only markup)."""
    return bool(re.search(r"[A-Za-z]{2,}", NAMES.sub(" ", _prose(msgid))))


def problems(msgid: str, msgstr: str) -> list[str]:
    """What is wrong with one translation (empty when it is fine)."""
    if not msgstr:
        return ["untranslated"]
    found = []
    want, got = markup(msgid), markup(msgstr)
    if want != got:
        lost = sorted((want - got).elements())
        added = sorted((got - want).elements())
        found.append(f"markup changed: lost {lost}, added {added}")
    if needs_words(msgid) and not _CJK.search(_prose(msgstr)):
        found.append("no Chinese outside the markup (left in English?)")
    block = block_problem(msgid, msgstr)
    if block:
        found.append(block)
    return found


def _read(path: Path):
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle, locale=LANGUAGE)


def _write(path: Path, catalog) -> None:
    from babel.messages.pofile import write_po

    tmp = path.with_suffix(".po.tmp")
    with tmp.open("wb") as handle:
        write_po(handle, catalog, width=76, omit_header=False,
                 include_previous=False, sort_output=False)
    tmp.replace(path)


def catalog_path(page: str) -> Path:
    return CATALOGS / f"{page}.po"


def pages() -> list[str]:
    return sorted(str(p.relative_to(CATALOGS))[:-3] for p in CATALOGS.rglob("*.po"))


def extract(out: Path | None = None, source: Path = ROOT) -> Path:
    """Build the ``.pot`` templates of the book in ``source``; return the
    folder holding them."""
    out = Path(out) if out else ROOT / "_build" / "gettext-src"
    subprocess.run(
        [str(BIN / "jupyter-book"), "build", str(source), "--builder", "custom",
         "--custom-builder", "gettext", "--path-output", str(out), "-W", "-n",
         "--keep-going", "--quiet"],
        check=True, cwd=source)
    return out / "_build" / "gettext"


def update() -> None:
    """Extract, then bring every catalog in step (sphinx-intl update)."""
    pot = extract()
    subprocess.run(
        [str(BIN / "sphinx-intl"), "update", "-p", str(pot), "-l", LANGUAGE,
         "-d", str(LOCALES), "-w", "76"],
        check=True, cwd=ROOT)
    # sphinx-intl leaves catalogs of pages that are gone; remove them.
    wanted = {str(p.relative_to(pot))[:-4] for p in pot.rglob("*.pot")}
    for page in pages():
        if page not in wanted:
            catalog_path(page).unlink()
            print(f"removed {catalog_path(page).relative_to(ROOT)} (page gone)")
            continue
        # A message of markup and names only reads the same in Chinese.
        catalog = _read(catalog_path(page))
        same = [m for m in _numbered(catalog)
                if not m.string and not needs_words(m.id)]
        for message in same:
            message.string = message.id
        if same:
            _write(catalog_path(page), catalog)
    left = [page for page in pages() if page != "sphinx" and _left(page)]
    if left:
        print("to translate (tools/i18n.py todo PAGE, then fill; fill writes "
              "the page's Chinese notebook once it is complete): "
              + ", ".join(left))
    else:
        notebooks([])


def _numbered(catalog):
    return [m for m in catalog if m.id]


def _left(page: str) -> int:
    """How many messages of ``page`` are untranslated or fuzzy."""
    return sum(1 for m in _numbered(_read(catalog_path(page)))
               if not m.string or m.fuzzy)


def todo(page: str) -> int:
    catalog = _read(catalog_path(page))
    for number, message in enumerate(_numbered(catalog), 1):
        if not message.string or message.fuzzy:
            print(f"@@ {number}")
            print(message.id)
            if message.string:
                print(f"(fuzzy, was: {message.string})")
            print()
    return 0


def fill(page: str, source: Path) -> int:
    path = catalog_path(page)
    catalog = _read(path)
    messages = _numbered(catalog)
    text = Path(source).read_text(encoding="utf-8")
    blocks = re.split(r"^@@ (\d+)[ \t]*\n", text, flags=re.M)
    bad = []
    updates = {}
    for number, body in zip(blocks[1::2], blocks[2::2]):
        index = int(number) - 1
        if not 0 <= index < len(messages):
            bad.append(f"@@ {number}: no such message (1..{len(messages)})")
            continue
        translation = body.strip("\n")
        message = messages[index]
        for problem in problems(message.id, translation):
            bad.append(f"@@ {number}: {problem}\n   msgid: {message.id[:200]}")
        updates[index] = translation
    if bad:
        print("\n".join(bad), file=sys.stderr)
        print(f"nothing written to {path.relative_to(ROOT)}", file=sys.stderr)
        return 1
    for index, translation in updates.items():
        messages[index].string = translation
        messages[index].flags.discard("fuzzy")
    _write(path, catalog)
    left = sum(1 for m in messages if not m.string or m.fuzzy)
    print(f"{path.relative_to(ROOT)}: {len(updates)} filled, {left} left")
    chapter = ROOT / f"{page}.ipynb"
    if not left and chapter.parent.name == "chapters" and chapter.exists():
        for written in i18n_notebooks.write([chapter]):
            print(f"wrote {written.relative_to(ROOT)}")
    return 0


def check(selected: list[str]) -> int:
    failures = 0
    for page in selected or pages():
        catalog = _read(catalog_path(page))
        for number, message in enumerate(_numbered(catalog), 1):
            found = problems(message.id, message.string)
            if message.fuzzy:
                found.append("fuzzy")
            for problem in found:
                failures += 1
                print(f"{page} @@ {number}: {problem}: {message.id[:100]!r}")
    print(f"{failures} problem(s)")
    return 1 if failures else 0


def notebooks(args: list[str]) -> int:
    """Write the Chinese notebooks, or with ``--check`` report stale ones."""
    try:
        if args == ["--check"]:
            found = i18n_notebooks.out_of_step()
            for line in found:
                print(line, file=sys.stderr)
            if found:
                print("run: python tools/i18n.py notebooks", file=sys.stderr)
            return 1 if found else 0
        written = i18n_notebooks.write()
    except i18n_notebooks.NotTranslated as missing:
        print(missing, file=sys.stderr)
        print("nothing written: translate these first (todo, fill)", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"{len(written)} notebook(s) changed")
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "extract":
        print(extract(Path(rest[0]) if rest else None))
        return 0
    if command == "update":
        update()
        return 0
    if command == "todo" and len(rest) == 1:
        return todo(rest[0])
    if command == "fill" and len(rest) == 2:
        return fill(rest[0], Path(rest[1]))
    if command == "check":
        return check(rest)
    if command == "notebooks" and rest in ([], ["--check"]):
        return notebooks(rest)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
