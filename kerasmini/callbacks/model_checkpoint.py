"""``ModelCheckpoint``: save the model (or its weights) during training."""

import warnings

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.monitor import _monitor_op


@keras_export("kerasmini.callbacks.ModelCheckpoint")
class ModelCheckpoint(Callback):
    """Save the model (or its weights) at each epoch end, or every
    ``save_freq`` batches.

    ``filepath`` may hold ``{epoch}`` (counted from 1), ``{batch}`` (from 1,
    when saving by batches) and log keys, e.g.
    ``"ckpt-{epoch:02d}-{val_loss:.2f}.keras"``; it must end in ``.keras``, or
    in ``.weights.h5`` with ``save_weights_only=True``.

    Args:
        monitor, mode: what "best" means, for ``save_best_only``.
        save_best_only: save only when ``monitor`` improves (the first value
            always does, unless ``initial_value_threshold`` is better).
        save_weights_only: call ``model.save_weights`` instead of ``model.save``.
        save_freq: ``"epoch"`` or a number of training batches.
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
        filepath = validation.check_path(filepath, "filepath", owner="ModelCheckpoint")
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
        if save_freq != "epoch" and (not isinstance(save_freq, int)
                                     or isinstance(save_freq, bool)):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                "'epoch' or integer values"
            )
        self.filepath = filepath
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.monitor_op = _monitor_op(mode, monitor)
        self.best = initial_value_threshold
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            self._batches_seen_since_last_saving += batch + 1  # a new epoch
        else:
            self._batches_seen_since_last_saving += batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(
                f'Failed to format this callback filepath: "{self.filepath}". '
                f"Reason: {e}"
            ) from None

    def _should_save(self, epoch, logs, path):
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {path}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.",
                          stacklevel=3)
            return True  # as Keras 3: save anyway
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self.best is None or self.monitor_op(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                      f"{current:.5f}, saving model to {path}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False

    def _save_model(self, epoch, batch, logs):
        logs = logs or {}
        path = self._file_path(epoch, batch, logs)
        if not self._should_save(epoch, logs, path):
            return
        validation.check_folder_of(path, "ModelCheckpoint")
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)
