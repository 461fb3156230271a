"""The book's Markdown as MyST reads it, for the Chinese edition.

Two questions about a message, answered with markdown-it-py configured as
myst-parser configures it for this book (the same parser, the same
extensions), never with regular expressions over the text:

- ``block_problem``: would Sphinx use this translation? Sphinx parses every
  msgstr on its own as a small document and keeps it only when it is one
  paragraph; ``3. Layer`` alone is an ordered list, so a chapter title
  translated as ``3. 层`` is thrown away and the page keeps its English title.
  The number is escaped, ``3\\. 层``.
- ``translate``: a Markdown cell with every translatable span (a paragraph, a
  heading, a list item's paragraph, a table cell, the title and body of a
  prose directive such as ``{exercise}``) replaced by its translation, its
  structure (list markers, table pipes, fences, options, labels, math, link
  targets) kept. Sphinx's message for a span is its inline source with its
  newlines turned into spaces (``extract_messages``); the span is found by
  the token's line map.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# Directives whose body is Markdown (prose), and those of them whose argument
# is a title (the others' argument, if any, is a label or empty).
PROSE = {"exercise", "solution", "admonition", "note", "tip", "hint",
         "important", "warning", "caution", "attention", "danger", "error",
         "seealso", "dropdown", "margin", "sidebar", "topic"}
TITLED = {"exercise", "admonition", "dropdown", "margin", "sidebar", "topic"}
# Directives with nothing to translate: labels, code, maths.
OPAQUE = {"solution-start", "solution-end", "code-block", "code", "code-cell",
          "math", "raw", "literalinclude", "toctree", "include", "image"}
_DIRECTIVE = re.compile(r"^\{([\w:.-]+)\}\s*(.*)$")
_OPTION = re.compile(r"^\s*:[\w-]+:(\s|$)")
_NUMBERED = re.compile(r"^(\d+)\. ")


class NotTranslated(Exception):
    """A span of a page whose message has no translation in the catalog."""


@functools.lru_cache(maxsize=1)
def parser():
    """markdown-it-py set up as myst-parser is in the book's build: the MyST
    extensions of jupyter-book's defaults and ``parse:`` in ``_config.yml``."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    book = importlib.util.find_spec("jupyter_book")  # not imported: slow
    defaults = Path(book.origin).parent / "default_config.yml"
    parse = yaml.safe_load(defaults.read_text(encoding="utf-8"))["parse"]
    user = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    parse.update(user.get("parse") or {})  # a list given there replaces ours
    extensions = parse["myst_enable_extensions"] or []
    # jupyter-book passes on only the extensions of ``parse:``; other myst
    # settings come from ``sphinx: config:`` as myst_* keys.
    settings = {key[5:]: value for key, value in
                ((user.get("sphinx") or {}).get("config") or {}).items()
                if key.startswith("myst_") and key != "myst_enable_extensions"}
    config = MdParserConfig(enable_extensions=set(extensions), **settings)
    return create_md_parser(config, RendererHTML)


def message_of(source: str) -> str:
    """The msgid Sphinx extracts from an inline source (``extract_messages``)."""
    return source.replace("\n", " ").strip()


def block_problem(msgid: str, msgstr: str) -> str:
    """Why Sphinx would not use ``msgstr`` for ``msgid`` ("" when it would)."""
    if not msgstr or msgstr == msgid:  # Sphinx keeps the source as it is
        return ""
    number = _NUMBERED.match(msgid)
    if number and not msgstr.startswith(number.group(1) + "\\. "):
        return (f"a numbered heading's translation must start with "
                f"'{number.group(1)}\\. ' (escaped: '{number.group(1)}. ' "
                "alone is a list, and Sphinx drops the translation)")
    blocks = [t for t in parser().parse(msgstr) if t.level == 0 and t.nesting >= 0]
    if [t.type for t in blocks] != ["paragraph_open"]:
        kinds = ", ".join(t.type.replace("_open", "") for t in blocks)
        return (f"the translation reads as Markdown blocks ({kinds}), not one "
                "paragraph: Sphinx drops it (escape the leading character)")
    return ""


