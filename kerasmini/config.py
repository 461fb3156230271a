"""``kerasmini.config``: the global settings, as ``keras.config``.

Keras 3 gathers them in one namespace (generated into ``keras/config/``
from ``keras/src/backend/config.py`` and a few other modules); so does
kerasmini, from :mod:`kerasmini.backend.config` and the safe-mode switch of
:mod:`kerasmini.saving.serialization`.

>>> from kerasmini import config
>>> config.floatx(), config.epsilon(), config.image_data_format(), config.backend()
('float32', 1e-07, 'channels_last', 'numpy')

Left out, and why: ``set_backend``, ``enable_flash_attention``,
``disable_flash_attention``, ``is_flash_attention_enabled`` and
``is_nnx_enabled`` choose among backends and kernels kerasmini does not have
(NumPy is its only backend); ``dtype_policy``/``set_dtype_policy`` return
and take ``DTypePolicy`` objects for mixed precision, which kerasmini does
not have (a layer's ``dtype`` is one dtype, its default :func:`floatx`);
``enable_traceback_filtering``, ``disable_traceback_filtering`` and
``is_traceback_filtering_enabled`` switch a filter kerasmini does not
apply (its tracebacks are never shortened), and
``enable_interactive_logging``, ``disable_interactive_logging`` and
``is_interactive_logging_enabled`` route the progress bar to ``absl``
logging, which kerasmini does not use; ``max_epochs``,
``max_steps_per_epoch`` and their setters, a global cap on every ``fit``
meant for Keras's own test runs, are left out so that ``fit`` runs the
epochs and steps it is given.
"""

from kerasmini.backend.config import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from kerasmini.saving.serialization import enable_unsafe_deserialization

__all__ = [
    "backend", "enable_unsafe_deserialization", "epsilon", "floatx",
    "image_data_format", "set_epsilon", "set_floatx", "set_image_data_format",
]
