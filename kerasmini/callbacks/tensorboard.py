"""``TensorBoard``: a name kept so that code written for Keras fails clearly."""

from kerasmini.api_export import keras_export
from kerasmini.callbacks.callback import Callback


@keras_export("kerasmini.callbacks.TensorBoard")
class TensorBoard(Callback):
    """Not available: TensorBoard reads event files written by TensorFlow's
    summary ops, which a NumPy-only library does not have.

    The signature is Keras 3's, so a script fails here, at the callback, with
    the reason, rather than with an ``AttributeError``. Use
    :class:`~kerasmini.callbacks.CSVLogger` and the ``History`` instead.

    >>> TensorBoard(log_dir="./logs")
    Traceback (most recent call last):
      ...
    NotImplementedError: kerasmini has no TensorBoard callback: ...
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True,
                 write_images=False, write_steps_per_second=False,
                 update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        raise NotImplementedError(
            "kerasmini has no TensorBoard callback: TensorBoard reads event "
            "files written with TensorFlow, which kerasmini (NumPy only) does "
            "not use. Log with `keras.callbacks.CSVLogger` or read "
            f"`model.fit(...).history` instead. Received: log_dir={log_dir!r}"
        )
