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
from kerasmini.backend.fast import kernels
from kerasmini.backend.variables import Variable


def rewrite(graph, steps, output_slots):
    """``steps`` with the patterns above written as their kernels.

    A step is ``(forward, input slots, output slot, op name)``; the fused
    softmax crossentropy has two output slots (a tuple), which
    :func:`~kerasmini.backend.fast.codegen.compile_graph` writes as
    ``s1, s2 = f(...)``.

    >>> from kerasmini.backend import function
    >>> step = function(lambda labels, logits: (
    ...     nn.softmax(logits, axis=1), nn.sparse_softmax_crossentropy(labels, logits)))
    >>> _ = step(np.array([1]), np.zeros((1, 3), "float32"))
    >>> graph = next(iter(step.graphs.values()))
    >>> [op for _, _, _, op in graph.steps]
    ['softmax', 'sparse_softmax_crossentropy']
    >>> [op for _, _, _, op in rewrite(graph, graph.steps, graph.outputs[1])]
    ['softmax_crossentropy']
    """
    steps = _softmax_crossentropy(steps, output_slots)
    steps = _checked_cast(steps, output_slots)
    steps = _floored_divide(graph, steps, output_slots)
    return [_number_add(_where_zero(graph, step)) for step in steps]


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
    for index, step in enumerate(steps):
        if step is None or step[0] is not nn._sparse_softmax_crossentropy:
            continue
        ins, out = step[1], step[2]
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


# ------------------------------------------------------ labels cast, checked
def _checked_cast(steps, output_slots):
    """``checked_indices(cast(y, float))``, the cast read by nothing else,
    as :func:`checked_cast_indices` of ``y``."""
    readers = {}
    for _, ins, _, _ in steps:
        for slot in ins:
            readers[slot] = readers.get(slot, 0) + 1
    casts = {}  # output slot -> (index, the cast's input, dtype)
    for index, (forward, ins, out, _) in enumerate(steps):
        if isinstance(forward, functools.partial) and forward.func is bnp._cast \
                and readers.get(out) == 1 and out not in output_slots:
            dtype = _dtype_name(forward.keywords["dtype"])
            if dtype in _EXACT_INTEGERS:
                casts[out] = (index, ins[0], dtype)
    dropped = set()
    for index, (forward, ins, out, op) in enumerate(steps):
        if isinstance(forward, functools.partial) and \
                forward.func is kernels.checked_indices and ins[0] in casts:
            cast_index, labels, dtype = casts[ins[0]]
            steps[index] = (functools.partial(checked_cast_indices, dtype=dtype,
                                              **forward.keywords),
                            (labels,), out, op)
            dropped.add(cast_index)
    return [step for index, step in enumerate(steps) if index not in dropped]


def checked_cast_indices(x, dtype, size, what):
    """``checked_indices(cast(x, dtype), size, what)``: integer labels cast
    to the predictions' float dtype (as a loss casts ``y_true``), then
    checked and turned back into integers. When ``x`` holds integers and
    ``size`` is small enough for every index to be exact in ``dtype``, the
    round trip changes nothing: the labels are checked as integers (one
    reduction) and returned as int64. Otherwise the two taught steps.

    >>> checked_cast_indices(np.array([2, 0]), "float32", size=3, what="Labels")
    array([2, 0])
    """
    if x.dtype in kernels.UNSIGNED and size <= _EXACT_INTEGERS.get(dtype, 0):
        return kernels.checked_indices(x, size=size, what=what)
    return kernels.checked_indices(bnp._cast(x, dtype), size=size, what=what)


# the integers a float dtype holds exactly: 0 .. 2**(mantissa bits + 1)
_EXACT_INTEGERS = {"float16": 1 << 11, "float32": 1 << 24, "float64": 1 << 53}


def _dtype_name(dtype):
    try:
        return np.dtype(dtype).name
    except TypeError:
        return None


