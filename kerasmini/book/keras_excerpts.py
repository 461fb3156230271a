"""Pinned lines of Keras that are not a whole definition kerasmini mirrors.

:mod:`~kerasmini.book.keras_source_table` links whole definitions, each with a
kerasmini counterpart. Some claims of the book rest on a line or two *inside*
a definition (the call that checks ``input_spec`` in Keras 2's ``__call__``),
or on code kerasmini does not have (the torch backend's
``compute_output_spec``, Keras 2's ``dynamic`` property). Those links live here,
each with a piece of text that must appear in its lines, so that
:func:`verify_excerpts` can check them against a clone; the chapters may link
these URLs and no others typed by hand (``tests/test_book.py``).

>>> keras_excerpt("keras2-call-checks-input-spec").url
'https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/base_layer.py#L1020'
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from kerasmini.book.source_refs import KERAS2_TAG, KERAS3_TAG, SourceRef


@dataclass(frozen=True)
class Excerpt:
    """A pinned range of Keras lines and a text that must appear in it.

    >>> keras_excerpt("keras2-dynamic").contains
    'def dynamic'
    """

    ref: SourceRef
    contains: str

    @property
    def url(self) -> str:
        """The GitHub link; a single line is written ``#L<n>``."""
        if self.ref.start == self.ref.end:
            return self.ref.url.rsplit("#", 1)[0] + f"#L{self.ref.start}"
        return self.ref.url


def _e2(path, start, end, contains):
    return Excerpt(SourceRef(KERAS2_TAG, path, start, end), contains)


def _e3(path, start, end, contains):
    return Excerpt(SourceRef(KERAS3_TAG, path, start, end), contains)


_K2_LAYER = "keras/engine/base_layer.py"
_K2_TRAINING = "keras/engine/training.py"
_K3 = "keras/src/"

