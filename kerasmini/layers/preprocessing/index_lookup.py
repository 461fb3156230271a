"""``IndexLookup``: the vocabulary table behind ``StringLookup`` and
``IntegerLookup``.

A vocabulary maps each known token to an index. The first indices are
reserved: with a ``mask_token`` (and ``output_mode="int"``) index 0 is the
mask, then come ``num_oov_indices`` indices for tokens out of the vocabulary
(OOV), then the tokens themselves, most frequent first. So with no mask and
one OOV index, ``["a", "b"]`` gives ``a -> 1``, ``b -> 2`` and anything else
``-> 0``. With several OOV indices an unknown integer goes to
``oov_start + token % num_oov_indices``.

The vocabulary comes from the constructor (``vocabulary=``, then kept in the
config), from ``set_vocabulary``, or from ``adapt(data)``, which counts the
tokens of the data and keeps the ``max_tokens`` most frequent (ties broken by
the tokens themselves, larger first, as Keras sorts them); an adapted
vocabulary is saved in the ``.keras`` archive as Keras saves it, a text file
``assets/<layer path>/vocabulary.txt`` of one token per line.

``output_mode`` decides the output: ``"int"`` the indices, or one vector per
token (``"one_hot"``) or per sample (``"multi_hot"``, ``"count"``,
``"tf_idf"``: counts times each token's inverse document frequency
``log(1 + documents / (1 + documents with the token))``, learnt by ``adapt``).
``invert=True`` maps indices back to tokens.

kerasmini has no TensorFlow and no string tensors: the lookup is a NumPy
function of the input array (a backend primitive without gradient, so it
runs inside a traced ``fit`` too), and strings are NumPy arrays of Python
``str``.

>>> from kerasmini.layers import StringLookup
>>> StringLookup(vocabulary=["a", "b"])(np.array(["b", "z", "a"])).tolist()
[2, 0, 1]
"""

import collections
import math
import os

import numpy as np

from kerasmini.backend import validation
from kerasmini.backend.keras_tensor import KerasTensor, is_keras_tensor
from kerasmini.backend.preprocessing import numpy_function
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.preprocessing.data_layer import (
    batches_of,
    encode_categorical_inputs,
)

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")
# the older spellings Keras still takes
OUTPUT_MODE_ALIASES = {"binary": "multi_hot", "tf-idf": "tf_idf"}


class _Table:
    """The vocabulary: ``tokens`` in index order (from the first non-reserved
    index on) and ``index``, token -> index. A plain object, so the layer's
    walks over its attributes (weights, sub-layers) do not visit every token.
    """

    def __init__(self, tokens=(), start=0):
        self.tokens = list(tokens)
        self.index = {token: start + i for i, token in enumerate(self.tokens)}


class _Counts:
    """What ``adapt`` counts: tokens, documents per token, documents."""

    def __init__(self):
        self.tokens = collections.Counter()
        self.documents_with = collections.Counter()
        self.documents = 0


