"""``serialize_keras_object`` / ``deserialize_keras_object``: objects as JSON.

Every saveable object becomes a plain dict, in Keras 3's shape::

    {"module": "keras.layers", "class_name": "Dense",
     "config": {...get_config()...}, "registered_name": None,
     "build_config": {"input_shape": [None, 4]}}

kerasmini writes Keras's own module names (``keras.layers``, not
``kerasmini.layers``) so real Keras can read its files, and reads both back.
Loading is the dangerous direction, so it is deliberately narrow:

* a class is found only in kerasmini's ``keras_export`` registry (modeling
  modules only: layers, models, initializers, ...) or among the custom
  objects the user registered or passed; no module named in a file is ever
  imported;
* a Python lambda (the one thing a config can hold that is code) is refused
  unless ``safe_mode=False`` (:class:`SafeModeScope`).

Mirrors ``keras/src/saving/serialization_lib.py``.

>>> from kerasmini import layers
>>> config = serialize_keras_object(layers.Dropout(0.5, name="drop"))
>>> config["module"], config["class_name"], config["config"]["rate"]
('keras.layers', 'Dropout', 0.5)
>>> deserialize_keras_object(config).rate
0.5
"""

import base64
import builtins
import inspect
import marshal
import types

import numpy as np

from kerasmini import api_export, ops
from kerasmini.api_export import keras_export
from kerasmini.backend.config import standardize_dtype
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.saving import object_registration
from kerasmini.saving.object_registration import CustomObjectScope

PLAIN_TYPES = (str, int, float, bool)

# Where built-in objects may come from: kerasmini.<module>.<Name>.
_MODELING_MODULES = ("layers", "models", "initializers", "regularizers",
                     "constraints", "activations", "optimizers", "losses", "metrics")
_FUNCTION_MODULES = ("activations", "losses", "metrics")
_NOT_MODELING = frozenset({"get", "serialize", "deserialize", "load_model",
                           "save_model", "model_from_json"})
# Keras-3-only options kerasmini's classes lack; dropped on load when they
# hold Keras's default, refused otherwise.
_KERAS_ONLY_DEFAULTS = {
    "quantization_config": (None,), "lora_rank": (None,), "lora_alpha": (None,),
    "input_axes": (None,), "output_axes": (None,),
    "sparse": (None, False), "ragged": (None, False), "optional": (False,),
    "weight_decay": (None, 0, 0.0), "clipnorm": (None,), "global_clipnorm": (None,),
    "clipvalue": (None,), "use_ema": (False,), "ema_momentum": (0.99,),
    "ema_overwrite_frequency": (None,), "loss_scale_factor": (None,),
    "gradient_accumulation_steps": (None,), "synchronized": (False,),
    "renorm": (False,), "renorm_clipping": (None,), "renorm_momentum": (0.99,),
}

_SAFE_MODE = [None]  # innermost SafeModeScope last; None = not set


class SafeModeScope:
    """Set safe mode (refuse lambdas) for the deserializations inside.

    >>> with SafeModeScope(False):
    ...     in_safe_mode()
    False
    """

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        _SAFE_MODE.append(self.safe_mode)
        return self

    def __exit__(self, *exc):
        _SAFE_MODE.pop()
        return False


def in_safe_mode():
    """The innermost :class:`SafeModeScope` setting (``None`` outside any).

    >>> in_safe_mode() is None
    True
    """
    return _SAFE_MODE[-1]


@keras_export(["kerasmini.config.enable_unsafe_deserialization",
               "kerasmini.saving.enable_unsafe_deserialization"])
def enable_unsafe_deserialization():
    """Allow lambdas everywhere from now on (the process-wide opt-out).

    >>> enable_unsafe_deserialization(); in_safe_mode()
    False
    >>> _SAFE_MODE[:] = [None]  # undo, for the other examples
    """
    _SAFE_MODE[0] = False


LAMBDA_MESSAGE = (
    "Requested the deserialization of a Python lambda. This carries a potential "
    "risk of arbitrary code execution and thus it is disallowed by default. If "
    "you trust the source of the artifact, you can override this error by passing "
    "`safe_mode=False` to the loading function, or calling "
    "`keras.config.enable_unsafe_deserialization()."
)


# ------------------------------------------------------------ serializing
def serialize_dtype_policy(dtype):
    """The dtype as Keras 3 writes a layer's ``DTypePolicy``.

    >>> serialize_dtype_policy("float32")["config"]
    {'name': 'float32'}
    """
    return {"module": "keras", "class_name": "DTypePolicy",
            "config": {"name": dtype}, "registered_name": None}


