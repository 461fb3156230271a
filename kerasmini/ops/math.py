"""The math ops of ``keras.ops`` (Keras 3's ``keras/src/ops/math.py``):
``erf``, ``top_k`` and ``fft2``.

>>> from kerasmini import ops
>>> from kerasmini import KerasTensor
>>> values, indices = ops.top_k(KerasTensor((None, 10)), 3)
>>> values.shape, indices.dtype
((None, 3), 'int32')
"""

import numpy as np

from kerasmini import backend
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.ops import shapes
from kerasmini.ops.families import custom, unary
from kerasmini.ops.numpy import _float_input

_M = __name__

Erf, erf = unary("Erf", lambda x: backend.math.erf(_float_input(x)), module=_M,
                 summary="The Gauss error function ``2/sqrt(pi) * integral of "
                         "exp(-t^2) from 0 to x``, to double precision.")


def _top_k_arguments(x, k, sorted):
    shape = shapes.shape_of(x)
    if not shape:
        raise ValueError(f"ops.top_k: `x` must have at least one axis. Received: "
                         f"x.shape={shape}")
    k = shapes.check_int(k, "top_k", "k", minimum=0)
    if shape[-1] is not None and k > shape[-1]:
        raise ValueError(
            f"ops.top_k: `k` must not exceed the size of the last axis "
            f"({shape[-1]}). Received: k={k}, x.shape={shape}"
        )
    if not isinstance(sorted, (bool, np.bool_)):
        raise TypeError(f"ops.top_k: `sorted` must be a boolean. Received: "
                        f"sorted={sorted!r}")
    return shape[:-1] + (k,)


def _top_k_spec(self, x, k, sorted=True):
    shape = _top_k_arguments(x, self.static.get("k", k),
                             self.static.get("sorted", sorted))
    return KerasTensor(shape, shapes.numeric_dtype(x, self.op_name)), KerasTensor(shape, "int32")


def _top_k(x, k, sorted=True):
    _top_k_arguments(x, k, sorted)
    return backend.math.top_k(x, k)  # always sorted, which `sorted=False` allows


TopK, top_k = custom(
    "TopK", _top_k, _top_k_spec, static_names=("k", "sorted"), module=_M,
    summary="The ``k`` largest values along the last axis, largest first, and "
            "their indices (``int32``; of equal values, the first comes first).",
    example=">>> values, indices = ops.top_k(np.array([[1.0, 3.0, 2.0]]), 2)\n"
            "    >>> values.tolist(), indices.tolist()\n"
            "    ([[3.0, 2.0]], [[1, 2]])")


def _fft2_parts(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        what = f"a tensor of shape {shapes.shape_of(x)}" if hasattr(x, "shape") \
            else f"x={x!r}"
        raise ValueError(
            "ops.fft2: Input `x` should be a tuple of two tensors - real and "
            f"imaginary. Received: {what}"
        )
    real, imag = x
    s1, s2 = shapes.shape_of(real), shapes.shape_of(imag)
    if s1 != s2:
        raise ValueError(
            "ops.fft2: Input `x` should be a tuple of two tensors - real and "
            "imaginary. Both the real and imaginary parts should have the same "
            f"shape. Received: x[0].shape = {s1}, x[1].shape = {s2}"
        )
    if len(s1) < 2:
        raise ValueError(f"ops.fft2: Input should have rank >= 2. Received: "
                         f"input.shape = {s1}")
    if None in s1[-2:]:
        raise ValueError(
            "ops.fft2: Input should have its (-2, -1) axes fully-defined. "
            f"Received: input.shape = {s1}"
        )
    if 0 in s1[-2:]:
        raise ValueError("ops.fft2: the (-2, -1) axes of the input must not be "
                         f"empty. Received: input.shape = {s1}")
    shapes.numeric_dtype(real, "fft2", "x[0]")
    shapes.numeric_dtype(imag, "fft2", "x[1]")
    return real, imag


def _fft2_spec(self, x):
    real, imag = _fft2_parts(x)
    dtype = shapes.float_result(shapes.result_type(real, imag))
    return KerasTensor(shapes.shape_of(real), dtype), \
        KerasTensor(shapes.shape_of(imag), dtype)


def _fft2(x):
    real, imag = _fft2_parts(x)
    return backend.math.fft2(_float_input(real), _float_input(imag))


FFT2, fft2 = custom(
    "FFT2", _fft2, _fft2_spec, module=_M, name="fft2",
    summary="The 2D discrete Fourier transform over the last two axes of the "
            "complex tensor given as a ``(real, imag)`` pair; returns the pair.",
    example=">>> real, imag = ops.fft2((np.ones((2, 2)), np.zeros((2, 2))))\n"
            "    >>> real.tolist()\n"
            "    [[4.0, 0.0], [0.0, 0.0]]")

__all__ = ["FFT2", "Erf", "TopK", "erf", "fft2", "top_k"]
