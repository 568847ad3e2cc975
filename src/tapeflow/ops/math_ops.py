"""Element-wise arithmetic, reductions and matmul: forward and derivative side by side.

Every rule is written with these same ops, so gradients are differentiable again. A primitive
that does not save its inputs hands its rules their shapes instead.
"""
import operator

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, raise_op_error, record
from .._core.registry import Primitive, defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import array_ops as _a
from ._helpers import (FLOAT_COMPLEX_TYPES, check_kind, dtype_mismatch, like, norm_axis,
                       pair, to_tensor)

__all__ = [
    "add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod",
    "negative", "pow", "square", "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "abs",
    "sign", "tanh", "sigmoid", "maximum", "minimum", "reciprocal", "sin", "cos",
    "softplus", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not", "logical_xor", "reduce_sum", "reduce_mean",
    "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any", "argmax",
    "argmin", "matmul", "add_n", "zeros_like", "ones_like", "cast", "squared_difference",
    "round", "floor", "ceil", "is_nan", "is_finite", "is_inf", "matvec",
]


def _broadcast_error(values, attrs, exc):
    if "broadcast" not in str(exc):
        return errors.InvalidArgumentError, str(exc)
    shapes = [list(np.shape(v)) for v in values]
    text = " vs. ".join("[" + ",".join(str(d) for d in s) + "]" for s in shapes)
    return errors.InvalidArgumentError, f"Incompatible shapes: {text}"


# ----------------------------------------------------------------------------- binary


def _binary(prim):
    """The public function of a binary element-wise primitive. This is the hot path:
    two tensors of one dtype go straight to NumPy, a Tensor and the recording check."""
    op_name = prim.name
    forward = prim.forward

    def op(x, y, name=None):
        if isinstance(x, _TensorLike):
            if not isinstance(y, _TensorLike):
                try:
                    y = like(y, x)
                except TypeError:  # pair raises TensorFlow's error for this op (AddV2's differs)
                    x, y = pair(x, y, op_name)
            elif x._value.dtype is not y._value.dtype:
                raise dtype_mismatch(op_name, 1, x._value.dtype, y._value.dtype)
        else:
            x, y = pair(x, y, op_name)
        try:
            out = Tensor(forward(x._value, y._value))
        except Exception as exc:  # noqa: BLE001 - rethrown as TensorFlow's class
            raise_op_error(prim, (x._value, y._value), None, exc)
        if ACTIVE[0]:
            record(prim, (x, y), out, None)
        return out

    op.__name__ = op_name
    return op


def _pow_forward(x, y):
    if x.dtype.kind in "iu" and np.any(np.asarray(y) < 0):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Integers to negative integer powers are not allowed", "Pow")
    return x ** y


# Python's operators reach NumPy's scalar fast paths: 0.07 us for two float32 scalars where
# the ufunc call takes 0.6 us; on arrays they are the same ufuncs.
_ADD = primitive("AddV2", operator.add, save_inputs=False, error=_broadcast_error)
_SUB = primitive("Sub", operator.sub, save_inputs=False, error=_broadcast_error)
_MUL = primitive("Mul", operator.mul, error=_broadcast_error)
_DIV = primitive("RealDiv", operator.truediv, save_output=True, error=_broadcast_error)
_FLOORDIV = nondifferentiable("FloorDiv", operator.floordiv, error=_broadcast_error)
_FLOORMOD = primitive("FloorMod", operator.mod, error=_broadcast_error)
_POW = primitive("Pow", _pow_forward, save_output=True, error=_broadcast_error)
_MAX = primitive("Maximum", np.maximum, error=_broadcast_error)
_MIN = primitive("Minimum", np.minimum, error=_broadcast_error)
_SQDIFF = primitive("SquaredDifference", lambda x, y: np.square(x - y),
                    error=_broadcast_error)

