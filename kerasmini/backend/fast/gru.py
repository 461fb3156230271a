"""The fused GRU: the same device as the fused LSTM (:mod:`~kerasmini.backend.
fast.recurrent`), for Keras 3's default ``reset_after=True`` (cuDNN's GRU).

One step, the columns in blocks z, r, h, with ``inner = h @ recurrent_kernel +
recurrent_bias``::

    z  = sigmoid(x W_z + b_z + inner_z)      r = sigmoid(x W_r + b_r + inner_r)
    hh = tanh(x W_h + b_h + r * inner_h)
    h  = z * h + (1 - z) * hh  (computed as hh + z * (h - hh))

The input projection of every time step is one matmul, the gates z and r one
``tanh`` (their columns scaled by 1/2), and the backward's products that do
not depend on the incoming gradient are computed for all steps at once.

>>> import numpy as np
>>> from kerasmini.backend import function, nn
>>> from kerasmini.backend import numpy as bnp
>>> rng = np.random.default_rng(0)
>>> x, h0 = rng.normal(size=(2, 3, 4)), np.zeros((2, 5))
>>> w, r, b = rng.normal(size=(4, 15)), rng.normal(size=(5, 15)), np.zeros((2, 15))
>>> f = function(lambda *a: gru(a[0], a[1], None, *a[2:], bnp.tanh, nn.sigmoid)[0])
>>> f(x, h0, w, r, b).shape
(2, 5)
>>> [step[3] for step in next(iter(f.graphs.values())).steps]
['gru', 'lstm_read']
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


def _scale(units, dtype):
    """The columns' scale: 1/2 for the gates z and r, 1 for the candidate."""
    a = np.full(3 * units, 0.5, dtype)
    a[2 * units:] = 1
    return a


def _biases(bias, a):
    """The input and recurrent biases, scaled (``0.0`` without a bias)."""
    if np.ndim(bias) == 0:
        return 0.0, 0.0
    return bias[0] * a, bias[1] * a


def _forward(x, kernel, recurrent_kernel, h0, *rest, use_bias=True,
             go_backwards=False, zero_output_for_mask=False):
    """The cache of one GRU over ``x`` (see :func:`recurrent._layout`)."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    u = units = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    layout = _layout(steps, batch, units, masked, "gru")
    cache = np.empty(layout["size"], x.dtype)
    v = _views(cache, layout)
    gates, hh, inner, h = v["gates"], v["hh"], v["inner"], v["h"]
    a = _scale(units, x.dtype)
    input_bias, recurrent_bias = _biases(bias, a)
    xz = np.matmul(np.reshape(x, (batch * steps, features)), kernel * a)
    xz = xz.reshape(batch, steps, 3 * units)
    xz += input_bias
    xz = _in_order(xz, go_backwards)
    r = recurrent_kernel * a
    h[0] = h0
    if masked:
        drop = ~_in_order(np.asarray(mask, bool), go_backwards).T[:, :, None]
        y = v["y"]
    step_inner = np.empty((batch, 3 * units), x.dtype)
    scratch = np.empty((batch, units), x.dtype)
    for t in range(steps):
        np.matmul(h[t], r, out=step_inner)
        step_inner += recurrent_bias
        g = gates[t]
        np.add(xz[:, t, :2 * u], step_inner[:, :2 * u], out=g)
        np.tanh(g, out=g)
        g *= 0.5
        g += 0.5  # z, r
        inner[t] = step_inner[:, 2 * u:]
        np.multiply(g[:, u:], inner[t], out=hh[t])
        hh[t] += xz[:, t, 2 * u:]
        np.tanh(hh[t], out=hh[t])
        np.subtract(h[t], hh[t], out=scratch)
        scratch *= g[:, :u]
        new = y[t] if masked else h[t + 1]
        np.add(hh[t], scratch, out=new)
        if masked:
            np.copyto(h[t + 1], new)
            np.copyto(h[t + 1], h[t], where=drop[t])
            if t == 0 or zero_output_for_mask:
                np.copyto(y[t], 0, where=drop[t])
            else:
                np.copyto(y[t], y[t - 1], where=drop[t])
    return cache


def _backward(g, cache, x, kernel, recurrent_kernel, h0, *rest, use_bias=True,
              go_backwards=False, zero_output_for_mask=False):
    """The gradients of the inputs of :func:`_forward` but the mask, in one
    flat array (:data:`~kerasmini.backend.fast.recurrent.lstm_part` reads
    them)."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    u = units = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    v = _views(cache, _layout(steps, batch, units, masked, "gru"))
    gates, hh, inner, h = v["gates"], v["hh"], v["inner"], v["h"]
    a = _scale(units, x.dtype)
    z, r = gates[..., :u], gates[..., u:]
    slope = np.subtract(1, gates)  # d gate / d z': 2 s (1 - s)
    slope *= gates
    slope *= 2
    to_z = np.subtract(h[:-1], hh)  # dz' = dh_new * to_z
    to_z *= slope[..., :u]
    to_h = np.square(hh)  # d pre_h = dh_new * to_h
    np.subtract(1, to_h, out=to_h)
    to_h *= 1 - z
    to_r = np.multiply(inner, slope[..., u:])  # dr' = d pre_h * to_r
    d_inner = np.empty((steps, batch, 3 * units), x.dtype)  # z', r', inner_h
    d_pre_h = np.empty((steps, batch, units), x.dtype)
    g_y, dh = g[:steps], g[steps].copy()
    r_t = (recurrent_kernel * a).T
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
            new = dh_new
        else:
            dh += g_y[t]
            new = dh
        np.multiply(new, to_z[t], out=d_inner[t, :, :u])
        np.multiply(new, to_h[t], out=d_pre_h[t])
        np.multiply(d_pre_h[t], to_r[t], out=d_inner[t, :, u:2 * u])
        np.multiply(d_pre_h[t], r[t], out=d_inner[t, :, 2 * u:])
        if masked:
            dh += dh_new * z[t]
        else:
            dh *= z[t]
        dh += np.matmul(d_inner[t], r_t)
    d_x = d_inner.copy()  # the input side: z', r', then d pre_h
    d_x[..., 2 * u:] = d_pre_h
    sizes = [np.size(arg) for arg in (x, kernel, recurrent_kernel, h0, bias)]
    out = np.empty(sum(sizes), x.dtype)
    parts = np.split(out, np.cumsum(sizes)[:-1])
    flat_x = d_x.reshape(steps * batch, 3 * units)
    flat_inner = d_inner.reshape(steps * batch, 3 * units)
    xs = np.ascontiguousarray(_in_order(x, go_backwards).transpose(1, 0, 2))
    g_x = np.matmul(flat_x, (kernel * a).T).reshape(steps, batch, features)
    parts[0].reshape(x.shape)[...] = _in_order(g_x.transpose(1, 0, 2), go_backwards)
    np.matmul(xs.reshape(steps * batch, features).T, flat_x,
              out=parts[1].reshape(kernel.shape))
    parts[1] *= np.tile(a, features)
    np.matmul(h[:-1].reshape(steps * batch, units).T, flat_inner,
              out=parts[2].reshape(recurrent_kernel.shape))
    parts[2] *= np.tile(a, units)
    parts[3][...] = dh.reshape(-1)
    if use_bias:
        bias_grad = parts[4].reshape(2, 3 * units)
        np.multiply(flat_x.sum(axis=0), a, out=bias_grad[0])
        np.multiply(flat_inner.sum(axis=0), a, out=bias_grad[1])
    return out


