"""``Variable``: the one mutable thing in kerasmini.

Eager tensors are immutable NumPy arrays (kerasmini never writes into them);
a :class:`Variable` wraps an array and can be changed with
``assign``/``assign_add``/``assign_sub``, which store a new array. (A
compiled ``fit`` step runs Adam's fused kernel, which writes into the
variable's own array instead: no new weights per step, as Keras's torch
backend does; see :mod:`kerasmini.backend.fast`.) ``.numpy()`` is a
snapshot. It gets a ``path`` from the name
scopes open when it is created (``dense/kernel``), registers itself with the
current graph (:func:`track_variable`), and is watched automatically by a
``GradientTape``. Mirrors ``keras/src/backend/common/variables.py``.

>>> from kerasmini.backend.naming import name_scope, reset_names
>>> with name_scope("dense"):
...     v = Variable(np.zeros((2, 3), "float32"), name="kernel")
>>> v
<Variable path=dense/kernel, shape=(2, 3), dtype=float32, value=[[0. 0. 0.]
 [0. 0. 0.]]>
>>> float(v.assign_add(np.ones((2, 3))).numpy().sum())
6.0
"""

import weakref

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.backend.core import STATE, Primitive, convert_to_tensor, identity
from kerasmini.backend.naming import auto_name, current_path

# Variables created outside any traced graph: the eager "default graph".
_EAGER_VARIABLES = weakref.WeakSet()

# Callables ``check(path, shape, dtype)`` run before a variable's value is
# allocated. Loading a file uses one (kerasmini.saving.weight_budget) so a
# hostile config cannot make kerasmini allocate terabytes.
CREATION_CHECKS = []


def track_variable(variable) -> None:
    """Record ``variable`` with the graph that is current when it is created.

    Keras 2 kept such a per-graph set (``backend.track_variable``) so a TF1
    session could initialise every variable of a graph; here it lets you ask
    which variables a traced function created (:func:`get_graph_variables`).

    >>> v = Variable(1.0, name="counter"); v in get_graph_variables()
    True
    """
    graph = STATE.graphs[-1] if STATE.graphs else None
    (graph.variables if graph is not None else _EAGER_VARIABLES).add(variable)


def get_graph_variables(graph=None):
    """The variables tracked for ``graph`` (``None``: those made eagerly).

    >>> isinstance(get_graph_variables(), weakref.WeakSet)
    True
    """
    return _EAGER_VARIABLES if graph is None else graph.variables


@keras_export("kerasmini.Variable")
class Variable:
    """A named, mutable tensor.

    Args:
        initializer: an array-like value, or a callable
            ``initializer(shape, dtype)`` (then ``shape`` is required).
        shape: the shape, required when ``initializer`` is callable.
        dtype: defaults to the value's float type or :func:`floatx`.
        trainable: whether optimizers should update it.
        name: the last component of its ``path`` (default ``variable``,
            uniquified).

    >>> Variable(lambda shape, dtype: np.full(shape, 0.5, dtype), shape=(2,)).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    __kerasmini_tensor__ = True
    __kerasmini_variable__ = True
    __array_priority__ = 100

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name=None):
        if name is None:
            name = auto_name("variable")
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character "
                f"`/`. Received: name={name!r}"
            )
        self.name = name
        parent = current_path()
        self.path = f"{parent}/{name}" if parent else name
        if callable(initializer):
            if shape is None:
                raise ValueError(
                    "When creating a Variable from an initializer, the `shape` "
                    f"argument should be specified. Received: initializer="
                    f"{initializer} and shape={shape}"
                )
            shape = tuple(int(d) for d in shape)
            dtype = config.standardize_dtype(dtype)
            for check in CREATION_CHECKS:
                check(self.path, shape, dtype)
            value = np.asarray(initializer(shape, dtype), dtype=dtype)
        else:
            # a NumPy array keeps its dtype, as in Keras 3; Python numbers and
            # lists of floats become floatx (convert_to_tensor's rule)
            value = convert_to_tensor(initializer)
            dtype = config.standardize_dtype(dtype or value.dtype.name)
            value = np.array(value, dtype=dtype)
            if shape is not None and tuple(shape) != value.shape:
                raise ValueError(
                    f"Initial value has shape {value.shape} but the variable "
                    f"was given shape={tuple(shape)}."
                )
        self._value = value
        self._trainable = bool(trainable)
        self.regularizer = None
        self.constraint = None
        self.autocast = True  # read in the compute dtype in an AutocastScope
        self._assign_op = Primitive("assign:" + self.path, self._write, stateful=True)
        # one step each in a traced graph (not a read, an add and an assign)
        self._assign_add_op = Primitive("assign_add:" + self.path, self._write_add,
                                        stateful=True)
        self._assign_sub_op = Primitive("assign_sub:" + self.path, self._write_sub,
                                        stateful=True)
        track_variable(self)

    # -- reading -----------------------------------------------------------
    shape = property(lambda self: self._value.shape, doc="The shape, a tuple.")
    dtype = property(lambda self: self._value.dtype.name, doc="The dtype name.")
    ndim = property(lambda self: self._value.ndim)
    size = property(lambda self: self._value.size)

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def _read(self):
        return self._value

    @property
    def value(self):
        """The current value: an array, or a traced read inside a graph."""
        if STATE.graphs:
            return identity(self)
        return self._value

    def numpy(self) -> np.ndarray:
        """A copy of the current value as a NumPy array."""
        return np.array(self._value)

    def __array__(self, dtype=None, copy=None):
        return self._value if dtype is None else self._value.astype(dtype)

    # -- writing -----------------------------------------------------------
    def _write(self, value):
        # a copy: whoever passed `value` may change that array later
        return self._store(np.array(value))

    def _store(self, value):
        if value.shape != self._value.shape:
            raise ValueError(
                f"The shape of the target variable and the shape of the target "
                f"value in `variable.assign(value)` must match. "
                f"variable.shape={self.shape}, Received: value.shape={value.shape}. "
                f"Target variable: {self.path}"
            )
        self._value = value.astype(self._value.dtype, copy=False)
        return self._value

    def _write_add(self, delta):
        return self._store(np.add(self._value, delta))  # already a new array

    def _write_sub(self, delta):
        return self._store(np.subtract(self._value, delta))

    def assign(self, value):
        """Replace the value (same shape); returns the variable.

        >>> v = Variable([1.0, 2.0]); v.assign([3.0, 4.0]).numpy()
        array([3., 4.], dtype=float32)
        """
        self._assign_op(value)
        return self

    def assign_add(self, delta):
        """Add ``delta`` in place; returns the variable.

        >>> Variable(1.0).assign_add(2.0).numpy()
        array(3., dtype=float32)
        """
        self._assign_add_op(delta)
        return self

    def assign_sub(self, delta):
        """Subtract ``delta`` in place; returns the variable.

        >>> Variable(1.0).assign_sub(2.0).numpy()
        array(-1., dtype=float32)
        """
        self._assign_sub_op(delta)
        return self

    def __repr__(self):
        body = np.array2string(self._value, precision=4, threshold=8, separator=" ")
        # One row per line, as NumPy (and Keras 3) print it, spaces squeezed.
        body = "\n".join(
            " " * (len(row) - len(row.lstrip())) + " ".join(row.split())
            for row in body.splitlines()
        )
        return (
            f"<Variable path={self.path}, shape={self.shape}, "
            f"dtype={self.dtype}, value={body}>"
        )

    def __len__(self):
        return len(self._value)

    def __hash__(self):
        return id(self)

    # Arithmetic operators are attached in numpy.py.
