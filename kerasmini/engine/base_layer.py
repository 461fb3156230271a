"""``Layer``: state (weights) plus computation (``call``), built lazily.

The life of a layer, which the book walks one step at a time:

1. ``__init__`` stores configuration only: no weights yet, because the
   input size is unknown;
2. the first ``__call__`` runs ``_maybe_build``: it checks ``input_spec``,
   reads the input shape and calls ``build(input_shape)`` once, inside the
   layer's name scope, where ``add_weight`` creates the variables;
3. every call then runs ``call`` in one of three modes: **eager** (arrays in,
   arrays out), **symbolic** (KerasTensors in: infer the output and record a
   :class:`~kerasmini.ops.node.Node`) or **graph** (inside
   :func:`kerasmini.function`, where ops are traced).

>>> import numpy as np
>>> from kerasmini import ops
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> class Scale(Layer):
...     def build(self, input_shape):
...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")
...     def call(self, x):
...         return ops.multiply(x, self.w)
>>> layer = Scale()
>>> layer(np.ones((2, 3))).shape, layer.w.path
((2, 3), 'scale/variable')
"""

import contextlib
import inspect

import numpy as np

from kerasmini import constraints, dtype_policies, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.backend.autocast import AutocastScope, get_autocast_scope
from kerasmini.backend.core import STATE
from kerasmini.backend.keras_tensor import KerasTensor, any_symbolic, is_keras_tensor
from kerasmini.backend.masking import get_keras_mask, set_keras_mask
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.backend.variables import Variable
from kerasmini.engine import call_context
from kerasmini.engine.base_layer_utils import (
    _build_wrapper,
    _dedup,
    batch_input_shape,
    build_shapes_by_name,
    call_arguments,
    check_get_config,
    direct_sublayers,
    populate_mask,
    set_mask_metadata,
    weight_arguments,
)
from kerasmini.engine.input_spec import assert_input_compatibility
from kerasmini.engine.module import Module
from kerasmini.engine.shape_inference import (
    dry_run,
    spec_from_output_shape,
    symbolic_call_spec,
    to_shape,
)
from kerasmini.ops.node import Node
from kerasmini.ops.operation import Operation, in_symbolic_scope
from kerasmini.random.seed_generator import SeedGenerator
from kerasmini.saving import serialization
from kerasmini.tree import flatten, map_shape_structure, map_structure

_ALLOWED_KWARGS = {"input_shape", "input_dim", "batch_input_shape", "batch_size",
                   "weights", "activity_regularizer", "autocast"}

_FORGOT_SUPER = (
    "In layer '{cls}', you forgot to call `super().__init__()` as the first "
    "statement in the `__init__()` method. Go add it!"
)


