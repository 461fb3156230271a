"""Kernels: faster versions of taught computations, for compiled steps only.

Every kernel here computes what a piece of the taught code computes, with
the same numbers (to float32 rounding), in fewer NumPy calls or fewer bytes.
The taught code never calls them. The compiler of a traced step
(:mod:`kerasmini.backend.fast.codegen`) puts them in place of the recorded
steps they stand for, in two ways:

* a **fused kernel** replaces a region of steps that the traced code marked
  with :func:`kerasmini.backend.graph.fusible` (Adam's loop of
  ``update_step`` calls becomes one :func:`adam_update`);
* a **faster twin** replaces the forward function of one primitive wherever
  a step calls it (:data:`FASTER`: the label check and ``mean`` here,
  ``one_hot``, ``relu``, ``transpose`` and ``argmax`` in
  :mod:`~kerasmini.backend.fast.twins`, 2-D max pooling in
  :mod:`~kerasmini.backend.fast.pooling`).

Eager code and :meth:`Graph.replay <kerasmini.backend.graph.Graph.replay>`
run the taught version; ``tests/test_backend_fast.py`` checks that both give
the same numbers.

>>> FASTER[checks.checked_indices.forward] is checked_indices  # the label check
True
"""

import collections
import math
import weakref

import numpy as np

from kerasmini.backend import checks, pooling
from kerasmini.backend import nn as bnn
from kerasmini.backend import numpy as bnp
from kerasmini.backend.fast import pooling as fast_pooling
from kerasmini.backend.fast import twins

Fused = collections.namedtuple("Fused", "name kernel tensors params writes")
Fused.__doc__ = """What traced code offers the compiler for a fusible region.

``kernel(*tensors, **params)`` computes what the region computes; ``name``
labels its step; ``writes`` are the positions in ``tensors`` of the arrays
it writes into (the compiler keeps the region's own steps when a value read
after it is one of those arrays, or a view of one).

>>> Fused("add_two", np.add, [np.ones(1), 2.0], {}, writes=[]).name
'add_two'
"""


# ------------------------------------------------------------------ Adam
# Entries per block of a big update: 256 KB of float32 per array, so the five
# arrays of a block fit in a typical 1-2 MB L2 cache.
BLOCK = 1 << 16


def adam(groups, learning_rate, iterations, beta_1, beta_2, epsilon):
    """The :class:`Fused` call of :func:`adam_update` that stands for Adam's
    ``update_step`` loop: ``groups`` is ``[variable, m, v, gradient, ...]``,
    four tensors per variable; it writes into the first three of each group.

    >>> call = adam(["w", "m", "v", "g"], "lr", "iterations", 0.9, 0.999, 1e-7)
    >>> call.name, [call.tensors[i] for i in call.writes]
    ('adam_update', ['w', 'm', 'v'])
    """
    tensors = [learning_rate, iterations, *groups]
    writes = [i for i in range(2, len(tensors)) if (i - 2) % 4 < 3]
    triples = [groups[i:i + 3] for i in range(0, len(groups), 4)]
    # one packing for every trace of the same update (fit traces a step for
    # each batch shape: the last batch of an epoch is often smaller), or the
    # traces would pack the variables again, each into its own buffers, at
    # every change of shape
    key = tuple(id(tensor) for triple in triples for tensor in triple)
    packing = _PACKINGS.get(key)
    if packing is None:
        packing = _PACKINGS[key] = Packing(triples)
    return Fused("adam_update", adam_update, tensors,
                 {"beta_1": beta_1, "beta_2": beta_2, "epsilon": epsilon,
                  "packing": packing}, writes)


