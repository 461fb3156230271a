"""Small helpers of ``Layer`` that are not part of its story.

Keras 2 keeps the same kind of helpers in ``keras/engine/base_layer_utils.py``:
finding sub-layers among attributes, the ``build`` wrapper, the arguments of
``add_weight``, the masks a call passes on. (The checks of what a user passes
in are in :mod:`kerasmini.backend.validation`.)

>>> _dedup([1, 2, 1, 3])
[1, 2, 3]
"""

import functools
import inspect
import warnings

from kerasmini.backend import validation
from kerasmini.backend.core import is_tensor
from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.backend.masking import expose_mask, get_keras_mask, set_keras_mask
from kerasmini.backend.naming import name_scope
from kerasmini.ops.operation import symbolic_scope
from kerasmini.tree import flatten, map_structure, pack_sequence_as

_NOT_SUBLAYERS = frozenset({"_inbound_nodes", "_outbound_nodes", "_keras_history",
                            "_output_layers", "_input_layers", "_self_ref",
                            # (layer, node_index, tensor_index) records, not
                            # sub-layers: walking them first would put a nested
                            # model's weights before its predecessors'
                            "_input_coordinates", "_output_coordinates"})


def direct_sublayers(layer, layer_class):
    """The layers held by ``layer``'s attributes (in lists, tuples and dicts
    too), in the order the attributes were set; not its graph records.

    >>> from kerasmini.layers import Dense, Layer
    >>> block = Layer(); block.parts = [Dense(1, name="a"), Dense(1, name="b")]
    >>> [sub.name for sub in direct_sublayers(block, Layer)]
    ['a', 'b']
    """
    return [leaf for key, value in vars(layer).items() if key not in _NOT_SUBLAYERS
            for leaf in flatten(value) if isinstance(leaf, layer_class)]


def _extra_init_args(cls):
    """``__init__`` parameters beyond the base layer's, for the error telling
    the author to write ``get_config``."""
    base = {"self", "trainable", "name", "dtype"}
    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.name not in base
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _build_wrapper(build):
    """Make a subclass's ``build`` run in the layer's name scope and mark the
    layer built, however it is called (as Keras 3's ``build_wrapper`` does).
    A ``build`` of several shapes records them by name, for
    ``get_build_config``."""
    if getattr(build, "_is_build_wrapper", False):
        return build
    signature = inspect.signature(build)
    several = len(_named_parameters(build)) > 2  # self and two shapes or more

    @functools.wraps(build)
    def wrapper(self, *args, **kwargs):
        with name_scope(self.name, caller=self):
            result = build(self, *args, **kwargs)
        self.built = True
        if several:
            shapes = signature.bind(self, *args, **kwargs).arguments
            shapes.pop(next(iter(signature.parameters)))  # self
            self._build_shapes_dict = dict(shapes)
        elif args and self._build_input_shape is None:
            self._build_input_shape = args[0]
        return result

    wrapper._is_build_wrapper = True
    return wrapper


def _named_parameters(fn):
    """The names ``fn`` takes one by one (not ``*args``/``**kwargs``)."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY,
             inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in inspect.signature(fn).parameters.values()
            if p.kind in kinds]


def _call_arguments_by_name(layer, inputs, args, kwargs):
    """``{name: value}`` of a call: positional arguments named after
    ``call``'s parameters, then the keyword arguments."""
    names = _named_parameters(layer.call)
    bound = dict(zip(names, (inputs,) + tuple(args)))
    bound.update(kwargs)
    return bound


