"""``IntegerLookup``: integers to indices through a vocabulary.

See :mod:`kerasmini.layers.preprocessing.index_lookup` for the rules. Useful
when category ids are arbitrary integers (user ids, zip codes): the layer
gives them contiguous indices, most frequent first. Unknown integers go to
the OOV indices (``oov_start + value % num_oov_indices`` with several).

>>> layer = IntegerLookup(vocabulary=[12, 36, 1138])
>>> layer(np.array([[12, 1138, 42]])).tolist()
[[1, 3, 0]]
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.layers.preprocessing.index_lookup import IndexLookup


@keras_export("kerasmini.layers.IntegerLookup")
class IntegerLookup(IndexLookup):
    """Map integers to indices (or back, with ``invert=True``).

    Args:
        max_tokens: the largest vocabulary ``adapt`` keeps, reserved indices
            included (``None``: no limit).
        num_oov_indices: indices for unknown integers (default 1).
        mask_token: an integer that maps to index 0 (``None``: no mask).
        oov_token: the integer ``invert`` gives unknown indices (``-1``).
        vocabulary: a list or array of integers, or a text file's path.
        vocabulary_dtype: only ``"int64"``.
        idf_weights, invert, output_mode, sparse, pad_to_max_tokens: as
            ``StringLookup``'s.
        oov_method: only ``"floormod"``.

    >>> IntegerLookup(vocabulary=[7, 9], invert=True)(np.array([2, 0])).tolist()
    [9, -1]
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None,
                 oov_token=-1, vocabulary=None, vocabulary_dtype="int64",
                 idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, oov_method="floormod", salt=None,
                 name=None, **kwargs):
        if max_tokens is not None and validation.is_int(max_tokens) and \
                max_tokens <= 1:
            raise ValueError(
                "If `max_tokens` is set for `IntegerLookup`, it must be greater "
                f"than 1. Received: max_tokens={max_tokens}"
            )
        if validation.is_int(num_oov_indices) and num_oov_indices < 0:
            raise ValueError(
                "The value of `num_oov_indices` argument for `IntegerLookup` must "
                f">= 0. Received: num_oov_indices={num_oov_indices}"
            )
        if vocabulary_dtype != "int64":
            raise ValueError(
                "Only `vocabulary_dtype='int64'` is supported at this time. "
                f"Received: vocabulary_dtype={vocabulary_dtype}"
            )
        for name_, token in (("oov_token", oov_token), ("mask_token", mask_token)):
            if token is not None and not validation.is_int(token):
                raise TypeError(
                    f"IntegerLookup: argument `{name_}` must be an integer or "
                    f"None. Received: {name_}={token!r}"
                )
        super().__init__(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices,
            mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
            vocabulary_dtype=vocabulary_dtype, idf_weights=idf_weights,
            invert=invert, output_mode=output_mode, sparse=sparse,
            pad_to_max_tokens=pad_to_max_tokens, oov_method=oov_method, salt=salt,
            name=name, **kwargs)

    def _to_keys(self, values, name):
        array = np.asarray(values)
        if array.dtype.kind not in "iub" or array.dtype.kind == "b":
            raise TypeError(
                f"IntegerLookup: `{name}` must hold integers. Received: {name} of "
                f"dtype {array.dtype}"
            )
        return array.astype("int64")

    def get_config(self):
        config = super().get_config()
        for key in ("oov_token", "mask_token"):
            if config[key] is not None:
                config[key] = int(config[key])
        if config["vocabulary"] is not None:
            config["vocabulary"] = [int(v) for v in config["vocabulary"]]
        return config


__all__ = ["IntegerLookup"]
