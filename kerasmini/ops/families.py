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

import linecache
import os

import numpy as np  # noqa: F401 (the examples use it)

from kerasmini import backend
from kerasmini.backend import config
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic
from kerasmini.backend.naming import to_snake_case
from kerasmini.ops import shapes
from kerasmini.ops.operation import Operation

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _function(cls, forward, name, doc):
    """The public function of an op: backend on values, the op on symbols."""

    def op(*args, **kwargs):
        if any_symbolic(args, kwargs):
            return cls(**cls._init_kwargs(kwargs)).symbolic_call(*args, **kwargs)
        try:
            return forward(*args, **kwargs)
        except Exception as error:  # refused: the shape rule says why
            explain(cls, error, args, kwargs)

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
    op_name = "op"  # the name of its function in ``ops``
    static = ()  # keyword arguments fixed at construction

    def __init__(self, name=None, **static):
        super().__init__(name=name)
        self.static = dict(static)

    @classmethod
    def _init_kwargs(cls, kwargs):
        return {k: kwargs.pop(k) for k in list(kwargs) if k in cls.static_names}

    static_names = ()

    def call(self, *args, **kwargs):
        try:
            return type(self).forward(*args, **{**self.static, **kwargs})
        except Exception as error:  # refused: the shape rule says why
            explain(type(self), error, args, kwargs, self.static)

    def get_config(self):
        return {"name": self.name, **self.static}