gru_scan = Primitive("gru", _forward)
"""``cache = gru_scan(x, kernel, recurrent_kernel, h0[, bias][, mask])``."""
gru_scan_grad = Primitive("gru_grad", _backward)


def _scan_rule(argnum, g, ans, *args, **params):
    if argnum >= 4 + params["use_bias"]:  # the mask
        return None
    grads = gru_scan_grad(g, ans, *args, **params)  # one step, reused
    shapes = tuple(tuple(np.shape(arg)) for arg in args[:4 + params["use_bias"]])
    return lstm_part(grads, index=argnum, shapes=shapes)


gru_scan.defvjp_argnum(_scan_rule)


def gru(inputs, initial_state, mask, kernel, recurrent_kernel, bias, activation,
        recurrent_activation, return_sequences=False, go_backwards=False,
        unroll=False, reset_after=True, zero_output_for_mask=False):
    """Keras 3's ``backend.gru``: the whole GRU as one fused step, or
    ``NotImplementedError`` (then the layer loops): as the fused LSTM, and
    only with ``reset_after=True`` (and a ``(2, 3 * units)`` bias).

    Returns:
        ``(last_output, outputs, [h])``.

    >>> from kerasmini.backend import nn
    >>> from kerasmini.backend import numpy as bnp
    >>> gru(np.ones((1, 2, 3)), np.zeros((1, 4)), None, np.ones((3, 12)),
    ...     np.ones((4, 12)), None, bnp.tanh, nn.sigmoid, reset_after=False)
    Traceback (most recent call last):
      ...
    NotImplementedError: The fused GRU runs only while a step is traced.
    """
    _check_fusible(inputs, [initial_state], kernel, recurrent_kernel, bias,
                   activation, recurrent_activation, mask, layer="GRU")
    if not reset_after or (bias is not None and len(bias.shape) != 2):
        raise NotImplementedError("The fused GRU needs reset_after=True.")
    steps, batch, units = inputs.shape[1], inputs.shape[0], recurrent_kernel.shape[0]
    params = {"use_bias": bias is not None, "go_backwards": bool(go_backwards),
              "zero_output_for_mask": bool(zero_output_for_mask)}
    cache = gru_scan(*_arguments(inputs, kernel, recurrent_kernel, initial_state,
                                 bias, mask), **params)
    dims = (steps, batch, units, mask is not None, "gru")
    last = lstm_read(cache, part="last", dims=dims)
    if return_sequences:
        outputs = lstm_read(cache, part="sequence", dims=dims)
    else:
        outputs = expand_dims(last, 1)
    return last, outputs, [lstm_read(cache, part="h", dims=dims)]


__all__ = ["gru", "gru_scan", "gru_scan_grad"]