add = _binary(_ADD)
subtract = _binary(_SUB)
multiply = _binary(_MUL)
floordiv = _binary(_FLOORDIV)
floormod = mod = _binary(_FLOORMOD)
maximum = _binary(_MAX)
minimum = _binary(_MIN)
squared_difference = _binary(_SQDIFF)
_realdiv = _binary(_DIV)
_pow = _binary(_POW)


def divide(x, y, name=None):
    """``x / y`` element-wise (``tf.math.divide``, TF's truediv).

    Integer inputs are first cast to float64 (int32, int64) or float32 (8/16-bit),
    as TensorFlow does. Shapes broadcast.

    Raises:
        tf.errors.InvalidArgumentError: for different dtypes or incompatible shapes.
    """
    if isinstance(x, _TensorLike) and isinstance(y, _TensorLike) and x.dtype != y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != "
                        f"{y.dtype!r}.")
    x, y = pair(x, y, "RealDiv")
    kind = x._value.dtype.kind
    if kind in "iu":
        target = _dt.float64 if x._value.dtype.itemsize >= 4 else _dt.float32
        x, y = cast(x, target), cast(y, target)
    return apply(_DIV, (x, y))


truediv = divide


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    """``x ** y`` element-wise (``tf.math.pow``); shapes broadcast, dtypes must agree.

    A Python exponent of 2 (``x ** 2``, the usual squared error) runs as Square, whose
    derivative needs no logarithm; the values are the same.
    """
    if type(y) is int and y == 2 and isinstance(x, _TensorLike):
        return apply(_SQUARE, (x,))
    return _pow(x, y)


defvjp(_ADD, lambda g, y, x1, x2: g, lambda g, y, x1, x2: g)
defvjp(_SUB, lambda g, y, x1, x2: g, lambda g, y, x1, x2: negative(g))
defvjp(_MUL, lambda g, y, x1, x2: multiply(g, x2), lambda g, y, x1, x2: multiply(g, x1))
defvjp(_DIV, lambda g, y, x1, x2: _realdiv(g, x2),
       lambda g, y, x1, x2: negative(multiply(g, _realdiv(y, x2))))
defvjp(_FLOORMOD, lambda g, y, x1, x2: g,
       lambda g, y, x1, x2: negative(multiply(g, floor(_realdiv(x1, x2)))))


def _pow_grad_base(g, z, x, y):
    return multiply(g, multiply(y, _pow(x, subtract(y, 1))))


def _pow_grad_exponent(g, z, x, y):
    if x._value.dtype.kind == "c":
        return multiply(g, multiply(z, log(x)))
    positive = greater(x, 0)
    safe = _a.where(positive, x, ones_like(x))
    return multiply(g, multiply(z, _a.where(positive, log(safe), zeros_like(x))))


defvjp(_POW, _pow_grad_base, _pow_grad_exponent)


def _select_first(g, y, x1, x2):
    return _a.where(greater_equal(x1, x2), g, zeros_like(g))


def _select_second(g, y, x1, x2):
    return _a.where(greater_equal(x1, x2), zeros_like(g), g)


def _select_first_min(g, y, x1, x2):
    return _a.where(less_equal(x1, x2), g, zeros_like(g))


def _select_second_min(g, y, x1, x2):
    return _a.where(less_equal(x1, x2), zeros_like(g), g)


defvjp(_MAX, _select_first, _select_second)
defvjp(_MIN, _select_first_min, _select_second_min)


def _sqdiff_grad(g, y, x1, x2):
    return multiply(g, multiply(subtract(x1, x2), 2))


defvjp(_SQDIFF, _sqdiff_grad, lambda g, y, x1, x2: negative(_sqdiff_grad(g, y, x1, x2)))

# ----------------------------------------------------------------------------- unary


