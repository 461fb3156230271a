"""``Normalization``: ``(x - mean) / sqrt(variance)``, with statistics learnt
by ``adapt`` or given.

``axis`` names the axes that keep their own statistics (default ``-1``: one
mean and variance per feature); every other axis is averaged over. The
statistics come either from the constructor (``mean=``, ``variance=``, kept in
the config) or from ``adapt(data)``, which stores them in three
non-trainable weights, ``mean``, ``variance`` and ``count``, saved with the
model as Keras saves them (``count`` stays 0, as in Keras 3). ``adapt`` reads
an array in one go, or a ``keras.utils.PyDataset`` (or any iterable of
batches) one batch at a time, merging each batch's mean and variance into
the running ones. ``invert=True`` maps normalised values back.

The division uses ``max(sqrt(variance), epsilon)``, so a constant feature
gives zeros rather than NaN. The layer is differentiable in its inputs.

>>> layer = Normalization()
>>> layer.adapt(np.array([[1.0], [3.0]]))  # mean 2, variance 1
>>> layer(np.array([[2.0], [5.0]])).tolist()
[[0.0], [3.0]]
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.layers.preprocessing.data_layer import DataLayer, batches_of


@keras_export("kerasmini.layers.Normalization")
class Normalization(DataLayer):
    """Normalise features to mean 0 and variance 1.

    Args:
        axis: the axis (or axes) with their own statistics; ``None`` for one
            mean and variance over everything.
        mean, variance: the statistics, if known (both or neither); a scalar
            or an array broadcast on the kept axes.
        invert: apply the inverse map, ``mean + x * sqrt(variance)``.

    >>> Normalization(mean=2.0, variance=4.0)(np.array([[4.0, 0.0]])).tolist()
    [[1.0, -1.0]]
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif validation.is_int(axis):
            axis = (int(axis),)
        elif isinstance(axis, (tuple, list)) and all(validation.is_int(a)
                                                     for a in axis):
            axis = tuple(int(a) for a in axis)
        else:
            raise TypeError(
                "Normalization: argument `axis` must be an integer, a tuple of "
                f"integers or None. Received: axis={axis!r}"
            )
        self.axis = axis
        self.input_mean = mean
        self.input_variance = variance
        self.invert = validation.check_bool(invert, "invert", owner="Normalization")
        self.supports_masking = True
        self.mean = None
        self.variance = None
        if (mean is not None) != (variance is not None):
            raise ValueError(
                "When setting values directly, both `mean` and `variance` must be "
                f"set. Received: mean={mean} and variance={variance}"
            )
        if mean is not None:
            for name, value in (("mean", mean), ("variance", variance)):
                if np.asarray(value).dtype.kind not in "biuf":
                    raise TypeError(
                        f"Normalization: argument `{name}` must be a number or an "
                        f"array of numbers. Received: {name}={value!r}"
                    )
            if np.shape(mean) != np.shape(variance):
                raise ValueError(
                    "When setting values directly, `mean` and `variance` must "
                    f"have the same shape. Received: mean shape {np.shape(mean)} "
                    f"and variance shape {np.shape(variance)}"
                )
            if np.ndim(mean) > len(self.axis):
                raise ValueError(
                    "The rank of `mean` must be less than or equal to the number "
                    f"of axes ({len(self.axis)}). Received: mean shape "
                    f"{np.shape(mean)} for axis {self.axis}"
                )

    def build(self, input_shape):
        if input_shape is None:
            return
        input_shape = tuple(input_shape)
        ndim = len(input_shape)
        self._build_input_shape = input_shape
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(
                "All `axis` values must be in the range [-ndim, ndim). Received "
                f"inputs with ndim={ndim}, while axis={self.axis}"
            )
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(
                    "All `axis` values to be kept must have a known shape. "
                    f"Received axis={self.axis}, inputs.shape={input_shape}, with "
                    f"unknown axis at index {d}"
                )
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = tuple(input_shape[d] if d in self._keep_axis else 1
                                      for d in range(ndim))
        self._mean_and_var_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                name="mean", shape=self._mean_and_var_shape, initializer="zeros",
                trainable=False)
            self.adapt_variance = self.add_weight(
                name="variance", shape=self._mean_and_var_shape,
                initializer="ones", trainable=False)
            # Keras keeps it "for backwards compatibility": it stays 0
            self.count = self.add_weight(name="count", shape=(), dtype="int32",
                                         initializer="zeros", trainable=False)
        else:
            self.mean = self._broadcast(self.input_mean)
            self.variance = self._broadcast(self.input_variance)
        self.built = True

    def _broadcast(self, value):
        """A given statistic on the input's axes: a scalar everywhere, an
        array aligned from the right with the kept axes."""
        value = np.asarray(value)
        expanded = [1] * len(self._broadcast_shape)
        for i in range(1, value.ndim + 1):
            expanded[self._keep_axis[-i]] = value.shape[-i]
        value = np.broadcast_to(value.reshape(expanded), self._broadcast_shape)
        return value.astype(self.dtype)

    # ------------------------------------------------------------- adapt
    def adapt(self, data):
        """Compute the mean and variance of ``data`` along the reduced axes.

        Args:
            data: a NumPy array, or a ``keras.utils.PyDataset`` or any
                iterable of batches (``(x, y)`` batches give their ``x``).
        """
        if isinstance(data, np.ndarray) or np.isscalar(data):
            data = np.asarray(data)
            first = data
        else:
            batches = list(batches_of(data, owner="Normalization.adapt"))
            if not batches:
                raise ValueError(
                    "Normalization.adapt received an empty iterable (no "
                    f"batches). Received: data={data!r}"
                )
            first = np.asarray(batches[0])
        if first.dtype.kind not in "biuf":
            raise TypeError(
                "Normalization.adapt expects numbers. Received: an array of "
                f"dtype {first.dtype}"
            )
        if not self.built:
            self.build(first.shape)
        else:
            self._check_batch_shape(first.shape, "adapt() is being called with "
                                    "data with an incompatible shape")
        if data is first:
            total_mean = np.mean(data, axis=self._reduce_axis)
            total_var = np.var(data, axis=self._reduce_axis)
        else:
            total_mean, total_var = self._merged_moments(batches)
        self.adapt_mean.assign(np.asarray(total_mean, self.adapt_mean.dtype))
        self.adapt_variance.assign(np.asarray(total_var, self.adapt_variance.dtype))

    def _check_batch_shape(self, shape, what):
        if len(shape) != len(self._build_input_shape) or any(
                shape[d] != self._build_input_shape[d] for d in self._keep_axis):
            raise ValueError(
                f"Layer '{self.name}': the layer was built with "
                f"input_shape={self._build_input_shape}, but {what}, "
                f"data.shape={tuple(shape)}"
            )

    def _merged_moments(self, batches):
        """Mean and variance over all batches, merged one batch at a time:
        the new mean is the count-weighted average of the old and the
        batch's; each variance is first taken about the new mean (its own
        variance plus its mean's squared distance to the new mean)."""
        dtype = self.dtype
        total_mean = np.zeros(self._mean_and_var_shape, dtype)
        total_var = np.zeros(self._mean_and_var_shape, dtype)
        total_count = 0
        for batch in batches:
            batch = np.asarray(batch, dtype=dtype)
            self._check_batch_shape(batch.shape, "adapt() yielded a batch of "
                                    "another shape")
            batch_mean = np.mean(batch, axis=self._reduce_axis)
            batch_var = np.var(batch, axis=self._reduce_axis)
            count = int(np.prod([batch.shape[d] for d in self._reduce_axis]))
            total_count += count
            batch_weight = float(count) / total_count
            old_weight = 1.0 - batch_weight
            new_mean = total_mean * old_weight + batch_mean * batch_weight
            total_var = ((total_var + (total_mean - new_mean) ** 2) * old_weight
                         + (batch_var + (batch_mean - new_mean) ** 2) * batch_weight)
            total_mean = new_mean
        return total_mean, total_var

    def finalize_state(self):
        """Nothing to do: ``call`` reads the weights each time."""

    # -------------------------------------------------------------- call
    def _statistics(self):
        if self.input_mean is not None:
            return self.mean, self.variance
        mean = ops.cast(ops.reshape(self.adapt_mean, self._broadcast_shape),
                        self.dtype)
        variance = ops.cast(ops.reshape(self.adapt_variance, self._broadcast_shape),
                            self.dtype)
        return mean, variance

    def call(self, inputs):
        inputs = ops.cast(inputs, self.dtype)
        mean, variance = self._statistics()
        std = ops.maximum(ops.sqrt(variance), config.epsilon())
        if self.invert:
            return ops.add(mean, ops.multiply(inputs, std))
        return ops.divide(ops.subtract(inputs, mean), std)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config_ = super().get_config()
        config_.update({
            "axis": self.axis,
            "invert": self.invert,
            "mean": np.array(self.input_mean).tolist(),
            "variance": np.array(self.input_variance).tolist(),
        })
        return config_

    def get_build_config(self):
        if self._build_input_shape:
            return {"input_shape": self._build_input_shape}
        return None

    def build_from_config(self, config_):
        if config_:
            self.build(tuple(config_["input_shape"]))


__all__ = ["Normalization"]
