"""``clone_model``: the same architecture with new layers (so new weights),
as ``keras/src/models/cloning.py`` does.

A Sequential model is cloned layer by layer; a functional model by replaying
its graph on new inputs, calling a clone of each layer (a layer shared by
several calls is cloned once, so it stays shared). ``clone_function`` says
how to clone one layer (default: ``from_config(get_config())``, fresh
weights); ``input_tensors`` gives the inputs to build on. A compiled model's
clone is compiled the same way.

>>> from kerasmini import Sequential, layers
>>> model = Sequential([layers.Input((3,)), layers.Dense(2, name="d")])
>>> clone = clone_model(model)
>>> clone.layers[0].name, clone.layers[0] is model.layers[0]
('d', False)
"""

from kerasmini import tree
from kerasmini.api_export import keras_export
from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import Input, InputLayer
from kerasmini.models.functional import Functional, _functional_like_constructor
from kerasmini.models.sequential import Sequential
from kerasmini.saving import serialization


def _default_clone(layer):
    return layer.__class__.from_config(layer.get_config())


def _cached(clone_function, recursive, cache):
    """One clone per layer object; nested models cloned whole when
    ``recursive``."""
    clone_function = clone_function or _default_clone

    def clone(layer):
        if id(layer) not in cache:
            if recursive and isinstance(layer, Functional):
                cache[id(layer)] = clone_model(layer, clone_function=clone_function,
                                               recursive=True, cache=cache)
            else:
                copy = clone_function(layer)
                # (Keras 3 fails later: "'NoneType' object is not callable")
                if not isinstance(copy, Layer):
                    raise ValueError(
                        "Expected `clone_function` to return a layer (a "
                        f"`kerasmini.Layer`) for layer '{layer.name}'. Received: "
                        f"{copy!r} (of type {type(copy).__name__})")
                cache[id(layer)] = copy
        return cache[id(layer)]

    return clone


@keras_export("kerasmini.models.clone_model")
def clone_model(model, input_tensors=None, clone_function=None,
                call_function=None, recursive=False, **kwargs):
    """A new model with the architecture of ``model`` and new layers.

    Args:
        model: a Sequential or functional model (a subclassed model is
            cloned through its config, without the two arguments below).
        input_tensors: KerasTensors (same structure as ``model.input``) to
            build the clone on; default: new ``Input``s of the same shapes.
        clone_function: ``layer -> new layer``, called once per layer (return
            the layer itself to share it); default: a fresh copy from its
            config.
        call_function: not supported (Keras 3's hook to rewrite calls).
        recursive: clone the layers of nested models one by one too.

    Returns:
        The clone: weights are new (copy them with ``set_weights``), compiled
        like ``model`` when ``model`` was compiled.

    >>> from kerasmini import Input, Model, layers
    >>> x = Input((4,), name="x")
    >>> model = Model(x, layers.Dense(2, name="out")(x))
    >>> def rename(layer):
    ...     config = layer.get_config()
    ...     config["name"] = "copy_of_" + config["name"]
    ...     return layer.__class__.from_config(config)
    >>> [layer.name for layer in clone_model(model, clone_function=rename).layers]
    ['x', 'copy_of_out']
    """
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(f"Unexpected keyword argument(s): {tuple(kwargs.keys())}")
    if call_function is not None:
        raise NotImplementedError(
            "kerasmini's `clone_model` does not support `call_function`: clone "
            "the layers with `clone_function` and call them yourself. Received: "
            f"call_function={call_function}")
    if clone_function is not None and not callable(clone_function):
        raise ValueError("Expected `clone_function` argument to be a callable. "
                         f"Received: clone_function={clone_function}")
    cache = {} if cache is None else cache
    if isinstance(model, Sequential):
        clone = _clone_sequential(model, _cached(clone_function, recursive, cache),
                                  input_tensors)
    elif isinstance(model, Functional):
        clone = _clone_functional(model, _cached(clone_function, recursive, cache),
                                  input_tensors)
    elif clone_function is not None or input_tensors is not None:
        raise ValueError(
            "Arguments `clone_function` and `input_tensors` are only supported for "
            "Sequential models or Functional models. Received model of type "
            f"'{type(model).__name__}', with clone_function={clone_function} and "
            f"input_tensors={input_tensors}")
    else:  # a subclassed model: through its config
        config = serialization.serialize_keras_object(model)
        return serialization.deserialize_keras_object(
            config, custom_objects={type(model).__name__: type(model)})
    if model.compiled:
        clone.compile_from_config(model.get_compile_config())
    return clone


def _clone_sequential(model, clone, input_tensors):
    new_layers = [clone(layer) for layer in model.layers]
    first = model._layers[0] if model._layers else None
    if input_tensors is not None:
        several = isinstance(input_tensors, (list, tuple))
        if several and len(input_tensors) != 1:
            raise ValueError(
                "Argument `input_tensors` must contain a single tensor.")
        if several:
            input_tensors = input_tensors[0]
        history = getattr(input_tensors, "_keras_history", None)
        if not is_keras_tensor(input_tensors) or history is None or \
                not isinstance(history[0], InputLayer):
            raise ValueError(
                "Argument `input_tensors` of a Sequential model must be the "
                "KerasTensor of a `keras.Input`. Received invalid value: "
                f"input_tensors={input_tensors}")
        new_layers = [history[0]] + new_layers
    elif isinstance(first, InputLayer):
        new_layers = [Input(batch_shape=first.batch_shape, dtype=first.dtype,
                            name=first.name)._keras_history[0]] + new_layers
    return Sequential(new_layers, name=model.name, trainable=model.trainable)


def _clone_functional(model, clone, input_tensors):
    if input_tensors is None:
        input_tensors = tree.map_structure(
            lambda x: Input(batch_shape=x.shape, dtype=x.dtype, name=x.name),
            model._inputs_struct)
    else:
        if not all(is_keras_tensor(x) for x in tree.flatten(input_tensors)):
            raise ValueError(
                "All entries in `input_tensors` must be KerasTensors. Received "
                f"invalid values: inputs_tensors={input_tensors}")
        if len(tree.flatten(input_tensors)) != len(model.inputs):
            raise ValueError(
                "`input_tensors` must have the same structure as model.input\n"
                f"Reference structure: {model.input}\n"
                f"Received structure: {input_tensors}")
    values = {id(old): new for old, new in
              zip(model.inputs, tree.flatten(input_tensors))}
    for depth in sorted(model._nodes_by_depth, reverse=True):
        for node in model._nodes_by_depth[depth]:
            if node.is_input or all(id(x) in values for x in node.outputs):
                continue
            args, call_kwargs = node.map_arguments(values)
            operation = clone(node.layer) if isinstance(node.layer, Layer) else \
                node.layer
            outputs = operation(*args, **call_kwargs)
            for old, new in zip(node.outputs, tree.flatten(outputs)):
                values[id(old)] = new
    outputs = tree.pack_sequence_as(model._outputs_struct,
                                    [values[id(x)] for x in model.outputs])
    cls = type(model) if _functional_like_constructor(type(model)) else Functional
    return cls(input_tensors, outputs, name=model.name)


__all__ = ["clone_model"]
