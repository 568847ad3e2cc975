"""TF op types -> tapeflow ops: the table the SavedModel importer runs a FunctionDef with.

A kernel is ``kernel(ins, attrs, ctx) -> list of outputs`` (or one output): ``ins`` the node's
data inputs (Tensors; a Variable for a resource; a ``TensorArray`` for a TensorList), ``attrs``
its attrs with TF's defaults filled in (``function/tf_op_defs.py``), ``ctx`` the importer (for
function calls and names). Every kernel calls tapeflow's public ops, so tapes and traces see
the same primitives as in user code: gradients come from their rules, and a loaded function
runs compiled like any traced one. Control flow (If/While/Case and calls) is in
``imports.py``; this module holds the data ops.
"""
import numpy as np

from .._core import dtypes as _dt
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import _TensorLike, constant, convert_to_tensor, static_value, traced_shape
from .._core.variable import Variable
from ..ops import (
    array_ops,
    clip_ops,
    creation_ops,
    indexing_ops,
    linalg_ops,
    manip_ops,
    math_ops,
    nn_conv_ops,
    nn_ops,
    reduction_ops,
    special_math_ops,
)
from ..ops.control_flow_ops import TensorArray

__all__ = ["KERNELS", "dtype_of", "as_numpy"]

# TF's DataType numbers -> tapeflow dtypes (types.proto)
_DTYPE_NAMES = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
                7: "string", 8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16",
                17: "uint16", 18: "complex128", 19: "float16", 22: "uint32", 23: "uint64"}


def dtype_of(number):
    """The tapeflow dtype of TF DataType ``number`` (TypeError for resource/variant/...)."""
    name = _DTYPE_NAMES.get(int(number))
    if name is None:
        raise TypeError(f"tapeflow has no tensors of TF DataType {number}")
    return _dt.as_dtype(name)


def as_numpy(ctx, t):
    """The value of a small tensor input used as an attribute (an axis, a perm): a Const
    node's value as the importer recorded it, else a read that guards the trace."""
    known = ctx.static.get(id(t))
    if known is not None and known[0] is t:
        return known[1]
    return np.asarray(static_value(t) if isinstance(t, _TensorLike) else t)


def _ints(ctx, t):
    return [int(v) for v in as_numpy(ctx, t).reshape(-1)]


def _axis(ctx, t):
    a = as_numpy(ctx, t)
    return int(a) if a.ndim == 0 else [int(v) for v in a]


def _s(v):
    return v.decode() if isinstance(v, bytes) else v


# ---------------------------------------------------------------------------- element-wise

_UNARY = {
    "Abs": math_ops.abs, "Neg": math_ops.negative, "Exp": math_ops.exp, "Log": math_ops.log,
    "Log1p": math_ops.log1p, "Expm1": math_ops.expm1, "Sqrt": math_ops.sqrt,
    "Rsqrt": math_ops.rsqrt, "Square": math_ops.square, "Sigmoid": math_ops.sigmoid,
    "Tanh": math_ops.tanh, "Relu": nn_ops.relu, "Relu6": nn_ops.relu6, "Elu": nn_ops.elu,
    "Selu": nn_ops.selu, "Softplus": math_ops.softplus, "Softsign": math_ops.softsign,
    "Sin": math_ops.sin, "Cos": math_ops.cos, "Tan": math_ops.tan, "Atan": math_ops.atan,
    "Erf": special_math_ops.erf, "Erfc": special_math_ops.erfc, "Floor": math_ops.floor,
    "Ceil": math_ops.ceil, "Round": math_ops.round, "Sign": math_ops.sign,
    "Reciprocal": math_ops.reciprocal, "LogicalNot": math_ops.logical_not,
    "Identity": lambda x: x if isinstance(x, (TensorArray, Variable)) else array_ops.identity(x),
    "Snapshot": array_ops.identity,
    "StopGradient": array_ops.stop_gradient, "ZerosLike": array_ops.zeros_like,
    "OnesLike": array_ops.ones_like, "Softmax": nn_ops.softmax,
    "LogSoftmax": nn_ops.log_softmax,
}
_BINARY = {
    "AddV2": math_ops.add, "Add": math_ops.add, "Sub": math_ops.subtract,
    "Mul": math_ops.multiply, "RealDiv": math_ops.truediv, "Div": math_ops.truediv,
    "FloorDiv": math_ops.floordiv, "FloorMod": math_ops.floormod, "Pow": math_ops.pow,
    "Maximum": math_ops.maximum, "Minimum": math_ops.minimum,
    "SquaredDifference": math_ops.squared_difference, "DivNoNan": math_ops.divide_no_nan,
    "Less": math_ops.less, "LessEqual": math_ops.less_equal, "Greater": math_ops.greater,
    "GreaterEqual": math_ops.greater_equal, "LogicalAnd": math_ops.logical_and,
    "LogicalOr": math_ops.logical_or, "Atan2": math_ops.atan2,
}


