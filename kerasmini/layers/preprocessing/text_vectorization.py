"""``TextVectorization``: strings to sequences of token indices (or vectors).

Each string goes through four steps, Keras's defaults in brackets:

1. ``standardize`` [``"lower_and_strip_punctuation"``]: ASCII letters to
   lower case (TensorFlow's ``strings.lower`` leaves other letters alone:
   ``"CAFÉ"`` becomes ``"cafÉ"``), then every character of Keras's
   punctuation class :data:`PUNCTUATION` removed; ``"lower"``,
   ``"strip_punctuation"``, ``None`` or your own function of an array of
   strings;
2. ``split`` [``"whitespace"``]: runs of ASCII whitespace separate tokens;
   ``"character"`` gives one token per character, ``None`` keeps the string
   whole, or your own function (an array of strings in, one list of tokens
   per string out);
3. ``ngrams`` [``None``]: with ``ngrams=2`` each sample's tokens are followed
   by its bigrams (``"the cat"``), with ``(1, 3)`` by its trigrams only...;
4. the vocabulary lookup, a ``StringLookup`` (``self._lookup_layer``, with
   ``""`` as the mask token): ``adapt`` learns it, most frequent first.

``output_mode="int"`` gives the indices, padded with 0 (or cut) to
``output_sequence_length``, else to the longest sample of the batch;
``"multi_hot"``, ``"count"`` and ``"tf_idf"`` give one vector per sample.

>>> layer = TextVectorization(output_sequence_length=4)
>>> layer.adapt(np.array(["The cat sat.", "The dog!"]))
>>> layer.get_vocabulary()
['', '[UNK]', 'the', 'sat', 'dog', 'cat']
>>> layer(np.array(["the cat, the bird"])).tolist()
[[2, 5, 2, 1]]
"""

import re

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.backend.keras_tensor import KerasTensor, is_keras_tensor
from kerasmini.backend.preprocessing import numpy_function
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.preprocessing.data_layer import batches_of
from kerasmini.layers.preprocessing.index_lookup import (
    OUTPUT_MODE_ALIASES,
    OUTPUT_MODES,
    listify,
)
from kerasmini.layers.preprocessing.string_lookup import StringLookup
from kerasmini.layers.preprocessing.strings import to_string_array
from kerasmini.saving import serialization

# Keras's punctuation class (`text_vectorization.py`), as a Python regex
PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_PUNCTUATION = re.compile(PUNCTUATION)
_ASCII_SPACE = re.compile("[ \t\n\v\f\r]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                             "abcdefghijklmnopqrstuvwxyz")
STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
SPLIT = ("whitespace", "character")


def standardize_text(text, mode):
    """One string standardised as Keras's ``standardize`` string does.

    >>> standardize_text("Don't PANIC, Café!", "lower_and_strip_punctuation")
    'dont panic café'
    """
    if mode in ("lower", "lower_and_strip_punctuation"):
        text = text.translate(_ASCII_LOWER)
    if mode in ("strip_punctuation", "lower_and_strip_punctuation"):
        text = _PUNCTUATION.sub("", text)
    return text


def split_text(text, mode):
    """One string's tokens.

    >>> split_text("  a\\tbb  c ", "whitespace"), split_text("ab", "character")
    (['a', 'bb', 'c'], ['a', 'b'])
    """
    if mode == "whitespace":
        return [token for token in _ASCII_SPACE.split(text) if token]
    return list(text)


def ngrams_of(tokens, widths):
    """The n-grams of each width in ``widths``, joined by spaces, width by
    width (tokens first if 1 is a width).

    >>> ngrams_of(["a", "b", "c"], (1, 2))
    ['a', 'b', 'c', 'a b', 'b c']
    """
    out = []
    for width in widths:
        out.extend(" ".join(tokens[i:i + width])
                   for i in range(len(tokens) - width + 1))
    return out


def _check_mode(value, name, choices, owner="TextVectorization"):
    if value is None or callable(value):
        return value
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{owner}: argument `{name}` must be one of {choices}, None or a "
            f"callable. Received: {name}={value!r}"
        )
    return value


