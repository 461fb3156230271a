"""Check that `jupyter-book build .` produced a page for every chapter (stdlib only).

Run from the repository root after the build: `python tools/check_book.py`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


def main() -> int:
    expected = [HTML / "index.html", HTML / "search.html", HTML / "searchindex.js"]
    chapters = sorted((ROOT / "chapters").glob("*.ipynb"))
    expected += [HTML / "chapters" / f"{nb.stem}.html" for nb in chapters]
    missing = [path for path in expected if not path.is_file()]
    if missing:
        print("The book build is incomplete; missing:", file=sys.stderr)
        for path in missing:
            print(f"  {path.relative_to(ROOT)}", file=sys.stderr)
        print(
            "Is every notebook listed in _toc.yml? Rebuild with `make book`.",
            file=sys.stderr,
        )
        return 1
    print(f"Book OK: index and {len(chapters)} chapter page(s) in {HTML}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
