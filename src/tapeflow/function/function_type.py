"""A ``tf.function``'s arguments: binding and casting them to an ``input_signature``, the
names and specs of the tensor leaves, the inputs a trace sees and the outputs it packs.

TF's counterpart is ``tensorflow/python/eager/polymorphic_function/function_type_utils.py``.
"""
import inspect

from .._core import nest as _nest
from .._core.backend import np
from .._core.tensor import Tensor, TensorShape, _TensorLike, convert_to_tensor
from .trace_type import TensorSpec, is_spec_composite, is_tensor_key, make_key


class _CastError(Exception):
    pass


def _is_composite_spec(s):
    """A RaggedTensorSpec or SparseTensorSpec (by protocol: the value class it describes)."""
    return hasattr(s, "value_type") and not isinstance(s, TensorSpec)


def _as_spec(s):
    if isinstance(s, TensorSpec) or _is_composite_spec(s):
        return s
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        return TensorSpec(s.shape, s.dtype)
    raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec "
                    f"objects, got invalid args {s!r} with type {type(s)}.")


def _cast(spec, value):
    if _is_composite_spec(spec):   # a ragged or sparse value: its class, dtype and rank
        ok = (isinstance(value, spec.value_type) and value.dtype == spec.dtype and
              spec.shape.is_compatible_with(value.shape) and
              getattr(spec, "ragged_rank", None) in (None, getattr(value, "ragged_rank", None)))
        if not ok and isinstance(value, spec.value_type) and hasattr(value, "flat_values"):
            # TensorFlow compares the flat values' specs
            flat = value.flat_values
            inner = list(spec.shape)[getattr(spec, "ragged_rank", 1) + 1:] \
                if spec.shape.rank is not None else []
            raise _CastError(f"Can not cast {TensorSpec(flat.shape, flat.dtype)!r} to "
                             f"{TensorSpec([None] + inner, spec.dtype)!r}")
        if not ok:
            raise _CastError(f"Can not cast {value!r} to {spec!r}")
        return value
    if isinstance(value, _TensorLike):
        t = value if type(value) is Tensor else value._read()
    else:
        try:
            t = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError):
            t = convert_to_tensor(value)
    got = TensorSpec(t.shape, t.dtype)
    if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):
        raise _CastError(f"Can not cast {got!r} to {spec!r}")
    return t


def _args_text(args):
    return "(" + ", ".join(repr(a) for a in args) + ("," if len(args) == 1 else "") + ")"


def _dummy(spec):
    if hasattr(spec, "__tf_placeholder__"):   # a RaggedTensorSpec
        return spec.__tf_placeholder__()
    dims = [2 if d is None else d for d in (spec.shape.as_list() if spec.shape.rank is not None
                                            else [])]
    if spec.dtype.name == "string":   # "1", as numbers are 1: a string that parses
        return convert_to_tensor(np.full(dims, b"1", dtype=object) if dims else b"1")
    return Tensor(np.ones(dims, dtype=spec.dtype._np) if dims else spec.dtype._np.type(1))


def _spec_key(args, kwargs):
    def k(a):
        if isinstance(a, TensorSpec):
            return (None if a.shape.rank is None else tuple(a.shape.as_list()), a.dtype._np)
        if hasattr(a, "__tf_trace_key__"):   # a RaggedTensorSpec
            return a.__tf_trace_key__()
        return make_key((a,), {})[0][0]
    key = tuple(k(a) for a in args)
    if kwargs:
        key = (key, tuple((n, k(kwargs[n])) for n in sorted(kwargs)))
    return key


class _Exact:
    """A composite component's place among the flat shapes of a spec-level key: traced at
    its own shape (the partition's variant), the composite's spec in ``spec``."""

    __slots__ = ("spec",)

    def __init__(self, spec=None):
        self.spec = spec


def _flat_tensor_shapes(general):
    """One entry per tensor leaf of ``general``: its shape (None dims relaxed), None for a
    Variable, an :class:`_Exact` for the components of a spec-level composite."""
    out = []

    def walk(k):
        if is_tensor_key(k):
            out.append(k[0])
        elif type(k) is tuple and len(k) == 5 and k[0] == "Variable":
            out.append(None)
        elif is_spec_composite(k):
            n = len(out)
            walk(k[2])
            out[n:] = [_Exact() for _ in out[n:]]
            if len(out) > n and k[2]:
                out[n].spec = k[1].type_spec(k[2][0])
        elif type(k) is tuple:
            for e in k:
                walk(e)
    walk(general)
    return out


def _relaxed_sizes(leaves, general):
    """The concrete sizes the trace saw for dimensions its key leaves unknown."""
    sizes = set()
    for leaf, shape in zip(leaves, _flat_tensor_shapes(general)):
        if hasattr(leaf, "_read") and type(leaf) is not Tensor:
            continue
        concrete = leaf._value.shape
        if type(shape) is _Exact:
            continue
        if shape is None:
            sizes.update(concrete)
        else:
            sizes.update(d for d, g in zip(concrete, shape) if g is None)
    return frozenset(sizes)


class _ArgNames(list):
    """The names of a function's positional parameters (before ``*args``); ``varargs`` is
    the name of its ``*args`` parameter, or None."""

    def __init__(self, sig):
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = list(sig.parameters.values())
        super().__init__(p.name for p in params if p.kind in kinds)
        self.varargs = next((p.name for p in params
                             if p.kind is inspect.Parameter.VAR_POSITIONAL), None)


def _arg_name(names, i, default=None):
    """The name of positional argument ``i``: its parameter's, ``args_0``, ``args_1``, ...
    past them for a ``*args`` parameter named ``args`` (TensorFlow's names), else
    ``default`` (``arg{i}``)."""
    if i < len(names):
        return names[i]
    varargs = getattr(names, "varargs", None)
    if varargs is not None:
        return f"{varargs}_{i - len(names)}"
    return default if default is not None else f"arg{i}"


