"""``KerasTensor``: a placeholder with a shape and a dtype, and no value.

Calling a layer on one does not compute anything: the layer infers the output
shape and dtype, returns new KerasTensors, and records the call in a
:class:`~kerasmini.ops.node.Node`. Each KerasTensor remembers where it came
from in ``_keras_history = KerasHistory(layer, node_index, tensor_index)``,
which is all :class:`~kerasmini.models.functional.Functional` needs to walk
the graph back from outputs to inputs. It lives in the backend, as in Keras 3
(``keras/src/backend/common/keras_tensor.py``): the ops above answer it with
shapes, and ``kerasmini.ops`` gives it its operators (``x + y``, ``x @ w``).

>>> x = KerasTensor((None, 5), name="x")
>>> x
<KerasTensor shape=(None, 5), dtype=float32, name=x>
"""

from kerasmini.api_export import keras_export
from kerasmini.backend import config
from kerasmini.backend.naming import auto_name


@keras_export("kerasmini.KerasTensor")
class KerasTensor:
    """A symbolic tensor: shape (``None`` = unknown) and dtype, no value.

    Args:
        shape: a tuple of ints or ``None``.
        dtype: dtype name (default :func:`~kerasmini.backend.floatx`).
        name: auto-named ``keras_tensor``, ``keras_tensor_1``... if omitted.

    >>> KerasTensor((None, 3)).ndim
    2
    """

    def __init__(self, shape, dtype=None, name=None):
        try:
            self.shape = tuple(None if d is None else int(d) for d in shape)
        except (TypeError, ValueError):
            raise ValueError(
                "A KerasTensor's shape must be a tuple of integers or None. "
                f"Received: shape={shape!r}"
            ) from None
        self.dtype = config.standardize_dtype(dtype)
        self.name = name or auto_name("KerasTensor")
        self._keras_history = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, name={self.name}>"

    def __array__(self, dtype=None, copy=None):
        raise ValueError(
            "A KerasTensor is symbolic: it's a placeholder for a shape and a "
            "dtype. It doesn't have any actual numerical value. You cannot "
            "convert it to a NumPy array."
        )

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __iter__(self):
        raise NotImplementedError(
            "Iterating over a symbolic KerasTensor is not supported."
        )

    def __len__(self):
        raise TypeError("A symbolic KerasTensor has no length; read `.shape`.")


def is_keras_tensor(x) -> bool:
    """Whether ``x`` is a :class:`KerasTensor`.

    >>> is_keras_tensor(KerasTensor((1,))), is_keras_tensor(1.0)
    (True, False)
    """
    return isinstance(x, KerasTensor)


def any_symbolic(*structures) -> bool:
    """Whether any leaf of ``structures`` is a KerasTensor: the question every
    op and layer asks first (symbols in: a spec out; values in: compute). It
    stops at the first KerasTensor it meets.

    >>> any_symbolic([1, KerasTensor((1,))]), any_symbolic((1.0,), {"axis": -1})
    (True, False)
    """
    stack = list(structures)
    while stack:
        item = stack.pop()
        if isinstance(item, KerasTensor):
            return True
        if isinstance(item, dict):  # the containers of kerasmini.tree
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False
