"""More of the NumPy API as primitives, for ``kerasmini.ops``: trigonometry
and its inverses, ``einsum`` and ``tensordot``, running sums, tiling,
repeating, rolling and flipping, gathers along an axis and dynamic slices,
each with its gradient rule.

(The core set lives in :mod:`kerasmini.backend.numpy`; these are the ones the
Keras 3 op namespace adds.)

>>> einsum("ij,jk->ik", np.ones((2, 3)), np.ones((3, 4))).shape
(2, 4)
"""

import string

import numpy as np

from kerasmini.backend.core import Primitive
from kerasmini.backend.numpy import (
    add,
    divide,
    multiply,
    negative,
    reshape,
    shape_of,
    sqrt,
    square,
    subtract,
    transpose,
    unbroadcast,
)
from kerasmini.backend.numpy import sum as _sum


def _prim(name, forward, *rules):
    prim = Primitive(name, forward)
    if rules:
        prim.defvjp(*rules)
    return prim


sin = _prim("sin", np.sin, lambda g, ans, x: multiply(g, cos(x)))  # sin' = cos
cos = _prim("cos", np.cos, lambda g, ans, x: negative(multiply(g, sin(x))))
expm1 = _prim("expm1", np.expm1,
              lambda g, ans, x: multiply(g, add(ans, 1.0)))  # (e^x - 1)' = e^x
arcsin = _prim("arcsin", np.arcsin,  # 1 / sqrt(1 - x^2)
               lambda g, ans, x: divide(g, sqrt(subtract(1.0, square(x)))))
arccos = _prim("arccos", np.arccos,  # -1 / sqrt(1 - x^2)
               lambda g, ans, x: negative(divide(g, sqrt(subtract(1.0, square(x))))))
arctan = _prim("arctan", np.arctan,  # 1 / (1 + x^2)
               lambda g, ans, x: divide(g, add(square(x), 1.0)))
arcsinh = _prim("arcsinh", np.arcsinh,  # 1 / sqrt(x^2 + 1)
                lambda g, ans, x: divide(g, sqrt(add(square(x), 1.0))))
arccosh = _prim("arccosh", np.arccosh,  # 1 / sqrt(x^2 - 1)
                lambda g, ans, x: divide(g, sqrt(subtract(square(x), 1.0))))
arctanh = _prim("arctanh", np.arctanh,  # 1 / (1 - x^2)
                lambda g, ans, x: divide(g, subtract(1.0, square(x))))
ceil = _prim("ceil", np.ceil)  # piecewise constant: no gradient, as floor


# ----------------------------------------------------------------- einsum
def expand_ellipsis(subscripts, ranks):
    """``subscripts`` with each ``...`` written out as letters of its own,
    given the rank of each operand (``...`` stands for the leading axes the
    named letters leave over; the output gets as many as the longest).

    >>> expand_ellipsis("...x,xy->...y", [3, 2])
    'ABx,xy->ABy'
    """
    if "..." not in subscripts:
        return subscripts
    inputs, arrow, output = subscripts.replace(" ", "").partition("->")
    operands = inputs.split(",")
    if len(operands) != len(ranks):
        return subscripts  # the count is checked by _parse
    free = [c for c in string.ascii_uppercase + string.ascii_lowercase
            if c not in subscripts]
    counts = [rank - len(name.replace("...", "")) for name, rank
              in zip(operands, ranks) if "..." in name]
    if any(n < 0 for n in counts):
        raise ValueError(
            f"einsum: an operand has fewer axes than its subscripts name. "
            f"Received: subscripts={subscripts!r} for operands of ranks {ranks}"
        )
    letters = "".join(free[:max(counts)])
    operands = [name.replace("...", letters[len(letters) - (rank - len(
        name.replace("...", ""))):]) for name, rank in zip(operands, ranks)]
    if not arrow:  # implicit output: the ellipsis axes, then sorted singles
        joined = "".join(operands)
        output = letters + "".join(sorted(
            c for c in set(joined) if joined.count(c) == 1 and c not in letters))
    return ",".join(operands) + "->" + output.replace("...", letters)


def _parse(subscripts, count):
    inputs, _, output = subscripts.replace(" ", "").partition("->")
    operands = inputs.split(",")
    if len(operands) != count or "." in subscripts:
        raise ValueError(
            f"ops.einsum: Number of operands ({count}) does not match the number "
            f"of input specs ({len(operands)}) in `einsum` (or a '.' outside a "
            f"'...'). Received: subscripts={subscripts!r}"
        )
    if not output and "->" not in subscripts:  # implicit mode: sorted singles
        letters = "".join(operands)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return operands, output


def _einsum_forward(*operands, subscripts):
    return np.einsum(subscripts, *operands)


