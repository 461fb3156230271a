"""Peepholes: a few recorded steps that the compiler writes as one.

A fused kernel stands for a region the traced code *marked*
(:func:`kerasmini.backend.graph.fusible`); a faster twin stands for one
primitive wherever it is called. A peephole is the third kind: the compiler
(:mod:`kerasmini.backend.fast.codegen`) recognises a small pattern of
recorded steps, the way an optimising compiler looks at a few instructions
through a "peephole", and writes a kernel that computes the same values in
fewer NumPy calls. Nothing in the taught code marks them; they are found in
any traced step that has them.

1. **softmax and its crossentropy, one exp.** A softmax output layer trained
   with ``sparse_categorical_crossentropy`` records ``softmax(logits)``
   (the model's output) and ``sparse_softmax_crossentropy(labels,
   logits)`` (the loss, from the logits the output remembers): two
   ``exp``, two row maxima, two row sums. :func:`softmax_crossentropy`
   computes both from one of each, as the hand-written loop does.
2. **ReLU's gradient without** ``np.where``. ``relu``'s gradient rule is
   ``where(x > 0, g, zeros)``; ``np.where`` on a mask that changes from one
   entry to the next mispredicts a branch for every other entry (about 250
   us for 1024 x 64 float32, where multiplying by the mask takes 20).
   :func:`where_zero` keeps the bits of ``g`` where the mask holds and
   clears them elsewhere, with one integer ``and``: the same numbers as
   ``np.where`` (``-0.0``, ``inf`` and NaN included), without the branch.

Each kernel falls back on the taught functions for what it does not cover
(other axes, dtypes, shapes), so a peephole never changes what a step
computes; ``tests/test_backend_fast.py`` checks them against the recorded
steps.

>>> import numpy as np
>>> probs, loss = softmax_crossentropy(np.array([0]), np.zeros((1, 2), "float32"))
>>> probs, loss.round(4)
(array([[0.5, 0.5]], dtype=float32), array([0.6931], dtype=float32))
"""

import functools

import numpy as np

from kerasmini.backend import nn
from kerasmini.backend import numpy as bnp


def rewrite(graph, steps, output_slots):
    """``steps`` with the patterns above written as their kernels.

    A step is ``(forward, input slots, output slot, op name)``; the fused
    softmax crossentropy has two output slots (a tuple), which
    :func:`~kerasmini.backend.fast.codegen.compile_graph` writes as
    ``s1, s2 = f(...)``.
    """
    steps = _softmax_crossentropy(steps, output_slots)
    return [_where_zero(graph, step) for step in steps]


# ------------------------------------------------- softmax + crossentropy
def _softmax_crossentropy(steps, output_slots):
    """Join ``softmax(x)`` and ``sparse_softmax_crossentropy(labels, x)``
    into one two-output step, at the crossentropy's place. When the softmax
    comes first, it moves down to the crossentropy: allowed when no step in
    between reads the softmax's output."""
    softmaxes = {}  # logits slot -> index of the softmax step on it
    for index, (forward, ins, _, _) in enumerate(steps):
        if isinstance(forward, functools.partial) and forward.func is nn._softmax \
                and not forward.args and set(forward.keywords) <= {"axis"}:
            softmaxes.setdefault(ins[0], index)
    if not softmaxes:
        return steps
    steps = list(steps)
    for index, (forward, ins, out, _) in enumerate(steps):
        if forward is not nn._sparse_softmax_crossentropy:
            continue
        labels, logits = ins
        first = softmaxes.pop(logits, None)
        if first is None:
            continue
        soft_forward, _, probs, _ = steps[first]
        between = steps[first + 1:index] if first < index else []
        if any(probs in step_ins for _, step_ins, _, _ in between):
            continue
        kernel = functools.partial(softmax_crossentropy, **soft_forward.keywords)
        steps[index] = (kernel, (labels, logits), (probs, out),
                        "softmax_crossentropy")
        steps[first] = None
    return [step for step in steps if step is not None]


