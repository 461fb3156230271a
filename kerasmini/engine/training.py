"""``Model``: a layer that also knows how to train, evaluate and predict.

``Model`` adds to ``Layer`` what a whole network needs: a list of its
``layers``, ``get_layer``, ``summary`` and (in the training chapters)
``compile``/``fit``/``evaluate``/``predict``. Calling ``Model(inputs,
outputs)`` does not make a plain Model: ``__new__`` hands back a
:class:`~kerasmini.engine.functional.Functional`, as Keras does, so
subclassing ``Model`` and the functional API share one entry point.

>>> from kerasmini.backend import clear_session
>>> from kerasmini.engine.input_layer import Input
>>> from kerasmini.layers import Dense
>>> clear_session()
>>> x = Input(shape=(3,))
>>> type(Model(x, Dense(1)(x))).__name__
'Functional'
"""

from kerasmini.api_export import keras_export
from kerasmini.backend.naming import name_scope
from kerasmini.engine.base_layer import Layer


def _is_functional_call(args, kwargs):
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or (
        "inputs" in kwargs and "outputs" in kwargs)


@keras_export(["kerasmini.Model", "kerasmini.models.Model"])
class Model(Layer):
    """A trainable network of layers.

    Use it three ways: ``Model(inputs, outputs)`` (functional), a subclass
    that creates layers in ``__init__`` and uses them in ``call``, or
    :class:`~kerasmini.Sequential`.

    Args:
        name: default ``functional`` for ``Model(inputs, outputs)``, else the
            snake-case class name (``my_model``), uniquified.
        trainable: whether the weights are trainable.
    """

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            from kerasmini.engine.functional import Functional

            return Functional.__new__(Functional)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise ValueError(
                f"`{type(self).__name__}.__init__` got `inputs`/`outputs` but "
                "kerasmini only builds functional models through "
                "`Model(inputs, outputs)` or `Functional(inputs, outputs)`. "
                f"Received: args={args}, kwargs={sorted(kwargs)}"
            )
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        if name is None and type(self).__name__ in ("Functional", "Model"):
            from kerasmini.backend.naming import auto_name

            name = auto_name("Functional")
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._init_training_state()

    def _init_training_state(self):
        """Attributes that compile/fit fill in (see the training chapters)."""
        self.optimizer = None
        self.compiled = False
        self.stop_training = False
        self.history = None

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
            for layer in self.layers:
                if layer.name == name:
                    return layer
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
        from kerasmini.utils.summary import print_summary

        print_summary(self, line_length=line_length, positions=positions,
                      print_fn=print_fn, show_trainable=show_trainable)

    # ----------------------------------------------------------------- saving
    # The work lives in kerasmini.saving; Model only forwards, as Keras does.
    def save(self, filepath, overwrite=True, **kwargs):
        """Save architecture, weights, compile config and optimizer state to
        a ``.keras`` archive (see :func:`kerasmini.saving.save_model`)."""
        from kerasmini.saving import saving_api

        return saving_api.save_model(self, filepath, overwrite=overwrite, **kwargs)

    def save_weights(self, filepath, overwrite=True):
        """Save only the weights, to ``*.weights.h5`` or ``*.weights.npz``."""
        from kerasmini.saving import saving_api

        return saving_api.save_weights(self, filepath, overwrite=overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        """Load weights saved by :meth:`save_weights` (or inside a ``.keras``)."""
        from kerasmini.saving import saving_api

        return saving_api.load_weights(self, filepath, skip_mismatch=skip_mismatch)
