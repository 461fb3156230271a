"""Record the calls a piece of code makes through kerasmini, as a tree.

``with trace() as t: layer(x)`` installs a profiler (:func:`sys.setprofile`)
for the duration of the block and records every Python function call that
passes the filter below; ``print(t)`` then shows who called whom (the first
call of a ``Dense`` layer, abridged)::

    Layer.__call__
      Layer._split_inputs
      Layer._convert_inputs
      assert_input_compatibility
      Layer._maybe_build
        _build_wrapper.wrapper
          Dense.build
            Layer.add_weight
              name_scope.__enter__
              Variable.__init__
      ...
      Layer._call_layer
        Operation.__call__
          Dense.call

(that is ``t.tree(locations=False)``; ``print(t)`` also gives each
function's ``file:line``).

What is recorded (the default filter):

* functions of ``kerasmini.engine``, ``kerasmini.layers`` and
  ``kerasmini.models`` (the classes the book reads), ``Operation.__call__``
  (through which a layer calls ``call``) and the constructors of ``Node``
  and ``KerasTensor``;
* from the backend only ``Variable.__init__``, ``name_scope.__enter__`` and
  the check of ``__call__``'s step 2, so that ``add_weight -> Variable``
  shows without every NumPy op;
* methods of your own subclasses (a ``SimpleDense`` typed in a notebook):
  any function whose ``self`` is a kerasmini ``Module``;

minus the noise: generators (their every resumption is a call), property
getters and setters, comprehensions and lambdas, ``__setattr__``/``__repr__``,
the nest helpers (``flatten``, ``map_structure``, ``pack_sequence_as``,
``any_symbolic``, ``is_keras_tensor``), ``kerasmini.engine.call_context``
and a few private helpers (:data:`DEFAULT_EXCLUDE`).

``include`` replaces the first two rules with your own patterns: a module
prefix (``"kerasmini.backend"``) or ``module:qualname`` for one function
(``"kerasmini.backend.variables:Variable.assign"``); ``exclude`` replaces
:data:`DEFAULT_EXCLUDE` (qualnames or plain function names).

The previous profiler is put back when the block ends, also when it raises.
"""

from __future__ import annotations

import difflib
import sys
import threading
import types
from dataclasses import dataclass

from kerasmini.book.source import relative_path
from kerasmini.engine.module import Module
from kerasmini.utils.plot import FILL_LAYER, FILL_MODEL, new_digraph

DEFAULT_INCLUDE = (
    "kerasmini.engine",
    "kerasmini.layers",
    "kerasmini.models",
    "kerasmini.ops.operation:Operation.__call__",
    "kerasmini.ops.node:Node.__init__",
    "kerasmini.backend.keras_tensor:KerasTensor.__init__",
    "kerasmini.backend.validation:check_positional_args",
    "kerasmini.backend.variables:Variable.__init__",
    "kerasmini.backend.naming:name_scope.__enter__",
)

DEFAULT_EXCLUDE = frozenset({
    # nest helpers, called for every argument
    "flatten", "map_structure", "pack_sequence_as", "any_symbolic",
    "is_keras_tensor", "_leaves",
    # bookkeeping that says nothing about the mechanism
    "__setattr__", "__repr__", "__hash__", "__eq__", "__len__",
    "_dedup", "direct_sublayers", "_is_numeric_like", "_is_variable",
    "_shape_of", "_zeros_for", "is_shape_tuple",
    "map_shape_structure", "to_shape", "_as_shape_structure",
    "_check_super_called",
    "_ShapeLeaf.__new__",
    "_named_parameters", "_call_arguments_by_name",
    # checks of what the user passed, which leave the call as it was
    "weight_shape", "check_layer_outputs",
})

_EXCLUDED_MODULES = ("kerasmini.engine.call_context",)

# CO_GENERATOR | CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR
_GENERATOR_FLAGS = 0x20 | 0x80 | 0x100 | 0x200