@keras_export(["kerasmini.Layer", "kerasmini.layers.Layer"])
class Layer(Module, Operation):
    """The base class of all layers (and, through ``Model``, of all models).

    A layer is a ``Module`` (Keras 2's chain: ``tf.Module`` -> ``Layer``) and
    an :class:`~kerasmini.ops.operation.Operation` (Keras 3's: ``Operation``
    -> ``Layer``): it owns weights and can be called on values or on
    KerasTensors.

    Args:
        trainable: whether the layer's weights are updated by training.
        name: unique auto name (``dense``, ``dense_1``...) if omitted.
        dtype: the dtype of the weights and computations (default floatx):
            a name, or the ``DTypePolicy`` dict that ``get_config`` writes.
        **kwargs: ``input_shape``/``input_dim``/``batch_input_shape`` and
            ``batch_size``, which a ``Sequential`` model reads from its first
            layer. Anything else is an error.

    >>> Layer(name="my_layer", input_shape=(3,))._batch_input_shape
    (None, 3)
    """

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        object.__setattr__(self, "_layer_initialized", True)
        validation.check_layer_arguments(type(self).__name__, name, trainable,
                                         kwargs, _ALLOWED_KWARGS)
        name = name or auto_name(type(self).__name__)  # dense, dense_1, ...
        Module.__init__(self, name=name)  # Keras 2's root, tf.Module: the name
        Operation.__init__(self, name=name)  # Keras 3's root: its node lists
        self._trainable = trainable
        # a dtype name, a DTypePolicy or the dict get_config writes (Keras 3's
        # `dtype_policies.get`), so that `Dense(**Dense(2).get_config())` works
        self._dtype_policy = dtype_policies.get(dtype)  # compute, variable dtypes
        self.autocast = kwargs.get("autocast", True)
        self.built = False
        self.input_spec = None
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._losses = []
        self._build_input_shape = None
        self._build_shapes_dict = None  # build(query_shape, value_shape, ...)
        self._initial_weights = kwargs.get("weights")
        self.activity_regularizer = None
        if kwargs.get("activity_regularizer") is not None:
            self.activity_regularizer = regularizers.get(kwargs["activity_regularizer"])
        # what a Sequential model reads from its first layer
        self._batch_input_shape = batch_input_shape(kwargs, type(self).__name__)
        # what `call` accepts: `training` (and its default), `mask`
        (self._call_has_training_arg, self._default_training,
         self._call_has_mask_arg) = call_arguments(self.call)
        # a layer that computes a mask supports masking (Keras 2 and 3)
        self._supports_masking = type(self).compute_mask is not Layer.compute_mask

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = _build_wrapper(cls.__dict__["build"])

    # ------------------------------------------------------------ tracking
    def __setattr__(self, name, value):
        if not getattr(self, "_layer_initialized", False) and name != "_name":
            raise RuntimeError(_FORGOT_SUPER.format(cls=type(self).__name__))
        # a Variable made by hand and assigned to the layer is one of its
        # weights, as if add_weight had made it (Keras 3's tracker does this)
        if isinstance(value, Variable) and "_trainable_weights" in vars(self) and \
                not any(value is w for w in self._trainable_weights +
                        self._non_trainable_weights):
            self._track_variable(value)
        object.__setattr__(self, name, value)

    def _flatten_layers(self, include_self=True, recursive=True):
        """Yield this layer and the layers found in its attributes, depth
        first, in the order the attributes were set (each layer once)."""
        seen = set()
        stack = [self]
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            if layer is not self or include_self:
                yield layer
            if layer is self or recursive:
                stack.extend(reversed(direct_sublayers(layer, Layer)))

    @property
    def _layers(self):
        """Direct sub-layers, in attribute order."""
        return list(self._flatten_layers(include_self=False, recursive=False))

    # -------------------------------------------------------------- weights
    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Freeze or unfreeze this layer and all its sub-layers."""
        for layer in self._flatten_layers():
            layer._trainable = bool(value)
            for v in layer._trainable_weights:
                v.trainable = bool(value)

    @property
    def dtype_policy(self):
        """The layer's :class:`~kerasmini.dtype_policies.DTypePolicy`."""
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._dtype_policy = dtype_policies.get(value)

    dtype = property(lambda self: self._dtype_policy.variable_dtype,
                     doc="The weights' dtype (Keras 3: alias of variable_dtype).")
    variable_dtype = property(lambda self: self._dtype_policy.variable_dtype,
                              doc="The dtype the weights are created in.")
    compute_dtype = property(lambda self: self._dtype_policy.compute_dtype,
                             doc="The dtype of the inputs, the maths, the outputs.")

    @property
    def weights(self):
        """All weights: this layer's own (trainable ones first, in creation
        order), then each sub-layer's, each once. Freezing a layer does not
        reorder them (Keras 3; Keras 2 listed all trainable weights first)."""
        weights = list(self._trainable_weights) + list(self._non_trainable_weights)
        for layer in self._layers:
            weights += layer.weights
        return _dedup(weights)

    @property
    def trainable_weights(self):
        """The weights the optimizer updates: ``[]`` if the layer is frozen."""
        if not self.trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self):
        """The other weights: all of them if the layer is frozen."""
        if not self.trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    @property
    def variables(self):
        r"""All state: the weights, then the random seeds of the layer's
        ``SeedGenerator``\ s (Keras 3: seeds are variables, not weights)."""
        return self.weights + self._seed_states()

    trainable_variables = property(lambda self: self.trainable_weights)

    @property
    def non_trainable_variables(self):
        """The non-trainable weights and the seed states."""
        return self.non_trainable_weights + self._seed_states()

    def _seed_states(self):
        return _dedup([value.state for layer in self._flatten_layers()
                       for value in vars(layer).values()
                       if isinstance(value, SeedGenerator)])

    def add_weight(self, *args, shape=None, initializer=None, dtype=None,
                   trainable=True, autocast=True, regularizer=None, constraint=None,
                   name=None):
        """Create a weight variable and track it on this layer.

        Called from ``build``. The variable is created inside the layer's name
        scope, so its ``path`` is ``<layer name>/<name>``.

        Args:
            shape: the variable's shape (default ``()``). A first positional
                argument is taken as the name if it is a string (Keras 2
                order), else as the shape (Keras 3 order).
            initializer: name, object or callable; default
                ``"glorot_uniform"`` for floats and ``"zeros"`` otherwise.
            dtype: default: the layer's dtype.
            trainable: trainable (updated by optimizers) or not.
            autocast: read in the compute dtype in a mixed-precision ``call``.
            regularizer: adds a penalty on the weight to ``layer.losses``.
            constraint: applied after each optimizer update.
            name: the last part of the variable's path.

        Returns:
            The new :class:`~kerasmini.backend.Variable`.
        """
        shape, name = weight_arguments(args, shape, name)
        shape = validation.weight_shape(shape, self.name, name)
        dtype = config.standardize_dtype(dtype or self.dtype)
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dtype else "zeros"
        initializer = initializers.get(initializer)
        with name_scope(self.name, caller=self):
            variable = Variable(initializer, shape=shape, dtype=dtype,
                                trainable=trainable, name=name)
        variable.regularizer = regularizers.get(regularizer)
        variable.constraint = constraints.get(constraint)
        variable.autocast = bool(autocast)
        self._track_variable(variable)
        return variable

    add_variable = add_weight

    def _track_variable(self, variable):
        if variable.trainable and self.trainable:
            self._trainable_weights.append(variable)
        else:
            if variable.trainable:  # created while frozen
                self._trainable_weights.append(variable)
                variable.trainable = False
            else:
                self._non_trainable_weights.append(variable)

    def get_weights(self):
        """The weights' values as a list of NumPy arrays.

        >>> from kerasmini.layers import Dense
        >>> d = Dense(2, name="d"); d.build((None, 3)); [w.shape for w in d.get_weights()]
        [(3, 2), (2,)]
        """
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Set the weights from a list of arrays, checking count and shapes.

        >>> from kerasmini.layers import Dense
        >>> d = Dense(2, name="d"); d.build((None, 3))
        >>> d.set_weights([np.zeros((3, 3)), np.zeros(2)])
        Traceback (most recent call last):
          ...
        ValueError: Layer d weight shape (3, 2) is not compatible with provided weight shape (3, 3).
        """
        own = self.weights
        for variable, value in zip(own, validation.weight_values(weights, own,
                                                                  self.name)):
            variable.assign(value)

    def count_params(self) -> int:
        """The number of scalars in all weights (the layer must be built).

        >>> from kerasmini.layers import Dense
        >>> d = Dense(4, name="d"); d.build((None, 3)); d.count_params()
        16
        """
        if not self.built:
            raise ValueError(
                f"You tried to call `count_params` on layer '{self.name}', but the "
                "layer isn't built. You can build it manually via: "
                f"`{self.name}.build(batch_input_shape)`."
            )
        return int(sum(int(np.prod(w.shape)) for w in self.weights))

    # --------------------------------------------------------------- losses
    def add_loss(self, loss):
        """Add a scalar loss (e.g. an activity penalty) during ``call``.

        While an output shape is being worked out (a symbolic call or a dry
        run) there is no loss to keep, so nothing is added (Keras 3 too).
        """
        if in_symbolic_scope() or STATE.symbolic or any_symbolic(loss):
            return
        self._losses.append(loss)

    @property
    def losses(self):
        """Losses added in the last call plus weight-regularization penalties."""
        collected = []
        for layer in self._flatten_layers():
            collected += layer._losses
        for w in self.weights:
            if w.regularizer is not None:
                collected.append(w.regularizer(w))
        return collected

    def _clear_losses(self):
        for layer in self._flatten_layers():
            layer._losses = []

    # --------------------------------------------------------- the contract
    def build(self, input_shape):
        """Create the weights, once the input shape is known.

        The default builds sub-layers that are still unbuilt by a dry run of
        ``call`` on zeros of ``input_shape``; override it to call
        ``add_weight``.
        """
        unbuilt = [layer for layer in self._flatten_layers(include_self=False)
                   if not layer.built]
        if unbuilt and input_shape is not None:
            with call_context.scope(self, training=False):
                dry_run(self, input_shape, self.dtype)
        self.built = True

    def _build_at_init(self):
        """Mark the layer built now if it has nothing to build.

        Keras 3 calls this at the end of ``__init__`` in the layers whose
        ``build`` is the default and who own no weights (pooling, dropout,
        activation, masking): they are built from the start, so ``summary``
        never calls them unbuilt and their saved config has no
        ``build_config`` (they are never built from a shape).

        >>> from kerasmini.layers import Dropout, Dense
        >>> Dropout(0.5).built, Dense(2).built
        (True, False)

        A subclass that overrides ``build`` is not marked: its ``build`` must
        still run.

        >>> class Noisy(Dropout):
        ...     def build(self, input_shape):
        ...         self.scale = self.add_weight(shape=(), initializer="ones")
        >>> Noisy(0.5).built
        False
        """
        if type(self).build is Layer.build:
            self.built = True

    def call(self, inputs, *args, **kwargs):
        """The computation. The base layer returns its inputs unchanged."""
        return inputs

    @property
    def supports_masking(self) -> bool:
        """Whether the layer passes a mask on (through :meth:`compute_mask`).

        A layer that does not support masking drops the mask of its input,
        with a warning, as Keras 3 does (Keras 2 raised a ``TypeError``).
        """
        return self._supports_masking

    @supports_masking.setter
    def supports_masking(self, value):
        self._supports_masking = bool(value)

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs, given the inputs and their ``mask``.

        The default passes the input mask on unchanged (used only when
        :attr:`supports_masking` is true). Keras 3 names the second argument
        ``previous_mask``; it is passed positionally.

        >>> layer = Layer(name="l"); layer.supports_masking = True
        >>> layer.compute_mask(np.ones((1, 2)), np.array([[True, False]]))
        array([[ True, False]])
        """
        return mask

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape``; by default found by a
        symbolic call of ``call`` (see :meth:`compute_output_spec`)."""
        spec = self.compute_output_spec(
            map_shape_structure(lambda s: KerasTensor(s, self.compute_dtype),
                                input_shape))
        return map_structure(lambda kt: kt.shape, spec)

    def compute_output_spec(self, *args, **kwargs):
        """Output KerasTensor(s) for symbolic ``args``: from
        ``compute_output_shape`` if a subclass overrides it, else by running
        ``call`` on the KerasTensors (a dry run on zeros if ``call`` uses
        NumPy itself): :mod:`kerasmini.engine.shape_inference`."""
        if type(self).compute_output_shape is not Layer.compute_output_shape:
            return spec_from_output_shape(self, args[0])
        return symbolic_call_spec(self, args, kwargs)

    # ---------------------------------------------------------- __call__
    # The steps carry Keras 3's numbers (keras/src/layers/layer.py); the
    # chapter on `__call__` walks them one banner at a time.
    def __call__(self, *args, **kwargs):
        self._check_super_called()
        # 1. Convert array arguments to tensors of the layer's dtype.
        inputs, rest, kwargs = self._split_inputs(args, kwargs)
        symbolic = any_symbolic(inputs, rest, kwargs)
        if not symbolic:
            inputs = self._convert_inputs(inputs)
        # 2. Enforce that only tensors are passed positionally.
        self._check_positional_args(rest)
        # 3. Check the input spec of the first positional argument.
        assert_input_compatibility(self.input_spec, inputs, self.name)
        # 4. Call build (once).
        self._maybe_build(inputs, *rest, **kwargs)
        # 5. Infer the training value: explicit, outer call's, or call's default.
        training_passed = kwargs.get("training") is not None
        training = self._resolve_training(kwargs)
        with call_context.scope(self, training) as ctx:
            if ctx.entry_layer is self and not symbolic:
                self._clear_losses()  # the outermost call starts afresh
            # 6. Populate mask arguments: the mask the inputs carry.
            previous_mask, mask_filled = populate_mask(self, inputs, rest, kwargs)
            # 7. Call the layer: infer the output (symbolic) or compute it.
            outputs = self._call_layer(inputs, rest, kwargs, symbolic)
            outputs = set_mask_metadata(self, inputs, outputs, previous_mask)
        # 8. Add a node in the graph for symbolic calls.
        if symbolic:
            for name in mask_filled:  # found again on the inputs when the graph runs
                kwargs.pop(name)
            self._record_node(inputs, rest, kwargs, training_passed, outputs)
        return outputs

    def _check_super_called(self):
        if not getattr(self, "_layer_initialized", False):
            raise RuntimeError(_FORGOT_SUPER.format(cls=type(self).__name__))

    def _split_inputs(self, args, kwargs):
        """``(inputs, other positional args, kwargs)``: the first argument of
        ``call`` may be passed by keyword, but it must be passed."""
        if not args:
            first = next(iter(inspect.signature(self.call).parameters), None)
            if first not in kwargs:
                raise ValueError(
                    "The first argument to `Layer.call` must always be passed. "
                    f"Layer '{self.name}' received no inputs."
                )
            kwargs = dict(kwargs)
            args = (kwargs.pop(first),)
        return args[0], args[1:], kwargs

    def _convert_inputs(self, inputs):
        # tensors of numbers: no None, no Python number, nothing empty
        inputs = validation.check_layer_inputs(inputs, self.name)
        return map_structure(self._convert_input, inputs)

    _check_positional_args = staticmethod(validation.check_positional_args)

    def _resolve_training(self, kwargs):
        """Pop ``training`` from ``kwargs``, resolve it, and put it back only
        if ``call`` accepts it; returns the resolved value."""
        training = kwargs.pop("training", None)
        outer = call_context.current()
        if training is None and outer is not None:
            training = outer.training
        if training is None:
            training = self._default_training
        if self._call_has_training_arg and training is not None:
            kwargs["training"] = training
        return training

    def _call_layer(self, inputs, rest, kwargs, symbolic):
        if symbolic and self.autocast:  # the spec of float inputs autocast
            inputs = map_structure(self._autocast_spec, inputs)
        with name_scope(self.name, caller=self), self._autocast_scope():
            # Operation.__call__: `call` on values, `symbolic_call` (the output
            # spec) on KerasTensors, as Keras 3's Layer calls through it
            outputs = super().__call__(inputs, *rest, **kwargs)
        if symbolic:
            return outputs
        if outputs is None:
            raise ValueError(
                "A layer's `call` method should return a Tensor or a list of "
                f"Tensors, not None (layer: {self.name})."
            )
        validation.check_layer_outputs(outputs, self)  # no strings, no objects
        if self.activity_regularizer is not None:
            for out in flatten(outputs):  # a penalty per sample, as Keras does
                self.add_loss(ops.divide(self.activity_regularizer(out),
                                         float(np.shape(out)[0] or 1)))
        return outputs

    def _autocast_spec(self, x):
        compute = self.compute_dtype
        if is_keras_tensor(x) and x.dtype != compute and \
                str(x.dtype).startswith("float") and compute.startswith("float"):
            return KerasTensor(x.shape, compute)
        return x

    def _autocast_scope(self):
        """Mixed precision (Keras 3's rule): a layer whose compute and variable
        dtypes differ reads its float weights in the compute dtype; a layer
        inside such a call reads them in its own compute dtype, or as they
        are if it does not autocast or does not compute in floats."""
        outer = get_autocast_scope()
        compute = self.compute_dtype
        if outer is not None:
            if not self.autocast or not compute.startswith("float"):
                return AutocastScope(None)
            if outer.dtype != compute:
                return AutocastScope(compute)
        elif compute != self.variable_dtype and compute.startswith("float"):
            return AutocastScope(compute)
        return contextlib.nullcontext()

    def symbolic_call(self, *args, **kwargs):
        """The output spec only: the layer's Node is recorded at the end of
        ``__call__`` (step 8), with the arguments the caller passed."""
        return self.compute_output_spec(*args, **kwargs)

    def _record_node(self, inputs, rest, kwargs, training_passed, outputs):
        if in_symbolic_scope():
            return  # working out a shape: the outer layer records the call
        # The Node keeps only what the caller passed: a `training` the
        # framework filled in must be resolved afresh when the graph runs (so
        # `model(x, training=True)` reaches this layer).
        node_kwargs = dict(kwargs)
        if not training_passed:
            node_kwargs.pop("training", None)
        Node(self, call_args=(inputs,) + tuple(rest), call_kwargs=node_kwargs,
             outputs=outputs)

    def _convert_input(self, x):
        converted = validation.layer_input_value(x, self.name)  # numbers only
        if converted is None or is_keras_tensor(converted):
            return converted
        dtype = np.dtype(converted.dtype).name
        compute = self.compute_dtype
        if self.autocast and dtype.startswith("float") and dtype != compute \
                and compute.startswith("float"):
            converted = ops.cast(converted, compute)  # floats to the layer's
        if converted is not x and get_keras_mask(x) is not None:
            set_keras_mask(converted, get_keras_mask(x))  # keep it (Keras too)
        return converted

    def _maybe_build(self, inputs, *args, **kwargs):
        """Call ``build`` with the input shape(s), once.

        ``build(input_shape)`` receives the shape of the first argument (a
        list of shapes for a list of inputs); a ``build`` of several shapes,
        ``build(query_shape, value_shape)``, receives the shape of each tensor
        passed to ``call`` as ``query``, ``value``, ... (Keras 3's rule).
        """
        if self.built:
            return
        shapes = map_structure(lambda x: tuple(x.shape), inputs)
        shapes_by_name = build_shapes_by_name(self, inputs, args, kwargs)
        with name_scope(self.name, caller=self):
            if shapes_by_name is None:
                self.build(shapes)
            else:
                self.build(**shapes_by_name)
        self.built = True
        self._build_input_shape = shapes
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    # ---------------------------------------------------- serialization
    def get_config(self):
        """The constructor arguments that recreate this layer.

        The base layer knows ``name``, ``trainable`` and ``dtype`` (written as
        Keras 3's ``DTypePolicy`` dict); a subclass whose ``__init__`` takes
        more arguments must add them (``config.update(...)``).

        >>> Layer(name="l").get_config()["dtype"]["config"]
        {'name': 'float32'}
        """
        if type(self).get_config is Layer.get_config:
            check_get_config(self)  # a subclass with more arguments must write it
        config_ = {"name": self.name, "trainable": self.trainable,
                   "dtype": dtype_policies.serialize(self.dtype_policy)}
        if type(self).__init__ is Layer.__init__:
            # no constructor of its own: Keras 3 writes the base constructor's
            # arguments with their values (Operation's automatic config)
            config_ = {"name": self.name, "activity_regularizer": None,
                       **config_, "autocast": self.autocast}
        if self.activity_regularizer is not None:
            config_["activity_regularizer"] = regularizers.serialize(
                self.activity_regularizer)
        return config_

    @classmethod
    def from_config(cls, config_):
        """Create a layer from :meth:`get_config`'s output.

        >>> from kerasmini.layers import Dense
        >>> Dense.from_config(Dense(3, name="d").get_config()).units
        3
        """
        config_ = dict(config_)
        if isinstance(config_.get("dtype"), dict):
            config_["dtype"] = serialization.deserialize_keras_object(config_["dtype"])
        return cls(**config_)

    def get_build_config(self):
        """What :meth:`build_from_config` needs to recreate the weights: the
        input shape the layer was built with (``None`` if never built)."""
        if self.built and self._build_shapes_dict:
            if len(self._build_shapes_dict) == 1:  # one shape: Keras writes it plainly
                return {"input_shape": next(iter(self._build_shapes_dict.values()))}
            return {"shapes_dict": self._build_shapes_dict}
        if self.built and self._build_input_shape is not None:
            return {"input_shape": self._build_input_shape}
        return None

    def build_from_config(self, config_):
        """Build from :meth:`get_build_config`'s output (JSON lists become
        shape tuples), so the weights exist before they are loaded."""
        if config_ and config_.get("input_shape") is not None:
            self.build(to_shape(config_["input_shape"]))
        elif config_ and config_.get("shapes_dict"):
            self.build(**{k: to_shape(v) for k, v in config_["shapes_dict"].items()})

    def save_own_variables(self, store):
        """Write this layer's own weights into ``store`` as ``"0"``, ``"1"``, ...
        (trainable first, then non-trainable, in creation order), Keras 3's
        layout inside ``model.weights.h5``."""
        for i, variable in enumerate(self._trainable_weights +
                                     self._non_trainable_weights):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Assign the weights :meth:`save_own_variables` wrote, after checking
        their number and shapes (nothing is assigned if one does not fit)."""
        own = self._trainable_weights + self._non_trainable_weights
        validation.check_stored_variables(store, own, self.name)
        for i, variable in enumerate(own):
            variable.assign(store[str(i)])

    def _obj_type(self):
        """What saving and plot_model see: Keras 3's ``_obj_type``."""
        return "Layer"

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

