"""``TerminateOnNaN``: stop training as soon as the loss is NaN or infinite."""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback


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

