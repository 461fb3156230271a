"""Initializers: how a new weight's first values are drawn.

Each is a callable object ``init(shape, dtype) -> np.ndarray`` with a
``get_config``; :func:`get` resolves a name (``"glorot_uniform"``), an
object, or a plain callable. They draw from kerasmini's seeded generator
(:func:`kerasmini.utils.set_random_seed`).

>>> import numpy as np
>>> get("zeros")((2,), "float32")
array([0., 0.], dtype=float32)
>>> w = GlorotUniform(seed=0)((64, 64), "float32")
>>> bool(np.abs(w).max() <= np.sqrt(6 / 128))
True
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import random as _random
from kerasmini.backend.config import standardize_dtype
from kerasmini.saving import serialization


def _fans(shape, input_axes=None, output_axes=None):
    """(fan_in, fan_out) as Keras computes them (conv kernels: receptive
    field; an ``EinsumDense`` kernel: the products of its input and output
    axes, when they are given)."""
    if input_axes is not None and output_axes is not None:
        return (int(np.prod([shape[a] for a in input_axes])),
                int(np.prod([shape[a] for a in output_axes])))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: ``__call__(shape, dtype)`` returns an array.

    >>> class Halves(Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return np.full(shape, 0.5, dtype=dtype)
    >>> Halves()((2,), "float32")
    array([0.5, 0.5], dtype=float32)
    """

    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


