"""The functional forms of the merging layers: ``layers.add([a, b])`` builds
an ``Add`` layer and calls it on the list, in one step (as in Keras).

>>> import numpy as np
>>> add([np.ones((1, 2)), np.ones((1, 2))]).tolist()
[[2.0, 2.0]]
>>> dot([np.ones((1, 3)), np.ones((1, 3))], axes=1).tolist()
[[3.0]]
"""

from kerasmini.api_export import keras_export
from kerasmini.layers.merging.dot import Dot
from kerasmini.layers.merging.elementwise import (
    Average,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
)
from kerasmini.layers.merging.merge import Add, Concatenate


@keras_export("kerasmini.layers.add")
def add(inputs, **kwargs):
    """The sum of ``inputs`` (a list), through a new :class:`Add` layer.

    >>> import numpy as np
    >>> add([np.ones((1, 1)), np.ones((1, 1)), np.ones((1, 1))]).tolist()
    [[3.0]]
    """
    return Add(**kwargs)(inputs)


@keras_export("kerasmini.layers.subtract")
def subtract(inputs, **kwargs):
    """``inputs[0] - inputs[1]``, through a new :class:`Subtract` layer.

    >>> import numpy as np
    >>> subtract([np.ones((1, 1)), np.ones((1, 1))]).tolist()
    [[0.0]]
    """
    return Subtract(**kwargs)(inputs)


@keras_export("kerasmini.layers.multiply")
def multiply(inputs, **kwargs):
    """The product of ``inputs``, through a new :class:`Multiply` layer.

    >>> import numpy as np
    >>> multiply([np.full((1, 1), 2.0), np.full((1, 1), 4.0)]).tolist()
    [[8.0]]
    """
    return Multiply(**kwargs)(inputs)


@keras_export("kerasmini.layers.average")
def average(inputs, **kwargs):
    """The mean of ``inputs``, through a new :class:`Average` layer.

    >>> import numpy as np
    >>> average([np.zeros((1, 1)), np.full((1, 1), 4.0)]).tolist()
    [[2.0]]
    """
    return Average(**kwargs)(inputs)


@keras_export("kerasmini.layers.maximum")
def maximum(inputs, **kwargs):
    """The element-wise maximum, through a new :class:`Maximum` layer.

    >>> import numpy as np
    >>> maximum([np.zeros((1, 1)), np.ones((1, 1))]).tolist()
    [[1.0]]
    """
    return Maximum(**kwargs)(inputs)


@keras_export("kerasmini.layers.minimum")
def minimum(inputs, **kwargs):
    """The element-wise minimum, through a new :class:`Minimum` layer.

    >>> import numpy as np
    >>> minimum([np.zeros((1, 1)), np.ones((1, 1))]).tolist()
    [[0.0]]
    """
    return Minimum(**kwargs)(inputs)


@keras_export("kerasmini.layers.concatenate")
def concatenate(inputs, axis=-1, **kwargs):
    """``inputs`` joined along ``axis``, through a new :class:`Concatenate` layer.

    >>> import numpy as np
    >>> concatenate([np.ones((1, 1)), np.zeros((1, 2))]).tolist()
    [[1.0, 0.0, 0.0]]
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


@keras_export("kerasmini.layers.dot")
def dot(inputs, axes=-1, **kwargs):
    """The per-sample dot product, through a new :class:`Dot` layer.

    >>> import numpy as np
    >>> dot([np.ones((1, 2)), np.full((1, 2), 2.0)], axes=-1).tolist()
    [[4.0]]
    """
    return Dot(axes=axes, **kwargs)(inputs)
