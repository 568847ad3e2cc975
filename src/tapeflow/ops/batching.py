"""Batch-aware VJP rules of the built-in primitives, for the vectorised jacobian.

In these rules ``g`` carries one extra leading axis (the batch of cotangents) and so must the
answer. Element-wise rules, matmul and selections already broadcast over it and are only
declared safe; reductions, reshapes, transposes and indexing shift their axes by one.
"""
import builtins

from .._core.backend import np
from .._core.dispatch import apply
from .._core.jacobians import BATCHED, DIAGONAL, DIAGONAL_SAFE, _Diag, batch_safe, defbatch
from .._core.registry import PRIMITIVES, PerInput
from . import array_ops as _a
from . import creation_ops as _cr
from . import indexing_ops as _ix
from . import math_ops as _m
from . import reduction_ops as _r

_SAFE = (
    "AddV2", "Sub", "Mul", "RealDiv", "FloorMod", "Pow", "Maximum", "Minimum",
    "SquaredDifference", "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p",
    "Expm1", "Tanh", "Sigmoid", "Reciprocal", "Sin", "Cos", "Softplus", "Cast", "BroadcastTo",
    "Identity", "Conj", "SelectV2", "Relu", "BatchMatMulV2", "MatVec", "Relu6", "LeakyRelu",
    "Elu", "RealDivComplex",
)
batch_safe(*(PRIMITIVES[name] for name in _SAFE if name in PRIMITIVES))


def _declare(name, *rules):
    if name in PRIMITIVES:
        defbatch(PRIMITIVES[name], *rules)


def _n(g):
    return g._value.shape[0]


def _spread(g, x_shape, axis, keepdims):
    n = _n(g)
    if not keepdims:
        kept = tuple(1 if i in axis else d for i, d in enumerate(x_shape))
        g = _a.reshape(g, (n,) + kept)
    return _a.broadcast_to(g, (n,) + tuple(x_shape))


def _sum(g, y, x, axis, keepdims):
    return _spread(g, x._value.shape, axis, keepdims)


def _mean(g, y, x, axis, keepdims):
    count = 1
    for ax in axis:
        count *= x._value.shape[ax]
    return _m.divide(_spread(g, x._value.shape, axis, keepdims),
                     g._value.dtype.type(max(count, 1)))


def _extremum(g, y, x, axis, keepdims):
    shape = x._value.shape
    if not keepdims:
        y = _a.reshape(y, tuple(1 if i in axis else d for i, d in enumerate(shape)))
    hits = _a.cast(_m.equal(y, x), g.dtype)
    count = _r.reduce_sum(hits, axis, keepdims=True)
    return _m.divide(_m.multiply(_spread(g, shape, axis, keepdims), hits), count)


def _prod(g, y, x, axis, keepdims):
    rule = PRIMITIVES["Prod"].vjps[0]
    ones = _a.ones_like(y)
    # The ordinary rule is linear in g: apply it to ones for the per-element factor.
    factor = rule(ones, y, x, axis, keepdims)
    return _m.multiply(_spread(g, x._value.shape, axis, keepdims), factor)


_declare("Sum", _sum)
_declare("Mean", _mean)
_declare("Max", _extremum)
_declare("Min", _extremum)
_declare("Prod", _prod)
_declare("Cumsum", lambda g, y, x_shape, axis, exclusive, reverse: _r.cumsum(
    g, axis + 1, exclusive=exclusive, reverse=not reverse))
_declare("Cumprod", lambda g, y, x, axis, exclusive, reverse: _m.divide(
    _r.cumsum(_m.multiply(g, y), axis + 1, exclusive=exclusive, reverse=not reverse), x))
_declare("Reshape", lambda g, y, x, shape: _a.reshape(g, (_n(g),) + x._value.shape))
_declare("ReshapeLike", lambda gg, y, g, x: _a.reshape(gg, (_n(gg),) + g._value.shape), None)
# The spread-back primitives are linear in g: their adjoints reduce (one axis further in).
_declare("SumGrad", lambda gg, y, g, x, axis, keepdims: _r.reduce_sum(
    gg, [a + 1 for a in axis], keepdims=keepdims), None)
