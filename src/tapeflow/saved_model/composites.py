"""RaggedTensors and SparseTensors across a SavedModel's function boundary, as TensorFlow
2.21 writes them.

**Export.** tapeflow traces a ``tf.function`` once per ``RaggedTensorSpec`` /
``SparseTensorSpec``, but its program takes only the values: the ops cut with the row
partition (use the indices) in NumPy, and each partition is a muted variant of the program
(``Function._partition_call``). TF's graph of the same function takes the components as
placeholders (``x`` the flat values, ``x_1``... the nested row splits; ``x`` the indices,
``x_1`` the values, ``x_2`` the dense shape) and returns each composite output as its
components. :func:`flat_trace` makes that program: it traces the function afresh at two
different partitions with the values' first dimension relaxed, keeps the result only when
both traces lower to the same FunctionDef (the steps do not depend on the partition) and
every composite output's partition is one of the inputs' (matched by value at both), and
returns a view of the first trace whose inputs and outputs hold the partitions. Anything
else (a reduction over the ragged rows, a partition computed in Python) is refused with a
``ValueError`` naming the function: TF's graph computes with the splits as tensors, which a
tapeflow trace does not record.

**Specs.** :func:`type_spec_proto` / :func:`spec_of_proto` encode and decode
``RaggedTensorSpec`` and ``SparseTensorSpec`` as the object graph's ``TypeSpecProto``
(``type_state``: shape, dtype, ragged rank, row-splits dtype; or shape, dtype), and
:func:`component_specs`, :func:`components`, :func:`pack` give a composite's flat parts in
TF's order (flat values then the row splits outermost first; indices, values, dense shape).
"""
import contextlib
import copy
import io

import numpy as np

from .. import _protobuf as pb
from .._core import dtypes as _dt
from .._core import nest
from .._core.tensor import Tensor, TensorShape
from .._core.tensor_spec import TensorSpec
from ..ops.ragged.ragged_tensor import RaggedTensor
from ..ops.ragged.ragged_tensor_spec import RaggedTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..ops.sparse.sparse_tensor_spec import SparseTensorSpec

__all__ = ["flat_trace", "type_spec_proto", "spec_of_proto", "component_specs",
           "components", "pack", "is_composite_spec", "n_components"]

RAGGED_TENSOR_SPEC = 3
SPARSE_TENSOR_SPEC = 1


def _m(type_name, **fields):
    return pb.Message("tensorflow." + type_name, **fields)


# --------------------------------------------------------------------------- specs
def is_composite_spec(x):
    return isinstance(x, (RaggedTensorSpec, SparseTensorSpec))


def type_spec_proto(spec, structured, shape_proto, dtype_enum):
    """A RaggedTensorSpec/SparseTensorSpec as TF's ``TypeSpecProto`` (``structured``: the
    StructuredValue encoder of the nest ``type_state`` holds)."""
    dims = None if spec.shape.rank is None else spec.shape.as_list()
    shape = _m("StructuredValue", tensor_shape_value=shape_proto(dims))
    dtype = _m("StructuredValue", tensor_dtype_value=dtype_enum(spec.dtype))
    if isinstance(spec, RaggedTensorSpec):
        state = [shape, dtype, _m("StructuredValue", int64_value=spec.ragged_rank),
                 _m("StructuredValue", tensor_dtype_value=dtype_enum(spec.row_splits_dtype))]
        return _m("TypeSpecProto", type_spec_class=RAGGED_TENSOR_SPEC,
                  type_state=_m("StructuredValue", tuple_value=_m("TupleValue", values=state)),
                  type_spec_class_name="RaggedTensorSpec",
                  num_flat_components=spec.ragged_rank + 1)
    return _m("TypeSpecProto", type_spec_class=SPARSE_TENSOR_SPEC,
              type_state=_m("StructuredValue", tuple_value=_m("TupleValue",
                                                               values=[shape, dtype])),
              type_spec_class_name="SparseTensorSpec", num_flat_components=3)


