"""``Functional``: a model defined by a graph of layer calls.

``Functional(inputs, outputs)`` does no computation of its own. It walks the
``_keras_history`` of the outputs back to the inputs (:func:`map_graph`),
gives every node a depth (outputs 0, inputs deepest), orders the layers by
decreasing depth, and checks that every tensor on the way can be computed
from the inputs. Calling the model then runs the nodes from the deepest
depth up (:meth:`Functional._run_internal_graph`), feeding each layer the
values computed for its inputs.

>>> from kerasmini.backend import clear_session
>>> from kerasmini.engine.input_layer import Input
>>> from kerasmini.layers import Dense
>>> clear_session()
>>> x = Input(shape=(4,))
>>> h = Dense(3)(x)
>>> y = Dense(2)(h)
>>> model = Functional(x, y)
>>> [layer.name for layer in model.layers]
['input_layer', 'dense', 'dense_1']
>>> {d: [n.layer.name for n in ns] for d, ns in sorted(model._nodes_by_depth.items())}
{0: ['dense_1'], 1: ['dense'], 2: ['input_layer']}
"""

import collections
import inspect

from kerasmini.api_export import keras_export
from kerasmini.backend.core import convert_to_tensor, is_tensor
from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.backend.masking import set_keras_mask
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec
from kerasmini.models.model import Model
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    serialize_keras_object,
)
from kerasmini.tree import flatten, map_structure, pack_sequence_as


def map_graph(inputs, outputs):
    """Walk from ``outputs`` back to ``inputs`` and order the graph.

    Returns:
        ``(nodes, nodes_by_depth, layers, layers_by_depth)``: the set of nodes,
        ``{depth: [node]}``, the layers in decreasing depth (ties in the order
        first met), and ``{depth: [layer]}``.

    Raises:
        ValueError: for a cycle, a graph that cannot be computed from the
            inputs ("Graph disconnected"), or duplicate layer names.

    >>> from kerasmini.engine.input_layer import Input
    >>> from kerasmini.layers import Dense
    >>> x = Input(shape=(2,), name="x")
    >>> y = Dense(1, name="y")(x)
    >>> nodes, by_depth, layers, _ = map_graph([x], [y])
    >>> [layer.name for layer in layers], sorted(by_depth)
    (['x', 'y'], [0, 1])
    """
    input_ids = {id(x) for x in inputs}
    finished, in_progress = set(), set()
    ordered, layer_indices = [], {}
    stops = set()  # nodes that produce a model input: the walk stops there

    def visit(tensor):  # depth first, post-order: parents before children
        layer, node_index, _ = tensor._keras_history
        node = layer._inbound_nodes[node_index]
        if node in finished:
            return
        if node in in_progress:
            raise ValueError(
                f'Tensor {tensor} from layer "{layer.name}" is part of a cycle.'
            )
        layer_indices.setdefault(layer, len(layer_indices))
        in_progress.add(node)
        if id(tensor) in input_ids:
            stops.add(node)
        else:
            for kt in node.keras_inputs:
                visit(kt)
        in_progress.discard(node)
        finished.add(node)
        ordered.append(node)

    for x in outputs:
        visit(x)

    # Depths: a node is one deeper than the deepest node that consumes it.
    node_depth, layer_depth = {}, {}
    for node in reversed(ordered):
        depth = max(node_depth.setdefault(node, 0), layer_depth.get(node.layer, 0))
        layer_depth[node.layer] = depth
        node_depth[node] = depth
        if node not in stops:
            for parent in node.parent_nodes:
                node_depth[parent] = max(depth + 1, node_depth.get(parent, 0))

    nodes_by_depth = collections.defaultdict(list)
    for node in ordered:  # keeps first-met order within a depth
        nodes_by_depth[node_depth[node]].append(node)
    layers_by_depth = collections.defaultdict(list)
    for layer, depth in layer_depth.items():
        layers_by_depth[depth].append(layer)
    layers = []
    for depth in sorted(layers_by_depth, reverse=True):
        layers += sorted(layers_by_depth[depth], key=layer_indices.get)

    # Every tensor a node needs must be computable from the inputs.
    computable = set(input_ids)
    done = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            if node in stops:
                continue
            if not node.is_input:
                for x in node.keras_inputs:
                    if id(x) not in computable:
                        raise ValueError(
                            f"Graph disconnected: cannot obtain value for tensor {x} "
                            f'at layer "{node.layer.name}". The following previous '
                            f"layers were accessed without issue: {done}"
                        )
                computable.update(id(x) for x in node.outputs)
                done.append(node.layer.name)
    for x in outputs:
        if id(x) not in computable:
            raise ValueError(
                f"Output {x} is not connected to `inputs`: it cannot be computed "
                f"from {list(inputs)}."
            )

    counts = collections.Counter(layer.name for layer in layers)
    for name, count in counts.items():
        if count > 1:
            raise ValueError(
                f'The name "{name}" is used {count} times in the model. All layer '
                "names should be unique."
            )
    return set(ordered), dict(nodes_by_depth), layers, dict(layers_by_depth)