@dataclass(frozen=True)
class Frame:
    """One recorded call.

    Attributes:
        qualname: ``Class.method`` or ``function`` (``<locals>`` dropped).
        file: the file relative to the repository (``<cell>`` for notebook code).
        line: the line of the ``def``.
        depth: 0 for a call with no recorded caller, 1 below it, ...

    >>> Frame("Layer.build", "kerasmini/engine/base_layer.py", 359, 1).qualname
    'Layer.build'
    """

    qualname: str
    file: str
    line: int
    depth: int

    @property
    def name(self) -> str:
        """The last part of the qualname: ``build`` for ``Dense.build``."""
        return self.qualname.rsplit(".", 1)[-1]

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


def _qualname(frame) -> str:
    code = frame.f_code
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+
    if qualname is None:
        qualname = code.co_name
        self = frame.f_locals.get("self")
        if self is not None:
            for klass in type(self).__mro__:
                func = klass.__dict__.get(code.co_name)
                func = getattr(func, "__func__", func)
                if getattr(func, "__code__", None) is code:
                    qualname = f"{klass.__name__}.{code.co_name}"
                    break
    return qualname.replace("<locals>.", "")


def _is_property_code(frame, code) -> bool:
    self = frame.f_locals.get("self")
    if self is None:
        return False
    for klass in type(self).__mro__:
        attr = klass.__dict__.get(code.co_name)
        if isinstance(attr, property):
            for fn in (attr.fget, attr.fset, attr.fdel):
                if getattr(fn, "__code__", None) is code:
                    return True
    return False


def _is_module_instance(value) -> bool:
    return isinstance(value, Module)


