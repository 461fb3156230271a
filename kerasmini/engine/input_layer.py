"""``Input()`` and ``InputLayer``: where a functional graph starts.

``Input(shape=(5,))`` makes an :class:`InputLayer` (built from the start, no
weights) and returns the KerasTensor it produces. The InputLayer records a
node with no inputs, so the tensor's history is ``(input_layer, 0, 0)``.

>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> x = Input(shape=(5,))
>>> x
<KerasTensor shape=(None, 5), dtype=float32, name=keras_tensor>
>>> x._keras_history
KerasHistory(layer=<InputLayer name=input_layer, built=True>, node_index=0, tensor_index=0)
"""

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.engine.base_layer import Layer
from kerasmini.ops.node import Node


@keras_export(["kerasmini.layers.InputLayer"])
class InputLayer(Layer):
    """The layer behind :func:`Input`: it holds one symbolic tensor.

    Args:
        shape: the shape without the batch dimension.
        batch_size: optional fixed batch size.
        dtype: the input dtype (default floatx).
        batch_shape: the full shape including the batch dimension (instead
            of ``shape`` and ``batch_size``).
        name: auto ``input_layer``, ``input_layer_1``... if omitted.

    >>> layer = InputLayer(shape=(4,), name="pixels")
    >>> layer.output.shape, layer.built, layer.count_params()
    ((None, 4), True, 0)
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None,
                 ragged=None, batch_shape=None, optional=False, name=None, **kwargs):
        _check_dense_only(sparse=sparse, ragged=ragged, optional=optional)
        for legacy in ("input_shape", "batch_input_shape"):
            if legacy in kwargs:
                value = kwargs.pop(legacy)
                if legacy == "input_shape":
                    shape = value
                else:
                    batch_shape = value
        super().__init__(name=name, dtype=dtype, **kwargs)
        if shape is not None and batch_shape is not None:
            raise ValueError(
                "You cannot pass both `shape` and `batch_shape` at the same time."
            )
        if shape is None and batch_shape is None:
            raise ValueError("You must pass a `shape` argument.")
        if shape is not None:
            shape = validation.check_shape(shape, "shape", owner="Input")
            batch_size = validation.check_int(batch_size, "batch_size", minimum=0,
                                              allow_none=True, owner="Input",
                                              wrong_type=ValueError)
            batch_shape = (batch_size,) + shape
        batch_shape = validation.check_shape(batch_shape, "batch_shape", owner="Input")
        self._batch_shape = tuple(batch_shape)
        self.built = True
        # Keras 3 names the tensor as the user named the input, else it gets
        # an auto name of its own (keras_tensor_N), not the layer's
        tensor = KerasTensor(self._batch_shape, dtype=self.dtype, name=name)
        Node(self, call_args=(), call_kwargs={}, outputs=tensor)

    @property
    def batch_shape(self):
        return self._batch_shape

    def call(self, inputs=None):
        return inputs

    def get_config(self):
        """Keras 3's InputLayer config (``sparse``, ``ragged`` and
        ``optional`` are always false here).

        >>> InputLayer(shape=(3,), name="x").get_config()  # doctest: +NORMALIZE_WHITESPACE
        {'batch_shape': (None, 3), 'dtype': 'float32', 'sparse': False,
         'ragged': False, 'name': 'x', 'optional': False}
        """
        return {"batch_shape": self._batch_shape, "dtype": self.dtype,
                "sparse": False, "ragged": False, "name": self.name,
                "optional": False}

    @classmethod
    def from_config(cls, config):
        """Recreate from :meth:`get_config` (or from real Keras's config, whose
        ``sparse``/``ragged``/``optional`` must be false: kerasmini has only
        dense inputs)."""
        return cls(**config)


def _check_dense_only(**flags):
    """kerasmini's inputs are dense and required: ``sparse``, ``ragged`` and
    ``optional`` may only be given as false (Keras 3's defaults).

    >>> _check_dense_only(sparse=True)
    Traceback (most recent call last):
      ...
    ValueError: kerasmini's InputLayer does not support `sparse=True`: ...
    """
    for key, value in flags.items():
        if value:
            raise ValueError(
                f"kerasmini's InputLayer does not support `{key}=True`: its "
                f"inputs are dense and required. Received: {key}={value!r}"
            )


@keras_export(["kerasmini.Input", "kerasmini.layers.Input"])
def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,
          batch_shape=None, name=None, optional=False):
    """A symbolic input: the KerasTensor a functional model starts from.

    Args:
        shape: shape without the batch dimension, e.g. ``(32,)``.
        batch_size: optional fixed batch size.
        dtype: the dtype (default floatx).
        batch_shape: full shape including the batch dimension.
        name: name of the InputLayer (and of the tensor).
        sparse, ragged, optional: Keras 3's options for sparse, ragged and
            optional inputs, which kerasmini does not have: only false.

    Returns:
        A :class:`~kerasmini.backend.keras_tensor.KerasTensor`.

    >>> Input(shape=(3,), name="features").shape
    (None, 3)
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype,
                       sparse=sparse, ragged=ragged, batch_shape=batch_shape,
                       name=name, optional=optional)
    return layer.output
