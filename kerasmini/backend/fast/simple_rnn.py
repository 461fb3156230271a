"""The fused SimpleRNN: ``h = tanh(x @ kernel + bias + h @ recurrent_kernel)``
over a whole sequence as one step of a traced graph, and its backward as one
more (the device of :mod:`~kerasmini.backend.fast.recurrent`; Keras has no
fused SimpleRNN, kerasmini's ``SimpleRNN.inner_loop`` asks for this one the
way ``LSTM.inner_loop`` asks for the fused LSTM).

>>> import numpy as np
>>> from kerasmini.backend import function
>>> from kerasmini.backend import numpy as bnp
>>> rng = np.random.default_rng(0)
>>> x, h0 = rng.normal(size=(2, 3, 4)), np.zeros((2, 5))
>>> w, r, b = rng.normal(size=(4, 5)), rng.normal(size=(5, 5)), np.zeros(5)
>>> f = function(lambda *a: simple_rnn(a[0], a[1], None, *a[2:], bnp.tanh)[0])
>>> f(x, h0, w, r, b).shape
(2, 5)
>>> [step[3] for step in next(iter(f.graphs.values())).steps]
['simple_rnn', 'lstm_read']
"""

import numpy as np

from kerasmini.backend.core import Primitive
from kerasmini.backend.fast.recurrent import (
    _arguments,
    _check_fusible,
    _in_order,
    _layout,
    _optional,
    _views,
    expand_dims,
    lstm_part,
    lstm_read,
)


def _forward(x, kernel, recurrent_kernel, h0, *rest, use_bias=True,
             go_backwards=False, zero_output_for_mask=False):
    """The cache of one SimpleRNN over ``x`` (see :func:`recurrent._layout`)."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    units = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    layout = _layout(steps, batch, units, masked, "simple")
    cache = np.empty(layout["size"], x.dtype)
    v = _views(cache, layout)
    new, h = v["new"], v["h"]
    xz = np.matmul(np.reshape(x, (batch * steps, features)), kernel)
    xz = xz.reshape(batch, steps, units)
    xz += bias
    xz = _in_order(xz, go_backwards)
    h[0] = h0
    if masked:
        drop = ~_in_order(np.asarray(mask, bool), go_backwards).T[:, :, None]
        y = v["y"]
    for t in range(steps):
        np.matmul(h[t], recurrent_kernel, out=new[t])
        new[t] += xz[:, t]
        np.tanh(new[t], out=new[t])
        if not masked:
            h[t + 1] = new[t]
            continue
        np.copyto(h[t + 1], new[t])
        np.copyto(h[t + 1], h[t], where=drop[t])
        np.copyto(y[t], new[t])
        if t == 0 or zero_output_for_mask:
            np.copyto(y[t], 0, where=drop[t])
        else:
            np.copyto(y[t], y[t - 1], where=drop[t])
    return cache


def _backward(g, cache, x, kernel, recurrent_kernel, h0, *rest, use_bias=True,
              go_backwards=False, zero_output_for_mask=False):
    """The gradients of the inputs of :func:`_forward` but the mask, in one
    flat array."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    units = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    v = _views(cache, _layout(steps, batch, units, masked, "simple"))
    new, h = v["new"], v["h"]
    slope = np.square(new)  # 1 - tanh^2
    np.subtract(1, slope, out=slope)
    dz = np.empty((steps, batch, units), x.dtype)
    g_y, dh = g[:steps], g[steps].copy()
    r_t = recurrent_kernel.T
    if masked:
        keep = _in_order(np.asarray(mask, x.dtype), go_backwards).T[:, :, None]
        drop = 1 - keep
        dy = np.zeros((batch, units), x.dtype)
        dh_new = np.empty_like(dh)
    for t in range(steps - 1, -1, -1):
        if masked:
            dy += g_y[t]
            np.add(dh, dy, out=dh_new)
            dh_new *= keep[t]
            dh *= drop[t]
            if zero_output_for_mask:
                dy[...] = 0
            else:
                dy *= drop[t]
            np.multiply(dh_new, slope[t], out=dz[t])
            dh += np.matmul(dz[t], r_t)
        else:
            dh += g_y[t]
            np.multiply(dh, slope[t], out=dz[t])
            np.matmul(dz[t], r_t, out=dh)
    sizes = [np.size(arg) for arg in (x, kernel, recurrent_kernel, h0, bias)]
    out = np.empty(sum(sizes), x.dtype)
    parts = np.split(out, np.cumsum(sizes)[:-1])
    flat = dz.reshape(steps * batch, units)
    xs = np.ascontiguousarray(_in_order(x, go_backwards).transpose(1, 0, 2))
    g_x = np.matmul(flat, kernel.T).reshape(steps, batch, features)
    parts[0].reshape(x.shape)[...] = _in_order(g_x.transpose(1, 0, 2), go_backwards)
    np.matmul(xs.reshape(steps * batch, features).T, flat,
              out=parts[1].reshape(kernel.shape))
    np.matmul(h[:-1].reshape(steps * batch, units).T, flat,
              out=parts[2].reshape(recurrent_kernel.shape))
    parts[3][...] = dh.reshape(-1)
    if use_bias:
        np.sum(flat, axis=0, out=parts[4])
    return out


