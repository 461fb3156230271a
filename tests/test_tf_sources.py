"""Tests for kerasmini.book.tf_sources: TensorFlow links and their stand-ins.

The ranges themselves were checked with ``verify_against_tree`` against the
sources of TensorFlow 2.6.0 (by hand; the tests have no network). Here: every
link is pinned and well formed, every kerasmini counterpart imports, and the
checker finds a range that is off.
"""

import re

import pytest

from kerasmini.book import tf_sources
from kerasmini.book.tf_sources import TF_SOURCES, TF_TAG, tf_source, tf_table

URL_RE = re.compile(
    r"^https://github\.com/tensorflow/tensorflow/blob/v2\.6\.0"
    r"/tensorflow/python/[\w/]+\.py#L\d+-L\d+$"
)

# The APIs the book names as what Keras 2 stands on.
EXPECTED = {
    "tf.Module", "AutoTrackable", "tf.Variable", "tf.name_scope",
    "tf.function", "FuncGraph", "tf.init_scope", "tf.nest.flatten",
    "tf.train.Checkpoint", "Trackable._track_trackable", "tf.GradientTape",
}  # fmt: skip

ENTRIES = sorted(TF_SOURCES.items())
IDS = [key for key, _ in ENTRIES]


def test_tf_sources_cover_the_apis_keras2_stands_on():
    assert TF_TAG == "v2.6.0"
    assert EXPECTED <= set(TF_SOURCES)


@pytest.mark.parametrize("key,source", ENTRIES, ids=IDS)
def test_tf_source_url_is_a_pinned_line_link(key, source):
    assert URL_RE.match(source.url), source.url
    assert 1 <= source.start <= source.end
    assert source.end - source.start < 500


@pytest.mark.parametrize("key,source", ENTRIES, ids=IDS)
def test_tf_source_counterpart_imports(key, source):
    obj = source.resolve()
    assert source.kerasmini.startswith("kerasmini.")
    assert callable(obj)
    assert obj.__name__ == source.kerasmini.rsplit(".", 1)[-1]


@pytest.mark.parametrize("key,source", ENTRIES, ids=IDS)
def test_tf_source_role_is_one_short_paragraph(key, source):
    assert source.role.endswith(".")
    assert 30 < len(source.role) < 200


def test_tf_source_unknown_key_lists_close_keys():
    with pytest.raises(ValueError, match="Close keys: 'tf.Variable'"):
        tf_source("tf.Variabel")


def test_tf_table_text_and_html():
    table = tf_table(["tf.init_scope", "tf.Module"])
    text = str(table)
    assert text.splitlines()[0] == "tf.init_scope -> kerasmini.backend.graph.init_scope"
    html = table._repr_html_()
    assert html.count("<tr") == 3
    assert tf_source("tf.Module").url in html


def test_verify_against_tree_finds_a_wrong_range(tmp_path, monkeypatch):
    source = tf_source("tf.nest.flatten")
    fake = tmp_path / source.path
    fake.parent.mkdir(parents=True)
    # flatten defined at the pinned lines: the checker accepts it...
    body = "\n" * (source.start - 1) + "def flatten(x):\n"
    body += "    pass\n" * (source.end - source.start)
    fake.write_text(body)
    monkeypatch.setattr(tf_sources, "TF_SOURCES", {"tf.nest.flatten": source})
    assert tf_sources.verify_against_tree(tmp_path) == []
    # ...and reports it once the definition has moved.
    fake.write_text("\n" + body)
    problems = tf_sources.verify_against_tree(tmp_path)
    assert len(problems) == 1 and "expected" in problems[0]
    assert tf_sources.verify_against_tree(tmp_path / "nowhere")[0].endswith(
        "not found"
    )


# ---------------------------------------------------------------------------
# The excerpt table: pinned Keras lines that are not a mirrored definition.

from kerasmini.book.keras_excerpts import KERAS_EXCERPTS, keras_excerpt  # noqa: E402

EXCERPT_URL_RE = re.compile(
    r"^https://github\.com/keras-team/keras/blob/v(2\.6\.0|3\.15\.1)"
    r"/keras/[\w/]+\.py#L\d+(-L\d+)?$"
)


@pytest.mark.parametrize("key", sorted(KERAS_EXCERPTS))
def test_keras_excerpt_is_pinned_and_says_what_it_holds(key):
    excerpt = keras_excerpt(key)
    assert EXCERPT_URL_RE.match(excerpt.url), excerpt.url
    assert 1 <= excerpt.ref.start <= excerpt.ref.end
    assert excerpt.contains.strip()
    assert key.startswith("keras2-") == (excerpt.ref.tag == "v2.6.0")


def test_keras_excerpt_unknown_key():
    with pytest.raises(ValueError, match="No pinned Keras excerpt"):
        keras_excerpt("keras4-nothing")
