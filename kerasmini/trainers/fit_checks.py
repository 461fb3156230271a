"""Checks of the data and arguments given to ``fit``/``evaluate``/``predict``.

The same rules as :mod:`kerasmini.backend.validation` (the argument named,
what was expected, ``Received: ...``), for model data: nests of arrays, empty
data, ``sample_weight`` and ``class_weight``, ``validation_data``, ``epochs``,
``steps`` and ``verbose``.

>>> check_not_empty(0, np.zeros((0, 4)), "fit")
Traceback (most recent call last):
  ...
ValueError: `fit` needs at least one sample...
"""

import numpy as np

from kerasmini import tree
from kerasmini.backend.validation import (
    _describe,
    check_bool,
    check_float,
    check_int,
    check_verbose,
    is_int,
    is_number_list,
    to_data_array,
)


def data_leaves(data, name):
    """Apply :func:`to_data_array` to every array of a nest of model data (a
    nested list of numbers counts as one array), naming each by its place.

    >>> [a.shape for a in data_leaves([np.zeros((2, 1)), [[1], [2]]], "x")]
    [(2, 1), (2, 1)]
    """
    if data is None:
        return None
    if is_number_list(data) or isinstance(data, np.ndarray):
        return to_data_array(data, name)
    if isinstance(data, dict):
        if not data:
            raise ValueError(f"Argument `{name}` is an empty dict: expected arrays "
                             f"of data. Received: {name}={{}}")
        return {k: data_leaves(v, f"{name}['{k}']") for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        if not data:
            raise ValueError(f"Argument `{name}` is an empty {type(data).__name__}: "
                             f"expected arrays of data. Received: {name}={data!r}")
        return type(data)(data_leaves(v, f"{name}[{i}]") for i, v in enumerate(data))
    return to_data_array(data, name)


def check_not_empty(num_samples, x, method):
    """``fit``/``evaluate`` need at least one sample (``predict`` does not).

    >>> check_not_empty(0, np.zeros((0, 3)), "fit")
    Traceback (most recent call last):
      ...
    ValueError: `fit` needs at least one sample, but `x` has none. Received: x with shape (0, 3)
    """
    if num_samples == 0:
        shapes = [np.shape(a) for a in tree.flatten(x) if a is not None]
        shape = shapes[0] if len(shapes) == 1 else shapes
        raise ValueError(
            f"`{method}` needs at least one sample, but `x` has none. "
            f"Received: x with shape {shape}"
        )


def check_sample_weight_shape(y, sample_weight):
    """``sample_weight`` holds one weight per sample (shape ``(n,)``), or one
    per target value: its shape, without trailing 1s, starts ``y``'s shape.

    >>> check_sample_weight_shape(np.zeros(6), np.ones((6, 2)))
    Traceback (most recent call last):
      ...
    ValueError: `sample_weight` must have one weight per sample, shape (6,), or one ...
    """
    if not isinstance(y, np.ndarray) or not isinstance(sample_weight, np.ndarray):
        return  # several outputs: the losses check each pair
    shape = sample_weight.shape
    while len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    if tuple(y.shape[:len(shape)]) != tuple(shape):
        raise ValueError(
            f"`sample_weight` must have one weight per sample, shape "
            f"({len(y)},), or one per target value (a shape that starts like the "
            f"shape of `y`, {y.shape}). Received: sample_weight.shape="
            f"{sample_weight.shape}"
        )


def check_class_weight(class_weight):
    """``{class index: weight}``.

    >>> check_class_weight([1.0, 2.0])
    Traceback (most recent call last):
      ...
    TypeError: Argument `class_weight` must be a dict mapping class indices to weights. Rece...
    """
    if not isinstance(class_weight, dict):
        raise TypeError(
            "Argument `class_weight` must be a dict mapping class indices to "
            f"weights. Received: class_weight={class_weight!r} (of type "
            f"{type(class_weight).__name__})"
        )
    for key, weight in class_weight.items():
        if not is_int(key) or key < 0:
            raise ValueError(
                "The keys of `class_weight` must be class indices (integers >= 0). "
                f"Received: class_weight={class_weight!r}"
            )
        check_float(weight, f"class_weight[{key}]")
    return class_weight


def check_validation_data(validation_data):
    """``(x_val, y_val)`` or ``(x_val, y_val, val_sample_weight)``.

    >>> check_validation_data(np.zeros((2, 2)))
    Traceback (most recent call last):
      ...
    ValueError: Argument `validation_data` must be a tuple `(x_val, y_val)` or `(x_val, y_va...
    """
    if validation_data is None:
        return None
    if isinstance(validation_data, (list, tuple)) and \
            len(validation_data) in (2, 3) and not is_number_list(validation_data):
        return tuple(validation_data)
    from_dataset = hasattr(validation_data, "__getitem__") and \
        hasattr(validation_data, "on_epoch_end")
    if from_dataset or hasattr(validation_data, "__next__"):
        # a PyDataset or a generator brings its own targets
        return validation_data
    raise ValueError(
        "Argument `validation_data` must be a tuple `(x_val, y_val)` or "
        "`(x_val, y_val, val_sample_weight)`. Received: "
        + (f"a {type(validation_data).__name__} of length {len(validation_data)}"
           if isinstance(validation_data, (list, tuple))
           else _describe(validation_data))
    )


def check_fit_arguments(epochs, initial_epoch, shuffle, verbose, validation_freq,
                        steps_per_epoch, class_weight, validation_data):
    """The arguments of ``fit`` that are not data, checked before any work.

    >>> check_fit_arguments(2.5, 0, True, "auto", 1, None, None, None)
    Traceback (most recent call last):
      ...
    TypeError: `fit`: argument `epochs` must be an integer >= 0. Received: epochs=2.5 (of ty...
    """
    check_int(epochs, "epochs", minimum=0, owner="`fit`")
    check_int(initial_epoch, "initial_epoch", minimum=0, owner="`fit`")
    check_bool(shuffle, "shuffle", owner="`fit`")
    check_verbose(verbose, owner="`fit`")
    check_int(validation_freq, "validation_freq", minimum=1, owner="`fit`")
    check_int(steps_per_epoch, "steps_per_epoch", minimum=1, allow_none=True,
              owner="`fit`")
    if class_weight is not None:
        check_class_weight(class_weight)
    return check_validation_data(validation_data)


def check_steps_and_verbose(method, steps, verbose):
    """``steps`` (a positive integer or None) and ``verbose`` of ``evaluate``
    and ``predict``.

    >>> check_steps_and_verbose("predict", 0, 0)
    Traceback (most recent call last):
      ...
    ValueError: `predict`: argument `steps` must be an integer >= 1 or None. Received: steps=0
    """
    check_int(steps, "steps", minimum=1, allow_none=True, owner=f"`{method}`")
    check_verbose(verbose, owner=f"`{method}`")


# ------------------------------------------------------------------ weights
