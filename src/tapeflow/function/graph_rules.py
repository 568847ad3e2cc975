"""The lowering's rules per TF op type: the node name TF's Python API gives it, the
tapeflow attributes TF carries in its types, and one small rule per primitive that takes
TF attributes as tensors (a reduction's axes, a reshape's shape, a transpose's perm,
strided-slice bounds, a convolution's padding). A rule is ``rule(fn, step, op) -> (op type,
inputs, attrs)``; ``fn`` is the function being lowered (``graph_def._Fn``). A primitive
without a rule passes its attributes through ``generic``, refused when TF's op has no such
attribute.

TF's counterpart: the Python wrappers of ``tensorflow/python/ops`` (``math_ops.reduce_sum``
making its ``reduction_indices`` Const, ``nn_ops.conv2d``'s padding, ...).
"""
from .._core.backend import np
from .graph_records import DT, LoweringError, attr, attr_list, op_args

__all__ = ["GENERATOR_DRAWS", "GENERATOR_SCOPES", "NODE_NAMES", "RULES", "as_int32",
           "every_axis", "generic", "rank_dependent", "reduction"]

# The node names TF's Python API gives these op types (others: the type itself).
NODE_NAMES = {"AddV2": "add", "Add": "add", "Sub": "sub", "Mul": "mul", "RealDiv": "truediv",
               "Pow": "pow", "FloorDiv": "floordiv", "FloorMod": "mod",
               "Transpose": "transpose", "ConcatV2": "concat", "Pack": "stack",
               "StridedSlice": "strided_slice", "Range": "range", "ZerosLike": "zeros_like",
               "OnesLike": "ones_like", "Unpack": "unstack", "Einsum": "einsum/Einsum",
               "BroadcastTo": "BroadcastTo", "PadV2": "PadV2", "Tile": "Tile",
               "OneHot": "one_hot", "Cumsum": "Cumsum", "GatherV2": "GatherV2"}

# tapeflow attributes that TF carries in the op's types (or that do not change what the op
# computes): dropped by the lowering.
_TYPE_ATTRS = {"Cast": {"dtype", "src"}, "Shape": {"dtype"}, "Size": {"dtype"},
               "ZerosLike": {"dtype"}, "OnesLike": {"dtype"}, "Range": {"dtype"},
               "ArgMax": {"dtype"}, "ArgMin": {"dtype"}, "GatherV2": {"sparse"},
               "Bitcast": {"type"}, "MatrixSolve": {"replay"},
               **{op: {"kind", "dtype"} for op in (
                   "StatelessRandomNormalV2", "StatelessRandomUniformV2",
                   "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2",
                   "StatelessRandomUniformFullIntV2")}}


# --------------------------------------------------------------------------- rules
def as_int32(v):
    return np.asarray(v, np.int32)


def reduction(fn, step, op):
    axis = (step.attrs or {}).get("axis")
    attrs = {"keep_dims": attr(b=True)} if (step.attrs or {}).get("keepdims") else {}
    if step.ins[0] in fn.info.unknown_rank:
        # every axis of a value of unknown rank (traced at rank 0: every axis is ()):
        # TF's range(rank(x))
        x = fn._value_ref(step.ins[0], None, None)
        rank = fn.unique("Rank")
        fn.node("Rank", rank, [x], {"T": attr(type=fn.dtype(step.ins[0]))})
        start = fn.const(np.int32(0), fn.unique("range/start"))
        delta = fn.const(np.int32(1), fn.unique("range/delta"))
        rng = fn.unique("range")
        fn.node("Range", rng, [start, (rank, 0), delta], {"Tidx": attr(type=DT["int32"])})
        return op, [step.ins[0], ("ref", (rng, 0), DT["int32"])], attrs
    rank = len(fn.shape(step.ins[0]) or ())
    if axis is None:
        axis = tuple(range(rank))
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    # TF's reduce_* compute "all axes" in Python (a Const made before the op's scope)
    whole = sorted(a % max(rank, 1) for a in axis) == list(range(rank)) and rank > 0
    indices = ("global", as_int32(axis), "reduction_indices") if whole else \
        ("const", as_int32(axis), "reduction_indices")
    return op, [step.ins[0], indices], attrs


def every_axis(attrs):
    """A reduction's axis is "every axis" of a value traced at rank 0 (None or empty)."""
    axis = (attrs or {}).get("axis")
    return axis is None or isinstance(axis, (tuple, list)) and len(axis) == 0


def rank_dependent(rule, attrs):
    """Whether an op's lowering may hold something of its trace's rank (an axis, a perm, a
    shape): refused on a value of unknown rank."""
    attrs = attrs or {}
    if rule is reduction:
        return not every_axis(attrs)
    if rule is not None and rule is not _add:
        return True
    return any(isinstance(v, (tuple, list)) or k in _AXIS_ATTRS for k, v in attrs.items())


