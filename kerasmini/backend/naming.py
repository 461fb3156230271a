"""Unique auto names and name scopes.

Two pieces of global state live here, as in Keras 3's ``utils/naming.py`` and
``backend/common/name_scope.py``:

* a counter per prefix, so unnamed layers become ``dense``, ``dense_1``, ...
  (:func:`auto_name`) and :func:`get_uid` hands out 1, 2, 3, ...;
* a stack of scope names, so a variable created inside
  ``with name_scope("dense"):`` gets the path ``dense/kernel``.

:func:`clear_session` (re-exported as ``kerasmini.backend.clear_session``)
resets both, closing any scope left open, as Keras 3's does.

>>> reset_names()
>>> auto_name("Dense"), auto_name("Dense"), auto_name("MyModel")
('dense', 'dense_1', 'my_model')
>>> with name_scope("outer"):
...     with name_scope("inner"):
...         current_path()
'outer/inner'
"""

import collections
import re

_NAME_UIDS: collections.defaultdict = collections.defaultdict(int)
_SCOPE_STACK: list = []


def to_snake_case(name: str) -> str:
    """Turn a class name into a snake-case object name, as Keras does.

    >>> to_snake_case("Conv2D"), to_snake_case("BatchNormalization")
    ('conv2d', 'batch_normalization')
    >>> to_snake_case("ConvLSTM2D"), to_snake_case("ReLU")
    ('conv_lstm2d', 're_lu')
    >>> to_snake_case("_Private")
    'private__private'
    """
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
    if name.startswith("_"):
        return "private" + name
    return name


def get_uid(prefix: str = "") -> int:
    """Return the next integer for ``prefix``, starting at 1.

    >>> reset_names(); get_uid("input"), get_uid("input")
    (1, 2)
    """
    _NAME_UIDS[prefix] += 1
    return _NAME_UIDS[prefix]


def uniquify(name: str) -> str:
    """Return ``name`` the first time, then ``name_1``, ``name_2``, ...

    >>> reset_names(); uniquify("x"), uniquify("x")
    ('x', 'x_1')
    """
    uid = get_uid(name)
    return name if uid == 1 else f"{name}_{uid - 1}"


def auto_name(prefix: str) -> str:
    """A fresh snake-case name for an object of class ``prefix``.

    >>> reset_names(); auto_name("Dense")
    'dense'
    """
    return uniquify(to_snake_case(prefix))


def reset_names() -> None:
    """Forget every name handed out so far (``dense`` is free again).

    >>> auto_name("Dense") and reset_names() is None
    True
    """
    _NAME_UIDS.clear()


def reset_scopes() -> None:
    """Close every open scope (one a ``with`` never exited, say).

    >>> name_scope("left_open").__enter__() and reset_scopes()
    >>> current_path()
    ''
    """
    _SCOPE_STACK.clear()


class name_scope:
    """A context manager that pushes ``name`` onto the scope stack.

    Variables created inside take ``scope/.../name`` as their ``path``.
    Re-entering the scope its ``caller`` already opened is a no-op, so a layer
    that builds inside its own scope does not get ``dense/dense/kernel``.

    Args:
        name: one path component; must not contain ``/``.
        caller: the object that opens the scope (a layer), if any.

    >>> with name_scope("block"):
    ...     current_path()
    'block'
    """

    def __init__(self, name: str, caller=None):
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(
                "Argument `name` must be a non-empty string without '/'. "
                f"Received: name={name!r}"
            )
        self.name = name
        self.caller = caller
        self._pushed = False

    def __enter__(self):
        top = _SCOPE_STACK[-1] if _SCOPE_STACK else None
        if top is not None and top.caller is not None and top.caller is self.caller \
                and top.name == self.name:
            return self
        _SCOPE_STACK.append(self)
        self._pushed = True
        return self

    def __exit__(self, *exc):
        if self._pushed:
            _SCOPE_STACK.pop()
            self._pushed = False
        return False

    def __repr__(self):
        return f"<name_scope {self.name!r}>"


def current_path() -> str:
    """The ``/``-joined names of the open scopes ('' outside any).

    >>> current_path()
    ''
    """
    return "/".join(scope.name for scope in _SCOPE_STACK)