_declare("MeanGrad", lambda gg, y, g, x, axis, keepdims: _r.reduce_mean(
    gg, [a + 1 for a in axis], keepdims=keepdims), None)
_declare("ExpandDims", lambda g, y, x_shape, axis: _a._squeeze_axes(
    g, tuple(a + 1 for a in axis)))
_declare("Squeeze", lambda g, y, x_shape, axis: _a._expand_axes(
    g, tuple(a + 1 for a in axis)))
_declare("Transpose", lambda g, y, x_shape, perm: _a.transpose(
    g, [0] + [int(p) + 1 for p in np.argsort(perm)]))
_declare("Softmax", lambda g, y, x_shape, axis: _m.multiply(
    _m.subtract(g, _r.reduce_sum(_m.multiply(g, y), axis + 1, keepdims=True)), y))
_declare("LogSoftmax", lambda g, y, x_shape, axis: _m.subtract(
    g, _m.multiply(_r.reduce_sum(g, axis + 1, keepdims=True), _m.exp(y))))


def _matmul_a(g, y, a, b, transpose_a, transpose_b):
    # One GEMM for the whole batch: fold the batch axis into the rows of g.
    n, m, p = g._value.shape
    da = _a.reshape(_m.matmul(_a.reshape(g, (n * m, p)), b, transpose_b=not transpose_b),
                    (n, m, -1))
    return _a.transpose(da, [0, 2, 1]) if transpose_a else da


def _matmul_b(g, y, a, b, transpose_a, transpose_b):
    n, m, p = g._value.shape
    gt = _a.reshape(_a.transpose(g, [0, 2, 1]), (n * p, m))
    db_t = _a.reshape(_m.matmul(gt, a, transpose_b=transpose_a), (n, p, -1))
    return db_t if transpose_b else _a.transpose(db_t, [0, 2, 1])


_declare("MatMul", _matmul_a, _matmul_b)


def _slice_rule(g, y, x, key):
    stand_in = _ix.shape_stand_in((_n(g),) + x._value.shape, g._value.dtype)
    return _a.strided_slice_grad(g, stand_in, (slice(None),) + tuple(key))


_declare("StridedSlice", _slice_rule)
_declare("StridedSliceGrad", lambda g, y, g_shape, x_shape, key: _ix.strided_slice_getitem(
    g, (slice(None),) + tuple(key)), None)


def _concat_rule(k):
    def rule(g, y, *xs, axis):
        shapes = [x._value.shape for x in xs]
        start = builtins.sum(s[axis] for s in shapes[:k])
        key = (slice(None),) * (axis + 1) + (slice(start, start + shapes[k][axis]),)
        return _ix.strided_slice_getitem(g, key)
    return rule


def _pack_rule(k):
    def rule(g, y, *shapes, axis):
        return _ix.strided_slice_getitem(g, (slice(None),) * (axis + 1) + (k,))
    return rule


for _name, _make in (("ConcatV2", _concat_rule), ("Pack", _pack_rule)):
    if _name in PRIMITIVES:
        BATCHED[PRIMITIVES[_name]] = PerInput(_make)


def _gather_rule(g, y, params, indices, axis, batch_dims, sparse=False):
    stand_in = _ix.shape_stand_in((_n(g),) + params._value.shape, g._value.dtype)
    return apply(PRIMITIVES["GatherGrad"], (g, indices, stand_in), {"axis": axis + 1})


_declare("GatherV2", _gather_rule, None)
_declare("GatherGrad", lambda g, y, gg, indices, params, axis: _ix._gather_dense(
    g, indices, axis=axis + 1), None, None)


def _tile_rule(g, y, x, multiples):
    x_shape = x._value.shape
    split = [_n(g)]
    for mult, d in zip(multiples, x_shape):
        split += [mult, d]
    g = _a.reshape(g, split)
    return _r.reduce_sum(g, axis=list(builtins.range(1, 2 * len(x_shape) + 1, 2)))


_declare("Tile", _tile_rule)


# ----------------------------------------------------------------- diagonal (identity) batches

