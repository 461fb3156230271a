"""``Dot``: the dot product of two tensors, sample by sample.

``Dot(axes=(a0, a1))([x, y])`` contracts ``x``'s axis ``a0`` with ``y``'s axis
``a1`` for each sample of the batch (Keras's ``batch_dot``). The result has
``x``'s remaining axes, then ``y``'s (without its batch axis); a result of
rank 1 becomes ``(batch, 1)``. It is one ``einsum`` whose subscripts are
built from the axes, so its gradient is the einsum's rule. With
``normalize=True`` both are L2-normalised along the contracted axes first:
the output is the cosine similarity.

>>> import numpy as np
>>> x, y = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])
>>> Dot(axes=1)([x, y]).tolist()
[[11.0]]
"""

import string

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.config import epsilon
from kerasmini.engine.base_layer import Layer


def l2_normalize(x, axis):
    """``x / ||x||`` along ``axis``, the norm floored at ``epsilon()``.

    >>> import numpy as np
    >>> l2_normalize(np.array([[3.0, 4.0]]), axis=1).round(6).tolist()
    [[0.6, 0.8]]
    """
    square_sum = ops.sum(ops.square(x), axis=axis, keepdims=True)
    inv_norm = ops.minimum(ops.divide(1.0, ops.sqrt(square_sum)), 1.0 / epsilon())
    return ops.multiply(x, inv_norm)


def batch_dot_subscripts(x_ndim, y_ndim, axes):
    """The ``einsum`` subscripts of a batch dot product over ``axes``.

    >>> batch_dot_subscripts(3, 3, (2, 1))
    'abz,aze->abe'
    """
    letters = iter(string.ascii_lowercase[1:25])
    x_sub = ["a"] + [next(letters) for _ in range(x_ndim - 1)]
    y_sub = ["a"] + [next(letters) for _ in range(y_ndim - 1)]
    x_sub[axes[0]] = y_sub[axes[1]] = "z"  # the contracted axis
    out = [c for c in x_sub if c != "z"] + [c for c in y_sub[1:] if c != "z"]
    return f"{''.join(x_sub)},{''.join(y_sub)}->{''.join(out)}"


@keras_export("kerasmini.layers.Dot")
class Dot(Layer):
    """Dot product of two tensors along ``axes``, per sample.

    Args:
        axes: an int (the same axis of both) or a pair ``(axis_x, axis_y)``;
            the batch axis 0 cannot be one of them.
        normalize: L2-normalise both along ``axes`` first (cosine similarity).

    >>> import numpy as np
    >>> Dot(axes=(1, 2))([np.ones((2, 3, 4)), np.ones((2, 5, 3))]).shape
    (2, 4, 5)
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(
                    "Invalid type for argument `axes`: it should be a list or an "
                    f"int. Received: axes={axes}"
                )
            if len(axes) != 2:
                raise ValueError(
                    "Invalid format for argument `axes`: it should contain two "
                    f"elements. Received: axes={axes}"
                )
            if not all(isinstance(a, int) for a in axes):
                raise ValueError(
                    "Invalid format for argument `axes`: list elements should be "
                    f"integers. Received: axes={axes}"
                )
        self.axes = axes
        self.normalize = normalize

    def _axes(self, shapes):
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        for which, axis, shape in zip(("first", "second"), axes, shapes):
            rank = len(shape)
            if not -rank <= axis < rank:  # Keras 3: an IndexError
                raise ValueError(
                    f"Layer '{self.name}': `axes` must name an axis of each input, "
                    f"in [-{rank}, {rank}) for the {which}, of shape "
                    f"{tuple(shape)}. Received: axes={self.axes}"
                )
        axes = [a % len(shape) for a, shape in zip(axes, shapes)]
        if 0 in axes:
            raise ValueError(
                f"Layer '{self.name}': cannot take a dot product over axis 0 (the "
                f"batch axis). Received: axes={self.axes}"
            )
        return axes

    def _check(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) != 2 or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError(
                "A `Dot` layer should be called on a list of 2 inputs. "
                f"Received: input_shape={input_shape}"
            )
        shape1, shape2 = input_shape
        if len(shape1) < 2 or len(shape2) < 2:
            raise ValueError(
                "Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                f"shapes {tuple(shape1)} and {tuple(shape2)}."
            )
        if shape1[0] is not None and shape2[0] is not None and shape1[0] != shape2[0]:
            raise ValueError(  # Keras 3's words (from its batch_dot)
                "Cannot do batch_dot on inputs with different batch sizes. Received "
                f"inputs with shapes {tuple(shape1)} and {tuple(shape2)}."
            )
        axes = self._axes(input_shape)
        d1, d2 = shape1[axes[0]], shape2[axes[1]]
        if d1 is not None and d2 is not None and d1 != d2:
            raise ValueError(
                f"Incompatible input shapes: axis values {d1} (at axis {axes[0]}) != "
                f"{d2} (at axis {axes[1]}). Full input shapes: {tuple(shape1)}, "
                f"{tuple(shape2)}"
            )
        return axes

    def build(self, input_shape):
        self._check(input_shape)

    def call(self, inputs):
        x, y = inputs
        axes = self._check([tuple(x.shape), tuple(y.shape)])
        if self.normalize:
            x, y = l2_normalize(x, axes[0]), l2_normalize(y, axes[1])
        out = ops.einsum(batch_dot_subscripts(len(x.shape), len(y.shape), axes), x, y)
        if len(out.shape) == 1:  # (batch,) -> (batch, 1), as Keras's batch_dot
            out = ops.expand_dims(out, axis=1)
        return out

    def compute_mask(self, inputs, mask=None):
        return None  # a dot product has no steps left to mask, as in Keras

    def compute_output_shape(self, input_shape):
        axes = self._check(input_shape)
        shape1, shape2 = list(input_shape[0]), list(input_shape[1])
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        output = shape1 + shape2[1:]
        return tuple(output + [1] if len(output) == 1 else output)

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config