def _unary(prim, kinds=None, allowed=None):
    """The public function of a one-input primitive, with an optional dtype-kind check."""
    op_name = prim.name
    forward = prim.forward

    def op(x, name=None):
        if not isinstance(x, _TensorLike):
            x = to_tensor(x)
        if kinds is not None and x._value.dtype.kind not in kinds:
            check_kind(x, kinds, op_name, allowed)
        try:
            out = Tensor(forward(x._value))
        except Exception as exc:  # noqa: BLE001 - rethrown as TensorFlow's class
            raise_op_error(prim, (x._value,), None, exc)
        if ACTIVE[0]:
            record(prim, (x,), out, None)
        return out

    op.__name__ = op_name
    return op


def _sigmoid_forward(x):
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype, copy=False)


def _softplus_forward(x):
    return np.logaddexp(x.dtype.type(0), x)


_NEG = primitive("Neg", operator.neg, save_inputs=False)
_ABS = primitive("Abs", operator.abs)
_SQUARE = primitive("Square", lambda x: x * x)
_SQRT = primitive("Sqrt", np.sqrt, save_inputs=False, save_output=True)
_RSQRT = primitive("Rsqrt", lambda x: 1 / np.sqrt(x), save_inputs=False, save_output=True)
_EXP = primitive("Exp", np.exp, save_inputs=False, save_output=True)
_LOG = primitive("Log", np.log)
_LOG1P = primitive("Log1p", np.log1p)
_EXPM1 = primitive("Expm1", np.expm1, save_output=True)
_TANH = primitive("Tanh", np.tanh, save_inputs=False, save_output=True)
_SIGMOID = primitive("Sigmoid", _sigmoid_forward, save_inputs=False, save_output=True)
_RECIP = primitive("Reciprocal", np.reciprocal, save_inputs=False, save_output=True)
_SIN = primitive("Sin", np.sin)
_COS = primitive("Cos", np.cos)
_SOFTPLUS = primitive("Softplus", _softplus_forward)
_SIGN = primitive("Sign", np.sign, save_inputs=False)
_ROUND = nondifferentiable("Round", np.round)
_FLOOR = nondifferentiable("Floor", np.floor)
_CEIL = nondifferentiable("Ceil", np.ceil)

_F = "fc"
negative = _unary(_NEG)
abs = _unary(_ABS)  # noqa: A001 - TensorFlow's name
square = _unary(_SQUARE)
sqrt = _unary(_SQRT, _F, FLOAT_COMPLEX_TYPES)
rsqrt = _unary(_RSQRT, _F, FLOAT_COMPLEX_TYPES)
exp = _unary(_EXP, _F, FLOAT_COMPLEX_TYPES)
log = _unary(_LOG, _F, FLOAT_COMPLEX_TYPES)
log1p = _unary(_LOG1P, _F, FLOAT_COMPLEX_TYPES)
expm1 = _unary(_EXPM1, _F, FLOAT_COMPLEX_TYPES)
tanh = _unary(_TANH, _F, FLOAT_COMPLEX_TYPES)
sigmoid = _unary(_SIGMOID, _F, FLOAT_COMPLEX_TYPES)
reciprocal = _unary(_RECIP, _F, FLOAT_COMPLEX_TYPES)
sin = _unary(_SIN, _F, FLOAT_COMPLEX_TYPES)
cos = _unary(_COS, _F, FLOAT_COMPLEX_TYPES)
softplus = _unary(_SOFTPLUS, "f", "half, bfloat16, float, double")
sign = _unary(_SIGN)
round = _unary(_ROUND)  # noqa: A001 - TensorFlow's name
floor = _unary(_FLOOR, "f", "bfloat16, half, float, double")
ceil = _unary(_CEIL, "f", "bfloat16, half, float, double")