def _unary(fn):
    return lambda ins, attrs, ctx: fn(ins[0])


def _binary(fn):
    return lambda ins, attrs, ctx: fn(ins[0], ins[1])


def _equal(ins, attrs, ctx):
    return math_ops.equal(ins[0], ins[1])


def _not_equal(ins, attrs, ctx):
    return math_ops.not_equal(ins[0], ins[1])


def _leaky_relu(ins, attrs, ctx):
    return nn_ops.leaky_relu(ins[0], alpha=attrs["alpha"])


def _cast(ins, attrs, ctx):
    return array_ops.cast(ins[0], dtype_of(attrs["DstT"]))


def _add_n(ins, attrs, ctx):
    return math_ops.add_n(list(ins))


def _clip_by_value(ins, attrs, ctx):
    return clip_ops.clip_by_value(ins[0], ins[1], ins[2])


def _select_v2(ins, attrs, ctx):
    return array_ops.where(ins[0], ins[1], ins[2])


def _select(ins, attrs, ctx):
    # TF 1's Select: a vector condition picks whole rows of higher-rank operands
    c, t, e = ins
    rc, rt = traced_shape(c).rank, traced_shape(t).rank
    if rc == 1 and rt and rt > 1:
        c = array_ops.reshape(c, [-1] + [1] * (rt - 1))
    return array_ops.where(c, t, e)


# ------------------------------------------------------------------------------ linear algebra

def _matmul(ins, attrs, ctx):
    return math_ops.matmul(ins[0], ins[1], transpose_a=attrs["transpose_a"],
                           transpose_b=attrs["transpose_b"])


def _batch_matmul(ins, attrs, ctx):
    return math_ops.matmul(ins[0], ins[1], adjoint_a=attrs["adj_x"], adjoint_b=attrs["adj_y"])


def _matrix_solve(ins, attrs, ctx):
    return linalg_ops.solve(ins[0], ins[1], adjoint=attrs.get("adjoint", False))


def _einsum(ins, attrs, ctx):
    return special_math_ops.einsum(_s(attrs["equation"]), *ins)


def _bias_add(ins, attrs, ctx):
    return nn_ops.bias_add(ins[0], ins[1], data_format=_s(attrs["data_format"]))


# ------------------------------------------------------------------------------------- nn

def _padding(attrs):
    padding = _s(attrs["padding"])
    if padding == "EXPLICIT":
        p = attrs["explicit_paddings"]
        return [[p[i], p[i + 1]] for i in range(0, len(p), 2)]
    return padding


def _conv2d(ins, attrs, ctx):
    return nn_conv_ops.conv2d(ins[0], ins[1], strides=attrs["strides"], padding=_padding(attrs),
                              data_format=_s(attrs["data_format"]),
                              dilations=attrs["dilations"])


def _depthwise(ins, attrs, ctx):
    fmt = _s(attrs["data_format"])
    d = attrs["dilations"]
    rate = d[1:3] if fmt == "NHWC" else d[2:4]
    return nn_conv_ops.depthwise_conv2d(ins[0], ins[1], strides=attrs["strides"],
                                        padding=_padding(attrs), data_format=fmt,
                                        dilations=rate)


def _pool(fn):
    def kernel(ins, attrs, ctx):
        return fn(ins[0], ksize=attrs["ksize"], strides=attrs["strides"],
                  padding=_s(attrs["padding"]), data_format=_s(attrs["data_format"]))
    return kernel


def _fused_batch_norm(ins, attrs, ctx):
    x, scale, offset, mean, var = ins
    if attrs["is_training"]:
        raise NotImplementedError("FusedBatchNormV3 with is_training=True")
    fmt = _s(attrs["data_format"])
    if fmt not in ("NHWC", "NDHWC"):
        shape = [1, -1] + [1] * (x.shape.rank - 2)
        scale, offset, mean, var = (array_ops.reshape(t, shape) for t in (scale, offset,
                                                                          mean, var))
    y = nn_ops.batch_normalization(x, mean, var, offset, scale, attrs["epsilon"])
    return [y, mean, var, mean, var, mean]


