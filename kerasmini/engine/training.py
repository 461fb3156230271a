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

import warnings

from kerasmini import metrics as metrics_module
from kerasmini import optimizers, saving
from kerasmini.api_export import keras_export
from kerasmini.backend import ops
from kerasmini.backend.graph import function
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.backend.tape import GradientTape
from kerasmini.callbacks import CallbackList, pythonify_logs
from kerasmini.engine import data_adapter, fit_checks
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.compile_utils import CompileLoss, CompileMetrics
from kerasmini.saving import serialization
from kerasmini.utils.py_dataset import PyDataset
from kerasmini.utils.summary import print_summary

_RAN_OUT_OF_DATA = (
    "Your input ran out of data; interrupting training. Make sure that your "
    "dataset or generator can generate at least `steps_per_epoch * epochs` "
    "batches.")


def _functional_class():
    from kerasmini.engine.functional import Functional

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
class Model(Layer):
    """A trainable network of layers.

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
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._init_training_state()

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

    def _init_training_state(self):
        """Attributes that compile/fit fill in (see the training chapters)."""
        self.optimizer = None
        self.compiled = False
        self.stop_training = False
        self._initial_epoch = None  # set by BackupAndRestore to resume
        self.history = None
        self.loss = None
        self.run_eagerly = False
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self.train_function = None
        self.test_function = None
        self.predict_function = None

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

    # --------------------------------------------------------------- training
    # compile -> fit -> train_function -> train_step, as in Keras 3's
    # trainers/trainer.py; batching is in data_adapter, losses and metrics in
    # compile_utils, the hooks in kerasmini.callbacks.
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None,
                metrics=None, weighted_metrics=None, run_eagerly=False,
                steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        """Configure the model for training.

        Args:
            optimizer: a name (``"adam"``) or an optimizer instance.
            loss: a name, function or ``Loss``; a list or dict (by output name)
                for multi-output models.
            loss_weights: weights of the per-output losses (list or dict).
            metrics: names (``"accuracy"``), functions or ``Metric`` objects;
                a list, or per output a list/dict of them.
            weighted_metrics: metrics that also see ``sample_weight``.
            run_eagerly: run ``train_step`` as plain Python instead of
                tracing it once with :func:`kerasmini.function` and replaying.
            steps_per_execution, jit_compile, auto_scale_loss: accepted, unused.
        """
        self.optimizer = optimizers.get(optimizer)
        output_names = getattr(self, "output_names", None)
        self.loss = loss
        self._compile_loss = None if loss is None else CompileLoss(
            loss, loss_weights, output_names=output_names)
        self._compile_metrics = None
        if metrics is not None or weighted_metrics is not None:
            self._compile_metrics = CompileMetrics(metrics, weighted_metrics,
                                                   output_names=output_names)
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.run_eagerly = run_eagerly
        self.stop_training = False
        self.compiled = True
        self.train_function = self.test_function = self.predict_function = None
        self._compile_config = {
            "optimizer": self.optimizer, "loss": loss, "loss_weights": loss_weights,
            "metrics": metrics, "weighted_metrics": weighted_metrics,
            "run_eagerly": run_eagerly, "steps_per_execution": steps_per_execution,
            "jit_compile": jit_compile if isinstance(jit_compile, bool) else False,
        }

    def _assert_compile_called(self):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    @property
    def metrics(self):
        """The loss tracker, the compiled metrics, per-output loss trackers and
        any ``Metric`` stored as an attribute of the model."""
        found = []
        if self.compiled:
            found.append(self._loss_tracker)
            if self._compile_metrics is not None:
                found.append(self._compile_metrics)
            if self._compile_loss is not None:
                found += self._compile_loss.metrics
        found += [v for k, v in vars(self).items()
                  if isinstance(v, metrics_module.Metric) and k != "_loss_tracker"
                  and v not in found]
        return found

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        """Reset the state of every metric in :attr:`metrics`."""
        for metric in self.metrics:
            metric.reset_state()

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                     training=True):
        """The compiled loss plus ``self.losses`` (``add_loss``, regularizers)."""
        losses = []
        if self._compile_loss is not None:
            value = self._compile_loss(y, y_pred, sample_weight)
            if value is not None:
                losses.append(value)
        for extra in self.losses:
            losses.append(ops.sum(ops.cast(extra, "float32")))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in "
                             "`compile()`.")
        total = losses[0]
        for value in losses[1:]:
            total = ops.add(total, value)
        return total

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update the compiled metrics; return every metric's result."""
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """``{name: result}`` for :attr:`metrics` (dict results are merged)."""
        results = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                results.update(result)
            else:
                results[metric.name] = result
        return results

    def train_step(self, data):
        """One batch of training: forward, loss, gradients, update, metrics.

        Override it to customise ``fit``; ``data`` is ``(x,)``, ``(x, y)`` or
        ``(x, y, sample_weight)``. Return a dict of logs.
        """
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
        self._loss_tracker.update_state(loss, sample_weight=data_adapter.batch_size_of(x))
        weights = self.trainable_weights
        gradients = tape.gradient(loss, weights)
        self.optimizer.apply_gradients(zip(gradients, weights))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """One batch of evaluation: forward (``training=False``), loss, metrics."""
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=data_adapter.batch_size_of(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """One batch of inference: ``self(x, training=False)``."""
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _make_function(self, step, name):
        # Graph mode: the first call of each batch shape runs `step` for real
        # while recording every op; later calls replay the recorded NumPy steps.
        return step if self.run_eagerly else function(step, name=name)

    def make_train_function(self, force=False):
        """``train_step`` as called by ``fit`` (traced unless ``run_eagerly``).

        A traced step has the trainable variables of its first call baked in,
        so it is traced again when ``trainable`` changed since then: freezing a
        layer between two ``fit`` calls is honoured without recompiling
        (Keras 3's TensorFlow backend needs ``force=True`` for that).
        """
        trainable = tuple(id(v) for v in self.trainable_variables)
        if self.train_function is None or force or \
                trainable != getattr(self, "_train_function_variables", None):
            self.train_function = self._make_function(self.train_step, "train_function")
            self._train_function_variables = trainable
        return self.train_function

    def make_test_function(self, force=False):
        """``test_step`` as called by ``evaluate``."""
        if self.test_function is None or force:
            self.test_function = self._make_function(self.test_step, "test_function")
        return self.test_function

    def make_predict_function(self, force=False):
        """``predict_step`` as called by ``predict``."""
        if self.predict_function is None or force:
            self.predict_function = self._make_function(self.predict_step,
                                                        "predict_function")
        return self.predict_function

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto",
            callbacks=None, validation_split=0.0, validation_data=None, shuffle=True,
            class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None,
            validation_freq=1):
        """Train for ``epochs`` passes over ``x``/``y``; returns the ``History``.

        ``x`` is arrays (with ``y``), a ``PyDataset`` or a Python generator of
        batches (with ``steps_per_epoch``, each epoch takes that many more).
        ``validation_split`` holds out the last fraction of the samples;
        ``validation_data`` is ``(x_val, y_val)`` (or with sample weights), a
        ``PyDataset`` or a generator (``validation_steps`` batches of it).
        ``verbose``: 0 silent, 1 (``"auto"``) progress bar, 2 one line per epoch.
        """
        self._assert_compile_called()
        validation_data = fit_checks.check_fit_arguments(
            epochs, initial_epoch, shuffle, verbose, validation_freq, steps_per_epoch,
            class_weight, validation_data)
        if validation_split and validation_data is None:
            if isinstance(x, PyDataset) or data_adapter.is_python_iterator(x):
                raise ValueError(
                    "`validation_split` is only supported for arrays: give a "
                    "PyDataset's or generator's validation batches as "
                    f"`validation_data`. Received: validation_split={validation_split}"
                )
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        batches = data_adapter.epoch_iterator(
            x, y, sample_weight, batch_size=batch_size, shuffle=shuffle,
            class_weight=class_weight, steps_per_epoch=steps_per_epoch)
        callbacks = self._callbacks(callbacks, verbose, batches.num_batches, epochs,
                                    add_history=True)
        self.stop_training = False
        train_function = self.make_train_function()
        callbacks.on_train_begin()
        logs, epoch_logs = {}, None
        initial_epoch = self._initial_epoch or initial_epoch  # a restored backup
        self._initial_epoch = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            step = -1
            for step, batch in batches:
                callbacks.on_train_batch_begin(step)
                logs = train_function(batch)
                callbacks.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            if step < 0:
                warnings.warn(_RAN_OUT_OF_DATA, stacklevel=2)
                break
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._validate(validation_data, validation_steps,
                                          validation_batch_size or batch_size,
                                          callbacks)
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callbacks.on_train_end(epoch_logs)
        return self.history

    def _validate(self, validation_data, steps, batch_size, callbacks):
        """``evaluate`` on ``validation_data`` at the end of an epoch."""
        if isinstance(validation_data, PyDataset) or \
                data_adapter.is_python_iterator(validation_data):
            return self.evaluate(validation_data, steps=steps, callbacks=callbacks,
                                 return_dict=True)
        val_x, val_y, val_weight = data_adapter.unpack_x_y_sample_weight(
            validation_data)
        return self.evaluate(val_x, val_y, sample_weight=val_weight,
                             batch_size=batch_size, steps=steps, callbacks=callbacks,
                             return_dict=True)

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto",
                 sample_weight=None, steps=None, callbacks=None, return_dict=False):
        """Loss and metrics on ``x``/``y``, batch by batch, ``training=False``.

        Returns the loss alone (no metrics), a list (loss first), or with
        ``return_dict=True`` a dict.
        """
        self._assert_compile_called()
        fit_checks.check_steps_and_verbose("evaluate", steps, verbose)
        batches = data_adapter.epoch_iterator(x, y, sample_weight, batch_size=batch_size,
                                              steps_per_epoch=steps)
        callbacks = self._callbacks(callbacks, verbose, batches.num_batches)
        test_function = self.make_test_function()
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = {}
        for step, batch in batches:
            callbacks.on_test_batch_begin(step)
            logs = test_function(batch)
            callbacks.on_test_batch_end(step, logs)
        logs = pythonify_logs(logs)
        callbacks.on_test_end(logs)
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def _flatten_metrics_in_order(self, logs):
        """Logs as a list in the order of :attr:`metrics` (a scalar if one)."""
        names = []
        for metric in self.metrics:
            result = metric.result() if hasattr(metric, "_flat") else None
            names += list(result) if isinstance(result, dict) else [metric.name]
        values = [logs[n] for n in names if n in logs]
        values += [logs[k] for k in sorted(logs) if k not in names]
        return values[0] if len(values) == 1 else values

    def _callbacks(self, callbacks, verbose, steps, epochs=1, add_history=False):
        if isinstance(callbacks, CallbackList):
            return callbacks
        return CallbackList(callbacks, add_history=add_history,
                            add_progbar=verbose != 0, model=self, verbose=verbose,
                            epochs=epochs, steps=steps)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """Outputs for ``x``, computed batch by batch with ``training=False``."""
        fit_checks.check_steps_and_verbose("predict", steps, verbose)
        batches = data_adapter.epoch_iterator(x, batch_size=batch_size,
                                             steps_per_epoch=steps, allow_empty=True)
        callbacks = self._callbacks(callbacks, verbose, batches.num_batches)
        predict_function = self.make_predict_function()
        callbacks.on_predict_begin()
        outputs = []
        for step, batch in batches:
            callbacks.on_predict_batch_begin(step)
            outputs.append(predict_function(batch))
            callbacks.on_predict_batch_end(step, {"outputs": outputs[-1]})
        callbacks.on_predict_end()
        return data_adapter.concatenate_batches(outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on one batch; returns the logs like ``evaluate``."""
        self._assert_compile_called()
        batch = data_adapter.single_batch(x, y, sample_weight, class_weight)
        logs = pythonify_logs(self.make_train_function()(batch))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """One evaluation step on one batch."""
        self._assert_compile_called()
        batch = data_adapter.single_batch(x, y, sample_weight)
        logs = pythonify_logs(self.make_test_function()(batch))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def predict_on_batch(self, x):
        """The outputs for one batch, as NumPy arrays."""
        batch = data_adapter.single_batch(x, allow_empty=True)
        return data_adapter.concatenate_batches([self.make_predict_function()(batch)])

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

    def get_compile_config(self):
        """The arguments of :meth:`compile`, serialized (``{}`` if the model
        was never compiled); saved as ``compile_config`` in ``config.json``."""
        if self.compiled and getattr(self, "_compile_config", None):
            return serialization.serialize_keras_object(self._compile_config)
        return {}

    def compile_from_config(self, config):
        """Compile with a saved :meth:`get_compile_config`, then build the
        optimizer so its saved state (slots, ``iterations``) can be loaded."""
        if type(self).compile is not Model.compile:
            warnings.warn(
                "`compile()` was not called as part of model loading because the "
                "model's `compile()` method is custom. All subclassed Models that "
                "have `compile()` overridden should also override "
                "`get_compile_config()` and `compile_from_config(config)`. "
                "Alternatively, you can call `compile()` manually after loading.",
                stacklevel=2)
            return
        self.compile(**serialization.deserialize_keras_object(config))
        if self.built and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Recreate a model: a graph config (``layers``, ``input_layers``,
        ``output_layers``) becomes a Functional model; any other config is
        passed to the constructor (a subclassed model's ``get_config``)."""
        from kerasmini.engine.functional import (
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

