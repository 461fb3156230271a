"""A translated edition's build files, generated from the English ones.

``make book`` builds the English site into ``_build/html`` and the Chinese one
into ``_build/zh_CN``, from the same sources, with the configuration this tool
writes: ``_config.yml`` and ``_toc.yml`` as they are, except for the language,
the book's own strings translated from ``locales/<lang>/LC_MESSAGES/book.po``
(the title, the author, the captions of the table of contents, the footer's
paragraphs: see ``_ext/kerasmini_editions.py``), the local extensions' paths
made absolute (jupyter-book resolves them from the config file's folder), and
the CJK fonts of the PDF, and the book's terms for the Chinese search
(``locales/<lang>/search_words.txt``). Nothing is copied by hand, so nothing drifts; a
message of ``book.po`` that is missing, empty or fuzzy stops the build.

    python tools/edition.py config zh_CN   # _build/zh_CN/_config.yml, _toc.yml
    python tools/edition.py place zh_CN    # the built site into _build/html/zh_CN
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
import kerasmini_editions  # noqa: E402

BUILD = ROOT / "_build"
# The book's terms the search index keeps whole, one a line (jieba's user
# dictionary: without it 优化器 is indexed as 优化 and 器, and a reader's
# search for 优化器 finds nothing).
SEARCH_WORDS = "search_words.txt"
SITE = BUILD / "html"
# The PDF: xeCJK (which Sphinx loads for Chinese with XeLaTeX) set to the
# Noto CJK fonts (Debian fonts-noto-cjk; bold in the sans, as Chinese books
# set it); Latin text keeps FreeSerif & co. LaTeX's own words in Chinese
# (Sphinx loads babel without a Chinese language): 目录, 图, 表, 索引.
LATEX_PREAMBLE = {
    "zh_CN": "\n".join([
        r"\setCJKmainfont{Noto Serif CJK SC}[BoldFont={Noto Sans CJK SC Bold}]",
        r"\setCJKsansfont{Noto Sans CJK SC}",
        r"\setCJKmonofont{Noto Sans Mono CJK SC}",
        r"\AtBeginDocument{\renewcommand{\contentsname}{目录}%",
        r"  \renewcommand{\figurename}{图}\renewcommand{\tablename}{表}%",
        r"  \renewcommand{\indexname}{索引}}",
    ]),
}


def out_dir(language: str) -> Path:
    """Where the edition is built (jupyter-book's --path-output)."""
    return BUILD / language


def translations(language: str) -> dict[str, str]:
    """``book.po``: every message translated, none fuzzy, or SystemExit."""
    from babel.messages.pofile import read_po

    path = ROOT / "locales" / language / "LC_MESSAGES" / "book.po"
    if not path.is_file():
        raise SystemExit(f"error: {path.relative_to(ROOT)} is missing "
                         "(python tools/i18n.py update creates it)")
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    return {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}


def _translate(table: dict[str, str], language: str):
    def translate(text: str) -> str:
        if text not in table:
            raise SystemExit(
                f"error: locales/{language}/LC_MESSAGES/book.po has no translation "
                f"of {text!r} (python tools/i18n.py update, then todo book)")
        return table[text]
    return translate


def edition_files(language: str) -> tuple[dict, dict]:
    """The edition's ``_config.yml`` and ``_toc.yml``, as YAML data."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    translate = _translate(translations(language), language)
    for key in ("title", "author"):
        if config.get(key):
            config[key] = translate(config[key])
    html = config.get("html", {})
    if html.get("extra_footer"):
        html["extra_footer"] = kerasmini_editions.translate_footer(
            html["extra_footer"], translate)
    for part in toc.get("parts", []):
        if part.get("caption"):
            part["caption"] = translate(part["caption"])
    sphinx = config.setdefault("sphinx", {})
    sphinx["local_extensions"] = {
        name: str((ROOT / folder).resolve())
        for name, folder in sphinx.get("local_extensions", {}).items()}
    settings = sphinx.setdefault("config", {})
    settings["language"] = language
    words = ROOT / "locales" / language / SEARCH_WORDS
    if words.is_file():  # the search's word splitter learns the book's terms
        settings["html_search_options"] = {"dict": str(words)}
    if language in LATEX_PREAMBLE:
        elements = settings.setdefault("latex_elements", {})
        elements["preamble"] = "\n".join(
            p for p in (elements.get("preamble"), LATEX_PREAMBLE[language]) if p)
    return config, toc


def write(language: str) -> Path:
    """Write the edition's ``_config.yml`` and ``_toc.yml``; return their folder."""
    config, toc = edition_files(language)
    folder = out_dir(language)
    folder.mkdir(parents=True, exist_ok=True)
    header = ("# Generated by tools/edition.py from _config.yml, _toc.yml and "
              f"locales/{language}/LC_MESSAGES/book.po: do not edit.\n")
    for name, data in (("_config.yml", config), ("_toc.yml", toc)):
        text = header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def place(language: str) -> Path:
    """Copy the edition's built pages into its folder of the English site."""
    built = out_dir(language) / "_build" / "html"
    if not (built / "index.html").is_file():
        raise SystemExit(f"error: {built.relative_to(ROOT)} is not built")
    folder = SITE / kerasmini_editions.EDITIONS[language][0].strip("/")
    if folder == SITE:
        raise SystemExit(f"error: {language} is the edition at the site's root")
    # over what is there, as Sphinx writes the English pages: the edition's
    # PDF (make pdf-zh) stays beside them
    shutil.copytree(built, folder, dirs_exist_ok=True)
    return folder


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("config", "place"):
        print(__doc__)
        return 2
    command, language = argv
    if language not in kerasmini_editions.EDITIONS or language == "en":
        print(f"error: no translated edition {language!r}", file=sys.stderr)
        return 2
    folder = write(language) if command == "config" else place(language)
    print(folder.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
