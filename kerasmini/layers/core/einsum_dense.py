"""``EinsumDense``: a dense layer whose product is an ``einsum`` equation.

``Dense`` multiplies the last axis of its input by a 2-D kernel. An einsum
equation says more: ``"abc,cde->abde"`` takes inputs ``(batch, seq, c)``
and a kernel ``(c, d, e)`` and gives ``(batch, seq, d, e)``, one matrix
product per ``(d, e)`` pair. The letters of the input and the output name
their axes; the kernel's letters say which input axes are summed away
(``c``) and which output axes it creates (``d``, ``e``), so ``build`` can
work out the kernel's shape from the equation and the input shape alone.
``MultiHeadAttention`` is built from four of these.

>>> import numpy as np
>>> from kerasmini.backend import clear_session
>>> clear_session()
>>> layer = EinsumDense("abc,cde->abde", output_shape=(None, 2, 5), bias_axes="de")
>>> layer(np.ones((4, 3, 8))).shape
(4, 3, 2, 5)
>>> [(w.path, w.shape) for w in layer.weights]
[('einsum_dense/kernel', (8, 2, 5)), ('einsum_dense/bias', (2, 5))]
"""

import re

from kerasmini import activations, constraints, initializers, ops, regularizers
from kerasmini.api_export import keras_export
from kerasmini.engine.base_layer import Layer
from kerasmini.engine.input_spec import InputSpec


