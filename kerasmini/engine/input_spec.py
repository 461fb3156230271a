"""``InputSpec``: what a layer accepts, and the check that enforces it.

A layer sets ``self.input_spec`` (usually in ``__init__`` and again in
``build`` once it knows its input size); every call checks the first input
against it in :func:`assert_input_compatibility` before anything else runs,
so a wrong shape gets a message that names the layer instead of a NumPy
broadcasting error deep inside ``call``. The messages follow Keras 3.

>>> spec = InputSpec(min_ndim=2, axes={-1: 10})
>>> spec
InputSpec(min_ndim=2, axes={-1: 10})
>>> import numpy as np
>>> assert_input_compatibility(spec, np.zeros((3, 5)), "dense")
Traceback (most recent call last):
  ...
ValueError: Input 0 of layer "dense" is incompatible with the layer: expected axis -1 ...
"""

from kerasmini.api_export import keras_export
from kerasmini.backend import config


@keras_export(["kerasmini.InputSpec", "kerasmini.layers.InputSpec"])
class InputSpec:
    """Rank, dtype and shape constraints on one input of a layer.

    Args:
        dtype: expected dtype name.
        shape: expected shape (``None`` entries are free); sets ``ndim``.
        ndim, max_ndim, min_ndim: rank constraints.
        axes: ``{axis: size}`` for axes whose size is fixed.
        name: the input's name, for dict inputs.

    >>> InputSpec(shape=(None, 3)).ndim
    2
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None,
                 min_ndim=None, axes=None, allow_last_axis_squeeze=False, name=None):
        self.dtype = config.standardize_dtype(dtype) if dtype is not None else None
        self.shape = tuple(shape) if shape is not None else None
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name = name
        self.axes = dict(axes or {})
        for key in self.axes:
            if not isinstance(key, int):
                raise TypeError(
                    f"The keys in `axes` must be integers. Received: axes={axes}"
                )
        max_axis = max(self.axes) if self.axes else None
        limit = self.ndim if self.ndim is not None else self.max_ndim
        if max_axis is not None and limit is not None and max_axis >= limit:
            raise ValueError(
                f"Axis {max_axis} is greater than the maximum allowed value: {limit - 1}"
            )

    def __repr__(self):
        fields = [
            f"dtype={self.dtype}" if self.dtype else "",
            f"shape={self.shape}" if self.shape else "",
            f"ndim={self.ndim}" if self.ndim is not None and not self.shape else "",
            f"max_ndim={self.max_ndim}" if self.max_ndim is not None else "",
            f"min_ndim={self.min_ndim}" if self.min_ndim is not None else "",
            f"axes={self.axes}" if self.axes else "",
        ]
        return "InputSpec(" + ", ".join(f for f in fields if f) + ")"

    def get_config(self):
        return {
            "dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
            "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
        }


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    return tuple(shape)


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise ``ValueError`` if ``inputs`` do not satisfy ``input_spec``.

    Args:
        input_spec: an :class:`InputSpec`, a list of them, or ``None``.
        inputs: a tensor (array, Variable, KerasTensor) or a list of them.
        layer_name: used in the messages.

    >>> import numpy as np
    >>> assert_input_compatibility(InputSpec(ndim=2), np.zeros(5), "dense")
    Traceback (most recent call last):
      ...
    ValueError: Input 0 of layer "dense" is incompatible with the layer: expected ...
    """
    if not input_spec:
        return
    specs = input_spec if isinstance(input_spec, (list, tuple)) else [input_spec]
    if isinstance(inputs, dict) and not isinstance(input_spec, (list, tuple)) \
            and not input_spec.name:
        raise ValueError(
            f'Layer "{layer_name}" expects one input tensor, not a dict. '
            f"Received: a dict with keys {list(inputs)}"
        )
    if isinstance(inputs, dict):
        names = [spec.name for spec in specs]
        if all(names):
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(
                    f'Missing data for input "{missing[0]}". You passed a data '
                    f"dictionary with keys {list(inputs)}. Expected the following "
                    f"keys: {names}"
                )
            inputs = [inputs[n] for n in names]
        else:
            inputs = list(inputs.values())
    flat = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    for x in flat:
        if _shape_of(x) is None:
            raise ValueError(
                f"Inputs to a layer should be tensors. Got '{x}' (of type "
                f"{type(x)}) as input for layer '{layer_name}'."
            )
    if len(flat) != len(specs):
        raise ValueError(
            f'Layer "{layer_name}" expects {len(specs)} input(s), but it received '
            f"{len(flat)} input tensors. Inputs received: {flat}"
        )
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None:
            continue
        shape = _shape_of(x)
        ndim = len(shape)
        head = f'Input {index} of layer "{layer_name}" is incompatible with the layer: '
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(
                f"{head}expected ndim={spec.ndim}, found ndim={ndim}. "
                f"Full shape received: {shape}"
            )
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(
                f"{head}expected max_ndim={spec.max_ndim}, found ndim={ndim}. "
                f"Full shape received: {shape}"
            )
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(
                f"{head}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                f"Full shape received: {shape}"
            )
        if spec.dtype is not None:
            dtype = getattr(x, "dtype", None)
            dtype = getattr(dtype, "name", dtype)
            if dtype != spec.dtype:
                raise ValueError(
                    f"{head}expected dtype={spec.dtype}, found dtype={dtype}"
                )
        for axis, value in spec.axes.items():
            if value is None:
                continue
            if -ndim <= axis < ndim and shape[axis] not in (value, None):
                raise ValueError(
                    f"{head}expected axis {axis} of input shape to have value "
                    f"{value}, but received input with shape {shape}"
                )
        if spec.shape is not None:
            if len(spec.shape) != ndim or any(
                s is not None and d is not None and s != d
                for s, d in zip(spec.shape, shape)
            ):
                raise ValueError(
                    f"{head}expected shape={spec.shape}, found shape={shape}"
                )