def adam_update(learning_rate, iterations, *groups, beta_1, beta_2, epsilon,
                packing=None):
    """Adam's step for every variable at once, writing in place.

    ``groups`` is ``variable, m, v, gradient`` four arrays per variable (the
    variables' own arrays, so writing into them updates the variables). The
    bias-corrected rate ``alpha`` depends only on the step, so it is
    computed once, not once per variable, and in float64: the formula
    written with ops computes it in the variable's dtype, where ``1 -
    beta_2**t`` loses digits to cancellation (up to about 1e-5 of ``alpha``
    in float32 early in training), so the two agree to float32 precision,
    not bit for bit. Then each variable is updated by
    :func:`adam_update_variable`, except the small ones a :class:`Packing`
    keeps in one flat buffer: those take the formula's eleven NumPy calls
    once for all of them. Returns ``None``.

    >>> w, m, v = np.ones(2, "float32"), np.zeros(2, "float32"), np.zeros(2, "float32")
    >>> g = np.array([0.5, -2.0], "float32")
    >>> adam_update(np.float32(0.1), np.int64(0), w, m, v, g,
    ...             beta_1=0.9, beta_2=0.999, epsilon=1e-7)
    >>> w.round(4)  # the first step moves each weight by about the learning rate
    array([0.9, 1.1], dtype=float32)
    """
    t = float(iterations) + 1  # the step being taken, from 1
    alpha = float(learning_rate) * math.sqrt(1 - beta_2**t) / (1 - beta_1**t)
    packed = ()
    if packing is not None:
        packed = packing.update(groups, alpha, beta_1, beta_2, epsilon)
    dtype = scalars = None
    for i in range(0, len(groups), 4):
        if i in packed:
            continue
        variable, m, v, gradient = groups[i:i + 4]
        if scalars is None or variable.dtype != dtype:
            dtype = variable.dtype
            scalars = _scalars(dtype, alpha, beta_1, beta_2, epsilon)
        _in_blocks(variable, m, v, gradient, scalars)


# Variables of at most this many entries are packed (a bias, a small kernel):
# for them the eleven calls' overhead, not the arithmetic, is the cost.
PACKED = 1 << 14


# The packings alive (a graph's step holds each), by the variables they pack:
# the variables cannot die, nor their ids be reused, while the packing lives.
_PACKINGS = weakref.WeakValueDictionary()