# ---------------------------------------------------------------------------------- arrays

def _const(ins, attrs, ctx):
    return constant(attrs["value"])


def _reshape(ins, attrs, ctx):
    return array_ops.reshape(ins[0], ins[1])


def _shape(ins, attrs, ctx):
    return array_ops.shape(ins[0], out_type=dtype_of(attrs["out_type"]))


def _size(ins, attrs, ctx):
    return array_ops.size(ins[0], out_type=dtype_of(attrs["out_type"]))


def _rank(ins, attrs, ctx):
    # the rank is known while tracing: a constant the reductions below can read as an axis
    # list without a guard (TF folds it the same way)
    rank = getattr(traced_shape(ins[0]), "rank", None) if hasattr(ins[0], "shape") else None
    if rank is None:
        return array_ops.rank(ins[0])
    return _static(ctx, np.int32(rank))


def _static(ctx, value):
    out = constant(value)
    ctx.static[id(out)] = (out, np.asarray(value))
    return out


def _squeeze(ins, attrs, ctx):
    dims = attrs["squeeze_dims"]
    return array_ops.squeeze(ins[0], axis=dims if dims else None)


def _expand_dims(ins, attrs, ctx):
    return array_ops.expand_dims(ins[0], _axis(ctx, ins[1]))


def _transpose(ins, attrs, ctx):
    return array_ops.transpose(ins[0], _ints(ctx, ins[1]))


def _concat(ins, attrs, ctx):
    return array_ops.concat(list(ins[:-1]), _axis(ctx, ins[-1]))


def _pack(ins, attrs, ctx):
    return array_ops.stack(list(ins), axis=attrs["axis"])


def _unpack(ins, attrs, ctx):
    return list(array_ops.unstack(ins[0], num=attrs["num"], axis=attrs["axis"]))


def _split(ins, attrs, ctx):
    return list(array_ops.split(ins[1], attrs["num_split"], axis=_axis(ctx, ins[0])))


def _split_v(ins, attrs, ctx):
    return list(array_ops.split(ins[0], _ints(ctx, ins[1]), axis=_axis(ctx, ins[2])))


def _fill(ins, attrs, ctx):
    return creation_ops.fill(ins[0], ins[1])


def _range(ins, attrs, ctx):
    known = [ctx.static.get(id(t)) for t in ins[:3]]
    if all(k is not None and k[0] is t for k, t in zip(known, ins)):
        dtype = dtype_of(attrs["Tidx"])
        return _static(ctx, np.arange(*[k[1] for k in known]).astype(
            getattr(dtype, "_np", dtype)))
    return creation_ops.range(ins[0], ins[1], ins[2], dtype=dtype_of(attrs["Tidx"]))


def _gather(ins, attrs, ctx):
    return indexing_ops.gather(ins[0], ins[1], axis=_axis(ctx, ins[2]),
                               batch_dims=attrs["batch_dims"])


def _resource_gather(ins, attrs, ctx):
    return indexing_ops.gather(ins[0], ins[1], batch_dims=attrs["batch_dims"])


def _gather_nd(ins, attrs, ctx):
    return indexing_ops.gather_nd(ins[0], ins[1])


def _strided_slice(ins, attrs, ctx):
    return indexing_ops.strided_slice(
        ins[0], _ints(ctx, ins[1]), _ints(ctx, ins[2]), _ints(ctx, ins[3]),
        begin_mask=attrs["begin_mask"],
        end_mask=attrs["end_mask"], ellipsis_mask=attrs["ellipsis_mask"],
        new_axis_mask=attrs["new_axis_mask"], shrink_axis_mask=attrs["shrink_axis_mask"])


def _slice(ins, attrs, ctx):
    return array_ops.slice(ins[0], ins[1], ins[2])


def _tile(ins, attrs, ctx):
    return manip_ops.tile(ins[0], ins[1])


def _pad(ins, attrs, ctx):
    value = ins[2] if len(ins) > 2 else 0
    return manip_ops.pad(ins[0], as_numpy(ctx, ins[1]).tolist(), constant_values=value)


