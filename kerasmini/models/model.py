"""``Model``: a layer that also knows how to train, evaluate and predict.

``Model`` adds to ``Layer`` what a whole network needs: a list of its
``layers``, ``get_layer``, ``summary``, ``save``; the training methods
(``compile``/``fit``/``evaluate``/``predict``) come from its other base,
:class:`~kerasmini.trainers.trainer.Trainer`, as in Keras 3
(``class Model(Trainer, Layer)``). Calling ``Model(inputs, outputs)`` does not
make a plain Model: ``__new__`` hands back a
:class:`~kerasmini.models.functional.Functional`, as Keras does, so
subclassing ``Model`` and the functional API share one entry point.

>>> from kerasmini.backend import clear_session
>>> from kerasmini.engine.input_layer import Input
>>> from kerasmini.layers import Dense
>>> clear_session()
>>> x = Input(shape=(3,))
>>> type(Model(x, Dense(1)(x))).__name__
'Functional'
"""

from kerasmini import saving
from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.engine.base_layer import Layer
from kerasmini.saving import serialization
from kerasmini.trainers.trainer import Trainer
from kerasmini.utils.summary import print_summary


def _functional_class():
    from kerasmini.models.functional import Functional

    return Functional


def _inject_functional_model_class(cls, functional):
    """Put ``Functional`` where ``Model`` is among the bases of ``cls`` (and
    of its bases), so that an instance made with ``inputs``/``outputs``
    works as a functional model."""
    if cls is Model:
        return functional
    if cls is object or issubclass(cls, functional):
        return cls
    cls.__bases__ = tuple(_inject_functional_model_class(base, functional)
                          for base in cls.__bases__)
    return cls


def _is_functional_call(args, kwargs):
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or (
        "inputs" in kwargs and "outputs" in kwargs)