def spec_of_proto(proto, structure):
    """The spec a ``TypeSpecProto`` holds (``structure`` decodes its ``type_state``).

    Raises:
        NotImplementedError: a composite other than RaggedTensor and SparseTensor.
    """
    state = structure(proto.type_state)
    if proto.type_spec_class == RAGGED_TENSOR_SPEC:
        shape, dtype, ragged_rank, splits = state[:4]
        return RaggedTensorSpec(shape, dtype, ragged_rank, splits)
    if proto.type_spec_class == SPARSE_TENSOR_SPEC:
        return SparseTensorSpec(state[0], state[1])
    raise NotImplementedError(
        f"a saved function signature holds a {proto.type_spec_class_name or 'composite'} "
        "(tapeflow's loader takes RaggedTensor and SparseTensor composites only)")


def component_specs(spec):
    """A composite spec's flat TensorSpecs in TF's order."""
    if isinstance(spec, RaggedTensorSpec):
        dims = spec.shape.as_list() if spec.shape.rank is not None else None
        inner = dims[spec.ragged_rank + 1:] if dims is not None else []
        return ([TensorSpec([None] + list(inner), spec.dtype)] +
                [TensorSpec([None], spec.row_splits_dtype)] * spec.ragged_rank)
    rank = spec.shape.rank
    return [TensorSpec([None, rank], _dt.int64), TensorSpec([None], spec.dtype),
            TensorSpec([rank], _dt.int64)]


def components(value, spec):
    """A composite value's flat tensors in TF's order, or None when it does not fit
    ``spec`` (another type, dtype, ragged rank, split dtype or shape)."""
    if isinstance(spec, RaggedTensorSpec):
        if not isinstance(value, RaggedTensor) or value.dtype != spec.dtype or \
                value.ragged_rank != spec.ragged_rank or \
                value.row_splits.dtype != spec.row_splits_dtype:
            return None
        if spec.shape.rank is not None:
            if value.shape.rank != spec.shape.rank:
                return None
            for d, g in zip(value.shape.as_list(), spec.shape.as_list()):
                if g is not None and d is not None and d != g:
                    return None
        return [value.flat_values] + list(value.nested_row_splits)
    if not isinstance(value, SparseTensor) or value.dtype != spec.dtype:
        return None
    if not spec.shape.is_compatible_with(value.shape):
        return None
    return [value.indices, value.values, value.dense_shape]


def pack(spec, tensors):
    """The composite value of ``spec`` from its flat tensors (TF's order)."""
    if isinstance(spec, RaggedTensorSpec):
        result = tensors[0]
        for splits in reversed(tensors[1:]):
            result = RaggedTensor(result, splits, internal=True)
        return result
    return SparseTensor(tensors[0], tensors[1], tensors[2])


def n_components(spec):
    return spec.ragged_rank + 1 if isinstance(spec, RaggedTensorSpec) else 3


# --------------------------------------------------------------------------- export
class FlatTrace:
    """A trace made for a RaggedTensorSpec or SparseTensorSpec seen as TF's graph function:
    its program takes and returns the flat components (``flat_trace``). Quacks as the
    ConcreteFunction the lowering reads (``program``, ``_relaxed_sizes``, ``name``)."""

    def __init__(self, source, concrete, program, names, output_signature, flat_outputs):
        self.source = source
        self.name = source.name
        self._function = source._function
        self.structured_input_signature = source.structured_input_signature
        self.program = program
        self._relaxed_sizes = concrete._relaxed_sizes
        self.relaxed = True
        self.shape_generic = True
        self.param_names = names
        self.output_signature = output_signature
        self.flat_outputs = flat_outputs    # [(shape, dtype)] of the flat outputs

    def _user_named(self):
        return {}


