"""Shapes without values: how a layer learns what it will output.

``build`` receives shape tuples, and a symbolic call must say what shape
and dtype a layer returns before any data exists. A layer that overrides
``compute_output_shape`` answers directly (:func:`spec_from_output_shape`);
for the others, :func:`symbolic_call_spec` runs ``call`` on the KerasTensors
themselves, where every ``keras.ops`` op answers with a shape. Only a
``call`` written with something else (NumPy itself) falls back to
:func:`infer_by_dry_run`: ``call`` on arrays of zeros, trying every unknown
dimension as 83 and as 89 and marking as unknown (``None``) each output
dimension that differs, which is what Keras 3's NumPy backend does. The dry
run records nothing: no tape, no graph, no node.

>>> from kerasmini.layers import Dense
>>> from kerasmini.backend.keras_tensor import KerasTensor
>>> layer = Dense(3)
>>> layer.build((None, 4))
>>> infer_by_dry_run(layer, (KerasTensor((None, 4)),), {}).shape
(None, 3)
"""

import numpy as np

from kerasmini.backend.config import DRY_RUN_SIZES
from kerasmini.backend.core import STATE
from kerasmini.backend.keras_tensor import KerasTensor, is_keras_tensor
from kerasmini.backend.naming import name_scope
from kerasmini.ops.operation import symbolic_scope
from kerasmini.tree import flatten, map_shape_structure, map_structure, pack_sequence_as


def to_shape(value):
    """A JSON shape (a list of ints/None) as a tuple; lists of shapes stay lists.

    >>> to_shape([None, 3]), to_shape([[None, 3], [None, 2]])
    ((None, 3), [(None, 3), (None, 2)])
    """
    if isinstance(value, (list, tuple)) and all(
            d is None or isinstance(d, int) for d in value):
        return tuple(value)
    if isinstance(value, (list, tuple)):
        return [to_shape(v) for v in value]
    return value


def _zeros_for(kt, fill):
    shape = tuple(fill if d is None else d for d in kt.shape)
    return np.zeros(shape, dtype=kt.dtype)


def infer_by_dry_run(layer, args, kwargs):
    """Run ``call`` on zeros to learn output shapes and dtypes.

    Unknown dimensions are tried as 83 and as 89; where the outputs differ
    the dimension is unknown (``None``), as Keras 3's NumPy backend does.

    >>> from kerasmini.layers import Flatten
    >>> infer_by_dry_run(Flatten(), (KerasTensor((None, 2, 3)),), {}).shape
    (None, 6)
    """
    structure = [args, kwargs]
    has_unknown = any(None in kt.shape for kt in flatten(structure) if is_keras_tensor(kt))
    results = []
    for fill in DRY_RUN_SIZES if has_unknown else DRY_RUN_SIZES[:1]:
        concrete = map_structure(
            lambda x, f=fill: _zeros_for(x, f) if is_keras_tensor(x) else x, structure)
        saved_tapes, STATE.tapes = STATE.tapes, []
        saved_graphs, STATE.graphs = STATE.graphs, []
        STATE.symbolic += 1
        try:
            with name_scope(layer.name, caller=layer):
                out = layer.call(*concrete[0], **concrete[1])
        except Exception as error:
            raise ValueError(
                f"Could not automatically infer the output shape / dtype of "
                f"'{layer.name}' (of type {type(layer).__name__}). Either the "
                f"`{type(layer).__name__}.call()` method is incorrect, or you need "
                f"to implement the `{type(layer).__name__}.compute_output_spec() / "
                f"compute_output_shape()` method. Error encountered:\n\n{error}"
            ) from error
        finally:
            STATE.tapes, STATE.graphs = saved_tapes, saved_graphs
            STATE.symbolic -= 1
        if out is None:
            raise ValueError(
                "A layer's `call` method should return a Tensor or a list of "
                f"Tensors, not None (layer: {layer.name})."
            )
        results.append(out)
    flat = [flatten(r) for r in results]
    specs = []
    for i, first in enumerate(flat[0]):
        first = np.asarray(first)
        if first.dtype.kind not in "biuf":
            raise ValueError(  # Keras 3's words, with what `call` returned
                f"Could not automatically infer the output shape / dtype of "
                f"'{layer.name}' (of type {type(layer).__name__}). Either the "
                f"`{type(layer).__name__}.call()` method is incorrect, or you need "
                f"to implement the `{type(layer).__name__}.compute_output_spec() / "
                f"compute_output_shape()` method. Error encountered:\n\n`call` "
                f"returned {flat[0][i]!r} (of type {type(flat[0][i]).__name__}), "
                "not a tensor of numbers."
            )
        shape = list(first.shape)
        for other in flat[1:]:
            for axis, (a, b) in enumerate(zip(shape, np.shape(other[i]))):
                if a != b:
                    shape[axis] = None
        specs.append(KerasTensor(tuple(shape), first.dtype.name))
    return pack_sequence_as(results[0], specs)


def spec_from_output_shape(layer, inputs):
    """The output KerasTensor(s) of ``layer`` from its own
    ``compute_output_shape`` (dtype: the layer's, or the input's if it does
    not autocast).

    >>> from kerasmini.layers import Dense
    >>> spec_from_output_shape(Dense(3), KerasTensor((None, 4))).shape
    (None, 3)
    """
    out = layer.compute_output_shape(map_structure(lambda kt: kt.shape, inputs))
    dtype = layer.compute_dtype if layer.autocast else flatten(inputs)[0].dtype
    if isinstance(out, tuple) and all(d is None or isinstance(d, int) for d in out):
        return KerasTensor(out, dtype)
    return map_shape_structure(lambda s: KerasTensor(s, dtype), out)


def symbolic_call_spec(layer, args, kwargs):
    """Run ``layer.call`` on the KerasTensors themselves: every ``keras.ops``
    op answers with a shape and computes nothing (Keras 3 does this through
    its backend). A ``call`` that uses something else (NumPy itself) is
    dry-run on zeros instead (:func:`infer_by_dry_run`).

    >>> from kerasmini.layers import Dense
    >>> dense = Dense(3); dense.build((None, 4))
    >>> symbolic_call_spec(dense, (KerasTensor((None, 4)),), {}).shape
    (None, 3)
    """
    try:
        with symbolic_scope(), name_scope(layer.name, caller=layer):
            outputs = layer.call(*args, **kwargs)
        if outputs is not None and all(
                is_keras_tensor(x) for x in flatten(outputs)):
            # fresh tensors: `call` may return an input itself (identity)
            return map_structure(lambda t: KerasTensor(t.shape, t.dtype), outputs)
    except Exception:  # noqa: BLE001 (anything: the dry run decides)
        pass
    return infer_by_dry_run(layer, args, kwargs)


def dry_run(layer, input_shape, dtype):
    """Call ``layer.call`` on zeros of ``input_shape`` (to build sub-layers).

    >>> from kerasmini.layers import Dense, Layer
    >>> class Block(Layer):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.inner = Dense(2)
    ...     def call(self, x):
    ...         return self.inner(x)
    >>> block = Block()
    >>> dry_run(block, (None, 5), "float32").shape, block.inner.built
    ((None, 2), True)
    """
    def make(shape):
        return KerasTensor(shape, dtype)
    structure = map_shape_structure(make, input_shape)
    return infer_by_dry_run(layer, (structure,), {})
