"""``tf.Module``: a named container of variables and submodules, found through attributes."""
import functools
import re

from .._core.variable import Variable
from .._core.variable import name_scope as _name_scope
from . import tracking

__all__ = ["Module"]

_VALID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _snake(name):
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


class Module:
    """Base class of models and layers built from variables (``tf.Module``, TF 2.21).

    Variables, modules, and lists, tuples and dicts of them assigned as attributes are
    found by ``variables``, ``trainable_variables`` and ``submodules``: this module's own
    attributes first (sorted by name; dict entries by key), then each submodule's, depth
    first. Variables made inside ``with self.name_scope:`` (or in a method decorated with
    :meth:`with_name_scope`) are named ``'<module name>/<variable name>:0'``. A
    ``tf.train.Checkpoint`` saves the same graph (attribute names as edges).

    Args:
        name: the module's name, a Python identifier; default the class name in snake
            case.

    Raises:
        ValueError: if ``name`` is not a valid Python identifier.

    >>> import tapeflow as tf
    >>> class Dense(tf.Module):
    ...     def __init__(self, n_in, n_out, name=None):
    ...         super().__init__(name=name)
    ...         with self.name_scope:
    ...             self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
    ...             self.b = tf.Variable(tf.zeros([n_out]), name="b")
    >>> class MLP(tf.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.layers = [Dense(3, 4, name="hidden"), Dense(4, 1, name="out")]
    >>> m = MLP()
    >>> [v.name for v in m.variables]
    ['hidden/b:0', 'hidden/w:0', 'out/b:0', 'out/w:0']
    >>> [s.name for s in m.submodules], m.name
    (['hidden', 'out'], 'mlp')
    """

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_self_unconditional_checkpoint_dependencies",
                                               "_self_unconditional_dependency_names"))

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _VALID.match(name):
            raise ValueError(f"'{name}' is not a valid module name. Module names must be "
                             "valid Python identifiers (e.g. a valid class name).")
        object.__setattr__(self, "_name", name)
        with _name_scope(name) as scope_name:
            object.__setattr__(self, "_name_scope", _name_scope(scope_name))

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        tracking.created(self)

    @property
    def name(self) -> str:
        """The module's name (no scope prefix)."""
        return self._name

    @property
    def name_scope(self) -> _name_scope:
        """The ``tf.name_scope`` of this module (``'<name>/'``, nested in the scope it was
        created in)."""
        return self._name_scope

    @property
    def variables(self) -> tuple:
        """Every variable of this module and its submodules (each once)."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        """The variables with ``trainable=True``."""
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        """The variables with ``trainable=False``."""
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and not v.trainable))

    @property
    def submodules(self) -> tuple:
        """Every module reachable from this one (not itself), depth first."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        """Leaves of the attribute tree for which ``predicate`` holds (``tf.Module._flatten``).

        With ``with_path`` each leaf comes as ``(path tuple, leaf)``.
        """
        return _flatten_module(self, recursive, predicate or (lambda _: True),
                               attribute_traversal_key, self._TF_MODULE_IGNORED_PROPERTIES,
                               with_path, (), None, None)

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method to run inside the module's ``name_scope``.

        >>> import tapeflow as tf
        >>> class M(tf.Module):
        ...     @tf.Module.with_name_scope
        ...     def make(self):
        ...         return tf.Variable(1.0, name="v")
        >>> M(name="m").make().name
        'm/v:0'
        """

        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return wrapped

    def _trackable_children(self):
        return tracking.attribute_children(self, ("_name", "_name_scope"))

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__qualname__} object at {id(self):#x}>"


def _is_variable(obj):
    return isinstance(obj, Variable)


def _is_module(obj):
    return isinstance(obj, Module)


def _leaves(value, path):
    """``(path, leaf)`` pairs of a nest: lists/tuples by index, dicts by sorted key."""
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    elif isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            keys = list(value)
        for k in keys:
            yield from _leaves(value[k], path + (k,))
    else:
        yield path, value


def _flatten_module(module, recursive, predicate, key, ignored, with_path, module_path, seen,
                    stack):
    # TensorFlow's module._flatten_module: this module's leaves, then each submodule's.
    mid = id(module)
    if seen is None:
        seen = {mid}
    stack = stack or []
    if mid in stack:
        recursive = False
    submodules = []
    attrs = vars(module)
    for name in sorted(attrs, key=key):
        if name in ignored:
            continue
        for leaf_path, leaf in _leaves(attrs[name], (name,)):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((module_path + leaf_path, leaf))
    stack.append(mid)
    for path, sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, key, ignored, with_path, path,
                                   seen, stack)
    stack.pop()
