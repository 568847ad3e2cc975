"""Trace keys as TensorFlow 2.21 computes them (``core/function/trace_type``), and TensorSpec.

- a Tensor or NumPy array: its shape and dtype (``TensorSpec``);
- a Variable: shape, dtype, trainable and its aliasing position in the call
  (``VariableSpec``), so another variable of the same spec reuses the trace;
- lists, tuples, namedtuples, dicts and dataclasses: structurally;
- hashable Python values by value (``1 == 1.0 == True``; NaN equals NaN);
- any other object by its own ``==``/hash (identity by default), held weakly.
"""
import math
import weakref

from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from .._core.tensor_spec import TensorSpec

__all__ = ["TensorSpec", "make_key", "generalize", "is_subtype", "is_tensor_key", "NAN",
           "spec_level", "has_spec_composite", "is_spec_composite"]


class _NaN:
    """NaN as a key: equal to itself (TensorFlow's ``NanMarker``)."""

    def __eq__(self, other):
        return isinstance(other, _NaN)

    def __hash__(self):
        return 0x7FF8

    def __repr__(self):
        return "nan"


NAN = _NaN()


class _Weak:
    """An object in a key: its own equality, held weakly (TF's ``Weakref`` trace type)."""

    __slots__ = ("ref", "hash")

    def __init__(self, obj):
        self.ref = weakref.ref(obj)
        self.hash = hash(obj)

    def __eq__(self, other):
        if not isinstance(other, _Weak):
            return False
        a, b = self.ref(), other.ref()
        return a is not None and b is not None and (a is b or a == b)

    def __hash__(self):
        return self.hash


_LITERALS = (int, float, bool, str, bytes, complex, type(None), np.generic)


def _variable_type():
    from .._core.variable import Variable
    return Variable


def make_key(args, kwargs):
    """``(key, leaves)``: the trace key of a call and its flat runtime inputs (Tensors and
    Variables, NumPy arrays converted to Tensors), in the order the key visits them.

    Raises:
        TypeError: for an unhashable argument that cannot be held weakly (as TensorFlow).
    """
    leaves = []
    aliases = {}
    key = tuple([_key(a, leaves, aliases) for a in args])
    if kwargs:
        key = (key, tuple([(k, _key(kwargs[k], leaves, aliases)) for k in sorted(kwargs)]))
    return key, leaves


def _key(x, leaves, aliases):
    t = type(x)
    if t is Tensor:
        leaves.append(x)
        v = x._value
        return (v.shape, v.dtype)
    if isinstance(x, _TensorLike):
        if hasattr(x, "_read"):    # a Variable (VariableSpec): aliasing is part of the type
            leaves.append(x)
            alias = aliases.setdefault(id(x), len(aliases))
            v = x._value
            return ("Variable", v.shape, v.dtype, x.trainable, alias)
        leaves.append(x)
        return (x._value.shape, x._value.dtype)
    if t is np.ndarray:
        tensor = convert_to_tensor(x)
        leaves.append(tensor)
        return (x.shape, tensor._value.dtype)
    if t is float and math.isnan(x):
        return NAN
    if isinstance(x, _LITERALS):
        return x
    if t is list or t is tuple:
        return (t, tuple([_key(e, leaves, aliases) for e in x]))
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return (t, tuple([_key(e, leaves, aliases) for e in x]))
    if isinstance(x, dict):
        return (t, tuple([(k, _key(x[k], leaves, aliases)) for k in sorted(x)]))
    fields = getattr(t, "__dataclass_fields__", None)
    if fields is not None:
        return (t, tuple([(f, _key(getattr(x, f), leaves, aliases)) for f in fields]))
    if hasattr(x, "__tf_flatten__") and not isinstance(x, type):
        # a composite (tf.distribute's PerReplica): its type and components, structurally
        meta, components = x.__tf_flatten__()
        return (t, meta, tuple([_key(c, leaves, aliases) for c in components]))
    if hasattr(x, "__tf_tracing_type__"):
        return ("TraceType", x.__tf_tracing_type__(None))
    try:
        return _Weak(x)
    except TypeError:
        pass
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"Could not generate a generic TraceType for {x!r}. Please verify "
                        f"that it is immutable/hashable. Otheriwse, consider implementing the "
                        f"Tracing Protocol for it.") from None
    return x


