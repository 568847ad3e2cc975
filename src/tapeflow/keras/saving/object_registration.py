"""The registry of custom classes and functions for saving (``tf.keras.saving``'s half of it).

``register_keras_serializable`` files a class under ``"package>Name"``; ``custom_object_scope``
adds names for the duration of a ``with`` block; loading looks a name up in the objects passed
to it, then the scope, then the registry.
"""
import inspect

__all__ = ["CustomObjectScope", "custom_object_scope", "get_custom_objects",
           "get_registered_name", "get_registered_object", "register_keras_serializable"]

_GLOBAL_CUSTOM_OBJECTS = {}
_GLOBAL_CUSTOM_NAMES = {}
_scope_stack = [{}]


class CustomObjectScope:
    """Make names resolve to objects inside a ``with`` block
    (``tf.keras.saving.custom_object_scope``).

    Args:
        custom_objects: a dict ``{name: class or function}``.

    >>> import tapeflow as tf
    >>> with tf.keras.saving.custom_object_scope({"my_fn": abs}):
    ...     tf.keras.saving.get_registered_object("my_fn") is abs
    True
    """

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _scope_stack.append({**_scope_stack[-1], **self.custom_objects})
        return self

    def __exit__(self, *exc):
        _scope_stack.pop()


custom_object_scope = CustomObjectScope


def scope_objects() -> dict:
    """The names the innermost ``custom_object_scope`` adds."""
    return _scope_stack[-1]


def get_custom_objects() -> dict:
    """The global registry, a dict you may edit (``tf.keras.saving.get_custom_objects``).

    Returns:
        The live dict ``{registered name: object}``.

    >>> import tapeflow as tf
    >>> isinstance(tf.keras.saving.get_custom_objects(), dict)
    True
    """
    return _GLOBAL_CUSTOM_OBJECTS


def register_keras_serializable(package="Custom", name=None):
    """Register a class or function under ``"package>name"`` so loading can find it
    (``tf.keras.saving.register_keras_serializable``).

    Args:
        package: the prefix of the registered name (default ``"Custom"``).
        name: default the object's ``__name__``.

    Returns:
        A decorator returning the object unchanged.

    Raises:
        ValueError: if a class has no ``get_config`` method, or the name is taken.

    >>> import tapeflow as tf
    >>> @tf.keras.saving.register_keras_serializable(package="Docs")
    ... def scaled(x):
    ...     return x * 2
    >>> tf.keras.saving.get_registered_name(scaled)
    'Docs>scaled'
    """

    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered_name = package + ">" + class_name
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered_name
        return arg

    return decorator


def get_registered_name(obj) -> str:
    """The name ``obj`` is registered under, else its ``__name__``
    (``tf.keras.saving.get_registered_name``)."""
    if obj in _GLOBAL_CUSTOM_NAMES:
        return _GLOBAL_CUSTOM_NAMES[obj]
    return obj.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object ``name`` stands for: from ``custom_objects``, the active scope, the
    registry or ``module_objects``, else None (``tf.keras.saving.get_registered_object``)."""
    if name in _scope_stack[-1]:
        return _scope_stack[-1][name]
    if name in _GLOBAL_CUSTOM_OBJECTS:
        return _GLOBAL_CUSTOM_OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None