defvjp(_NEG, lambda g, y, x: negative(g))
defvjp(_ABS, lambda g, y, x: multiply(g, sign(x)))
defvjp(_SQUARE, lambda g, y, x: multiply(g, multiply(x, 2)))
defvjp(_SQRT, lambda g, y, x: _realdiv(multiply(g, 0.5), y))
defvjp(_RSQRT, lambda g, y, x: multiply(g, multiply(pow(y, 3), -0.5)))
defvjp(_EXP, lambda g, y, x: multiply(g, y))
defvjp(_LOG, lambda g, y, x: _realdiv(g, x))
defvjp(_LOG1P, lambda g, y, x: _realdiv(g, add(x, 1)))
defvjp(_EXPM1, lambda g, y, x: multiply(g, add(y, 1)))
# As TensorFlow's TanhGrad and SigmoidGrad: the first derivative is one NumPy expression
# (one op instead of three), and it is itself differentiable for higher orders.
_TANH_GRAD = primitive("TanhGrad", lambda y, g: g * (1 - y * y))
_SIGMOID_GRAD = primitive("SigmoidGrad", lambda y, g: g * (y * (1 - y)))
defvjp(_TANH, lambda g, y, x: apply(_TANH_GRAD, (y, g)))
defvjp(_SIGMOID, lambda g, y, x: apply(_SIGMOID_GRAD, (y, g)))
defvjp(_TANH_GRAD,
       lambda gg, out, y, g: multiply(gg, multiply(g, multiply(y, -2))),
       lambda gg, out, y, g: apply(_TANH_GRAD, (y, gg)))
defvjp(_SIGMOID_GRAD,
       lambda gg, out, y, g: multiply(gg, multiply(g, subtract(1, multiply(y, 2)))),
       lambda gg, out, y, g: apply(_SIGMOID_GRAD, (y, gg)))
defvjp(_RECIP, lambda g, y, x: negative(multiply(g, square(y))))
defvjp(_SIN, lambda g, y, x: multiply(g, cos(x)))
defvjp(_COS, lambda g, y, x: negative(multiply(g, sin(x))))
defvjp(_SOFTPLUS, lambda g, y, x: multiply(g, sigmoid(x)))
defvjp(_SIGN, lambda g, y, x_shape: zeros_like(g))  # zeros, not None, as TensorFlow

# ------------------------------------------------------------------ comparisons, logic


def _compare(prim):
    name_ = prim.name

    def op(x, y, name=None):
        x, y = pair(x, y, name_)
        return apply(prim, (x, y))

    return op


equal = _compare(nondifferentiable("Equal", np.equal, error=_broadcast_error))
not_equal = _compare(nondifferentiable("NotEqual", np.not_equal, error=_broadcast_error))
less = _compare(nondifferentiable("Less", np.less, error=_broadcast_error))
less_equal = _compare(nondifferentiable("LessEqual", np.less_equal, error=_broadcast_error))
greater = _compare(nondifferentiable("Greater", np.greater, error=_broadcast_error))
greater_equal = _compare(nondifferentiable("GreaterEqual", np.greater_equal,
                                           error=_broadcast_error))
_LAND = nondifferentiable("LogicalAnd", np.logical_and, error=_broadcast_error)
_LOR = nondifferentiable("LogicalOr", np.logical_or, error=_broadcast_error)
_LNOT = nondifferentiable("LogicalNot", np.logical_not)


def _logical(prim):
    name_ = prim.name

    def op(x, y, name=None):
        x, y = pair(x, y, name_)
        check_kind(x, "b", name_, "bool")
        return apply(prim, (x, y))

    return op


logical_and = _logical(_LAND)
logical_or = _logical(_LOR)


def logical_not(x, name=None):
    """Element-wise NOT of a bool tensor (``tf.math.logical_not``)."""
    x = to_tensor(x)
    check_kind(x, "b", "LogicalNot", "bool")
    return apply(_LNOT, (x,))


