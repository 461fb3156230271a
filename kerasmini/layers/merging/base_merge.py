"""``Merge``: the base of the element-wise merging layers.

A merge layer takes a list of tensors and combines them element by element
with ``_merge_function``. Shapes broadcast as in NumPy over the non-batch
axes (a length-1 axis stretches), as in Keras 3's ``Merge``; a tensor of
lower rank gets new axes after the batch axis first.

>>> from kerasmini.layers.merging.elementwise import Maximum
>>> Maximum().compute_output_shape([(None, 1, 3), (None, 4, 3)])
(None, 4, 3)
"""

from kerasmini import ops
from kerasmini.engine.base_layer import Layer
from kerasmini.layers.merging.masks import elementwise_merge_mask


def elementwise_shape(layer, shape1, shape2):
    """The broadcast of two non-batch shapes (``None`` is unknown).

    >>> elementwise_shape(None, (1, 3), (4, 3))
    (4, 3)
    """
    if len(shape1) < len(shape2):
        shape1, shape2 = shape2, shape1
    if not shape2:
        return tuple(shape1)
    output = list(shape1[: len(shape1) - len(shape2)])
    for i, j in zip(shape1[len(shape1) - len(shape2):], shape2):
        if i is None or j is None:
            output.append(None)
        elif i == 1 or j == 1:
            output.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(
                "Inputs have incompatible shapes. "
                f"Received shapes {tuple(shape1)} and {tuple(shape2)}"
            )
        else:
            output.append(i)
    return tuple(output)


def check_batch_sizes(shapes):
    """Refuse inputs whose known batch sizes differ (Keras 3's words); run
    at every call, not only at ``build``, so a later call with another
    batch size gets it too instead of NumPy's broadcasting error.

    >>> check_batch_sizes([(2, 3), (3, 3)])
    Traceback (most recent call last):
      ...
    ValueError: Cannot merge tensors with different batch sizes. Received tensors ...
    """
    shapes = [tuple(s) for s in shapes]
    batch_sizes = {s[0] for s in shapes if s} - {None}
    if len(batch_sizes) > 1:
        raise ValueError(
            "Cannot merge tensors with different batch sizes. "
            f"Received tensors with shapes {shapes}"
        )
    return batch_sizes.pop() if batch_sizes else None


class Merge(Layer):
    """Combine a list of tensors element by element (subclasses say how).

    >>> import numpy as np
    >>> from kerasmini.layers.merging.elementwise import Multiply
    >>> Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).tolist()
    [[6.0, 6.0]]
    """

    min_inputs = 1  # Keras 3 accepts a list of one tensor

    def __init__(self, **kwargs):  # the base layer's arguments only (Keras 3)
        super().__init__(**kwargs)

    def _merge_function(self, inputs):
        raise NotImplementedError

    def _check_shapes(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError(
                f"A merge layer ({type(self).__name__}) should be called on a list "
                f"of inputs. Received: input_shape={input_shape} (not a list of "
                "shapes)"
            )
        if len(input_shape) < self.min_inputs:
            raise ValueError(
                f"A merge layer ({type(self).__name__}) should be called on a list "
                f"of at least {self.min_inputs} inputs. Received {len(input_shape)} "
                f"inputs. Full input_shape received: {input_shape}"
            )
        batch_size = check_batch_sizes(input_shape)
        output = tuple(input_shape[0][1:])
        for shape in input_shape[1:]:
            output = elementwise_shape(self, output, tuple(shape[1:]))
        return (batch_size,) + output

    def build(self, input_shape):
        self._check_shapes(input_shape)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                "A merge layer should be called on a list of inputs. "
                f"Received: inputs={inputs} (not a list of tensors)"
            )
        check_batch_sizes([ops.shape(x) for x in inputs])
        rank = max(len(x.shape) for x in inputs)
        reshaped = []
        for x in inputs:  # lower ranks get new axes after the batch axis
            for _ in range(rank - len(x.shape)):
                x = ops.expand_dims(x, axis=1)
            reshaped.append(x)
        return self._merge_function(reshaped)

    def compute_mask(self, inputs, mask=None):
        # a step is kept where any input keeps it (Keras 3's Merge)
        return elementwise_merge_mask(inputs, mask)

    def compute_output_shape(self, input_shape):
        return self._check_shapes(input_shape)
