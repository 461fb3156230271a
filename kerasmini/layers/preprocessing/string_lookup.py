"""``StringLookup``: strings to integer indices through a vocabulary.

See :mod:`kerasmini.layers.preprocessing.index_lookup` for the rules
(reserved indices, ``adapt``, ``output_mode``, ``invert``) and
:mod:`kerasmini.layers.preprocessing.strings` for how kerasmini holds
strings (NumPy arrays of ``str``). With ``invert=True`` the output is such an
array.

>>> layer = StringLookup()
>>> layer.adapt(np.array([["cat", "dog", "cat"]]))
>>> layer.get_vocabulary(), layer(np.array([["dog", "fox"]])).tolist()
(['[UNK]', 'cat', 'dog'], [[2, 0]])
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.layers.preprocessing.index_lookup import IndexLookup
from kerasmini.layers.preprocessing.strings import to_string_array


@keras_export("kerasmini.layers.StringLookup")
class StringLookup(IndexLookup):
    """Map strings to indices (or back, with ``invert=True``).

    Args:
        max_tokens: the largest vocabulary ``adapt`` keeps, reserved indices
            included (``None``: no limit).
        num_oov_indices: indices for unknown strings (default 1; with more,
            kerasmini cannot hash strings as TensorFlow does and refuses).
        mask_token: a string that maps to index 0 (``None``: no mask).
        oov_token: the string ``invert`` gives unknown indices (``"[UNK]"``).
        vocabulary: a list or array of strings, or a text file's path.
        idf_weights: ``"tf_idf"`` mode: one weight per vocabulary entry.
        invert: map indices to strings.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"``
            or ``"tf_idf"``.
        pad_to_max_tokens: vectors of ``max_tokens`` entries whatever the
            vocabulary's size.
        sparse: only ``False``.
        encoding: how bytes inputs are decoded (``"utf-8"``).

    >>> StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")(
    ...     np.array([["a", "a"], ["b", "x"]])).tolist()
    [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None,
                 oov_token="[UNK]", vocabulary=None, idf_weights=None,
                 invert=False, output_mode="int", pad_to_max_tokens=False,
                 sparse=False, encoding="utf-8", name=None, salt=None, **kwargs):
        # set before Layer.__init__ runs: the vocabulary is read with it
        object.__setattr__(self, "encoding", encoding)
        if num_oov_indices is not None and not isinstance(num_oov_indices, bool) \
                and isinstance(num_oov_indices, int) and num_oov_indices > 1:
            raise NotImplementedError(
                "StringLookup: kerasmini sends unknown strings to one OOV index; "
                "several need TensorFlow's FarmHash of the string. Received: "
                f"num_oov_indices={num_oov_indices}"
            )
        kwargs.pop("vocabulary_dtype", None)
        super().__init__(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices,
            mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
            idf_weights=idf_weights, invert=invert, output_mode=output_mode,
            pad_to_max_tokens=pad_to_max_tokens, sparse=sparse, name=name,
            salt=salt, vocabulary_dtype="string", **kwargs)

    def _to_keys(self, values, name):
        if self.invert and name == "inputs":
            values = np.asarray(values)
            if values.dtype.kind not in "iu":
                raise TypeError(
                    f"StringLookup '{self.name}' with `invert=True` maps integer "
                    f"indices to strings. Received: inputs of dtype {values.dtype}"
                )
            return values
        return to_string_array(values, name, "StringLookup", self.encoding)

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]  # always "string"
        config["encoding"] = self.encoding
        return config


__all__ = ["StringLookup"]