def unescape_heading(msgstr: str) -> str:
    """A numbered title as a heading's source writes it: ``3\\. x`` -> ``3. x``
    (after ``#`` no list can start, so the escape is not needed there)."""
    return re.sub(r"^(\d+)\\\. ", r"\1. ", msgstr)


def skeleton(text: str) -> list[tuple]:
    """The Markdown structure of ``text`` without its words: every block token
    (lists and their markers, tables, headings and their levels, fences with
    their code, maths, targets, comments) and, for a prose directive, its
    name, options and the skeleton of its body. A translation keeps it."""
    out = []
    for token in parser().parse(text):
        if token.type == "inline":
            continue
        entry = (token.type, token.tag, token.markup, token.level,
                 tuple(sorted((token.attrs or {}).items())))
        match = _DIRECTIVE.match(token.info.strip()) if token.info else None
        if token.type in ("fence", "colon_fence") and match and match.group(1) in PROSE:
            name, argument = match.groups()
            body = token.content.split("\n")
            skip = _options(body)
            entry += (name, "" if name in TITLED else argument, tuple(body[:skip]),
                      tuple(skeleton("\n".join(body[skip:]))))
        else:
            entry += (token.info, token.content)
        out.append(entry)
    return out


# --------------------------------------------------------------------------
# Translating a Markdown cell.

def translate(text: str, lookup, where: str = "") -> str:
    """``text`` with each translatable span replaced by ``lookup(msgid)``.

    ``lookup`` returns the translation or ``None``; every span without one is
    named in the ``NotTranslated`` raised at the end. A span whose translation
    is its message stays as it is in the source, line breaks included.
    """
    missing: list[str] = []
    out = _translate(text, lookup, missing)
    if missing:
        raise NotTranslated("\n".join(f"{where}: no translation for {m!r}"
                                      for m in missing))
    return out


def _translate(text, lookup, missing):
    lines = text.split("\n")
    tokens = parser().parse(text)
    edits = []  # (first line, end line, new lines), ranges never overlap
    for index, token in enumerate(tokens):
        if token.type in ("fence", "colon_fence"):
            edits += _fence(token, lines, lookup, missing)
        elif token.type == "tr_open":
            edit = _row(tokens, index, lines, lookup, missing)
            if edit:
                edits.append(edit)
        elif token.type == "inline" and tokens[index - 1].type in (
                "paragraph_open", "heading_open"):
            edit = _block(token, tokens[index - 1], lines, lookup, missing)
            if edit:
                edits.append(edit)
        elif token.type == "inline" and tokens[index - 1].type not in (
                "th_open", "td_open"):
            raise ValueError(f"inline text inside {tokens[index - 1].type}: "
                             "tools/i18n_markdown.py does not know this block")
    for first, end, new in sorted(edits, reverse=True):
        lines[first:end] = new
    return "\n".join(lines)


def _translation(msgid, lookup, missing):
    """The translation of ``msgid``; ``None`` when nothing is to change."""
    if not msgid:
        return None
    msgstr = lookup(msgid)
    if not msgstr:
        missing.append(msgid)
        return None
    return None if msgstr == msgid else msgstr


def _prefix(line: str, content: str) -> str:
    """What comes before ``content`` on ``line`` (list marker, quote, indent)."""
    stripped = line.rstrip()
    if not stripped.endswith(content.strip()):
        raise ValueError(f"cannot find {content!r} at the end of {line!r}")
    return stripped[: len(stripped) - len(content.strip())]