def logical_xor(x, y, name="LogicalXor"):
    """Element-wise XOR of bool tensors (``tf.math.logical_xor``)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


is_nan = _unary(nondifferentiable("IsNan", np.isnan), "f", "bfloat16, half, float, double")
is_inf = _unary(nondifferentiable("IsInf", np.isinf), "f", "bfloat16, half, float, double")
is_finite = _unary(nondifferentiable("IsFinite", np.isfinite), "f",
                   "bfloat16, half, float, double")

# ----------------------------------------------------------------------------- cast


def _cast_forward(x, dtype, src):
    return x.astype(dtype) if x.ndim else dtype.type(x)


_CAST = primitive("Cast", _cast_forward, save_inputs=False)
# Casts to or from integers and bool have no gradient: they record nothing and their
# outputs are never watched (one op type, two table entries, so not in the registry).
_CAST_NO_GRADIENT = Primitive("Cast", _cast_forward, save_inputs=False, differentiable=False)


def _cast_rule(g, y, x_shape, dtype, src):
    # The gradient flows only between floating (or complex) dtypes, and returns to ``src``.
    if src.kind in "fc" and dtype.kind in "fc":
        return cast(g, _dt.FROM_NUMPY[src])
    return None


defvjp(_CAST, _cast_rule)


def cast(x, dtype, name=None):
    """``x`` converted to ``dtype`` (``tf.cast``). Float to int truncates toward zero.

    The gradient flows between floating (and complex) dtypes and is cast back.

    Args:
        x: a Tensor, Variable or value.
        dtype: the target DType.

    Returns:
        A Tensor of ``dtype`` and ``x``'s shape.
    """
    dtype = _dt.as_dtype(dtype)
    x = to_tensor(x)
    if x._value.dtype == dtype._np:
        return x if type(x) is Tensor else x._read()
    prim = _CAST if x._value.dtype.kind in "fc" and dtype._np.kind in "fc" else _CAST_NO_GRADIENT
    return apply(prim, (x,), {"dtype": dtype._np, "src": x._value.dtype})


def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Zeros shaped like ``input`` (``tf.zeros_like``), of its dtype unless ``dtype`` is given."""
    x = to_tensor(input)
    npd = x._value.dtype if dtype is None else _dt.as_dtype(dtype)._np
    return Tensor(np.zeros(x._value.shape, npd) if x._value.ndim else npd.type(0))


