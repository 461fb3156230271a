"""``History``: what ``fit`` returns, the logs of every epoch."""

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback


@keras_export("kerasmini.callbacks.History")
class History(Callback):
    """Records the epoch logs: ``history.history["loss"]`` is a list per epoch.

    ``fit`` returns it (and stores it as ``model.history``).

    >>> class Model:  # anything with a `history` attribute will do here
    ...     history = None
    >>> history = History(); history.set_model(Model())
    >>> history.on_epoch_end(0, {"loss": 0.5}); history.on_epoch_end(1, {"loss": 0.25})
    >>> history.history, history.epoch
    ({'loss': [0.5, 0.25]}, [0, 1])
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self

    def __repr__(self):
        return f"<History epochs={len(self.epoch)}, keys={list(self.history)}>"
