"""Element-wise merging layers: ``Subtract``, ``Multiply``, ``Average``,
``Maximum``, ``Minimum`` (``Add`` lives with ``Concatenate``).

Each is a :class:`~kerasmini.layers.merging.base_merge.Merge` with one
``_merge_function``, a fold of a backend op over the list.

>>> import numpy as np
>>> a, b = np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])
>>> Subtract()([a, b]).tolist(), Average()([a, b]).tolist()
([[-2.0, 3.0]], [[2.0, 3.5]])
"""

from functools import reduce

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.layers.merging.base_merge import Merge


@keras_export("kerasmini.layers.Subtract")
class Subtract(Merge):
    """``inputs[0] - inputs[1]``: exactly two inputs.

    >>> import numpy as np
    >>> Subtract()([np.ones((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[-2.0, -2.0]]
    """

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(
                "A `Subtract` layer should be called on exactly 2 inputs. "
                f"Received: input_shape={input_shape}"
            )

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError(
                "A `Subtract` layer should be called on exactly 2 inputs. "
                f"Received: inputs={inputs}"
            )
        return ops.subtract(inputs[0], inputs[1])


@keras_export("kerasmini.layers.Multiply")
class Multiply(Merge):
    """The element-wise product of the inputs.

    >>> import numpy as np
    >>> Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).tolist()
    [[6.0, 6.0]]
    """

    def _merge_function(self, inputs):
        return reduce(ops.multiply, inputs)


@keras_export("kerasmini.layers.Average")
class Average(Merge):
    """The element-wise mean of the inputs.

    >>> import numpy as np
    >>> Average()([np.zeros((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[1.5, 1.5]]
    """

    def _merge_function(self, inputs):
        return ops.divide(reduce(ops.add, inputs), float(len(inputs)))


@keras_export("kerasmini.layers.Maximum")
class Maximum(Merge):
    """The element-wise maximum of the inputs.

    >>> import numpy as np
    >>> Maximum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[3.0, 5.0]]
    """

    def _merge_function(self, inputs):
        return reduce(ops.maximum, inputs)


@keras_export("kerasmini.layers.Minimum")
class Minimum(Merge):
    """The element-wise minimum of the inputs.

    >>> import numpy as np
    >>> Minimum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[1.0, 2.0]]
    """

    def _merge_function(self, inputs):
        return reduce(ops.minimum, inputs)