def _space_to_batch(ins, attrs, ctx):
    return manip_ops.space_to_batch_nd(ins[0], as_numpy(ctx, ins[1]), as_numpy(ctx, ins[2]))


def _batch_to_space(ins, attrs, ctx):
    return manip_ops.batch_to_space_nd(ins[0], as_numpy(ctx, ins[1]), as_numpy(ctx, ins[2]))


def _broadcast_to(ins, attrs, ctx):
    return array_ops.broadcast_to(ins[0], ins[1])


def _one_hot(ins, attrs, ctx):
    return creation_ops.one_hot(ins[0], ins[1], on_value=ins[2], off_value=ins[3],
                                axis=attrs["axis"])


def _reduce(fn):
    def kernel(ins, attrs, ctx):
        return fn(ins[0], axis=_axis(ctx, ins[1]), keepdims=attrs["keep_dims"])
    return kernel


def _arg(fn):
    def kernel(ins, attrs, ctx):
        return fn(ins[0], axis=_axis(ctx, ins[1]), output_type=dtype_of(attrs["output_type"]))
    return kernel


def _cumsum(ins, attrs, ctx):
    return reduction_ops.cumsum(ins[0], axis=_axis(ctx, ins[1]), exclusive=attrs["exclusive"],
                                reverse=attrs["reverse"])


def _ensure_shape(ins, attrs, ctx):
    return ins[0]


def _identity_n(ins, attrs, ctx):
    grad_type = attrs.get("_gradient_op_type")
    if grad_type is None:
        return [array_ops.identity(x) for x in ins]
    return ctx.custom_gradient_identity(_s(grad_type), list(ins))


# ------------------------------------------------------------------------------ variables

def _read_variable(ins, attrs, ctx):
    return ins[0].read_value() if hasattr(ins[0], "read_value") else ins[0]


def _assign(how):
    def kernel(ins, attrs, ctx):
        getattr(ins[0], how)(ins[1])
        return []
    return kernel


def _no_op(ins, attrs, ctx):
    return []


# ------------------------------------------------------------------- tf.random.Generator

# The random, segment and sparse modules load when a graph uses them (a model's load stays
# as quick as its kernels).

def _skip_forward(state, delta):
    from ..ops import stateful_random_ops
    return stateful_random_ops._advance(state, int(delta))


# the state after a draw of `delta` numbers (the counter 256 * delta ahead, as TF's Philox)
_RNG_SKIP = nondifferentiable("RngSkip", _skip_forward)


def _rng_read_and_skip(ins, attrs, ctx):
    """``RngReadAndSkip(resource, alg, delta)``: the generator state, then moved past a draw
    of ``delta`` numbers (Philox only, as tapeflow's Generator)."""
    alg = int(as_numpy(ctx, ins[1]))
    if alg != 1:
        raise NotImplementedError(f"RngReadAndSkip with algorithm {alg}: tapeflow implements "
                                  f"Philox (1) only")
    var = ins[0]
    state = var.read_value()
    var.assign(apply(_RNG_SKIP, (state, convert_to_tensor(ins[2]))))
    return state


def _words(key, counter):
    k = int(np.asarray(key).reshape(-1)[0])
    c = [int(v) for v in np.asarray(counter).reshape(-1)[:2]]
    return ([k & 0xFFFFFFFF, k >> 32],
            [c[0] & 0xFFFFFFFF, c[0] >> 32, c[1] & 0xFFFFFFFF, c[1] >> 32])


def _stateless_v2_forward(shape, key, counter, alg, minval=None, maxval=None, kind=None,
                          dtype=None):
    if int(alg) != 1:
        raise NotImplementedError(f"stateless random op with algorithm {int(alg)}: tapeflow "
                                  f"implements Philox (1) only")
    from ..ops import stateless_random_ops
    shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    n = int(np.prod(shape)) if shape else 1
    k, c = _words(key, counter)
    if kind == "int":
        out = stateless_random_ops.uniform_ints(k, c, n, int(minval), int(maxval), dtype)
    elif kind == "full":
        out = stateless_random_ops.full_ints(k, c, n, dtype)
    else:
        out = stateless_random_ops.bits(kind, k, c, n, dtype)
    return out.reshape(shape)


