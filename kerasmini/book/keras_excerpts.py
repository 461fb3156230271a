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
