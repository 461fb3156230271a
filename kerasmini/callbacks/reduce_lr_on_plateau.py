"""``ReduceLROnPlateau``: lower the learning rate when progress stalls."""

import warnings

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.monitor import _monitor_op


@keras_export("kerasmini.callbacks.ReduceLROnPlateau")
class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` after ``patience`` epochs
    without improvement of ``monitor``.

    At every epoch end the logs get a ``learning_rate`` entry (as Keras 3's).
    After a reduction, ``cooldown`` epochs pass before counting again; the
    rate never goes below ``min_lr``.

    Args:
        monitor: a log key (default ``"val_loss"``).
        factor: the multiplier, below 1.
        patience: epochs without improvement before a reduction.
        verbose: print a message at each reduction.
        mode: ``"auto"``, ``"min"`` or ``"max"``.
        min_delta: a smaller change does not count as an improvement.
        cooldown: epochs to wait after a reduction.
        min_lr: the lowest learning rate.

    >>> ReduceLROnPlateau(factor=0.5, patience=2).factor
    0.5
    >>> ReduceLROnPlateau(factor=2.0)
    Traceback (most recent call last):
      ...
    ValueError: ReduceLROnPlateau does not support a factor >= 1.0. Received factor=2.0
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0,
                 mode="auto", min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(
                "ReduceLROnPlateau does not support a factor >= 1.0. "
                f"Received factor={factor}"
            )
        self.monitor = monitor
        self.mode = mode
        self.monitor_op = _monitor_op(mode, monitor)
        # improving means beating the best by min_delta in the right direction
        self.min_delta = abs(min_delta) * (1 if self.monitor_op is np.greater else -1)
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self._reset()

    def _reset(self):
        self.best = None
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        self._reset()

    def _reduce(self, epoch):
        optimizer = self.model.optimizer
        old_lr = float(np.asarray(optimizer.learning_rate))
        if old_lr <= np.float32(self.min_lr):
            return False
        new_lr = max(old_lr * self.factor, self.min_lr)
        optimizer.learning_rate = new_lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate "
                  f"to {new_lr}.")
        return True

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Learning rate reduction is conditioned on metric `{self.monitor}` "
                f"which is not available. Available metrics are: {','.join(logs)}.",
                stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.best is None or self.monitor_op(current - self.min_delta, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter = self.cooldown
                self.wait = 0