_STATELESS_V2 = {op: (kind, nondifferentiable(op, _stateless_v2_forward)) for op, kind in (
    ("StatelessRandomNormalV2", "normal"), ("StatelessRandomUniformV2", "uniform"),
    ("StatelessTruncatedNormalV2", "truncated"), ("StatelessRandomUniformIntV2", "int"),
    ("StatelessRandomUniformFullIntV2", "full"))}


def _stateless_v2(op):
    kind, prim = _STATELESS_V2[op]

    def kernel(ins, attrs, ctx):
        dtype = dtype_of(attrs["dtype"])._np
        return apply(prim, tuple(convert_to_tensor(x) for x in ins),
                     {"kind": kind, "dtype": np.dtype(dtype)})
    return kernel


def _bitcast_forward(x, type=None):
    x = np.ascontiguousarray(x)
    d = np.dtype(type)
    if x.dtype.itemsize == d.itemsize:
        return x.view(d)
    if x.dtype.itemsize > d.itemsize:
        return x.view(d).reshape(x.shape + (x.dtype.itemsize // d.itemsize,))
    if not x.shape or x.shape[-1] * x.dtype.itemsize != d.itemsize:
        raise ValueError(f"Bitcast of {x.dtype.name} {list(x.shape)} to {d.name}: the last "
                         f"dimension must hold {d.itemsize // x.dtype.itemsize} elements")
    return x.view(d).reshape(x.shape[:-1])


_BITCAST = nondifferentiable("Bitcast", _bitcast_forward)


def _bitcast(ins, attrs, ctx):
    return apply(_BITCAST, (convert_to_tensor(ins[0]),),
                 {"type": np.dtype(dtype_of(attrs["type"])._np)})


# ------------------------------------------------------- checks, segments, sparse (composites)

def _datum_text(v, summarize):
    a = np.asarray(v)
    if a.dtype.kind in "SO":
        items = [x.decode(errors="replace") if isinstance(x, bytes) else str(x)
                 for x in a.reshape(-1)[:summarize]]
        return " ".join(items) if a.ndim else items[0]
    flat = a.reshape(-1)
    text = " ".join(str(x) for x in flat[:summarize])
    if flat.size > summarize:
        text += "..."
    return f"[{text}]" if a.ndim else text


def _assert_forward(condition, *data, summarize=3):
    if not bool(np.all(condition)):
        from .._core import errors
        parts = " ".join(f"[{_datum_text(d, summarize)}]" for d in data)
        raise errors.InvalidArgumentError(None, None, f"assertion failed: {parts}")
    return np.asarray(condition)


# TF's Assert: a step of the program (kept though nothing reads it), checked at every call
_ASSERT = nondifferentiable("AssertData", _assert_forward)


def _assert(ins, attrs, ctx):
    apply(_ASSERT, tuple(convert_to_tensor(x) for x in ins), {"summarize": attrs["summarize"]})
    return []


def _where(ins, attrs, ctx):
    return array_ops.where(ins[0])


def _unsorted_segment_sum(ins, attrs, ctx):
    from ..ops import segment_ops
    return segment_ops.unsorted_segment_sum(ins[0], ins[1], ins[2])


def _sparse_reduce_sum(ins, attrs, ctx):
    from ..ops.sparse import sparse_ops
    from ..ops.sparse.sparse_tensor import SparseTensor
    sp = SparseTensor(ins[0], ins[1], ins[2])
    return sparse_ops.reduce_sum(sp, axis=_axis(ctx, ins[3]), keepdims=attrs["keep_dims"])


# ---------------------------------------------------------------------- TensorLists (RNNs)

def _element_shape(ctx, t):
    a = as_numpy(ctx, t)
    dims = a.reshape(-1).tolist()
    if a.ndim == 0 and dims[0] == -1:
        return None
    return [None if d < 0 else int(d) for d in dims]


def _list_reserve(ins, attrs, ctx):
    return TensorArray(dtype_of(attrs["element_dtype"]), size=ins[1],
                       element_shape=_element_shape(ctx, ins[0]))


def _list_from_tensor(ins, attrs, ctx):
    t = convert_to_tensor(ins[0])
    ta = TensorArray(t.dtype, size=0, dynamic_size=True)
    return ta.unstack(t)


def _list_get(ins, attrs, ctx):
    return ins[0].read(ins[1])


def _list_set(ins, attrs, ctx):
    return ins[0].write(ins[1], ins[2])


def _list_stack(ins, attrs, ctx):
    return ins[0].stack()


def _list_length(ins, attrs, ctx):
    return ins[0].size()


# ------------------------------------------------- gradient ops (TF's graph gradients, as a
# gradient function of a saved custom gradient holds them: tf.recompute_grad): TF's
# formulas, of tapeflow ops so their own gradients come from tapeflow's rules

def _tanh_grad(ins, attrs, ctx):
    y, dy = ins
    return dy * (1 - y * y)


def _sigmoid_grad(ins, attrs, ctx):
    y, dy = ins
    return dy * (y * (1 - y))


def _relu_grad(ins, attrs, ctx):
    dy, x = ins
    return array_ops.where(x > 0, dy, array_ops.zeros_like(dy))


def _bias_add_grad(ins, attrs, ctx):
    dy = ins[0]
    rank = traced_shape(dy).rank
    channel = 1 if _s(attrs.get("data_format", "NHWC")) == "NCHW" else rank - 1
    return reduction_ops.reduce_sum(dy, axis=[a for a in range(rank) if a != channel])


KERNELS = {
    **{op: _unary(fn) for op, fn in _UNARY.items()},
    **{op: _binary(fn) for op, fn in _BINARY.items()},
    "Equal": _equal, "NotEqual": _not_equal, "LeakyRelu": _leaky_relu, "Cast": _cast,
    "AddN": _add_n, "ClipByValue": _clip_by_value, "SelectV2": _select_v2, "Select": _select,
    "MatMul": _matmul, "BatchMatMulV2": _batch_matmul, "BatchMatMulV3": _batch_matmul,
    "MatrixSolve": _matrix_solve, "Einsum": _einsum, "BiasAdd": _bias_add, "Conv2D": _conv2d,
    "DepthwiseConv2dNative": _depthwise, "MaxPool": _pool(nn_conv_ops.max_pool2d),
    "AvgPool": _pool(nn_conv_ops.avg_pool2d), "FusedBatchNormV3": _fused_batch_norm,
    "Const": _const, "Reshape": _reshape, "Shape": _shape, "Size": _size, "Rank": _rank,
    "Squeeze": _squeeze, "ExpandDims": _expand_dims, "Transpose": _transpose,
    "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack, "Split": _split,
    "SplitV": _split_v, "Fill": _fill, "Range": _range, "GatherV2": _gather,
    "ResourceGather": _resource_gather, "GatherNd": _gather_nd,
    "StridedSlice": _strided_slice, "Slice": _slice, "Tile": _tile, "Pad": _pad,
    "PadV2": _pad, "BroadcastTo": _broadcast_to, "OneHot": _one_hot,
    "SpaceToBatchND": _space_to_batch, "BatchToSpaceND": _batch_to_space,
    "Sum": _reduce(reduction_ops.reduce_sum), "Mean": _reduce(reduction_ops.reduce_mean),
    "Max": _reduce(reduction_ops.reduce_max), "Min": _reduce(reduction_ops.reduce_min),
    "Prod": _reduce(reduction_ops.reduce_prod), "All": _reduce(reduction_ops.reduce_all),
    "Any": _reduce(reduction_ops.reduce_any), "ArgMax": _arg(math_ops.argmax),
    "ArgMin": _arg(math_ops.argmin), "Cumsum": _cumsum, "EnsureShape": _ensure_shape,
    "IdentityN": _identity_n, "ReadVariableOp": _read_variable,
    "AssignVariableOp": _assign("assign"), "AssignAddVariableOp": _assign("assign_add"),
    "AssignSubVariableOp": _assign("assign_sub"), "NoOp": _no_op,
    "TensorListReserve": _list_reserve, "TensorListFromTensor": _list_from_tensor,
    "TensorListGetItem": _list_get, "TensorListSetItem": _list_set,
    "TensorListStack": _list_stack, "TensorListLength": _list_length,
    "RngReadAndSkip": _rng_read_and_skip, "Bitcast": _bitcast,
    "Assert": _assert, "Where": _where, "UnsortedSegmentSum": _unsorted_segment_sum,
    "SparseReduceSum": _sparse_reduce_sum,
    "TanhGrad": _tanh_grad, "SigmoidGrad": _sigmoid_grad, "ReluGrad": _relu_grad,
    "BiasAddGrad": _bias_add_grad,
    **{op: _stateless_v2(op) for op in _STATELESS_V2},
}