class _Seeded(Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def _rng(self):
        return _random.generator(self.seed)

    def get_config(self):
        return {"seed": self.seed}


@keras_export("kerasmini.initializers.Zeros")
class Zeros(Initializer):
    """All zeros.

    >>> Zeros()((2,), "float32")
    array([0., 0.], dtype=float32)
    """

    def __call__(self, shape, dtype=None):
        return np.zeros(shape, dtype=standardize_dtype(dtype))


@keras_export("kerasmini.initializers.Ones")
class Ones(Initializer):
    """All ones.

    >>> Ones()((2,), "float32")
    array([1., 1.], dtype=float32)
    """

    def __call__(self, shape, dtype=None):
        return np.ones(shape, dtype=standardize_dtype(dtype))


@keras_export("kerasmini.initializers.Constant")
class Constant(Initializer):
    """Every value equal to ``value``.

    >>> Constant(3.0)((2,), "float32")
    array([3., 3.], dtype=float32)
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return np.full(shape, self.value, dtype=standardize_dtype(dtype))

    def get_config(self):
        return {"value": self.value}


@keras_export("kerasmini.initializers.RandomNormal")
class RandomNormal(_Seeded):
    """Normal with ``mean`` and ``stddev``.

    >>> w = RandomNormal(mean=1.0, stddev=0.1, seed=0)((1000,))
    >>> round(float(w.mean()), 1), round(float(w.std()), 1)
    (1.0, 0.1)
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return self._rng().normal(self.mean, self.stddev, shape).astype(standardize_dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


@keras_export("kerasmini.initializers.RandomUniform")
class RandomUniform(_Seeded):
    """Uniform in ``[minval, maxval)``.

    >>> w = RandomUniform(-1.0, 1.0, seed=0)((1000,))
    >>> bool(w.min() >= -1.0 and w.max() < 1.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None):
        return self._rng().uniform(self.minval, self.maxval, shape).astype(
            standardize_dtype(dtype))

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


@keras_export("kerasmini.initializers.TruncatedNormal")
class TruncatedNormal(_Seeded):
    """Normal, redrawn beyond two standard deviations.

    >>> w = TruncatedNormal(stddev=0.05, seed=0)((1000,))
    >>> bool(np.abs(w).max() <= 0.1)
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return _truncated(self._rng(), shape, self.stddev, dtype) + self.mean

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


def _truncated(rng, shape, stddev, dtype):
    values = rng.normal(0.0, 1.0, shape)
    bad = np.abs(values) > 2
    while bad.any():
        values[bad] = rng.normal(0.0, 1.0, int(bad.sum()))
        bad = np.abs(values) > 2
    return (values * stddev).astype(standardize_dtype(dtype))


@keras_export("kerasmini.initializers.VarianceScaling")
class VarianceScaling(_Seeded):
    """Scale the variance by the fans: ``scale / n`` where ``n`` is fan_in,
    fan_out or their average; ``distribution`` is ``truncated_normal``,
    ``untruncated_normal`` or ``uniform``.

    >>> init = VarianceScaling(scale=2.0, mode="fan_in", distribution="uniform", seed=0)
    >>> bool(np.abs(init((100, 10))).max() <= np.sqrt(3 * 2.0 / 100))
    True
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal",
                 seed=None, input_axes=None, output_axes=None):
        super().__init__(seed)
        self.input_axes, self.output_axes = input_axes, output_axes
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(
                "Invalid `mode` argument: expected one of {'fan_in', 'fan_out', "
                f"'fan_avg'}}. Received: mode={mode}"
            )
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(
                "Invalid `distribution` argument: expected one of {'normal', "
                f"'uniform'}}. Received: distribution={distribution}"
            )
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out,
             "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        rng = self._rng()
        if self.distribution == "uniform":
            limit = np.sqrt(3.0 * variance)
            return rng.uniform(-limit, limit, shape).astype(standardize_dtype(dtype))
        if self.distribution == "untruncated_normal":
            return rng.normal(0.0, np.sqrt(variance), shape).astype(standardize_dtype(dtype))
        # 0.879... = stddev of a unit normal truncated at two stddevs
        return _truncated(rng, shape, np.sqrt(variance) / 0.87962566103423978, dtype)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode,
                "distribution": self.distribution, "seed": self.seed,
                **_axes_config(self)}


def _axes_config(initializer):
    """The kernel axes, in the config only when set (Keras always writes them,
    as ``None`` unless given; kerasmini drops those ``None`` on load)."""
    if initializer.input_axes is None and initializer.output_axes is None:
        return {}
    return {"input_axes": initializer.input_axes,
            "output_axes": initializer.output_axes}


def _scaling(name, scale, mode, distribution, doc):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed,
                                 input_axes, output_axes)

    def get_config(self):
        return {"seed": self.seed, **_axes_config(self)}

    doc = (f"{doc}\n\n    >>> {name}(seed=0)((3, 2), \"float32\").dtype.name\n"
           "    'float32'\n    ")
    cls = type(name, (VarianceScaling,), {
        "__init__": __init__, "get_config": get_config, "__doc__": doc,
        "__module__": __name__})
    return keras_export(f"kerasmini.initializers.{name}")(cls)


GlorotUniform = _scaling("GlorotUniform", 1.0, "fan_avg", "uniform",
                         "Uniform in +-sqrt(6 / (fan_in + fan_out)) (Keras's default).")
GlorotNormal = _scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
                        "Truncated normal, stddev sqrt(2 / (fan_in + fan_out)).")
HeNormal = _scaling("HeNormal", 2.0, "fan_in", "truncated_normal",
                    "Truncated normal, stddev sqrt(2 / fan_in) (for relu).")
HeUniform = _scaling("HeUniform", 2.0, "fan_in", "uniform",
                     "Uniform in +-sqrt(6 / fan_in).")
LecunNormal = _scaling("LecunNormal", 1.0, "fan_in", "truncated_normal",
                       "Truncated normal, stddev sqrt(1 / fan_in).")
LecunUniform = _scaling("LecunUniform", 1.0, "fan_in", "uniform",
                        "Uniform in +-sqrt(3 / fan_in).")

@keras_export("kerasmini.initializers.Orthogonal")
class Orthogonal(_Seeded):
    """A (semi-)orthogonal matrix times ``gain``, from the QR decomposition
    of a normal draw (the default of recurrent kernels: repeated products
    with it neither explode nor vanish).

    >>> w = Orthogonal(seed=0)((4, 4))
    >>> bool(np.allclose(w @ w.T, np.eye(4), atol=1e-5))
    True
    """

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) < 2:
            raise ValueError(
                "The tensor to initialize must be at least two-dimensional. "
                f"Received: shape={shape} of rank {len(shape)}."
            )
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        a = self._rng().normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))  # a unique, uniformly distributed q
        if rows < cols:
            q = q.T
        return (self.gain * q.reshape(shape)).astype(standardize_dtype(dtype))

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


ALL = {
    "orthogonal": Orthogonal,
    "zeros": Zeros, "ones": Ones, "constant": Constant,
    "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
    "he_normal": HeNormal, "he_uniform": HeUniform,
    "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
}


@keras_export("kerasmini.initializers.get")
def get(identifier):
    """Resolve an initializer from a name, a class name, an object or a callable.

    >>> get("he_normal"), get("HeNormal")
    (HeNormal(seed=None), HeNormal(seed=None))
    """
    by_class = {cls.__name__: cls for cls in ALL.values()}
    return serialization.resolve_identifier(identifier, "initializer", {**ALL, **by_class},
                              known=ALL)


@keras_export("kerasmini.initializers.serialize")
def serialize(initializer):
    """The name-and-config form of ``initializer``.

    >>> serialize(Zeros())["class_name"]
    'Zeros'
    """
    return serialization.serialize_keras_object(initializer)
