"""The fused LSTM: a whole sequence as one step of a traced graph.

``LSTM.inner_loop`` first asks the backend for a fused LSTM, as Keras 3's
does (there, ``backend.lstm`` is cuDNN's kernel, and a backend without one
raises ``NotImplementedError`` so the layer runs its loop of cell calls).
Here :func:`lstm` is that kernel, and only while a step is traced: eagerly
(``run_eagerly=True``, or a layer called on arrays) it raises, and
``LSTMCell.call`` runs step by step, as the chapters print it.

Traced, the loop of cell calls would record about 60 ops a time step, 18
forward and 40 backward (each of the four gate slices has a scatter and an
add in the backward). :func:`lstm` records one step instead, the primitive
:data:`lstm_scan`, whose gradient rule records one more,
:data:`lstm_scan_grad`, so a replayed LSTM runs about 10 NumPy calls a time
step forward and 6 backward:

* the input projection ``x @ kernel + bias`` of every time step in one
  matmul, before the loop; the gradients of ``kernel``, ``recurrent_kernel``
  and ``bias`` and of the input in one matmul each, after it;
* the four gates from one ``tanh``: the columns of the sigmoid gates are
  scaled by 1/2 (exactly: a power of two), so ``sigmoid(z) = 0.5 *
  tanh(z / 2) + 0.5`` makes all four gates ``a * tanh(z') + b``;
* the backward's products that do not depend on the incoming gradient
  computed for all time steps at once, before its loop.

Everything the backward needs (the gates, the states, ``tanh(c)``) is kept
in one array, the *cache*, that :data:`lstm_scan` returns; the layer's
results are views of it (:data:`lstm_read`). Its gradient is carried as the
gradient of those results only, ``(timesteps + 2, batch, units)``: the
outputs, the last ``h`` and the last ``c``; the saved intermediates feed
nothing but the backward, so their gradient is zero and left out.

>>> import numpy as np
>>> from kerasmini.backend import function, nn
>>> from kerasmini.backend import numpy as bnp
>>> rng = np.random.default_rng(0)
>>> x, state = rng.normal(size=(2, 3, 4)), np.zeros((2, 5))
>>> w, r, b = rng.normal(size=(4, 20)), rng.normal(size=(5, 20)), np.zeros(20)
>>> def last(x, h0, c0, w, r, b):
...     return lstm(x, h0, c0, None, w, r, b, bnp.tanh, nn.sigmoid)[0]
>>> f = function(last)
>>> f(x, state, state, w, r, b).shape
(2, 5)
>>> [step[3] for step in next(iter(f.graphs.values())).steps]
['lstm', 'lstm_read']
"""

import math

import numpy as np

from kerasmini.backend.core import STATE, GraphTensor, Primitive, identity
from kerasmini.backend.numpy import expand_dims


# ------------------------------------------------------------------ layout
def _layout(steps, batch, units, masked, kind="lstm"):
    """Where each saved array lives in the cache: name -> (offset, shape).

    An LSTM's: ``gates`` (the activated i, f, c, o), the states ``h`` and
    ``c`` from the initial ones on, ``tanh(c)`` of each new carry and, with
    a mask, the outputs ``y`` (which then differ from ``h``). A GRU's
    (:mod:`kerasmini.backend.fast.gru`): the gates z and r, the candidate
    ``hh``, the recurrent part of its pre-activation ``inner``, ``h`` and
    ``y``; a SimpleRNN's (:mod:`kerasmini.backend.fast.simple_rnn`): each
    step's new ``h`` (before a mask) and the states. Time comes first.

    >>> sorted(_layout(2, 1, 3, masked=False))
    ['c', 'gates', 'h', 'size', 'tc']
    """
    if kind == "gru":
        shapes = {"gates": (steps, batch, 2 * units), "hh": (steps, batch, units),
                  "inner": (steps, batch, units), "h": (steps + 1, batch, units)}
    elif kind == "simple":  # a SimpleRNN: each step's new h, the states
        shapes = {"new": (steps, batch, units), "h": (steps + 1, batch, units)}
    else:
        shapes = {"gates": (steps, batch, 4 * units), "h": (steps + 1, batch, units),
                  "c": (steps + 1, batch, units), "tc": (steps, batch, units)}
    if masked:
        shapes["y"] = (steps, batch, units)
    layout, offset = {}, 0
    for name, shape in shapes.items():
        layout[name] = (offset, shape)
        offset += math.prod(shape)
    layout["size"] = offset
    return layout