_ELEMENTWISE = (
    "AddV2", "Sub", "Mul", "RealDiv", "FloorMod", "Pow", "Maximum", "Minimum",
    "SquaredDifference", "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p",
    "Expm1", "Tanh", "Sigmoid", "Reciprocal", "Sin", "Cos", "Softplus", "Cast", "Identity",
    "Conj", "SelectV2", "Relu", "Relu6", "LeakyRelu", "Elu", "RealDivComplex",
)
DIAGONAL_SAFE.update(PRIMITIVES[name] for name in _ELEMENTWISE if name in PRIMITIVES)


def _diag_reshape(g, y, x, shape):
    x_shape = x._value.shape
    # Reshaping keeps the flat order, so the batch stays diagonal (if examples stay apart).
    if g.lead and tuple(x_shape[:g.lead]) != g.d._value.shape[:g.lead]:
        return NotImplemented
    return _Diag(_a.reshape(g.d, x_shape), g.lead)


def _eye(n, dtype):
    return _a.cast(_a.reshape(_cr.one_hot(_cr.range(n), n), (n, n)), dtype)


def _diag_matmul_a(g, y, a, b, transpose_a, transpose_b):
    # Row (i, j) of the batch is d[i, j] e_i e_j^T; times op(b)^T it has one non-zero row.
    d = g.d
    m, p = d._value.shape
    bt = b if transpose_b else _a.transpose(b)
    if g.lead:  # rows are examples: row j of the batch keeps column j of every example
        da = _m.multiply(_a.reshape(_a.transpose(d), (p, m, 1)), _a.reshape(bt, (p, 1, -1)))
        return _a.transpose(da, [0, 2, 1]) if transpose_a else da
    rows = _m.multiply(_a.reshape(d, (m, p, 1)), _a.reshape(bt, (1, p, -1)))
    kdim = rows._value.shape[-1]
    if m == 1:
        da = _a.reshape(rows, (p, 1, kdim))
    else:
        eye = _a.reshape(_eye(m, d.dtype), (m, 1, m, 1))
        da = _a.reshape(_m.multiply(eye, _a.reshape(rows, (m, p, 1, kdim))), (m * p, m, kdim))
    return _a.transpose(da, [0, 2, 1]) if transpose_a else da


def _diag_matmul_b(g, y, a, b, transpose_a, transpose_b):
    # op(a)^T times d[i, j] e_i e_j^T has one non-zero column, j: d[i, j] op(a)[i, :].
    if g.lead:
        return NotImplemented
    d = g.d
    m, p = d._value.shape
    at = _a.transpose(a) if transpose_a else a
    cols = _m.multiply(_a.reshape(d, (m, p, 1)), _a.reshape(at, (m, 1, -1)))
    kdim = cols._value.shape[-1]
    if p == 1:
        db = _a.reshape(cols, (m, kdim, 1))
    else:
        eye = _a.reshape(_eye(p, d.dtype), (1, p, 1, p))
        db = _a.reshape(_m.multiply(eye, _a.reshape(cols, (m, p, kdim, 1))), (m * p, kdim, p))
    return _a.transpose(db, [0, 2, 1]) if transpose_b else db


def _diag_matvec_b(g, y, a, b, transpose_a):
    # Row i of the batch is d[i] e_i: op(a)^T e_i d[i] is row i of op(a), scaled.
    if g.lead or a._value.ndim != 2 or b._value.ndim != 1:
        return NotImplemented
    op_a = _a.transpose(a) if transpose_a else a
    return _m.multiply(_a.reshape(g.d, (-1, 1)), op_a)


def _diag_axes(fn):
    # Inserting or removing length-1 axes keeps the flat order, so the batch stays diagonal
    # when the examples' leading axes are not touched.
    def rule(g, y, x_shape, axis):
        if g.lead and min(axis) < g.lead:
            return NotImplemented
        return _Diag(fn(g.d, axis), g.lead)
    return rule


for _name, _rules in (("Reshape", (_diag_reshape,)),
                      ("ExpandDims", (_diag_axes(_a._squeeze_axes),)),
                      ("Squeeze", (_diag_axes(_a._expand_axes),)),
                      ("MatMul", (_diag_matmul_a, _diag_matmul_b)),
                      ("MatVec", (None, _diag_matvec_b))):
    if _name in PRIMITIVES:
        DIAGONAL[PRIMITIVES[_name]] = _rules
