"""``BackupAndRestore``: resume an interrupted ``fit`` where it stopped."""

import json
import os
import shutil

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback


@keras_export("kerasmini.callbacks.BackupAndRestore")
class BackupAndRestore(Callback):
    """Back up the training state, and restore it when ``fit`` starts again.

    At each epoch end (or every ``save_freq`` batches) the weights, with the
    optimizer's variables, go to ``backup_dir/latest.weights.h5`` and the
    number of finished epochs to ``training_metadata.json``. If ``fit`` is
    interrupted (an exception, a killed process), the next ``fit`` with the
    same callback loads both in ``on_train_begin`` and sets
    ``model._initial_epoch``, so training continues with the next epoch as if
    nothing had happened (``fit`` clears it after reading it; Keras 3 keeps
    it, so a later ``fit`` of the same model would skip those epochs again).
    A ``fit`` that finishes deletes the backup (unless
    ``delete_checkpoint=False``). To restore, the model must be built before
    ``fit`` (an ``Input``, or a call on a batch): Keras builds it from the
    first batch before ``on_train_begin``, kerasmini only on the first step.

    Args:
        backup_dir: a directory used only for this backup.
        save_freq: ``"epoch"`` or a number of batches.
        double_checkpoint: keep the previous backup too (``*.bkp``), used if
            the latest cannot be read.
        delete_checkpoint: delete the backup when ``fit`` completes.

    >>> BackupAndRestore("/tmp/backup").save_freq
    'epoch'
    >>> BackupAndRestore("")
    Traceback (most recent call last):
      ...
    ValueError: Empty `backup_dir` argument passed
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and (not isinstance(save_freq, int)
                                     or isinstance(save_freq, bool)):
            raise ValueError(
                f"Invalid value for argument `save_freq`. Received: save_freq="
                f"{save_freq}. Expected either 'epoch' or an integer value."
            )
        self.backup_dir = str(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0

    def on_train_begin(self, logs=None):
        try:
            self._load_model()
        except OSError:
            if not os.path.exists(self._weights_path + ".bkp"):
                raise
            shutil.copy(self._weights_path + ".bkp", self._weights_path)
            if os.path.exists(self._metadata_path + ".bkp"):
                shutil.copy(self._metadata_path + ".bkp", self._metadata_path)
            self._load_model()

    def _load_model(self):
        if not os.path.exists(self._weights_path):
            return  # nothing to restore: a fresh start
        if not self.model.built:
            # Keras builds the model on the first batch before this hook;
            # kerasmini builds it on the first call, too late to load into.
            raise ValueError(
                "To use the BackupAndRestore callback, your model must be built "
                f"before you call `fit()`. Model {self.model} is unbuilt. You can "
                "build it beforehand by calling it on a batch of data."
            )
        self.model.load_weights(self._weights_path)  # optimizer state too
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path) as f:
                self.model._initial_epoch = json.load(f)["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        if batch <= self._last_batch_seen:  # a new epoch started
            self._batches_seen_since_last_saving += batch + 1
        else:
            self._batches_seen_since_last_saving += batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save_model()

    def _save_model(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path in (self._weights_path, self._metadata_path):
                if os.path.exists(path):
                    shutil.copy(path, path + ".bkp")
        self.model.save_weights(self._weights_path, overwrite=True)
        with open(self._metadata_path, "w") as f:
            json.dump({"epoch": self._current_epoch, "batch": self._last_batch_seen}, f)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
