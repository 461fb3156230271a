"""``BatchNormalization``: normalise each feature by batch statistics.

In training (``training=True``, as in ``fit``) each feature is normalised by
the mean and variance of the current batch, and those update the *moving*
statistics, two non-trainable weights::

    moving_mean = moving_mean * momentum + mean * (1 - momentum)

At inference the moving statistics are used instead. Either way the result
is scaled by ``gamma`` and shifted by ``beta`` (trainable). Given a mask (one
axis shorter than the inputs, e.g. padded time steps), the batch statistics
count only the entries the mask keeps, as in Keras 3.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> bn = BatchNormalization()
>>> x = np.array([[1.0], [3.0]])
>>> bn(x, training=True).round(3).ravel().tolist()
[-1.0, 1.0]
>>> [w.path for w in bn.weights], bn.moving_mean.numpy()
(['batch_normalization/gamma', 'batch_normalization/beta', ...
"""

from kerasmini import constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.BatchNormalization")
class BatchNormalization(Layer):
    """Normalise, then scale by ``gamma`` and shift by ``beta``.

    Args:
        axis: the feature axis (default -1, channels last).
        momentum: of the moving statistics (default 0.99).
        epsilon: added to the variance (default 1e-3).
        center, scale: whether to learn ``beta`` and ``gamma``.
        *_initializer, *_regularizer, *_constraint: for the four weights.

    >>> import numpy as np
    >>> out = BatchNormalization()(np.array([[0.0], [2.0], [4.0]]), training=True)
    >>> [round(float(v), 2) for v in out.ravel()]
    [-1.22, 0.0, 1.22]
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # the mask passes through
        owner = f"BatchNormalization '{self.name}'"
        self.axis = validation.check_int(axis, "axis", owner=owner)
        self.momentum = validation.check_float(momentum, "momentum", low=0, high=1,
                                               owner=owner)
        self.epsilon = validation.check_float(epsilon, "epsilon", low=0, owner=owner)
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        if not -len(input_shape) <= self.axis < len(input_shape):
            raise ValueError(
                f"Layer '{self.name}': `axis={self.axis}` is out of range for an "
                f"input of rank {len(input_shape)}: expected an axis in "
                f"[-{len(input_shape)}, {len(input_shape)}). "
                f"Received: input_shape={tuple(input_shape)}"
            )
        features = input_shape[self.axis]
        if features is None:
            raise ValueError(
                f"Axis {self.axis} of the input to BatchNormalization must be "
                f"defined. Received: input_shape={input_shape}"
            )
        shape = (features,)
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = self.add_weight(
                name="gamma", shape=shape, initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                autocast=False)
        if self.center:
            self.beta = self.add_weight(
                name="beta", shape=shape, initializer=self.beta_initializer,
                regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                autocast=False)
        self.moving_mean = self.add_weight(
            name="moving_mean", shape=shape, initializer=self.moving_mean_initializer,
            trainable=False, autocast=False)
        self.moving_variance = self.add_weight(
            name="moving_variance", shape=shape,
            initializer=self.moving_variance_initializer, trainable=False,
            autocast=False)
        self.input_spec = InputSpec(ndim=len(input_shape),
                                    axes={self.axis: features})

    def call(self, inputs, training=None, mask=None):
        # float16 and bfloat16 inputs (mixed precision) are normalised in
        # float32, where the squares of the variance do not overflow, with the
        # weights as they are (built with autocast=False); the result goes
        # back to the compute dtype (Keras 3 does the same)
        if str(inputs.dtype) in ("float16", "bfloat16"):
            inputs = ops.cast(inputs, "float32")
        ndim = len(inputs.shape)
        if mask is not None and len(mask.shape) != ndim - 1:
            raise ValueError(
                f"Layer '{self.name}': the mask provided should be one dimension "
                f"less than the inputs. Received: mask.shape={tuple(mask.shape)}, "
                f"inputs.shape={tuple(inputs.shape)}"
            )
        axis = self.axis % ndim
        reduce_axes = tuple(a for a in range(ndim) if a != axis)
        # the statistics have shape (features,); this broadcasts them to inputs
        shape = [1] * ndim
        shape[axis] = inputs.shape[axis]

        def broadcast(v):
            return ops.reshape(v, shape)

        # a frozen BatchNormalization runs in inference mode, even in `fit`, and
        # keeps its moving statistics (Keras 3 does the same since 2.x)
        if training and self.trainable:
            if mask is None:
                mean = ops.mean(inputs, axis=reduce_axes)
                variance = ops.mean(ops.square(ops.subtract(inputs, broadcast(mean))),
                                    axis=reduce_axes)
            else:
                mean, variance = self._masked_moments(inputs, mask, reduce_axes,
                                                      broadcast)
            m = self.momentum
            self.moving_mean.assign(ops.add(ops.multiply(self.moving_mean, m),
                                            ops.multiply(ops.stop_gradient(mean), 1 - m)))
            self.moving_variance.assign(ops.add(
                ops.multiply(self.moving_variance, m),
                ops.multiply(ops.stop_gradient(variance), 1 - m)))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        x = ops.divide(ops.subtract(inputs, broadcast(mean)),
                       ops.sqrt(ops.add(broadcast(variance), self.epsilon)))
        if self.gamma is not None:
            x = ops.multiply(x, broadcast(self.gamma))
        if self.beta is not None:
            x = ops.add(x, broadcast(self.beta))
        return ops.cast(x, self.compute_dtype)

    @staticmethod
    def _masked_moments(inputs, mask, reduce_axes, broadcast):
        """Mean and variance over the entries the mask keeps (padded time
        steps do not count), as Keras 3's ``_moments``: sums over the kept
        entries divided by their number (plus ``epsilon()``)."""
        keep = ops.broadcast_to(ops.expand_dims(ops.cast(mask, "bool"), -1),
                                inputs.shape)  # (batch, ..., features)
        weights = ops.sum(ops.cast(keep, inputs.dtype), axis=reduce_axes)
        count = ops.add(weights, config.epsilon())
        mean = ops.divide(ops.sum(ops.where(keep, inputs, 0.0), axis=reduce_axes),
                          count)
        deviation = ops.where(keep, ops.subtract(inputs, broadcast(mean)), 0.0)
        variance = ops.divide(ops.sum(ops.square(deviation), axis=reduce_axes), count)
        return mean, variance

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
            "center": self.center, "scale": self.scale,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
            "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
        })
        return config
