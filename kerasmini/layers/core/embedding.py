"""``Embedding``: integer indices in, rows of a trainable table out.

``Embedding(input_dim, output_dim)`` holds a ``(input_dim, output_dim)``
weight ``embeddings``; calling it on integers ``(batch, ...)`` gathers rows,
giving ``(batch, ..., output_dim)``. The gradient adds into the rows used
(the adjoint of ``take``).

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = Embedding(10, 3)
>>> layer(np.array([[1, 2], [2, 9]])).shape, layer.embeddings.path
((2, 2, 3), 'embedding/embeddings')

With ``mask_zero=True`` index 0 means padding, and the output carries a mask:

>>> from kerasmini.backend.masking import get_keras_mask
>>> get_keras_mask(Embedding(10, 3, mask_zero=True)(np.array([[4, 0]])))
array([[ True, False]])
"""

from kerasmini import constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.backend.checks import checked_indices
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.Embedding")
class Embedding(Layer):
    """Turns positive integers (indices) into dense vectors of fixed size.

    Args:
        input_dim: the vocabulary size (largest index + 1).
        output_dim: the size of each vector.
        embeddings_initializer: default ``"uniform"`` (in [-0.05, 0.05]).
        embeddings_regularizer, embeddings_constraint: for the table.
        mask_zero: whether index 0 is padding: the output then carries a
            mask, ``inputs != 0``, which later layers (an ``LSTM``, the
            loss) honour. Index 0 must then not be used for a real token.

    >>> import numpy as np
    >>> Embedding(100, 4)(np.array([[3, 7, 7]])).shape
    (1, 3, 4)
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, **kwargs):
        kwargs.pop("input_length", None)  # a Keras 2 argument, ignored by Keras 3
        super().__init__(**kwargs)
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"Both `input_dim` and `output_dim` should be positive integers. "
                    f"Received {name}={value}"
                )
        self.input_dim = input_dim
        self.output_dim = output_dim
        if embeddings_initializer == "uniform":
            embeddings_initializer = "random_uniform"  # Keras's alias
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            name="embeddings", shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer,
            regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint)

    def call(self, inputs):
        inputs = checked_indices(inputs, size=self.input_dim, what=(
            f"Layer '{self.name}': the inputs (indices into the {self.input_dim} rows "
            "of the embedding table, `input_dim`)"))
        return ops.take(self.embeddings, inputs, axis=0)  # (batch, ..., output_dim)

    def compute_mask(self, inputs, mask=None):
        """``inputs != 0`` with ``mask_zero``, else no mask.

        >>> import numpy as np
        >>> Embedding(5, 2, mask_zero=True).compute_mask(np.array([[3, 0]]))
        array([[ True, False]])
        """
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "input_dim": self.input_dim, "output_dim": self.output_dim,
            "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
            "embeddings_regularizer": regularizers.serialize(self.embeddings_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "embeddings_constraint": constraints.serialize(self.embeddings_constraint),
            "mask_zero": self.mask_zero,
        })
        return config