def spec_level(key):
    """``key`` with each composite's by-value metadata replaced by its spec-level part
    (``type.__tf_relax_meta__``: a RaggedTensor's partition by its row count and split
    dtypes) and its components' first dimension unknown: the key TensorFlow traces for
    (``RaggedTensorSpec``). ``key`` itself when it holds no such composite."""
    if type(key) is not tuple or is_tensor_key(key):
        return key
    if len(key) == 3 and isinstance(key[0], type) and hasattr(key[0], "__tf_relax_meta__") \
            and type(key[2]) is tuple:
        comps = tuple([((None,) + tuple(c[0][1:]), c[1]) if is_tensor_key(c) and c[0]
                       else spec_level(c) for c in key[2]])
        return (key[0], key[0].__tf_relax_meta__(key[1]), comps)
    out = tuple([spec_level(k) for k in key])
    return key if all(a is b for a, b in zip(out, key)) else out


def is_spec_composite(key):
    """Whether ``key`` is a composite's key at the spec level (see :func:`spec_level`)."""
    return (type(key) is tuple and len(key) == 3 and isinstance(key[0], type)
            and hasattr(key[1], "covers"))


def has_spec_composite(key):
    if is_spec_composite(key):
        return True
    return type(key) is tuple and not is_tensor_key(key) and any(
        has_spec_composite(k) for k in key)


def is_tensor_key(k):
    """Whether a key element stands for a tensor: ``(shape tuple or None, NumPy dtype)``."""
    return (type(k) is tuple and len(k) == 2 and (type(k[0]) is tuple or k[0] is None)
            and isinstance(k[1], np.dtype))


def ranks(key):
    """The ranks of a key's tensors, in order (None for an unknown rank)."""
    if is_tensor_key(key):
        return (None if key[0] is None else len(key[0]),)
    if type(key) is tuple:
        return sum((ranks(k) for k in key), ())
    return ()


def generalize(a, b):
    """The most specific key both ``a`` and ``b`` are subtypes of (TensorFlow's
    ``reduce_retracing``: differing dims become ``None``, differing ranks an unknown shape),
    or None when they differ in anything else."""
    if is_tensor_key(a) and is_tensor_key(b):
        if a[1] != b[1]:
            return None
        sa, sb = a[0], b[0]
        if sa is None or sb is None or len(sa) != len(sb):
            return (None, a[1])
        return (tuple(x if x == y else None for x, y in zip(sa, sb)), a[1])
    if type(a) is tuple and type(b) is tuple:
        if len(a) != len(b):
            return None
        out = []
        for x, y in zip(a, b):
            g = generalize(x, y)
            if g is None and not (x is None and y is None):
                return None
            out.append(g)
        return tuple(out)
    if type(a) is type(b) and a == b:
        return a
    if type(a) is type(b) and hasattr(a, "generalize"):   # a composite's spec-level part
        return a.generalize(b)
    return None


def is_subtype(key, general):
    """True when ``key`` (a concrete call) fits ``general`` (a possibly relaxed key)."""
    if is_tensor_key(key) and is_tensor_key(general):
        if key[1] != general[1]:
            return False
        gs = general[0]
        if gs is None:
            return True
        ks = key[0]
        if ks is None:
            return False
        return len(ks) == len(gs) and all(g is None or g == k for k, g in zip(ks, gs))
    if type(key) is tuple and type(general) is tuple:
        return len(key) == len(general) and all(is_subtype(k, g) for k, g in zip(key, general))
    if hasattr(general, "covers"):   # a composite's spec-level part (a PartitionSpec)
        return general.covers(key)
    return type(key) is type(general) and key == general if key is not None else general is None


def specificity(key):
    """How many known dims a key has (the most specific matching trace wins)."""
    if is_tensor_key(key):
        return -1 if key[0] is None else sum(d is not None for d in key[0])
    if type(key) is tuple:
        return sum(specificity(k) for k in key)
    return 0
