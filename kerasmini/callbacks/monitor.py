"""Which way is better for a monitored quantity: shared by the callbacks that
watch one (``EarlyStopping``, ``ModelCheckpoint``).

>>> _monitor_op("auto", "val_accuracy").__name__
'greater'
>>> _monitor_op("auto", "val_loss").__name__
'less'
"""

import numpy as np


def _monitor_op(mode, monitor):
    if not isinstance(monitor, str):
        raise TypeError(
            "Argument `monitor` must be the name of a logged quantity, such as "
            f"'val_loss'. Received: monitor={monitor!r} (of type "
            f"{type(monitor).__name__})"
        )
    if mode not in ("auto", "min", "max"):
        raise ValueError(
            f"Unknown mode: {mode!r}. Expected one of 'auto', 'min', 'max'."
        )
    if mode == "auto":
        wants_max = any(key in monitor for key in (
            "acc", "auc", "precision", "recall", "io_u", "cosine_similarity"))
        mode = "max" if wants_max and "loss" not in monitor else "min"
    return np.greater if mode == "max" else np.less
