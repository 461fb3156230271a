"""Check that `make book` produced both editions, a page for every chapter in each
(stdlib only).

Run from the repository root after the build: `python tools/check_book.py`.
The English site is `_build/html`; the Chinese one `_build/html/zh_CN`, whose
pages must say `lang="zh-CN"` and whose `_sources/` must offer the Chinese
notebooks (`locales/zh_CN/chapters/`) for download.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
# language -> (folder of the site, the <html lang> of its pages)
EDITIONS = {"en": (HTML, "en"), "zh_CN": (HTML / "zh_CN", "zh-CN")}


def problems(language: str) -> list[str]:
    site, lang = EDITIONS[language]
    chapters = sorted((ROOT / "chapters").glob("*.ipynb"))
    pages = [site / "intro.html", site / "teachers.html"]
    pages += [site / "chapters" / f"{nb.stem}.html" for nb in chapters]
    expected = [site / "index.html", site / "search.html", site / "searchindex.js"]
    found = [f"missing {path.relative_to(ROOT)}"
             for path in expected + pages if not path.is_file()]
    for page in pages:
        if page.is_file():
            head = page.read_text(encoding="utf-8")[:500]
            tag = re.search(r'<html lang="([^"]*)"', head)
            if not tag or tag.group(1) != lang:
                found.append(f"{page.relative_to(ROOT)}: <html lang> is not {lang}")
    if language != "en":
        for nb in chapters:
            served = site / "_sources" / "chapters" / nb.name
            own = ROOT / "locales" / language / "chapters" / nb.name
            if not (served.is_file() and own.is_file()) or \
                    served.read_bytes() != own.read_bytes():
                found.append(f"{served.relative_to(ROOT)} is not {own.relative_to(ROOT)}")
    return found


def main() -> int:
    failed = False
    for language, (site, _lang) in EDITIONS.items():
        found = problems(language)
        if found:
            failed = True
            print(f"The {language} edition is incomplete:", file=sys.stderr)
            for line in found:
                print(f"  {line}", file=sys.stderr)
        else:
            count = len(list((site / "chapters").glob("*.html")))
            print(f"Book OK ({language}): index and {count} chapter page(s) in "
                  f"{site.relative_to(ROOT)}")
    if failed:
        print("Is every notebook listed in _toc.yml? Rebuild with `make book`.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
