"""A pinned range of lines in the real Keras source, and the two pinned tags.

Keras 2 is tag ``v2.6.0`` of ``keras-team/keras`` (the tf.keras of TensorFlow
2.6, files under ``keras/``), Keras 3 is tag ``v3.15.1`` (files under
``keras/src/``). :mod:`kerasmini.book.keras_source_table` lists the ranges;
:mod:`kerasmini.book.keras_sources` looks them up and checks them.

>>> SourceRef(KERAS3_TAG, "keras/src/ops/node.py", 8, 110).label
'Keras 3.15 keras/src/ops/node.py#L8-L110'
"""

from __future__ import annotations

from dataclasses import dataclass

KERAS2_TAG = "v2.6.0"  # commit 3a33d53ea4aca312c5ad650b4883d9bac608a32e
KERAS3_TAG = "v3.15.1"  # commit 250b42181ce9f37df68319d8f4753ec89a349a43
REPO_URL = "https://github.com/keras-team/keras"


@dataclass(frozen=True)
class SourceRef:
    """One pinned range of lines in the real Keras source.

    Args:
        tag: ``KERAS2_TAG`` or ``KERAS3_TAG``.
        path: the file inside the repository, e.g. ``"keras/engine/base_layer.py"``.
        start: first line (the ``def``/``class`` line or its first decorator).
        end: last line, inclusive.
        symbol: the dotted name of the definition in the real source when it
            differs from the table key (``"OptimizerV2.apply_gradients"`` for
            ``"Optimizer.apply_gradients"``); empty when it is the key itself.

    >>> ref = SourceRef(KERAS2_TAG, "keras/engine/base_layer.py", 926, 1046)
    >>> ref.label
    'Keras 2.6 keras/engine/base_layer.py#L926-L1046'
    >>> ref.url
    'https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/base_layer.py#L926-L1046'
    """

    tag: str
    path: str
    start: int
    end: int
    symbol: str = ""

    @property
    def url(self) -> str:
        """The GitHub link that highlights the range at the pinned tag."""
        return f"{REPO_URL}/blob/{self.tag}/{self.path}#L{self.start}-L{self.end}"

    @property
    def label(self) -> str:
        """Short link text: Keras major.minor version, path and line range."""
        version = ".".join(self.tag.lstrip("v").split(".")[:2])
        return f"Keras {version} {self.path}#L{self.start}-L{self.end}"


@dataclass(frozen=True)
class KerasSource:
    """Where one kerasmini name lives in Keras 2 and in Keras 3.

    Either side is ``None`` when that version has no counterpart.

    >>> from kerasmini.book.keras_sources import keras_source
    >>> source = keras_source("Node.iterate_inbound")
    >>> source.keras2.path, source.keras3
    ('keras/engine/node.py', None)
    """

    keras2: SourceRef | None
    keras3: SourceRef | None
