"""``Trainer``: what ``compile``, ``fit``, ``evaluate`` and ``predict`` do.

Keras 3 gives ``Model`` two bases, ``class Model(Trainer, Layer)``: the layer
that computes and the trainer that drives it (``keras/src/trainers/
trainer.py``, plus one trainer per backend for the loop itself). kerasmini
keeps the split with one trainer: ``compile`` records the loss, metrics and
optimizer; ``fit`` builds what is still unbuilt from the shapes of one batch
(``_symbolic_build``), walks the epochs of an
:class:`~kerasmini.trainers.epoch_iterator.EpochIterator` and calls
``train_function`` on each list of ``steps_per_execution`` batches: a loop of
:meth:`Trainer.train_step` over the list, traced once by
:func:`kerasmini.function` (unless ``run_eagerly``) and replayed for every
later list of the same shapes.

>>> import numpy as np
>>> import kerasmini as keras
>>> keras.utils.set_random_seed(0)
>>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
>>> isinstance(model, Trainer)
True
>>> model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit(np.ones((4, 2)), np.zeros(4), epochs=2, verbose=0)
>>> len(history.history["loss"])
2
"""

import warnings

from kerasmini import metrics as metrics_module
from kerasmini import ops, optimizers, tree
from kerasmini.backend import validation
from kerasmini.backend.graph import function
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.backend.tape import GradientTape
from kerasmini.callbacks import CallbackList, pythonify_logs
from kerasmini.ops.operation import symbolic_scope
from kerasmini.saving import serialization
from kerasmini.trainers import fit_checks
from kerasmini.trainers.compile_utils import CompileLoss, CompileMetrics
from kerasmini.trainers.data_adapters import data_adapter_utils
from kerasmini.trainers.data_adapters.array_data_adapter import single_batch
from kerasmini.trainers.data_adapters.generator_data_adapter import is_python_iterator
from kerasmini.trainers.data_adapters.py_dataset_adapter import PyDataset
from kerasmini.trainers.epoch_iterator import EpochIterator

_RAN_OUT_OF_DATA = (
    "Your input ran out of data; interrupting training. Make sure that your "
    "dataset or generator can generate at least `steps_per_epoch * epochs` "
    "batches.")



def _to_symbolic(value):
    """A KerasTensor with the shape and dtype of an array (``None`` stays)."""
    if value is None:
        return None
    if value.dtype.kind in "OUS":  # text, as keras.Input(dtype="string") takes it
        return KerasTensor(value.shape, "string")
    return KerasTensor(value.shape, str(value.dtype))


