"""``BackupAndRestore``: resume an interrupted ``fit`` where it stopped."""

import os
import shutil
import warnings

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.callbacks.callback import Callback
from kerasmini.saving.backup import load_backup, save_backup
from kerasmini.saving.files import atomic_write


@keras_export("kerasmini.callbacks.BackupAndRestore")
class BackupAndRestore(Callback):
    """Back up the training state, and restore it when ``fit`` starts again.

    At each epoch end (or every ``save_freq`` batches) the weights, with the
    optimizer's variables, and the number of finished epochs go to one file,
    ``backup_dir/latest.backup.zip``, written to a temporary file and
    renamed (see :mod:`kerasmini.saving.backup`): a process killed at any
    moment leaves the previous backup or the new one, whole. If ``fit`` is
    interrupted (an exception, a killed process), the next ``fit`` with the
    same callback loads it in ``on_train_begin`` and sets
    ``model._initial_epoch``, so training continues with the next epoch as if
    nothing had happened (``fit`` clears it after reading it; Keras 3 keeps
    it, so a later ``fit`` of the same model would skip those epochs again).
    A backup that cannot be read is refused with a ``ValueError`` naming the
    file and the problem (or, with ``double_checkpoint``, the previous
    backup is restored, with a warning). A ``fit`` that finishes deletes the
    backup (unless ``delete_checkpoint=False``). To restore, the model must
    be built before ``fit`` (an ``Input``, or a call on a batch): Keras
    builds it from the first batch before ``on_train_begin``, kerasmini only
    on the first step.

    Keras 3 writes ``latest.weights.h5`` and then ``training_metadata.json``:
    killed between the two, its resumed run trains an epoch twice; killed
    while writing the second, every later start fails with a raw
    ``JSONDecodeError``. The two go in one archive here, so the folder's
    layout differs from Keras's.

    Args:
        backup_dir: a directory used only for this backup.
        save_freq: ``"epoch"`` or a number of batches.
        double_checkpoint: keep the previous backup too
            (``latest.backup.zip.bkp``), used if the latest cannot be read.
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
        self._backup_path = os.path.join(self.backup_dir, "latest.backup.zip")
        self._previous_path = self._backup_path + ".bkp"
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0

    def on_train_begin(self, logs=None):
        candidates = [path for path in (self._backup_path, self._previous_path)
                      if os.path.exists(path)]
        if not candidates:
            return  # nothing to restore: a fresh start
        if not self.model.built:
            # Keras builds the model on the first batch before this hook;
            # kerasmini builds it on the first call, too late to load into.
            raise ValueError(
                "To use the BackupAndRestore callback, your model must be built "
                f"before you call `fit()`. Model {self.model} is unbuilt. You can "
                "build it beforehand by calling it on a batch of data."
            )
        problems = []
        for path in candidates:
            try:
                metadata = load_backup(self.model, path)  # optimizer state too
            except ValueError as error:
                problems.append(str(error))
                continue
            if problems:
                warnings.warn(f"{problems[0]}. Restored the previous backup "
                              f"'{path}' instead (epoch {metadata['epoch']}).",
                              stacklevel=2)
            self.model._initial_epoch = metadata["epoch"]
            return
        raise ValueError(
            f"BackupAndRestore cannot resume training: {'; '.join(problems)}. "
            f"Remove the folder '{self.backup_dir}' to start afresh, or pass "
            "another `backup_dir`."
        )

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
        validation.check_folder_of(self._backup_path, "BackupAndRestore")
        if self.double_checkpoint and os.path.exists(self._backup_path):
            with open(self._backup_path, "rb") as latest:
                atomic_write(self._previous_path,
                             lambda file: shutil.copyfileobj(latest, file))
        save_backup(self.model, self._backup_path,
                    {"epoch": self._current_epoch, "batch": self._last_batch_seen})

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            # the previous backup first: killed in between, the next start
            # finds the latest (nothing left to train), never an older one
            for path in (self._previous_path, self._backup_path):
                if os.path.exists(path):
                    os.unlink(path)
            shutil.rmtree(self.backup_dir)
