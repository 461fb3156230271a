"""``Sequential``: a Functional model whose graph is a single chain.

``add(layer)`` appends a layer. If the model knows its input shape (the first
layer was given ``input_shape=``, or an ``Input`` was added) the new layer is
called right away on the previous output, so the graph grows one node at a
time and weights exist at once. Otherwise layers are only collected, and the
graph is built on the first call or on ``build(input_shape)`` (deferred
building).

>>> from kerasmini.backend import clear_session
>>> from kerasmini.layers import Dense
>>> clear_session()
>>> model = Sequential()
>>> model.add(Dense(input_shape=(10,), units=10, activation="relu"))
>>> model.add(Dense(units=1))
>>> model.built, model.count_params(), [l.name for l in model.layers]
(True, 121, ['dense', 'dense_1'])
"""

from kerasmini.api_export import keras_export
from kerasmini.backend.keras_tensor import is_keras_tensor
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_layer import InputLayer
from kerasmini.models.functional import Functional
from kerasmini.models.model import Model
from kerasmini.saving.serialization import (
    deserialize_keras_object,
    serialize_dtype_policy,
    serialize_keras_object,
)
from kerasmini.tree import flatten


@keras_export(["kerasmini.Sequential", "kerasmini.models.Sequential"])
class Sequential(Functional):
    """A linear stack of layers.

    Args:
        layers: layers to :meth:`add` in order.
        trainable: whether the weights are trainable.
        name: default ``sequential``, ``sequential_1``...

    >>> from kerasmini.layers import Dense
    >>> model = Sequential([Dense(4, input_shape=(3,)), Dense(1)])
    >>> model.output_shape, model.count_params()
    ((None, 1), 21)
    """

    _config_node_offset = 0  # in Keras 3 a Sequential is no Functional

    def __init__(self, layers=None, trainable=True, name=None):
        Model.__init__(self, name=name or auto_name("Sequential"), trainable=trainable)
        self._stack = []  # every layer, the InputLayer first if there is one
        self.built = False
        self._graph_ready = False
        if layers is not None and not isinstance(layers, (list, tuple)):
            raise TypeError(
                "Argument `layers` must be a list of layers. Received: "
                f"layers={layers!r} (of type {type(layers).__name__})"
            )
        for layer in layers or []:
            self.add(layer)

    # ------------------------------------------------------------ building
    def add(self, layer):
        """Append ``layer`` (a Layer, or the KerasTensor of an ``Input``)."""
        if is_keras_tensor(layer) and layer._keras_history is not None:
            layer = layer._keras_history.layer
        if not isinstance(layer, Layer):
            raise ValueError(
                "Only instances of `kerasmini.Layer` can be added to a Sequential "
                f"model. Received: {layer} (of type {type(layer)})"
            )
        if isinstance(layer, InputLayer) and self._stack:
            raise ValueError(
                f"Sequential model '{self.name}' has already been configured to "
                f"use an input shape. You cannot add a different Input layer to it."
            )
        for existing in self._stack:
            if existing.name == layer.name:
                raise ValueError(
                    "All layers added to a Sequential model should have unique "
                    f"names. Name '{layer.name}' is already the name of a layer in "
                    "this model. Update the `name` argument to pass a unique name."
                )
        if not self._stack and not isinstance(layer, InputLayer) \
                and layer._batch_input_shape is not None:
            self._stack.append(InputLayer(batch_shape=layer._batch_input_shape))
        self._stack.append(layer)
        if self._graph_ready:
            self._connect(layer)
        elif isinstance(self._stack[0], InputLayer):
            self._build_graph()

    def pop(self):
        """Remove and return the last layer.

        >>> from kerasmini.layers import Dense
        >>> m = Sequential([Dense(2, input_shape=(3,)), Dense(1)])
        >>> m.pop().units, m.output_shape
        (1, (None, 2))
        """
        layers = self.layers
        if not layers:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        if self._graph_ready:
            if self.layers:
                self._init_graph_network(self._stack[0].output, self._outputs_of_last)
            else:
                self._graph_ready = False
                self.built = False
        return layer

    @property
    def _outputs_of_last(self):
        layer = self._stack[-1]
        return layer._inbound_nodes[-1].outputs[0]

    def _connect(self, layer):
        """Call the new layer on the current output and re-map the graph."""
        with name_scope(self.name, caller=self):
            output = layer(self.outputs[0])
        if len(flatten(output)) != 1:
            raise ValueError(
                "All layers in a Sequential model should have a single output "
                "tensor. For multi-output layers, use the functional API."
            )
        self._init_graph_network(self._stack[0].output, output)

    def _build_graph(self):
        """Call every layer in turn on the InputLayer's tensor."""
        x = self._stack[0].output
        with name_scope(self.name, caller=self):
            for layer in self._stack[1:]:
                x = layer(x)
                if len(flatten(x)) != 1:
                    raise ValueError(
                        "All layers in a Sequential model should have a single "
                        "output tensor. For multi-output layers, use the "
                        "functional API."
                    )
        self._init_graph_network(self._stack[0].output, x)
        self._graph_ready = True

    def build(self, input_shape=None):
        """Build the graph for ``input_shape`` (batch dimension included)."""
        if self._graph_ready:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if isinstance(input_shape, list) and len(input_shape) == 1:
            input_shape = input_shape[0]
        if not self.layers:
            raise ValueError(
                f"Sequential model {self.name} cannot be built because it has no "
                "layers. Call `model.add(layer)`."
            )
        self._stack.insert(0, InputLayer(batch_shape=tuple(input_shape)))
        self._build_graph()

    def _maybe_build(self, inputs, *args, **kwargs):
        if not self._graph_ready:
            shape = tuple(flatten(inputs)[0].shape)
            self.build((None,) + shape[1:])
        self.built = True

    # ------------------------------------------------------------ structure
    @property
    def layers(self):
        """The layers, without the InputLayer."""
        return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

    @property
    def _layers(self):
        return list(self._stack)

    @property
    def inputs(self):
        if "inputs" not in self.__dict__:
            raise AttributeError(
                f"Sequential model '{self.name}' has no defined inputs yet."
            )
        return self.__dict__["inputs"]

    @inputs.setter
    def inputs(self, value):
        self.__dict__["inputs"] = value

    @property
    def outputs(self):
        if "outputs" not in self.__dict__:
            raise AttributeError(
                f"Sequential model '{self.name}' has no defined outputs yet."
            )
        return self.__dict__["outputs"]

    @outputs.setter
    def outputs(self, value):
        self.__dict__["outputs"] = value

    def call(self, inputs, training=None, mask=None):
        return self._run_internal_graph(inputs, training=training, mask=mask)

    # ---------------------------------------------------------- serialization
    def _obj_type(self):
        return "Sequential"

    def get_config(self):
        """Keras 3's Sequential config: the layer configs in order, the
        InputLayer first when the input shape is known.

        >>> from kerasmini.layers import Dense, Input
        >>> config = Sequential([Input((3,)), Dense(2, name="out")]).get_config()
        >>> [layer["class_name"] for layer in config["layers"]]
        ['InputLayer', 'Dense']
        """
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": serialize_dtype_policy(self.dtype_policy.name),
                  "layers": [serialize_keras_object(layer) for layer in self._stack]}
        if self._graph_ready:
            config["build_input_shape"] = self._stack[0].batch_shape
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Add the deserialized layers one by one, as the model was made."""
        if "name" not in config or "layers" not in config:
            raise ValueError(
                "A Sequential model configuration must be a dictionary containing "
                f"the 'name' and 'layers' keys. Received: config={config}"
            )
        model = cls(name=config["name"], trainable=config.get("trainable", True))
        for layer_config in config["layers"]:
            model.add(deserialize_keras_object(layer_config,
                                               custom_objects=custom_objects))
        shape = config.get("build_input_shape")
        if not model._graph_ready and isinstance(shape, (list, tuple)) and model.layers:
            model.build(tuple(shape))
        return model

    def get_build_config(self):
        if self._graph_ready:
            return {"input_shape": self._stack[0].batch_shape}
        return None

    def build_from_config(self, config):
        if config and config.get("input_shape") is not None and self.layers:
            self.build(tuple(config["input_shape"]))