def _public_class_fields(cls):
    """``(module, class_name, registered_name)`` for a class or function."""
    public = api_export.get_name_from_symbol(cls)
    if public == "kerasmini.Functional":  # Keras exports no keras.Functional
        return "keras.src.models.functional", "Functional", "Functional"
    if public is not None:
        module, _, name = public.rpartition(".")
        return "keras" + module[len("kerasmini"):], name, None
    return cls.__module__, cls.__name__, object_registration.get_registered_name(cls)


@keras_export(["kerasmini.saving.serialize_keras_object",
               "kerasmini.utils.serialize_keras_object"])
def serialize_keras_object(obj):
    """Turn ``obj`` (and everything inside its config) into JSON-ready data.

    >>> from kerasmini import initializers
    >>> serialize_keras_object(initializers.GlorotUniform())
    {'module': 'keras.initializers', 'class_name': 'GlorotUniform', \
'config': {'seed': None}, 'registered_name': None}
    """
    if obj is None or isinstance(obj, PLAIN_TYPES):
        return obj
    if isinstance(obj, (list, tuple)):
        items = [serialize_keras_object(x) for x in obj]
        return tuple(items) if isinstance(obj, tuple) else items
    if isinstance(obj, dict):
        return {key: serialize_keras_object(value) for key, value in obj.items()}
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, KerasTensor):
        history = obj._keras_history
        if history is not None:
            history = [history.layer.name, history.node_index, history.tensor_index]
        return {"class_name": "__keras_tensor__",
                "config": {"shape": obj.shape, "dtype": obj.dtype,
                           "keras_history": history}}
    if isinstance(obj, np.ndarray) and obj.ndim > 0:
        return {"class_name": "__numpy__",
                "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, (np.generic, np.ndarray)):
        return obj.item()
    if isinstance(obj, types.FunctionType):
        if obj.__name__ == "<lambda>":
            return {"class_name": "__lambda__", "config": {"value": func_dump(obj)}}
        module, name, registered = _public_class_fields(obj)
        name = registered or name  # custom: "package>name"; built-in: "relu"
        return {"module": module, "class_name": "function", "config": name,
                "registered_name": name}
    if not hasattr(obj, "get_config"):
        raise TypeError(
            f"Cannot serialize object {obj!r} of type {type(obj)}. To be "
            "serializable, a class must implement the `get_config()` method."
        )
    inner = obj.get_config()
    if not isinstance(inner, dict):
        raise TypeError(
            f"The `get_config()` method of {obj!r} should return a dict. "
            f"It returned: {inner!r}"
        )
    module, class_name, registered = _public_class_fields(type(obj))
    if module == "__main__":
        # a class typed in a notebook or script: no other process can import
        # it from "__main__", so Keras writes null (found by registered name)
        module = None
    config = {"module": module, "class_name": class_name,
              "config": serialize_keras_object(inner), "registered_name": registered}
    if hasattr(obj, "get_build_config"):
        build_config = obj.get_build_config()
        if build_config is not None:
            config["build_config"] = serialize_keras_object(build_config)
    if hasattr(obj, "get_compile_config"):
        compile_config = obj.get_compile_config()
        if compile_config is not None:
            config["compile_config"] = serialize_keras_object(compile_config)
    return config


def serialize_function(fn):
    """A ``Lambda`` layer's function as Keras's ``Lambda`` writes it: a
    lambda as ``__lambda__`` bytecode, anything else by name.

    >>> serialize_function(lambda x: x)["class_name"]
    '__lambda__'
    """
    if isinstance(fn, types.FunctionType) and fn.__name__ == "<lambda>":
        code, defaults, closure = func_dump(fn)
        return {"class_name": "__lambda__",
                "config": {"code": code, "defaults": defaults, "closure": closure}}
    return serialize_keras_object(fn)


def func_dump(fn):
    """``(base64 bytecode, defaults, closure values)`` of a function, the
    format Keras uses for lambdas (only ever loaded with ``safe_mode=False``).

    >>> code, defaults, closure = func_dump(lambda x, k=2: x * k)
    >>> defaults, closure
    ((2,), None)
    """
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    closure = None
    if fn.__closure__:
        closure = tuple(cell.cell_contents for cell in fn.__closure__)
    return code, fn.__defaults__, closure


def func_load(code, defaults=None, closure=None):
    """Rebuild a function from :func:`func_dump` output. This runs code from
    the file: callers check safe mode first.

    >>> func_load(*func_dump(lambda x, k=2: x * k))(5)
    10
    """
    if isinstance(code, (list, tuple)):
        code, defaults, closure = code
    code = marshal.loads(base64.b64decode(code.encode("ascii")))
    cells = None
    if closure is not None:
        cells = tuple(types.CellType(value) for value in closure)
    namespace = {"__builtins__": builtins, "ops": ops, "np": np, "numpy": np}
    return types.FunctionType(code, namespace, code.co_name,
                              tuple(defaults) if defaults else None, cells)


# ---------------------------------------------------------- deserializing
def _check_keras_only_keys(cls, config):
    """Drop Keras-only options at their defaults; refuse any other value."""
    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return config
    config = dict(config)
    for key, defaults in _KERAS_ONLY_DEFAULTS.items():
        if key in config and key not in params:
            value = config.pop(key)
            if not any(value is d or (value == d and type(value) is type(d))
                       for d in defaults):
                raise ValueError(
                    f"kerasmini's {cls.__name__} does not support the Keras option "
                    f"`{key}`. Received: {key}={value!r}"
                )
    return config


def _builtin(module, name, obj_type):
    """A kerasmini built-in named by a (Keras or kerasmini) module path."""
    if module is None:
        return None
    parts = module.split(".")
    if parts[0] not in ("keras", "kerasmini"):
        return None
    if module == "keras.src.models.functional" and name == "Functional":
        candidates = ["kerasmini.Functional"]
    elif len(parts) > 1 and parts[1] == "src":  # e.g. keras.src...optimizers.adam
        candidates = [f"kerasmini.{part}.{name}" for part in parts[2:]
                      if part in _MODELING_MODULES]
    elif obj_type == "function" and module == "builtins":
        candidates = [f"kerasmini.{part}.{name}" for part in _FUNCTION_MODULES]
    else:
        candidates = ["kerasmini" + module[len(parts[0]):] + "." + name]
    for candidate in candidates:
        section = candidate.split(".")[1] if candidate.count(".") > 1 else ""
        obj = api_export.get_symbol_from_name(candidate)
        if obj is None or name in _NOT_MODELING:
            continue
        if section and section not in _MODELING_MODULES:
            continue
        if isinstance(obj, type) and hasattr(obj, "from_config"):
            return obj
        if obj_type == "function" and section in _FUNCTION_MODULES \
                and isinstance(obj, types.FunctionType):
            return obj
    return None


def _retrieve(config, custom_objects, obj_type):
    class_name = config["class_name"]
    name = config["config"] if obj_type == "function" else class_name
    registered = config.get("registered_name") or name
    for key in (registered, name):
        found = object_registration.get_registered_object(key, custom_objects)
        if found is not None:
            return found
    module = config.get("module")
    found = _builtin(module, name, obj_type)
    if found is None and obj_type == "function" and module is not None:
        found = _builtin("builtins", name, obj_type)
    if found is not None:
        return found
    raise TypeError(
        f"Could not locate {obj_type} '{name}'. Make sure custom classes and "
        "functions are decorated with `@keras.saving.register_keras_serializable()`"
        ". If they are already decorated, make sure they are all imported so that "
        "the decorator is run before trying to load them. Full object config: "
        f"{config}"
    )


def _special(class_name, inner, custom_objects, safe_mode):
    """The ``__name__`` forms: tensors, arrays, bytes and lambdas."""
    if class_name == "__keras_tensor__":
        tensor = KerasTensor(inner["shape"], dtype=inner["dtype"])
        tensor._pre_serialization_keras_history = inner.get("keras_history")
        return tensor
    if class_name in ("__numpy__", "__tensor__"):
        return np.array(inner["value"], dtype=standardize_dtype(inner["dtype"]))
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "__lambda__":
        if safe_mode:
            raise ValueError(LAMBDA_MESSAGE)
        return func_load(inner["value"])
    raise TypeError(f"Unsupported special object in config: '{class_name}'.")


@keras_export(["kerasmini.saving.deserialize_keras_object",
               "kerasmini.utils.deserialize_keras_object"])
def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """Rebuild the object a :func:`serialize_keras_object` dict describes.

    Args:
        config: the dict (or a plain value, list or name).
        custom_objects: ``{name: class_or_function}`` for custom classes.
        safe_mode: refuse Python lambdas (default). An enclosing
            :class:`SafeModeScope` takes precedence.

    >>> deserialize_keras_object({"module": "keras.regularizers",
    ...     "class_name": "L2", "config": {"l2": 0.1}, "registered_name": None})
    L2(l2=0.1)
    >>> deserialize_keras_object({"module": "keras.layers", "class_name": "Nope",
    ...     "config": {}, "registered_name": None})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    TypeError: Could not locate class 'Nope'. Make sure custom classes ...
    """
    if in_safe_mode() is not None:
        safe_mode = in_safe_mode()
    custom_objects = dict(custom_objects or {})
    if config is None or isinstance(config, PLAIN_TYPES):
        if isinstance(config, str):
            found = object_registration.get_registered_object(config, custom_objects)
            if found is not None:
                return found
        return config
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(x, custom_objects, safe_mode) for x in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config!r}")
    if "class_name" not in config or "config" not in config:
        return {key: deserialize_keras_object(value, custom_objects, safe_mode)
                for key, value in config.items()}

    class_name = config["class_name"]
    inner = config["config"] if config["config"] is not None else {}
    if not isinstance(class_name, str):
        raise TypeError(f"`class_name` must be a string. Received: {class_name!r}")
    if class_name.startswith("__"):
        return _special(class_name, inner, custom_objects, safe_mode)
    if class_name in ("DTypePolicy", "FloatDTypePolicy") and \
            str(config.get("module", "")).split(".")[0] in ("keras", "kerasmini"):
        # the policy's name, which a layer's `dtype=` takes (a dtype, or a
        # mixed policy: kerasmini.dtype_policies checks it there)
        name = inner.get("name")
        return name if str(name).startswith("mixed_") else standardize_dtype(name)
    if class_name == "function":
        if not isinstance(inner, str):
            raise TypeError(
                "Expected 'config' to be a non-null str for a function class name. "
                f"Full config: {config}"
            )
        return _retrieve(config, custom_objects, "function")
    if not isinstance(inner, dict):
        raise TypeError(
            f"Expected 'config' to be a dict for {class_name}, instead got "
            f"{type(inner)}. Full config: {config}"
        )
    cls = _retrieve(config, custom_objects, "class")
    if isinstance(cls, types.FunctionType):
        return cls
    if not hasattr(cls, "from_config"):
        raise TypeError(
            f"Unable to reconstruct an instance of '{class_name}' because the class "
            f"is missing a `from_config()` method. Full object config: {config}"
        )
    if api_export.get_name_from_symbol(cls) is not None:
        inner = _check_keras_only_keys(cls, inner)
    with CustomObjectScope(custom_objects), SafeModeScope(safe_mode):
        instance = cls.from_config(inner)
        build_config = config.get("build_config")
        if build_config and not getattr(instance, "built", True):
            instance.build_from_config(build_config)
        compile_config = config.get("compile_config")
        if compile_config and hasattr(instance, "compile_from_config"):
            instance.compile_from_config(compile_config)
    return instance