def _views(cache, layout):
    return {name: cache[entry[0]:entry[0] + math.prod(entry[1])].reshape(entry[1])
            for name, entry in layout.items() if name != "size"}


def _affine(units, dtype):
    """Per column (i, f, c, o): ``a``, ``b`` with ``gate = a * tanh(a * z) +
    b``: ``1/2, 1/2`` for the sigmoid gates, ``1, 0`` for the candidate."""
    a = np.full(4 * units, 0.5, dtype)
    a[2 * units:3 * units] = 1
    b = np.full(4 * units, 0.5, dtype)
    b[2 * units:3 * units] = 0
    return a, b


def _in_order(x, go_backwards):  # time runs along axis 1
    return x[:, ::-1] if go_backwards else x


# ----------------------------------------------------------------- forward
def _optional(rest, use_bias):
    """``(bias, mask)`` from the optional arguments (``0.0``, ``None``)."""
    rest = list(rest)
    bias = rest.pop(0) if use_bias else 0.0
    return bias, (rest[0] if rest else None)


def _forward(x, kernel, recurrent_kernel, h0, c0, *rest, use_bias=True,
             go_backwards=False, zero_output_for_mask=False):
    """The cache of one LSTM over ``x`` ``(batch, timesteps, features)``;
    ``rest`` is ``bias`` (with ``use_bias``), then the mask if any."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    units = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    layout = _layout(steps, batch, units, masked)
    cache = np.empty(layout["size"], x.dtype)
    v = _views(cache, layout)
    gates, h, c, tc = v["gates"], v["h"], v["c"], v["tc"]
    a, b = _affine(units, x.dtype)
    # z' = a * z for every step at once: (batch, timesteps, 4 units)
    xz = np.matmul(np.reshape(x, (batch * steps, features)), kernel * a)
    xz = xz.reshape(batch, steps, 4 * units)
    xz += bias * a
    xz = _in_order(xz, go_backwards)
    r = recurrent_kernel * a
    h[0], c[0] = h0, c0
    if masked:
        drop = ~_in_order(np.asarray(mask, bool), go_backwards).T[:, :, None]
        y = v["y"]
    scratch = np.empty((batch, units), x.dtype)
    u = units
    for t in range(steps):
        g = gates[t]
        np.matmul(h[t], r, out=g)
        g += xz[:, t]
        np.tanh(g, out=g)
        g *= a
        g += b  # i, f, c, o
        np.multiply(g[:, u:2 * u], c[t], out=c[t + 1])  # f * c
        np.multiply(g[:, :u], g[:, 2 * u:3 * u], out=scratch)  # i * tanh(z_c)
        c[t + 1] += scratch
        np.tanh(c[t + 1], out=tc[t])
        if not masked:
            np.multiply(g[:, 3 * u:], tc[t], out=h[t + 1])  # o * tanh(c)
            continue
        # a masked step keeps the states and repeats the previous output
        np.multiply(g[:, 3 * u:], tc[t], out=y[t])
        np.copyto(h[t + 1], y[t])
        np.copyto(h[t + 1], h[t], where=drop[t])
        np.copyto(c[t + 1], c[t], where=drop[t])
        if t == 0 or zero_output_for_mask:
            np.copyto(y[t], 0, where=drop[t])
        else:
            np.copyto(y[t], y[t - 1], where=drop[t])
    return cache


# ---------------------------------------------------------------- backward
def _backward(g, cache, x, kernel, recurrent_kernel, h0, c0, *rest, use_bias=True,
              go_backwards=False, zero_output_for_mask=False):
    """The gradients of the inputs of :func:`_forward` but the mask, in one
    flat array (in the order of the arguments; :data:`lstm_part` reads
    them)."""
    bias, mask = _optional(rest, use_bias)
    batch, steps, features = x.shape
    units = u = recurrent_kernel.shape[0]
    masked = np.ndim(mask) > 0
    v = _views(cache, _layout(steps, batch, units, masked))
    gates, h, c, tc = v["gates"], v["h"], v["c"], v["tc"]
    a, _ = _affine(units, x.dtype)
    # d gate / d z': 2 s (1 - s) for a sigmoid gate, 1 - g^2 for the candidate
    d = np.subtract(1, gates)
    d *= gates
    d *= 2
    np.square(gates[..., 2 * u:3 * u], out=d[..., 2 * u:3 * u])
    np.subtract(1, d[..., 2 * u:3 * u], out=d[..., 2 * u:3 * u])
    # what multiplies the incoming dc (i, f, c blocks) and dh (o block)
    ifc = np.empty((steps, batch, 3, units), x.dtype)
    np.multiply(gates[..., 2 * u:3 * u], d[..., :u], out=ifc[:, :, 0])  # di
    np.multiply(c[:-1], d[..., u:2 * u], out=ifc[:, :, 1])  # df
    np.multiply(gates[..., :u], d[..., 2 * u:3 * u], out=ifc[:, :, 2])  # dc
    o_part = np.multiply(tc, d[..., 3 * u:])  # do
    dtc = np.square(tc)  # dc += dh * o * (1 - tanh(c)^2)
    np.subtract(1, dtc, out=dtc)
    dtc *= gates[..., 3 * u:]
    forget = gates[..., u:2 * u]
    g_y, dh, dc = g[:steps], g[steps].copy(), g[steps + 1].copy()
    dz = np.empty((steps, batch, 4 * units), x.dtype)
    dz4 = dz.reshape(steps, batch, 4, units)
    r_t = (recurrent_kernel * a).T
    scratch = np.empty((batch, units), x.dtype)
    if masked:
        keep = _in_order(np.asarray(mask, x.dtype), go_backwards).T[:, :, None]
        drop = 1 - keep
        dy = np.zeros((batch, units), x.dtype)
        dh_new, dc_new = np.empty_like(dh), np.empty_like(dc)
    for t in range(steps - 1, -1, -1):
        if masked:
            # h_new feeds h[t + 1] and y[t] where kept; elsewhere they pass
            # on h[t] and y[t - 1] (zeros at the start) unchanged
            dy += g_y[t]
            np.add(dh, dy, out=dh_new)
            dh_new *= keep[t]
            dh *= drop[t]
            if zero_output_for_mask:
                dy[...] = 0
            else:
                dy *= drop[t]
            np.multiply(dc, keep[t], out=dc_new)
            dc *= drop[t]
            hn, cn = dh_new, dc_new
        else:
            dh += g_y[t]
            hn, cn = dh, dc
        np.multiply(hn, dtc[t], out=scratch)
        cn += scratch
        np.multiply(cn[:, None, :], ifc[t], out=dz4[t, :, :3])
        np.multiply(hn, o_part[t], out=dz4[t, :, 3])
        if masked:
            cn *= forget[t]
            dc += cn
            dh += np.matmul(dz[t], r_t)
        else:
            dc *= forget[t]
            np.matmul(dz[t], r_t, out=dh)
    # the weights' gradients, all time steps in one matmul each
    sizes = [np.size(arg) for arg in (x, kernel, recurrent_kernel, h0, c0, bias)]
    out = np.empty(sum(sizes), x.dtype)
    parts = np.split(out, np.cumsum(sizes)[:-1])
    flat = dz.reshape(steps * batch, 4 * units)
    xs = np.ascontiguousarray(_in_order(x, go_backwards).transpose(1, 0, 2))
    g_x = np.matmul(flat, (kernel * a).T).reshape(steps, batch, features)
    parts[0].reshape(x.shape)[...] = _in_order(g_x.transpose(1, 0, 2), go_backwards)
    np.matmul(xs.reshape(steps * batch, features).T, flat,
              out=parts[1].reshape(kernel.shape))
    parts[1] *= np.tile(a, features)
    np.matmul(h[:-1].reshape(steps * batch, units).T, flat,
              out=parts[2].reshape(recurrent_kernel.shape))
    parts[2] *= np.tile(a, units)
    parts[3][...] = dh.reshape(-1)
    parts[4][...] = dc.reshape(-1)
    if use_bias:
        np.multiply(flat.sum(axis=0), a, out=parts[5])
    return out


def _part(grads, index, shapes):
    """The gradient of argument ``index`` in :func:`_backward`'s array."""
    sizes = [math.prod(shape) for shape in shapes]
    start = sum(sizes[:index])
    return grads[start:start + sizes[index]].reshape(shapes[index])


