"""Forward-mode (JVP) rules of the common primitives.

A rule is ``jvp(tangents, y, *inputs, **attrs)``: ``tangents`` holds one tangent per input
(``None`` for none), ``y`` and ``inputs`` are what the primitive saves for its VJP (shapes
where it saves no inputs). It returns the output's tangent; the engine broadcasts it to the
output's shape. Primitives without a rule here are differentiated through their VJP rule
(see ``_core/forwardprop.py``), which gives the same numbers at about three times the cost.
"""
from .._core import dtypes
from .._core.registry import PRIMITIVES, defjvp
from .._core.tensor import convert_to_tensor
from . import array_ops as _a
from . import indexing_ops as _ix
from . import math_ops as _m
from . import nn_ops  # noqa: F401 - declares Relu, Softmax and LogSoftmax
from . import reduction_ops as _r


def _sum_of(*terms):
    live = [t for t in terms if t is not None]
    if not live:
        return None
    out = live[0]
    for t in live[1:]:
        out = _m.add(out, t)
    return out


def _scale(t, factor):
    return None if t is None else _m.multiply(t, factor)


def _linear(fn):
    """A rule for a primitive linear in its single input: apply it to the tangent."""
    return lambda ts, y, *xs, **attrs: None if ts[0] is None else fn(ts[0], **attrs)


def _add(ts, y, x1, x2):
    return _sum_of(*ts)


def _sub(ts, y, x1, x2):
    return _sum_of(ts[0], None if ts[1] is None else _m.negative(ts[1]))


def _mul(ts, y, x1, x2):
    return _sum_of(_scale(ts[0], x2), _scale(ts[1], x1))


def _div(ts, y, x1, x2):
    # d(x1/x2) = dx1 / x2 + dx2 ((-x1 / x2) / x2), TF's VJP transposed (nan and inf where
    # TensorFlow's forward mode has them)
    return _sum_of(None if ts[0] is None else _m.divide(ts[0], x2),
                   None if ts[1] is None else _m.multiply(
                       ts[1], _m.divide(_m.divide(_m.negative(x1), x2), x2)))


def _sqdiff(ts, y, x1, x2):
    # TF's forward mode (its SquaredDifference gradient transposed, checked in TF):
    # (2 (t1 - t2)) conj(x1 - x2), the tangents met first and doubled before the product
    # (no inf - inf from two products), complex products as Eigen's
    t1, t2 = ts
    if t1 is None and t2 is None:
        return None
    u = t1 if t2 is None else _m.negative(t2) if t1 is None else _m.add(t1, _m.negative(t2))
    two, d = convert_to_tensor(2, dtype=u.dtype), _m.subtract(x1, x2)
    if d._value.dtype.kind != "c":
        return _m.multiply(_m.multiply(two, u), d)
    return _m._cmul(_m._cmul(two, u), _a.conj(d))


def _matmul(ts, y, a, b, transpose_a, transpose_b):
    ta, tb = ts
    return _sum_of(
        None if ta is None else _m.matmul(ta, b, transpose_a=transpose_a,
                                          transpose_b=transpose_b),
        None if tb is None else _m.matmul(a, tb, transpose_a=transpose_a,
                                          transpose_b=transpose_b))


def _matvec(ts, y, a, b, transpose_a):
    ta, tb = ts
    return _sum_of(None if ta is None else _m.matvec(ta, b, transpose_a=transpose_a),
                   None if tb is None else _m.matvec(a, tb, transpose_a=transpose_a))


def _cast(ts, y, x_shape, dtype, src):
    if ts[0] is None or dtype.kind not in "fcV" or src.kind not in "fcV":
        return None
    return _a.cast(ts[0], dtypes.FROM_NUMPY[dtype])


def _mean(t, axis, keepdims):
    # over a size-0 input TensorFlow's tangent is 0 (its transposed rule divides an empty
    # gradient), not the mean of nothing
    if not t._value.size:
        return _r.reduce_sum(t, axis, keepdims=keepdims)
    return _r.reduce_mean(t, axis, keepdims=keepdims)


def _softmax(ts, y, x_shape, axis):
    t = ts[0]
    return _m.multiply(y, _m.subtract(t, _r.reduce_sum(_m.multiply(t, y), axis,
                                                       keepdims=True)))


def _log_softmax(ts, y, x_shape, axis):
    t = ts[0]
    return _m.subtract(t, _r.reduce_sum(_m.multiply(t, _m.exp(y)), axis, keepdims=True))


_UNARY = {
    "Neg": lambda t, y, x: _m.negative(t),
    "Tanh": lambda t, y, x: _m.multiply(t, _m.subtract(1, _m.square(y))),
    "Sigmoid": lambda t, y, x: _m.multiply(t, _m.multiply(y, _m.subtract(1, y))),
    "Exp": lambda t, y, x: _m.multiply(t, y),
    "Log": lambda t, y, x: _m.divide(t, x),
    "Square": lambda t, y, x: _m.multiply(t, _m.multiply(x, 2)) if t.dtype.is_floating else
    _m._cmul(t, _m._cmul(x, _m.convert_to_tensor(2, dtype=x.dtype))),
    "Sqrt": lambda t, y, x: _m.divide(_m.multiply(t, 0.5), y),
    "Sin": lambda t, y, x: _m.multiply(t, _m.cos(x)),
    "Cos": lambda t, y, x: _m.negative(_m.multiply(t, _m.sin(x))),
    "Relu": lambda t, y, x: _m.multiply(t, _a.cast(_m.greater(y, 0), t.dtype)),
    "Softplus": lambda t, y, x: _m.multiply(t, _m.sigmoid(x)),
}


def _unary(fn):
    return lambda ts, y, x: None if ts[0] is None else fn(ts[0], y, x)


_RULES = {
    "AddV2": _add, "Sub": _sub, "Mul": _mul, "RealDiv": _div, "SquaredDifference": _sqdiff,
    "MatMul": _matmul, "BatchMatMulV2": _matmul, "MatVec": _matvec, "Cast": _cast,
    "Softmax": _softmax, "LogSoftmax": _log_softmax,
    "Identity": _linear(lambda t: t),
    "Reshape": _linear(lambda t, shape: _a.reshape(t, shape)),
    "Transpose": _linear(lambda t, perm: _a.transpose(t, list(perm))),
    "BroadcastTo": _linear(lambda t, shape: _a.broadcast_to(t, shape)),
    "Sum": _linear(lambda t, axis, keepdims: _r.reduce_sum(t, axis, keepdims=keepdims)),
    "Mean": _linear(_mean),
    "StridedSlice": _linear(lambda t, key: _ix.strided_slice_getitem(t, key)),
}
_RULES.update({name: _unary(fn) for name, fn in _UNARY.items()})


for _name, _rule in _RULES.items():
    _prim = PRIMITIVES.get(_name)
    if _prim is not None and _prim.jvp is None:
        defjvp(_prim, _rule)
