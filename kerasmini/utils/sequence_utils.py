"""``pad_sequences``: sequences of different lengths as one 2-D array
(Keras 3: ``keras/src/utils/sequence_utils.py``).

>>> pad_sequences([[1], [2, 3], [4, 5, 6]])
array([[0, 0, 1],
       [0, 2, 3],
       [4, 5, 6]], dtype=int32)
>>> pad_sequences([[1], [2, 3], [4, 5, 6]], maxlen=2, padding="post",
...               truncating="post", value=-1)
array([[ 1, -1],
       [ 2,  3],
       [ 4,  5]], dtype=int32)
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation

OWNER = "pad_sequences"


def _lengths_and_sample_shape(sequences):
    lengths, sample_shape = [], None
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError:
            raise ValueError(
                "pad_sequences: `sequences` must be a list of iterables. Found "
                f"non-iterable: {x!r}. Received: sequences of {len(sequences)} items"
            ) from None
        if sample_shape is None and len(x):  # from the first non-empty sequence
            try:
                sample_shape = np.asarray(x).shape[1:]
            except ValueError:
                sample_shape = None
    return lengths, sample_shape or ()


def _is_string_dtype(dtype):
    try:
        kind = np.dtype(dtype).kind
    except TypeError:
        raise TypeError(f"pad_sequences: argument `dtype` must be a NumPy dtype. "
                        f"Received: dtype={dtype!r}") from None
    return kind in "SU"


@keras_export("kerasmini.utils.pad_sequences")
def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre",
                  truncating="pre", value=0.0):
    """Pad (and cut) ``sequences`` to ``maxlen`` steps: an array of shape
    ``(len(sequences), maxlen) + sample_shape``.

    Args:
        sequences: a list of sequences (lists or arrays, of numbers or of
            equally shaped samples).
        maxlen: the length of every row; None: the longest sequence's.
        dtype: of the result; ``object`` or a string dtype (``"str"``,
            ``"<U10"``) for strings.
        padding: ``"pre"`` (default) or ``"post"``: where ``value`` goes.
        truncating: ``"pre"`` (default) or ``"post"``: which end of a long
            sequence is cut.
        value: the padding value (a string needs ``dtype=object`` or a
            string dtype).

    >>> pad_sequences([["a"], ["b", "c"]], dtype=object, value="")
    array([['', 'a'],
           ['b', 'c']], dtype=object)
    >>> pad_sequences([[1], 5])
    Traceback (most recent call last):
      ...
    ValueError: pad_sequences: `sequences` must be a list of iterables. Found non-iterable: ...
    """
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__len__"):
        raise ValueError("pad_sequences: `sequences` must be a list of sequences. "
                         f"Received: sequences={sequences!r}"[:300])
    maxlen = validation.check_int(maxlen, "maxlen", minimum=0, allow_none=True,
                                  owner=OWNER)
    validation.check_choice(padding, "padding", ("pre", "post"), owner=OWNER)
    validation.check_choice(truncating, "truncating", ("pre", "post"), owner=OWNER)
    _is_string_dtype(dtype)  # a TypeError naming `dtype` if NumPy has no such dtype
    lengths, sample_shape = _lengths_and_sample_shape(sequences)
    if maxlen is None:
        maxlen = max(lengths, default=0)
    if isinstance(value, str) and dtype is not object and not _is_string_dtype(dtype):
        raise ValueError(
            f"pad_sequences: `dtype` {dtype} is not compatible with `value`'s type: "
            f"{type(value)}. You should set `dtype=object` for variable length "
            f"strings. Received: dtype={dtype!r}, value={value!r}"
        )
    try:
        x = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    except (ValueError, TypeError) as e:
        raise ValueError(f"pad_sequences: `value` does not fit `dtype`. Received: "
                         f"value={value!r}, dtype={dtype!r} ({e})") from None
    for idx, (s, length) in enumerate(zip(sequences, lengths)):
        if not length or not maxlen:
            continue
        kept = s[-maxlen:] if truncating == "pre" else s[:maxlen]
        try:
            kept = np.asarray(kept, dtype=dtype)
        except (ValueError, TypeError) as e:
            raise ValueError(
                f"pad_sequences: the sequence at position {idx} cannot be stored "
                f"as dtype {dtype!r}. Received: {list(kept)[:5]!r} ({e})"
            ) from None
        if kept.shape[1:] != sample_shape:
            raise ValueError(
                f"pad_sequences: shape of sample {kept.shape[1:]} of sequence at "
                f"position {idx} is different from expected shape {sample_shape}. "
                f"Received: a sequence of shape {kept.shape}"
            )
        if padding == "post":
            x[idx, :len(kept)] = kept
        else:
            x[idx, maxlen - len(kept):] = kept
    return x


__all__ = ["pad_sequences"]
