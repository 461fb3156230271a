"""Site-level fixes for the built book (a local Sphinx extension, see _config.yml).

jupyter-book's extensions add some inline scripts (sphinx-thebe's
``const THEBE_JS_URL = ...``, sphinx-togglebutton's selector) a second time while
each page is written, with another priority, so Sphinx's own de-duplication keeps
both copies and the browser stops at the second ``const``. After the build, every
page keeps only the first copy of each identical ``<script>`` line.
"""

from pathlib import Path


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


def setup(app):
    app.connect("build-finished", _drop_repeated_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
