"""``ModelCheckpoint``: save the model (or its weights) during training."""

import warnings

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.monitor import _monitor_op


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
    ValueError: The filepath provided must end in `.keras` (Keras model format). ...
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
        self.best = (default if initial_value_threshold is None
                     else initial_value_threshold)

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