simple_rnn_scan = Primitive("simple_rnn", _forward)
"""``cache = simple_rnn_scan(x, kernel, recurrent_kernel, h0[, bias][, mask])``."""
simple_rnn_scan_grad = Primitive("simple_rnn_grad", _backward)


def _scan_rule(argnum, g, ans, *args, **params):
    if argnum >= 4 + params["use_bias"]:  # the mask
        return None
    grads = simple_rnn_scan_grad(g, ans, *args, **params)  # one step, reused
    shapes = tuple(tuple(np.shape(arg)) for arg in args[:4 + params["use_bias"]])
    return lstm_part(grads, index=argnum, shapes=shapes)


simple_rnn_scan.defvjp_argnum(_scan_rule)


def simple_rnn(inputs, initial_state, mask, kernel, recurrent_kernel, bias,
               activation, return_sequences=False, go_backwards=False,
               zero_output_for_mask=False):
    """The whole SimpleRNN as one fused step, or ``NotImplementedError``
    (then the layer loops): as the fused LSTM, with ``activation=tanh``.

    Returns:
        ``(last_output, outputs, [h])``.

    >>> from kerasmini.backend import nn
    >>> simple_rnn(np.ones((1, 2, 3)), np.zeros((1, 4)), None, np.ones((3, 4)),
    ...            np.ones((4, 4)), None, nn.relu)
    Traceback (most recent call last):
      ...
    NotImplementedError: The fused SimpleRNN runs only while a step is traced.
    """
    _check_fusible(inputs, [initial_state], kernel, recurrent_kernel, bias,
                   activation, activation, mask, layer="SimpleRNN", gate=None)
    steps, batch, units = inputs.shape[1], inputs.shape[0], recurrent_kernel.shape[0]
    params = {"use_bias": bias is not None, "go_backwards": bool(go_backwards),
              "zero_output_for_mask": bool(zero_output_for_mask)}
    cache = simple_rnn_scan(*_arguments(inputs, kernel, recurrent_kernel,
                                        initial_state, bias, mask), **params)
    dims = (steps, batch, units, mask is not None, "simple")
    last = lstm_read(cache, part="last", dims=dims)
    if return_sequences:
        outputs = lstm_read(cache, part="sequence", dims=dims)
    else:
        outputs = expand_dims(last, 1)
    return last, outputs, [lstm_read(cache, part="h", dims=dims)]


__all__ = ["simple_rnn", "simple_rnn_scan", "simple_rnn_scan_grad"]