def _raised_by_kerasmini(error):
    """Whether ``error`` was raised by a ``raise`` statement of kerasmini's
    own code (not by NumPy, nor by a bare conversion in kerasmini)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or not tb.tb_frame.f_code.co_filename.startswith(_PACKAGE):
        return False
    line = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
    return line.strip().startswith("raise")


def _describe(args, kwargs):
    def one(x):
        if hasattr(x, "shape") and hasattr(x, "dtype"):
            return f"<tensor shape={tuple(x.shape)}, dtype={x.dtype}>"
        if isinstance(x, (list, tuple)) and any(hasattr(v, "shape") for v in x):
            return "[" + ", ".join(one(v) for v in x) + "]"
        text = repr(x)
        return text if len(text) <= 40 else text[:37] + "..."
    parts = [one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def explain(cls, error, args, kwargs, static=None):
    """Raise the error that a call of op ``cls`` on arrays deserves, after
    its computation raised ``error``.

    On arrays an op runs NumPy at once: no check costs time on the way. Only
    when that fails is the op's shape rule asked about the same arguments,
    and it raises the message a call on KerasTensors gets, so both give the
    same error. If the rule finds nothing wrong, an error raised by
    kerasmini's own code (a label out of range) goes up as it is; anything
    else (NumPy's own text) becomes a ``ValueError`` naming the op.

    >>> Plus, plus = binary("Plus", np.add)
    >>> plus(np.ones((2, 3)), np.ones(4))
    Traceback (most recent call last):
      ...
    ValueError: ops.plus: Cannot broadcast shape, the failure dim has value 3, which ...
    """
    kwargs = dict(kwargs)
    probe = cls.__new__(cls)  # no name, no Node: only the rule is asked
    probe.static = dict(static) if static is not None else cls._init_kwargs(kwargs)
    try:
        probe.compute_output_spec(*args, **kwargs)
    except (ValueError, TypeError) as rule_error:
        if _raised_by_kerasmini(rule_error):
            raise
    if _raised_by_kerasmini(error) and isinstance(error, (ValueError, TypeError)):
        raise error
    wrapped = (TypeError if isinstance(error, TypeError) else ValueError)(
        f"ops.{cls.op_name}: the arguments do not fit together. Received: "
        f"{error} for {_describe(args, kwargs)}")
    wrapped.kerasmini_unexplained = True  # the fuzz tests look for these
    raise wrapped from None


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
    name = to_snake_case(class_name)

    def compute_output_spec(self, x):
        dtype = shapes.numeric_dtype(x, name)
        return _spec(shapes.shape_of(x), dtype if keep_dtype else
                     shapes.float_result(dtype))

    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": compute_output_spec,
        "op_name": name, "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` of every element.",
                        f">>> ops.{name}(KerasTensor((None, 3))).shape\n    (None, 3)"),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


def _is_integral(x):
    dtype = getattr(x, "dtype", None)
    kind = getattr(dtype, "kind", None)
    if kind is None and dtype is not None:
        kind = np.dtype(dtype).kind  # a Variable's or a traced value's name
    return kind is not None and kind in "biu"


def _weak_floats(forward):
    """``forward`` where a Python float next to a tensor of integers gives
    floatx, as in Keras 3 (NumPy would give float64)."""
    def run(x1, x2):
        if type(x2) is float and _is_integral(x1):
            x1 = backend.numpy.cast(x1, config.floatx())
        elif type(x1) is float and _is_integral(x2):
            x2 = backend.numpy.cast(x2, config.floatx())
        return forward(x1, x2)
    return run


def binary(class_name, forward, boolean=False, summary=None, module=None):
    """An elementwise op of two tensors, with NumPy broadcasting; ``boolean``
    ops (comparisons, logic) return ``bool``.

    >>> Plus, plus = binary("Plus", np.add)
    >>> plus(KerasTensor((None, 1, 3)), KerasTensor((4, 1))).shape
    (None, 4, 3)
    >>> plus(np.arange(2), 0.5).dtype
    dtype('float32')
    """
    name = to_snake_case(class_name)
    if not boolean:
        forward = _weak_floats(forward)

    def compute_output_spec(self, x1, x2):
        shapes.numeric_dtype(x1, name, "x1")
        shapes.numeric_dtype(x2, name, "x2")
        shape = shapes.broadcast_shapes(shapes.shape_of(x1), shapes.shape_of(x2), name)
        dtype = "bool" if boolean else shapes.result_type(x1, x2)
        if name == "subtract" and dtype == "bool":
            raise TypeError("ops.subtract: two booleans cannot be subtracted (use "
                            "`logical_xor`). Received: x1 and x2 of dtype bool")
        return _spec(shape, dtype)

    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": compute_output_spec,
        "op_name": name, "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` element by element.",
                        f">>> ops.{name}(KerasTensor((None, 3)), KerasTensor((3,)))"
                        f".shape\n    (None, 3)"),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


def reduction(class_name, forward, dtype_rule="same", summary=None, module=None,
              needs_values=False):
    """A reduction over ``axis`` (all axes by default) with ``keepdims``.

    ``dtype_rule``: ``"same"`` (max), ``"sum"`` (booleans and small integers
    add up in int32) or ``"float"`` (mean, var). ``needs_values``: an empty
    axis has no maximum (or minimum) and is refused.

    >>> Total, total = reduction("Total", np.sum)
    >>> total(KerasTensor((None, 3, 4)), axis=1).shape
    (None, 4)
    """
    name = to_snake_case(class_name)

    def compute_output_spec(self, x, axis=None, keepdims=False):
        axis = self.static.get("axis", axis)
        keepdims = self.static.get("keepdims", keepdims)
        dtype = shapes.numeric_dtype(x, name)
        shape = shapes.reduce_shape(shapes.shape_of(x), axis, keepdims, op=name)
        if needs_values:
            shapes.check_nonempty(shapes.shape_of(x), axis, name)
        if dtype_rule == "float":
            dtype = shapes.float_result(dtype)
        elif dtype_rule == "sum":
            dtype = shapes.sum_result(dtype)
        return _spec(shape, dtype)

    def reduce(x, axis=None, keepdims=False):  # axis may come by position
        if type(axis) is list:
            axis = tuple(axis)
        if dtype_rule == "sum" and _is_integral(x):
            x = backend.numpy.cast(x, shapes.sum_result(shapes.dtype_of(x)))
        return forward(x, axis=axis, keepdims=keepdims)

    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(reduce), "compute_output_spec": compute_output_spec,
        "static_names": ("axis", "keepdims"), "op_name": name,
        "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}`` over ``axis``.",
                        f">>> ops.{name}(KerasTensor((None, 3, 4)), axis=-1).shape\n"
                        f"    (None, 3)"),
    })
    return cls, _function(cls, reduce, name, cls.__doc__)


def custom(class_name, forward, spec, static_names=(), summary="", example="",
           module=None, name=None):
    """An op with its own shape rule ``spec(self, *args, **kwargs)``; its
    function is named ``name`` (by default the class name in snake case).

    >>> Twice, twice = custom("Twice", lambda x: np.concatenate([x, x]),
    ...     lambda self, x: _spec((None,), shapes.dtype_of(x)),
    ...     example=">>> 1\\n    1")
    >>> twice(np.ones(2)).shape, twice(KerasTensor((3,))).shape
    ((4,), (None,))
    """
    name = name or to_snake_case(class_name)
    cls = type(class_name, (FamilyOp,), {
        "forward": staticmethod(forward), "compute_output_spec": spec,
        "static_names": tuple(static_names), "op_name": name,
        "__module__": module or __name__,
        "__doc__": _doc(name, summary or f"``{name}``.", example),
    })
    return cls, _function(cls, forward, name, cls.__doc__)


__all__ = ["FamilyOp", "binary", "custom", "explain", "reduction", "unary"]