@keras_export(["kerasmini.Model", "kerasmini.models.Model"])
class Model(Trainer, Layer):
    """A trainable network of layers: a :class:`~kerasmini.Layer` that is also
    a :class:`~kerasmini.trainers.trainer.Trainer` (``compile``, ``fit``...).

    Use it three ways: ``Model(inputs, outputs)`` (functional), a subclass
    that creates layers in ``__init__`` and uses them in ``call``, or
    :class:`~kerasmini.Sequential`.

    Args:
        name: default ``functional`` for ``Model(inputs, outputs)``, else the
            snake-case class name (``my_model``), uniquified.
        trainable: whether the weights are trainable.

    >>> from kerasmini.layers import Dense
    >>> class TwoLayers(Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = Dense(4)
    ...         self.head = Dense(1)
    ...     def call(self, x):
    ...         return self.head(self.hidden(x))
    >>> model = TwoLayers()
    >>> import numpy as np
    >>> model(np.array([[1.0, 2.0, 3.0]])).shape, model.count_params()
    ((1, 1), 21)
    """

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            functional = _functional_class()
            return functional.__new__(functional)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if _is_functional_call(args, kwargs):
            # A subclass whose __init__ calls super().__init__(inputs=...,
            # outputs=...): its class becomes a Functional subclass (Keras's
            # `inject_functional_model_class`) and the instance a graph model.
            functional = _functional_class()
            if not isinstance(self, functional):
                _inject_functional_model_class(type(self), functional)
            functional.__init__(self, *args, **kwargs)
            return
        if args:
            raise ValueError(
                f"`{type(self).__name__}.__init__` takes keyword arguments only "
                "(or `inputs` and `outputs` for a functional model). "
                f"Received: args={args}"
            )
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        if name is None and type(self).__name__ in ("Functional", "Model"):
            name = auto_name("Functional")
        Layer.__init__(self, trainable=trainable, name=name, **kwargs)
        Trainer.__init__(self)  # what compile and fit fill in

    def _convert_input(self, x):
        # a model with text inputs (a `keras.Input(dtype="string")`, or a
        # StringLookup or TextVectorization among its layers) passes text on
        if validation.is_text(x):
            if self._has_text_inputs():
                return x
            raise ValueError(
                "Inputs to a layer should be tensors of numbers: model "
                f"'{self.name}' has no `keras.Input(dtype=\"string\")` and no layer "
                "that reads strings (StringLookup, TextVectorization). Received: "
                f"an array of strings of shape {tuple(x.shape)}"
            )
        return super()._convert_input(x)

    def _has_text_inputs(self):
        inputs = getattr(self, "inputs", None) or []
        return any(getattr(t, "dtype", None) == "string" for t in inputs) or any(
            getattr(layer, "_takes_text", False) for layer in self._flatten_layers())

    def _obj_type(self):
        return "Model"

    _BOOKKEEPING = None

    @staticmethod
    def _bookkeeping_attributes():
        """Attributes every model has: bookkeeping, not state, so saving
        skips them (all of a bare Model's but its optimizer, and the graph
        records of Functional and Sequential)."""
        if Model._BOOKKEEPING is None:
            bare = set(vars(Model(name="_bookkeeping_reference"))) - {"optimizer"}
            Model._BOOKKEEPING = frozenset(bare | {
                "_stack", "_graph_layers", "_input_layers", "_output_layers",
                "_network_nodes", "_nodes_by_depth", "_layers_by_depth",
                "_inputs_struct", "_outputs_struct", "inputs", "outputs",
                "_input_coordinates", "_output_coordinates", "_graph_ready"})
        return Model._BOOKKEEPING

    # ------------------------------------------------------------ structure
    @property
    def layers(self):
        """The model's direct sub-layers."""
        return self._layers

    def get_layer(self, name=None, index=None):
        """Find a layer by ``name`` or by ``index`` in :attr:`layers`.

        >>> from kerasmini import Sequential, layers
        >>> m = Sequential([layers.Dense(2, name="hidden")])
        >>> m.get_layer("hidden").name, m.get_layer(index=0).name
        ('hidden', 'hidden')
        """
        if index is not None and name is not None:
            raise ValueError(
                "Provide only a layer name or a layer index. Received: "
                f"index={index}, name={name}."
            )
        if index is not None:
            if not -len(self.layers) <= index < len(self.layers):
                raise ValueError(
                    f"Was asked to retrieve layer at index {index} but model only "
                    f"has {len(self.layers)} layers."
                )
            return self.layers[index]
        if name is not None:
            found = [layer for layer in self.layers if layer.name == name]
            if found:
                return found[0]
            raise ValueError(
                f"No such layer: {name}. Existing layers are: "
                f"{[layer.name for layer in self.layers]}."
            )
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def build(self, input_shape):
        """Build the model's layers for ``input_shape`` (a dry run of ``call``)."""
        with name_scope(self.name, caller=self):
            super().build(input_shape)
        self._build_input_shape = input_shape

    def summary(self, line_length=None, positions=None, print_fn=None,
                expand_nested=False, show_trainable=False):
        """Print a table of the layers, output shapes and parameter counts.

        See :func:`kerasmini.utils.summary.print_summary`.
        """
        print_summary(self, line_length=line_length, positions=positions,
                      print_fn=print_fn, show_trainable=show_trainable)

    # ----------------------------------------------------------------- saving
    # The work lives in kerasmini.saving; Model only forwards, as Keras does
    # (its archive floor loads on the first save or load, not at import).
    def save(self, filepath, overwrite=True, **kwargs):
        """Save architecture, weights, compile config and optimizer state to
        a ``.keras`` archive (see :func:`kerasmini.saving.save_model`)."""
        return saving.save_model(self, filepath, overwrite=overwrite, **kwargs)

    def save_weights(self, filepath, overwrite=True):
        """Save only the weights, to ``*.weights.h5`` or ``*.weights.npz``."""
        return saving.save_weights(self, filepath, overwrite=overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        """Load weights saved by :meth:`save_weights` (or inside a ``.keras``)."""
        return saving.load_weights(self, filepath, skip_mismatch=skip_mismatch)

    def export(self, filepath, format="tf_saved_model", verbose=None, **kwargs):
        """Keras exports a TensorFlow SavedModel, ONNX or OpenVINO artifact for
        serving; each needs that framework's graph, which a NumPy clone has
        not: kerasmini refuses with a clear error. Use :meth:`save`.

        >>> Model().export("serving")
        Traceback (most recent call last):
          ...
        NotImplementedError: `Model.export(format='tf_saved_model')` writes ...
        """
        raise NotImplementedError(
            f"`Model.export(format={format!r})` writes a TensorFlow SavedModel "
            "(or ONNX/OpenVINO) artifact, which needs that framework: kerasmini is "
            "NumPy-only and cannot export. Save a `.keras` archive with "
            f"`model.save(...)` instead. Received: filepath={filepath!r}")

    def to_json(self, **kwargs):
        """The model's architecture (no weights) as JSON text, the
        ``config.json`` of a ``.keras`` archive; ``kwargs`` go to
        ``json.dumps``. See :func:`kerasmini.models.model_from_json`."""
        return saving.model_to_json(self, **kwargs)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Recreate a model: a graph config (``layers``, ``input_layers``,
        ``output_layers``) becomes a Functional model; any other config is
        passed to the constructor (a subclassed model's ``get_config``)."""
        from kerasmini.models.functional import (
            _functional_like_constructor,
            functional_from_config,
        )

        graph_keys = ("name", "layers", "input_layers", "output_layers")
        if all(key in config for key in graph_keys) and (
                cls is Model or _functional_like_constructor(cls)):
            return functional_from_config(cls, config, custom_objects)
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = serialization.deserialize_keras_object(config["dtype"])
        try:
            return cls(**config)
        except TypeError as error:
            raise TypeError(
                "Unable to revive model from config. When overriding the "
                "`get_config()` method, make sure that the returned config contains "
                f"all items used as arguments in the constructor to {cls}, which is "
                f"the default behavior. Received: config={config}. Error: {error}"
            ) from error

