"""``Callback``: the base class, with one empty hook per moment of the loop.

>>> class Counter(Callback):
...     def on_epoch_end(self, epoch, logs=None):
...         print("epoch", epoch)
>>> Counter().on_epoch_end(3)
epoch 3
"""

from kerasmini.api_export import keras_export


@keras_export("kerasmini.callbacks.Callback")
class Callback:
    """Base class: every hook does nothing; override the ones you need.

    ``self.model`` is the model being trained, ``self.params`` holds
    ``verbose``, ``epochs`` and ``steps`` (batches per epoch); both are
    ``None`` until a loop sets them, as in Keras 3.

    >>> class Counter(Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         print("epoch", epoch, "loss", logs["loss"])
    >>> Counter().on_epoch_end(0, {"loss": 0.5})
    epoch 0 loss 0.5
    """

    def __init__(self):
        self.params = None
        self.model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # the Keras 2 name still works

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def __repr__(self):
        return f"<{type(self).__name__}>"
