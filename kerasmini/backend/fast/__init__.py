"""The tracer's fast lane: where kerasmini's speed devices live.

The taught code (layers, losses, optimizers, the tape, the tracer's
:class:`~kerasmini.backend.graph.Graph`) is written the plain way, the way
the chapters print it. What makes a traced ``fit`` fast lives here, behind
one seam: the compiler that turns a traced graph into Python
(:mod:`~kerasmini.backend.fast.codegen`) and the kernels it swaps in
(:mod:`~kerasmini.backend.fast.kernels`): fused kernels for regions the
traced code marked as fusible (Adam's update of every variable in one
in-place, cache-blocked call, the small variables packed in one flat
buffer), faster twins of single primitives (the label check, ``mean``;
``one_hot``, ``relu``, ``transpose``, ``argmax`` in
:mod:`~kerasmini.backend.fast.twins`; 2-D max pooling in
:mod:`~kerasmini.backend.fast.pooling`) and peepholes, small
patterns of recorded steps written as one kernel
(:mod:`~kerasmini.backend.fast.peephole`: a softmax and its crossentropy
from one ``exp``, ReLU's gradient without ``np.where``, the labels' cast
and check, a metric's counters and result).
One more seam is Keras's own: ``LSTM.inner_loop``
asks the backend for a fused LSTM (cuDNN's, in Keras) before looping over
its cell; here :mod:`~kerasmini.backend.fast.recurrent` answers while a step
is traced, with one primitive for the whole sequence and one for its
backward (and :mod:`~kerasmini.backend.fast.gru` for ``GRU.inner_loop``,
:mod:`~kerasmini.backend.fast.simple_rnn` for ``SimpleRNN.inner_loop``).
Eager code never runs them.

This is tinygrad's ``fused=`` idea (an optimizer's formula run as one kernel
over all its parameters) placed at the compiler: the optimizer's
``update_step`` stays the textbook, and the compiled step runs the fused
kernel in its place.

>>> from kerasmini.backend.fast import codegen, kernels
>>> sorted(f.__name__ for f in kernels.FASTER.values())
['argmax', 'checked_indices', 'max_pool', 'max_pool_backprop', 'mean', 'one_hot', 'relu',
 'transpose']
"""
