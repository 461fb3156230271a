"""The Chinese notebooks, generated from the English ones and the catalogs.

``locales/zh_CN/chapters/NN_name.ipynb`` is ``chapters/NN_name.ipynb`` with
the prose in Chinese: every translatable span of every Markdown cell (found
by ``i18n_markdown.translate``) replaced by its msgstr, and every figure's
alt text (``mystnb.image.alt``) by its translation. Everything else is the
English notebook's, byte for byte: code, outputs, cell ids, execution
counts, all metadata (nbgrader's, tags, kernelspec). The Chinese pages'
download, Colab and Binder buttons give these files; nbval can run them like
the English ones (the code is the same).

A span without a translation in the catalog stops the generation with the
chapter and the text (``NotTranslated``); nothing is written then.

    python tools/i18n.py notebooks           # write them
    python tools/i18n.py notebooks --check   # exit 1 if one is not in step
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from i18n_markdown import NotTranslated, skeleton, translate

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
LANGUAGE = "zh_CN"
CATALOGS = ROOT / "locales" / LANGUAGE / "LC_MESSAGES"
NOTEBOOKS = ROOT / "locales" / LANGUAGE / "chapters"


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def dump(nb: dict) -> str:
    """The notebook's text as nbformat writes it (indent 1, non-ASCII kept)."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def translations(page: str) -> dict[str, str]:
    """``{msgid: msgstr}`` of a page's catalog, without fuzzy or empty ones."""
    from babel.messages.pofile import read_po

    with (CATALOGS / f"{page}.po").open("rb") as handle:
        catalog = read_po(handle, locale=LANGUAGE)
    return {m.id: m.string for m in catalog
            if m.id and m.string and not m.fuzzy}


def _source(cell) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else text


def _alt(cell):
    return cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt")


def cell_skeleton(cell) -> list[tuple]:
    """The Markdown structure of a cell (``i18n_markdown.skeleton``)."""
    return skeleton(_source(cell))


def translate_notebook(nb: dict, lookup, where: str) -> dict:
    """A copy of ``nb`` with its prose and figures' alt texts translated."""
    out = copy.deepcopy(nb)
    errors = []
    for index, cell in enumerate(out["cells"]):
        place = f"{where}, cell {index} ({cell.get('id')})"
        if cell["cell_type"] == "markdown":
            try:
                text = translate(_source(cell), lookup, place)
            except NotTranslated as missing:
                errors.append(str(missing))
                continue
            if isinstance(cell["source"], list):
                text = text.splitlines(keepends=True)
            cell["source"] = text
        alt = _alt(cell)
        if alt:
            msgstr = lookup(alt)
            if msgstr:
                cell["metadata"]["mystnb"]["image"]["alt"] = msgstr
            else:
                errors.append(f"{place}: no translation for the alt text {alt!r}")
    if errors:
        raise NotTranslated("\n".join(errors))
    return out


def chapters() -> list[Path]:
    return sorted(CHAPTERS.glob("*.ipynb"))


def target(chapter: Path) -> Path:
    return NOTEBOOKS / chapter.name


def render(chapter: Path) -> str:
    """The text of ``chapter``'s Chinese notebook."""
    page = f"chapters/{chapter.stem}"
    table = translations(page)
    nb = translate_notebook(load(chapter), table.get, page)
    return dump(nb)


def render_all() -> dict[Path, str]:
    """Every chapter's Chinese notebook; ``NotTranslated`` names every gap."""
    texts, errors = {}, []
    for chapter in chapters():
        try:
            texts[target(chapter)] = render(chapter)
        except NotTranslated as missing:
            errors.append(str(missing))
    if errors:
        raise NotTranslated("\n".join(errors))
    return texts


def write(chapter_paths=None) -> list[Path]:
    """Write the Chinese notebooks (all, or those of ``chapter_paths``)."""
    if chapter_paths is None:
        texts = render_all()
    else:
        texts = {target(Path(p)): render(Path(p)) for p in chapter_paths}
    NOTEBOOKS.mkdir(parents=True, exist_ok=True)
    written = []
    for path, text in texts.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    wanted = {path.name for path in texts}
    if chapter_paths is None:
        for path in NOTEBOOKS.glob("*.ipynb"):
            if path.name not in wanted:  # its chapter is gone
                path.unlink()
                written.append(path)
    return written


def out_of_step() -> list[str]:
    """What differs between the committed notebooks and a fresh generation."""
    found = []
    texts = render_all()
    for path, text in texts.items():
        if not path.exists():
            found.append(f"{path.relative_to(ROOT)} is missing")
        elif path.read_text(encoding="utf-8") != text:
            found.append(f"{path.relative_to(ROOT)} is not in step")
    for path in NOTEBOOKS.glob("*.ipynb"):
        if path not in texts:
            found.append(f"{path.relative_to(ROOT)} has no English chapter")
    return found