_AXIS_ATTRS = {"axis", "axes", "perm", "shape", "multiples", "paddings", "begin", "end",
               "strides", "size", "dims", "batch_dims"}


def _tensor_attr(name, arg, dtype=np.int32):
    def rule(fn, step, op):
        value = (step.attrs or {}).get(name)
        ins = list(step.ins)
        if value is not None:
            ins.append(("const", np.asarray(value, dtype), arg))
        return op, ins, _rest(op, step.attrs, (name,))
    return rule


def _rest(op, attrs, consumed):
    """The attributes a rule did not consume, as TF attrs (refused when TF has no such
    attr: never drop what changes the result)."""
    entry = op_args(op)
    ignored = _TYPE_ATTRS.get(op, ())
    out = {}
    for k, v in (attrs or {}).items():
        if k in consumed or k in ignored:
            continue
        if entry is not None and k in entry[2]:
            out[k] = _py_attr(v)
        else:
            raise LoweringError(f"attribute {k}={v!r} of {op}")
    return out


def _concat(fn, step, op):
    return op, list(step.ins) + [("const", as_int32((step.attrs or {})["axis"]), "axis")], {}


def _pack(fn, step, op):
    return op, list(step.ins), {"axis": attr(i=int((step.attrs or {}).get("axis", 0)))}


def _expand_dims(fn, step, op):
    axis = (step.attrs or {})["axis"]
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if len(axis) != 1:
        raise LoweringError("ExpandDims over several axes")
    return op, [step.ins[0], ("const", as_int32(axis[0]), "dim")], {}


def _squeeze(fn, step, op):
    axis = (step.attrs or {}).get("axis")
    axis = () if axis is None else tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    return op, list(step.ins), {"squeeze_dims": attr(list=attr_list(i=list(axis)))} \
        if axis else {}


def _softmax(fn, step, op):
    rank = len(fn.shape(step.ins[0]) or ())
    axis = (step.attrs or {}).get("axis", -1)
    if axis not in (-1, rank - 1):
        raise LoweringError(f"{op} over axis {axis} of a rank-{rank} tensor")
    return op, list(step.ins), {}


def _add(fn, step, op):
    return ("Add" if fn.dtype(step.ins[0]) == DT["string"] else op), list(step.ins), {}


def _matmul(fn, step, op):
    a = step.attrs or {}
    if op == "BatchMatMulV2":
        names = ("adj_x", "adj_y")
    else:
        names = ("transpose_a", "transpose_b")
    attrs = {}
    for mine, theirs in zip(("transpose_a", "transpose_b"), names):
        if a.get(mine):
            attrs[theirs] = attr(b=True)
    return op, list(step.ins), attrs


def _range(fn, step, op):
    dtype = fn.dtype_np(step.outs[0])
    ins = [("cast", s, dtype) for s in step.ins]
    return op, ins, {}


def _gather(fn, step, op):
    a = step.attrs or {}
    attrs = {"batch_dims": attr(i=int(a["batch_dims"]))} if a.get("batch_dims") else {}
    return op, list(step.ins) + [("const", as_int32(a.get("axis", 0)), "axis")], attrs


def _strided_slice(fn, step, op):
    key = (step.attrs or {})["key"]
    key = key if isinstance(key, tuple) else (key,)
    begin, end, strides = [], [], []
    masks = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
             "shrink_axis_mask": 0}
    for j, k in enumerate(key):
        bit = 1 << j
        if k is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif k is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(k, slice):
            if k.start is None:
                masks["begin_mask"] |= bit
            if k.stop is None:
                masks["end_mask"] |= bit
            begin.append(0 if k.start is None else int(k.start))
            end.append(0 if k.stop is None else int(k.stop))
            strides.append(1 if k.step is None else int(k.step))
        elif isinstance(k, (int, np.integer)):
            masks["shrink_axis_mask"] |= bit
            begin.append(int(k)), end.append(int(k) + 1), strides.append(1)
        else:
            raise LoweringError(f"StridedSlice with key {k!r}")
    if len(step.ins) != 1:
        raise LoweringError("StridedSlice with tensor bounds")
    attrs = {m: attr(i=v) for m, v in masks.items() if v}
    return op, [step.ins[0], ("const", as_int32(begin), "stack"),
                ("const", as_int32(end), "stack_1"), ("const", as_int32(strides), "stack_2")], attrs


def _pad(fn, step, op):
    a = step.attrs or {}
    ins = [step.ins[0], ("const", as_int32(a["paddings"]), "paddings")]
    if len(step.ins) > 1:
        raise LoweringError("PadV2 with tensor paddings")
    ins.append(("const", np.asarray(a.get("value", 0), fn.dtype_np(step.ins[0])),
                "constant_values"))
    return op, ins, {}


def _nhwc(pair):
    return attr(list=attr_list(i=[1, int(pair[0]), int(pair[1]), 1]))


