"""Custom objects: how a saved config names a class that is not built in.

A config records a class by name, never by code. Built-in classes are found
through the ``keras_export`` registry; everything else must be made known
to the loader, in one of three ways (checked in this order):

1. a :class:`CustomObjectScope` (``with CustomObjectScope({...}):``);
2. the global registry filled by :func:`register_keras_serializable`, under
   the key ``"package>Name"``;
3. the ``custom_objects`` dict passed to ``load_model``.

Mirrors ``keras/src/saving/object_registration.py``.

>>> from kerasmini.engine.base_layer import Layer
>>> @register_keras_serializable(package="demo")
... class Twice(Layer):
...     def call(self, x):
...         return x * 2
>>> get_registered_name(Twice)
'demo>Twice'
>>> get_registered_object("demo>Twice") is Twice
True
"""

import inspect

from kerasmini.api_export import keras_export

GLOBAL_CUSTOM_OBJECTS = {}  # "package>Name" -> class or function
GLOBAL_CUSTOM_NAMES = {}  # class or function -> "package>Name"
_SCOPE_STACK = [{}]  # the innermost CustomObjectScope's dict is last


@keras_export(["kerasmini.saving.CustomObjectScope",
               "kerasmini.saving.custom_object_scope",
               "kerasmini.utils.CustomObjectScope",
               "kerasmini.utils.custom_object_scope"])
class CustomObjectScope:
    """Make ``custom_objects`` visible to deserialization inside a ``with``.

    Args:
        custom_objects: a dict ``{name: class_or_function}``.

    >>> from kerasmini import layers
    >>> class MyDense(layers.Dense):
    ...     pass
    >>> with CustomObjectScope({"MyDense": MyDense}):
    ...     get_registered_object("MyDense") is MyDense
    True
    >>> get_registered_object("MyDense") is None
    True
    """

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _SCOPE_STACK.append({**_SCOPE_STACK[-1], **self.custom_objects})
        return self

    def __exit__(self, *exc):
        _SCOPE_STACK.pop()
        return False


custom_object_scope = CustomObjectScope


def _scope_objects():
    """The custom objects of the innermost :class:`CustomObjectScope`."""
    return _SCOPE_STACK[-1]


@keras_export(["kerasmini.saving.get_custom_objects",
               "kerasmini.utils.get_custom_objects"])
def get_custom_objects():
    """The live global dict of registered custom objects.

    >>> isinstance(get_custom_objects(), dict)
    True
    """
    return GLOBAL_CUSTOM_OBJECTS


@keras_export(["kerasmini.saving.register_keras_serializable",
               "kerasmini.utils.register_keras_serializable"])
def register_keras_serializable(package="Custom", name=None):
    """Class/function decorator: register under ``"package>name"``.

    ``name`` defaults to the object's ``__name__``. A class must define
    ``get_config`` (that is what will be saved).

    >>> @register_keras_serializable("demo", name="cube")
    ... def cube(x):
    ...     return x ** 3
    >>> get_registered_name(cube)
    'demo>cube'
    """

    def decorator(arg):
        registered_name = f"{package}>{name if name is not None else arg.__name__}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError(
                "Cannot register a class that does not have a get_config() method."
            )
        GLOBAL_CUSTOM_NAMES[arg] = registered_name
        GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        return arg

    return decorator


@keras_export(["kerasmini.saving.get_registered_name",
               "kerasmini.utils.get_registered_name"])
def get_registered_name(obj):
    """``"package>Name"`` if ``obj`` was registered, else its ``__name__``.

    >>> get_registered_name(len)
    'len'
    """
    return GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


@keras_export(["kerasmini.saving.get_registered_object",
               "kerasmini.utils.get_registered_object"])
def get_registered_object(name, custom_objects=None):
    """Look ``name`` up in the scope, the global registry, then
    ``custom_objects``; ``None`` if it is in none of them.

    >>> get_registered_object("nothing>Here") is None
    True
    """
    for table in (_scope_objects(), GLOBAL_CUSTOM_OBJECTS, custom_objects or {}):
        if name in table:
            return table[name]
    return None
