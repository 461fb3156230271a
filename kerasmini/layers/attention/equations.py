"""The einsum equations of multi-head attention, written from the ranks.

``MultiHeadAttention`` works for inputs of any rank, so it cannot write its
products as fixed strings: these functions spell them out, one letter per
axis (Keras 3 keeps the same helpers, ``_build_proj_equation`` and
``_build_attention_equation``, beside the layer).

>>> projection_equation(2, 1, 2)[0]  # (B, T, features) -> (B, T, heads, dim)
'abc,cde->abde'
"""

import string


def projection_equation(free_dims, bound_dims, output_dims):
    """The einsum of a projection: ``free_dims`` axes pass through,
    ``bound_dims`` are summed against the kernel, which makes ``output_dims``
    new ones (they also get the bias). Returns ``(equation, bias_axes,
    output_rank)``.

    >>> projection_equation(2, 1, 2)  # (B, T, F) -> (B, T, heads, dim)
    ('abc,cde->abde', 'de', 4)
    """
    letters = string.ascii_lowercase
    free = letters[:free_dims]
    bound = letters[free_dims:free_dims + bound_dims]
    made = letters[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{made}->{free}{made}", made, len(free + made)


def attention_equations(rank, attention_axes):
    """The einsums of attention for projected tensors of ``rank`` axes,
    ``(B, <other axes>, <attention axes>, heads, dim)``: the key and the
    query's product (scores: other axes and heads, then the query's and the
    key's attention axes), and the scores combining the value. Returns
    ``(dot_product_equation, combine_equation, scores_rank)``.

    >>> attention_equations(4, (1,))
    ('aecd,abcd->acbe', 'acbe,aecd->abcd', 4)
    """
    query = string.ascii_lowercase[:rank]
    key = list(query)  # the key's attention axes get letters of their own
    for n, axis in enumerate(sorted(attention_axes)):
        key[axis] = string.ascii_lowercase[rank + n]
    key = "".join(key)
    others = [i for i in range(rank - 1) if i not in attention_axes]
    scores = ("".join(query[i] for i in others)
              + "".join(query[i] for i in attention_axes)
              + "".join(key[i] for i in attention_axes))
    return f"{key},{query}->{scores}", f"{scores},{key}->{query}", len(scores)


def output_shape_of(output_rank, known_last_dims):
    """``None`` for the leading axes, then the known last ones.

    >>> output_shape_of(3, [2, 4])
    [None, 2, 4]
    """
    return [None] * (output_rank - len(known_last_dims)) + list(known_last_dims)
