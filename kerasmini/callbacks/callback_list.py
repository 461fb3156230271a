"""``CallbackList``: calls every callback's hook, with tidy logs.

The loop calls one :class:`CallbackList`, which calls every callback's hook in
order; logs reach the callbacks as plain Python floats with sorted keys (Keras
3's ``pythonify_logs``), so ``History`` records ``accuracy`` before ``loss``.

>>> from kerasmini.callbacks.lambda_callback import LambdaCallback
>>> seen = []
>>> cb = LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs)))
>>> CallbackList([cb]).on_epoch_end(0, {"loss": np.float32(0.5), "accuracy": 1})
>>> seen
[(0, {'accuracy': 1.0, 'loss': 0.5})]
"""

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback
from kerasmini.callbacks.history import History
from kerasmini.callbacks.progbar_logger import ProgbarLogger

_HOOKS = [
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
    "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
    "on_predict_batch_begin", "on_predict_batch_end",
]


def pythonify_logs(logs):
    """Logs as ``{name: float}``, keys sorted, nested dicts flattened.

    >>> pythonify_logs({"loss": np.array(0.25), "b": {"acc": 1}})
    {'acc': 1.0, 'loss': 0.25}
    """
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            value = float(np.asarray(value))
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


@keras_export("kerasmini.callbacks.CallbackList")
class CallbackList(Callback):
    """Calls a list of callbacks together; adds ``History``/``ProgbarLogger``.

    Args:
        callbacks: the user's callbacks.
        add_history: append a :class:`History` unless one is given.
        add_progbar: append a :class:`ProgbarLogger` unless one is given.
        model: passed to every callback's ``set_model``.
        **params: passed to every callback's ``set_params``.

    >>> callbacks = CallbackList([Callback()], add_history=True)
    >>> [type(c).__name__ for c in callbacks.callbacks]
    ['Callback', 'History']
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False,
                 model=None, **params):
        super().__init__()
        self.callbacks = _check_callbacks(callbacks)
        self._active = {}  # (hook, number of callbacks) -> those implementing it
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger)
                                   for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)
            if isinstance(callback, History):
                model.history = callback

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def __repr__(self):
        return f"<CallbackList {[type(c).__name__ for c in self.callbacks]}>"


def _check_callbacks(callbacks):
    """``callbacks`` as a list of :class:`Callback` objects, or a TypeError."""
    if callbacks is None:
        return []
    if not isinstance(callbacks, (list, tuple)):
        raise TypeError(
            "Argument `callbacks` must be a list of `kerasmini.callbacks.Callback` "
            f"instances. Received: callbacks={callbacks!r} (of type "
            f"{type(callbacks).__name__})"
        )
    for callback in callbacks:
        if not isinstance(callback, Callback):
            raise TypeError(
                "Every entry of `callbacks` must be a `kerasmini.callbacks.Callback` "
                f"instance. Received: {callback!r} (of type {type(callback).__name__}) "
                f"in callbacks={list(callbacks)!r}"
            )
    return list(callbacks)


def _overrides(callback, hook):
    """Whether ``callback`` does something in ``hook`` (the base class does not)."""
    names = [hook]
    if hook.startswith("on_train_batch_"):
        names.append(hook.replace("on_train_batch_", "on_batch_"))
    return any(name in vars(callback) or
               getattr(type(callback), name) is not getattr(Callback, name)
               for name in names)


def _dispatch(hook):
    """``CallbackList.<hook>``: tidy the logs once, call every callback that
    implements the hook (none: skip the work, which matters once per batch)."""
    takes_index = "batch" in hook or "epoch" in hook

    def call_all(self, *args, logs=None):
        key = (hook, len(self.callbacks))
        active = self._active.get(key)
        if active is None:
            active = self._active[key] = [c for c in self.callbacks
                                          if _overrides(c, hook)]
        if not active:
            return
        index, rest = (args[:1], args[1:]) if takes_index else ((), args)
        logs = pythonify_logs(rest[0] if rest else logs)
        for callback in active:
            getattr(callback, hook)(*index, logs)

    call_all.__name__ = hook
    return call_all


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _dispatch(_hook))