def listify(value):
    """Arrays (and arrays inside lists) as lists, for a config.

    >>> listify(np.array([1, 2]))
    [1, 2]
    """
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [listify(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


class IndexLookup(Layer):
    """Maps tokens to indices through a vocabulary (the base of the lookups).

    Subclasses set the kind of token with ``vocabulary_dtype`` (``"string"``
    or ``"int64"``) and convert their inputs with :meth:`_to_keys`.

    >>> from kerasmini.layers import IntegerLookup
    >>> layer = IntegerLookup()
    >>> layer.adapt(np.array([5, 5, 9]))
    >>> layer.get_vocabulary()
    [-1, 5, 9]
    """

    _takes_text = True  # a model holding it passes text on (models/model.py)

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token,
                 vocabulary_dtype, vocabulary=None, idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", name=None, salt=None, **kwargs):
        owner = type(self).__name__
        if max_tokens is not None:
            validation.check_int(max_tokens, "max_tokens", owner=owner)
            if max_tokens <= 1:
                raise ValueError(
                    "If set, `max_tokens` must be greater than 1. "
                    f"Received: max_tokens={max_tokens}"
                )
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(
                "If pad_to_max_tokens is True, must set `max_tokens`. "
                f"Received: max_tokens={max_tokens}"
            )
        validation.check_int(num_oov_indices, "num_oov_indices", owner=owner)
        if num_oov_indices < 0:
            raise ValueError(
                "`num_oov_indices` must be greater than or equal to 0. "
                f"Received: num_oov_indices={num_oov_indices}"
            )
        validation.check_choice(oov_method, "oov_method", ("floormod", "farmhash"),
                                owner=owner)
        if oov_method == "farmhash" or salt is not None:
            raise NotImplementedError(
                f"{owner}: kerasmini does not hash OOV tokens with FarmHash or "
                "SipHash (TensorFlow's `to_hash_bucket`): use "
                f"`oov_method='floormod'` and no `salt`. Received: "
                f"oov_method={oov_method!r}, salt={salt!r}"
            )
        output_mode = OUTPUT_MODE_ALIASES.get(output_mode, output_mode)
        validation.check_choice(output_mode, "output_mode", OUTPUT_MODES,
                                owner=owner)
        if invert and output_mode != "int":
            raise ValueError(
                "`output_mode` must be `'int'` when `invert` is true. "
                f"Received: output_mode={output_mode}"
            )
        if sparse:
            raise ValueError(
                "`sparse=True` cannot be used with kerasmini: it has no sparse "
                f"tensors. Received: sparse={sparse}"
            )
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(
                "`idf_weights` should only be set if `output_mode` is "
                f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                f"output_mode={output_mode}"
            )
        frozen_size = kwargs.pop("vocabulary_size", None)
        has_input_vocabulary = kwargs.pop("has_input_vocabulary",
                                          vocabulary is not None)
        kwargs.pop("dtype", None)  # the layer's dtype is its vocabulary's
        trainable = kwargs.pop("trainable", True)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name, trainable=trainable)
        self.invert = bool(invert)
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.vocabulary_dtype = vocabulary_dtype
        self.oov_method = oov_method
        self.salt = salt
        self._frozen_vocab_size = frozen_size
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self._has_input_vocabulary = has_input_vocabulary
        self._table = _Table()  # the vocabulary without the reserved indices
        self.idf_weights = None
        if output_mode == "tf_idf" and has_input_vocabulary and idf_weights is None:
            raise ValueError(
                "When specifying the `vocabulary` argument, in TF-IDF output "
                "mode, the `idf_weights` argument must also be provided."
            )
        self.reset_state()
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    @property
    def _returns_text(self):
        """Strings out (``StringLookup(invert=True)``): the layer's call
        may return an array of ``str`` (``validation.check_layer_outputs``)."""
        return self.invert and self._is_string

    # --------------------------------------------------------- the indices
    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def vocabulary_size(self):
        """The size of the vocabulary, reserved indices included."""
        return len(self._table.tokens) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary in index order: ``vocabulary[i]`` is the token of
        index ``i`` (the mask token at 0 in ``"int"`` mode, then the OOV
        token once per OOV index), or without those with
        ``include_special_tokens=False``."""
        tokens = list(self._table.tokens)
        if not include_special_tokens:
            return tokens
        reserved = [self.oov_token] * self._token_start_index()
        if self._oov_start_index() == 1:  # index 0 is the mask's
            reserved[0] = self.mask_token
        return reserved + tokens

    # ------------------------------------------------------- set and adapt
    def _vocabulary_array(self, vocabulary):
        if isinstance(vocabulary, (list, tuple)) or not isinstance(vocabulary,
                                                                   np.ndarray):
            vocabulary = np.array(list(vocabulary),
                                  dtype=object if self._is_string else None)
        return self._to_keys(vocabulary, "vocabulary")

    @property
    def _is_string(self):
        return self.vocabulary_dtype == "string"

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replace the vocabulary (and, in ``"tf_idf"`` mode, the weights).

        Args:
            vocabulary: a list, tuple or 1-D array of tokens, with or
                without the reserved tokens first; or the path of a text file
                of one token per line.
            idf_weights: one weight per token (``"tf_idf"`` mode only).
        """
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is "
                                 "'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError(
                "`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                f"Received: output_mode={self.output_mode} and "
                f"idf_weights={idf_weights}"
            )
        if isinstance(vocabulary, (str, os.PathLike)):
            vocabulary = self._read_vocabulary_file(vocabulary)
        vocabulary = self._vocabulary_array(vocabulary)
        if vocabulary.ndim != 1:
            raise ValueError(
                f"{type(self).__name__}: the vocabulary must be 1-D. Received: "
                f"vocabulary of shape {vocabulary.shape}"
            )
        if vocabulary.size == 0:
            raise ValueError(
                f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}"
            )
        token_start = self._token_start_index()
        special = [self.mask_token] * self._oov_start_index() + \
            [self.oov_token] * self.num_oov_indices
        found_special = vocabulary[:token_start].tolist() == special
        tokens = vocabulary[token_start:] if found_special else vocabulary
        repeated = [t for t, n in collections.Counter(tokens.tolist()).items()
                    if n > 1]
        if repeated:
            raise ValueError(
                "The passed vocabulary has at least one repeated term. Please "
                f"uniquify your dataset. The repeated terms are: {repeated}"
            )
        for token, what, check in ((self.mask_token, "mask", True),
                                   (self.oov_token, "OOV", self.invert)):
            if token is not None and check and token in tokens.tolist():
                index = int(np.argwhere(vocabulary == token)[-1][0])
                raise ValueError(
                    f"Found reserved {what} token at unexpected location in "
                    "`vocabulary`. Note that passed `vocabulary` does not need to "
                    "include the OOV and mask tokens. Either remove all mask and "
                    "OOV tokens, or include them only at the start of the "
                    f"vocabulary in precisely this order: {special}. Received: "
                    f"{'mask' if what == 'mask' else 'oov'}_token={token} at "
                    f"vocabulary index {index}"
                )
        size = token_start + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(
                "Attempted to set a vocabulary larger than the maximum vocab "
                f"size. Received vocabulary size is {size}; `max_tokens` is "
                f"{self.max_tokens}."
            )
        self._set_tokens(tokens.tolist())
        if self.output_mode == "tf_idf":
            self._set_idf_weights(idf_weights, len(vocabulary), found_special)

    def _set_idf_weights(self, idf_weights, vocabulary_length, found_special):
        idf_weights = np.asarray(idf_weights)
        if len(idf_weights) != vocabulary_length:
            raise ValueError(
                "`idf_weights` must be the same length as vocabulary. "
                f"len(idf_weights) is {len(idf_weights)}; len(vocabulary) is "
                f"{vocabulary_length}"
            )
        if idf_weights.ndim != 1:
            raise ValueError(
                "TF-IDF data must be a 1-index array. Received: "
                f"type(idf_weights)={type(idf_weights)}"
            )
        # reserved indices get the mean weight (no document counts for them)
        front = 0 if found_special else self._token_start_index()
        front_value = 0 if found_special else np.average(idf_weights)
        back = 0
        if self.pad_to_max_tokens and self.max_tokens is not None:
            back = self.max_tokens - front - len(idf_weights)
        self.idf_weights = np.pad(idf_weights, (front, back), "constant",
                                  constant_values=(front_value, 0)).astype("float32")

    def _set_tokens(self, tokens):
        self._table = _Table(tokens, self._token_start_index())
        self._record_vocabulary_size()

    def _record_vocabulary_size(self):
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is not None and \
                self.vocabulary_size() != self._frozen_vocab_size and self.built:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and "
                "`pad_to_max_tokens=False`, the vocabulary size cannot be changed "
                f"after the layer is called. Old vocab size is "
                f"{self._frozen_vocab_size}, new vocab size is "
                f"{self.vocabulary_size()}"
            )
        self._frozen_vocab_size = self.vocabulary_size()

    def adapt(self, data, steps=None):
        """Build the vocabulary from the tokens of ``data``: an array or a
        list (each row a sample; a 1-D array is one token per sample), or a
        ``keras.utils.PyDataset`` or iterable of batches (``steps`` batches
        at most)."""
        self.reset_state()
        if isinstance(data, (list, tuple, np.ndarray, str)):
            data = self._to_keys(data, "data")
            if data.ndim == 1:
                data = data[:, None]
            self.update_state(data)
        else:
            for batch in batches_of(data, steps, owner=f"{type(self).__name__}"
                                    ".adapt"):
                self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        if self._has_input_vocabulary:
            raise ValueError(
                f"Cannot adapt layer '{self.name}' after setting a static "
                "vocabulary via `vocabulary` argument or `set_vocabulary()` method."
            )
        data = self._to_keys(data, "data")
        if data.ndim == 0:
            data = data[None]
        if data.ndim == 1:
            data = data[None]  # one document
        self._count_documents([row.ravel().tolist() for row in data])

    def _count_documents(self, documents):
        """Count the tokens of ``documents`` (lists of tokens) and, for
        ``"tf_idf"``, the documents each token appears in."""
        for document in documents:
            self._counts.tokens.update(document)
        if self.output_mode == "tf_idf":
            for document in documents:
                self._counts.documents_with.update(set(document))
            self._counts.documents += len(documents)

    def finalize_state(self):
        counts = self._counts
        if self._has_input_vocabulary or not counts.tokens:
            if self.output_mode == "tf_idf" and self.idf_weights is None:
                self.idf_weights = np.zeros(self.vocabulary_size(), "float32")
            self._record_vocabulary_size()
            return
        for special in (self.mask_token, self.oov_token):
            counts.tokens.pop(special, None)
        # most frequent first; ties: the larger token first (Keras sorts the
        # pairs (count, token) and reverses)
        tokens = sorted(counts.tokens, reverse=True,
                        key=lambda t: (counts.tokens[t], t))
        if self.max_tokens:
            tokens = tokens[:self.max_tokens - self._token_start_index()]
        self._set_tokens(tokens)
        if self.output_mode == "tf_idf":
            weights = np.array([
                math.log(1 + counts.documents / (1 + counts.documents_with[t]))
                for t in tokens],
                dtype="float64").astype("float32")
            self.idf_weights = np.pad(
                weights, (self._token_start_index(), 0), "constant",
                constant_values=np.mean(weights)).astype("float32")
            if self.pad_to_max_tokens and self.max_tokens is not None:
                self.idf_weights = np.pad(
                    self.idf_weights, (0, self.max_tokens - len(self.idf_weights)))
        self.reset_state()
        self._record_vocabulary_size()

    def reset_state(self):
        if self._has_input_vocabulary:
            return
        self._counts = _Counts()

    # ---------------------------------------------------------------- call
    def _to_keys(self, values, name):
        raise NotImplementedError

    def _convert_inputs(self, inputs):
        if is_keras_tensor(inputs) or hasattr(inputs, "__kerasmini_tensor__"):
            return inputs
        return self._to_keys(inputs, "inputs")

    def _lookup(self, keys):
        """The indices (``int64``) of an array of tokens."""
        keys = np.asarray(keys)
        flat = keys.ravel().tolist()
        default = self._oov_start_index() if self.num_oov_indices == 1 else -1
        index = self._table.index
        out = np.array([index.get(k, default) for k in flat],
                       dtype="int64").reshape(keys.shape)
        if self.mask_token is not None:
            mask_value = 0 if self.output_mode == "int" else np.iinfo("int64").max
            out[keys == self.mask_token] = mask_value
        if self.num_oov_indices == 0 and (out == -1).any():
            raise ValueError(
                "When `num_oov_indices=0` all inputs should be in vocabulary, "
                f"found OOV values {sorted(set(keys[out == -1].tolist()))}, "
                "consider setting `num_oov_indices=1`."
            )
        if self.num_oov_indices > 1:
            unknown = out == -1
            hashed = np.mod(keys.astype("int64"), self.num_oov_indices) \
                if unknown.any() else 0
            out = np.where(unknown, hashed + self._oov_start_index(), out)
        return out

    def _lookup_tokens(self, indices):
        """The tokens of an array of indices (``invert=True``)."""
        indices = np.asarray(indices).astype("int64")
        start = self._token_start_index()
        tokens = self._table.tokens
        flat = [tokens[i - start] if start <= i < start + len(tokens) else
                self.oov_token for i in indices.ravel().tolist()]
        out = np.empty(len(flat), dtype=object if self._is_string else "int64")
        out[:] = flat
        out = out.reshape(indices.shape)
        if self.mask_token is not None:
            out[indices == 0] = self.mask_token
        return out

    def _encode(self, inputs):
        if self.invert:
            return self._lookup_tokens(inputs)
        indices = self._lookup(inputs)
        if self.output_mode == "int":
            return indices
        depth = self.max_tokens if self.pad_to_max_tokens else \
            self._frozen_vocab_size
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        out = encode_categorical_inputs(indices, mode, depth, dtype="float32")
        if self.output_mode == "tf_idf":
            out = out * self.idf_weights
        return out

    def _ensure_known_vocab_size(self):
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        if self._frozen_vocab_size is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and "
                "`pad_to_max_tokens=False`, you must set the layer's vocabulary "
                "before calling it. Either pass a `vocabulary` argument to the "
                "layer, or call `adapt` with some sample data."
            )

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs):
        self._ensure_known_vocab_size()
        return numpy_function(inputs, fn=self._encode)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else \
            self._frozen_vocab_size
        input_shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            if len(input_shape) > 1 and input_shape[-1] == 1:
                return input_shape[:-1] + (depth,)
            return input_shape + (depth,)
        return input_shape[:-1] + (depth,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        if self.invert:
            dtype = self.vocabulary_dtype
        else:
            dtype = "int64" if self.output_mode == "int" else "float32"
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype)

    # ------------------------------------------------------------- saving
    def get_config(self):
        config = super().get_config()
        config.update({
            "invert": self.invert,
            "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token,
            "mask_token": self.mask_token,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "vocabulary_dtype": self.vocabulary_dtype,
            "idf_weights": listify(self.input_idf_weights),
            "vocabulary": listify(self.input_vocabulary),
            "vocabulary_size": self._frozen_vocab_size,
            "oov_method": self.oov_method,
            "salt": self.salt,
        })
        return config

    def get_build_config(self):
        return {}

    def build_from_config(self, config):
        self.build(None)

    def save_own_variables(self, store):
        if self.output_mode == "tf_idf":
            store["idf_weights"] = np.asarray(self.idf_weights, "float32")

    def load_own_variables(self, store):
        if self.output_mode == "tf_idf":
            self.idf_weights = np.asarray(store["idf_weights"], "float32")

    def save_assets(self, dir_path):
        if self.input_vocabulary is not None:
            return  # the vocabulary is in the config
        path = os.path.join(dir_path, "vocabulary.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(str(token) for token in self.get_vocabulary()))

    def load_assets(self, dir_path):
        if self.input_vocabulary is not None:
            return
        lines = self._read_vocabulary_file(os.path.join(dir_path, "vocabulary.txt"))
        if self.output_mode == "tf_idf":
            self.set_vocabulary(lines, idf_weights=self.idf_weights)
        else:
            self.set_vocabulary(lines)

    def _read_vocabulary_file(self, path):
        if not os.path.isfile(path):
            raise ValueError(f"Vocabulary file {path} does not exist.")
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        if self._is_string:
            return lines
        try:
            return [int(line) for line in lines]
        except ValueError:
            raise ValueError(
                f"{type(self).__name__}: the vocabulary file {path} must hold one "
                "integer per line."
            ) from None


__all__ = ["IndexLookup", "OUTPUT_MODES", "OUTPUT_MODE_ALIASES", "listify"]
