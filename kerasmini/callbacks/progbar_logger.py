"""``ProgbarLogger``: the progress bar ``fit`` prints (``verbose=1`` or ``2``)."""

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback
from kerasmini.utils.progbar import Progbar


@keras_export("kerasmini.callbacks.ProgbarLogger")
class ProgbarLogger(Callback):
    """Prints ``Epoch 1/5`` (when there are several epochs) and a
    :class:`~kerasmini.utils.progbar.Progbar` line per epoch; silent during the
    validation inside ``fit``.

    >>> logger = ProgbarLogger()
    >>> logger.set_params({"verbose": 2, "epochs": 1, "steps": 2})
    >>> logger.on_epoch_begin(0); logger.on_epoch_end(0, {"loss": 0.5})  # doctest: +ELLIPSIS
    2/2 - 0s - ...s/step - loss: 0.5000
    """

    def __init__(self):
        super().__init__()
        self.progbar = None
        self.verbose = 1
        self.epochs = 1
        self.target = None
        self._called_in_fit = False

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _reset(self):
        self.progbar = Progbar(target=self.target, verbose=self.verbose)

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        if self.verbose == 1:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset()

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit and self.verbose == 1:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self.progbar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_predict_begin(self, logs=None):
        self._reset()

    def on_predict_batch_end(self, batch, logs=None):
        if self.verbose == 1:
            self.progbar.update(batch + 1, finalize=False)

    def on_predict_end(self, logs=None):
        self.progbar.update(self.target, finalize=True)
