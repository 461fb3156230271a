"""More of the NumPy API as primitives, for ``kerasmini.ops``: trigonometry,
``einsum``, running sums and products, tiling and flipping, each with its
gradient rule.

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
    multiply,
    negative,
    reshape,
    shape_of,
    sum,  # noqa: A004 (the op, not the builtin)
    unbroadcast,
)


def _prim(name, forward, *rules):
    prim = Primitive(name, forward)
    if rules:
        prim.defvjp(*rules)
    return prim


sin = _prim("sin", np.sin, lambda g, ans, x: multiply(g, cos(x)))  # sin' = cos
cos = _prim("cos", np.cos, lambda g, ans, x: negative(multiply(g, sin(x))))
expm1 = _prim("expm1", np.expm1,
              lambda g, ans, x: multiply(g, add(ans, 1.0)))  # (e^x - 1)' = e^x


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
            f"einsum: the subscripts name {len(operands)} operands for {count} "
            f"tensors (or a '.' outside a '...'). Received: {subscripts!r}"
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
                "einsum: a letter repeated within one operand (a trace or a "
                f"diagonal) is not supported. Received: {subscripts!r}"
            )
    return _einsum(*operands, subscripts=subscripts)


# ------------------------------------------------------- scans and layout
# each input element feeds every later output: the gradient is a running sum
# taken from the end (flip, cumsum, flip back)
cumsum = _prim("cumsum", lambda x, axis: np.cumsum(x, axis=axis),
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
    folded = sum(reshape(g, split), axis=tuple(range(0, len(split), 2)))
    return unbroadcast(folded, shape)


tile = _prim("tile", lambda x, reps: np.tile(x, reps), _tile_grad)

__all__ = ["cos", "cumsum", "einsum", "expm1", "flip", "sin", "tile"]