def _probe_ragged(spec, seed, j):
    """A RaggedTensor of ``spec`` whose partition depends on ``seed`` (two probes differ
    in row count, row lengths and number of values) and on ``j`` (inputs differ)."""
    dims = spec._dims()
    rr = spec.ragged_rank
    rows = dims[0] if dims[0] is not None else 3 + 2 * seed + j
    levels = []
    for level in range(rr):
        uniform = dims[level + 1]
        if uniform is not None:
            lengths = [uniform] * rows
        else:
            lengths = [(i * (seed + 2) + j + 2 * seed + 1) % 4 for i in range(rows)]
            if rows and sum(lengths) <= rows + 2:
                # values far from the row count, so a size in the program tells which
                lengths[-1] += rows + 3
        levels.append((lengths, uniform))
        rows = sum(lengths)
    inner = [d if d is not None else 2 + seed for d in dims[rr + 1:]]
    np_dtype = spec.dtype._np
    if spec.dtype.name == "string":
        flat = np.full([rows] + inner, b"1", dtype=object)
    else:
        flat = np.ones([rows] + inner, np_dtype)
    result = Tensor(flat)
    splits_dtype = spec.row_splits_dtype._np
    for lengths, uniform in reversed(levels):
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype)
        result = RaggedTensor(result, Tensor(splits), internal=True)
        result._uniform = uniform
    return result


def _probe_sparse(spec, seed, j):
    """A SparseTensor of ``spec`` whose dense shape (its unknown dims) and number of
    entries depend on ``seed`` and ``j``; entries spread in row-major order."""
    if spec.shape.rank is None:
        raise _Refused("a SparseTensorSpec of unknown rank")
    dims = [d if d is not None else 6 + 2 * seed + j for d in spec.shape.as_list()]
    size = int(np.prod(dims)) if dims else 1
    n = min(size, 3 + 2 * seed)
    flat = np.unique(np.linspace(0, size - 1, n).astype(np.int64))
    indices = np.array(np.unravel_index(flat, dims), np.int64).T.reshape(len(flat), len(dims))
    if spec.dtype.name == "string":
        values = np.full([len(flat)], b"1", dtype=object)
    else:
        values = np.ones([len(flat)], spec.dtype._np)
    return SparseTensor(Tensor(indices), Tensor(values), Tensor(np.array(dims, np.int64)))


def _probe_values(source, seed):
    args, kwargs = source.structured_input_signature
    count = [0]

    def one(s):
        if isinstance(s, RaggedTensorSpec):
            count[0] += 1
            return _probe_ragged(s, seed, count[0])
        if isinstance(s, SparseTensorSpec):
            count[0] += 1
            return _probe_sparse(s, seed, count[0])
        if isinstance(s, TensorSpec):
            if s.shape.rank is None:
                raise _Refused("an argument of unknown rank beside a composite")
            dims = [d if d is not None else 3 + seed for d in s.shape.as_list()]
            if s.dtype.name == "string":
                return Tensor(np.full(dims, b"1", dtype=object))
            return Tensor(np.ones(dims, s.dtype._np))
        return s
    a = tuple(nest.map_structure(one, list(args))) if args else ()
    k = nest.map_structure(one, dict(kwargs)) if kwargs else {}
    return a, k


class _Refused(Exception):
    pass


def _is_value_composite(k):
    return (type(k) is tuple and len(k) == 3 and isinstance(k[0], type)
            and hasattr(k[0], "__tf_relax_meta__") and type(k[2]) is tuple)


def _general(spec_key, key):
    """``spec_key`` (the trace's spec-level key) with each composite's PartitionSpec
    replaced by the probe's own partition (``key``'s): the components stay relaxed."""
    from ..function.trace_type import is_spec_composite, is_tensor_key
    if is_spec_composite(spec_key):
        return (spec_key[0], key[1], spec_key[2])
    if type(spec_key) is tuple and not is_tensor_key(spec_key) and type(key) is tuple \
            and len(key) == len(spec_key):
        return tuple(_general(g, k) for g, k in zip(spec_key, key))
    return spec_key


