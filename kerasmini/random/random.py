"""Random numbers, as ``keras.random`` (Keras 3's ``keras/src/random/random.py``).

``seed`` decides how a draw repeats: an integer gives the same numbers at
every call; a :class:`SeedGenerator` gives new numbers at every call (and at
every replay of a traced function), reproducibly; ``None`` uses kerasmini's
shared generator, seeded by ``kerasmini.utils.set_random_seed``. Given a shape
with unknown dimensions, or a KerasTensor, a function returns a KerasTensor
and draws nothing.

>>> a = normal((2,), seed=7)
>>> bool((a == normal((2,), seed=7)).all())
True
>>> gen = SeedGenerator(0)
>>> bool((normal((2,), seed=gen) == normal((2,), seed=gen)).all())
False
"""

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.backend import random as shared
from kerasmini.backend.core import Primitive, value_of
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.ops.operation import in_symbolic_scope
from kerasmini.random.seed_generator import SeedGenerator


def _rng(seed):
    seed = np.asarray(seed).astype("uint64").tolist()
    return np.random.default_rng(seed if isinstance(seed, list) else [seed])


def _draw(kind):
    """A primitive ``draw(seed, shape=..., **params)``: the seed is an input,
    so a traced graph draws afresh whenever the seed it reads has moved on."""

    def forward(seed, shape, dtype, shared_generator=False, **params):
        # seed=None: kerasmini's shared generator, read at every (re)play
        rng = shared.generator() if shared_generator else _rng(seed)
        if kind == "normal":
            out = rng.normal(params["mean"], params["stddev"], size=shape)
        elif kind == "uniform":
            out = rng.uniform(params["minval"], params["maxval"], size=shape)
        elif kind == "truncated_normal":
            out = rng.normal(size=shape)
            bad = np.abs(out) > 2.0
            while bad.any():  # redraw what fell beyond two deviations
                out[bad] = rng.normal(size=int(bad.sum()))
                bad = np.abs(out) > 2.0
            out = params["mean"] + params["stddev"] * out
        elif kind == "randint":
            out = rng.integers(params["minval"], params["maxval"], size=shape)
        else:  # a permutation of axis 0 of `params["values"]`
            out = rng.permutation(params["n"])
        return np.asarray(out).astype(dtype)

    return Primitive("random_" + kind, forward, stateful=True)


_NORMAL, _UNIFORM = _draw("normal"), _draw("uniform")
_TRUNCATED, _RANDINT, _PERMUTATION = _draw("truncated_normal"), _draw("randint"), \
    _draw("permutation")


def _seed_value(seed):
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return np.zeros(2, "uint32")  # unused: see `shared_generator`
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return np.asarray([int(seed), 0], "uint32")
    raise ValueError(
        "Argument `seed` must be an integer, a `keras.random.SeedGenerator` or "
        f"None. Received: seed={seed!r} (of type {type(seed).__name__})"
    )


def _drawn(primitive, seed, shape, dtype, **params):
    return primitive(_seed_value(seed), shared_generator=seed is None,
                     shape=tuple(shape), dtype=dtype, **params)


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _checked_shape(shape, fn):
    """A tuple of sizes (``None`` for unknown ones): an int, a list or a
    tuple of non-negative integers."""
    if _is_int(shape):
        shape = (shape,)
    bad = not isinstance(shape, (tuple, list)) or any(
        d is not None and (not _is_int(d) or d < 0) for d in shape)
    if bad:
        raise ValueError(
            f"`keras.random.{fn}`: argument `shape` must be a tuple of non-negative "
            f"integers (or None for an unknown size). Received: shape={shape!r}")
    return tuple(None if d is None else int(d) for d in shape)


def _checked(fn, shape, dtype, kind):
    """The draw's ``shape`` (non-negative sizes, ``None`` for unknown ones)
    and ``dtype`` (a float, or an integer for ``randint``), or a clear error
    naming the function: NumPy would say only "negative dimensions are not
    allowed", and ``normal`` cast to an integer dtype returned zeros."""
    if not any_symbolic(shape):
        shape = _checked_shape(shape, fn)
    dtype = config.standardize_dtype(dtype)
    if np.dtype(dtype).kind not in kind:
        wanted = "a floating point" if kind == "f" else "an integer"
        raise ValueError(f"`keras.random.{fn}` requires {wanted} `dtype`. "
                         f"Received: dtype={dtype}")
    return shape, dtype


def _tensor(x, name, fn):
    """``x`` if it is a tensor of numbers (an array, a KerasTensor...), a
    nested list of numbers as an array, or a clear error naming ``fn``."""
    if not any_symbolic((x,)) and not hasattr(x, "dtype"):
        try:
            x = np.asarray(x)
        except (ValueError, TypeError):  # a ragged list
            x = np.asarray(None, dtype=object)
    if np.dtype(str(x.dtype)).kind not in "biuf":
        raise ValueError(f"`keras.random.{fn}`: argument `{name}` must be a tensor "
                         f"of numbers. Received: {name} of dtype {x.dtype}")
    return x


