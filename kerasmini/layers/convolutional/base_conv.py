"""``BaseConv``: what every convolution layer shares, as Keras 3's ``BaseConv``.

``Conv1D``, ``Conv2D`` and ``Conv2DTranspose`` differ in how they read their
geometry (``kernel_size``, ``strides``, ``padding``, ...) and in ``call``;
the rest is one piece: the check of ``filters``, the weight options (the
same as :class:`~kerasmini.layers.Dense`'s), ``build`` (a kernel whose shape
the subclass names, a bias, an ``InputSpec`` that fixes the channels) and
the config.

>>> import numpy as np
>>> from kerasmini.layers import Conv1D, Conv2D
>>> [issubclass(cls, BaseConv) for cls in (Conv1D, Conv2D)]
[True, True]
>>> layer = Conv2D(4, 3)
>>> layer.build((None, 8, 8, 2))
>>> layer.kernel.shape, layer.input_spec.axes
((3, 3, 2, 4), {-1: 2})
"""

from kerasmini import activations, constraints, initializers, regularizers
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


class BaseConv(Layer):
    """The shared part of the convolution layers (not exported).

    A subclass sets its geometry and ``input_spec`` in ``__init__``, and may
    override :meth:`kernel_shape` and :meth:`geometry_config`.

    >>> from kerasmini.layers import Conv2DTranspose
    >>> Conv2DTranspose(5, 2).kernel_shape(3)
    (2, 2, 5, 3)
    """

    def __init__(self, filters, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(filters, int) or isinstance(filters, bool) or filters <= 0:
            raise ValueError(
                "Invalid value for argument `filters`. Expected a strictly positive "
                f"value. Received filters={filters}."
            )
        self.filters = filters
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def kernel_shape(self, channels):
        """``kernel_size + (in channels, filters)``; transposed convolutions
        swap the last two."""
        return self.kernel_size + (channels, self.filters)

    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError(
                "The channel dimension of the inputs should be defined. The input_shape "
                f"received is {input_shape}, where axis -1 (0-based) is the channel "
                "dimension, which found to be `None`."
            )
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_shape(channels),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        spec = self.input_spec
        self.input_spec = InputSpec(ndim=spec.ndim, min_ndim=spec.min_ndim,
                                    axes={-1: channels})

    def geometry_config(self):
        """The config keys of the subclass's geometry, in Keras's order."""
        return {
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "groups": self.groups,
        }

    def get_config(self):
        config = super().get_config()
        config.update({"filters": self.filters, **self.geometry_config()})
        config.update({
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
        })
        return config
