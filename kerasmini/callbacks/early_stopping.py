"""``EarlyStopping``: stop training when a monitored quantity stops improving."""

import warnings

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.monitor import _monitor_op


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
        self.patience = validation.check_int(patience, "patience", minimum=0,
                                             owner="EarlyStopping")
        self.verbose = verbose
        self.mode = mode
        self.baseline = None if baseline is None else validation.check_float(
            baseline, "baseline", owner="EarlyStopping")
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = validation.check_int(
            start_from_epoch, "start_from_epoch", minimum=0, owner="EarlyStopping")
        self.monitor_op = _monitor_op(mode, monitor)
        min_delta = validation.check_float(min_delta, "min_delta", owner="EarlyStopping")
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
        improved = self._is_improvement(current, self.best)
        self.wait += 1
        if improved:
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