def _einsum_grad(argnum, g, ans, *operands, subscripts):
    # The gradient for operand i is an einsum of the incoming gradient with
    # every other operand, producing operand i's subscripts. A letter of
    # operand i found nowhere else was summed away: broadcast it back.
    names, output = _parse(subscripts, len(operands))
    target = names[argnum]
    others = [n for k, n in enumerate(names) if k != argnum]
    available = set(output).union(*others) if others else set(output)
    kept = "".join(c for c in target if c in available)
    spec = ",".join([output] + others) + "->" + kept
    grad = einsum(spec, g, *[x for k, x in enumerate(operands) if k != argnum])
    if kept != target:  # letters summed out of this operand alone
        shape = [shape_of(operands[argnum])[i] if c in kept else 1
                 for i, c in enumerate(target)]
        grad = multiply(reshape(grad, shape), np.ones(shape_of(operands[argnum]),
                                                      dtype="float32"))
    return grad


_einsum = Primitive("einsum", _einsum_forward)
_einsum.defvjp_argnum(_einsum_grad)


def einsum(subscripts, *operands):
    """Einstein summation, as ``np.einsum`` (``...`` for unnamed axes; no
    repeated letter within one operand's subscripts).

    >>> einsum("i,i->", np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    array(11.)
    >>> einsum("...i,ij->...j", np.ones((4, 2, 3)), np.ones((3, 5))).shape
    (4, 2, 5)
    """
    subscripts = expand_ellipsis(subscripts, [len(shape_of(x)) for x in operands])
    names, _ = _parse(subscripts, len(operands))
    for name in names:
        if len(set(name)) != len(name):
            raise ValueError(
                "ops.einsum: a letter repeated within one operand (a trace or a "
                f"diagonal) is not supported. Received: subscripts={subscripts!r}"
            )
    return _einsum(*operands, subscripts=subscripts)


# -------------------------------------------------------------- tensordot
def _tensordot_grad_x1(g, ans, x1, x2, axes):
    # contract g with x2 over x2's free axes; what is left are x1's free
    # axes then x2's contracted ones (in x2's order), each standing for its
    # partner in x1: put them back in x1's order
    a1, a2 = axes
    free1 = [i for i in range(len(shape_of(x1))) if i not in a1]
    free2 = [i for i in range(len(shape_of(x2))) if i not in a2]
    grad = tensordot(g, x2, axes=(tuple(range(len(free1), len(free1) + len(free2))),
                                  tuple(free2)))
    partner = dict(zip(a2, a1))
    order = free1 + [partner[j] for j in sorted(a2)]
    return transpose(grad, tuple(int(i) for i in np.argsort(order)))


def _tensordot_grad_x2(g, ans, x1, x2, axes):
    # contract x1 with g over x1's free axes; left: x1's contracted axes (in
    # x1's order, each standing for its partner in x2) then x2's free axes
    a1, a2 = axes
    free1 = [i for i in range(len(shape_of(x1))) if i not in a1]
    free2 = [i for i in range(len(shape_of(x2))) if i not in a2]
    grad = tensordot(x1, g, axes=(tuple(free1), tuple(range(len(free1)))))
    partner = dict(zip(a1, a2))
    order = [partner[i] for i in sorted(a1)] + free2
    return transpose(grad, tuple(int(i) for i in np.argsort(order)))


def _tensordot_forward(x1, x2, axes):
    return np.tensordot(x1, x2, axes=axes)


tensordot_prim = _prim("tensordot", _tensordot_forward, _tensordot_grad_x1,
                       _tensordot_grad_x2)


def tensordot(x1, x2, axes=2):
    """``np.tensordot``: sum the products over ``axes`` (an int ``n``: the
    last ``n`` axes of ``x1`` with the first ``n`` of ``x2``; or a pair of
    lists of axes, non-negative after this call).

    >>> tensordot(np.ones((2, 3, 4)), np.ones((3, 4, 5)), axes=2).shape
    (2, 5)
    """
    rank1, rank2 = len(shape_of(x1)), len(shape_of(x2))
    if isinstance(axes, (int, np.integer)):
        axes = (tuple(range(rank1 - axes, rank1)), tuple(range(axes)))
    a1, a2 = ((a,) if isinstance(a, (int, np.integer)) else tuple(a) for a in axes)
    axes = (tuple(int(a) % rank1 for a in a1), tuple(int(a) % rank2 for a in a2))
    return tensordot_prim(x1, x2, axes=axes)


# ------------------------------------------------------- scans and layout
# each input element feeds every later output: the gradient is a running sum
# taken from the end (flip, cumsum, flip back)
cumsum = _prim("cumsum", lambda x, axis: np.cumsum(x, axis=axis, dtype=x.dtype),
               lambda g, ans, x, axis: flip(cumsum(flip(g, axis=axis), axis=axis),
                                            axis=axis))