def build_shapes_by_name(layer, inputs, args, kwargs):
    """The shapes a ``build`` of several arguments receives, by name.

    ``build(input_shape)`` gets the first argument's shape (``None`` is
    returned for it). A ``build`` with more arguments, such as
    ``build(query_shape, value_shape, key_shape=None)``, gets for each
    ``<name>_shape`` the shape of the tensor passed to ``call`` as
    ``<name>``, if one was (Keras 3's ``update_shapes_dict_for_target_fn``).

    >>> import numpy as np
    >>> from kerasmini.layers import Layer
    >>> class Pair(Layer):
    ...     def build(self, query_shape, value_shape):
    ...         pass
    ...     def call(self, query, value):
    ...         return query
    >>> build_shapes_by_name(Pair(), np.ones((2, 3)), (np.ones((2, 5)),), {})
    {'query_shape': (2, 3), 'value_shape': (2, 5)}
    """
    names = _named_parameters(layer.build)
    if len(names) <= 1:
        return None
    given = _call_arguments_by_name(layer, inputs, args, kwargs)
    preamble = (
        "For a `build()` method with more than one argument, all arguments "
        "should have a `_shape` suffix and match an argument from `call()`. "
        "E.g. `build(self, foo_shape, bar_shape)` "
    )
    shapes = {}
    for name in names:
        if not name.endswith("_shape"):
            raise ValueError(
                f"{preamble} For layer '{type(layer).__name__}', Received "
                f"`build()` argument `{name}`, which does not end in `_shape`."
            )
        argument = name[:-len("_shape")]
        if argument not in _named_parameters(layer.call):
            raise ValueError(
                f"{preamble} For layer '{type(layer).__name__}', received "
                f"`build()` argument `{name}`, but `call()` does not have "
                f"argument `{argument}`."
            )
        value = given.get(argument)
        if is_tensor(value) or is_keras_tensor(value):
            shapes[name] = tuple(value.shape)
    return shapes


def _dedup(items):
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def call_arguments(call):
    """``(takes training, its default, takes mask)`` for a layer's ``call``.

    >>> call_arguments(lambda inputs, training=False: inputs)
    (True, False, False)
    """
    parameters = inspect.signature(call).parameters
    training = parameters.get("training")
    default = None
    if training is not None and training.default is not inspect.Parameter.empty:
        default = training.default
    return training is not None, default, "mask" in parameters


def check_get_config(layer):
    """A layer whose ``__init__`` takes more than the base layer's arguments
    must write ``get_config`` (Keras 3's error).

    >>> from kerasmini.layers import Layer
    >>> class Scaled(Layer):
    ...     def __init__(self, factor):
    ...         super().__init__()
    >>> check_get_config(Scaled(2.0))
    Traceback (most recent call last):
      ...
    NotImplementedError: Layer Scaled has arguments ['factor'] in `__init__()` and therefore ...
    """
    extra = _extra_init_args(type(layer))
    if extra:
        raise NotImplementedError(
            f"Layer {type(layer).__name__} has arguments {extra} in "
            "`__init__()` and therefore must override `get_config()` to "
            "return them: `config = super().get_config(); "
            "config.update({...}); return config`."
        )


def batch_input_shape(kwargs, owner):
    """The ``batch_input_shape`` a Sequential model reads from its first
    layer's ``input_shape``/``input_dim``/``batch_input_shape``/``batch_size``.

    >>> batch_input_shape({"input_dim": 3, "batch_size": 8}, "Dense")
    (8, 3)
    """
    if "batch_input_shape" in kwargs:
        return tuple(kwargs["batch_input_shape"])
    if kwargs.get("input_shape") is None and "input_dim" not in kwargs:
        return None
    shape = kwargs.get("input_shape")
    if shape is None:
        shape = (kwargs["input_dim"],)
    shape = validation.check_shape(shape, "input_shape", owner=owner)  # an int: one axis
    return (kwargs.get("batch_size"),) + tuple(shape)


def weight_arguments(args, shape, name):
    """``(shape, name)`` of ``add_weight(*args, shape=, name=)``: a first
    positional argument is the name if it is a string (Keras 2's order), else
    the shape (Keras 3's).

    >>> weight_arguments(("kernel", (3, 2)), None, None)
    ((3, 2), 'kernel')
    """
    for arg in args:
        if isinstance(arg, str) and name is None:
            name = arg
        elif shape is None:
            shape = arg
        else:
            raise TypeError(
                f"Too many positional arguments to `add_weight`: {args}. "
                "Pass `shape`, `initializer`, ... as keyword arguments."
            )
    return shape, name


