"""Site-level fixes for the built book (a local Sphinx extension, see _config.yml).

jupyter-book's extensions add some inline scripts (sphinx-thebe's
``const THEBE_JS_URL = ...``, sphinx-togglebutton's selector) a second time while
each page is written, with another priority, so Sphinx's own de-duplication keeps
both copies and the browser stops at the second ``const``. After the build, every
page keeps only the first copy of each identical ``<script>`` line.

The cells a chapter's parity scenarios re-run in real Keras
(``tests/parity/``, recorded in ``kerasmini/book/parity_results.json``) get a
mark under them, "✓ Keras 3.15.1", linking to the chapter's "verified against
Keras" line, so a reader sees which cells that line speaks for.

Inline code in a table (the "Keras 2 vs Keras 3" tables) must often wrap in a
narrow column. Left to the browser, it breaks anywhere, ``train_ste`` then ``p``;
instead each piece of code gets a break opportunity (``<wbr>``) after ``_``,
``.``, ``/``, ``(``, ``,`` and ``=``, and the style sheet lets it wrap only there
(``_static/kerasmini.css``). Only the HTML builders see this: the text of the
code, which a translation catalog holds, is unchanged.
"""

import json
import re
from pathlib import Path

from docutils import nodes

from kerasmini.book import parity

# where a piece of code may wrap: after these characters when they follow a
# letter or digit (not after the leading _ of `_loss_tracker`), and not right
# before a last piece of one or two characters (`trainer.py` stays whole)
_BREAK_AFTER = re.compile(r"(?<=\w[_./(,=])(?=.{3})")


def breakable_pieces(text):
    """``text`` cut where it may wrap.

    >>> breakable_pieces("train_step(data)")
    ['train_', 'step(', 'data)']
    >>> breakable_pieces("_loss_tracker"), breakable_pieces("trainers/trainer.py")
    (['_loss_', 'tracker'], ['trainers/', 'trainer.py'])
    >>> breakable_pieces("iterations")
    ['iterations']
    """
    return _BREAK_AFTER.split(text)


def _code_wraps_between_names(app, doctree, docname):
    if app.builder.format != "html":
        return
    for table in doctree.findall(nodes.table):
        for literal in list(table.findall(nodes.literal)):
            if len(literal.children) != 1 or not isinstance(literal[0], nodes.Text):
                continue
            pieces = breakable_pieces(literal.astext())
            if len(pieces) < 2:
                continue
            children = []
            for number, piece in enumerate(pieces):
                if number:
                    children.append(nodes.raw("", "<wbr>", format="html"))
                children.append(nodes.Text(piece))
            literal.children = []
            literal.extend(children)


def _drop_repeated_scripts(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
        seen, kept = set(), []
        for line in lines:
            tag = line.strip()
            if tag.startswith("<script") and tag.endswith("</script>"):
                if tag in seen:
                    continue
                seen.add(tag)
            kept.append(line)
        if len(kept) != len(lines):
            page.write_text("".join(kept), encoding="utf-8")


_CHAPTER = re.compile(r"chapters/(\d\d)_[^/]*$")


def _mark_verified_cells(app, doctree, docname):
    if app.builder.format != "html":
        return
    match = _CHAPTER.match(docname)
    notebook = Path(app.srcdir) / f"{docname}.ipynb"
    if match is None or not notebook.exists():
        return
    try:
        line = parity.verified(int(match.group(1)))
    except ValueError:  # a chapter without scenarios
        return
    ids = [cell.get("id") for cell in
           json.loads(notebook.read_text(encoding="utf-8"))["cells"]]
    for container in doctree.findall(nodes.container):
        if container.get("nb_element") != "cell_code":
            continue
        index = container.get("cell_index")
        cell_id = ids[index] if isinstance(index, int) and index < len(ids) else None
        if cell_id == "parity-verified":
            container["ids"].append("kerasmini-parity")
        elif cell_id in line.cells:
            container.append(nodes.raw(
                "", parity.badge_html(line, line.cells[cell_id]), format="html"))


def setup(app):
    app.connect("doctree-resolved", _mark_verified_cells)
    app.connect("doctree-resolved", _code_wraps_between_names)
    app.connect("build-finished", _drop_repeated_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