KERAS_EXCERPTS: dict[str, Excerpt] = {
    "keras2-call-checks-input-spec": _e2(
        _K2_LAYER, 1020, 1020, "assert_input_compatibility"),
    "keras2-maybe-build-checks-input-spec": _e2(
        _K2_LAYER, 2633, 2634, "assert_input_compatibility"),
    "keras2-supports-masking": _e2(_K2_LAYER, 1202, 1205, "def supports_masking"),
    "keras2-dynamic": _e2(_K2_LAYER, 1211, 1214, "def dynamic"),
    "keras2-stateful": _e2(_K2_LAYER, 1216, 1219, "def stateful"),
    "keras2-map-graph-computable": _e2(
        "keras/engine/functional.py", 968, 987, "computable_tensors"),
    "keras3-call-checks-input-spec": _e3(
        _K3 + "layers/layer.py", 922, 922, "_assert_input_compatibility"),
    "keras3-maybe-build-checks-input-spec": _e3(
        _K3 + "layers/layer.py", 1557, 1557, "_assert_input_compatibility"),
    "keras3-symbolic-build": _e3(
        _K3 + "trainers/trainer.py", 1125, 1205, "def _symbolic_build"),
    "keras3-torch-compute-output-spec": _e3(
        _K3 + "backend/torch/core.py", 313, 387, "def compute_output_spec"),
    "keras3-jax-compute-output-spec": _e3(
        _K3 + "backend/jax/core.py", 442, 543, "def compute_output_spec"),
    "keras3-tf-compute-output-spec": _e3(
        _K3 + "backend/tensorflow/core.py", 221, 251, "def compute_output_spec"),
    "keras3-function-init-maps-graph": _e3(
        _K3 + "ops/function.py", 78, 92, "map_graph("),
    "keras3-map-graph-computable": _e3(
        _K3 + "ops/function.py", 355, 377, "computable_tensors"),
    # chapter 15, attention
    "keras2-mha-builds-in-call": _e2(
        "keras/layers/multi_head_attention.py", 487, 488, "_build_from_signature"),
    "keras2-mha-config-shapes": _e2(
        "keras/layers/multi_head_attention.py", 274, 276, '"query_shape"'),
    "keras3-call-fills-named-masks": _e3(
        _K3 + "layers/layer.py", 960, 966, 'expected_mask_arg_name = f"{k}_mask"'),
    "keras3-tracker-track": _e3(
        _K3 + "utils/tracking.py", 71, 103, "def track"),
    "keras3-mha-takes-masks-off": _e3(
        _K3 + "layers/attention/multi_head_attention.py", 626, 631,
        "backend.set_keras_mask(query, None)"),
    "keras3-mha-fused-path": _e3(
        _K3 + "layers/attention/multi_head_attention.py", 520, 525,
        "use_dot_product_attention = not ("),
    "keras3-mha-scores-spec": _e3(
        _K3 + "layers/attention/multi_head_attention.py", 873, 878,
        "attention_shape = (query.shape[0], self.num_heads, length, length)"),
    "keras3-walk-saveable-dir": _e3(
        _K3 + "saving/saving_lib.py", 757, 765, "sorted(dir(saveable)"),
    # issue 22, the saving side (chapter 13). Keras 2 (v2.6.0): the format
    # chosen by the path, the SavedModel (traced functions and the object
    # graph), the HDF5 file (config in attributes, weights by position), the
    # object-based checkpoint (edges named by attributes).
    "keras2-save-model-chooses-format": _e2(
        "keras/saving/save.py", 122, 150, "saved_model_save.save"),
    "keras2-load-model-chooses-format": _e2(
        "keras/saving/save.py", 195, 205, "h5py.is_hdf5(filepath)"),
    "keras2-saved-model-save": _e2(
        "keras/saving/saved_model/save.py", 88, 98, "save_and_return_nodes"),
    "keras2-saved-model-layer-metadata": _e2(
        "keras/saving/saved_model/layer_serialization.py", 44, 66,
        "get_serialized(self.obj)"),
    "keras2-saved-model-layer-objects": _e2(
        "keras/saving/saved_model/save_impl.py", 112, 124, "trainable_variables="),
    "keras2-saved-model-layer-functions": _e2(
        "keras/saving/saved_model/save_impl.py", 156, 173,
        "call_and_return_conditional_losses"),
    "keras2-saved-model-load": _e2(
        "keras/saving/saved_model/load.py", 131, 146, "KerasObjectLoader"),
    "keras2-saved-model-revive": _e2(
        "keras/saving/saved_model/load.py", 434, 438, "revive_custom_object"),
    "keras2-revive-custom-object": _e2(
        "keras/saving/saved_model/load.py", 966, 993, "revived_cls"),
    "keras2-h5-refuses-subclassed": _e2(
        "keras/saving/save.py", 136, 144, "_is_graph_network"),
    "keras2-model-metadata": _e2(
        "keras/saving/saving_utils.py", 143, 153, "model.get_config()"),
    "keras2-save-model-to-hdf5": _e2(
        "keras/saving/hdf5_format.py", 109, 126, "model_weights"),
    "keras2-load-model-from-hdf5": _e2(
        "keras/saving/hdf5_format.py", 173, 184, "load_weights_from_hdf5_group"),
    "keras2-hdf5-by-position": _e2(
        "keras/saving/hdf5_format.py", 673, 700, "filtered_layers[k]"),
    "keras2-save-weights-tf-format": _e2(
        _K2_TRAINING, 2250, 2258, "_trackable_saver.save"),
    "keras2-setattr-tracks": _e2(
        _K2_LAYER, 2785, 2787, "sticky_attribute_assignment"),
    "keras2-add-weight-tracks-by-name": _e2(
        _K2_LAYER, 647, 648, "_add_variable_with_custom_getter"),
    "keras2-functional-checkpoint-names": _e2(
        "keras/engine/functional.py", 336, 358, "layer_with_weights-"),
    # Keras 3 (v3.15.1): the legacy HDF5 path kept, `module: null`, and the
    # order of loading.
    "keras3-save-model-legacy-h5": _e3(
        _K3 + "saving/saving_api.py", 83, 91, "considered legacy"),
    "keras3-save-model-chooses-format": _e3(
        _K3 + "saving/saving_api.py", 107, 122, "save_model_to_hdf5"),
    "keras3-load-model-legacy-h5": _e3(
        _K3 + "saving/saving_api.py", 196, 202, "load_model_from_hdf5"),
    "keras3-main-module-is-null": _e3(
        _K3 + "saving/serialization_lib.py", 123, 126, '"__main__"'),
    "keras3-deserialize-builds-and-compiles": _e3(
        _K3 + "saving/serialization_lib.py", 785, 792, "build_from_config"),
    "keras3-load-model-from-fileobj": _e3(
        _K3 + "saving/saving_lib.py", 499, 575, "_load_state("),
}  # fmt: skip


def keras_excerpt(key: str) -> Excerpt:
    """The excerpt for ``key``; ``ValueError`` naming the keys otherwise.

    >>> keras_excerpt("keras3-symbolic-build").ref.label
    'Keras 3.15 keras/src/trainers/trainer.py#L1125-L1205'
    """
    if key not in KERAS_EXCERPTS:
        raise ValueError(
            f"No pinned Keras excerpt {key!r}. Keys: {', '.join(KERAS_EXCERPTS)}."
        )
    return KERAS_EXCERPTS[key]


def verify_excerpts(git_dir: str) -> list[str]:
    """Check every excerpt against a git clone of keras-team/keras (by hand).

    Returns one message per excerpt whose lines lack its ``contains`` text.

    >>> verify_excerpts("/path/to/keras/.git")  # doctest: +SKIP
    []
    """
    problems = []
    for key, excerpt in KERAS_EXCERPTS.items():
        ref = excerpt.ref
        result = subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"{ref.tag}:{ref.path}"],
            capture_output=True, text=True, check=False,
        )
        lines = result.stdout.splitlines()[ref.start - 1:ref.end]
        if excerpt.contains not in "\n".join(lines):
            problems.append(f"{key}: {excerpt.contains!r} not in {ref.label}")
    return problems
