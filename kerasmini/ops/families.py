"""How the ops of ``kerasmini.ops`` are made: one ``Operation`` class per op,
built from a few families that share a shape rule.

Keras 3 writes a class per op by hand (``class Exp(Operation)`` with its
``call`` and ``compute_output_spec``, then ``def exp(x)``). Most of them
differ only in the NumPy function they call, so here a family is written once
and each op is one line that names its backend function. Every op made here
is a real :class:`~kerasmini.ops.operation.Operation` subclass named as in
Keras (``Exp``, ``Matmul``), and a function (``exp``, ``matmul``) that calls
the backend directly on values, or makes the operation on KerasTensors:

>>> from kerasmini.backend.keras_tensor import KerasTensor
>>> Exp, exp = unary("Exp", np.exp)
>>> exp(np.array([0.0]))
array([1.])
>>> y = exp(KerasTensor((None, 3), "int32"))
>>> y.shape, y.dtype
((None, 3), 'float32')
"""

import numpy as np  # noqa: F401 (the examples use it)

from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.backend.naming import to_snake_case
from kerasmini.ops import shapes
from kerasmini.ops.operation import Operation


def _function(cls, forward, name, doc):
    """The public function of an op: backend on values, the op on symbols."""

    def op(*args, **kwargs):
        if any_symbolic(args, kwargs):
            return cls(**cls._init_kwargs(kwargs)).symbolic_call(*args, **kwargs)
        return forward(*args, **kwargs)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    op.__module__ = cls.__module__
    return op


class FamilyOp(Operation):
    """An op whose ``call`` is a backend function; keyword arguments that
    are static (``axis``...) are given to the constructor, as in Keras 3.

    >>> class Neg(FamilyOp):
    ...     forward = staticmethod(np.negative)
    >>> Neg()(np.array([1.0]))
    array([-1.])
    """

    forward = None
    static = ()  # keyword arguments fixed at construction

    def __init__(self, name=None, **static):
        super().__init__(name=name)
        self.static = dict(static)

    @classmethod
    def _init_kwargs(cls, kwargs):
        return {k: kwargs.pop(k) for k in list(kwargs) if k in cls.static_names}

    static_names = ()

    def call(self, *args, **kwargs):
        return type(self).forward(*args, **{**self.static, **kwargs})

    def get_config(self):
        return {"name": self.name, **self.static}


def _spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


def _doc(name, summary, example):
    return (f"{summary}\n\n    As ``keras.ops.{name}``: computes on arrays, returns a "
            f"KerasTensor (and records a Node) on KerasTensors.\n\n"
            f"    >>> from kerasmini import ops\n    >>> from kerasmini import KerasTensor\n"
            f"    {example}\n    ")


def unary(class_name, forward, keep_dtype=False, summary=None, module=None):
    """An elementwise op of one tensor: same shape; a float dtype unless
    ``keep_dtype`` (``abs``, ``negative`` keep ints as ints).

    >>> Neg, neg = unary("Neg", np.negative, keep_dtype=True)
    >>> neg(KerasTensor((2,), "int32")).dtype
    'int32'
    """
    def compute_output_spec(self, x):
        dtype = shapes.dtype_of(x)
        return _spec(shapes.shape_of(x), dtype if keep_dtype else
                     shapes.float_result(dtype))

    name = to_snake_case(class_name)
    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": compute_output_spec,
        "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` of every element.",
                        f">>> ops.{name}(KerasTensor((None, 3))).shape\n    (None, 3)"),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


def binary(class_name, forward, boolean=False, summary=None, module=None):
    """An elementwise op of two tensors, with NumPy broadcasting; ``boolean``
    ops (comparisons, logic) return ``bool``.

    >>> Plus, plus = binary("Plus", np.add)
    >>> plus(KerasTensor((None, 1, 3)), KerasTensor((4, 1))).shape
    (None, 4, 3)
    """
    def compute_output_spec(self, x1, x2):
        shape = shapes.broadcast_shapes(shapes.shape_of(x1), shapes.shape_of(x2))
        return _spec(shape, "bool" if boolean else shapes.result_type(x1, x2))

    name = to_snake_case(class_name)
    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": compute_output_spec,
        "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` element by element.",
                        f">>> ops.{name}(KerasTensor((None, 3)), KerasTensor((3,)))"
                        f".shape\n    (None, 3)"),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


def reduction(class_name, forward, dtype_rule="same", summary=None, module=None):
    """A reduction over ``axis`` (all axes by default) with ``keepdims``.

    ``dtype_rule``: ``"same"`` (sum, max), ``"float"`` (mean, var) or
    ``"int"`` (argmax, which takes one ``axis`` and no ``keepdims``).

    >>> Total, total = reduction("Total", np.sum)
    >>> total(KerasTensor((None, 3, 4)), axis=1).shape
    (None, 4)
    """
    def compute_output_spec(self, x, axis=None, keepdims=False):
        axis = self.static.get("axis", axis)
        keepdims = self.static.get("keepdims", keepdims)
        shape = shapes.reduce_shape(shapes.shape_of(x), axis, keepdims)
        dtype = shapes.dtype_of(x)
        if dtype_rule == "float":
            dtype = shapes.float_result(dtype)
        elif dtype_rule == "int":
            dtype = "int32"
        return _spec(shape, dtype)

    def reduce(x, axis=None, keepdims=False):  # axis may come by position
        return forward(x, axis=axis, keepdims=keepdims)

    name = to_snake_case(class_name)
    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(reduce), "compute_output_spec": compute_output_spec,
        "static_names": ("axis", "keepdims"), "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` over ``axis``.",
                        f">>> ops.{name}(KerasTensor((None, 3, 4)), axis=-1).shape\n"
                        f"    (None, 3)"),
    })
    return cls, _function(cls, reduce, name, cls.__doc__)


def custom(class_name, forward, spec, static_names=(), summary="", example="",
           module=None):
    """An op with its own shape rule ``spec(self, *args, **kwargs)``.

    >>> Twice, twice = custom("Twice", lambda x: np.concatenate([x, x]),
    ...     lambda self, x: _spec((None,), shapes.dtype_of(x)),
    ...     example=">>> 1\\n    1")
    >>> twice(np.ones(2)).shape, twice(KerasTensor((3,))).shape
    ((4,), (None,))
    """
    name = to_snake_case(class_name)
    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": spec,
        "static_names": tuple(static_names), "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}``.", example),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


__all__ = ["FamilyOp", "binary", "custom", "reduction", "unary"]