def _symbolic(shape, dtype):
    """A KerasTensor when the shape is not known yet (or we only want one)."""
    shape = tuple(shape)
    if in_symbolic_scope() or None in shape or any_symbolic(shape):
        return KerasTensor(tuple(None if not isinstance(d, (int, np.integer))
                                 else int(d) for d in shape), dtype)
    return None


@keras_export("kerasmini.random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws from a normal distribution.

    >>> normal((2, 3), seed=1).shape
    (2, 3)
    """
    shape, dtype = _checked("normal", shape, dtype, "f")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return _drawn(_NORMAL, seed, shape, dtype, mean=mean,
                   stddev=stddev)


@keras_export("kerasmini.random.uniform")
def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Draws uniformly from ``[minval, maxval)``.

    >>> float(uniform((100,), seed=2).max()) < 1.0
    True
    """
    shape, dtype = _checked("uniform", shape, dtype, "f")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return _drawn(_UNIFORM, seed, shape, dtype, minval=minval, maxval=maxval)


@keras_export("kerasmini.random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """A normal distribution without the values beyond two deviations.

    >>> float(abs(truncated_normal((500,), seed=3)).max()) <= 2.0
    True
    """
    shape, dtype = _checked("truncated_normal", shape, dtype, "f")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return _drawn(_TRUNCATED, seed, shape, dtype, mean=mean,
                      stddev=stddev)


@keras_export("kerasmini.random.randint")
def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers drawn uniformly from ``[minval, maxval)``.

    >>> randint((4,), 0, 3, seed=0).dtype
    dtype('int32')
    """
    shape, dtype = _checked("randint", shape, dtype, "iu")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return _drawn(_RANDINT, seed, shape, dtype, minval=minval, maxval=maxval)


@keras_export("kerasmini.random.dropout")
def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero each value with probability ``rate``, scale the rest by
    ``1 / (1 - rate)`` (the expectation is kept).

    >>> out = dropout(np.ones((1000,)), 0.5, seed=0)
    >>> sorted(set(out.tolist())), abs(float(out.mean()) - 1.0) < 0.1
    ([0.0, 2.0], True)
    """
    if not 0 <= rate < 1:
        raise ValueError(
            f"Argument `rate` must be in [0, 1). Received: rate={rate!r}"
        )
    if any_symbolic((inputs,)) or in_symbolic_scope():
        return KerasTensor(tuple(np.shape(inputs) if not isinstance(
            inputs, KerasTensor) else inputs.shape), str(getattr(inputs, "dtype",
                                                                  config.floatx())))
    shape = tuple(noise_shape) if noise_shape is not None else tuple(np.shape(inputs))
    dtype = getattr(inputs, "dtype", config.floatx())
    dtype = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    keep = ops.greater_equal(uniform(shape, dtype=dtype, seed=seed), rate)
    kept = ops.where(keep, inputs, ops.zeros_like(inputs))
    return ops.divide(kept, 1.0 - rate)


@keras_export("kerasmini.random.shuffle")
def shuffle(x, axis=0, seed=None):
    """``x`` with its entries along ``axis`` in a random order.

    >>> sorted(shuffle(np.arange(5), seed=1).tolist())
    [0, 1, 2, 3, 4]
    """
    x = _tensor(x, "x", "shuffle")
    rank = len(x.shape)
    if not rank or not _is_int(axis) or not -rank <= axis < rank:
        raise ValueError(
            f"`keras.random.shuffle`: argument `axis` must be an integer in "
            f"[{-rank}, {rank}) for `x` of rank {rank}. Received: axis={axis!r}")
    if any_symbolic((x,)):
        return KerasTensor(x.shape, x.dtype)
    n = np.shape(value_of(x))[axis]
    order = _drawn(_PERMUTATION, seed, (n,), "int64", n=n)
    return ops.take(x, value_of(order), axis=axis)


@keras_export("kerasmini.random.categorical")
def categorical(logits, num_samples, dtype="int32", seed=None):
    """Draw class indices from unnormalised log-probabilities, one row of
    ``num_samples`` per row of ``logits``.

    >>> categorical(np.log([[0.0001, 0.9999]]), 5, seed=0).tolist()
    [[1, 1, 1, 1, 1]]
    """
    if len(_tensor(logits, "logits", "categorical").shape) != 2:  # Keras's words
        raise ValueError("`logits` should be a 2-D tensor with shape "
                         f"[batch_size, num_classes]. Received: logits={logits}")
    if not _is_int(num_samples) or num_samples < 0:
        raise ValueError("`keras.random.categorical`: argument `num_samples` must "
                         f"be an integer >= 0. Received: num_samples={num_samples!r}")
    if any_symbolic((logits,)):
        return KerasTensor((logits.shape[0], num_samples), dtype)
    probabilities = value_of(ops.softmax(logits, axis=-1))
    draws = value_of(uniform((np.shape(probabilities)[0], num_samples),
                             dtype="float64", seed=seed))
    cumulative = np.cumsum(probabilities, axis=-1)
    cumulative[:, -1] = 1.0  # no draw may fall past the last class
    out = np.stack([np.searchsorted(row, sample, side="right")
                    for row, sample in zip(cumulative, draws)])
    return out.astype(dtype)


__all__ = ["categorical", "dropout", "normal", "randint", "shuffle",
           "truncated_normal", "uniform"]
