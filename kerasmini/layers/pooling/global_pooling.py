"""Global pooling: one number per channel, the max or the mean over all steps,
pixels or voxels: ``GlobalMaxPooling1D``, ``2D`` and ``3D``,
``GlobalAveragePooling1D`` and ``3D`` (``GlobalAveragePooling2D`` lives beside
the other 2D pooling layers).

They are reductions (``ops.max``/``ops.mean`` over the spatial axes), so their
gradients are those ops' rules.

>>> import numpy as np
>>> x = np.arange(6.0).reshape(1, 3, 2)
>>> GlobalMaxPooling1D()(x).tolist(), GlobalAveragePooling1D()(x).tolist()
([[4.0, 5.0]], [[2.0, 3.0]])
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.layers.convolutional.conv1d import check_data_format


class BaseGlobalPooling(Layer):
    """Reduce the spatial axes ``1 .. rank - 2`` with ``reduce_function``.

    Args:
        data_format: only ``"channels_last"``.
        keepdims: keep the spatial axes with length 1.

    >>> GlobalMaxPooling2D(keepdims=True).compute_output_shape((None, 4, 4, 3))
    (None, 1, 1, 3)
    """

    rank = None  # spatial axes: 1 or 2
    reduce_function = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = check_data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self._build_at_init()

    def call(self, inputs):
        axes = tuple(range(1, self.rank + 1))
        return type(self).reduce_function(inputs, axis=axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0],) + (1,) * self.rank + (input_shape[-1],)
        return (input_shape[0], input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


@keras_export(["kerasmini.layers.GlobalMaxPooling1D", "kerasmini.layers.GlobalMaxPool1D"])
class GlobalMaxPooling1D(BaseGlobalPooling):
    """The maximum over steps: ``(b, steps, c)`` -> ``(b, c)``.

    >>> import numpy as np
    >>> GlobalMaxPooling1D()(np.ones((2, 5, 3))).shape
    (2, 3)
    """

    rank = 1
    reduce_function = staticmethod(ops.max)


@keras_export(["kerasmini.layers.GlobalMaxPooling2D", "kerasmini.layers.GlobalMaxPool2D"])
class GlobalMaxPooling2D(BaseGlobalPooling):
    """The maximum over height and width: ``(b, h, w, c)`` -> ``(b, c)``.

    >>> import numpy as np
    >>> GlobalMaxPooling2D()(np.ones((2, 4, 4, 3))).shape
    (2, 3)
    """

    rank = 2
    reduce_function = staticmethod(ops.max)


@keras_export(["kerasmini.layers.GlobalAveragePooling1D",
               "kerasmini.layers.GlobalAvgPool1D"])
class GlobalAveragePooling1D(BaseGlobalPooling):
    """The mean over steps: ``(b, steps, c)`` -> ``(b, c)``; given a mask
    (padded steps), the mean over the kept steps only, as in Keras 3.

    >>> import numpy as np
    >>> GlobalAveragePooling1D(keepdims=True)(np.ones((2, 5, 3))).shape
    (2, 1, 3)
    >>> x = np.array([[[1.0], [3.0], [0.0]]])
    >>> GlobalAveragePooling1D()(x, mask=np.array([[True, True, False]]))
    array([[2.]], dtype=float32)
    """

    rank = 1
    reduce_function = staticmethod(ops.mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format=data_format, keepdims=keepdims, **kwargs)
        self.supports_masking = True  # it reads the mask, and drops it

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        keep = ops.expand_dims(ops.cast(mask, "bool"), 2)  # (b, steps, 1)
        total = ops.sum(ops.where(keep, inputs, 0.0), axis=1, keepdims=self.keepdims)
        count = ops.sum(ops.cast(keep, inputs.dtype), axis=1, keepdims=self.keepdims)
        return ops.divide(total, count)

    def compute_mask(self, inputs, mask=None):
        return None  # one vector per sample: nothing left to mask

@keras_export(["kerasmini.layers.GlobalMaxPooling3D", "kerasmini.layers.GlobalMaxPool3D"])
class GlobalMaxPooling3D(BaseGlobalPooling):
    """The maximum over a volume: ``(b, d, h, w, c)`` -> ``(b, c)``.

    >>> import numpy as np
    >>> GlobalMaxPooling3D()(np.ones((2, 3, 4, 4, 3))).shape
    (2, 3)
    """

    rank = 3
    reduce_function = staticmethod(ops.max)


@keras_export(["kerasmini.layers.GlobalAveragePooling3D",
               "kerasmini.layers.GlobalAvgPool3D"])
class GlobalAveragePooling3D(BaseGlobalPooling):
    """The mean over a volume: ``(b, d, h, w, c)`` -> ``(b, c)``.

    >>> import numpy as np
    >>> GlobalAveragePooling3D(keepdims=True)(np.ones((2, 3, 4, 4, 3))).shape
    (2, 1, 1, 1, 3)
    """

    rank = 3
    reduce_function = staticmethod(ops.mean)