def _read(cache, part, dims):
    """A result of the LSTM (or GRU), a view of the cache: ``last`` (the
    last output), ``sequence`` (every output, ``(batch, timesteps,
    units)``), ``h``, ``c`` (the final states). ``dims`` are the
    arguments of :func:`_layout`."""
    v = _views(cache, _layout(*dims))
    if part == "h":
        return v["h"][-1]
    if part == "c":
        return v["c"][-1]
    outputs = v["y"] if "y" in v else v["h"][1:]
    return outputs[-1] if part == "last" else outputs.transpose(1, 0, 2)


def _place(g, part, dims):
    """The gradient of the cache, given that of one of its results: an
    array ``(timesteps + 2, batch, units)`` of the outputs' gradients, then
    the last ``h``'s and the last ``c``'s."""
    steps, batch, units = dims[:3]
    out = np.zeros((steps + 2, batch, units), g.dtype)
    if part == "sequence":
        out[:steps] = np.swapaxes(g, 0, 1)
    else:
        out[{"last": steps - 1, "h": steps, "c": steps + 1}[part]] = g
    return out


lstm_scan = Primitive("lstm", _forward)
"""``cache = lstm_scan(x, kernel, recurrent_kernel, h0, c0[, bias][, mask])``
(parameters ``use_bias``, ``go_backwards``, ``zero_output_for_mask``)."""
lstm_scan_grad = Primitive("lstm_grad", _backward)
lstm_part = Primitive("lstm_grad_part", _part)
lstm_read = Primitive("lstm_read", _read)
lstm_place = Primitive("lstm_read_grad", _place)