flip = _prim("flip", lambda x, axis: np.flip(x, axis=axis),
             lambda g, ans, x, axis: flip(g, axis=axis))  # its own inverse


def _tile_grad(g, ans, x, reps):
    # fold each tiled copy back onto the original: (reps, n) -> sum over reps
    shape = shape_of(x)
    reps = tuple(reps)
    lead = len(reps) - len(shape)
    full = (1,) * lead + tuple(shape) if lead > 0 else tuple(shape)
    reps = (1,) * (len(full) - len(reps)) + reps
    split = []
    for r, n in zip(reps, full):
        split += [r, n]
    folded = _sum(reshape(g, split), axis=tuple(range(0, len(split), 2)))
    return unbroadcast(folded, shape)


tile = _prim("tile", lambda x, reps: np.tile(x, reps), _tile_grad)


# each output element is one input element: the gradient adds up the copies
def _repeat_fold_forward(g, repeats, axis, size):
    if isinstance(repeats, int):  # every element repeated the same times
        shape = shape_of(g)
        folded = g.reshape(shape[:axis] + (size, repeats) + shape[axis + 1:])
        return folded.sum(axis=axis + 1)
    starts = np.concatenate([[0], np.cumsum(repeats)[:-1]])
    moved = np.moveaxis(g, axis, 0)
    out = np.zeros((size,) + moved.shape[1:], dtype=g.dtype)
    taken = np.asarray(repeats) > 0  # reduceat cannot skip an empty group
    if taken.any():
        out[taken] = np.add.reduceat(moved, starts[taken], axis=0)
    return np.moveaxis(out, 0, axis)


repeat = _prim("repeat", lambda x, repeats, axis: np.repeat(x, repeats, axis=axis),
               lambda g, ans, x, repeats, axis: _repeat_fold(
                   g, repeats=repeats, axis=axis, size=shape_of(x)[axis]))
_repeat_fold = _prim("repeat_fold", _repeat_fold_forward,
                     lambda u, ans, g, repeats, axis, size: repeat(
                         u, repeats=repeats, axis=axis))
# rolled back by the same shift
roll = _prim("roll", lambda x, shift, axis: np.roll(x, shift, axis=axis),
             lambda g, ans, x, shift, axis: roll(
                 g, shift=tuple(-s for s in shift), axis=axis))


# ------------------------------------------------------------ gathers
def _put_along_axis_forward(g, indices, shape, axis):
    out = np.zeros(shape, dtype=g.dtype)
    index = list(np.ix_(*[np.arange(n) for n in shape_of(indices)]))
    index[axis] = indices
    np.add.at(out, tuple(index), g)
    return out


# the gradient of a gather is a scatter-add into zeros, and back
take_along_axis = _prim(
    "take_along_axis", lambda x, indices, axis: np.take_along_axis(x, indices, axis),
    lambda g, ans, x, indices, axis: _put_along_axis(
        g, indices, shape=shape_of(x), axis=axis), None)
_put_along_axis = _prim(
    "put_along_axis", _put_along_axis_forward,
    lambda u, ans, g, indices, shape, axis: take_along_axis(u, indices, axis=axis),
    None)


def _slice_key(start, shape):
    return tuple(slice(int(s), int(s) + n) for s, n in zip(start, shape))


def _slice_scatter_forward(g, start, shape):
    out = np.zeros(shape, dtype=g.dtype)
    out[_slice_key(start, shape_of(g))] = g
    return out


def _dynamic_slice_forward(x, start, shape):
    for begin, size, dim in zip(np.asarray(start).tolist(), shape, np.shape(x)):
        if begin < 0 or begin + size > dim:  # a start read on this replay
            raise ValueError(
                "ops.slice: each slice must lie inside `inputs`: 0 <= start and "
                "start + size <= the size of the axis. Received: inputs.shape="
                f"{np.shape(x)}, start_indices={np.asarray(start).tolist()}, "
                f"shape={tuple(shape)}"
            )
    return x[_slice_key(start, shape)]


# ``start`` is a tensor: a traced step reads it on every replay
dynamic_slice = _prim(
    "dynamic_slice", _dynamic_slice_forward,
    lambda g, ans, x, start, shape: _slice_scatter(g, start, shape=shape_of(x)), None)
_slice_scatter = _prim(
    "slice_scatter", _slice_scatter_forward,
    lambda u, ans, g, start, shape: dynamic_slice(u, start, shape=shape_of(g)), None)

__all__ = ["arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "ceil",
           "cos", "cumsum", "dynamic_slice", "einsum", "expm1", "flip", "repeat",
           "roll", "sin", "take_along_axis", "tensordot", "tile"]
