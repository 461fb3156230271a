"""Callbacks: code that ``fit``/``evaluate``/``predict`` call at fixed moments.

The loop calls a :class:`CallbackList`, which calls every callback's hook in
order: ``on_train_begin``, then per epoch ``on_epoch_begin``, per batch
``on_train_batch_begin``/``on_train_batch_end``, the validation hooks
(``on_test_*``), ``on_epoch_end``; finally ``on_train_end``. Logs reach the
callbacks as plain Python floats with sorted keys (Keras 3's
``pythonify_logs``), so ``History`` records ``accuracy`` before ``loss``.
``fit`` adds a :class:`History` and (unless ``verbose=0``) a
:class:`ProgbarLogger`.

>>> import numpy as np
>>> seen = []
>>> cb = LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs)))
>>> CallbackList([cb]).on_epoch_end(0, {"loss": np.float32(0.5), "accuracy": 1})
>>> seen
[(0, {'accuracy': 1.0, 'loss': 0.5})]
"""

from kerasmini.callbacks.backup_and_restore import BackupAndRestore
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.callback_list import CallbackList, pythonify_logs
from kerasmini.callbacks.csv_logger import CSVLogger
from kerasmini.callbacks.early_stopping import EarlyStopping
from kerasmini.callbacks.history import History
from kerasmini.callbacks.lambda_callback import LambdaCallback
from kerasmini.callbacks.learning_rate_scheduler import LearningRateScheduler
from kerasmini.callbacks.model_checkpoint import ModelCheckpoint
from kerasmini.callbacks.progbar_logger import ProgbarLogger
from kerasmini.callbacks.reduce_lr_on_plateau import ReduceLROnPlateau
from kerasmini.callbacks.tensorboard import TensorBoard
from kerasmini.callbacks.terminate_on_nan import TerminateOnNaN

__all__ = [
    "BackupAndRestore",
    "CSVLogger",
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "TensorBoard",
    "TerminateOnNaN",
    "pythonify_logs",
]