def _scan_rule(argnum, g, ans, *args, **params):
    if argnum >= 5 + params["use_bias"]:  # the mask
        return None
    # one step for all the arguments: the graph reuses it (same slots)
    grads = lstm_scan_grad(g, ans, *args, **params)
    shapes = tuple(tuple(np.shape(arg)) for arg in args[:5 + params["use_bias"]])
    return lstm_part(grads, index=argnum, shapes=shapes)


lstm_scan.defvjp_argnum(_scan_rule)
lstm_read.defvjp(lambda g, ans, cache, part, dims: lstm_place(g, part=part, dims=dims))


# ------------------------------------------------------------ the backend op
def _named(fn, name):
    """Whether ``fn`` is kerasmini's activation ``name`` (or its primitive)."""
    if isinstance(fn, Primitive):
        return fn.name == name
    return getattr(fn, "__name__", None) == name and getattr(
        fn, "__module__", "").startswith("kerasmini.")


def lstm(inputs, initial_state_h, initial_state_c, mask, kernel, recurrent_kernel,
         bias, activation, recurrent_activation, return_sequences=False,
         go_backwards=False, unroll=False, zero_output_for_mask=False):
    """Keras 3's ``backend.lstm``: the whole LSTM as one fused step, or
    ``NotImplementedError`` when it cannot be (then the layer loops).

    It fuses while a step is traced, with ``tanh`` and ``sigmoid``, float32
    or float64 arrays of one dtype, no mixed precision and at most one
    gradient tape recording (the backward step has no gradient of its own).

    Returns:
        ``(last_output, outputs, [h, c])``, as ``rnn_loop`` does; ``outputs``
        is every step's output with ``return_sequences``, else the last one
        as ``(batch, 1, units)``.

    >>> from kerasmini.backend import nn
    >>> from kerasmini.backend import numpy as bnp
    >>> lstm(np.ones((1, 2, 3)), np.zeros((1, 4)), np.zeros((1, 4)), None,
    ...      np.ones((3, 16)), np.ones((4, 16)), None, bnp.tanh, nn.sigmoid)
    Traceback (most recent call last):
      ...
    NotImplementedError: The fused LSTM runs only while a step is traced.
    """
    _check_fusible(inputs, [initial_state_h, initial_state_c], kernel,
                   recurrent_kernel, bias, activation, recurrent_activation, mask)
    steps, batch, units = inputs.shape[1], inputs.shape[0], recurrent_kernel.shape[0]
    params = {"use_bias": bias is not None, "go_backwards": bool(go_backwards),
              "zero_output_for_mask": bool(zero_output_for_mask)}
    cache = lstm_scan(*_arguments(inputs, kernel, recurrent_kernel, initial_state_h,
                                  initial_state_c, bias, mask), **params)
    dims = (steps, batch, units, mask is not None)
    last = lstm_read(cache, part="last", dims=dims)
    if return_sequences:
        outputs = lstm_read(cache, part="sequence", dims=dims)
    else:
        outputs = expand_dims(last, 1)
    return last, outputs, [lstm_read(cache, part="h", dims=dims),
                           lstm_read(cache, part="c", dims=dims)]