def _walk_leaves(key, visit):
    """Call ``visit(kind, item)`` per flat input of a by-value key, in TF's flat order:
    ``("leaf", None)`` per tensor/variable leaf, ``("meta", (kind, array))`` per array a
    composite keeps as metadata: a RaggedTensor's row splits after its values
    (``"splits"``), a SparseTensor's indices before its values and dense shape after."""
    from ..function.trace_type import is_tensor_key
    if is_tensor_key(key):
        visit("leaf", None)
    elif type(key) is tuple and len(key) == 5 and key[0] == "Variable":
        visit("leaf", None)
    elif _is_value_composite(key) and issubclass(key[0], SparseTensor):
        data, shape, dense = key[1]
        visit("meta", ("indices", np.frombuffer(data, np.int64).reshape(shape)))
        for c in key[2]:
            _walk_leaves(c, visit)
        visit("meta", ("dense", np.array(dense, np.int64)))
    elif _is_value_composite(key):
        for c in key[2]:
            _walk_leaves(c, visit)
        for dtype, data, _ in key[1]:
            visit("meta", ("splits", np.frombuffer(data, dtype)))
    elif type(key) is tuple:
        for e in key:
            _walk_leaves(e, visit)


def _trace_probe(source, seed):
    from ..function.function_type import _leaf_names
    from ..function.polymorphic import Function
    from ..function.retrace_report import _Detector
    from ..function.trace_type import make_key
    old = source._function
    values, kwargs = _probe_values(source, seed)
    fresh = Function(old._python_function, None, old._autograph, old._jit_compile,
                     old._reduce_retracing, old._name)
    fresh._detector = _Detector()   # the export's probes are not the user's retraces
    key, leaves = make_key(values, kwargs)
    general = _general(source._key, key)
    try:
        # TF saves the graph it has: the probe traces print nothing (a `print` in the body)
        with contextlib.redirect_stdout(io.StringIO()):
            fresh._trace(key, general, leaves, values, kwargs, reason="tf.saved_model.save",
                         execute=False)
    except Exception as exc:  # noqa: BLE001 - reported as the refusal's reason
        raise _Refused(f"tracing it at another row partition failed ({type(exc).__name__}: "
                       f"{exc})") from None
    concrete = fresh._traces[-1]
    if concrete.partitioned:
        raise _Refused("its trace key keeps a row partition")
    if not concrete.shape_generic:
        why = getattr(concrete.program, "why_not_generic", None) or "not shape-generic"
        raise _Refused(f"its program depends on the number of values ({why})")
    names = _leaf_names(values, kwargs, fresh._param_names)
    return concrete, key, names


def _view(concrete, key, names):
    """The probe trace's program with the row splits as inputs (after each composite's
    components) and the outputs' row splits as outputs: ``(program, input names, splits
    arrays per splits input, output plan)``."""
    program = concrete.program
    view = copy.copy(program)
    inputs, arg_vars, in_names, splits = [], [], [], []
    specs = dict(program.input_specs)
    n = program.n_slots
    pos = [0]
    last_name = [None]

    def visit(kind, meta):
        if kind == "leaf":
            i = pos[0]
            pos[0] += 1
            inputs.append(program.inputs[i])
            arg_vars.append(program.arg_vars[i])
            last_name[0] = names[i] if i < len(names) else "args"
            in_names.append(last_name[0])
            return
        nonlocal n
        what, arr = meta
        relaxed = None if what == "dense" else TensorShape([None] + list(arr.shape[1:]))
        specs[n] = (arr.shape, arr.dtype, relaxed)
        inputs.append(n)
        arg_vars.append(None)
        if what == "indices":      # before the values: named as the argument
            in_names.append(names[pos[0]] if pos[0] < len(names) else "args")
        else:
            in_names.append(last_name[0])
        splits.append((n, arr, what))
        n += 1
    _walk_leaves(key, visit)
    view.inputs = inputs
    view.arg_vars = arg_vars
    view.input_specs = specs
    view.n_slots = n
    view.var_arg_index = {id(v): i for i, v in enumerate(arg_vars) if v is not None}
    return view, in_names, splits