class Trace:
    """The calls recorded by :func:`trace`; also the context manager itself.

    Attributes:
        frames: the recorded :class:`Frame` s, in call order.

    >>> import numpy as np
    >>> from kerasmini.layers import Dense
    >>> with trace() as t:
    ...     _ = Dense(2)(np.ones((1, 3)))
    >>> [f.qualname for f in t.frames if f.qualname.endswith(("build", "add_weight"))][:2]
    ['Layer._maybe_build', 'Dense.build']
    """

    def __init__(self, include=None, max_depth=None, exclude=None):
        patterns = DEFAULT_INCLUDE if include is None else include
        if isinstance(patterns, str):
            patterns = (patterns,)
        self._prefixes = tuple(p for p in patterns if ":" not in p)
        self._exact = {tuple(p.split(":", 1)) for p in patterns if ":" in p}
        self._exclude = DEFAULT_EXCLUDE if exclude is None else frozenset(exclude)
        if max_depth is not None and max_depth < 1:
            raise ValueError(f"`max_depth` must be at least 1. Received: {max_depth}")
        self.max_depth = max_depth
        self.frames: list[Frame] = []
        self._decisions = {}  # code object -> recorded? (when it is static)
        self._stack = []  # one bool per open Python frame: was it recorded?
        self._depth = 0  # recorded frames open on the stack
        self._previous = None
        self._thread = None
        self._active = False

    # ---------------------------------------------------------- filtering
    def _static_decision(self, frame, code):
        """True/False when the code object alone decides, else None."""
        if code.co_flags & _GENERATOR_FLAGS or code.co_name.startswith("<"):
            return False
        module = frame.f_globals.get("__name__", "")
        qualname = _qualname(frame)
        # a function nested in an excluded one (pack_sequence_as.pack) goes too
        if qualname in self._exclude or code.co_name in self._exclude or \
                qualname.split(".", 1)[0] in self._exclude:
            return False
        if module.startswith(_EXCLUDED_MODULES) or module == __name__:
            return False
        if (module, qualname) in self._exact:
            return True
        if any(module == p or module.startswith(p + ".") for p in self._prefixes):
            return None if code.co_varnames[:1] == ("self",) else True
        if module.startswith("kerasmini"):
            return False
        return None  # user code: recorded if it is a method of a Module

    def _wanted(self, frame) -> bool:
        code = frame.f_code
        decision = self._decisions.get(code, "unknown")
        if decision == "unknown":
            decision = self._static_decision(frame, code)
            self._decisions[code] = decision
        if decision is not None:
            return decision
        # Methods: skip property bodies; for user code, keep Module methods.
        if _is_property_code(frame, code):
            self._decisions[code] = False
            return False
        module = frame.f_globals.get("__name__", "")
        if module.startswith("kerasmini"):
            self._decisions[code] = True
            return True
        return code.co_varnames[:1] == ("self",) and \
            _is_module_instance(frame.f_locals.get("self"))

    # ------------------------------------------------------------ profiler
    def _profile(self, frame, event, arg):
        if self._previous is not None:
            self._previous(frame, event, arg)
        if event == "call":
            record = self._wanted(frame) and (
                self.max_depth is None or self._depth < self.max_depth)
            if record:
                code = frame.f_code
                self.frames.append(Frame(_qualname(frame),
                                         relative_path(code.co_filename),
                                         code.co_firstlineno, self._depth))
                self._depth += 1
            self._stack.append(record)
        elif event == "return" and self._stack and self._stack.pop():
            self._depth -= 1

    def __enter__(self):
        if self._active:
            raise RuntimeError("This trace is already recording.")
        self._previous = sys.getprofile()
        self._thread = threading.get_ident()
        self._active = True
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(self._previous)
        self._previous = None
        self._active = False
        self._stack.clear()
        self._depth = 0
        return False

    # --------------------------------------------------------------- views
    @property
    def names(self) -> list[str]:
        """The qualnames in call order."""
        return [f.qualname for f in self.frames]

    def tree(self, locations: bool = True, collapse: bool = True) -> str:
        """The calls as an indented tree, one line per call.

        Args:
            locations: add ``(file:line)`` to each line.
            collapse: write repeated leaf calls (same function, same parent,
                one after the other, no recorded calls inside) as one line
                with ``×N``.
        """
        rows = []  # (depth, qualname, location, count)
        frames = self.frames
        for i, frame in enumerate(frames):
            is_leaf = i + 1 == len(frames) or frames[i + 1].depth <= frame.depth
            if collapse and is_leaf and rows:
                depth, name, location, count, leaf = rows[-1]
                if leaf and (depth, name, location) == (
                        frame.depth, frame.qualname, frame.location):
                    rows[-1] = (depth, name, location, count + 1, True)
                    continue
            rows.append((frame.depth, frame.qualname, frame.location, 1, is_leaf))
        if not rows:
            return "(no calls recorded)"
        texts = ["  " * depth + name + (f" ×{count}" if count > 1 else "")
                 for depth, name, _, count, _ in rows]
        if not locations:
            return "\n".join(texts)
        width = max(len(t) for t in texts) + 2
        return "\n".join(f"{t:<{width}}({row[2]})" for t, row in zip(texts, rows))

    def __repr__(self) -> str:
        return self.tree()

    def __str__(self) -> str:
        return self.tree()

    def __len__(self) -> int:
        return len(self.frames)

    def __iter__(self):
        return iter(self.frames)

    def plot(self, rankdir: str = "LR", locations: bool = False,
             split_names: bool = False):
        """The call tree as a Graphviz drawing (one box per call, numbered in
        call order).

        ``split_names=True`` puts a method's name under its class
        (``Layer`` / ``._maybe_build``): boxes half as wide, so a deep trace
        fits a page column with readable labels.

        >>> from kerasmini.layers import Dense
        >>> import numpy as np
        >>> with trace(max_depth=2) as t:
        ...     _ = Dense(2)(np.ones((1, 3)))
        >>> "Layer\\n._maybe_build" in t.plot(split_names=True).source
        True
        """
        dot = new_digraph("trace", rankdir=rankdir)
        parents = []  # index of the open frame at each depth
        for index, frame in enumerate(self.frames):
            name = frame.qualname
            if split_names and "." in name:
                owner, method = name.rsplit(".", 1)
                name = f"{owner}\n.{method}"
            label = f"{index + 1}. {name}"
            if locations:
                label += f"\n{frame.location}"
            fill = FILL_MODEL if frame.file.startswith("kerasmini/engine") else FILL_LAYER
            dot.node(f"call_{index}", label=label, shape="box",
                     style="rounded,filled", fillcolor=fill)
            del parents[frame.depth:]
            if parents:
                dot.edge(f"call_{parents[-1]}", f"call_{index}")
            parents.append(index)
        dot.description = f"trace: {len(self.frames)} calls\n" + self.tree(
            locations=False)
        return dot