def ones_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Ones shaped like ``input`` (``tf.ones_like``), of its dtype unless ``dtype`` is given."""
    x = to_tensor(input)
    npd = x._value.dtype if dtype is None else _dt.as_dtype(dtype)._np
    return Tensor(np.ones(x._value.shape, npd) if x._value.ndim else npd.type(1))


# ----------------------------------------------------------------------------- reductions


def _reduce_error(values, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


def _kept_shape(x_shape, axis):
    return tuple(1 if i in axis else d for i, d in enumerate(x_shape))


def _sum_forward(x, axis, keepdims):
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean_forward(x, axis, keepdims):
    if x.dtype.kind in "iu":
        n = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        return (np.fix(total / max(n, 1))).astype(x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


_SUM = primitive("Sum", _sum_forward, save_inputs=False, error=_reduce_error)
_MEAN = primitive("Mean", _mean_forward, save_inputs=False, error=_reduce_error)
_RMAX = primitive("Max", lambda x, axis, keepdims: np.max(x, axis=axis, keepdims=keepdims),
                  save_output=True, error=_reduce_error)
_RMIN = primitive("Min", lambda x, axis, keepdims: np.min(x, axis=axis, keepdims=keepdims),
                  save_output=True, error=_reduce_error)
_PROD = primitive("Prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims,
                                                             dtype=x.dtype),
                  save_output=True, error=_reduce_error)
_ALL = nondifferentiable("All", lambda x, axis, keepdims: np.all(x, axis=axis,
                                                                 keepdims=keepdims))
_ANY = nondifferentiable("Any", lambda x, axis, keepdims: np.any(x, axis=axis,
                                                                 keepdims=keepdims))


def _spread(g, x_shape, axis, keepdims):
    """``g`` of a reduction, broadcast back over the reduced axes."""
    if not keepdims and axis != tuple(range(len(axis))):
        # Reduced axes that are not leading must come back as length-1 axes first;
        # leading ones broadcasting restores by itself.
        g = _a.reshape(g, _kept_shape(x_shape, axis))
    return _a.broadcast_to(g, x_shape)


def _sum_rule(g, y, x_shape, axis, keepdims):
    return _spread(g, x_shape, axis, keepdims)


def _mean_rule(g, y, x_shape, axis, keepdims):
    n = 1
    for a in axis:
        n *= x_shape[a]
    # Divide before broadcasting: the division then runs on the small, reduced tensor.
    return _spread(_realdiv(g, max(n, 1)), x_shape, axis, keepdims)


def _extremum_rule(g, y, x, axis, keepdims):
    y = _spread(y, x._value.shape, axis, keepdims)
    hits = cast(equal(y, x), g.dtype)
    count = reduce_sum(hits, axis, keepdims=True)
    return _realdiv(multiply(_spread(g, x._value.shape, axis, keepdims), hits), count)


def _prod_rule(g, y, x, axis, keepdims):
    # d prod / d x_i = prod / x_i where x_i != 0; exact for a single zero via cumprods.
    shape = x._value.shape
    g = _spread(g, shape, axis, keepdims)
    if not np.any(x._value == 0):
        return multiply(g, _realdiv(_spread(y, shape, axis, keepdims), x))
    rest = [i for i in range(len(shape)) if i not in axis]
    perm = list(axis) + rest
    xt = _a.transpose(x, perm)
    lead = int(np.prod([shape[a] for a in axis])) if axis else 1
    flat = _a.reshape(xt, (lead, -1))
    left = cumprod(flat, axis=0, exclusive=True)
    right = cumprod(flat, axis=0, exclusive=True, reverse=True)
    others = _a.reshape(multiply(left, right), [shape[a] for a in perm])
    inv = np.argsort(perm)
    return multiply(g, _a.transpose(others, inv.tolist()))


defvjp(_SUM, _sum_rule)
defvjp(_MEAN, _mean_rule)
defvjp(_RMAX, _extremum_rule)
defvjp(_RMIN, _extremum_rule)
defvjp(_PROD, _prod_rule)


def _reducer(prim, kinds=None):
    op_name = prim.name

    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = to_tensor(input_tensor)
        if x._value.dtype.kind in "OSU":
            raise errors.InvalidArgumentError(
                None, None, "Value for attr 'T' of string is not in the list of allowed "
                "values: float, double, int32, uint8, int16, int8, complex64, int64, qint8, "
                "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, "
                "uint64")
        if kinds is not None:
            check_kind(x, kinds, op_name, "bool")
        try:
            ax = norm_axis(axis, x._value.ndim)
        except ValueError as err:
            raise errors.op_error(errors.InvalidArgumentError, str(err), op_name) from None
        return apply(prim, (x,), {"axis": ax, "keepdims": bool(keepdims)})

    op.__name__ = op_name
    return op


reduce_sum = _reducer(_SUM)
reduce_mean = _reducer(_MEAN)
reduce_max = _reducer(_RMAX)
reduce_min = _reducer(_RMIN)
reduce_prod = _reducer(_PROD)
reduce_all = _reducer(_ALL, "b")
reduce_any = _reducer(_ANY, "b")
reduce_sum.__doc__ = """Sum over ``axis`` (``tf.reduce_sum``).

Args:
    input_tensor: a numeric tensor of any shape.
    axis: None (all axes), an int, or a list of ints in ``[-rank, rank)``.
    keepdims: keep reduced axes with length 1.

Returns:
    A tensor of the input's dtype.

Raises:
    tf.errors.InvalidArgumentError: for an axis out of range.
