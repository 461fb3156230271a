"""``keras_export``: record the public names of a symbol.

Keras decorates every public class and function with
``@keras_export("keras.layers.Dense")``. The decorator does not move
anything: it records the public path(s) in a registry, and a build step
writes the ``keras/layers/__init__.py`` files that import each symbol from
the file it really lives in. So the import path is decoupled from the source
layout (``keras.layers.Dense`` lives in ``keras/src/layers/core/dense.py``).

kerasmini keeps the registry (serialization reads it to name classes) and
writes its ``__init__`` files by hand; a test checks the two agree.

>>> @keras_export(["kerasmini.demo.f", "kerasmini.f"])
... def f():
...     pass
>>> f._keras_api_names
('kerasmini.demo.f', 'kerasmini.f')
>>> get_symbol_from_name("kerasmini.demo.f") is f
True
"""

import importlib
import sys

REGISTERED_NAMES_TO_OBJS = {}
REGISTERED_OBJS_TO_NAMES = {}


class keras_export:
    """Decorator recording ``path`` (one name or a list) for a symbol.

    The first path is the canonical one. Every path must start with
    ``kerasmini.``; a path used twice is an error.

    >>> @keras_export("kerasmini.demo.g")
    ... def g():
    ...     pass
    >>> g._keras_api_names
    ('kerasmini.demo.g',)
    """

    def __init__(self, path):
        paths = [path] if isinstance(path, str) else list(path)
        for p in paths:
            if not isinstance(p, str) or not p.startswith("kerasmini."):
                raise ValueError(
                    f"Export paths must start with 'kerasmini.'. Received: {p!r}"
                )
        self.paths = tuple(paths)

    def __call__(self, symbol):
        for path in self.paths:
            existing = REGISTERED_NAMES_TO_OBJS.get(path)
            if existing is not None and existing is not symbol and \
                    getattr(existing, "__qualname__", None) != symbol.__qualname__:
                raise ValueError(
                    f"Symbol {symbol!r} cannot be exported as {path!r}: that name "
                    f"already belongs to {existing!r}."
                )
            REGISTERED_NAMES_TO_OBJS[path] = symbol
        REGISTERED_OBJS_TO_NAMES[symbol] = self.paths[0]
        symbol._keras_api_names = self.paths
        return symbol


def get_name_from_symbol(symbol):
    """The canonical public name of ``symbol``, or ``None``.

    >>> from kerasmini.layers import Dense
    >>> get_name_from_symbol(Dense)
    'kerasmini.layers.Dense'
    """
    return REGISTERED_OBJS_TO_NAMES.get(symbol)


def get_symbol_from_name(name):
    """The symbol exported as ``name``, or ``None``.

    >>> get_symbol_from_name("kerasmini.layers.Dense").__name__
    'Dense'
    """
    return REGISTERED_NAMES_TO_OBJS.get(name)


def lazy_attributes(module_name, sources):
    """A package's ``__getattr__`` and ``__dir__`` (PEP 562) for public names
    imported on first access: ``sources`` maps each name to the module that
    defines it. Keeps ``import kerasmini`` from loading what few users need.

    >>> getattr_, dir_ = lazy_attributes("kerasmini.api_export",
    ...                                  {"dedent": "textwrap"})
    >>> getattr_("dedent")("  x")
    'x'
    >>> "dedent" in dir_()
    True
    >>> getattr_("nothing")
    Traceback (most recent call last):
      ...
    AttributeError: module 'kerasmini.api_export' has no attribute 'nothing'
    """

    def __getattr__(name):
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        setattr(sys.modules[module_name], name, value)  # later lookups skip this
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[module_name])) | set(sources))

    return __getattr__, __dir__
