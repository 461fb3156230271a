"""kerasmini.book.source: live source beside pinned Keras links."""

import inspect
import re
import textwrap

import pytest

import kerasmini as keras
from kerasmini.book.keras_sources import KERAS_SOURCES, keras_source
from kerasmini.book.source import keras_links, relative_path, show_source


def test_show_source_text_equals_inspect_getsource():
    view = show_source(keras.layers.Dense.call)
    expected = textwrap.dedent(inspect.getsource(keras.layers.Dense.call))
    assert view.source == expected
    assert expected.rstrip("\n") in repr(view)


def test_show_source_unwraps_build_wrapper():
    # Layer.__init_subclass__ wraps every build; the source is the original one
    view = show_source(keras.layers.Dense.build)
    assert view.source.startswith("def build(self, input_shape):")
    assert view.key == "Dense.build"


def test_show_source_links_come_from_the_table():
    view = show_source(keras.Layer.add_weight)
    source = keras_source("Layer.add_weight")
    assert view.urls == [source.keras2.url, source.keras3.url]
    text = repr(view)
    assert source.keras2.url in text and source.keras3.url in text
    assert source.keras2.url in view._repr_html_()


def test_show_source_key_overrides_the_qualname():
    view = show_source(keras.layers.Dense, key="Dense.call")
    assert view.urls == [keras_source("Dense.call").keras2.url,
                         keras_source("Dense.call").keras3.url]


def test_show_source_unknown_key_gives_source_without_links():
    view = show_source(keras.Layer.get_input_at)
    assert "Layer.get_input_at" not in KERAS_SOURCES
    assert view.urls == []
    assert "github.com" not in repr(view)
    assert view.source.startswith("def get_input_at(")


def test_show_source_module_explains_where_it_lives():
    view = show_source(keras.Module)
    assert view.urls == []
    assert "not in keras-team/keras" in repr(view)


def test_show_source_lines_excerpt():
    full = show_source(keras.Layer.__call__)
    part = show_source(keras.Layer.__call__, lines=(2, 4))
    assert part.source == textwrap.dedent(
        "".join(full.source.splitlines(keepends=True)[1:4]))
    assert part.first_line == full.first_line + 1
    assert part.last_line == full.first_line + 3


@pytest.mark.parametrize("lines", [(0, 2), (3, 2), (1, 10_000), "12"])
def test_show_source_bad_lines_raise(lines):
    with pytest.raises(ValueError, match="lines"):
        show_source(keras.Layer.__call__, lines=lines)


def test_show_source_paths_are_relative_to_the_repository():
    view = show_source(keras.layers.Dense)
    assert view.path == "kerasmini/layers/core/dense.py"
    assert view.location.startswith("kerasmini/layers/core/dense.py:")
    assert "/work/" not in repr(view) and "/home/" not in repr(view)


def test_show_source_property_and_html():
    view = show_source(keras.Layer.trainable_weights)
    assert view.source.startswith("@property")
    html = view._repr_html_()
    assert html.startswith('<div class="kerasmini-source">')
    assert "kerasmini/engine/base_layer.py" in html


def test_show_source_rejects_objects_without_source():
    with pytest.raises(TypeError, match="Cannot show the source"):
        show_source(len)


def test_keras_links_text_and_html():
    links = keras_links("Layer._maybe_build")
    source = keras_source("Layer._maybe_build")
    assert links.urls == [source.keras2.url, source.keras3.url]
    assert repr(links).splitlines()[0].startswith("Keras 2.6 keras/engine/base_layer.py")
    assert f'href="{source.keras3.url}"' in links._repr_html_()


def test_keras_links_one_sided_entry():
    links = keras_links("track_variable")
    assert links.urls == [keras_source("track_variable").keras2.url]


def test_keras_links_unknown_key_raises():
    with pytest.raises(ValueError, match="Close keys"):
        keras_links("Layer.add_weigth")


def test_relative_path_of_notebook_cells():
    assert relative_path("/tmp/ipykernel_12/345.py") == "<cell>"
    assert relative_path("/somewhere/else/file.py") == "file.py"


