"""``tf.experimental.ExtensionType``: user-defined immutable value types built from annotated
fields (TF's ``extension_type``), and their ``Spec`` classes.

A subclass declares fields as annotations (``values: tf.Tensor``, ``n: int = 0``,
``tags: typing.Tuple[int, ...]``, ``typing.Optional``/``Union``/``Mapping``, ``tf.TensorShape``,
``tf.DType``, another ExtensionType); the constructor (generated, or the class's own
``__init__``) converts and checks every field, then calls ``__validate__``.  Instances are
immutable, compare field by field (``==`` gives a scalar bool tensor when a field is a
tensor), print as ``Name(field=..., ...)``, and describe themselves by ``_type_spec``, an
instance of ``Name.Spec``.  Not yet (tapeflow's nest and tf.function treat an instance as an
opaque leaf): ``expand_composites`` flattening and ``input_signature`` specs.
"""
import collections.abc as _abc
import inspect as _inspect
import typing as _typing

import tapeflow as _tf

from .._core.dtypes import DType as _DType
from .._core.tensor import TensorShape as _TensorShape

__all__ = ["BatchableExtensionType", "ExtensionType", "ExtensionTypeSpec"]

_NO_DEFAULT = _inspect.Parameter.empty
_BUILDING = "_tf_extension_type_building"


class ImmutableDict(_abc.Mapping):
    """A read-only mapping: the value of a ``typing.Mapping`` field."""

    def __init__(self, items):
        self._d = dict(items)

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __repr__(self):
        return f"ImmutableDict({self._d!r})"

    def __eq__(self, other):
        return isinstance(other, _abc.Mapping) and dict(self) == dict(other)

    def __hash__(self):
        return hash(tuple(sorted(self._d.items(), key=repr)))


def _type_name(ann):
    if _typing.get_origin(ann) is not None:
        return repr(ann)
    return repr(getattr(ann, "__name__", ann))


def _convert(ann, value, path):
    """``value`` converted to the field type ``ann``; TypeError naming ``path`` otherwise."""
    origin = _typing.get_origin(ann)
    if ann is _tf.Tensor:
        return _tf.convert_to_tensor(value)
    if origin is _typing.Union:
        for option in _typing.get_args(ann):
            try:
                return _convert(option, value, path)
            except (TypeError, ValueError):
                continue
        raise TypeError(f"{path}: expected {ann!r}, got {type(value).__name__!r}")
    if origin is tuple:
        args = _typing.get_args(ann)
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"{path}: expected {ann!r}, got {type(value).__name__!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            args = (args[0],) * len(value)
        elif len(args) != len(value):
            raise TypeError(f"{path}: expected {ann!r}, got {value!r}")
        return tuple(_convert(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if origin in (_abc.Mapping, dict):
        if not isinstance(value, _abc.Mapping):
            raise TypeError(f"{path}: expected {ann!r}, got {type(value).__name__!r}")
        kt, vt = _typing.get_args(ann) or (_typing.Any, _typing.Any)
        return ImmutableDict((_convert(kt, k, f"{path}[{k!r}]"), _convert(vt, v, f"{path}[{k!r}]"))
                             for k, v in value.items())
    if ann is _typing.Any:
        return value
    if ann is type(None):
        if value is None:
            return None
    elif ann is _TensorShape:
        return value if isinstance(value, _TensorShape) else _TensorShape(value)
    elif ann is _DType:
        return _tf.as_dtype(value)
    elif ann is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif ann in (float, str, bool):
        if type(value) is ann or (ann is float and isinstance(value, float)):
            return value
    elif isinstance(ann, type):
        if isinstance(value, ann):
            return value
    else:
        raise TypeError(f"In field {path!r}: Unsupported type annotation {ann!r}")
    raise TypeError(f"{path}: expected {_type_name(ann)}, got {type(value).__name__!r}")


def _is_tensor_field(v):
    return _tf.is_tensor(v)


class ExtensionTypeSpec:
    """The ``TypeSpec`` of an ExtensionType: its tensor fields as ``TensorSpec``s, the rest as
    values (``tf.experimental.ExtensionTypeSpec``); each subclass has its own ``Name.Spec``."""

    value_type = None

    def __init__(self, **fields):
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name):
        try:
            return self.__dict__["_fields"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields.items())
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other):
        return type(self) is type(other) and self._fields == other._fields

    def __hash__(self):
        return hash((type(self), repr(self)))

    @classmethod
    def from_value(cls, value):
        return value._type_spec


