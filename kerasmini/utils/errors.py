"""Errors that name the call they come from.

Keras's messages name the argument ("`label_mode` argument must be one
of ..."); kerasmini's standard also names the function, so a user who called
several sees which one refused what. :func:`names_its_errors` does that for a
whole function, keeping Keras's wording after the name.
"""

import functools


def names_its_errors(function):
    """Put the function's name in front of the ``ValueError``/``TypeError``
    messages raised inside it (Keras's own wording, which names only the
    argument, follows), so a user sees which call refused what.

    >>> @names_its_errors
    ... def f():
    ...     raise ValueError("`x` must be positive. Received: x=-1")
    >>> f()
    Traceback (most recent call last):
      ...
    ValueError: f: `x` must be positive. Received: x=-1
    """
    owner = function.__name__

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except (ValueError, TypeError) as e:
            message = str(e)
            if type(e) not in (ValueError, TypeError) or message.startswith(owner):
                raise
            raise type(e)(f"{owner}: {message}") from None

    return wrapper


__all__ = ["names_its_errors"]