def _arguments(*tensors):
    """The primitive's arguments: the tensors but ``None``; an array (zero
    states) becomes a constant of the graph once, so the gradient rule's
    calls all read the same slots (and the graph records one backward)."""
    return [t if isinstance(t, GraphTensor) or hasattr(t, "__kerasmini_variable__")
            else identity(t) for t in tensors if t is not None]


def _check_fusible(inputs, states, kernel, recurrent_kernel, bias, activation,
                   recurrent_activation, mask, layer="LSTM", gate="sigmoid"):
    if not STATE.graphs:
        raise NotImplementedError(
            f"The fused {layer} runs only while a step is traced.")
    if gate is None and not _named(activation, "tanh"):
        raise NotImplementedError(
            f"The fused {layer} needs activation=tanh. Received: "
            f"activation={activation}")
    if gate is not None and not (_named(activation, "tanh")
                                 and _named(recurrent_activation, gate)):
        raise NotImplementedError(
            f"The fused {layer} needs activation=tanh and "
            f"recurrent_activation=sigmoid. Received: activation={activation}, "
            f"recurrent_activation={recurrent_activation}")
    if STATE.autocast is not None or sum(t.recording for t in STATE.tapes) > 1:
        raise NotImplementedError(
            f"The fused {layer} runs without mixed precision and under one tape.")
    tensors = [inputs, *states, kernel, recurrent_kernel]
    if bias is not None:
        tensors.append(bias)
    dtypes = {str(getattr(t, "dtype", "")) for t in tensors}
    if len(dtypes) != 1 or dtypes.pop() not in ("float32", "float64") or len(
            inputs.shape) != 3:
        raise NotImplementedError(
            f"The fused {layer} takes float32 or float64 tensors of one dtype.")
    if mask is not None and str(mask.dtype) != "bool":
        raise NotImplementedError(f"The fused {layer} takes a boolean mask.")


__all__ = ["lstm", "lstm_part", "lstm_place", "lstm_read", "lstm_scan",
           "lstm_scan_grad"]