def _leaf_names(args, kwargs, params):
    names = []
    for i, a in enumerate(args):
        base = _arg_name(params, i, f"args_{i}")
        n = len(make_key((a,), {})[1])
        names.extend([base] if n == 1 and isinstance(a, _TensorLike) else
                     [f"{base}_{j}" if j else base for j in range(n)])
    for k in sorted(kwargs):
        n = len(make_key((kwargs[k],), {})[1])
        names.extend([k] + [f"{k}_{j}" for j in range(1, n)])
    return names


def _trace_inputs(tracer, leaves, args, kwargs, general, names):
    """The arguments the Python body sees while tracing, with a slot per tensor argument.

    Tensor arguments are the caller's own objects (so a tape that watches one still sees the
    ops on it); a tensor passed twice gets a fresh Tensor the second time, so each argument
    has its own slot."""
    inputs = []
    arg_vars = []
    seen = set()
    shapes = _flat_tensor_shapes(general)
    for i, leaf in enumerate(leaves):
        if hasattr(leaf, "_read") and type(leaf) is not Tensor:
            inputs.append(None)
            arg_vars.append(leaf)
            continue
        t = leaf
        if id(leaf) in seen:
            t = leaves[i] = Tensor(leaf._value)
        seen.add(id(leaf))
        inputs.append(tracer.input(t, names[i] if i < len(names) else None))
        arg_vars.append(None)
        if i < len(shapes) and type(shapes[i]) is not _Exact:
            shape = shapes[i]
            if shape is None or shape != leaf._value.shape:
                tracer.relaxed_shapes[t._id] = TensorShape(shape)
    it = iter(leaves)

    def rebuild(x):
        if isinstance(x, (_TensorLike, np.ndarray)):
            return next(it)
        if hasattr(x, "__tf_flatten__") and not isinstance(x, type):
            meta, components = x.__tf_flatten__()
            return type(x).__tf_unflatten__(meta, [
                rebuild(c) if not _nest.is_nested(c) else _nest.map_structure(rebuild, c)
                for c in components])
        return x
    call_args = tuple(_nest.map_structure(rebuild, list(args))) if args else ()
    call_kwargs = _nest.map_structure(rebuild, dict(kwargs)) if kwargs else {}
    return call_args, call_kwargs, inputs, arg_vars


def _pack(out_struct, flat_out):
    """``out_struct`` with its tensors replaced by ``flat_out`` (composites from their
    components, in order)."""
    if out_struct is None:
        return None
    nested = _nest.is_nested(out_struct)
    leaves = _nest.flatten(out_struct) if nested else [out_struct]
    it = iter(flat_out)
    rebuilt = []
    for leaf in leaves:
        if _is_composite(leaf):
            meta, components = leaf.__tf_flatten__()
            rebuilt.append(type(leaf).__tf_unflatten__(meta, [next(it) for _ in components]))
        else:
            rebuilt.append(next(it))
    return _nest.pack_sequence_as(out_struct, rebuilt) if nested else rebuilt[0]


def _input_signature(args, kwargs, general, names):
    """``(args, kwargs)`` with a TensorSpec (named after its parameter) for each tensor."""
    shapes = iter(_flat_tensor_shapes(general))
    leaf_names = iter(names)

    def spec(x):
        if _is_composite(x):
            n = len(make_key((x,), {})[1])
            got = [next(shapes, None) for _ in range(n)]
            for _ in range(n):
                next(leaf_names, None)
            if got and type(got[0]) is _Exact and got[0].spec is not None:
                return got[0].spec
            return x
        if isinstance(x, (_TensorLike, np.ndarray)):
            shape = next(shapes, None)
            name = next(leaf_names, None)
            if hasattr(x, "_read") and type(x) is not Tensor:
                return x
            dtype = convert_to_tensor(x).dtype
            return TensorSpec(TensorShape(shape), dtype, name)
        return x
    a = tuple(_nest.map_structure(spec, list(args))) if args else ()
    k = _nest.map_structure(spec, dict(kwargs)) if kwargs else {}
    return (a, k)


def _is_composite(x):
    return hasattr(x, "__tf_flatten__") and not isinstance(x, type)


def _outputs(tracer, result, fn):
    """The output structure, its flat Tensors (as returned by this first call) and slots.
    A composite output (IndexedSlices, PerReplica) is its components in the flat lists."""
    flat = _nest.flatten(result) if result is not None else []
    out_values = []
    slots = []
    leaves = []

    def one(x):
        if x is None:
            out_values.append(None)
            slots.append(None)
            return None
        if isinstance(x, _TensorLike):
            t = x if type(x) is Tensor else x._read()
        elif isinstance(x, (int, float, bool, complex, np.generic, np.ndarray)):
            t = convert_to_tensor(x)
        else:
            raise TypeError(
                f"To be compatible with tf.function, Python functions must return zero or more "
                f"Tensors or ExtensionTypes or None values; in compilation of {fn}, found "
                f"return value of type {type(x).__name__}, which is not a Tensor or "
                f"ExtensionType.")
        slots.append(tracer.slot_of(t))
        out = Tensor(t._value) if t is not x else t
        out_values.append(out)
        return out

    for x in flat:
        if _is_composite(x):
            meta, components = x.__tf_flatten__()
            leaves.append(type(x).__tf_unflatten__(meta, [one(c) for c in components]))
        else:
            leaves.append(one(x))
    if result is None:
        return None, out_values, slots
    struct = _nest.pack_sequence_as(result, leaves) if _nest.is_nested(result) else leaves[0]
    return struct, out_values, slots
