"""The mask of a merge: how the masks of several inputs become one.

An element-wise merge (``Add``, ``Subtract``, ``Multiply``, ``Average``,
``Maximum``, ``Minimum``) keeps an entry where *any* input keeps it, and has
no mask as soon as one input has none. ``Concatenate`` joins the masks the
way it joins the tensors (an unmasked input counts as all kept), then keeps a
step when any of its joined features is kept. These are the rules of Keras 3
(``Merge.compute_mask`` and ``Concatenate.compute_mask``).

>>> import numpy as np
>>> a, b = np.array([[True, False, False]]), np.array([[False, False, True]])
>>> elementwise_merge_mask([np.ones((1, 3))] * 2, [a, b])
array([[ True, False,  True]])
>>> elementwise_merge_mask([np.ones((1, 3))] * 2, [a, None]) is None
True
"""

from kerasmini import ops


def _check(inputs, mask):
    if not isinstance(mask, (list, tuple)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(
            "The lists `inputs` and `mask` should have the same length. "
            f"Received: inputs={inputs} of length {len(inputs)}, and "
            f"mask={mask} of length {len(mask)}"
        )


def elementwise_merge_mask(inputs, mask):
    """The logical OR of the masks; ``None`` if any input has no mask.

    >>> import numpy as np
    >>> elementwise_merge_mask([np.ones(2)], None) is None
    True
    """
    if mask is None:
        return None
    _check(inputs, mask)
    if any(m is None for m in mask):
        return None
    output = mask[0]
    for m in mask[1:]:
        output = ops.logical_or(output, m)
    return output


def concatenate_mask(inputs, mask, axis=-1):
    """The masks joined along ``axis`` (all ``True`` for an unmasked input),
    then reduced by "any" over the last axis.

    >>> import numpy as np
    >>> x = np.ones((1, 3, 2))
    >>> concatenate_mask([x, x], [np.array([[True, False, False]]), None])
    array([[ True,  True,  True]])
    >>> concatenate_mask([x, x], [np.array([[True, False, False]])] * 2, axis=1)
    array([[ True, False, False,  True, False, False]])
    """
    if mask is None:
        return None
    _check(inputs, mask)
    if all(m is None for m in mask):
        return None
    masks = []
    for x, m in zip(inputs, mask):
        if m is None:
            m = ops.ones_like(x, dtype="bool")
        elif len(m.shape) < len(x.shape):  # one flag per step: per feature too
            m = ops.logical_or(ops.expand_dims(m, axis=-1),
                                ops.zeros_like(x, dtype="bool"))
        masks.append(m)
    joined = ops.cast(ops.concatenate(masks, axis=axis), "float32")
    return ops.greater(ops.sum(joined, axis=-1), 0.0)  # any(axis=-1)


__all__ = ["concatenate_mask", "elementwise_merge_mask"]