"""
reduce_mean.__doc__ = reduce_sum.__doc__.replace("Sum over", "Mean over").replace(
    "reduce_sum", "reduce_mean")


def _cumprod_forward(x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumprod(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.ones_like(np.take(out, [0], axis)),
                              np.take(out, range(out.shape[axis] - 1), axis)], axis)
    if reverse:
        out = np.flip(out, axis)
    return out


def _cumsum_forward(x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.zeros_like(np.take(out, [0], axis)),
                              np.take(out, range(out.shape[axis] - 1), axis)], axis)
    if reverse:
        out = np.flip(out, axis)
    return out


_CUMSUM = primitive("Cumsum", _cumsum_forward, save_inputs=False)
_CUMPROD = primitive("Cumprod", _cumprod_forward, save_output=True)
defvjp(_CUMSUM, lambda g, y, x, axis, exclusive, reverse:
       cumsum(g, axis, exclusive=exclusive, reverse=not reverse))


def _cumprod_rule(g, y, x, axis, exclusive, reverse):
    # TensorFlow's rule: exact where x has no zeros, and 0 (div_no_nan) where it has.
    out = cumsum(multiply(g, y), axis, exclusive=exclusive, reverse=not reverse)
    nonzero = not_equal(x, 0)
    return _a.where(nonzero, _realdiv(out, _a.where(nonzero, x, ones_like(x))), zeros_like(x))


defvjp(_CUMPROD, _cumprod_rule)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along ``axis`` (``tf.math.cumsum``)."""
    x = to_tensor(x)
    ax = int(axis) % max(x._value.ndim, 1)
    return apply(_CUMSUM, (x,), {"axis": ax, "exclusive": bool(exclusive),
                                 "reverse": bool(reverse)})


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along ``axis`` (``tf.math.cumprod``)."""
    x = to_tensor(x)
    ax = int(axis) % max(x._value.ndim, 1)
    return apply(_CUMPROD, (x,), {"axis": ax, "exclusive": bool(exclusive),
                                  "reverse": bool(reverse)})


_ARGMAX = nondifferentiable("ArgMax", lambda x, axis, dtype: np.argmax(x, axis).astype(dtype))
_ARGMIN = nondifferentiable("ArgMin", lambda x, axis, dtype: np.argmin(x, axis).astype(dtype))


def _arg(prim):
    def op(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
        x = to_tensor(input)
        ax = 0 if axis is None else int(axis._value if isinstance(axis, _TensorLike) else axis)
        if not -x._value.ndim <= ax < max(x._value.ndim, 1):
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"Expected dimension in the range [{-x._value.ndim}, {x._value.ndim}), but "
                f"got {ax}", prim.name)
        return apply(prim, (x,), {"axis": ax, "dtype": _dt.as_dtype(output_type)._np})

    return op


argmax = _arg(_ARGMAX)
argmin = _arg(_ARGMIN)


def add_n(inputs, name=None):
    """Sum of a list of tensors of one shape and dtype (``tf.math.add_n``).

    Raises:
        ValueError: for an empty list.
    """
    inputs = list(inputs)
    if not inputs:
        raise ValueError("inputs must be an iterable of at least one Tensor/IndexedSlices "
                         "with the same dtype and shape.")
    total = to_tensor(inputs[0])
    for t in inputs[1:]:
        total = add(total, t)
    return total if len(inputs) > 1 else _a.identity(total)

# ----------------------------------------------------------------------------- matmul


def _matmul_forward(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _matmul_error(values, attrs, exc):
    a, b = values
    return errors.InvalidArgumentError, (
        f"Matrix size-incompatible: In[0]: {_dims(np.shape(a))}, In[1]: {_dims(np.shape(b))}")


_MATMUL = primitive("MatMul", _matmul_forward, error=_matmul_error)
_BATCH_MATMUL = primitive("BatchMatMulV2", _matmul_forward, error=_matmul_error)


def _matmul_grad_a(g, y, a, b, transpose_a, transpose_b):
    if not transpose_a:
        return matmul(g, b, transpose_b=not transpose_b)
    return matmul(b, g, transpose_a=transpose_b, transpose_b=True)


def _matmul_grad_b(g, y, a, b, transpose_a, transpose_b):
    if not transpose_b:
        return matmul(a, g, transpose_a=not transpose_a)
    return matmul(g, a, transpose_a=True, transpose_b=transpose_a)


for _p in (_MATMUL, _BATCH_MATMUL):
    defvjp(_p, _matmul_grad_a, _matmul_grad_b)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False,
           grad_b=False, name=None):
    """Matrix product ``a @ b`` over the last two axes (``tf.linalg.matmul``).

    Args:
        a: a tensor of shape ``[..., m, k]`` (``[..., k, m]`` if transposed), rank >= 2.
        b: a tensor of shape ``[..., k, n]`` (``[..., n, k]`` if transposed), same dtype.
        transpose_a, transpose_b: transpose the last two axes first.
        adjoint_a, adjoint_b: conjugate-transpose first.

    Returns:
        A tensor of shape ``[..., m, n]``; leading (batch) axes broadcast.

    Raises:
        tf.errors.InvalidArgumentError: for rank < 2, mismatched inner dimensions or dtypes.
    """
    a, b = pair(a, b, "MatMul")
    if adjoint_a:
        a = _a.conj(a)
        transpose_a = True
    if adjoint_b:
        b = _a.conj(b)
        transpose_b = True
    ra, rb = a._value.ndim, b._value.ndim
    if ra < 2 or rb < 2:
        k = 0 if ra < 2 else 1
        if max(ra, rb) <= 2:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"In[{k}] ndims must be >= 2", "MatMul")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"In[{k}] ndims must be >= 2: {min(ra, rb)}", "BatchMatMulV2")
    prim = _MATMUL if ra == 2 and rb == 2 else _BATCH_MATMUL
    return apply(prim, (a, b), {"transpose_a": bool(transpose_a),
                                "transpose_b": bool(transpose_b)})


def _matvec_forward(a, b, transpose_a):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    return np.matmul(a, b[..., None])[..., 0]


def _matvec_error(values, attrs, exc):
    a, b = values
    return errors.InvalidArgumentError, (
        f"Matrix size-incompatible: In[0]: {_dims(np.shape(a))}, In[1]: "
        f"{_dims(np.shape(b) + (1,))}")


# A primitive, not matmul between reshapes: Hessian-vector products over vectors run
# through it several times per call, and each reshape is a recorded op.
_MATVEC = primitive("MatVec", _matvec_forward, error=_matvec_error)


def _matvec_grad_a(g, y, a, b, transpose_a):
    outer = multiply(_a.expand_dims(g, -1), _a.expand_dims(b, -2))
    return _a.transpose(outer, _swap_last(outer)) if transpose_a else outer


def _swap_last(t):
    n = t._value.ndim
    return list(range(n - 2)) + [n - 1, n - 2]


defvjp(_MATVEC, _matvec_grad_a,
       lambda g, y, a, b, transpose_a: matvec(a, g, transpose_a=not transpose_a))


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Matrix-vector product ``a @ b`` (``tf.linalg.matvec``).

    Args:
        a: a tensor of shape ``[..., m, n]`` (``[..., n, m]`` if transposed), rank >= 2.
        b: a tensor of shape ``[..., n]``, same dtype; batch axes broadcast.
        transpose_a, adjoint_a: transpose (conjugate-transpose) ``a`` first.

    Returns:
        A tensor of shape ``[..., m]``.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched inner dimensions or dtypes.
    """
    a, b = pair(a, b, "MatMul")
    if adjoint_a:
        a = _a.conj(a)
        transpose_a = True
    if a._value.ndim < 2 or b._value.ndim < 1:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"In[0] ndims must be >= 2: {a._value.ndim}", "MatMul")
    return apply(_MATVEC, (a, b), {"transpose_a": bool(transpose_a)})