def _outputs(concrete, splits):
    """``[(kind, data)]`` per output leaf: ``("tensor", slot, value)``, ``("none",)``,
    ``("ragged", [flat slot], [candidate splits indices per level], meta, flat value)``."""
    out_struct = concrete._out_struct
    slots = concrete.program.outputs
    plan = []
    k = 0
    for leaf in nest.flatten(out_struct) if out_struct is not None else []:
        if leaf is None:
            plan.append(("none",))
            k += 1
        elif isinstance(leaf, RaggedTensor):
            meta, comps = leaf.__tf_flatten__()
            levels = []
            for dtype, data, _ in meta:
                levels.append({i for i, (_, arr, what) in enumerate(splits)
                               if what == "splits" and arr.dtype.str == dtype
                               and arr.tobytes() == data})
            plan.append(("ragged", slots[k:k + len(comps)], levels, meta,
                         np.shape(comps[0]._value)))
            k += len(comps)
        elif isinstance(leaf, SparseTensor):
            meta, comps = leaf.__tf_flatten__()
            data, shape, dense = meta
            dense_b = np.array(dense, np.int64).tobytes()
            found = [{i for i, (_, arr, what) in enumerate(splits)
                      if what == "indices" and arr.shape == tuple(shape)
                      and arr.tobytes() == data},
                     {i for i, (_, arr, what) in enumerate(splits)
                      if what == "dense" and arr.tobytes() == dense_b}]
            plan.append(("sparse", slots[k], found, tuple(dense), leaf.dtype))
            k += len(comps)
        elif hasattr(leaf, "__tf_flatten__"):
            raise _Refused(f"it returns a {type(leaf).__name__}")
        else:
            plan.append(("tensor", slots[k], np.shape(leaf._value), leaf.dtype))
            k += 1
    return plan


def _merge(a, b):
    return tuple(x if x == y else None for x, y in zip(a, b)) if len(a) == len(b) else None


def flat_trace(source, lower):
    """The export of ``source`` (a ConcreteFunction traced for a RaggedTensorSpec) as TF's
    graph function: a :class:`FlatTrace`. ``lower(view, names)`` lowers a view to its
    FunctionDef bytes (for the comparison of the two probes).

    Raises:
        ValueError: the program depends on the row partition, or an output's partition is
            not one of the inputs'.
    """
    try:
        return _flat_trace(source, lower)
    except _Refused as why:
        args, kwargs = source.structured_input_signature
        sig = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        raise ValueError(
            f"Cannot save the function `{source.name}` traced for {sig}: {why.args[0]}. "
            f"tapeflow's trace computes with a RaggedTensor's row partition (a "
            f"SparseTensor's indices) in NumPy; it exports such a function only when its "
            f"steps are the same at every partition (element-wise work on the values) and "
            f"each composite output's partition is an input's.") from None


