"""``Optimizer``: turns gradients into variable updates.

The base class owns what every optimizer shares: the step counter
``iterations``, the ``learning_rate`` (a non-trainable variable, or a schedule
evaluated on ``iterations``), the slot variables created lazily by ``build``
on the first :meth:`Optimizer.apply_gradients`, gradient clipping, weight
decay and constraints. A subclass writes only ``build`` (its slots) and
``update_step(gradient, variable, learning_rate)`` (its formula), as in
Keras 3's ``keras/src/optimizers/base_optimizer.py``.

Every update is written with ``kerasmini.ops`` and ``Variable.assign*``, so inside
:func:`kerasmini.function` (as in ``fit``) the whole update is traced once and
replayed; the learning rate is read from its variable at replay time, so a
callback that changes it is seen by the next batch. An optimizer may also
offer a fused kernel for its whole update (:meth:`Optimizer.fused_update_step`,
Adam does): the compiled replay of a traced step runs it in place of the
recorded ``update_step`` ops, with the same numbers.

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> from kerasmini.optimizers import SGD
>>> w = Variable([1.0, 2.0], name="w")
>>> opt = SGD(learning_rate=0.1)
>>> _ = opt.apply_gradients([(np.array([1.0, -1.0], "float32"), w)])
>>> w.numpy(), int(opt.iterations.numpy())
(array([0.9, 2.1], dtype=float32), 1)
"""

import warnings

import numpy as np

from kerasmini import initializers, ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.backend.graph import fusible
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.backend.variables import Variable
from kerasmini.optimizers.schedules import LearningRateSchedule
from kerasmini.saving import serialization


