"""``LayerNormalization``: normalise each sample over its feature axes.

Where ``BatchNormalization`` averages a feature over the batch,
``LayerNormalization`` averages over the features of one sample (the
``axis`` axes, default the last), so it behaves the same in training and
inference and needs no moving statistics::

    y = (x - mean) / sqrt(variance + epsilon) * gamma + beta

``gamma`` and ``beta`` have the shape of the normalised axes. It is composed
of ops (``mean``, ``square``, ``sqrt``...), whose gradient rules give
its gradient.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> ln = LayerNormalization()
>>> ln(np.array([[1.0, 3.0], [0.0, 10.0]])).astype(float).round(4).tolist()
[[-0.9995, 0.9995], [-1.0, 1.0]]
>>> [w.path for w in ln.weights]
['layer_normalization/gamma', 'layer_normalization/beta']
"""

import warnings

from kerasmini import constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer


@keras_export("kerasmini.layers.LayerNormalization")
class LayerNormalization(Layer):
    """Normalise each sample over ``axis``, then scale and shift.

    Args:
        axis: an int or a list of ints, the axes to normalise (default -1).
        epsilon: added to the variance (default 1e-3).
        center: learn ``beta`` (default True).
        scale: learn ``gamma`` (default True).
        *_initializer, *_regularizer, *_constraint: for ``beta`` and ``gamma``.

    >>> import numpy as np
    >>> LayerNormalization(axis=[1, 2])(np.ones((2, 3, 4))).shape
    (2, 3, 4)
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        rms_scaling = kwargs.pop("rms_scaling", False)
        if rms_scaling:
            warnings.warn(
                "You passed `rms_scaling=True`, which is deprecated in Keras 3: it "
                "scales the input by the variance, not the root mean square.",
                stacklevel=2)
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = axis
        else:
            raise TypeError(
                "Expected an int or a list/tuple of ints for the argument 'axis', "
                f"but received: {axis!r}"
            )
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.rms_scaling = rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def _check_axes(self, input_shape):
        axes = [self.axis] if isinstance(self.axis, int) else self.axis
        for axis in axes:
            if not isinstance(axis, int) or not -len(input_shape) <= axis < len(
                    input_shape):
                raise ValueError(
                    f"Axis {axis} is out of bounds for input shape {input_shape}. "
                    f"Received: axis={self.axis}"
                )
        return axes

    def build(self, input_shape):
        axes = sorted(self._check_axes(input_shape))
        shape = tuple(input_shape[a] for a in axes)
        if None in shape:
            raise ValueError(
                f"Layer '{self.name}': the normalised axes {axes} must have a known "
                f"size. Received: input_shape={input_shape}"
            )
        self.axis = axes
        self.gamma = self.beta = None
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(
                name="gamma", shape=shape, initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(
                name="beta", shape=shape, initializer=self.beta_initializer,
                regularizer=self.beta_regularizer, constraint=self.beta_constraint)

    def call(self, inputs):
        ndim = len(inputs.shape)
        axes = tuple(sorted(a % ndim for a in self.axis))
        # gamma/beta of shape (d_axes...) broadcast as (1, .., d, .., 1)
        broadcast = tuple(inputs.shape[a] if a in axes else 1 for a in range(ndim))
        x = ops.cast(inputs, self.dtype) if not str(inputs.dtype).startswith(
            "float") else inputs
        mean = ops.mean(x, axis=axes, keepdims=True)
        variance = ops.mean(ops.square(ops.subtract(x, mean)), axis=axes, keepdims=True)
        inv = ops.divide(1.0, ops.sqrt(ops.add(variance, self.epsilon)))
        if self.rms_scaling:  # Keras's deprecated form: no centring
            out = ops.multiply(x, inv)
            return ops.multiply(out, ops.reshape(self.gamma, broadcast))
        if self.gamma is not None:
            inv = ops.multiply(inv, ops.reshape(self.gamma, broadcast))
        shift = ops.negative(ops.multiply(mean, inv))
        if self.beta is not None:
            shift = ops.add(shift, ops.reshape(self.beta, broadcast))
        return ops.add(ops.multiply(x, inv), shift)

    def compute_output_shape(self, input_shape):
        self._check_axes(input_shape)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "rms_scaling": self.rms_scaling,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
        })
        return config
