"""``DropoutRNNCell``: one dropout mask per sequence, not per step.

Dropping different units at every time step would keep the recurrence from
learning anything long; Keras (after Gal and Ghahramani) draws one mask for
the inputs and one for the recurrent state at the first step and reuses them
for the whole sequence. The ``RNN`` layer forgets them after the loop.

>>> import numpy as np
>>> class Cell(DropoutRNNCell):
...     dropout, recurrent_dropout = 0.5, 0.0
>>> cell = Cell()
>>> first = cell.get_dropout_mask(np.ones((2, 3)))
>>> first is cell.get_dropout_mask(np.ones((2, 3)))
True
"""

from kerasmini import ops, random


def _dropout_mask(like, rate):
    # kept units are scaled by 1 / (1 - rate), as the Dropout layer does
    keep = ops.greater_equal(random.uniform(ops.shape(like), dtype=like.dtype), rate)
    return ops.multiply(ops.cast(keep, like.dtype), 1.0 / (1.0 - rate))


class DropoutRNNCell:
    """Mixin for cells with ``dropout`` and ``recurrent_dropout`` rates.

    >>> import numpy as np
    >>> class Cell(DropoutRNNCell):
    ...     dropout, recurrent_dropout = 0.0, 0.5
    >>> cell = Cell()
    >>> cell.get_dropout_mask(np.ones((2, 3))) is None  # rate 0: no mask
    True
    >>> mask = cell.get_recurrent_dropout_mask(np.ones((2, 3)))
    >>> sorted(set(mask.ravel().tolist())) <= [0.0, 2.0]  # dropped or 1 / 0.5
    True
    >>> cell.reset_recurrent_dropout_mask(); cell._recurrent_dropout_mask is None
    True
    """

    _dropout_mask = None
    _recurrent_dropout_mask = None

    def get_dropout_mask(self, step_input):
        """The mask of the inputs, drawn once per sequence."""
        if self._dropout_mask is None and self.dropout > 0:
            self._dropout_mask = _dropout_mask(step_input, self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, step_state):
        """The mask of the previous state, drawn once per sequence."""
        if self._recurrent_dropout_mask is None and self.recurrent_dropout > 0:
            self._recurrent_dropout_mask = _dropout_mask(step_state,
                                                         self.recurrent_dropout)
        return self._recurrent_dropout_mask

    def reset_dropout_mask(self):
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self):
        self._recurrent_dropout_mask = None