def populate_mask(layer, inputs, rest, kwargs):
    """Give ``call(..., mask=)`` the mask attached to the inputs (if the
    inputs are its only tensors and no mask was passed); with several tensor
    arguments, give each ``<name>_mask`` the mask of the argument ``<name>``
    (``value_mask`` from ``value``, as Keras 3 does). Return the mask the
    outputs' mask is computed from, and the names of the arguments filled in.

    >>> import numpy as np
    >>> from kerasmini.layers import Masking
    >>> x = Masking()(np.array([[[1.0], [0.0]]]))
    >>> kwargs = {}
    >>> populate_mask(Masking(), x, (), kwargs)
    (array([[ True, False]]), [])
    """
    masks = map_structure(get_keras_mask, inputs)
    found = any(m is not None for m in flatten(masks))
    others = [x for x in flatten([rest, kwargs]) if is_tensor(x) or is_keras_tensor(x)]
    filled = []
    if (found and layer._call_has_mask_arg and not others
            and kwargs.get("mask") is None):
        kwargs["mask"] = masks
        filled.append("mask")
    elif others:
        filled = populate_named_masks(layer, inputs, rest, kwargs)
    if kwargs.get("mask") is not None:
        return kwargs["mask"], filled
    return masks, filled


def populate_named_masks(layer, inputs, rest, kwargs):
    """Fill ``<name>_mask`` arguments of ``call`` left unset with the masks
    the ``<name>`` arguments carry; return the names filled in.

    >>> import numpy as np
    >>> from kerasmini.layers import Layer
    >>> class Pair(Layer):
    ...     def call(self, query, value, value_mask=None):
    ...         return query
    >>> value = np.ones((1, 2))
    >>> set_keras_mask(value, np.array([[True, False]]))
    >>> kwargs = {}
    >>> populate_named_masks(Pair(), np.ones((1, 2)), (value,), kwargs), kwargs
    (['value_mask'], {'value_mask': array([[ True, False]])})
    """
    parameters = _named_parameters(layer.call)
    filled = []
    given = _call_arguments_by_name(layer, inputs, rest, kwargs)
    for name, value in given.items():
        mask_name = f"{name}_mask"
        if mask_name not in parameters or given.get(mask_name) is not None:
            continue
        mask = map_structure(get_keras_mask, value)
        if any(m is not None for m in flatten(mask)):
            kwargs[mask_name] = mask
            filled.append(mask_name)
    return filled


def set_mask_metadata(layer, inputs, outputs, previous_mask):
    """Attach ``layer.compute_mask``'s result to the outputs as
    ``_keras_mask`` (symbolic outputs get a symbolic mask) and return the
    outputs: an eager array that now carries a mask comes back as a view that
    holds it as an attribute (``output._keras_mask``, as on Keras's tensors).
    A layer that does not support masking drops the mask, with Keras 3's
    warning.

    >>> import numpy as np
    >>> from kerasmini.layers import Activation
    >>> outputs = np.ones((1, 2, 1))
    >>> outputs = set_mask_metadata(Activation("relu"), None, outputs,
    ...                             np.array([[True, False]]))
    >>> outputs._keras_mask
    array([[ True, False]])
    """
    if not layer.supports_masking:
        if any(m is not None for m in flatten(previous_mask)):
            warnings.warn(
                f"Layer '{layer.name}' (of type {type(layer).__name__}) was "
                "passed an input with a mask attached to it. However, this "
                "layer does not support masking and will therefore destroy "
                "the mask information. Downstream layers will not see the "
                "mask.", stacklevel=3)
        return outputs
    flat = flatten(outputs)
    if not all(get_keras_mask(x) is not None for x in flat):  # else `call` did
        with symbolic_scope():  # mask ops on KerasTensors record no Node
            masks = layer.compute_mask(inputs, previous_mask)
        if masks is not None:
            for tensor, mask in zip(flat, flatten(masks)):
                if mask is not None and get_keras_mask(tensor) is None:
                    set_keras_mask(tensor, mask)
    exposed = [expose_mask(x) for x in flat]
    if all(a is b for a, b in zip(exposed, flat)):
        return outputs
    return pack_sequence_as(outputs, exposed)