def softmax_crossentropy(labels, logits, axis=-1):
    """``(softmax(logits), sparse_softmax_crossentropy(labels, logits))``
    with one ``exp``, one row maximum and one row sum.

    The loss is ``log(sum(exp(shifted))) - shifted[label]``, ``shifted`` the
    logits less their row's maximum, as the taught op computes it; the
    probabilities are the same ``exp(shifted)`` over the same sum. For a
    batch of rows of a few classes the maximum and the sum go column by
    column (:func:`row_max`, :func:`row_sum`). Other shapes, axes and dtypes
    compute the two taught ops.

    >>> p, loss = softmax_crossentropy(np.array([1, 0]), np.log([[1.0, 3.0], [1.0, 1.0]]))
    >>> p.round(3), loss.round(4)
    (array([[0.25, 0.75],
           [0.5 , 0.5 ]]), array([0.2877, 0.6931]))
    """
    if (logits.ndim != 2 or axis not in (-1, 1) or logits.dtype.kind != "f"
            or not logits.size or labels.dtype != np.int64
            or labels.shape != logits.shape[:1]):
        return (nn._softmax(logits, axis=axis),
                nn._sparse_softmax_crossentropy(labels, logits))
    shifted = logits - row_max(logits)[:, None]
    e = np.exp(shifted)
    total = row_sum(e)
    loss = np.log(total)
    loss -= shifted[_rows(len(logits)), labels]
    probs = np.divide(e, total[:, None], out=e)
    return probs, loss


# NumPy reduces the short rows of a tall matrix (a batch of 1024 rows of 10
# logits) one row at a time: its maximum takes about 60 us, ten `maximum`
# calls on the columns about 8. The sum is a matrix-vector product.
_COLUMNS = 16  # rows of at most this many entries ...
_TALL = 128  # ... in a batch of at least this many rows go by columns


def row_max(x):
    """The maximum of each row of a 2-D array (NaN if the row has one).

    >>> row_max(np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]]))
    array([5., 7.])
    """
    rows, columns = x.shape
    if columns > _COLUMNS or rows < _TALL:
        return x.max(axis=1)
    result = x[:, 0].copy()
    for j in range(1, columns):
        np.maximum(result, x[:, j], out=result)  # NaN propagates, as in max
    return result


def row_sum(x):
    """The sum of each row of a 2-D float array (a matrix-vector product for
    a tall batch of short rows; float rounding may differ in the last bit).

    >>> row_sum(np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]]))
    array([8., 8.])
    """
    rows, columns = x.shape
    if columns > _COLUMNS or rows < _TALL:
        return np.add.reduce(x, axis=1)
    return x @ np.ones(columns, x.dtype)


@functools.lru_cache(maxsize=8)
def _rows(n):
    # 0, 1, ..., n - 1: which row each label picks (made once per batch size)
    rows = np.arange(n)
    rows.flags.writeable = False
    return rows


# ------------------------------------------------------------ ReLU's mask
def _where_zero(graph, step):
    """``where(condition, x, zeros)`` with constant zeros as
    :func:`where_zero`."""
    forward, ins, out, op = step
    if forward is not bnp.where.forward or len(ins) != 3:
        return step
    zeros = graph.template[ins[2]] if ins[2] >= graph.num_inputs else None
    if not isinstance(zeros, np.ndarray) or zeros.dtype.kind != "f" or \
            zeros.view(np.uint8).any():  # +0.0 only: -0.0 has a sign bit
        return step
    return (where_zero, ins, out, op)


_SAME_SIZE_INT = {np.dtype("float32"): np.int32, np.dtype("float64"): np.int64}


def where_zero(condition, x, zeros):
    """``np.where(condition, x, zeros)`` for ``zeros`` all ``+0.0``.

    A boolean mask of ``x``'s shape, and ``x`` float32 or float64: the mask
    becomes integers of all ones or all zeros (``-True`` is ``-1``), and an
    integer ``and`` with the bits of ``x`` keeps or clears each entry. No
    branch, so no misprediction; the same bits as ``np.where``. Anything
    else: ``np.where``.

    >>> where_zero(np.array([True, False, True]), np.array([-0.0, np.nan, 2.0]),
    ...            np.zeros(3))
    array([-0.,  0.,  2.])
    """
    ints = _SAME_SIZE_INT.get(x.dtype)
    if (ints is None or condition.dtype != np.bool_ or condition.shape != x.shape
            or np.result_type(x, zeros) != x.dtype
            or np.broadcast_shapes(x.shape, zeros.shape) != x.shape):
        return np.where(condition, x, zeros)
    mask = np.negative(condition.view(np.int8), dtype=ints)  # 0 or -1: all ones
    np.bitwise_and(x.view(ints), mask, out=mask)
    return mask.view(x.dtype)


__all__ = ["rewrite", "row_max", "row_sum", "softmax_crossentropy", "where_zero"]
