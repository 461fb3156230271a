"""Tests for kerasmini.book.keras_sources: the table of pinned Keras links.

These check the shape of every link without the network. Whether each range
really is the named definition is checked by ``verify_against_checkout``
against a clone of keras-team/keras, by hand.
"""

import dataclasses
import re

import pytest

from kerasmini.book.keras_sources import (
    KERAS2_TAG,
    KERAS3_TAG,
    KERAS_SOURCES,
    NOT_IN_KERAS,
    KerasSource,
    SourceRef,
    keras_source,
)

URL_RE = re.compile(
    r"^https://github\.com/keras-team/keras/blob/v(2\.6\.0|3\.15\.1)"
    r"/keras/[\w/]+\.py#L\d+-L\d+$"
)

# The names the chapters link; Module, GradientTape and function live outside
# keras-team/keras and are in NOT_IN_KERAS instead.
EXPECTED_KEYS = {
    "Variable", "Variable.assign", "name_scope", "auto_name", "get_uid",
    "clear_session", "track_variable", "keras_export",
    "Layer", "Layer.__init__", "Layer.build", "Layer.call", "Layer.add_weight",
    "Layer._maybe_build", "Layer.__call__", "Layer.__setattr__",
    "Layer.trainable_weights", "Layer.weights", "Layer.get_weights",
    "Layer.set_weights", "Layer.count_params", "Layer.compute_output_shape",
    "Layer.get_config", "Layer._resolve_training",
    "InputSpec", "assert_input_compatibility", "KerasTensor", "Input",
    "InputLayer", "Node", "KerasHistory", "Node.iterate_inbound",
    "Node.parent_nodes",
    "Functional", "Functional.__init__", "Functional._init_graph_network",
    "map_graph", "Functional._run_internal_graph", "Functional.get_config",
    "Model", "Model.__new__", "Model.compile", "Model.fit", "Model.train_step",
    "Model.test_step", "Model.predict_step", "Model.make_train_function",
    "Model.evaluate", "Model.predict", "Model.summary", "print_summary",
    "Model.save",
    "Sequential", "Sequential.add", "Sequential.pop", "Sequential.build",
    "Dense", "Dense.build", "Dense.call", "Dropout", "Activation", "Lambda",
    "Flatten", "Reshape", "Add", "Concatenate", "Conv2D", "BatchNormalization",
    "Embedding", "MaxPooling2D",
    "Optimizer.apply_gradients", "SGD", "Adam",
    "History", "Callback", "CallbackList", "EarlyStopping", "ModelCheckpoint",
    "ProgbarLogger", "Progbar",
    "serialize_keras_object", "deserialize_keras_object",
    "register_keras_serializable", "save_model", "load_model",
    "Loss", "MeanSquaredError", "Metric", "Mean",
}  # fmt: skip

ENTRIES = sorted(KERAS_SOURCES.items())
REFS = [
    (key, side, ref)
    for key, source in ENTRIES
    for side, ref in (("keras2", source.keras2), ("keras3", source.keras3))
    if ref is not None
]
REF_IDS = [f"{key}-{side}" for key, side, _ in REFS]


def test_keras_sources_has_every_expected_key():
    assert EXPECTED_KEYS <= set(KERAS_SOURCES)


def test_keras_sources_keys_outside_keras_are_not_in_table():
    assert set(NOT_IN_KERAS) == {"Module", "GradientTape", "function"}
    assert not set(NOT_IN_KERAS) & set(KERAS_SOURCES)


@pytest.mark.parametrize("key,source", ENTRIES, ids=[k for k, _ in ENTRIES])
def test_keras_sources_entry_has_at_least_one_side(key, source):
    assert isinstance(source, KerasSource)
    assert source.keras2 is not None or source.keras3 is not None


@pytest.mark.parametrize("key,side,ref", REFS, ids=REF_IDS)
def test_source_ref_tag_matches_side(key, side, ref):
    assert isinstance(ref, SourceRef)
    assert ref.tag == (KERAS2_TAG if side == "keras2" else KERAS3_TAG)