def _padding(pads, explicit_ok):
    """TF's ``padding`` attrs for a ``pads`` attribute: SAME (re-resolved per size, as TF's),
    VALID (none), else EXPLICIT with ``explicit_paddings`` (Conv2D only)."""
    from ..ops.nn_conv_ops import _SamePads
    if isinstance(pads, _SamePads):
        return {"padding": attr(s=b"SAME")}
    flat = [int(p) for pair in pads for p in pair]
    if not any(flat):
        return {"padding": attr(s=b"VALID")}
    if not explicit_ok:
        raise LoweringError(f"explicit paddings {pads}")
    return {"padding": attr(s=b"EXPLICIT"),
            "explicit_paddings": attr(list=attr_list(i=[0, 0] + flat + [0, 0]))}


def _conv2d(fn, step, op):
    a = step.attrs or {}
    attrs = {"strides": _nhwc(a["strides"]), "dilations": _nhwc(a.get("dilations", (1, 1)))}
    attrs.update(_padding(a["pads"], explicit_ok=True))
    return op, list(step.ins), dict(attrs, **_rest(op, a, ("strides", "dilations", "pads")))


def _pool(fn, step, op):
    a = step.attrs or {}
    attrs = {"ksize": _nhwc(a["ksize"]), "strides": _nhwc(a["strides"])}
    attrs.update(_padding(a["pads"], explicit_ok=False))
    return op, list(step.ins), dict(attrs, **_rest(op, a, ("ksize", "strides", "pads")))


def _plain_attrs(*names):
    def rule(fn, step, op):
        a = step.attrs or {}
        out = {}
        for n in names:
            if n in a:
                out[n] = _py_attr(a[n])
        return op, list(step.ins), out
    return rule


def _py_attr(v):
    if isinstance(v, (bool, np.bool_)):
        return attr(b=bool(v))
    if isinstance(v, (int, np.integer)):
        return attr(i=int(v))
    if isinstance(v, (float, np.floating)):
        return attr(f=float(v))
    if isinstance(v, str):
        return attr(s=v.encode())
    if isinstance(v, (tuple, list)) and all(isinstance(e, (int, np.integer)) for e in v):
        return attr(list=attr_list(i=[int(e) for e in v]))
    raise LoweringError(f"attribute value {v!r}")


RULES = {
    "Sum": reduction, "Mean": reduction, "Max": reduction, "Min": reduction,
    "Prod": reduction, "All": reduction, "Any": reduction,
    # a sum in TF's Eigen order (reduction_ops.reduce_sum_in_tf_order) is TF's Sum
    "OrderedSum": lambda fn, step, op: reduction(fn, step, "Sum"),
    "Reshape": _tensor_attr("shape", "shape"), "Transpose": _tensor_attr("perm", "perm"),
    "Tile": _tensor_attr("multiples", "multiples"),
    "ConcatV2": _concat, "Pack": _pack, "ExpandDims": _expand_dims, "Squeeze": _squeeze,
    "Softmax": _softmax, "LogSoftmax": _softmax, "AddV2": _add, "MatMul": _matmul,
    "BatchMatMulV2": _matmul, "Range": _range, "GatherV2": _gather,
    # tapeflow's replays of TF's kernels (their bits at inf/nan and in the last place) are
    # the TF op they replay
    "MatMulEigen": lambda fn, step, op: _matmul(
        fn, step, "MatMul" if len(fn.shape(step.ins[0]) or ()) == 2 else "BatchMatMulV2"),
    "MulComplex": lambda fn, step, op: generic(fn, step, "Mul"),
    "RealDivComplex": lambda fn, step, op: generic(fn, step, "RealDiv"),
    "StridedSlice": _strided_slice, "PadV2": _pad, "Conv2D": _conv2d, "MaxPool": _pool,
    "DepthwiseConv2dNative": _conv2d,
    "AvgPool": _pool,
    "Cumsum": _tensor_attr("axis", "axis"),
    "ArgMax": _tensor_attr("axis", "dimension"), "ArgMin": _tensor_attr("axis", "dimension"),
}


# tf.random.Generator's draw primitives -> the stateless op per kind of draw, and the name
# scope TF's Generator method gives its nodes
_STATELESS_V2 = {"normal": "StatelessRandomNormalV2", "uniform": "StatelessRandomUniformV2",
                 "truncated": "StatelessTruncatedNormalV2",
                 "int": "StatelessRandomUniformIntV2", "full": "StatelessRandomUniformFullIntV2"}
GENERATOR_DRAWS = {"StatefulRandomV2": _STATELESS_V2,
                    "StatefulRandomV2Replicas": _STATELESS_V2}
GENERATOR_SCOPES = {"normal": "stateful_normal", "uniform": "stateful_uniform",
                     "truncated": "stateful_truncated_normal", "int": "stateful_uniform",
                     "full": "stateful_uniform_full_int"}


def generic(fn, step, op):
    return op, list(step.ins), _rest(op, step.attrs, ())