# ------------------------------------------------------- a metric's result
def _floored_divide(graph, steps, output_slots):
    """``divide(a, maximum(b, floor))`` on numbers (``Mean.result``: the
    total over the count, at least ``1e-12``), the maximum read by nothing
    else, as one :func:`floored_divide`."""
    readers = {}
    for _, ins, _, _ in steps:
        for slot in ins:
            readers[slot] = readers.get(slot, 0) + 1
    floors = {}  # output slot of a maximum -> (index, its input, the floor)
    for index, (forward, ins, out, _) in enumerate(steps):
        if forward is np.maximum and len(ins) == 2 and ins[1] in graph.constant_slots \
                and type(graph.template[ins[1]]) in (int, float) \
                and out in graph._scalar_slots and readers.get(out) == 1 \
                and out not in output_slots:
            floors[out] = (index, ins[0], graph.template[ins[1]])
    dropped = set()
    for index, (forward, ins, out, op) in enumerate(steps):
        if forward is np.true_divide and len(ins) == 2 and ins[1] in floors:
            floor_index, count, floor = floors[ins[1]]
            steps[index] = (functools.partial(floored_divide, floor=floor),
                            (ins[0], count), out, op)
            dropped.add(floor_index)
    return [step for index, step in enumerate(steps) if index not in dropped]


def floored_divide(total, count, floor):
    """``total / maximum(count, floor)`` for two numbers of one float dtype
    (0-d arrays), in NumPy scalar arithmetic: the same float32 (or float64)
    operations as the two ufunc calls, a tenth of their overhead. NaN
    propagates as in ``maximum``. Anything else: the two ufuncs.

    >>> floored_divide(np.array(3.0, "float32"), np.array(0.0, "float32"), 1e-12)
    np.float32(3e+12)
    """
    if type(total) is not np.ndarray or type(count) is not np.ndarray or \
            total.shape or count.shape or total.dtype != count.dtype or \
            total.dtype.kind != "f":
        return np.true_divide(total, np.maximum(count, floor))
    count = count[()]
    floor = count.dtype.type(floor)  # as maximum takes a Python number: weakly
    return total[()] / (count if not count < floor else floor)


# ------------------------------------------------------------ ReLU's mask
def _where_zero(graph, step):
    """``where(condition, x, zeros)`` with constant zeros as
    :func:`where_zero`."""
    forward, ins, out, op = step
    if forward is not bnp.where.forward or len(ins) != 3:
        return step
    zeros = graph.template[ins[2]] if ins[2] >= graph.num_inputs else None
    # +0.0 only (-0.0 has a sign bit; NaN is true); a constant may be a view
    # of any strides (np.broadcast_to's, a transpose's)
    if not isinstance(zeros, np.ndarray) or zeros.dtype.kind != "f" or \
            zeros.any() or np.signbit(zeros).any():
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
            or zeros.dtype != x.dtype or zeros.shape != x.shape):
        return np.where(condition, x, zeros)
    mask = np.negative(condition.view(np.int8), dtype=ints)  # 0 or -1: all ones
    np.bitwise_and(x.view(ints), mask, out=mask)
    return mask.view(x.dtype)


# ----------------------------------------------------- a metric's counters
def _number_add(step):
    """``assign_add`` on a variable of one number (a metric's ``total`` or
    ``count``, the optimizer's ``iterations``) as :func:`add_to_number`."""
    forward, ins, out, op = step
    variable = getattr(forward, "__self__", None)
    if getattr(forward, "__func__", None) is not Variable._write_add or \
            np.ndim(variable._value) != 0:
        return step
    return (functools.partial(add_to_number, variable), ins, out, op)


def add_to_number(variable, delta):
    """``variable.assign_add(delta)`` for a variable of one number: the same
    ``np.add``, without the shape check and the cast when the sum has the
    variable's shape and dtype already (anything else: the taught write,
    which casts, or refuses a shape). About 1 us instead of 2, five times
    a batch for a model with one metric.

    >>> from kerasmini.backend import Variable
    >>> count = Variable(2.0)
    >>> add_to_number(count, np.float32(3.0)), count.numpy()
    (np.float32(5.0), array(5., dtype=float32))
    """
    value = variable._value
    total = np.add(value, delta)
    if total.dtype != value.dtype or total.shape:
        return variable._write_add(delta)
    variable._value = total
    return total


__all__ = ["add_to_number", "checked_cast_indices", "floored_divide", "rewrite",
           "row_max", "row_sum", "softmax_crossentropy", "where_zero"]