class Trainer:
    """The training half of :class:`~kerasmini.Model` (Keras 3's ``Trainer``).

    A mixin: it holds no weights and computes nothing itself; ``train_step``
    calls the model (``self(x, training=True)``), its ``trainable_weights``
    and its ``losses``.

    >>> import kerasmini as keras
    >>> [cls.__name__ for cls in keras.Model.__mro__[:4]]
    ['Model', 'Trainer', 'Layer', 'Module']
    """

    def __init__(self):
        """The attributes that ``compile`` and ``fit`` fill in."""
        self.optimizer = None
        self.compiled = False
        self.stop_training = False
        self._initial_epoch = None  # set by BackupAndRestore to resume
        self.history = None
        self.loss = None
        self.run_eagerly = False
        self.steps_per_execution = 1
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self.train_function = None
        self.test_function = None
        self.predict_function = None

    # compile -> fit -> train_function -> train_step, as in Keras 3's
    # trainers/trainer.py; batching is in epoch_iterator and data_adapters,
    # losses and metrics in compile_utils, the hooks in kerasmini.callbacks.
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
            steps_per_execution: how many batches one call of the train (or
                test, or predict) function runs, inside one traced graph, as
                Keras 2's ``tf.function`` and Keras 3's TensorFlow and JAX
                trainers do (its torch trainer refuses more than 1). The
                callbacks then hear of every ``steps_per_execution``-th batch.
            jit_compile, auto_scale_loss: accepted, unused.
        """
        validation.check_int(steps_per_execution, "steps_per_execution", minimum=1)
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
        self.steps_per_execution = steps_per_execution
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
        x, y, sample_weight = data_adapter_utils.unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
        batch_size = data_adapter_utils.batch_size_of(x)
        self._loss_tracker.update_state(loss, sample_weight=batch_size)
        weights = self.trainable_weights
        gradients = tape.gradient(loss, weights)
        self.optimizer.apply_gradients(zip(gradients, weights))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """One batch of evaluation: forward (``training=False``), loss, metrics."""
        x, y, sample_weight = data_adapter_utils.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        batch_size = data_adapter_utils.batch_size_of(x)
        self._loss_tracker.update_state(loss, sample_weight=batch_size)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """One batch of inference: ``self(x, training=False)``."""
        x, _, _ = data_adapter_utils.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _make_function(self, step, name):
        """``step`` on each batch of a list, as one function, traced unless
        ``run_eagerly``: what ``make_train_function`` and
        ``make_test_function`` return (``predict`` needs its own).

        The function takes the ``steps_per_execution`` batches the epoch
        iterator hands out and returns the logs of the last step. Traced, its
        loop is recorded step after step in one graph, so each replay runs
        every step of the list for one call, as Keras 2 loops inside its
        ``tf.function``.
        """

        def multi_step_on_data(batches):
            for batch in batches:
                logs = step(batch)
            return logs

        if self.run_eagerly:
            return multi_step_on_data
        # The first call for each shape of `batches` runs the loop for real
        # while recording every op; later calls replay the recorded steps.
        return function(multi_step_on_data, name=name)

    def make_train_function(self, force=False):
        """``train_step`` as called by ``fit``, ``steps_per_execution``
        batches per call (traced unless ``run_eagerly``).

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
        """``test_step`` as called by ``evaluate``, built as the train function."""
        if self.test_function is None or force:
            self.test_function = self._make_function(self.test_step, "test_function")
        return self.test_function

    def make_predict_function(self, force=False):
        """``predict_step`` on a list of batches, its outputs joined along the
        batch axis: not ``_make_function``, whose steps return logs (Keras 3's
        TensorFlow trainer also builds it apart)."""
        if self.predict_function is not None and not force:
            return self.predict_function

        def multi_step_on_data(batches):
            outputs = [self.predict_step(batch) for batch in batches]
            if len(outputs) == 1:
                return outputs[0]
            return tree.map_structure(
                lambda *parts: ops.concatenate(parts, axis=0), *outputs)

        self.predict_function = multi_step_on_data if self.run_eagerly else \
            function(multi_step_on_data, name="predict_function")
        return self.predict_function

    def _symbolic_build(self, iterator=None, data_batch=None):
        """Build the model, the compiled loss and metrics, and the optimizer
        before the first batch (Keras 3's ``Trainer._symbolic_build``).

        Only the shapes and dtypes of one batch are used: they become
        KerasTensors, the model is called on them in a symbolic scope (every
        unbuilt layer builds; nothing is computed, no node is recorded), the
        compiled loss and metrics are matched to the outputs, and the
        optimizer makes its state for the trainable variables.
        """
        model_unbuilt = not all(layer.built for layer in self._flatten_layers())
        loss_unbuilt = self._compile_loss is not None and not self._compile_loss.built
        metrics_unbuilt = (self._compile_metrics is not None
                           and not self._compile_metrics.built)
        if model_unbuilt or loss_unbuilt or metrics_unbuilt:
            if data_batch is None:
                data_batch = iterator.peek()
            data_batch = tree.map_structure(_to_symbolic, data_batch)
            x, y, _ = data_adapter_utils.unpack_x_y_sample_weight(data_batch)
            if model_unbuilt:  # a Sequential without an Input makes its graph
                self._maybe_build(x)
            with symbolic_scope():
                y_pred = self(x, training=False)
            if loss_unbuilt and y is not None:
                self._compile_loss.build(y, y_pred)
            if metrics_unbuilt and y is not None:
                self._compile_metrics.build(y, y_pred)
        if self.optimizer is not None and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)

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
            if isinstance(x, PyDataset) or is_python_iterator(x):
                raise ValueError(
                    "`validation_split` is only supported for arrays: give a "
                    "PyDataset's or generator's validation batches as "
                    f"`validation_data`. Received: validation_split={validation_split}"
                )
            (x, y, sample_weight), validation_data = (
                data_adapter_utils.train_validation_split((x, y, sample_weight),
                                                          validation_split))
        epoch_iterator = EpochIterator(
            x, y, sample_weight, batch_size=batch_size, shuffle=shuffle,
            class_weight=class_weight, steps_per_epoch=steps_per_epoch,
            steps_per_execution=self.steps_per_execution)
        self._symbolic_build(iterator=epoch_iterator)
        callbacks = self._callbacks(callbacks, verbose, epoch_iterator.num_batches,
                                    epochs, add_history=True)
        self.stop_training = False
        train_function = self.make_train_function()
        callbacks.on_train_begin()
        logs, epoch_logs = {}, None
        initial_epoch = self._initial_epoch or initial_epoch  # a restored backup
        self._initial_epoch = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            end_step = -1
            for begin_step, end_step, batches in epoch_iterator:
                callbacks.on_train_batch_begin(begin_step)
                logs = train_function(batches)
                callbacks.on_train_batch_end(end_step, logs)
                if self.stop_training:
                    break
            if end_step < 0:
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
                is_python_iterator(validation_data):
            return self.evaluate(validation_data, steps=steps, callbacks=callbacks,
                                 return_dict=True)
        val_x, val_y, val_weight = data_adapter_utils.unpack_x_y_sample_weight(
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
        epoch_iterator = EpochIterator(x, y, sample_weight, batch_size=batch_size,
                                       steps_per_epoch=steps,
                                       steps_per_execution=self.steps_per_execution)
        self._symbolic_build(iterator=epoch_iterator)
        callbacks = self._callbacks(callbacks, verbose, epoch_iterator.num_batches)
        test_function = self.make_test_function()
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = {}
        for begin_step, end_step, batches in epoch_iterator:
            callbacks.on_test_batch_begin(begin_step)
            logs = test_function(batches)
            callbacks.on_test_batch_end(end_step, logs)
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
        epoch_iterator = EpochIterator(x, batch_size=batch_size, steps_per_epoch=steps,
                                       steps_per_execution=self.steps_per_execution,
                                       allow_empty=True)
        callbacks = self._callbacks(callbacks, verbose, epoch_iterator.num_batches)
        predict_function = self.make_predict_function()
        callbacks.on_predict_begin()
        outputs = []
        for begin_step, end_step, batches in epoch_iterator:
            callbacks.on_predict_batch_begin(begin_step)
            outputs.append(predict_function(batches))
            callbacks.on_predict_batch_end(end_step, {"outputs": outputs[-1]})
        callbacks.on_predict_end()
        return data_adapter_utils.concatenate_batches(outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on one batch; returns the logs like ``evaluate``
        (the metrics of this batch alone: they are reset first, as in Keras)."""
        self._assert_compile_called()
        batch = single_batch(x, y, sample_weight, class_weight)
        self._symbolic_build(data_batch=batch)
        self.reset_metrics()
        logs = pythonify_logs(self.make_train_function()([batch]))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """One evaluation step on one batch (metrics reset first)."""
        self._assert_compile_called()
        batch = single_batch(x, y, sample_weight)
        self._symbolic_build(data_batch=batch)
        self.reset_metrics()
        logs = pythonify_logs(self.make_test_function()([batch]))
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def predict_on_batch(self, x):
        """The outputs for one batch, as NumPy arrays."""
        batch = single_batch(x, allow_empty=True)
        outputs = self.make_predict_function()([batch])
        return data_adapter_utils.concatenate_batches([outputs])

    def get_compile_config(self):
        """The arguments of :meth:`compile`, serialized (``{}`` if the model
        was never compiled); saved as ``compile_config`` in ``config.json``."""
        if self.compiled and getattr(self, "_compile_config", None):
            return serialization.serialize_keras_object(self._compile_config)
        return {}

    def compile_from_config(self, config):
        """Compile with a saved :meth:`get_compile_config`, then build the
        optimizer so its saved state (slots, ``iterations``) can be loaded."""
        if type(self).compile is not Trainer.compile:
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

