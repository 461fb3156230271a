"""Special functions, ``top_k`` and the 2D Fourier transform as primitives
(Keras 3's ``backend/numpy/math.py``), each with its gradient rule.

NumPy has no error function, so :data:`erf` computes it here from two
classical expansions, to double precision (``math.erf``'s accuracy):

* for ``|x| <= 2`` the series with positive terms only (no cancellation)
  ``erf(x) = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1 * 3 * ... * (2n+1))``;
* beyond, ``erfc(x) = exp(-x^2) / sqrt(pi) / K(x)`` with Laplace's continued
  fraction ``K(x) = x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))``,
  evaluated from a fixed depth backwards.

Forty terms of each reach 1e-15 everywhere (``tests/test_backend_ops.py``
compares with ``math.erf``).

>>> import math
>>> float(erf(np.array(0.5))) - math.erf(0.5) < 1e-15
True
"""

import numpy as np

from kerasmini.backend.core import Primitive
from kerasmini.backend.numpy import (
    exp,
    getitem,
    multiply,
    negative,
    square,
)
from kerasmini.backend.numpy_extra import take_along_axis

_TERMS = 40


def _prim(name, forward, *rules):
    prim = Primitive(name, forward)
    if rules:
        prim.defvjp(*rules)
    return prim


def _erf_forward(x):
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype("float64")
    a = np.abs(x.astype("float64"))
    out = np.empty_like(a)
    near = a <= 2.0
    small = a[near]
    term, total, q = small.copy(), small.copy(), 2.0 * small * small
    for n in range(1, _TERMS):
        term = term * q / (2 * n + 1)
        total = total + term
    out[near] = 2.0 / np.sqrt(np.pi) * np.exp(-small * small) * total
    large = a[~near]
    k = large.copy()
    for n in range(_TERMS, 0, -1):
        k = large + (n / 2.0) / k
    out[~near] = 1.0 - np.exp(-large * large) / (np.sqrt(np.pi) * k)
    return (np.sign(x) * out).astype(dtype, copy=False)


# erf'(x) = 2 / sqrt(pi) exp(-x^2)
erf = _prim("erf", _erf_forward, lambda g, ans, x: multiply(
    g, multiply(2.0 / float(np.sqrt(np.pi)), exp(negative(square(x))))))


def _top_k_indices(x, k):
    keys = x if x.dtype.kind in "fi" else x.astype("int64")
    # a stable sort of -x: of equal values, the first comes first
    order = np.argsort(-keys, axis=-1, kind="stable")
    return order[..., :k].astype("int32")


top_k_indices = _prim("top_k_indices", _top_k_indices)  # integers: no gradient


def top_k(x, k):
    """The ``k`` largest values along the last axis, largest first, and their
    indices (``int32``). The values are gathered from ``x``, so the gradient
    goes back to the entries that were picked.

    >>> values, indices = top_k(np.array([1.0, 3.0, 2.0]), 2)
    >>> values.tolist(), indices.tolist()
    ([3.0, 2.0], [1, 2])
    """
    indices = top_k_indices(x, k=k)
    return take_along_axis(x, indices, axis=-1), indices


def _fft2_forward(real, imag):
    dtype = np.result_type(real, imag)
    dtype = dtype if dtype.kind == "f" else np.dtype("float32")
    out = np.fft.fft2(real + 1j * imag)
    return np.stack([out.real, out.imag]).astype(dtype, copy=False)


def _fft2_grad(part):
    # y = F x is linear with F symmetric: the gradient is F^H g = conj(F conj(g))
    def rule(g, ans, real, imag):
        h = fft2_prim(getitem(g, 0), negative(getitem(g, 1)))
        return getitem(h, 0) if part == 0 else negative(getitem(h, 1))
    return rule


fft2_prim = _prim("fft2", _fft2_forward, _fft2_grad(0), _fft2_grad(1))


def fft2(real, imag):
    """The 2D discrete Fourier transform over the last two axes of the
    complex tensor ``real + i imag``, as a ``(real, imag)`` pair.

    >>> real, imag = fft2(np.ones((2, 2)), np.zeros((2, 2)))
    >>> real.tolist(), imag.tolist()
    ([[4.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]])
    """
    both = fft2_prim(real, imag)
    return getitem(both, 0), getitem(both, 1)


__all__ = ["erf", "fft2", "top_k"]
