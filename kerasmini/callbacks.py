"""Callbacks: code that ``fit``/``evaluate``/``predict`` call at fixed moments.

The loop calls a :class:`CallbackList`, which calls every callback's hook in
order: ``on_train_begin``, then per epoch ``on_epoch_begin``, per batch
``on_train_batch_begin``/``on_train_batch_end``, the validation hooks
(``on_test_*``), ``on_epoch_end``; finally ``on_train_end``. Logs reach the
callbacks as plain Python floats with sorted keys (Keras 3's
``pythonify_logs``), so ``History`` records ``accuracy`` before ``loss``.
``fit`` adds a :class:`History` and (unless ``verbose=0``) a
:class:`ProgbarLogger`.

>>> seen = []
>>> cb = LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs)))
>>> CallbackList([cb]).on_epoch_end(0, {"loss": np.float32(0.5), "accuracy": 1})
>>> seen
[(0, {'accuracy': 1.0, 'loss': 0.5})]
"""

import warnings

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.utils.progbar import Progbar

_HOOKS = [
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
    "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
    "on_predict_batch_begin", "on_predict_batch_end",
]


def pythonify_logs(logs):
    """Logs as ``{name: float}``, keys sorted, nested dicts flattened.

    >>> pythonify_logs({"loss": np.array(0.25), "b": {"acc": 1}})
    {'acc': 1.0, 'loss': 0.25}
    """
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            value = float(np.asarray(value))
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


@keras_export("kerasmini.callbacks.Callback")
class Callback:
    """Base class: every hook does nothing; override the ones you need.

    ``self.model`` is the model being trained, ``self.params`` holds
    ``verbose``, ``epochs`` and ``steps`` (batches per epoch).

    >>> class Counter(Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         print("epoch", epoch, "loss", logs["loss"])
    >>> Counter().on_epoch_end(0, {"loss": 0.5})
    epoch 0 loss 0.5
    """

    def __init__(self):
        self.params = {}
        self.model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass


    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # the Keras 2 name still works

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def __repr__(self):
        return f"<{type(self).__name__}>"


@keras_export("kerasmini.callbacks.CallbackList")
class CallbackList(Callback):
    """Calls a list of callbacks together; adds ``History``/``ProgbarLogger``.

    Args:
        callbacks: the user's callbacks.
        add_history: append a :class:`History` unless one is given.
        add_progbar: append a :class:`ProgbarLogger` unless one is given.
        model: passed to every callback's ``set_model``.
        **params: passed to every callback's ``set_params``.

    >>> callbacks = CallbackList([Callback()], add_history=True)
    >>> [type(c).__name__ for c in callbacks.callbacks]
    ['Callback', 'History']
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False,
                 model=None, **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        self._active = {}  # (hook, number of callbacks) -> those implementing it
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)
            if isinstance(callback, History):
                model.history = callback

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def __repr__(self):
        return f"<CallbackList {[type(c).__name__ for c in self.callbacks]}>"


def _overrides(callback, hook):
    """Whether ``callback`` does something in ``hook`` (the base class does not)."""
    names = [hook]
    if hook.startswith("on_train_batch_"):
        names.append(hook.replace("on_train_batch_", "on_batch_"))
    return any(name in vars(callback) or
               getattr(type(callback), name) is not getattr(Callback, name)
               for name in names)


def _dispatch(hook):
    """``CallbackList.<hook>``: tidy the logs once, call every callback that
    implements the hook (none: skip the work, which matters once per batch)."""
    takes_index = "batch" in hook or "epoch" in hook

    def call_all(self, *args, logs=None):
        key = (hook, len(self.callbacks))
        active = self._active.get(key)
        if active is None:
            active = self._active[key] = [c for c in self.callbacks
                                          if _overrides(c, hook)]
        if not active:
            return
        index, rest = (args[:1], args[1:]) if takes_index else ((), args)
        logs = pythonify_logs(rest[0] if rest else logs)
        for callback in active:
            getattr(callback, hook)(*index, logs)

    call_all.__name__ = hook
    return call_all


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _dispatch(_hook))


@keras_export("kerasmini.callbacks.History")
class History(Callback):
    """Records the epoch logs: ``history.history["loss"]`` is a list per epoch.

    ``fit`` returns it (and stores it as ``model.history``).

    >>> class Model:  # anything with a `history` attribute will do here
    ...     history = None
    >>> history = History(); history.set_model(Model())
    >>> history.on_epoch_end(0, {"loss": 0.5}); history.on_epoch_end(1, {"loss": 0.25})
    >>> history.history, history.epoch
    ({'loss': [0.5, 0.25]}, [0, 1])
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self

    def __repr__(self):
        return f"<History epochs={len(self.epoch)}, keys={list(self.history)}>"