@keras_export(["kerasmini.optimizers.Optimizer", "kerasmini.Optimizer"])
class Optimizer:
    """Base class for optimizers.

    Args:
        learning_rate: a float, a :class:`LearningRateSchedule`, or a callable
            taking no arguments.
        weight_decay: if set, every step also shrinks each variable by
            ``variable * weight_decay * learning_rate`` (decoupled decay).
        clipnorm: clip each gradient to this L2 norm.
        clipvalue: clip each gradient's values into ``[-clipvalue, clipvalue]``.
        global_clipnorm: clip all gradients together to this global norm.
        name: default: the snake-case class name, uniquified (``adam``).

    >>> import numpy as np
    >>> class SignDescent(Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(ops.multiply(ops.sign(gradient), learning_rate))
    >>> w = Variable([1.0, 1.0], name="w")
    >>> _ = SignDescent(learning_rate=0.5).apply_gradients([(np.array([3.0, -0.1], "float32"), w)])
    >>> w.numpy()
    array([0.5, 1.5], dtype=float32)
    """

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        kwargs.pop("decay", None)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        clip_args = [clipnorm, clipvalue, global_clipnorm]
        if sum(a is not None for a in clip_args) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                f"global_clipnorm={global_clipnorm}"
            )
        self.name = name or auto_name(type(self).__name__)
        self.weight_decay = self._checked(weight_decay, "weight_decay", True, low=0)
        self.clipnorm = self._checked(clipnorm, "clipnorm", True, low=0)
        self.clipvalue = self._checked(clipvalue, "clipvalue", True, low=0)
        self.global_clipnorm = self._checked(global_clipnorm, "global_clipnorm", True,
                                             low=0)
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._variable_index = {}
        with name_scope(self.name, caller=self):
            self._iterations = Variable(0, name="iteration", dtype="int64",
                                        trainable=False)
        self._variables.append(self._iterations)
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if isinstance(learning_rate, bool) or not isinstance(
                    learning_rate, (int, float, np.floating)):
                raise ValueError(
                    "Argument `learning_rate` should be float, or an instance of "
                    "LearningRateSchedule, or a callable (that takes in the current "
                    "iteration value and returns the corresponding learning rate "
                    f"value). Received instead: learning_rate={learning_rate!r}"
                )
            with name_scope(self.name, caller=self):
                self._learning_rate = Variable(float(learning_rate),
                                               name="learning_rate",
                                               dtype=config.floatx(), trainable=False)
            self._variables.append(self._learning_rate)

    def _checked(self, value, name, allow_none=False, **bounds):
        """A hyperparameter as a float (or ``None`` if allowed), or a clear
        ``ValueError``/``TypeError`` naming the optimizer and the argument."""
        if value is None and allow_none:
            return None
        return validation.check_float(value, name, owner=f"{type(self).__name__}",
                                      **bounds)

    # ----------------------------------------------------------------- state
    @property
    def iterations(self):
        """How many updates were applied (an int64 variable)."""
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate of the current step (a variable, or the schedule's
        value at ``iterations``)."""
        if isinstance(self._learning_rate, LearningRateSchedule):
            return self._learning_rate(self._iterations)
        if callable(self._learning_rate) and not isinstance(self._learning_rate,
                                                            Variable):
            return self._learning_rate()
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if not isinstance(self._learning_rate, Variable):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object "
                "(or a callable) as its `learning_rate` constructor argument, "
                "hence its learning rate is not settable. Received: "
                f"learning_rate={value!r}"
            )
        # a float, a NumPy scalar, or a variable (the guides hand the rate back)
        self._learning_rate.assign(float(np.asarray(value)))

    @property
    def variables(self):
        """``iterations``, ``learning_rate`` (if a variable), then the slots."""
        return list(self._variables)

    def build(self, var_list):
        """Remember the variables to update; subclasses add slot variables."""
        for i, variable in enumerate(var_list):
            self._variable_index[id(variable)] = i
        self._trainable_variables = list(var_list)
        self.built = True

    def add_variable(self, shape, initializer="zeros", dtype=None, name=None):
        """Create a non-trainable optimizer variable (``adam/<name>``)."""
        initializer = initializers.get(initializer)
        with name_scope(self.name, caller=self):
            variable = Variable(initializer, shape=shape, dtype=dtype,
                                trainable=False, name=name)
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None,
                                    initializer="zeros"):
        """A slot shaped like ``reference_variable``, named
        ``<path with _>_<name>`` (``dense_kernel_momentum``)."""
        name = f"{reference_variable.path.replace('/', '_')}_{name or 'var'}"
        return self.add_variable(reference_variable.shape, initializer=initializer,
                                 dtype=reference_variable.dtype, name=name)

    def add_optimizer_variables(self, trainable_variables, names, initializer="zeros"):
        """One slot per variable for each of ``names``; returns one list per
        name (or a single list for a single name)."""
        single = isinstance(names, str)
        names = [names] if single else list(names)
        slots = tuple([] for _ in names)
        for variable in trainable_variables:
            for i, name in enumerate(names):
                slots[i].append(self.add_variable_from_reference(
                    variable, name=name, initializer=initializer))
        return slots[0] if single else slots

    def _get_variable_index(self, variable):
        return self._variable_index[id(variable)]

    # ---------------------------------------------------------------- update
    def apply_gradients(self, grads_and_vars):
        """Apply ``(gradient, variable)`` pairs; returns ``iterations``."""
        pairs = list(grads_and_vars)
        if not pairs:
            return self._iterations
        grads, variables = zip(*pairs)
        self.apply(list(grads), list(variables))
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Update ``trainable_variables`` with ``grads`` (built on first use)."""
        if trainable_variables is None and not self.built:
            raise ValueError(
                "When passing `grads` without `variables`, the optimizer must "
                "already be built on a list of variables. Call "
                "`optimizer.build(trainable_variables)` first."
            )
        if trainable_variables is None:
            trainable_variables = self._trainable_variables
        if not self.built:
            with name_scope(self.name, caller=self):
                self.build(list(trainable_variables))
        for variable in trainable_variables:
            if id(variable) not in self._variable_index:
                raise ValueError(
                    f"Unknown variable: {variable}. This optimizer can only be "
                    "called for the variables it was originally built with. When "
                    "working with a new set of variables, you should recreate a "
                    "new optimizer instance."
                )
        grads, trainable_variables = _filter_empty_gradients(grads, trainable_variables)
        grads = self._clip_gradients(grads)
        learning_rate = self.learning_rate
        with name_scope(self.name, caller=self):
            if self.weight_decay:
                for variable in filter(self._use_weight_decay, trainable_variables):
                    variable.assign_sub(ops.multiply(
                        variable, ops.multiply(learning_rate, self.weight_decay)))
            # a traced step may run the optimizer's fused kernel in place of
            # this loop (fusible: chapter 12); eagerly, the loop runs
            with fusible(self.fused_update_step, grads, trainable_variables,
                         learning_rate):
                for grad, variable in zip(grads, trainable_variables):
                    self.update_step(grad, variable, learning_rate)
            for variable in trainable_variables:
                if variable.constraint is not None:
                    variable.assign(variable.constraint(variable))
        self._iterations.assign_add(1)

    def update_step(self, gradient, variable, learning_rate):
        """Update one ``variable`` from its ``gradient``: the optimizer's formula."""
        raise NotImplementedError

    def fused_update_step(self, grads, trainable_variables, learning_rate):
        """A fused kernel doing ``update_step`` for every variable at once
        (a :class:`~kerasmini.backend.fast.kernels.Fused` call), which a
        traced step may run instead; ``None``: this optimizer has none."""
        return None

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Leave variables out of the weight decay (before the first update):
        those in ``var_list``, and those whose name contains one of the
        strings of ``var_names`` (``["bias", "gamma"]``).

        >>> opt = Optimizer(learning_rate=0.1, weight_decay=0.1)
        >>> opt.exclude_from_weight_decay(var_names=["bias"])
        >>> opt._use_weight_decay(Variable(1.0, name="bias"))
        False
        """
        if self.built:
            raise ValueError(
                "`exclude_from_weight_decay()` can only be configured before the "
                "optimizer is built."
            )
        self._excluded_ids = {id(v) for v in var_list or ()}
        self._excluded_names = tuple(var_names or ())

    def _use_weight_decay(self, variable):
        if id(variable) in getattr(self, "_excluded_ids", ()):
            return False
        return not any(part in variable.name
                       for part in getattr(self, "_excluded_names", ()))

    def _clip_gradients(self, grads):
        if self.clipvalue is not None:
            return [ops.clip(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.clipnorm is not None:
            return [_clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm is not None:
            norm = ops.sqrt(sum(ops.sum(ops.square(g)) for g in grads))
            scale = ops.divide(self.global_clipnorm,
                               ops.maximum(norm, self.global_clipnorm))
            return [ops.multiply(g, scale) for g in grads]
        return grads

    # ---------------------------------------------------------------- config
    def _obj_type(self):
        """What :mod:`kerasmini.saving` walks this object as (Keras 3's
        ``_obj_type``)."""
        return "Optimizer"

    def get_config(self):
        """The constructor arguments (the learning rate as a float or a
        serialized schedule)."""
        if isinstance(self._learning_rate, Variable):
            learning_rate = float(self._learning_rate.numpy())
        else:
            learning_rate = serialization.serialize_keras_object(self._learning_rate)
        return {
            "name": self.name,
            "learning_rate": learning_rate,
            "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm,
            "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue,
        }

    @classmethod
    def from_config(cls, config_):
        """Create an optimizer from :meth:`get_config`'s output."""
        config_ = dict(config_)
        if isinstance(config_.get("learning_rate"), dict):
            config_["learning_rate"] = serialization.deserialize_keras_object(
                config_["learning_rate"])
        return cls(**config_)

    def __repr__(self):
        lr = self._learning_rate
        lr = f"{float(lr.numpy()):g}" if isinstance(lr, Variable) else repr(lr)
        return (f"<{type(self).__name__} name={self.name}, learning_rate={lr}, "
                f"iterations={int(self._iterations.numpy())}>")


def _filter_empty_gradients(grads, variables):
    """Drop ``None`` gradients (warn), refuse when all are missing."""
    kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
    if not kept:
        raise ValueError(
            "No gradients provided for any variable. Received: variables="
            f"{[v.path for v in variables]}"
        )
    if len(kept) < len(grads):
        missing = [v.path for g, v in zip(grads, variables) if g is None]
        warnings.warn(
            f"Gradients do not exist for variables {missing} when minimizing the "
            "loss. If using `model.compile()`, did you forget to provide a `loss` "
            "argument?", stacklevel=3)
    return [g for g, _ in kept], [v for _, v in kept]


def _clip_by_norm(g, clipnorm):
    norm = ops.sqrt(ops.sum(ops.square(g)))
    return ops.multiply(g, ops.divide(clipnorm, ops.maximum(norm, clipnorm)))