def trace(include=None, max_depth=None, exclude=None) -> Trace:
    """A context manager recording the calls made through kerasmini.

    Args:
        include: module prefixes or ``module:qualname`` patterns to record
            instead of :data:`DEFAULT_INCLUDE` (methods of user-defined
            ``Module`` subclasses are always recorded).
        max_depth: record only this many levels of nesting.
        exclude: qualnames or function names to skip instead of
            :data:`DEFAULT_EXCLUDE`.

    Returns:
        A :class:`Trace`; use it in a ``with`` block, then print it.

    >>> import numpy as np
    >>> from kerasmini.layers import Dense
    >>> layer = Dense(2)
    >>> with trace(max_depth=4) as t:
    ...     _ = layer(np.ones((1, 3)))
    >>> [f.qualname for f in t.frames if f.depth == 0]
    ['Layer.__call__']
    >>> [f.name for f in t.frames if f.name in ("_maybe_build", "call")]
    ['_maybe_build', 'call']
    """
    return Trace(include=include, max_depth=max_depth, exclude=exclude)


def side_by_side(**traces) -> str:
    """Several traces as columns, one per keyword, for comparing call trees.

    With two traces the lines are aligned so that the same call sits on the
    same row (:class:`difflib.SequenceMatcher`); calls only one of them made
    face an empty cell. With more, the columns are simply put side by side.

    >>> import numpy as np
    >>> from kerasmini.layers import Dense
    >>> layer = Dense(2)
    >>> with trace(max_depth=1) as first:
    ...     _ = layer(np.ones((1, 3)))
    >>> with trace(max_depth=1) as second:
    ...     _ = layer(np.ones((1, 3)))
    >>> print(side_by_side(first=first, second=second).splitlines()[2])
    Layer.__call__    Layer.__call__
    """
    if not traces:
        raise ValueError("side_by_side() needs at least one trace, by keyword.")
    columns = {title: t.tree(locations=False).splitlines() for title, t in traces.items()}
    if len(columns) == 2:
        (a_title, a), (b_title, b) = columns.items()
        rows = []
        matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
        for _, i1, i2, j1, j2 in matcher.get_opcodes():
            for k in range(max(i2 - i1, j2 - j1)):
                rows.append((a[i1 + k] if i1 + k < i2 else "",
                             b[j1 + k] if j1 + k < j2 else ""))
    else:
        height = max(len(lines) for lines in columns.values())
        rows = [tuple(lines[r] if r < len(lines) else "" for lines in columns.values())
                for r in range(height)]
    widths = [max(len(title), *(len(row[c]) for row in rows)) + 4
              for c, title in enumerate(columns)]
    out = ["".join(f"{t:<{w}}" for t, w in zip(columns, widths)).rstrip(),
           "".join(f"{'-' * (w - 4):<{w}}" for w in widths).rstrip()]
    out += ["".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip()
            for row in rows]
    return "\n".join(out)


class _CallableModule(types.ModuleType):
    """This module, callable as :func:`trace`.

    ``kerasmini.book.trace`` names both the function and this submodule, and
    Python sets the package attribute to the submodule whenever the submodule
    is imported; making the module callable keeps ``kerasmini.book.trace()``
    working either way.
    """

    def __call__(self, include=None, max_depth=None, exclude=None) -> Trace:
        return trace(include=include, max_depth=max_depth, exclude=exclude)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["DEFAULT_EXCLUDE", "DEFAULT_INCLUDE", "Frame", "Trace", "side_by_side", "trace"]