@keras_export("kerasmini.callbacks.ProgbarLogger")
class ProgbarLogger(Callback):
    """Prints ``Epoch 1/5`` (when there are several epochs) and a
    :class:`~kerasmini.utils.progbar.Progbar` line per epoch; silent during the
    validation inside ``fit``.

    >>> logger = ProgbarLogger()
    >>> logger.set_params({"verbose": 2, "epochs": 1, "steps": 2})
    >>> logger.on_epoch_begin(0); logger.on_epoch_end(0, {"loss": 0.5})  # doctest: +ELLIPSIS
    2/2 - 0s - ...s/step - loss: 0.5000
    """

    def __init__(self):
        super().__init__()
        self.progbar = None
        self.verbose = 1
        self.epochs = 1
        self.target = None
        self._called_in_fit = False

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _reset(self):
        self.progbar = Progbar(target=self.target, verbose=self.verbose)

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        if self.verbose == 1:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset()

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit and self.verbose == 1:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self.progbar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_predict_begin(self, logs=None):
        self._reset()

    def on_predict_batch_end(self, batch, logs=None):
        if self.verbose == 1:
            self.progbar.update(batch + 1, finalize=False)

    def on_predict_end(self, logs=None):
        self.progbar.update(self.target, finalize=True)


def _monitor_op(mode, monitor):
    if mode not in ("auto", "min", "max"):
        raise ValueError(
            f"Unknown mode: {mode!r}. Expected one of 'auto', 'min', 'max'."
        )
    if mode == "auto":
        wants_max = any(key in monitor for key in ("acc", "auc", "precision", "recall"))
        mode = "max" if wants_max and "loss" not in monitor else "min"
    return np.greater if mode == "max" else np.less