def resolve_identifier(identifier, kind, objects, known=None, hint=""):
    """The shared body of every module's ``get()``: identifier -> object.

    ``None`` stays ``None``; a config dict is deserialized; a string is looked
    up in ``objects`` (a class found there is instantiated, a function is
    returned as is); a class is instantiated; any other callable is returned.

    Args:
        identifier: what the user passed (``"l2"``, ``{"class_name": ...}``,
            an object, a function).
        kind: the word used in errors (``"regularizer"``).
        objects: ``{name: class or function}``.
        known: the names listed when a string is unknown (default: all).
        hint: extra text for that error.

    >>> resolve_identifier("relu", "activation", {"relu": max}) is max
    True
    >>> resolve_identifier("rleu", "activation", {"relu": max})
    Traceback (most recent call last):
      ...
    ValueError: Could not interpret activation identifier: 'rleu'. Known activations: ['relu']
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        if "class_name" not in identifier:
            raise ValueError(
                f"Could not interpret {kind} identifier: {identifier!r}. A dict "
                f"must be a serialized {kind} with 'class_name' and 'config'."
            )
        return deserialize_keras_object(identifier)
    obj = identifier
    if isinstance(identifier, str):
        obj = objects.get(identifier)
        if obj is None:
            names = sorted(objects if known is None else known)
            kinds = kind + ("es" if kind.endswith("s") else "s")
            raise ValueError(
                f"Could not interpret {kind} identifier: {identifier!r}. "
                f"Known {kinds}: {names}{hint}"
            )
    if isinstance(obj, type):
        return obj()
    if callable(obj):
        return obj
    raise ValueError(
        f"Could not interpret {kind} identifier: {identifier!r} "
        f"(of type {type(identifier).__name__})"
    )