@keras_export("kerasmini.layers.TextVectorization")
class TextVectorization(Layer):
    """Map strings to token indices (or to vectors of counts).

    Args:
        max_tokens: the largest vocabulary ``adapt`` keeps, the padding and
            OOV indices included.
        standardize: ``"lower_and_strip_punctuation"`` (default), ``"lower"``,
            ``"strip_punctuation"``, ``None`` or a function.
        split: ``"whitespace"`` (default), ``"character"``, ``None`` or a
            function.
        ngrams: ``None``, an integer ``n`` (all n-grams up to ``n``) or a
            tuple of widths.
        output_mode: ``"int"`` (default), ``"multi_hot"``, ``"count"``,
            ``"tf_idf"``, or ``"one_hot"`` (with ``split=None`` only).
        output_sequence_length: ``"int"`` mode: pad or cut to this length.
        pad_to_max_tokens: vectors of ``max_tokens`` entries.
        vocabulary: a list of strings or a text file's path (else ``adapt``).
        idf_weights: ``"tf_idf"`` with a given vocabulary: its weights.
        sparse, ragged: only ``False`` (no sparse or ragged tensors here).
        encoding: how bytes inputs are decoded (``"utf-8"``).

    >>> layer = TextVectorization(output_mode="count", vocabulary=["a", "b"])
    >>> layer(np.array(["a b a", "c"])).tolist()
    [[0.0, 2.0, 1.0], [1.0, 0.0, 0.0]]
    """

    _takes_text = True  # a model holding it passes text on (models/model.py)

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False,
                 vocabulary=None, idf_weights=None, sparse=False, ragged=False,
                 encoding="utf-8", name=None, **kwargs):
        owner = "TextVectorization"
        if sparse or ragged:
            raise ValueError(
                "`sparse=True` and `ragged=True` cannot be used with kerasmini: it "
                f"has no sparse or ragged tensors. Received: sparse={sparse}, "
                f"ragged={ragged}"
            )
        _check_mode(standardize, "standardize", STANDARDIZE)
        _check_mode(split, "split", SPLIT)
        output_mode = OUTPUT_MODE_ALIASES.get(output_mode, output_mode)
        validation.check_choice(output_mode, "output_mode", OUTPUT_MODES,
                                owner=owner)
        if not (ngrams is None or validation.is_int(ngrams) or (
                isinstance(ngrams, tuple)
                and all(validation.is_int(n) for n in ngrams))):
            raise ValueError(
                "`ngrams` must be None, an integer, or a tuple of integers. "
                f"Received: ngrams={ngrams}"
            )
        if output_mode == "int" and not (output_sequence_length is None or
                                         validation.is_int(output_sequence_length)):
            raise ValueError(
                "`output_sequence_length` must be either None or an integer when "
                "`output_mode` is 'int'. Received: "
                f"output_sequence_length={output_sequence_length}"
            )
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError(
                "`output_sequence_length` must not be set if `output_mode` is not "
                f"'int'. Received output_sequence_length={output_sequence_length}."
            )
        if output_mode == "one_hot" and split is not None:
            raise ValueError(
                "TextVectorization: `output_mode='one_hot'` needs `split=None` (one "
                "token per string); to encode split texts use 'multi_hot', "
                f"'count' or 'tf_idf'. Received: split={split!r}"
            )
        has_input_vocabulary = kwargs.pop("has_input_vocabulary",
                                          vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self._max_tokens = max_tokens
        self._standardize = standardize
        self._split = split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if validation.is_int(ngrams) \
            else ngrams
        self._ragged = ragged
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._encoding = encoding
        self._has_input_vocabulary = has_input_vocabulary
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="",
            output_mode=output_mode, sparse=sparse,
            has_input_vocabulary=self._has_input_vocabulary, encoding=encoding,
            vocabulary_size=vocabulary_size)

    # ------------------------------------------------------- preprocessing
    def _convert_inputs(self, inputs):
        if is_keras_tensor(inputs) or hasattr(inputs, "__kerasmini_tensor__"):
            return inputs
        return to_string_array(inputs, "inputs", "TextVectorization",
                               self._encoding)

    def _standardized(self, strings):
        if callable(self._standardize):
            out = self._standardize(strings)
            return to_string_array(out, "the output of `standardize`",
                                   "TextVectorization", self._encoding)
        if self._standardize is None:
            return strings
        flat = [standardize_text(s, self._standardize) for s in strings.ravel()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(strings.shape)

    def _documents(self, strings):
        """One list of tokens per sample (n-grams included)."""
        strings = self._standardized(to_string_array(
            strings, "inputs", "TextVectorization", self._encoding))
        if self._split is not None:
            if strings.ndim > 1:
                if strings.shape[-1] != 1:
                    raise ValueError(
                        "When using `TextVectorization` to tokenize strings, the "
                        "input rank must be 1 or the last shape dimension must be "
                        f"1. Received: inputs.shape={strings.shape} with "
                        f"rank={strings.ndim}"
                    )
                strings = strings[..., 0]
            strings = strings.reshape(-1)
            if callable(self._split):
                documents = [[str(t) for t in tokens]
                             for tokens in self._split(strings)]
            else:
                documents = [split_text(s, self._split) for s in strings.tolist()]
        else:
            documents = [list(row) for row in
                         strings.reshape(len(strings), -1).tolist()] \
                if strings.ndim else [[strings.item()]]
        if self._ngrams is not None:
            documents = [ngrams_of(tokens, self._ngrams) for tokens in documents]
        return documents

    # ------------------------------------------------------------- adapt
    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary from ``data``: an array or list of strings,
        or a ``keras.utils.PyDataset`` or iterable of batches of them
        (``steps`` batches at most)."""
        self.reset_state()
        if isinstance(data, (list, tuple, np.ndarray, str)):
            data = to_string_array(data, "data", "TextVectorization.adapt",
                                   self._encoding)
            if data.ndim == 1:
                data = data[:, None]
            self.update_state(data)
        else:
            for batch in batches_of(data, steps, owner="TextVectorization.adapt"):
                self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        lookup = self._lookup_layer
        if lookup._has_input_vocabulary:
            raise ValueError(
                f"Cannot adapt layer '{lookup.name}' after setting a static "
                "vocabulary via `vocabulary` argument or `set_vocabulary()` method."
            )
        lookup._count_documents(self._documents(data))

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def reset_state(self):
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary in index order (``""`` the padding at 0, then
        ``"[UNK]"``), or without those two."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replace the vocabulary (and, for ``"tf_idf"``, the weights)."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # -------------------------------------------------------------- call
    def _vectorize(self, inputs):
        documents = self._documents(inputs)
        lookup = self._lookup_layer
        if self._output_mode == "int":
            length = self._output_sequence_length
            if length is None:
                length = max((len(d) for d in documents), default=0)
            out = np.zeros((len(documents), length), dtype="int64")
            for row, tokens in enumerate(documents):
                tokens = tokens[:length]
                if tokens:
                    keys = np.empty(len(tokens), dtype=object)
                    keys[:] = tokens
                    out[row, :len(tokens)] = lookup._lookup(keys)
            return out
        rows = []
        for tokens in documents:
            keys = np.empty((1, len(tokens)), dtype=object)
            keys[0, :] = tokens
            rows.append(lookup._encode(keys)[0])
        return np.stack(rows).astype("float32")

    def call(self, inputs):
        self._lookup_layer._ensure_known_vocab_size()
        return numpy_function(inputs, fn=self._vectorize)

    def build(self, input_shape=None):
        self.built = True

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self._output_mode == "int":
            return (input_shape[0], self._output_sequence_length)
        # the lookup sees the tokens: a list per string once split, else the
        # strings themselves (one per sample at least)
        if self._split is not None:
            tokens_shape = input_shape + (None,)
        elif len(input_shape) > 1:
            tokens_shape = input_shape
        else:
            tokens_shape = input_shape + (1,)
        return self._lookup_layer.compute_output_shape(tokens_shape)

    def compute_output_spec(self, inputs, *args, **kwargs):
        dtype = "int64" if self._output_mode == "int" else "float32"
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype)

    # ------------------------------------------------------------- saving
    def get_config(self):
        config = super().get_config()
        lookup = self._lookup_layer
        config.update({
            "max_tokens": lookup.max_tokens,
            "standardize": self._standardize,
            "split": self._split,
            "ngrams": self._ngrams_arg,
            "output_mode": self._output_mode,
            "output_sequence_length": self._output_sequence_length,
            "pad_to_max_tokens": lookup.pad_to_max_tokens,
            "sparse": lookup.sparse,
            "ragged": self._ragged,
            "vocabulary": listify(lookup.input_vocabulary),
            "idf_weights": listify(lookup.input_idf_weights),
            "encoding": self._encoding,
            "vocabulary_size": self.vocabulary_size(),
        })
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("standardize", "split"):
            if config.get(key) is not None and not isinstance(config[key], str) \
                    and not callable(config[key]):
                config[key] = serialization.deserialize_keras_object(config[key])
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return super().from_config(config)

    def get_build_config(self):
        return {"input_shape": None}

    def build_from_config(self, config):
        self.build(None)

    # the state (tf-idf weights, an adapted vocabulary) is the lookup's
    def save_own_variables(self, store):
        lookup = self._lookup_layer
        lookup.save_own_variables(store)

    def load_own_variables(self, store):
        lookup = self._lookup_layer
        lookup.load_own_variables(store)

    def save_assets(self, dir_path):
        lookup = self._lookup_layer
        lookup.save_assets(dir_path)

    def load_assets(self, dir_path):
        lookup = self._lookup_layer
        lookup.load_assets(dir_path)


__all__ = ["PUNCTUATION", "TextVectorization", "ngrams_of", "split_text",
           "standardize_text"]
