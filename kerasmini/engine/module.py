"""``Module``: a named container that finds its variables by walking itself.

This is ``tf.Module``, the root of Keras 2's class chain. It does not keep a
list of its variables: ``variables``, ``trainable_variables`` and
``submodules`` walk the object's attributes (sorted by attribute name),
looking inside lists, tuples and dicts, and into child modules after the
direct attributes, each object reported once. That walk is what lets saving
and graph building find every piece of state without being told.

>>> import numpy as np
>>> from kerasmini.backend import Variable
>>> class Scale(Module):
...     def __init__(self, name=None):
...         super().__init__(name=name)
...         with self.name_scope:
...             self.w = Variable(np.ones(3), name="w")
>>> Scale(name="scale").w.path
'scale/w'
"""

from kerasmini import tree
from kerasmini.api_export import keras_export
from kerasmini.backend.naming import name_scope, to_snake_case

_IGNORED = frozenset({"_inbound_nodes", "_outbound_nodes", "_keras_history"})


def _is_variable(x) -> bool:
    return getattr(x, "__kerasmini_variable__", False)


@keras_export("kerasmini.Module")
class Module:
    """Base class of everything that owns state.

    Args:
        name: a valid Python identifier; defaults to the snake-case class name
            (not uniquified, as in ``tf.Module``).

    >>> Module().name
    'module'
    """

    def __init__(self, name=None):
        if name is None:
            name = to_snake_case(type(self).__name__)
        elif not isinstance(name, str) or not name.isidentifier():
            raise ValueError(
                f"{name!r} is not a valid module name. Module names must be valid "
                "Python identifiers (e.g. a valid class name)."
            )
        self._name = name

    @property
    def name(self) -> str:
        """The module's name."""
        return self._name

    @property
    def name_scope(self):
        """A context manager: variables made inside get ``<name>/...`` paths."""
        return name_scope(self.name, caller=self)

    @property
    def variables(self):
        """Every variable reachable from this module, each once."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        """The variables with ``trainable=True``."""
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self):
        """The variables with ``trainable=False``."""
        return tuple(
            self._flatten(predicate=lambda v: _is_variable(v) and not v.trainable)
        )

    @property
    def submodules(self):
        """Every module reachable from this one (not itself), each once."""
        return tuple(self._flatten(predicate=lambda m: isinstance(m, Module)))

    def _flatten(self, predicate, recursive=True, _seen=None):
        """Yield attribute values (and nested values) matching ``predicate``."""
        seen = set() if _seen is None else _seen
        seen.add(id(self))
        children = []
        for key in sorted(vars(self)):
            if key in _IGNORED:
                continue
            for leaf in tree.flatten(vars(self)[key]):
                if id(leaf) in seen:
                    continue
                if predicate(leaf):
                    seen.add(id(leaf))
                    yield leaf
                if recursive and isinstance(leaf, Module):
                    children.append(leaf)
        for child in children:
            yield from child._flatten(predicate, recursive, seen)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