class Packing:
    """Small variables of one Adam, and their slots, kept in flat buffers.

    Adam's formula is eleven NumPy calls a variable, about 5 us for a bias
    of 10 entries, nearly all of it the calls' overhead: the digits MLP's
    four variables take 44 calls. A packing moves the arrays of the small
    variables (at most :data:`PACKED` entries each), of their ``m`` and of
    their ``v`` into three flat buffers, one after the other, and makes each
    variable's value a view of its part (``variable._value``, reshaped), so
    the eleven calls run once on the flat buffers for all of them, after one
    ``concatenate`` of their gradients. What the variables hold does not
    change, only where.

    A replay checks that the arrays it is given are still those views (the
    identity of a dozen arrays); a variable given a new array since
    (``assign``, ``set_weights``, loading a file) is packed again, its new
    value copied in. Variables of several dtypes, or one variable twice,
    are not packed.

    >>> from kerasmini.backend import Variable
    >>> triples = [[Variable(np.ones(s, "float32"), name=n) for n in "wmv"]
    ...            for s in ((2, 2), (2,))]
    >>> packing = Packing(triples)
    >>> groups = [a for (w, m, v), g in zip(triples, (np.ones((2, 2)), np.ones(2)))
    ...           for a in (w._value, m._value, v._value, g)]
    >>> packing.update(groups, 0.1, 0.9, 0.999, 1e-7)
    [0, 4]
    >>> packing.flat[0].round(4)  # both variables' values, one after the other
    array([0.9, 0.9, 0.9, 0.9, 0.9, 0.9], dtype=float32)
    >>> triples[1][0]._value.base is packing.flat[0]
    True
    """

    def __init__(self, triples):
        self.triples = triples  # [variable, m, v] Variables, one per group
        self.indices = None  # the group offsets (4 i) packed, set on first use
        self.views = None  # the arrays each packed group should be given
        self.flat = None  # flat buffers: variables, m, v, gradients

    def update(self, groups, alpha, beta_1, beta_2, epsilon):
        """Adam's step for the packed groups of ``groups`` (the arrays of
        :func:`adam_update`); returns the offsets of the groups it updated."""
        if self.indices is None:
            self._choose(groups)
        if not self.indices:
            return ()
        given = [groups[i + k] for i in self.indices for k in range(3)]
        if self.views is None or not all(map(_is, given, self.views)):
            self._pack(given)
        weights, m, v, gradients = self.flat
        np.concatenate([groups[i + 3] for i in self.indices], axis=None,
                       out=gradients)
        _adam_block(weights, m, v, gradients,
                    *_scalars(weights.dtype, alpha, beta_1, beta_2, epsilon))
        return self.indices

    def _choose(self, groups):
        small = [i for i in range(0, len(groups), 4)
                 if groups[i].size <= PACKED and groups[i].dtype.kind == "f"]
        dtypes = {groups[i + k].dtype for i in small for k in range(3)}
        variables = [v for triple in self.triples for v in triple]
        distinct = len({id(v) for v in variables}) == len(variables)
        all_variables = all(getattr(v, "__kerasmini_variable__", False)
                            for v in variables)
        packable = len(small) > 1 and len(dtypes) == 1 and distinct and all_variables
        self.indices = small if packable else ()

    def _pack(self, given):
        dtype = given[0].dtype
        sizes = [given[3 * j].size for j in range(len(self.indices))]
        total = sum(sizes)
        self.flat = [np.empty(total, dtype) for _ in range(4)]
        self.views = []
        start = 0
        for j, (i, size) in enumerate(zip(self.indices, sizes)):
            for k in range(3):  # the variable, m, v
                old = given[3 * j + k]
                view = self.flat[k][start:start + size].reshape(old.shape)
                view[...] = old
                self.triples[i // 4][k]._value = view
                self.views.append(view)
            start += size


def _is(a, b):
    return a is b


def adam_update_variable(variable, m, v, gradient, alpha, beta_1, beta_2, epsilon):
    """One variable's Adam step with a given ``alpha``, in place.

    A big variable is updated :data:`BLOCK` entries at a time, so the one
    scratch array is a block, not a whole kernel, and the block's eleven
    passes run in the CPU cache instead of main memory (a 3000 x 3000
    kernel updates about 1.5x faster). Returns ``variable``.

    >>> w, m, v = np.ones(3), np.zeros(3), np.zeros(3)
    >>> adam_update_variable(w, m, v, np.full(3, 2.0), 0.1, 0.9, 0.999, 0.0).round(4)
    array([0.6838, 0.6838, 0.6838])
    """
    scalars = _scalars(variable.dtype, alpha, beta_1, beta_2, epsilon)
    return _in_blocks(variable, m, v, gradient, scalars)


def _scalars(dtype, alpha, beta_1, beta_2, epsilon):
    # NumPy scalars of the variable's dtype: the values NumPy would round the
    # Python floats to, passed to each ufunc faster than Python floats are
    kind = dtype.type
    return kind(alpha), kind(1 - beta_1), kind(1 - beta_2), kind(epsilon)


def _in_blocks(variable, m, v, gradient, scalars):
    if variable.size <= BLOCK:
        return _adam_block(variable, m, v, gradient, *scalars)
    arrays = (variable, m, v)
    if all(a.flags.c_contiguous for a in arrays):
        # flat views of the same buffers (the gradient may be a copy: it is
        # only read), updated one block at a time
        w_flat, m_flat, v_flat = (a.reshape(-1) for a in arrays)
        g_flat = np.reshape(gradient, -1)
        for i in range(0, w_flat.size, BLOCK):
            block = slice(i, i + BLOCK)
            _adam_block(w_flat[block], m_flat[block], v_flat[block],
                        g_flat[block], *scalars)
        return variable
    return _adam_block(variable, m, v, gradient, *scalars)


def _adam_block(variable, m, v, gradient, alpha, decay_1, decay_2, epsilon):
    step = np.subtract(gradient, m)  # the one scratch array, reused below
    step *= decay_1
    m += step  # m = m + (g - m) * (1 - beta_1)
    np.square(gradient, out=step)
    step -= v
    step *= decay_2
    v += step  # v = v + (g**2 - v) * (1 - beta_2)
    np.sqrt(v, out=step)
    step += epsilon
    np.divide(m, step, out=step)
    step *= alpha
    variable -= step  # w = w - alpha * m / (sqrt(v) + epsilon)
    return variable


# ------------------------------------------------------------ label check
UNSIGNED = twins.UNSIGNED  # int dtype -> the unsigned one (a negative label: huge)


def checked_indices(x, size, what):
    """:func:`kerasmini.backend.checks.checked_indices` in fewer NumPy calls.

    Integer labels take one reduction: read as unsigned, a negative label is
    huge, so one ``max`` finds labels too small and too big (about 1.3 us
    for 32 labels where the taught check, with its two comparisons, takes
    2.1). Floats take three or four calls. A bad label gets the taught
    version's ``ValueError``.

    >>> checked_indices(np.array([2, 0]), size=3, what="Labels")
    array([2, 0])
    """
    x = np.asarray(x)
    unsigned = UNSIGNED.get(x.dtype)
    if unsigned is not None:
        if not x.size or x.view(unsigned).max() < size:
            return x if x.dtype == np.int64 else x.astype(np.int64)
    elif x.dtype.kind in "bf":
        if not x.size:
            return x.astype("int64", copy=False)
        low, high = x.min(), x.max()  # NaN fails both comparisons
        if low >= 0 and high < size:
            indices = x.astype("int64", copy=False)
            if x.dtype.kind != "f" or (indices == x).all():
                return indices
    checks.explain_bad_indices(x, size, what)


# ------------------------------------------------------------------ mean
def mean(x, axis=None, keepdims=False):
    """``backend.numpy.mean`` of a float32 or float64 array as one reduction
    and one division (``ndarray.mean`` checks its arguments in Python first:
    about 1 us instead of 3 for a batch of losses). The same numbers: NumPy
    divides the same sum by the count in float64 and rounds, which gives the
    correctly rounded quotient a float32 division gives. Other dtypes, and
    empty arrays, take the taught path.

    >>> mean(np.array([[1.0, 2.0], [3.0, 5.0]], "float32"), axis=1)
    array([1.5, 4. ], dtype=float32)
    """
    if x.dtype.type not in (np.float32, np.float64) or not x.size:
        return bnp.mean.forward(x, axis=axis, keepdims=keepdims)
    total = np.add.reduce(x, axis=axis, keepdims=keepdims)
    count = x.size // max(np.size(total), 1)
    if count >= 1 << 24:  # not exact in float32: the taught path
        return bnp.mean.forward(x, axis=axis, keepdims=keepdims)
    return np.asarray(total / count)


# The forward function of a primitive -> its faster twin (same arguments).
FASTER = {checks.checked_indices.forward: checked_indices, bnp.mean.forward: mean,
          # calls without wrappers (backend/fast/twins.py)
          bnn.one_hot.forward: twins.one_hot, bnn.relu.forward: twins.relu,
          bnp._transpose: twins.transpose, bnp.argmax.forward: twins.argmax,
          # 2-D max pooling whose windows tile the image (backend/fast/pooling.py)
          pooling._max_pool: fast_pooling.max_pool,
          pooling._max_pool_backprop_fwd: fast_pooling.max_pool_backprop}


__all__ = ["BLOCK", "FASTER", "Fused", "PACKED", "Packing", "adam", "adam_update",
           "adam_update_variable", "checked_indices", "mean"]