@pytest.mark.parametrize("key,side,ref", REFS, ids=REF_IDS)
def test_source_ref_path_matches_version_layout(key, side, ref):
    if side == "keras2":
        assert ref.path.startswith("keras/")
        assert "/src/" not in ref.path
    else:
        assert ref.path.startswith("keras/src/")
    assert ref.path.endswith(".py")


@pytest.mark.parametrize("key,side,ref", REFS, ids=REF_IDS)
def test_source_ref_range_is_ordered_and_short(key, side, ref):
    assert 1 <= ref.start <= ref.end
    assert ref.end - ref.start < 1500


@pytest.mark.parametrize("key,side,ref", REFS, ids=REF_IDS)
def test_source_ref_url_is_a_pinned_line_link(key, side, ref):
    assert URL_RE.match(ref.url), ref.url
    assert ref.url.endswith(f"/{ref.path}#L{ref.start}-L{ref.end}")


@pytest.mark.parametrize("key,side,ref", REFS, ids=REF_IDS)
def test_source_ref_symbol_only_when_it_differs(key, side, ref):
    if ref.symbol:
        assert re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", ref.symbol)
        assert ref.symbol != key


def test_source_ref_url_and_label_for_layer_call():
    ref = keras_source("Layer.__call__").keras2
    assert ref.url == (
        "https://github.com/keras-team/keras/blob/v2.6.0/"
        "keras/engine/base_layer.py#L926-L1046"
    )
    assert ref.label == "Keras 2.6 keras/engine/base_layer.py#L926-L1046"


def test_source_ref_label_names_keras3_minor_version():
    ref = keras_source("Layer.__call__").keras3
    assert ref.label == "Keras 3.15 keras/src/layers/layer.py#L872-L1060"


def test_source_ref_is_frozen():
    ref = keras_source("Dense").keras2
    with pytest.raises(dataclasses.FrozenInstanceError):
        ref.start = 1


def test_keras_source_returns_table_entry():
    assert keras_source("Layer.add_weight") is KERAS_SOURCES["Layer.add_weight"]


def test_keras_source_missing_side_is_none():
    assert keras_source("track_variable").keras3 is None
    assert keras_source("keras_export").keras2 is None


def test_keras_source_unknown_key_names_close_matches():
    with pytest.raises(ValueError, match="Close keys: 'Layer.add_weight'"):
        keras_source("Layer.add_weigth")


def test_keras_source_unknown_key_lists_several_close_matches():
    with pytest.raises(ValueError) as info:
        keras_source("Layer.get_weight")
    message = str(info.value)
    assert "'Layer.get_weights'" in message
    assert "'Layer.set_weights'" in message


def test_keras_source_unrelated_key_points_to_table():
    with pytest.raises(ValueError, match="See KERAS_SOURCES for all keys"):
        keras_source("zzz")


def test_keras_source_name_outside_keras_says_where_it_lives():
    with pytest.raises(ValueError, match="not in keras-team/keras.*TensorFlow"):
        keras_source("Module")


def _kerasmini_objects():
    """``{name: object}`` for every class and function defined in kerasmini."""
    import importlib

    from kerasmini.book.codebase import list_modules

    found = {}
    for module_name in list_modules():
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            if (isinstance(obj, type) or callable(obj)) and str(
                    getattr(obj, "__module__", "")).startswith("kerasmini"):
                found.setdefault(name, obj)
    return found


def _resolve(key, objects):
    head, *rest = key.split(".")
    obj = objects.get(head)
    for part in rest:
        if obj is None:
            return None
        obj = getattr(obj, part, None)
    return obj


def test_every_table_key_names_a_live_kerasmini_object():
    # a rename in kerasmini would otherwise drop a chapter's links silently
    objects = _kerasmini_objects()
    dead = [key for key in KERAS_SOURCES if _resolve(key, objects) is None]
    assert dead == [], f"keys naming nothing in kerasmini: {dead}"