def test_show_source_lines_by_marker():
    view = show_source(keras.Layer.__call__, lines=("# 4.", "# 5."))
    assert view.source.splitlines()[0] == "# 4. Call build (once)."
    assert "# 5." not in view.source
    with pytest.raises(ValueError, match="no line starts with"):
        show_source(keras.Layer.__call__, lines=("# 99.", 3))


def test_show_source_html_has_light_and_dark_colours_for_its_tokens():
    import re

    html = show_source(keras.layers.Dense.call)._repr_html_()
    # No inline colours: every token colour comes from the style block, once
    # for the light theme and once for each dark theme.
    assert 'style="color' not in html
    classes = set(re.findall(r'<span class="(\w+)"', html)) - {"linenos"}
    assert {"k", "n"} <= classes
    for name in classes:
        assert f".kerasmini-themed .{name} {{" in html
        assert f'html[data-theme="dark"] .kerasmini-themed .{name} {{' in html
    light = re.search(r"\n\.kerasmini-themed \.k \{ color: (#\w+)", html).group(1)
    dark = re.search(r'dark"\] \.kerasmini-themed \.k \{ color: (#\w+)', html).group(1)
    assert light.lower() != dark.lower()


# --- Readable colours (WCAG AA: 4.5:1 for text) --------------------------------

def test_contrast_ratio_matches_wcag_reference_values():
    from kerasmini.book.source import contrast_ratio

    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#000000", "#000000") == pytest.approx(1.0)
    # WebAIM's checker: #767676 on white is the lightest grey that passes AA.
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio("#777777", "#ffffff") < 4.5
    assert contrast_ratio("#fff", "#000") == contrast_ratio("#000000", "#ffffff")


def test_readable_keeps_readable_colours_and_fixes_the_others():
    from kerasmini.book.source import contrast_ratio, readable

    assert readable("#1f2328", "#f6f8fa") == "#1f2328"
    fixed = readable("#6e7781", "#f6f8fa")  # github-light's comment colour
    assert contrast_ratio(fixed, "#f6f8fa") >= 4.5
    assert contrast_ratio(fixed, "#f6f8fa") < 4.7  # the nearest shade, not black
    lighter = readable("#6e7681", "#161b22")  # github-dark's whitespace colour
    assert contrast_ratio(lighter, "#161b22") >= 4.5
    assert sum(int(lighter[i:i + 2], 16) for i in (1, 3, 5)) > 0x6e + 0x76 + 0x81


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_listing_colour_reads_at_wcag_aa(theme):
    from kerasmini.book.source import _PAGE, contrast_ratio, palette

    colours = palette(theme)
    box = colours["background"]
    for name in ("text", "line_numbers", "link", "symbol"):
        assert contrast_ratio(colours[name], box) >= 4.5, name
    for page in _PAGE[theme]:
        assert contrast_ratio(colours["header"], page) >= 4.5
    checked = 0
    for name, rule in colours["tokens"].items():
        colour = re.search(r"(?:^|; )color: (#[0-9a-fA-F]{6})", rule)
        if colour:
            background = re.search(r"background-color: (#[0-9a-fA-F]{6})\b", rule)
            on = background.group(1) if background else box
            assert contrast_ratio(colour.group(1), on) >= 4.5, (name, rule)
            checked += 1
    assert checked > 50  # every Pygments token class with a colour


def test_listing_html_uses_the_readable_palette():
    from kerasmini.book.source import palette

    html = show_source(keras.layers.Dense.call)._repr_html_()
    light, dark = palette("light"), palette("dark")
    assert f".kerasmini-themed .linenos {{ color: {light['line_numbers']} }}" in html
    assert (f'html[data-theme="dark"] .kerasmini-themed .linenos {{ color: '
            f"{dark['line_numbers']} }}") in html
    assert f".kerasmini-source-header {{ color: {light['header']} }}" in html
    # Faded text is what failed the contrast check (the book's theme fades
    # line numbers with `opacity: .8 !important`).
    assert re.findall(r"opacity: ([\d.]+)", html) == ["1"]
    assert ".kerasmini-themed .linenos { padding-right: 0.8em; user-select: none; " \
           "opacity: 1 !important; }" in html
    assert "#808080" not in html
