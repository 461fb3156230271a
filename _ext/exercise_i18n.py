"""Exercise titles in the translation catalogs.

sphinx-exercise turns the title given to ``{exercise}`` ("Count the
parameters of a dense layer") into an ``exercise_subtitle`` node without a
source, which Sphinx's i18n takes for a built-in message and skips; and its
post-transform folds the subtitle into a plain title before the gettext
builder looks, so the titles were never extracted and the Chinese pages
showed them in English. Two small steps fix both:

- at read time, before Sphinx's ``Locale`` transform (priority 20), each
  subtitle gets its source, line and MyST text, so a translated build
  translates it like any heading;
- after ``Locale``, sphinx-exercise's registry (whose copy of each exercise
  titles the solutions: "Solution to Exercise 12 (...)") takes the
  translated exercise;
- in the gettext build only, after sphinx-exercise's post-transforms, each
  title is put back into the doctree as a message of its page, so
  ``tools/i18n.py update`` extracts it into the page's catalog.
"""

from docutils import nodes, transforms
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_exercise.nodes import exercise_subtitle

_MARKS = {nodes.literal: "`", nodes.emphasis: "*", nodes.strong: "**"}
_KEY = "kerasmini_subtitle"


def markdown_of(node):
    """The MyST source of an inline text: text, `code`, *em*, **strong**."""
    out = []
    for child in node.children:
        if isinstance(child, nodes.Text):
            out.append(child.astext())
        elif type(child) in _MARKS:
            mark = _MARKS[type(child)]
            out.append(f"{mark}{child.astext()}{mark}")
        else:
            out.append(markdown_of(child))
    return "".join(out)


def _with_source(node):
    while node is not None and not node.source:
        node = node.parent
    return node


class ExerciseSubtitleSource(transforms.Transform):
    default_priority = 15  # before sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs):
        for node in self.document.findall(exercise_subtitle):
            located = _with_source(node.parent)
            if located is None:
                continue
            node.source, node.line = located.source, located.line
            node.rawsource = markdown_of(node)
            exercise = node.parent.parent  # subtitle < exercise_title < exercise
            exercise[_KEY] = (node.rawsource, node.source, node.line)


class TranslatedExercisesInRegistry(SphinxTransform):
    default_priority = 25  # after sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs):
        if not self.config.language or self.config.language == "en":
            return
        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for exercise in list(self.document.findall(nodes.Element)):
            entry = registry.get(exercise.get("label")) if _KEY in exercise else None
            if entry is not None and entry.get("docname") == self.env.docname:
                entry["node"] = exercise.deepcopy()


class ExerciseSubtitleMessages(SphinxPostTransform):
    default_priority = 900  # after sphinx-exercise's title resolution
    builders = ("gettext",)

    def run(self, **kwargs):
        for exercise in list(self.document.findall(nodes.Element)):
            if _KEY not in exercise.attributes:
                continue
            text, source, line = exercise[_KEY]
            message = nodes.paragraph(text, text)
            message.source, message.line = source, line
            message.uid = ""  # the catalog keeps only nodes with a uid (gettext)
            exercise.insert(0, message)


def setup(app):
    app.add_transform(ExerciseSubtitleSource)
    app.add_transform(TranslatedExercisesInRegistry)
    app.add_post_transform(ExerciseSubtitleMessages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
