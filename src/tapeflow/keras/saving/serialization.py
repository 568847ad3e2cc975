"""Keras 3's config format: ``serialize_keras_object`` / ``deserialize_keras_object``.

An object becomes ``{"module", "class_name", "config", "registered_name"}`` (plus
``build_config`` and ``compile_config`` for layers and models), with tapeflow's built-in
classes written under Keras's public module names (``keras.layers``, ``keras.initializers``,
...) so that Keras reads them, and Keras's names read back as tapeflow's classes.
"""
import types

from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import _TensorLike
from .. import backend as _backend
from . import object_registration as _reg

__all__ = ["serialize_keras_object", "deserialize_keras_object", "dtype_policy_config",
           "deserialize_config_values", "SafeModeScope", "in_safe_mode",
           "dump_lambda", "load_lambda"]

# The safe modes of the deserializations under way (innermost last); the global switch is
# ``keras.config.enable_unsafe_deserialization()``'s (backend.UNSAFE_DESERIALIZATION).
_safe_modes = []

_LAMBDA_REFUSED = (
    "Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. "
    "This carries a potential risk of arbitrary code execution and thus it is disallowed by "
    "default. If you trust the source of the artifact, you can override this error by "
    "passing `safe_mode=False` to the loading function, or calling "
    "`keras.config.enable_unsafe_deserialization().")


class SafeModeScope:
    """``with SafeModeScope(False):`` lets the deserializations inside load Python lambdas
    (``keras.saving.SafeModeScope``)."""

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        _safe_modes.append(self.safe_mode)
        return self

    def __exit__(self, *exc):
        _safe_modes.pop()


def in_safe_mode():
    """True/False inside a :class:`SafeModeScope`, False after
    :func:`enable_unsafe_deserialization`, else None (unset: treated as safe)."""
    if _backend.UNSAFE_DESERIALIZATION[0]:
        return False
    return _safe_modes[-1] if _safe_modes else None


def dump_lambda(fn) -> dict:
    """A Python lambda as Keras writes it: ``{"class_name": "__lambda__", "config": {"code",
    "defaults", "closure"}}``, the code object marshalled and base64-encoded (readable only
    by the same Python version, as in Keras)."""
    import base64
    import marshal
    closure = (tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None)
    code = base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii")
    return {"class_name": "__lambda__",
            "config": {"code": code, "defaults": fn.__defaults__, "closure": closure}}


def load_lambda(config, safe_mode=None):
    """The function of :func:`dump_lambda`'s config.

    Raises:
        ValueError: in safe mode (the default), with Keras's text.
    """
    import base64
    import marshal
    if (safe_mode if safe_mode is not None else in_safe_mode()) is not False:
        raise ValueError(_LAMBDA_REFUSED)
    inner = config["config"]

    def cell(value):
        return (lambda: value).__closure__[0]

    closure = inner.get("closure")
    closure = tuple(cell(v) for v in closure) if closure is not None else None
    defaults = inner.get("defaults")
    code = marshal.loads(base64.decodebytes(inner["code"].encode("ascii")))
    return types.FunctionType(code, globals(), code.co_name,
                              tuple(defaults) if defaults is not None else None, closure)

# Keras's public modules whose built-ins a config names, most specific first.
_PUBLIC_MODULES = ("keras.layers", "keras.optimizers.schedules", "keras.optimizers",
                   "keras.initializers", "keras.regularizers", "keras.constraints",
                   "keras.losses", "keras.metrics", "keras.activations", "keras",
                   "keras.models")
# Keras's public module name -> the tapeflow namespace that holds those built-ins. They all
# stand floors above this registry: keras/__init__.py, which imports them all, hands them in
# (register_namespaces).
_NAMESPACES = {}


def register_namespaces(namespaces):
    """File ``{keras module name: tapeflow module}`` for every name of ``_PUBLIC_MODULES``:
    the namespaces where a config's class and function names are looked up, and under whose
    Keras names tapeflow's built-ins are written (keras/__init__.py calls this)."""
    missing = set(_PUBLIC_MODULES) - set(namespaces)
    if missing:
        raise ValueError(f"no namespace for {sorted(missing)}")
    _NAMESPACES.update(namespaces)


def dtype_policy_config(dtype) -> dict:
    """A layer's dtype as Keras writes it: a ``DTypePolicy`` config."""
    return {"module": "keras", "class_name": "DTypePolicy",
            "config": {"name": dtype if dtype in ("mixed_float16", "mixed_bfloat16")
                       else _dt.as_dtype(dtype).name}, "registered_name": None}


def _public_location(cls):
    """``(keras module, class name)`` for a tapeflow built-in class, else None."""
    if not cls.__module__.startswith("tapeflow.keras"):
        return None
    name = cls.__dict__.get("_keras_name", cls.__name__)  # a class Keras exports renamed
    for keras_module in _PUBLIC_MODULES:
        if getattr(_NAMESPACES[keras_module], name, None) is cls:
            return keras_module, name
    return None