def _block(token, opener, lines, lookup, missing):
    msgstr = _translation(message_of(token.content), lookup, missing)
    if msgstr is None:
        return None
    first, end = token.map
    if opener.type == "heading_open":
        if opener.markup.startswith("#"):  # ATX: "## title ##"
            line = lines[first]
            start = line.index(token.content, line.index("#") + len(opener.markup))
            if _NUMBERED.match(token.content):  # no list here: unescape
                msgstr = unescape_heading(msgstr)
            new = line[:start] + msgstr + line[start + len(token.content):]
            return first, first + 1, [new]
        end -= 1  # setext: keep the underline
    parts = token.content.split("\n")
    prefix = _prefix(lines[first], parts[0])
    for offset, part in enumerate(parts[1:], 1):
        _prefix(lines[first + offset], part)  # checks the span
    return first, first + len(parts), [prefix + msgstr]


def _cells(row: str):
    """``(start, end)`` of each cell of a table row, as markdown-it splits it
    (``escapedSplit``: a pipe after a backslash is part of the cell)."""
    bounds, escaped = [-1], False
    for position, char in enumerate(row):
        if char == "|" and not escaped:
            bounds.append(position)
        escaped = char == "\\"
    bounds.append(len(row))
    spans = [(a + 1, b) for a, b in zip(bounds, bounds[1:])]
    if spans and not row[spans[0][0]:spans[0][1]]:
        spans.pop(0)
    if spans and not row[spans[-1][0]:spans[-1][1]]:
        spans.pop()
    return spans


def _row(tokens, index, lines, lookup, missing):
    line_number = tokens[index].map[0]
    line = lines[line_number]
    indent = len(line) - len(line.lstrip())
    row = line.strip()
    spans = _cells(row)
    contents = []
    for token in tokens[index + 1:]:
        if token.type == "tr_close":
            break
        if token.type == "inline":
            contents.append(token.content)
    new, changed = row, False
    for (start, end), content in reversed(list(zip(spans, contents))):
        cell = row[start:end].replace("\\|", "|").strip()
        if cell != content:
            raise ValueError(f"table cell {cell!r} is not {content!r}")
        msgstr = _translation(message_of(content), lookup, missing)
        if msgstr is not None:
            escaped = re.sub(r"(?<!\\)\|", r"\\|", msgstr)
            new = new[:start] + f" {escaped} " + new[end:]
            changed = True
    if not changed:
        return None
    return line_number, line_number + 1, [line[:indent] + new]


def _fence(token, lines, lookup, missing):
    match = _DIRECTIVE.match(token.info.strip())
    if not match:
        return []  # a code block
    name, argument = match.groups()
    if name in OPAQUE:
        return []
    if name not in PROSE:
        raise ValueError(f"directive {{{name}}}: tools/i18n_markdown.py does "
                         "not know whether its body is prose (PROSE, OPAQUE)")
    first, end = token.map
    edits = []
    if name in TITLED:
        msgstr = _translation(message_of(argument), lookup, missing)
        if msgstr is not None:
            opening = lines[first]
            new = _prefix(opening, argument) + msgstr
            edits.append((first, first + 1, [new]))
    closed = end - first >= 2 and lines[end - 1].strip().startswith(token.markup)
    body = lines[first + 1: end - 1 if closed else end]
    skip = _options(body)
    indent = len(lines[first]) - len(lines[first].lstrip(" "))
    inner = [line[indent:] if not line[:indent].strip() else line.lstrip(" ")
             for line in body[skip:]]
    translated = _translate("\n".join(inner), lookup, missing)
    new_body = [(" " * indent + line) if line else line
                for line in translated.split("\n")]
    if new_body != body[skip:]:
        start = first + 1 + skip
        edits.append((start, start + len(body) - skip, new_body))
    return edits


def _options(body):
    """How many of a directive body's first lines are its options."""
    if body and body[0].strip() == "---":  # a YAML block
        for number, line in enumerate(body[1:], 1):
            if line.strip() == "---":
                return number + 1
        return len(body)
    count = 0
    while count < len(body) and _OPTION.match(body[count]):
        count += 1
    return count