@keras_export("kerasmini.layers.EinsumDense")
class EinsumDense(Layer):
    """A layer computing ``activation(einsum(equation, inputs, kernel) + bias)``.

    Args:
        equation: ``"ab,bc->ac"`` (input, kernel, output), optionally with
            ``...`` before the input and output letters (``"...x,xy->...y"``,
            any number of leading axes) or after them (``"ab...,bc->ac..."``).
        output_shape: the output's shape without the batch axis and the
            ``...`` axes; an int for one axis, ``None`` for an axis the
            input gives.
        activation: applied last; ``None`` means linear.
        bias_axes: the output letters that get a bias (``"de"``); ``None``
            means no bias.
        kernel_initializer, bias_initializer: initializers.
        kernel_regularizer, bias_regularizer: optional penalties.
        kernel_constraint, bias_constraint: optional constraints.

    >>> import numpy as np
    >>> dense = EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c")
    >>> dense(np.ones((2, 4))).shape  # Dense(3), written as an equation
    (2, 3)
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        _split_equation(equation)  # a bad equation fails here, not at build
        self.equation = equation
        if isinstance(output_shape, int):
            self.partial_output_shape = (output_shape,)
        else:
            self.partial_output_shape = tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        kernel_shape, bias_shape, _, input_axes, output_axes = analyze_equation(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        self.kernel = self.add_weight(
            name="kernel", shape=tuple(kernel_shape),
            initializer=self._kernel_initializer_for(input_axes, output_axes),
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if bias_shape is not None:
            self.bias = self.add_weight(
                name="bias", shape=tuple(bias_shape),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def _kernel_initializer_for(self, input_axes, output_axes):
        """A Glorot-style initializer scales by fan-in and fan-out. For a kernel
        of more than two axes they are not its last two: give it the kernel's
        input and output axes (a copy, so the config stays as the user wrote
        it)."""
        init = self.kernel_initializer
        if not isinstance(init, initializers.VarianceScaling) or (
                init.input_axes is not None and init.output_axes is not None):
            return init
        config = init.get_config()
        config.update(input_axes=input_axes, output_axes=output_axes)
        return type(init).from_config(config)

    def call(self, inputs):
        x = ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        _, _, output_shape, _, _ = analyze_equation(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        return tuple(output_shape)

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape,
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(
                self.activity_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
        })
        return config


# The three forms Keras accepts: "ab,bc->ac", "...ab,bc->...ac", "ab...,bc->ac...".
_FORMS = (
    (None, re.compile(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$")),
    ("left", re.compile(r"\.\.\.([a-zA-Z]+),([a-zA-Z]+)->\.\.\.([a-zA-Z]+)$")),
    ("right", re.compile(r"([a-zA-Z]{2,})\.\.\.,([a-zA-Z]+)->([a-zA-Z]+)\.\.\.$")),
)


def _split_equation(equation):
    """``(ellipsis, input letters, kernel letters, output letters)``, where
    ``ellipsis`` is ``None``, ``"left"`` or ``"right"``.

    >>> _split_equation("...x,xy->...y")
    ('left', 'x', 'xy', 'y')
    """
    for ellipsis, form in _FORMS:
        match = form.match(str(equation))
        if match:
            return (ellipsis,) + match.groups()
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form "
        "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."
    )


def analyze_equation(equation, bias_axes, input_shape, output_shape):
    """Read the weights' shapes off the equation and the input shape.

    Returns ``(kernel_shape, bias_shape, full_output_shape, input_axes,
    output_axes)``: ``bias_shape`` is ``None`` without ``bias_axes``;
    ``input_axes``/``output_axes`` are the kernel axes that meet the input
    and make the output (its fan-in and fan-out).

    >>> analyze_equation("abc,cde->abde", "de", (None, 7, 8), (None, 2, 5))
    ([8, 2, 5], [2, 5], [None, None, 2, 5], [0], [1, 2])
    """
    ellipsis, input_spec, kernel_spec, output_spec = _split_equation(equation)
    input_shape = tuple(input_shape)
    elided = len(input_shape) - len(input_spec)  # the axes "..." stands for

    # The full output shape: the batch axis, the "..." axes, the given ones.
    output_shape = [input_shape[0]] + list(output_shape)
    if elided > 0 and ellipsis == "left":
        output_shape[1:1] = input_shape[1:elided]
    elif elided > 0:
        output_shape += input_shape[-elided:]
    # Where each letter's axis is in the input and in the full output.
    offset = elided if ellipsis == "left" else 0
    input_axis = {c: i + offset for i, c in enumerate(input_spec)}
    output_axis = {c: i + offset for i, c in enumerate(output_spec)}

    for c in input_spec:  # a letter kept from input to output keeps its size
        given = output_shape[output_axis[c]] if c in output_axis else None
        if given is not None and given != input_shape[input_axis[c]]:
            raise ValueError(
                "Input shape and output shape do not match at shared dimension "
                f"'{c}'. Input shape is {input_shape[input_axis[c]]}, and output "
                f"shape is {given}."
            )
    for c in output_spec:
        if c not in input_spec and c not in kernel_spec:
            raise ValueError(
                f"Dimension '{c}' was specified in the output '{output_spec}' but "
                f"has no corresponding dim in the input spec '{input_spec}' or "
                f"weight spec '{kernel_spec}'"
            )

    # Each kernel axis either makes an output axis or meets an input axis.
    kernel_shape, input_axes, output_axes = [], [], []
    for i, c in enumerate(kernel_spec):
        if c in output_axis:
            kernel_shape.append(output_shape[output_axis[c]])
            output_axes.append(i)
        elif c in input_axis:
            kernel_shape.append(input_shape[input_axis[c]])
            input_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{c}' did not have a match in either the input "
                f"spec '{input_spec}' or the output spec '{output_spec}'. For this "
                "layer, the weight must be fully specified."
            )
    return (kernel_shape, _bias_shape(bias_axes, output_spec, output_shape,
                                      output_axis, ellipsis, elided),
            output_shape, input_axes, output_axes)


def _bias_shape(bias_axes, output_spec, output_shape, output_axis, ellipsis,
                elided):
    """The bias covers the output from its first biased letter to the end,
    with size 1 on the unbiased axes in between (so it broadcasts)."""
    if bias_axes is None:
        return None
    for c in bias_axes:
        if c not in output_spec:
            raise ValueError(
                f"Bias dimension '{c}' was requested, but is not part of the "
                f"output spec '{output_spec}'"
            )
    first = min(output_spec.index(c) for c in bias_axes)
    shape = [output_shape[output_axis[c]] if c in bias_axes else 1
             for c in output_spec[first:]]
    if ellipsis != "left":
        shape += [1] * max(elided, 0)  # the trailing "..." axes
    return shape