class ExtensionType:
    """Base of user-defined immutable types with annotated fields; see the module docstring
    (``tf.experimental.ExtensionType``).

    Raises:
        TypeError: a missing/extra/unknown argument (``inspect`` binding messages) or a value
            that does not convert to its field's type (``"x: expected 'int', got 'str'"``).
        AttributeError: setting or deleting a field outside the constructor.
    """

    _tf_fields = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        hints = {}
        for klass in reversed(cls.__mro__):
            if klass is object or klass in _BASES:
                continue
            own = klass.__dict__.get("__annotations__", {})
            if own:
                resolved = _typing.get_type_hints(klass, include_extras=False)
                for name in own:
                    if not name.startswith("_"):
                        hints[name] = resolved[name]
        cls._tf_fields = tuple(
            (name, ann, cls.__dict__.get(name, getattr(cls, name, _NO_DEFAULT)))
            for name, ann in hints.items())
        for name, ann, _default in cls._tf_fields:
            if not (ann is _tf.Tensor or ann in (int, float, str, bool, _TensorShape, _DType)
                    or _typing.get_origin(ann) is not None or ann is _typing.Any
                    or isinstance(ann, type)):
                raise TypeError(f"In field {name!r}: Unsupported type annotation {ann!r}")
        params = [_inspect.Parameter(n, _inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
                  for n, _a, d in cls._tf_fields]
        cls._tf_signature = _inspect.Signature(params)
        cls._tf_custom_init = "__init__" in cls.__dict__
        if cls._tf_custom_init:
            user_init = cls.__dict__["__init__"]

            def __init__(self, *args, **kw):  # noqa: N807 - the constructor
                object.__setattr__(self, _BUILDING, True)
                try:
                    user_init(self, *args, **kw)
                finally:
                    object.__setattr__(self, _BUILDING, False)
                self._tf_finish({n: self.__dict__[n] for n, _a, _d in cls._tf_fields
                                 if n in self.__dict__})
            __init__.__signature__ = _inspect.signature(user_init)
            cls.__init__ = __init__
        spec = type(f"{cls.__name__}.Spec", (ExtensionTypeSpec,), {"value_type": cls})
        spec.__qualname__ = f"{cls.__qualname__}.Spec"
        cls.Spec = spec

    def __init__(self, *args, **kwargs):
        bound = type(self)._tf_signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self._tf_finish(dict(bound.arguments))

    def _tf_finish(self, values):
        for name, ann, default in type(self)._tf_fields:
            if name not in values:
                if default is _NO_DEFAULT:
                    raise TypeError(f"missing a required argument: {name!r}")
                values[name] = default
            object.__setattr__(self, name, _convert(ann, values[name], name))
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()

    def __setattr__(self, name, value):
        if self.__dict__.get(_BUILDING):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(
            f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __delattr__(self, name):
        raise AttributeError(
            f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n, _a, _d in type(self)._tf_fields)
        return f"{type(self).__name__}({inner})"

    @property
    def _type_spec(self):
        fields = {}
        for n, _a, _d in type(self)._tf_fields:
            v = getattr(self, n)
            fields[n] = (_tf.TensorSpec(v.shape, v.dtype) if _is_tensor_field(v)
                         else v._type_spec if isinstance(v, ExtensionType) else v)
        return type(self).Spec(**fields)

    def _tf_tensors(self):
        out = []
        for n, _a, _d in type(self)._tf_fields:
            v = getattr(self, n)
            if _is_tensor_field(v):
                out.append(v)
            elif isinstance(v, ExtensionType):
                out.extend(v._tf_tensors())
        return out

    # the composite protocol tf.function uses: passed and returned as the tensor fields
    def __tf_flatten__(self):
        meta, components = [], []
        for n, _a, _d in type(self)._tf_fields:
            v = getattr(self, n)
            if _is_tensor_field(v):
                meta.append((n, True, None))
                components.append(v)
            else:
                meta.append((n, False, v))
        return tuple(meta), tuple(components)

    @classmethod
    def __tf_unflatten__(cls, meta, components):
        out = object.__new__(cls)
        it = iter(components)
        for name, is_tensor, value in meta:
            object.__setattr__(out, name, next(it) if is_tensor else value)
        return out

    def __eq__(self, other):
        """A scalar bool tensor: same type, same non-tensor fields, equal tensors (shapes
        differing give Python ``False``).  TF raises InvalidArgumentError when no field is a
        tensor (it reduces an empty float list); so does tapeflow."""
        if type(other) is not type(self):
            return False
        mine, theirs = self._tf_tensors(), other._tf_tensors()
        spec_a, spec_b = self._type_spec, other._type_spec
        if any(not a.shape.is_compatible_with(b.shape) or a.dtype != b.dtype
               for a, b in zip(mine, theirs)):
            return False
        if spec_a._fields.keys() != spec_b._fields.keys() or any(
                not _tf.is_tensor(getattr(self, k)) and spec_a._fields[k] != spec_b._fields[k]
                for k in spec_a._fields):
            return False
        conds = [_tf.reduce_all(_tf.equal(a, b)) for a, b in zip(mine, theirs)]
        if not conds:
            raise _tf.errors.InvalidArgumentError(
                None, None, "cannot compute All as input #0(zero-based) was expected to be a "
                "bool tensor but is a float tensor [Op:All] name: ")
        return _tf.reduce_all(_tf.stack(conds))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return (not eq) if isinstance(eq, bool) else _tf.logical_not(eq)

    __hash__ = None


_BASES = {ExtensionType}


class BatchableExtensionType(ExtensionType):
    """An ExtensionType whose values can be batched (``tf.experimental.BatchableExtensionType``);
    here the same class: batching through ``tf.data``/``map_fn`` is not provided yet."""


_BASES.add(BatchableExtensionType)