@keras_export("kerasmini.callbacks.EarlyStopping")
class EarlyStopping(Callback):
    """Stop training when ``monitor`` has not improved for ``patience`` epochs.

    Args:
        monitor: a log key, default ``"val_loss"``.
        min_delta: a smaller change does not count as an improvement.
        patience: epochs without improvement before stopping.
        verbose: print a message when stopping or restoring.
        mode: ``"min"``, ``"max"`` or ``"auto"`` (max for accuracies).
        baseline: training stops unless the value gets better than this.
        restore_best_weights: at the end, set the weights of the best epoch.
        start_from_epoch: epochs to wait before counting.

    >>> stopper = EarlyStopping(monitor="val_accuracy", patience=2)
    >>> stopper.monitor_op is np.greater  # "auto" maximises accuracies
    True
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0,
                 mode="auto", baseline=None, restore_best_weights=False,
                 start_from_epoch=0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.monitor_op = _monitor_op(mode, monitor)
        self.min_delta = abs(min_delta) * (1 if self.monitor_op is np.greater else -1)

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op is np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def _is_improvement(self, value, reference):
        return bool(self.monitor_op(value - self.min_delta, reference))

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(
                f"Early stopping conditioned on metric `{self.monitor}` which is not "
                f"available. Available metrics are: {','.join(logs or {})}",
                stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


@keras_export("kerasmini.callbacks.ModelCheckpoint")
class ModelCheckpoint(Callback):
    """Save the model (or its weights) at the end of each epoch.

    ``filepath`` may hold ``{epoch}`` and log keys, e.g.
    ``"ckpt-{epoch:02d}-{val_loss:.2f}.keras"``; it must end in ``.keras``, or
    in ``.weights.h5`` with ``save_weights_only=True``.

    Args:
        monitor, mode: what "best" means, for ``save_best_only``.
        save_best_only: save only when ``monitor`` improves.
        save_weights_only: call ``model.save_weights`` instead of ``model.save``.
        initial_value_threshold: the value to beat first.

    >>> ModelCheckpoint("best.keras", save_best_only=True).monitor
    'val_loss'
    >>> ModelCheckpoint("model.h5")
    Traceback (most recent call last):
      ...
    ValueError: The filepath provided must end in `.keras` (Keras model format). Received: filepath=model.h5
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__()
        filepath = str(filepath)
        if save_weights_only and not filepath.endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the "
                "filepath provided must end in `.weights.h5` (Keras weights format). "
                f"Received: filepath={filepath}"
            )
        if not save_weights_only and not filepath.endswith(".keras"):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model format). "
                f"Received: filepath={filepath}"
            )
        if save_freq != "epoch":
            raise ValueError(
                "kerasmini's ModelCheckpoint saves once per epoch only. Received: "
                f"save_freq={save_freq!r}"
            )
        self.filepath = filepath
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.monitor_op = _monitor_op(mode, monitor)
        default = np.inf if self.monitor_op is np.less else -np.inf
        self.best = default if initial_value_threshold is None else initial_value_threshold

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                warnings.warn(
                    f"Can save best model only with {self.monitor} available.",
                    stacklevel=2)
                return
            if not self.monitor_op(current, self.best):
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from "
                      f"{self.best:.5f} to {current:.5f}, saving model to {path}")
            self.best = current
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)


@keras_export("kerasmini.callbacks.LearningRateScheduler")
class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch from ``schedule(epoch, lr)``.

    The optimizer's learning rate is a variable, so a traced training step
    reads the new value on its next replay. The epoch logs get a
    ``learning_rate`` entry.

    >>> scheduler = LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
    >>> scheduler.schedule(1, 0.1)
    0.05
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr = float(np.asarray(self.model.optimizer.learning_rate))
        try:
            lr = self.schedule(epoch, lr)
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, int, np.floating, np.integer)):
            raise ValueError(
                "The output of the `schedule` function should be a float. Got: "
                f"{lr!r}"
            )
        self.model.optimizer.learning_rate = float(lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate "
                  f"to {float(lr)}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))


@keras_export("kerasmini.callbacks.LambdaCallback")
class LambdaCallback(Callback):
    """A callback made of plain functions, one per hook you pass.

    >>> LambdaCallback(on_epoch_end=print).on_epoch_end(0, {"loss": 1.0})
    0 {'loss': 1.0}
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None,
                 on_train_batch_end=None, **kwargs):
        super().__init__()
        given = dict(kwargs, on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_train_batch_begin=on_train_batch_begin,
                     on_train_batch_end=on_train_batch_end)
        for hook, fn in given.items():
            if hook not in _HOOKS + ["on_batch_begin", "on_batch_end"]:
                raise ValueError(f"Unknown hook for LambdaCallback: {hook!r}")
            if fn is not None:
                setattr(self, hook, fn)


@keras_export("kerasmini.callbacks.TerminateOnNaN")
class TerminateOnNaN(Callback):
    """Stop training at the first batch whose loss is NaN or infinite.

    Args:
        raise_error: raise a ``RuntimeError`` instead of stopping gracefully.

    >>> class Model:
    ...     stop_training = False
    >>> callback = TerminateOnNaN(); callback.set_model(Model())
    >>> callback.on_batch_end(3, {"loss": float("nan")})
    Batch 3: Invalid loss, terminating training
    >>> callback.model.stop_training
    True
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(
                    f"NaN or Inf loss encountered at batch {batch}. Loss value: "
                    f"{loss}. Terminating training immediately."
                )
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


__all__ = [
    "Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback",
    "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger", "TerminateOnNaN",
]
