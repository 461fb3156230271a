"""``Discretization``: numbers to the index of the bin they fall in.

With ``bin_boundaries=[b0, b1, ...]`` a value ``x`` gets ``i`` such that
``b[i-1] <= x < b[i]`` (``np.digitize``): below ``b0`` is bin 0, at or above
the last boundary the last bin. ``adapt`` finds ``num_bins`` bins of about
equal counts instead: it keeps a weighted summary of the sorted data (one
value every ``epsilon`` of it), merges the summaries of successive batches,
and reads the boundaries at the quantiles ``1/num_bins, 2/num_bins, ...`` by
linear interpolation (Keras's approximate quantiles, which this reproduces).
``output_mode`` encodes the indices as Keras's other lookups do.

>>> Discretization(bin_boundaries=[0.0, 1.0])(np.array([[-0.5, 0.0, 0.5, 2.0]]))
array([[0, 1, 1, 2]], dtype=int32)
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.backend.preprocessing import numpy_function
from kerasmini.layers.preprocessing.data_layer import (
    OUTPUT_MODES,
    DataLayer,
    batches_of,
    encode_categorical_inputs,
)


def summarize(values, epsilon):
    """``[values, weights]``: every ``1/epsilon``-th of the sorted values,
    each standing for the ``step`` values up to it.

    >>> summarize(np.arange(4.0), 0.5).tolist()
    [[1.0, 3.0], [2.0, 2.0]]
    """
    values = np.sort(np.reshape(values, [-1]))
    step = max(values.size * epsilon, 1)
    kept = values[int(step - 1)::int(step)]
    return np.stack([kept, np.ones_like(kept) * step])


def compress_summary(summary, epsilon):
    """At most ``1/epsilon`` entries: the values and cumulative weights at
    the fractions ``epsilon, 2 epsilon, ..., 1``, interpolated.

    >>> compress_summary(summarize(np.arange(8.0), 0.25), 0.5).tolist()
    [[3.0, 7.0], [4.0, 4.0]]
    """
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    where = cumulative / cumulative[-1]
    values = np.interp(fractions, where, summary[0])
    weights = np.interp(fractions, where, cumulative)
    weights = weights - np.concatenate((np.array([0]), weights[:-1]))
    return np.stack((values, weights)).astype("float32")


def merge_summaries(first, second, epsilon):
    """Two summaries as one (sorted by value, then compressed).

    >>> merge_summaries(summarize([1.0], 0.5), summarize([0.0], 0.5), 0.5).tolist()
    [[0.0, 1.0], [1.0, 1.0]]
    """
    merged = np.concatenate((first, second), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress_summary(merged, epsilon)


def bin_boundaries_of(summary, num_bins):
    """The ``num_bins - 1`` inner boundaries of a summary.

    >>> bin_boundaries_of(summarize(np.arange(100.0), 0.01), 4).tolist()
    [24.0, 49.0, 74.0]
    """
    return compress_summary(summary, 1.0 / num_bins)[0, :-1]


@keras_export("kerasmini.layers.Discretization")
class Discretization(DataLayer):
    """Bucket numbers into bins.

    Args:
        bin_boundaries: the sorted boundaries (``len + 1`` bins).
        num_bins: the number of bins ``adapt`` should find (instead).
        epsilon: the error tolerance of ``adapt``'s quantiles.
        output_mode: ``"int"`` (bin indices, int32), ``"one_hot"``,
            ``"multi_hot"`` or ``"count"`` (float vectors of one entry per bin).
        sparse: only ``False`` (kerasmini has no sparse tensors).

    >>> Discretization(bin_boundaries=[1.0], output_mode="one_hot")(
    ...     np.array([0.0, 3.0])).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01,
                 output_mode="int", sparse=False, dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        owner = "Discretization"
        if sparse:
            raise ValueError(
                "`sparse=True` cannot be used with kerasmini: it has no sparse "
                f"tensors. Received: sparse={sparse}"
            )
        validation.check_choice(output_mode, "output_mode", OUTPUT_MODES,
                                owner=owner)
        if num_bins is not None:
            validation.check_int(num_bins, "num_bins", owner=owner)
            if num_bins < 0:
                raise ValueError(
                    "`num_bins` must be greater than or equal to 0. "
                    f"Received: `num_bins={num_bins}`"
                )
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(
                "Both `num_bins` and `bin_boundaries` should not be set. "
                f"Received: `num_bins={num_bins}` and "
                f"`bin_boundaries={bin_boundaries}`"
            )
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        if bin_boundaries is not None:
            bounds = np.asarray(bin_boundaries)
            if bounds.ndim != 1 or bounds.dtype.kind not in "iuf":
                raise ValueError(
                    "Discretization: argument `bin_boundaries` must be a list of "
                    f"numbers. Received: bin_boundaries={bin_boundaries!r}"
                )
        self.bin_boundaries = bin_boundaries
        self.num_bins = num_bins
        self.epsilon = validation.check_float(epsilon, "epsilon", low=0,
                                              low_open=True, owner=owner)
        self.output_mode = output_mode
        self.sparse = sparse
        self.summary = None if bin_boundaries else np.array([[], []], "float32")

    @property
    def output_dtype(self):
        return self.dtype if self.output_mode != "int" else "int32"

    # ------------------------------------------------------------- adapt
    def adapt(self, data, steps=None):
        """Find ``num_bins`` bins of about equal counts in ``data`` (an array,
        a ``keras.utils.PyDataset`` or an iterable of batches; ``steps``
        batches at most)."""
        if self.num_bins is None:
            raise ValueError(
                "Cannot adapt a Discretization layer that has been initialized "
                "with `bin_boundaries`, use `num_bins` instead."
            )
        self.reset_state()
        for batch in batches_of(data, steps, owner="Discretization.adapt"):
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        data = np.array(data).astype("float32")
        self.summary = merge_summaries(summarize(data, self.epsilon), self.summary,
                                       self.epsilon)

    def finalize_state(self):
        if self.num_bins is not None:
            self.bin_boundaries = bin_boundaries_of(self.summary,
                                                    self.num_bins).tolist()

    def reset_state(self):
        if self.num_bins is not None:
            self.summary = np.array([[], []], dtype="float32")

    # -------------------------------------------------------------- call
    def _encode(self, inputs):
        indices = np.digitize(np.asarray(inputs, "float32"),
                              np.asarray(self.bin_boundaries, "float32"))
        return encode_categorical_inputs(indices, self.output_mode,
                                         len(self.bin_boundaries) + 1,
                                         dtype=self.output_dtype)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(
                "You need to either pass the `bin_boundaries` argument at "
                "construction time or call `adapt(dataset)` before you can start "
                "using the `Discretization` layer."
            )
        return numpy_function(inputs, fn=self._encode)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = (len(self.bin_boundaries) + 1 if self.bin_boundaries is not None
                 else self.num_bins)
        input_shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
                return input_shape[:-1] + (depth,)
            return input_shape + (depth,)
        if len(input_shape) >= 2:
            return (input_shape[0],) + input_shape[2:] + (depth,)
        return (depth,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.output_dtype)

    def load_own_variables(self, store):
        if len(store.keys()) == 1:  # files of older Keras versions
            self.summary = np.asarray(store["0"])

    def get_config(self):
        return {
            "bin_boundaries": self.bin_boundaries,
            "num_bins": self.num_bins,
            "epsilon": self.epsilon,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "name": self.name,
            "dtype": self.dtype,
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("bin_boundaries") is not None and \
                config.get("num_bins") is not None:
            # an adapted layer: both are set, which __init__ refuses
            bin_boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = bin_boundaries
            return layer
        return cls(**config)


__all__ = ["Discretization"]
