"""``tf.experimental.dispatch_for_api`` and the elementwise dispatchers: let a TF API take
user types (ExtensionTypes, any class) by routing calls to a registered function.

Registering for an API rebinds its public names (``tf.add`` and ``tf.math.add`` alike) to a
wrapper that tries the dispatchers first; only registered APIs pay, and unregistering the last
dispatcher of an API restores its original function.  Calls made inside tapeflow (the ops
calling each other, the Tensor operators) never dispatch.
"""
import collections.abc
import importlib
import inspect
import typing

__all__ = ["dispatch_for_api", "dispatch_for_binary_elementwise_apis",
           "dispatch_for_unary_elementwise_apis", "unregister_dispatch_for"]

# The public namespaces whose bindings are swapped (tf.*, tf.math.*, ...).
_PUBLIC = ("tapeflow", "tapeflow.math", "tapeflow.nn", "tapeflow.linalg", "tapeflow.bitwise")
UNARY_APIS = ("abs", "negative", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "square",
              "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
              "acosh", "atanh", "sigmoid", "sign", "floor", "ceil", "round", "rint",
              "reciprocal", "logical_not", "is_nan", "is_inf", "is_finite", "erf", "erfc",
              "lgamma", "digamma", "softplus", "softsign", "real", "imag", "conj", "angle")
BINARY_APIS = ("add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod",
               "mod", "pow", "maximum", "minimum", "equal", "not_equal", "less", "less_equal",
               "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
               "atan2", "squared_difference", "xdivy", "xlogy", "divide_no_nan")

_ORIGINAL = {}      # id(original api) -> original
_WRAPPER = {}       # id(original api) -> wrapper
_TARGETS = {}       # id(original api) -> [(dispatcher, matcher)]
_OWNER = {}         # dispatcher -> [id(original api)]


def _modules():
    for name in _PUBLIC:
        try:
            yield importlib.import_module(name)
        except ImportError:
            continue


def _original(api):
    for orig_id, wrapper in _WRAPPER.items():
        if wrapper is api:
            return _ORIGINAL[orig_id]
    return api


def _matches(value, ann):
    origin = typing.get_origin(ann)
    if ann is inspect.Parameter.empty or ann is typing.Any:
        return True
    if origin is typing.Union:
        return any(_matches(value, a) for a in typing.get_args(ann))
    if origin in (list, tuple, collections.abc.Sequence):
        args = typing.get_args(ann)
        return isinstance(value, (list, tuple)) and all(
            _matches(v, args[0] if args else typing.Any) for v in value)
    if ann is type(None):
        return value is None
    if isinstance(ann, type):
        return isinstance(value, ann)
    return False


def _install(api, dispatcher, matcher, owner=None):
    orig = _original(api)
    key = id(orig)
    if key not in _WRAPPER:
        targets = _TARGETS.setdefault(key, [])

        def wrapper(*args, **kwargs):
            for fn, match in targets:
                if match(args, kwargs):
                    return fn(*args, **kwargs)
            return orig(*args, **kwargs)
        wrapper.__name__ = getattr(orig, "__name__", "api")
        wrapper.__doc__ = orig.__doc__
        wrapper.__wrapped__ = orig
        _ORIGINAL[key] = orig
        _WRAPPER[key] = wrapper
        for mod in _modules():
            for name, value in list(vars(mod).items()):
                if value is orig:
                    setattr(mod, name, wrapper)
    _TARGETS[key].append((dispatcher, matcher))
    if owner is None:
        _OWNER.setdefault(dispatcher, []).append(key)
    else:
        _OWNER.setdefault(owner, []).append((key, dispatcher))


def dispatch_for_api(api, *signatures):
    """Decorator: calls of ``api`` whose arguments match ``dispatcher``'s type annotations (or
    one of ``signatures``, dicts of parameter name -> type) go to ``dispatcher``
    (``tf.experimental.dispatch_for_api``).  Annotations may be classes, ``typing.Union``,
    ``typing.Optional`` and ``typing.List``/``Tuple``/``Sequence`` of them; a parameter left
    unannotated matches anything.

    Raises:
        TypeError: ``dispatcher`` takes a parameter ``api`` does not have.
    """
    def decorator(dispatcher):
        sig = inspect.signature(dispatcher)
        api_params = inspect.signature(_original(api)).parameters
        for p in sig.parameters:
            if p not in api_params and sig.parameters[p].kind not in (
                    inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                raise TypeError(f"Dispatch function's signature {sig} does not match API's "
                                f"signature {inspect.signature(_original(api))}.")
        specs = [dict(s) for s in signatures] or [
            {n: p.annotation for n, p in sig.parameters.items()
             if p.annotation is not inspect.Parameter.empty}]

        def matcher(args, kwargs):
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError:
                return False
            return any(all(_matches(bound.arguments.get(n), t) for n, t in spec.items())
                       for spec in specs)
        _install(api, dispatcher, matcher)
        return dispatcher
    return decorator


def _elementwise(names, dispatcher, nargs, types):
    import tapeflow as tf
    for name in names:
        for mod in (tf, tf.math):
            api = getattr(mod, name, None)
            if api is not None:
                break
        if api is None:
            continue
        orig = _original(api)

        def call(*args, _orig=orig, **kwargs):
            return dispatcher(_orig, *args[:nargs], **{k: v for k, v in kwargs.items()
                                                       if k != "name"})

        def matcher(args, kwargs, _types=types):
            return len(args) >= nargs and all(_matches(a, t) for a, t in zip(args, _types))
        _install(api, call, matcher, owner=dispatcher)


def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: ``handler(api_func, x)`` answers every unary elementwise API (``tf.abs``,
    ``tf.math.exp``...) called with an ``x_type`` (``tf.experimental.
    dispatch_for_unary_elementwise_apis``)."""
    def decorator(handler):
        _elementwise(UNARY_APIS, handler, 1, (x_type,))
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: ``handler(api_func, x, y)`` answers every binary elementwise API
    (``tf.add``, ``tf.maximum``...) called with an ``x_type`` and a ``y_type``
    (``tf.experimental.dispatch_for_binary_elementwise_apis``)."""
    def decorator(handler):
        _elementwise(BINARY_APIS, handler, 2, (x_type, y_type))
        return handler
    return decorator


def unregister_dispatch_for(dispatch_target):
    """Remove every registration of ``dispatch_target``; an API left without dispatchers gets
    its original function back (``tf.experimental.unregister_dispatch_for``).

    Raises:
        ValueError: ``dispatch_target`` was not registered.
    """
    owned = _OWNER.pop(dispatch_target, None)
    if not owned:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         f"`@dispatch_for_*` decorator.")
    for entry in owned:
        key, fn = entry if isinstance(entry, tuple) else (entry, dispatch_target)
        targets = _TARGETS.get(key, [])
        targets[:] = [(f, m) for f, m in targets if f is not fn]
        if not targets and key in _WRAPPER:
            wrapper, orig = _WRAPPER.pop(key), _ORIGINAL.pop(key)
            _TARGETS.pop(key, None)
            for mod in _modules():
                for name, value in list(vars(mod).items()):
                    if value is wrapper:
                        setattr(mod, name, orig)
