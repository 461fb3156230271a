"""Merging layers: ``Add`` and ``Concatenate`` take a list of tensors.

They are how one layer gets several inbound tensors, so their nodes have more
than one parent, which the Functional chapter draws.

>>> import numpy as np
>>> Add()([np.ones((1, 2)), np.ones((1, 2))])
array([[2., 2.]], dtype=float32)
>>> Concatenate()([np.ones((1, 2)), np.zeros((1, 3))]).shape
(1, 5)
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.merging.base_merge import check_batch_sizes
from kerasmini.layers.merging.masks import concatenate_mask, elementwise_merge_mask


def _check_list(layer, shapes, at_least=2):
    if not isinstance(shapes, (list, tuple)) or not shapes or \
            not isinstance(shapes[0], (list, tuple)):
        raise ValueError(
            f"A merge layer ({layer.name}) should be called on a list of inputs. "
            f"Received: input_shape={shapes} (not a list of shapes)"
        )
    if len(shapes) < at_least:
        raise ValueError(
            f"A merge layer ({layer.name}) should be called on a list of at least "
            f"{at_least} inputs. Got {len(shapes)} inputs. "
            f"Full input_shape received: {shapes}"
        )


@keras_export("kerasmini.layers.Add")
class Add(Layer):
    """Element-wise sum of a list of tensors of the same shape.

    >>> import numpy as np
    >>> Add()([np.ones((1, 2)), np.full((1, 2), 2.0)])
    array([[3., 3.]], dtype=float32)
    """

    def __init__(self, **kwargs):  # the base layer's arguments only (Keras 3)
        super().__init__(**kwargs)

    def build(self, input_shape):
        self._check_shapes(input_shape)

    def _check_shapes(self, input_shape):
        _check_list(self, input_shape)
        check_batch_sizes(input_shape)
        first = tuple(input_shape[0])
        for shape in input_shape[1:]:
            if len(shape) != len(first) or any(
                    a is not None and b is not None and a != b
                    for a, b in zip(first[1:], tuple(shape)[1:])):
                raise ValueError(
                    "Inputs have incompatible shapes. Received shapes "
                    f"{first} and {tuple(shape)}"
                )

    def call(self, inputs):
        check_batch_sizes([ops.shape(x) for x in inputs])
        out = inputs[0]
        for x in inputs[1:]:
            out = ops.add(out, x)
        return out

    def compute_output_shape(self, input_shape):
        self._check_shapes(input_shape)
        return tuple(input_shape[0])

    def compute_mask(self, inputs, mask=None):
        return elementwise_merge_mask(inputs, mask)


@keras_export("kerasmini.layers.Concatenate")
class Concatenate(Layer):
    """Joins a list of tensors along ``axis`` (default: the last).

    >>> import numpy as np
    >>> Concatenate(axis=-1)([np.ones((1, 2)), np.zeros((1, 3))])
    array([[1., 1., 0., 0., 0.]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        self._check_shapes(input_shape)

    def _check_shapes(self, input_shape):
        _check_list(self, input_shape, at_least=1)
        ranks = {len(s) for s in input_shape}
        if len(ranks) != 1:
            raise ValueError(
                "A `Concatenate` layer requires inputs with matching shapes except "
                f"for the concatenation axis. Received: input_shape={input_shape}"
            )
        rank = ranks.pop()
        if not isinstance(self.axis, int) or not -rank <= self.axis < rank:
            raise ValueError(
                f"Layer '{self.name}': `axis` must be an integer in [-{rank}, "
                f"{rank}) for inputs of rank {rank}. Received: axis={self.axis!r}"
            )
        axis = self.axis % rank
        for shape in input_shape[1:]:
            for i, (a, b) in enumerate(zip(input_shape[0], shape)):
                if i != axis and a is not None and b is not None and a != b:
                    raise ValueError(
                        "A `Concatenate` layer requires inputs with matching shapes "
                        "except for the concatenation axis. Received: "
                        f"input_shape={input_shape}"
                    )

    def call(self, inputs):
        self._check_shapes([ops.shape(x) for x in inputs])
        return ops.concatenate(list(inputs), axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        return concatenate_mask(inputs, mask, self.axis)

    def compute_output_shape(self, input_shape):
        self._check_shapes(input_shape)
        shape = list(input_shape[0])
        axis = self.axis % len(shape)
        sizes = [s[axis] for s in input_shape]
        shape[axis] = None if None in sizes else sum(sizes)
        return tuple(shape)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