# Keras's built-in model classes by name ("Model", "Functional", "Sequential"): keras.models,
# floors above this registry, files them when it is imported (register_model_classes), and
# the saving code and callbacks below it look them up here.
MODEL_CLASSES = {}


def register_model_classes(**classes):
    """File the built-in model classes (``Model=..., Functional=..., Sequential=...``):
    keras.models does this on import, so that the floors below it know them by type."""
    MODEL_CLASSES.update(classes)


def _is_functional(obj):
    return (type(obj) in (MODEL_CLASSES["Model"], MODEL_CLASSES["Functional"])
            and getattr(obj, "_fn_outputs", None) is not None)


def serialize_keras_object(obj):
    """The JSON-ready config of ``obj`` (``tf.keras.saving.serialize_keras_object``).

    Args:
        obj: a layer, model, optimizer, initializer, loss, metric, function, or plain
            Python/NumPy data.

    Returns:
        Plain data: ``{"module", "class_name", "config", "registered_name", ...}`` for
        objects, the value itself for plain data.

    Raises:
        TypeError: for an object without ``get_config``.

    >>> import tapeflow as tf
    >>> tf.keras.saving.serialize_keras_object(tf.keras.initializers.Zeros())["class_name"]
    'Zeros'
    """
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, (list, tuple)):
        out = [serialize_keras_object(x) for x in obj]
        return tuple(out) if isinstance(obj, tuple) else out
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, _dt.DType):
        return obj.name
    if isinstance(obj, np.ndarray) and obj.ndim > 0:
        return {"class_name": "__numpy__",
                "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, np.generic) or isinstance(obj, np.ndarray):
        return obj.item()
    if isinstance(obj, _TensorLike):
        value = obj.numpy()
        return {"class_name": "__tensor__",
                "config": {"value": value.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        return _serialize_function(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize object {obj} of type {type(obj)}. To be "
                        "serializable, a class must implement the `get_config()` method.")
    inner = obj.get_config()
    if not isinstance(inner, dict):
        raise TypeError(f"The `get_config()` method of {obj} should return a dict. It "
                        f"returned: {inner}")
    inner = serialize_keras_object(inner)
    if _is_functional(obj):
        config = {"module": "keras.src.models.functional", "class_name": "Functional",
                  "config": inner, "registered_name": "Functional"}
    else:
        place = _public_location(type(obj))
        if place is not None:
            config = {"module": place[0], "class_name": place[1], "config": inner,
                      "registered_name": None}
        else:
            config = {"module": type(obj).__module__, "class_name": type(obj).__name__,
                      "config": inner,
                      "registered_name": _reg.get_registered_name(type(obj))}
    if hasattr(obj, "get_build_config"):
        build = obj.get_build_config()
        if build is not None:
            config["build_config"] = serialize_keras_object(build)
    if hasattr(obj, "get_compile_config"):
        compiled = obj.get_compile_config()
        if compiled is not None:
            config["compile_config"] = serialize_keras_object(compiled)
    if config.get("module") == "__main__":
        config["module"] = None   # as Keras 3 records a class defined in the script
    return config


def _serialize_function(fn):
    if getattr(_NAMESPACES["keras.activations"], fn.__name__, None) is fn:
        return fn.__name__
    registered = _reg.get_registered_name(fn)
    if fn.__name__ == "<lambda>":
        raise ValueError("tapeflow cannot save a `lambda`: give the function a name and "
                         "register it with `tf.keras.saving.register_keras_serializable()`.")
    return {"module": fn.__module__, "class_name": "function", "config": registered,
            "registered_name": registered}


def deserialize_config_values(config, custom_objects=None):
    """``config`` with every nested object config (a dict with ``class_name`` and
    ``config``) rebuilt, and a ``DTypePolicy`` config reduced to its dtype name."""
    out = {}
    for key, value in config.items():
        if isinstance(value, dict) and value.get("class_name") == "DTypePolicy":
            value = value["config"]["name"]
        elif isinstance(value, dict) and "class_name" in value and "config" in value:
            value = deserialize_keras_object(value, custom_objects)
        out[key] = value
    return out


def _lookup(class_name, registered_name, module, custom_objects, kind="class"):
    name = class_name if kind == "function" else registered_name or class_name
    for candidate in (name, class_name):
        obj = _reg.get_registered_object(candidate, custom_objects)
        if obj is not None:
            return obj
    if module == "builtins" or module is None or module.startswith("keras"):
        if class_name == "Functional":
            return MODEL_CLASSES["Functional"]
        spaces = [module] if module in _PUBLIC_MODULES else list(_PUBLIC_MODULES)
        for keras_module in spaces + list(_PUBLIC_MODULES):
            obj = getattr(_NAMESPACES[keras_module], class_name, None)
            if obj is not None and not isinstance(obj, types.ModuleType):
                return obj
    return None


def _unknown(kind, name, config):
    return TypeError(
        f"Could not locate {kind} '{name}'. Make sure custom classes and functions are "
        "decorated with `@keras.saving.register_keras_serializable()`. If they are already "
        "decorated, make sure they are all imported so that the decorator is run before "
        f"trying to load them. Full object config: {config}")


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """Rebuild an object from its config (``tf.keras.saving.deserialize_keras_object``).

    Classes are found in ``custom_objects``, an active ``custom_object_scope``, the
    registry, then tapeflow's built-ins under Keras's module names.

    Args:
        config: what :func:`serialize_keras_object` returned (or Keras wrote).
        custom_objects: optional dict ``{name: class or function}``.
        safe_mode: False to allow Python lambdas (a ``Lambda`` layer's function); an
            enclosing :class:`SafeModeScope` takes precedence, as in Keras.

    Returns:
        The object (a layer built with its ``build_config``, a model compiled with its
        ``compile_config``), or plain data as it is.

    Raises:
        TypeError: for a class or function that cannot be found.

    >>> import tapeflow as tf
    >>> layer = tf.keras.saving.deserialize_keras_object(
    ...     tf.keras.saving.serialize_keras_object(tf.keras.layers.Dense(3)))
    >>> layer.units
    3
    """
    scoped = in_safe_mode()
    with SafeModeScope(scoped if scoped is not None else safe_mode):
        return _deserialize(config, custom_objects)


def _deserialize(config, custom_objects=None):
    custom_objects = {**(custom_objects or {}), **_reg.scope_objects()}
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, str):
        obj = _reg.get_registered_object(config, custom_objects)
        return config if obj is None else obj
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(c, custom_objects) for c in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects) for k, v in config.items()}
    class_name = config["class_name"]
    inner = config["config"] if config["config"] is not None else {}
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__tensor__":
        from ..._core.tensor import convert_to_tensor
        return convert_to_tensor(np.array(inner["value"], dtype=inner["dtype"]))
    if class_name == "__lambda__":
        if in_safe_mode() is not False:
            raise ValueError(
                "Requested the deserialization of a Python lambda. This carries a potential "
                "risk of arbitrary code execution and thus it is disallowed by default. If "
                "you trust the source of the artifact, you can override this error by "
                "passing `safe_mode=False` to the loading function, or calling "
                "`keras.config.enable_unsafe_deserialization().")
        code, defaults, closure = inner["value"] if "value" in inner else (
            inner["code"], inner.get("defaults"), inner.get("closure"))
        return load_lambda({"config": {"code": code, "defaults": defaults,
                                       "closure": closure}}, safe_mode=False)
    if class_name == "DTypePolicy":
        return inner["name"]
    module = config.get("module")
    if class_name == "function":
        fn = _lookup(inner, config.get("registered_name"), module, custom_objects,
                     "function")
        if fn is None:
            raise _unknown("function", inner, config)
        return fn
    cls = _lookup(class_name, config.get("registered_name"), module, custom_objects)
    if cls is None and (module or "").startswith("keras"):
        raise TypeError(f"Could not locate class '{class_name}': tapeflow does not implement "
                        f"Keras's `{module}.{class_name}`. Full object config: {config}")
    if cls is None:
        raise _unknown("class", class_name, config)
    if not hasattr(cls, "from_config"):
        raise TypeError(f"Unable to reconstruct an instance of '{class_name}' because the "
                        f"class is missing a `from_config()` method. Full object config: "
                        f"{config}")
    with _reg.CustomObjectScope(custom_objects):
        instance = _from_config(cls, inner, custom_objects)
        build_config = config.get("build_config")
        if build_config and not getattr(instance, "built", True):
            instance.build_from_config(build_config)
        compile_config = config.get("compile_config")
        if compile_config and hasattr(instance, "compile_from_config"):
            instance.compile_from_config(compile_config)
    return instance


def _from_config(cls, inner, custom_objects):
    import inspect
    params = inspect.signature(cls.from_config).parameters
    if "custom_objects" in params:
        return cls.from_config(inner, custom_objects=custom_objects)
    return cls.from_config(inner)


def signature_config(obj, skip=()) -> dict:
    """``{argument: obj.<argument>}`` for each named argument of ``type(obj).__init__``:
    the config of a class that keeps its arguments as attributes of the same names."""
    import inspect
    config = {}
    for name, param in inspect.signature(type(obj).__init__).parameters.items():
        if name == "self" or name in skip or param.kind in (param.VAR_POSITIONAL,
                                                            param.VAR_KEYWORD):
            continue
        if hasattr(obj, name):
            config[name] = getattr(obj, name)
    return config
