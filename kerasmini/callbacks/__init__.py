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

from kerasmini.api_export import lazy_attributes
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.callback_list import CallbackList, pythonify_logs
from kerasmini.callbacks.history import History
from kerasmini.callbacks.progbar_logger import ProgbarLogger

# What fit itself needs is imported above; the callbacks a user picks are
# loaded on first access (a module __getattr__, PEP 562), which keeps
# `import kerasmini` cheap: public name -> the submodule that defines it.
_LAZY = {
    "BackupAndRestore": "kerasmini.callbacks.backup_and_restore",
    "CSVLogger": "kerasmini.callbacks.csv_logger",
    "EarlyStopping": "kerasmini.callbacks.early_stopping",
    "LambdaCallback": "kerasmini.callbacks.lambda_callback",
    "LearningRateScheduler": "kerasmini.callbacks.learning_rate_scheduler",
    "ModelCheckpoint": "kerasmini.callbacks.model_checkpoint",
    "ReduceLROnPlateau": "kerasmini.callbacks.reduce_lr_on_plateau",
    "TensorBoard": "kerasmini.callbacks.tensorboard",
    "TerminateOnNaN": "kerasmini.callbacks.terminate_on_nan",
}


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


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