@keras_export(["kerasmini.Functional", "kerasmini.models.Functional"])
class Functional(Model):
    """A model whose layers are wired by calling them on KerasTensors.

    Args:
        inputs: a KerasTensor from :func:`~kerasmini.Input`, or a list or dict
            of them.
        outputs: KerasTensor(s) computed from ``inputs`` (nested lists, tuples
            and dicts are kept in the output).
        name: default ``functional``, ``functional_1``...
        trainable: whether the weights are trainable.

    >>> from kerasmini.engine.input_layer import Input
    >>> from kerasmini.layers import Dense
    >>> x = Input(shape=(3,))
    >>> model = Functional(x, Dense(2)(x))
    >>> import numpy as np
    >>> model(np.array([[1.0, 2.0, 3.0]])).shape
    (1, 2)
    """

    # Keras 3 counts a node of the model's own before any call of it; a saved
    # config numbers this model's nodes one higher (see `get_config`).
    _config_node_offset = 1

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        Model.__init__(self, name=name, trainable=trainable, **kwargs)
        self._init_graph_network(inputs, outputs)

    def _init_graph_network(self, inputs, outputs):
        """Validate the endpoints, map the graph and record its layers."""
        for kind, structure in (("inputs", inputs), ("outputs", outputs)):
            for x in flatten(structure):
                if not is_keras_tensor(x):
                    raise ValueError(
                        f"All `{kind}` values must be KerasTensors. Received: "
                        f"{kind}={structure} including invalid value {x} of type "
                        f"{type(x)}"
                    )
                if x._keras_history is None:
                    raise ValueError(
                        f"Functional {kind} must come from `kerasmini.Input` or a "
                        f"layer call. Received: {x} (missing previous layer "
                        "metadata)."
                    )
        if isinstance(inputs, (list, tuple)) and len(inputs) == 1 and \
                not isinstance(inputs[0], (list, tuple, dict)):
            inputs = inputs[0] if isinstance(inputs, list) else inputs
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self.inputs = flatten(inputs)
        self.outputs = flatten(outputs)
        ids = [id(x) for x in self.inputs]
        if len(set(ids)) != len(ids):
            raise ValueError(
                "The list of inputs passed to the model contains the same input "
                f"multiple times. All inputs should only appear once. Received "
                f"inputs={self.inputs}"
            )
        self._input_layers = [x._keras_history.layer for x in self.inputs]
        self._output_layers = [x._keras_history.layer for x in self.outputs]
        self._input_coordinates = [tuple(x._keras_history) for x in self.inputs]
        self._output_coordinates = [tuple(x._keras_history) for x in self.outputs]
        nodes, by_depth, layers, layers_by_depth = map_graph(self.inputs, self.outputs)
        self._network_nodes = nodes
        self._nodes_by_depth = by_depth
        self._graph_layers = layers
        self._layers_by_depth = layers_by_depth
        self.input_spec = [
            InputSpec(shape=x.shape, name=layer.name)
            for x, layer in zip(self.inputs, self._input_layers)
        ]
        self.built = True

    # ------------------------------------------------------------ structure
    @property
    def operations(self):
        """Every operation of the graph, layers and ``keras.ops`` calls, in
        decreasing depth (Keras 3's ``Function.operations``)."""
        return list(self._graph_layers)

    @property
    def layers(self):
        """The model's layers, in decreasing depth (inputs first); ops called
        between layers are in :attr:`operations` only, as in Keras 3."""
        return [op for op in self._graph_layers if isinstance(op, Layer)]

    @property
    def _layers(self):
        return self.layers

    @property
    def input_names(self):
        return [layer.name for layer in self._input_layers]

    @property
    def output_names(self):
        return [layer.name for layer in self._output_layers]

    @property
    def input_shape(self):
        shapes = [x.shape for x in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [x.shape for x in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    # --------------------------------------------------------------- running
    def call(self, inputs, training=None, mask=None):
        """Run the graph on concrete (or symbolic) inputs; a ``mask`` given
        (or carried by the inputs) travels with them through the layers (a
        one-element output list gives its element, as Keras 3's
        ``unpack_singleton``)."""
        outputs = self._run_internal_graph(inputs, training=training, mask=mask)
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            return outputs[0]
        return outputs

    def _standardize_inputs(self, inputs):
        """Match ``inputs`` (single, list or dict) to ``self.inputs``."""
        if isinstance(inputs, dict):
            names = self.input_names
            if isinstance(self._inputs_struct, dict):
                names = list(self._inputs_struct)
                mapping = {k: inputs.get(k) for k in names}
            else:
                mapping = {k: inputs.get(k) for k in names}
            missing = [k for k, v in mapping.items() if v is None]
            if missing:
                raise ValueError(
                    f'Missing data for input "{missing[0]}". You passed a data '
                    f"dictionary with keys {list(inputs)}. Expected the following "
                    f"keys: {names}"
                )
            flat = [mapping[k] for k in names] if not isinstance(
                self._inputs_struct, dict) else flatten(
                {k: mapping[k] for k in self._inputs_struct})
        else:
            flat = flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(
                f'Layer "{self.name}" expects {len(self.inputs)} input(s), but it '
                f"received {len(flat)} input tensors. Inputs received: {flat}"
            )
        return [x if is_tensor(x) or is_keras_tensor(x) else convert_to_tensor(x)
                for x in flat]

    def _run_internal_graph(self, inputs, training=None, mask=None):
        """Compute the outputs depth by depth, deepest nodes first."""
        flat = self._standardize_inputs(inputs)
        masks = [None] * len(flat) if mask is None else flatten(mask)
        for x, m in zip(flat, masks):
            if m is not None:
                set_keras_mask(x, m)
        values = {id(kt): value for kt, value in zip(self.inputs, flat)}
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input or all(id(x) in values for x in node.outputs):
                    continue  # an input: its value is given
                args, kwargs = node.map_arguments(values)
                if training is not None and "training" in kwargs:
                    # the model's own `training` wins over the one the node
                    # recorded (Keras's files record `training=True` for the
                    # preprocessing layers, whose `call` defaults to it)
                    kwargs["training"] = training
                outputs = node.layer(*args, **kwargs)
                for kt, value in zip(node.outputs, flatten(outputs)):
                    values[id(kt)] = value
        return pack_sequence_as(self._outputs_struct, [values[id(x)] for x in self.outputs])

    # ---------------------------------------------------------- serialization
    def get_config(self):
        """Keras 3's graph config: every layer's config with its
        ``inbound_nodes`` (the calls, inputs as ``__keras_tensor__``
        placeholders naming ``[layer, node, tensor]``), plus
        ``input_layers``/``output_layers``.

        >>> from kerasmini.backend import clear_session
        >>> from kerasmini.engine.input_layer import Input
        >>> from kerasmini.layers import Dense
        >>> clear_session()
        >>> x = Input(shape=(4,))
        >>> config = Functional(x, Dense(2)(x)).get_config()
        >>> [entry["name"] for entry in config["layers"]], config["output_layers"]
        (['input_layer', 'dense'], ['dense', 0, 0])
        """
        if not _functional_like_constructor(type(self)):
            return Model.get_config(self)
        ops_in_graph = [op.name for op in self.operations if not isinstance(op, Layer)]
        if ops_in_graph:
            raise NotImplementedError(
                f"Model '{self.name}' calls keras.ops functions between its layers "
                f"({', '.join(ops_in_graph)}); kerasmini cannot save such a graph "
                "yet. Put the computation in a Lambda layer or a custom layer "
                "with `get_config`."
            )
        own = self._network_nodes
        layer_configs = []
        for layer in self.layers:
            entry = serialize_keras_object(layer)
            entry["name"] = layer.name
            entry["inbound_nodes"] = [
                _serialize_node(node, own) for node in layer._inbound_nodes
                if node in own and not node.is_input
            ]
            layer_configs.append(entry)

        def endpoint(tensor):  # [layer name, kept-node index, tensor index]
            layer, node_index, tensor_index = tensor._keras_history
            kept = _kept_index(layer, node_index, own)
            return [layer.name, kept + _own_node_offset(layer), tensor_index]

        return {
            "name": self.name,
            "trainable": self.trainable,
            "layers": layer_configs,
            "input_layers": map_structure(endpoint, self._inputs_struct),
            "output_layers": map_structure(endpoint, self._outputs_struct),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuild the graph from :meth:`get_config`: create every layer, then
        replay the recorded calls, retrying a call until its inputs exist."""
        if not all(k in config for k in ("layers", "input_layers", "output_layers")):
            return cls(**config)
        return functional_from_config(cls, config, custom_objects)

    def _obj_type(self):
        return "Functional"

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


# ------------------------------------------------------------ graph config
def _own_node_offset(layer):
    """Keras 3 gives a Functional model a node of its own (its inputs to its
    outputs) before any call, so config indices for such a layer are one
    higher than kerasmini's (``Functional._config_node_offset``; Sequential
    is no Functional in Keras 3 and sets it back to 0)."""
    return getattr(layer, "_config_node_offset", 0)


def _kept_index(layer, node_index, own):
    """``node_index`` counting only the nodes that belong to the model."""
    return sum(1 for node in layer._inbound_nodes[:node_index] if node in own)


def _serialize_node(node, own):
    def placeholder(x):
        if not is_keras_tensor(x):
            return serialize_keras_object(x)
        layer, node_index, tensor_index = x._keras_history
        return {"class_name": "__keras_tensor__",
                "config": {"shape": x.shape, "dtype": x.dtype,
                           "keras_history": [layer.name,
                                             _kept_index(layer, node_index, own),
                                             tensor_index]}}

    return {"args": map_structure(placeholder, list(node.call_args)),
            "kwargs": map_structure(placeholder, dict(node.call_kwargs))}


def _functional_like_constructor(cls):
    if cls is Functional:
        return True
    params = list(inspect.signature(cls.__init__).parameters)
    return params == list(inspect.signature(Functional.__init__).parameters)


def functional_from_config(cls, config, custom_objects=None):
    """Create the layers of a graph config and replay their calls.

    A call is replayed once every tensor it reads exists; a layer shared at
    several depths may have to wait, so the loop retries until no call is
    left (or none can make progress: a broken config).

    >>> from kerasmini.engine.input_layer import Input
    >>> from kerasmini.layers import Dense
    >>> x = Input(shape=(3,))
    >>> model = Functional(x, Dense(2)(Dense(4)(x)))
    >>> copy = functional_from_config(Functional, model.get_config())
    >>> [layer.name for layer in copy.layers] == [layer.name for layer in model.layers]
    True
    """
    created, pending = {}, {}
    for entry in config["layers"]:
        layer = deserialize_keras_object(entry, custom_objects=custom_objects)
        if not isinstance(layer, Layer):
            raise ValueError(
                "Unexpected object from deserialization, expected a layer. "
                f"Received: {type(layer)} for '{entry.get('name')}'"
            )
        created[entry["name"]] = layer
        pending[entry["name"]] = list(entry.get("inbound_nodes", []))

    def tensor_at(name, node_index, tensor_index):
        if name not in created:
            raise ValueError(f"Invalid Functional model configuration: unknown "
                             f"layer '{name}' in a node.")
        nodes = created[name]._inbound_nodes
        if not 0 <= node_index < len(nodes):
            raise IndexError(node_index)  # not created yet: retry later
        return nodes[node_index].outputs[tensor_index]

    def revive(x):
        history = getattr(x, "_pre_serialization_keras_history", None)
        return tensor_at(*history) if history else x

    while any(pending.values()):
        progress = False
        for entry in config["layers"]:
            name = entry["name"]
            while pending[name]:
                node_data = pending[name][0]
                try:
                    args = deserialize_keras_object(node_data["args"])
                    kwargs = deserialize_keras_object(node_data["kwargs"])
                    args = map_structure(revive, args)
                    kwargs = _drop_unknown_none_kwargs(created[name],
                                                       map_structure(revive, kwargs))
                except IndexError:
                    break
                created[name](*args, **kwargs)
                pending[name].pop(0)
                progress = True
        if not progress:
            raise ValueError(
                "Invalid Functional model configuration. The graph either has "
                "loops or disconnected nodes. The following nodes failed to be "
                f"resolved: { {k: v for k, v in pending.items() if v} }"
            )

    def endpoint(spec):
        name, node_index, tensor_index = spec
        offset = _own_node_offset(created.get(name))
        return tensor_at(name, node_index - offset, tensor_index)

    def endpoints(spec):
        if isinstance(spec, list) and len(spec) == 3 and isinstance(spec[0], str):
            return endpoint(spec)
        if isinstance(spec, dict):
            return {key: endpoints(value) for key, value in spec.items()}
        return [endpoints(item) for item in spec]

    rest = {k: v for k, v in config.items()
            if k not in ("layers", "input_layers", "output_layers")}
    if cls is Model:
        cls = Functional
    return cls(endpoints(config["input_layers"]), endpoints(config["output_layers"]),
               **rest)


def _drop_unknown_none_kwargs(layer, kwargs):
    """Drop ``None`` keyword arguments ``call`` does not take (Keras records
    ``mask=None`` for nested models)."""
    params = inspect.signature(layer.call).parameters
    return {k: v for k, v in kwargs.items() if v is not None or k in params}
