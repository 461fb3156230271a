"""``LearningRateScheduler``: set the optimizer's learning rate at each epoch."""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback


@keras_export("kerasmini.callbacks.LearningRateScheduler")
class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch from ``schedule(epoch, lr)``.

    The optimizer's learning rate is a variable, so a traced training step
    reads the new value on its next replay. The epoch logs get a
    ``learning_rate`` entry.

    >>> scheduler = LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
    >>> scheduler.schedule(1, 0.1)
    0.05
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        if not callable(schedule):
            raise TypeError(
                "Argument `schedule` must be a function of the epoch (and the "
                f"current learning rate). Received: schedule={schedule!r} (of type "
                f"{type(schedule).__name__})"
            )
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr = float(np.asarray(self.model.optimizer.learning_rate))
        try:
            lr = self.schedule(epoch, lr)
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):  # an int too
            raise ValueError(
                "The output of the `schedule` function should be a float. Got: "
                f"{lr}"
            )
        self.model.optimizer.learning_rate = float(lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate "
                  f"to {float(lr)}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            rate = self.model.optimizer.learning_rate
            logs["learning_rate"] = float(np.asarray(rate))
