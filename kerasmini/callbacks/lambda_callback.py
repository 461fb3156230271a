"""``LambdaCallback``: a callback made of plain functions."""

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.callback_list import _HOOKS


@keras_export("kerasmini.callbacks.LambdaCallback")
class LambdaCallback(Callback):
    """A callback made of plain functions, one per hook you pass.

    >>> LambdaCallback(on_epoch_end=print).on_epoch_end(0, {"loss": 1.0})
    0 {'loss': 1.0}
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None,
                 on_train_batch_end=None, **kwargs):
        super().__init__()
        given = dict(kwargs, on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_train_batch_begin=on_train_batch_begin,
                     on_train_batch_end=on_train_batch_end)
        for hook, fn in given.items():
            if hook not in _HOOKS + ["on_batch_begin", "on_batch_end"]:
                raise ValueError(f"Unknown hook for LambdaCallback: {hook!r}")
            if fn is not None and not callable(fn):
                # Keras 3 takes it and fails at the hook: "'int' object is not
                # callable"
                raise TypeError(
                    f"LambdaCallback: argument `{hook}` must be a function (or "
                    f"None). Received: {hook}={fn!r} (of type {type(fn).__name__})"
                )
            if fn is not None:
                setattr(self, hook, fn)