def _flat_trace(source, lower):
    probes = []
    for seed in (0, 1):
        concrete, key, names = _trace_probe(source, seed)
        view, in_names, splits = _view(concrete, key, names)
        probes.append((concrete, view, in_names, splits, _outputs(concrete, splits)))
    (ca, va, names, sa, pa), (cb, vb, _, sb, pb_) = probes
    # outputs: each ragged output's partition must be the same input's at both probes
    outs_a, outs_b, flat_specs, out_leaves = [], [], [], []
    if len(pa) != len(pb_) or [m[2] for m in sa] != [m[2] for m in sb]:
        raise _Refused("its output structure differs at another row partition")
    for oa, ob in zip(pa, pb_):
        if oa[0] != ob[0]:
            raise _Refused("its outputs differ in kind at another row partition")
        if oa[0] == "none":
            outs_a.append(None)
            outs_b.append(None)
            out_leaves.append(None)
        elif oa[0] == "tensor":
            shape = _merge(oa[2], ob[2])
            if shape is None:
                raise _Refused("an output's rank depends on the row partition")
            outs_a.append(oa[1])
            outs_b.append(ob[1])
            flat_specs.append((shape, oa[3]))
            out_leaves.append(TensorSpec(shape, oa[3]))
        elif oa[0] == "sparse":
            _, values_a, found_a, dense_a, dtype = oa
            _, values_b, found_b, dense_b, _ = ob
            chosen = []
            for part, fa, fb in zip(("indices", "dense shape"), found_a, found_b):
                both = sorted(fa & fb)
                if not both:
                    raise _Refused(f"the {part} of its SparseTensor output are not one of its "
                                   f"inputs' (computed in Python)")
                chosen.append(both[0])
            outs_a.extend([sa[chosen[0]][0], values_a, sa[chosen[1]][0]])
            outs_b.extend([sb[chosen[0]][0], values_b, sb[chosen[1]][0]])
            dims = _merge(dense_a, dense_b)
            rank = len(dense_a)
            spec = SparseTensorSpec(list(dims), dtype)
            out_leaves.append(spec)
            flat_specs.extend([((None, rank), _dt.int64), ((None,), dtype),
                               ((rank,), _dt.int64)])
        else:
            _, flat_a, levels_a, meta_a, shape_a = oa
            _, flat_b, levels_b, meta_b, shape_b = ob
            if len(levels_a) != len(levels_b):
                raise _Refused("its RaggedTensor output's ragged rank depends on the row "
                               "partition")
            chosen = []
            for level, (la, lb) in enumerate(zip(levels_a, levels_b)):
                both = sorted(la & lb)
                if not both:
                    raise _Refused(f"the row partition of its RaggedTensor output (level "
                                   f"{level}) is not one of its inputs' (computed in Python)")
                chosen.append(both[0])
            outs_a.extend(list(flat_a) + [sa[i][0] for i in chosen])
            outs_b.extend(list(flat_b) + [sb[i][0] for i in chosen])
            inner = _merge(shape_a, shape_b)
            if inner is None:
                raise _Refused("an output's rank depends on the row partition")
            dtype = _dt.as_dtype(np.result_type(_flat_dtype(ca, flat_a[0])))
            splits_dtype = _dt.as_dtype(np.dtype(meta_a[0][0]))
            uniform = [ua if ua == ub else None
                       for (_, _, ua), (_, _, ub) in zip(meta_a, meta_b)]
            nrows = _input_rows(source, chosen[0], sa)
            spec = RaggedTensorSpec([nrows] + uniform + list(inner[1:]), dtype, len(meta_a),
                                    splits_dtype)
            out_leaves.append(spec)
            flat_specs.append(((None,) + tuple(inner[1:]), dtype))
            flat_specs.extend(((None,), splits_dtype) for _ in chosen)
    va.outputs, vb.outputs = outs_a, outs_b
    flat_a = FlatTrace(source, ca, va, names, None, flat_specs)
    if lower(flat_a, names) != lower(FlatTrace(source, cb, vb, names, None, flat_specs), names):
        raise _Refused("its steps differ at another row partition (a value computed in Python "
                       "from the row splits)")
    out_struct = ca._out_struct
    it = iter(out_leaves)
    output_signature = nest.pack_sequence_as(
        out_struct, [next(it) for _ in nest.flatten(out_struct)]) \
        if nest.is_nested(out_struct) else (next(it) if out_struct is not None else None)
    flat_a.output_signature = output_signature
    return flat_a


def _flat_dtype(concrete, slot):
    meta = concrete.program.meta.get(slot) or concrete.program.input_specs.get(slot)
    if meta is not None:
        return meta[1]
    return np.float32


def _input_rows(source, index, metas):
    """The known row count of a ragged output whose outer partition is metadata input
    ``index``: its RaggedTensorSpec's when that is an input's outermost row splits."""
    args, kwargs = source.structured_input_signature
    specs = [s for s in nest.flatten((list(args), dict(kwargs))) if is_composite_spec(s)]
    k = 0
    for s in specs:
        if isinstance(s, RaggedTensorSpec):
            if k == index:
                return s.shape.as_list()[0] if s.shape.rank is not None else None
            k += s.ragged_rank
        else:
            k += 2
    return None
