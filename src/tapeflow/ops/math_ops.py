"""Element-wise arithmetic, comparisons, argmax/argmin and matmul: forward and derivative
side by side.

Every rule is written with these same ops, so gradients are differentiable again. A primitive
that does not save its inputs hands its rules their shapes instead.
"""
import operator

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, op_failed, record
from .._core.registry import defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from . import _kernels
from . import array_ops as _a
from . import composite_dispatch as _composite
from ._helpers import (
    _ADD_TYPES,
    _FLOORMOD_TYPES,
    _MINMAX_TYPES,
    _MUL_TYPES,
    _POW_TYPES,
    _SIGNED_TYPES,
    _SQDIFF_TYPES,
    _SUB_TYPES,
    FLOAT_COMPLEX_TYPES,
    bool_operands,
    check_kind,
    dtype_mismatch,
    kind_of,
    like,
    matmul_dtype_check,
    no_bool,
    no_kernel,
    op_doc,
    pair,
    public_op,
    same_dtype_or_type_error,
    to_tensor,
)
from .array_ops import _CAST, cast, ones_like, zeros_like

__all__ = [
    "add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod",
    "negative", "pow", "square", "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "abs",
    "sign", "tanh", "sigmoid", "maximum", "minimum", "reciprocal", "sin", "cos",
    "softplus", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not", "logical_xor", "argmax", "argmin", "matmul",
    "add_n", "squared_difference", "round", "floor", "ceil", "is_nan", "is_finite", "is_inf",
    "matvec", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
    "divide_no_nan", "xlogy", "xdivy", "xlog1py", "log_sigmoid", "softsign", "truncatediv",
    "truncatemod", "real", "imag", "polyval", "rint", "reciprocal_no_nan", "scalar_mul",
    "multiply_no_nan",
]


def _broadcast_error(values, attrs, exc):
    if "broadcast" not in str(exc):
        return errors.InvalidArgumentError, str(exc)
    shapes = [list(np.shape(v)) for v in values]
    text = " vs. ".join("[" + ",".join(str(d) for d in s) + "]" for s in shapes)
    return errors.shape_mismatch(f"Incompatible shapes: {text}")


# ----------------------------------------------------------------------------- binary


def _binary_doc(prim, name, what, dtypes, raises=(), returns=None):
    return op_doc(
        prim, name, what,
        [f"x: a tensor of {dtypes} (or a value ``tf.convert_to_tensor`` takes).",
         "y: a tensor of ``x``'s dtype, or a Python number (taken in ``x``'s dtype)."],
        returns or "A tensor of the broadcast shape of ``x`` and ``y``, of their dtype.",
        ["tf.errors.InvalidArgumentError: if the shapes do not broadcast, or the dtypes",
         "    differ.", *raises],
        notes=" ``x`` and ``y`` broadcast against each other as NumPy arrays do.")


_BOOL = np.dtype(bool)
_F32 = np.dtype(np.float32)


def _refuse(x, kinds, allowed, op_name, on_bool, y):
    """The dtype check of a binary op, past its one-comparison fast test: TensorFlow's
    error for a dtype outside ``kinds`` (NotFoundError for complex FloorDiv, which has no
    CPU kernel), or ``on_bool(x, y)`` for an operator that gives bools a meaning."""
    if x._value.dtype is _BOOL and on_bool is not None:
        return on_bool(x, y)
    if x._value.dtype.kind == "c" and op_name == "FloorDiv":
        raise no_kernel(x, op_name)
    check_kind(x, kinds, op_name, allowed)


def _binary(prim, name, what, dtypes="a numeric dtype", raises=(), kinds="fiuc", allowed=None,
            on_bool=None, check_kinds=False, strings=False):
    """The public function ``name`` of a binary element-wise primitive. This is the hot
    path: two tensors of one dtype go straight to NumPy, a Tensor and the recording check.

    ``kinds`` are the NumPy dtype kinds the op takes (``allowed`` names them as TensorFlow's
    error does); bool alone is refused by one identity test, other kinds by the kind letter.
    ``on_bool`` gives bools a meaning instead (Python's ``*`` on bool tensors is a logical
    and). String tensors (even size-0) are refused by an identity test unless ``strings``."""
    op_name = prim.name
    forward = prim.forward
    by_kind = kinds != "fiuc" or check_kinds  # (a kind test costs ~20 ns, an identity ~5 ns)
    refused = _BOOL if strings else np.dtype(object)  # (object: a string tensor's dtype)

    def op(x, y, name=None):
        if isinstance(x, _TensorLike):
            if not isinstance(y, _TensorLike):
                try:
                    y = like(y, x)
                except TypeError:  # pair raises TensorFlow's error for this op (AddV2's differs)
                    if on_bool is not None and x._value.dtype is _BOOL:
                        return on_bool(x, y)
                    x, y = pair(x, y, op_name)
                except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
                    return _composite.binary(op, x, y)
                dt = x._value.dtype
            elif (dt := x._value.dtype) is not y._value.dtype:
                if on_bool is not None and _BOOL in (dt, y._value.dtype):
                    return on_bool(x, y)
                if dt.kind == "c" and op_name == "FloorDiv":
                    raise no_kernel(x, op_name)   # TF looks the kernel up by x's dtype first
                raise dtype_mismatch(op_name, 1, dt, y._value.dtype)
        else:
            try:
                x, y = pair(x, y, op_name)
            except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
                return _composite.binary(op, x, y)
            dt = x._value.dtype
        if dt is _BOOL or dt is refused or (by_kind and dt.kind not in kinds):
            out = _refuse(x, kinds, allowed, op_name, on_bool, y)
            if out is not None:
                return out
        try:
            out = Tensor(forward(x._value, y._value))
        except Exception as exc:  # noqa: BLE001 - rethrown as TensorFlow's class
            out = Tensor(op_failed(prim, (x._value, y._value), None, exc))
        if ACTIVE[0]:
            record(prim, (x, y), out, None)
        return out

    return public_op(op, name, _binary_doc(prim, name, what, dtypes, raises))


def _pow_forward(x, y):
    if x.dtype.kind == "c":
        return _kernels.complex_pow(x, y)
    if x.dtype.kind in "iu" and np.any(np.asarray(y) < 0) and np.broadcast(x, y).size:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Integers to negative integer powers are not allowed", "Pow")
    return x ** y


def _int_division_check(fn):
    # Integer division by zero raises, as in TensorFlow, instead of NumPy's warning.
    def forward(x, y):
        # (an empty result divides nothing: TF raises only for a zero it divides by)
        if x.dtype.kind in "iu" and x.size and np.any(np.asarray(y) == 0):
            raise ZeroDivisionError("Integer division by zero")
        return fn(x, y)
    return forward


def _int_division_error(values, attrs, exc):
    if isinstance(exc, ZeroDivisionError):
        return errors.InvalidArgumentError, "Integer division by zero"
    return _broadcast_error(values, attrs, exc)


# Python's operators reach NumPy's scalar fast paths: 0.07 us for two float32 scalars where
# the ufunc call takes 0.6 us; on arrays they are the same ufuncs.
_ADD = primitive("AddV2", operator.add, save_inputs=False, error=_broadcast_error)
_SUB = primitive("Sub", operator.sub, save_inputs=False, error=_broadcast_error)
_MUL = primitive("Mul", operator.mul, error=_broadcast_error)
_DIV = primitive("RealDiv", operator.truediv, save_output=True, error=_broadcast_error)
_FLOORDIV = nondifferentiable("FloorDiv", _int_division_check(_kernels.floordiv),
                              error=_int_division_error)
_FLOORMOD = primitive("FloorMod", _int_division_check(_kernels.floormod),
                      error=_int_division_error)
_POW = primitive("Pow", _pow_forward, save_output=True, error=_broadcast_error)
_MAX = primitive("Maximum", np.maximum, error=_broadcast_error)
_MIN = primitive("Minimum", np.minimum, error=_broadcast_error)
_SQDIFF = primitive("SquaredDifference", _kernels.squared_difference, error=_broadcast_error)

_INT_DIVISION = ("tf.errors.InvalidArgumentError: for an integer division by zero.",)
add = _binary(_ADD, "add", "``x + y``, element-wise", allowed=_ADD_TYPES, strings=True)
subtract = _binary(_SUB, "subtract", "``x - y``, element-wise", allowed=_SUB_TYPES)
multiply = _binary(_MUL, "multiply", "``x * y``, element-wise", allowed=_MUL_TYPES)
# TF's Tensor.__mul__ with a bool operand: both sides cast to int32 and the product to bool
_mul_operator = _binary(_MUL, "multiply", "``x * y``, element-wise", allowed=_MUL_TYPES,
                        on_bool=lambda x, y: cast(multiply(cast(x, _dt.int32),
                                                           cast(y, _dt.int32)), _dt.bool))
floordiv = _binary(_FLOORDIV, "floordiv", "``x // y``, rounding toward minus infinity",
                   raises=_INT_DIVISION, kinds="fiu", allowed=_MUL_TYPES)
floormod = mod = _binary(
    _FLOORMOD, "floormod", "``x % y`` with the sign of ``y`` (the remainder of floordiv)",
    raises=_INT_DIVISION, kinds="fiu", allowed=_FLOORMOD_TYPES)
maximum = _binary(_MAX, "maximum", "The larger of ``x`` and ``y``, element-wise", kinds="fiu",
                  allowed=_MINMAX_TYPES)
minimum = _binary(_MIN, "minimum", "The smaller of ``x`` and ``y``, element-wise",
                  kinds="fiu", allowed=_MINMAX_TYPES)
squared_difference = _binary(_SQDIFF, "squared_difference",
                             "``(x - y) ** 2``, element-wise", allowed=_SQDIFF_TYPES)
_realdiv = _binary(_DIV, "realdiv", "``x / y`` for floats, element-wise",
                   allowed=FLOAT_COMPLEX_TYPES)
_pow = _binary(_POW, "pow", "``x ** y``, element-wise", allowed=_POW_TYPES, check_kinds=True)


def divide(x, y, name=None):
    """``x / y`` element-wise (``tf.math.divide``, TF's truediv).

    Integer inputs are first cast to float64 (int32, int64) or float32 (8/16-bit),
    as TensorFlow does. Shapes broadcast. Also ``tf.math.truediv``.

    Args:
        x: a numeric tensor (or a value ``tf.convert_to_tensor`` takes).
        y: a tensor of ``x``'s dtype, or a Python number.
        name: TensorFlow's op name; unused.

    Returns:
        A float (or complex) tensor of the broadcast shape.

    Raises:
        tf.errors.InvalidArgumentError: for different dtypes or incompatible shapes.
    """
    if isinstance(x, _TensorLike) and isinstance(y, _TensorLike) and x.dtype != y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != "
                        f"{y.dtype!r}.")
    try:
        x, y = pair(x, y, "RealDiv")
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.binary(divide, x, y)
    kind = x._value.dtype.kind
    if kind != "f":
        if kind == "c":
            return apply(_CDIV, (x, y))
        if kind in "bOSU":   # bools and strings: no entry in TF's truediv table
            raise TypeError(f"Invalid dtype tf.{'bool' if kind == 'b' else 'string'} in "
                            "__truediv__. Expected one of {tf.uint8, tf.int8, tf.uint16, "
                            "tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
                            "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128}.")
        if kind in "iu":
            target = _dt.float64 if x._value.dtype.itemsize >= 4 else _dt.float32
            x, y = cast(x, target), cast(y, target)
    return apply(_DIV, (x, y))


truediv = divide


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    """``x ** y`` element-wise (``tf.math.pow``); shapes broadcast, dtypes must agree.

    A Python exponent of 2 (``x ** 2``, the usual squared error) runs as Square, whose
    derivative needs no logarithm; the values are the same.

    Args:
        x: a numeric tensor (or a value ``tf.convert_to_tensor`` takes).
        y: a tensor of ``x``'s dtype, or a Python number.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of the broadcast shape and ``x``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for different dtypes, incompatible shapes, or a
            negative integer exponent of an integer tensor.
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
    # TF's association, (g * y) * x ** (y - 1): where it overflows decides its inf/nan
    # (complex products as Eigen's)
    mul = _cmul if x._value.dtype.kind == "c" else multiply
    return mul(mul(g, y), _pow(x, subtract(y, 1)))


def _pow_grad_exponent(g, z, x, y):
    # TF's (g * z) * log(x), log(x) taken as 0 where x <= 0 (x == 0 for complex)
    if x._value.dtype.kind == "c":
        mask = not_equal(x, 0)
        safe = _a.where(mask, x, ones_like(x))
        return _cmul(_cmul(g, z), _a.where(mask, log(safe), zeros_like(x)))
    mask = greater(x, 0)
    safe = _a.where(mask, x, ones_like(x))
    return multiply(multiply(g, z), _a.where(mask, log(safe), zeros_like(x)))


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


def _sqdiff_grad(g, y, x1, x2):  # TF's (2 g)(x1 - x2), the complex product as Eigen's
    return (_cmul if g._value.dtype.kind == "c" else multiply)(multiply(g, 2), subtract(x1, x2))


defvjp(_SQDIFF, _sqdiff_grad, lambda g, y, x1, x2: negative(_sqdiff_grad(g, y, x1, x2)))

# ----------------------------------------------------------------------------- unary


def _unary(prim, name, what, kinds=None, allowed=None, returns=None, not_found="", refuse=None):
    """The public function ``name`` of a one-input primitive, with an optional dtype-kind
    check (``not_found``: the kinds TF declares but has no CPU kernel for; ``refuse``: one
    dtype of an accepted kind refused too)."""
    op_name = prim.name
    forward = prim.forward
    # Bool alone refused: one identity test (the cheapest check); other tables by kind.
    refused = _BOOL if kinds == _NUMERIC else refuse
    by_kind = kinds is not None and kinds != _NUMERIC
    # float32, when accepted, passes by one identity test
    ok = _F32 if kinds and "f" in kinds and "f" not in not_found and refuse != _F32 else None

    def op(x, name=None):
        if not isinstance(x, _TensorLike):
            try:
                x = to_tensor(x)
            except ValueError:  # a RaggedTensor or SparseTensor: its values mapped
                return _composite.unary(op, x)
        if kinds is not None and (dt := x._value.dtype) is not ok and (dt is refused or (
                by_kind and dt.kind not in kinds)):
            if dt.kind in not_found:
                raise no_kernel(x, op_name)
            check_kind(x, kinds, op_name, allowed)
        try:
            out = Tensor(forward(x._value))
        except Exception as exc:  # noqa: BLE001 - rethrown as TensorFlow's class
            out = Tensor(op_failed(prim, (x._value,), None, exc))
        if ACTIVE[0]:
            record(prim, (x,), out, None)
        return out

    return public_op(op, name, op_doc(
        prim, name, what,
        [f"x: a tensor of {'one of: ' + allowed if allowed else 'a numeric dtype'}."],
        returns or "A tensor of ``x``'s shape and dtype.",
        ["tf.errors.InvalidArgumentError: for a dtype outside the list above."
         if allowed else "tf.errors.InvalidArgumentError: for a dtype the op does not take."]))


_NEG = primitive("Neg", operator.neg, save_inputs=False, error=no_bool("Neg", _SIGNED_TYPES))
_ABS = primitive("Abs", operator.abs)
_SQUARE = primitive("Square", _kernels.square)
_SQRT = primitive("Sqrt", np.sqrt, save_inputs=False, save_output=True)
_RSQRT = primitive("Rsqrt", _kernels.rsqrt, save_inputs=False, save_output=True)
_EXP = primitive("Exp", np.exp, save_inputs=False, save_output=True)
_LOG = primitive("Log", lambda x: _kernels.complex_log(x) if x.dtype.kind == "c" else
                 np.log(x))
_LOG1P = primitive("Log1p", lambda x: _kernels.complex_log1p(x) if x.dtype.kind == "c" else
                   np.log1p(x))
_EXPM1 = primitive("Expm1", _kernels.expm1, save_output=True)
_TANH = primitive("Tanh", np.tanh, save_inputs=False, save_output=True)
_SIGMOID = primitive("Sigmoid", _kernels.sigmoid, save_inputs=False, save_output=True)
_RECIP = primitive("Reciprocal", _kernels.reciprocal, save_inputs=False, save_output=True)
_SIN = primitive("Sin", np.sin)
_COS = primitive("Cos", np.cos)
_SOFTPLUS = primitive("Softplus", _kernels.softplus)
_SOFTSIGN = primitive("Softsign", lambda x: x / (np.abs(x) + 1))
_SIGN = primitive("Sign", np.sign, save_inputs=False, error=no_bool("Sign", _SIGNED_TYPES))
_ROUND = nondifferentiable("Round", np.round)
_FLOOR = nondifferentiable("Floor", np.floor)
_CEIL = nondifferentiable("Ceil", np.ceil)

_F = "fc"
_FC = FLOAT_COMPLEX_TYPES
_FL = "bfloat16, half, float, double"
_NUMERIC = "fiuc"
# Neg and Abs have no kernel for unsigned ints (TF's InvalidArgumentError): one kind test
negative = _unary(_NEG, "negative", "``-x``, element-wise", "fic", _SIGNED_TYPES)
abs = _unary(_ABS, "abs",  # noqa: A001 - TensorFlow's name
             "``|x|``, element-wise (the magnitude, for complex ``x``)", "fic",
             "bfloat16, half, float, double, int8, int16, int32, int64")
square = _unary(_SQUARE, "square", "``x * x``, element-wise", _NUMERIC,
                "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, "
                "uint32, uint64, complex64, complex128")
sqrt = _unary(_SQRT, "sqrt", "The square root of ``x``, element-wise", _F, _FC)
rsqrt = _unary(_RSQRT, "rsqrt", "``1 / sqrt(x)``, element-wise", _F, _FC)
exp = _unary(_EXP, "exp", "``e ** x``, element-wise", _F, _FC)
log = _unary(_LOG, "log", "The natural logarithm of ``x``, element-wise", _F, _FC)
log1p = _unary(_LOG1P, "log1p", "``log(1 + x)``, element-wise, accurate for small ``x``",
               _F, _FC)
expm1 = _unary(_EXPM1, "expm1", "``exp(x) - 1``, element-wise, accurate for small ``x``",
               _F, _FC)
tanh = _unary(_TANH, "tanh", "The hyperbolic tangent of ``x``, element-wise", _F, _FC)
sigmoid = _unary(_SIGMOID, "sigmoid", "``1 / (1 + exp(-x))``, element-wise", _F, _FC)
reciprocal = _unary(_RECIP, "reciprocal", "``1 / x``, element-wise", _F, _FC, not_found="iu")
sin = _unary(_SIN, "sin", "The sine of ``x`` (radians), element-wise", _F, _FC)
cos = _unary(_COS, "cos", "The cosine of ``x`` (radians), element-wise", _F, _FC)
softplus = _unary(_SOFTPLUS, "softplus", "``log(exp(x) + 1)``, element-wise", "f",
                  "half, bfloat16, float, double")
sign = _unary(_SIGN, "sign", "-1, 0 or 1 as ``x`` is negative, zero or positive, element-wise")
round = _unary(_ROUND, "round",  # noqa: A001 - TensorFlow's name
               "``x`` rounded to the nearest integer (halves to even), element-wise", "fiu",
               "bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
               "complex128", not_found="c")
floor = _unary(_FLOOR, "floor", "The largest integer not above ``x``, element-wise", "f", _FL)
ceil = _unary(_CEIL, "ceil", "The smallest integer not below ``x``, element-wise", "f", _FL)

defvjp(_NEG, lambda g, y, x: negative(g))
defvjp(_ABS, lambda g, y, x: multiply(g, sign(x)))


def _square_rule(g, y, x):
    if g._value.dtype.kind != "c":
        return multiply(g, multiply(x, 2))
    # TF's g * (conj(x) * 2), its complex products as Eigen's (inf, not nan, past the last
    # whole packet)
    return _cmul(g, _cmul(_a.conj(x), convert_to_tensor(2, dtype=x.dtype)))


defvjp(_SQUARE, _square_rule)
defvjp(_EXP, lambda g, y, x: multiply(g, y))
defvjp(_LOG, lambda g, y, x: multiply(g, reciprocal(x)))  # TF's, not g / x (one rounding)
# TF's g * reciprocal(1 + x): its second derivative through ReciprocalGrad (grad_kernels)
defvjp(_LOG1P, lambda g, y, x: multiply(g, reciprocal(add(1, x))))
defvjp(_EXPM1, lambda g, y, x: multiply(g, exp(x)))  # TF's g exp(conj x), not y + 1
# As TensorFlow's TanhGrad and SigmoidGrad: the first derivative is one NumPy expression
# (one op instead of three), and it is itself differentiable for higher orders.
_TANH_GRAD = primitive("TanhGrad", lambda y, g: g * (1 - y * y))
_SIGMOID_GRAD = primitive("SigmoidGrad", lambda y, g: g * (y * (1 - y)))
defvjp(_TANH, lambda g, y, x: apply(_TANH_GRAD, (y, g)))
defvjp(_SIGMOID, lambda g, y, x: apply(_SIGMOID_GRAD, (y, g)))
defvjp(_TANH_GRAD,
       lambda gg, out, y, g: multiply(gg, multiply(g, multiply(y, -2))),
       lambda gg, out, y, g: apply(_TANH_GRAD, (y, gg)))
# TF's order gb - 2 gb y, gb = gg g (an infinite gb gives inf - inf = nan, as TF's)
defvjp(_SIGMOID_GRAD, lambda gg, out, y, g: (lambda gb: subtract(gb, multiply(multiply(
    gb, 2), y)))(multiply(gg, g)), lambda gg, out, y, g: apply(_SIGMOID_GRAD, (y, gg)))
defvjp(_RECIP, lambda g, y, x: negative(multiply(g, square(y))))
defvjp(_SIN, lambda g, y, x: multiply(g, cos(x)))
defvjp(_COS, lambda g, y, x: negative(multiply(g, sin(x))))
defvjp(_SOFTPLUS, lambda g, y, x: multiply(g, sigmoid(x)))
defvjp(_SOFTSIGN, lambda g, y, x: _realdiv(g, square(add(abs(x), 1))))  # TF's SoftsignGrad
defvjp(_SIGN, lambda g, y, x_shape: zeros_like(g))  # zeros, not None, as TensorFlow

# ------------------------------------------------------------------ comparisons, logic


_BOOL_RESULT = "A bool tensor of the broadcast shape of ``x`` and ``y``."


def _paired(prim, name, what, dtypes, kinds=None, allowed=None, returns=None):
    """A binary op whose operands pair as ``pair`` does, refusing a dtype kind outside
    ``kinds`` (NumPy kind letters, None for any) with TensorFlow's error."""
    op_name = prim.name

    def op(x, y, name=None):
        try:
            x, y = pair(x, y, op_name)
        except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
            return _composite.binary(op, x, y)
        if kinds is not None and x._value.dtype.kind not in kinds:
            check_kind(x, kinds, op_name, allowed)
        return apply(prim, (x, y))

    return public_op(op, name, _binary_doc(prim, name, what, dtypes, returns=returns))


def _compare(prim, name, what, ordered=False):
    return _paired(prim, name, what, "a numeric dtype", "fiu" if ordered else None,
                   _ORDERED_TYPES if ordered else None, _BOOL_RESULT)


equal = _compare(nondifferentiable("Equal", np.equal, error=_broadcast_error), "equal",
                 "Whether ``x == y``, element-wise")
not_equal = _compare(nondifferentiable("NotEqual", np.not_equal, error=_broadcast_error),
                     "not_equal", "Whether ``x != y``, element-wise")
_ORDERED_TYPES = ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
                  "uint32, uint64")
less = _compare(nondifferentiable("Less", np.less, error=_broadcast_error), "less",
                "Whether ``x < y``, element-wise", True)
less_equal = _compare(nondifferentiable("LessEqual", np.less_equal, error=_broadcast_error),
                      "less_equal", "Whether ``x <= y``, element-wise", True)
greater = _compare(nondifferentiable("Greater", np.greater, error=_broadcast_error),
                   "greater", "Whether ``x > y``, element-wise", True)
greater_equal = _compare(nondifferentiable("GreaterEqual", np.greater_equal,
                                           error=_broadcast_error),
                         "greater_equal", "Whether ``x >= y``, element-wise", True)
_LAND = nondifferentiable("LogicalAnd", np.logical_and, error=_broadcast_error)
_LOR = nondifferentiable("LogicalOr", np.logical_or, error=_broadcast_error)
_LNOT = nondifferentiable("LogicalNot", np.logical_not)


def _logical(prim, name, what):
    return bool_operands(_paired(prim, name, what, "dtype bool", "b", "bool", _BOOL_RESULT))


logical_and = _logical(_LAND, "logical_and", "``x AND y`` of bool tensors, element-wise")
logical_or = _logical(_LOR, "logical_or", "``x OR y`` of bool tensors, element-wise")


logical_not = _unary(_LNOT, "logical_not", "Element-wise NOT of a bool tensor", "b", "bool",
                     "A bool tensor of ``x``'s shape; no gradient.")


def logical_xor(x, y, name="LogicalXor"):
    """Element-wise XOR of bool tensors (``tf.math.logical_xor``)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


_BOOL_OUT = "A bool tensor of ``x``'s shape."
is_nan = _unary(nondifferentiable("IsNan", np.isnan), "is_nan",
                "Whether ``x`` is NaN, element-wise", "f", _FL, _BOOL_OUT)
is_inf = _unary(nondifferentiable("IsInf", np.isinf), "is_inf",
                "Whether ``x`` is infinite, element-wise", "f", _FL, _BOOL_OUT)
is_finite = _unary(nondifferentiable("IsFinite", np.isfinite), "is_finite",
                   "Whether ``x`` is neither infinite nor NaN, element-wise", "f", _FL,
                   _BOOL_OUT)


def _scalar_like(v, ref):
    """``v`` in ``ref``'s dtype; a Python number converts straight to it (not via float32)."""
    if isinstance(v, _TensorLike):
        return cast(v, ref.dtype)
    return convert_to_tensor(v, dtype=ref.dtype)


# ----------------------------------------------------------------------------- reductions
# The reductions and cumulative ops live in reduction_ops.py; their names stay public here.

_ARGMAX = nondifferentiable("ArgMax", _kernels.arg_extremum(np.argmax, -np.inf))
_ARGMIN = nondifferentiable("ArgMin", _kernels.arg_extremum(np.argmin, np.inf))


def _arg(prim, name, what):
    def op(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
        x = to_tensor(input)
        if x._value.dtype.kind not in "fiub":
            check_kind(x, "fiub", prim.name, _ORDERED_TYPES + ", qint8, quint8, qint32, "
                       "qint16, quint16, bool")
        ax = 0 if axis is None else int(
            static_value(axis) if isinstance(axis, _TensorLike) else axis)
        if not -x._value.ndim <= ax < x._value.ndim:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"Expected dimension in the range [{-x._value.ndim}, {x._value.ndim}), but "
                f"got {ax}", prim.name)
        return apply(prim, (x,), {"axis": ax, "dtype": _dt.as_dtype(output_type)._np})

    return public_op(op, name, op_doc(
        prim, name, what,
        ["input: a numeric tensor.",
         "axis: the axis to reduce, in ``[-rank, rank)``; default 0.",
         "output_type: ``tf.int64`` (default) or ``tf.int32``."],
        "An ``output_type`` tensor of ``input``'s shape without ``axis``.",
        ["tf.errors.InvalidArgumentError: for an axis out of range."],
        notes=" The first index wins a tie."))


argmax = _arg(_ARGMAX, "argmax", "The index of the largest value along ``axis``")
argmin = _arg(_ARGMIN, "argmin", "The index of the smallest value along ``axis``")


def add_n(inputs, name=None):
    """Sum of a list of tensors of one shape and dtype (``tf.math.add_n``).

    Args:
        inputs: a non-empty list of tensors of one shape and dtype.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of that shape and dtype; each input's gradient is the incoming gradient.

    Raises:
        ValueError: for an empty list.
    """
    inputs = list(inputs)
    if not inputs:
        raise ValueError("inputs must be an iterable of at least one Tensor/IndexedSlices "
                         "with the same dtype and shape.")
    try:
        total = to_tensor(inputs[0])
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("add_n", inputs)
    for i, t in enumerate(inputs[1:], 1):
        t = to_tensor(t)
        if t._value.shape != total._value.shape:  # AddN does not broadcast
            raise errors.op_error(
                errors.InvalidArgumentError, "Inputs to operation AddN of type AddN must have "
                f"the same size and shape.  Input 0: {_a._show(total._value.shape)} != input "
                f"{i}: {_a._show(t._value.shape)}", "AddN")
        total = add(total, t)
    return total if len(inputs) > 1 else _a.identity(total)

# ----------------------------------------------------------------------------- matmul


def _matmul_forward(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if a.dtype.char == "e" and a.ndim == 2 and b.ndim == 2:  # float16: TF's float32 order
        return _kernels.half_matmul(a, b)
    out = np.matmul(a, b)
    if out.dtype.kind == "c" and not np.isfinite(out).all():
        out = _kernels.complex_matmul(a, b, a.ndim > 2 or b.ndim > 2)  # Eigen's inf/nan
    return out if out.dtype is a.dtype or out.dtype == a.dtype else out.astype(a.dtype)  # bf16


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _matmul_error(values, attrs, exc):
    a, b = values
    sa, sb = np.shape(a), np.shape(b)
    if len(sa) > 2 and len(sb) > 2:
        try:
            np.broadcast_shapes(sa[:-2], sb[:-2])
        except ValueError:
            return errors.InvalidArgumentError, ("In[0] and In[1] must have compatible batch "
                                                 f"dimensions: {_dims(sa)} vs. {_dims(sb)}")
    return errors.shape_mismatch(
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
    if a._value.dtype.kind not in "fc":
        if a._value.dtype.kind not in "iu":
            _a.matmul_conj_check(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b)
        matmul_dtype_check(a, b)
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
    return _kernels.matvec(a, b)


def _matvec_error(values, attrs, exc):
    a, b = values
    return errors.shape_mismatch(
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
    if a._value.dtype.kind not in "fiuc":
        check_kind(a, "fiuc", "MatMul", "bfloat16, half, float, double, int32, int64, uint8, "
                   "uint16, uint32, uint64, int8, int16, complex64, complex128")
    if adjoint_a:
        a = _a.conj(a)
        transpose_a = True
    if a._value.ndim < 2 or b._value.ndim < 1:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"In[0] ndims must be >= 2: {a._value.ndim}", "MatMul")
    return apply(_MATVEC, (a, b), {"transpose_a": bool(transpose_a)})


# ------------------------------------------------ more element-wise functions


_FLOATS = _FL


def _float_unary(prim, name, what, complex_ok=True, not_found=""):
    if complex_ok:
        return _unary(prim, name, what, _F, FLOAT_COMPLEX_TYPES, not_found=not_found)
    return _unary(prim, name, what, "f", _FLOATS, not_found=not_found)


_TAN = primitive("Tan", np.tan, save_output=True)
_ASIN = primitive("Asin", np.arcsin)
_ACOS = primitive("Acos", np.arccos)
_ATAN = primitive("Atan", np.arctan)
_SINH = primitive("Sinh", np.sinh)
_COSH = primitive("Cosh", np.cosh)
_ASINH = primitive("Asinh", np.arcsinh, save_output=True)
_ACOSH = primitive("Acosh", np.arccosh, save_output=True)
_ATANH = primitive("Atanh", np.arctanh)

tan = _float_unary(_TAN, "tan", "The tangent of ``x`` (radians), element-wise")
asin = _float_unary(_ASIN, "asin", "The arcsine of ``x``, in ``[-pi/2, pi/2]``, element-wise")
acos = _float_unary(_ACOS, "acos", "The arccosine of ``x``, in ``[0, pi]``, element-wise")
atan = _float_unary(_ATAN, "atan", "The arctangent of ``x``, in ``(-pi/2, pi/2)``, element-wise")
sinh = _float_unary(_SINH, "sinh", "The hyperbolic sine of ``x``, element-wise")
cosh = _float_unary(_COSH, "cosh", "The hyperbolic cosine of ``x``, element-wise")
asinh = _float_unary(_ASINH, "asinh", "The inverse hyperbolic sine of ``x``, element-wise")
acosh = _float_unary(_ACOSH, "acosh",
                     "The inverse hyperbolic cosine of ``x`` (``x >= 1``), element-wise")
atanh = _float_unary(_ATANH, "atanh",
                     "The inverse hyperbolic tangent of ``x`` (``|x| < 1``), element-wise")

defvjp(_TAN, lambda g, y, x: multiply(g, add(square(y), 1)))
defvjp(_ASIN, lambda g, y, x: multiply(g, rsqrt(subtract(1, square(x)))))
defvjp(_ACOS, lambda g, y, x: negative(multiply(g, rsqrt(subtract(1, square(x))))))
def _atan_rule(g, y, x):
    # TF's g * reciprocal(1 + x ** 2) (for complex its product as Eigen's)
    inv = reciprocal(add(square(x), 1))
    return multiply(g, inv) if g._value.dtype.kind != "c" else _cmul(g, inv)


defvjp(_ATAN, _atan_rule)
defvjp(_SINH, lambda g, y, x: multiply(g, cosh(x)))
defvjp(_COSH, lambda g, y, x: multiply(g, sinh(x)))
# TF's g / cosh(asinh(x)): finite where 1 + x ** 2 overflows (float16 beyond 256)
defvjp(_ASINH, lambda g, y, x: _realdiv(g, cosh(y)))
# 1 / sinh(acosh(x)), as TensorFlow's: for complex x it is 1 / (sqrt(x - 1) sqrt(x + 1)),
# on a different branch from 1 / sqrt(x**2 - 1); the same for real x >= 1.
defvjp(_ACOSH, lambda g, y, x: _realdiv(g, sinh(y)) if g._value.dtype.kind != "c" else
       apply(_CDIV, (g, sinh(y))))
defvjp(_ATANH, lambda g, y, x: _realdiv(g, subtract(1, square(x))))


def _atan2_grad_y(g, z, y, x):
    return multiply(g, _realdiv(x, add(square(x), square(y))))


def _atan2_grad_x(g, z, y, x):
    return negative(multiply(g, _realdiv(y, add(square(x), square(y)))))


_ATAN2 = primitive("Atan2", np.arctan2, error=_broadcast_error)
defvjp(_ATAN2, _atan2_grad_y, _atan2_grad_x)


def atan2(y, x, name=None):
    """The angle of the point ``(x, y)``, in ``[-pi, pi]`` (``tf.math.atan2``).

    Args:
        y, x: float tensors of one dtype; shapes broadcast.

    Returns:
        A tensor of the broadcast shape and the inputs' dtype.

    Raises:
        tf.errors.InvalidArgumentError: for different dtypes or incompatible shapes.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.math.atan2(1.0, -1.0).numpy())
        2.3561945
    """
    y, x = pair(y, x, "Atan2")
    check_kind(y, "f", "Atan2", _FLOATS)
    return apply(_ATAN2, (y, x))


# ------------------------------------------------------------ safe division and logs


_k = _kernels
_DIVNONAN = primitive("DivNoNan", _k.nan_safe(_k.div_no_nan), error=_broadcast_error)
_XLOGY = primitive("Xlogy", _k.nan_safe(_k.xlogy), error=_broadcast_error)
_XLOG1PY = primitive("Xlog1py", _k.nan_safe(_k.xlog1py), error=_broadcast_error)
_XDIVY = primitive("Xdivy", _k.nan_safe(_k.xdivy), error=_broadcast_error)


def _nonzero(x):
    return cast(not_equal(x, 0), x.dtype)


defvjp(_DIVNONAN, lambda g, z, x, y: divide_no_nan(g, y),
       lambda g, z, x, y: multiply(g, divide_no_nan(divide_no_nan(negative(x), y), y)))
defvjp(_XLOGY, lambda g, z, x, y: multiply(g, xlogy(_nonzero(x), y)),
       lambda g, z, x, y: multiply(g, xdivy(x, y)))
defvjp(_XLOG1PY, lambda g, z, x, y: multiply(g, xlog1py(_nonzero(x), y)),
       lambda g, z, x, y: multiply(g, xdivy(x, add(y, 1))))
# TF's: xdivy(x != 0, y) * g and xdivy(-x, y ** 2) * g, y ** 2 a Pow as TF's (its second
# derivatives' nan/inf: Pow's gradient (g * 2) * y overflows in float16 before 2 * y does)
defvjp(_XDIVY, lambda g, z, x, y: multiply(g, xdivy(_nonzero(x), y)),
       lambda g, z, x, y: multiply(xdivy(negative(x), _pow(y, 2)), g))


def _safe_binary(prim, name, what):
    return _paired(prim, name, what, "a float or complex dtype", _F,
                   "half, float, bfloat16, double, complex64, complex128")


_divide_no_nan_float = _safe_binary(_DIVNONAN, "divide_no_nan",
                                    "``x / y``, 0 where ``y == 0``, of floats")


def divide_no_nan(x, y, name=None):
    """``x / y``, but 0 where ``y == 0`` (``tf.math.divide_no_nan``).

    Integer inputs are first cast to float64 (int32, int64) or float32, as ``divide``.

    Args:
        x, y: tensors of one dtype; shapes broadcast.

    Raises:
        TypeError: for tensors of two dtypes; InvalidArgumentError: for incompatible shapes.

    Example:
        >>> import tapeflow as tf
        >>> x, y = tf.constant([3.0, 1.0]), tf.constant([2.0, 0.0])
        >>> print(tf.math.divide_no_nan(x, y).numpy())
        [1.5 0. ]
    """
    same_dtype_or_type_error(x, y)   # TF's div_no_nan wrapper, before any kernel
    x, y = pair(x, y, "DivNoNan")
    if x._value.dtype.kind == "b":
        raise TypeError("Invalid dtype tf.bool in tf.math.divide_no_nan. Expected one of "
                        "{tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, "
                        "tf.uint64, tf.int64, tf.bfloat16, tf.float16, tf.float32, "
                        "tf.float64, tf.complex64, tf.complex128}.")
    if x._value.dtype.kind in "iu":
        target = _dt.float64 if x._value.dtype.itemsize >= 4 else _dt.float32
        x, y = cast(x, target), cast(y, target)
    return _divide_no_nan_float(x, y)


xlogy = _safe_binary(_XLOGY, "xlogy", "``x * log(y)``, but 0 where ``x == 0``")
xlog1py = _safe_binary(_XLOG1PY, "xlog1py", "``x * log1p(y)``, but 0 where ``x == 0``")
xdivy = _safe_binary(_XDIVY, "xdivy", "``x / y``, but 0 where ``x == 0``")


def reciprocal_no_nan(x, name=None):
    """``1 / x``, but 0 where ``x == 0`` (``tf.math.reciprocal_no_nan``)."""
    x = to_tensor(x)
    if x._value.dtype.kind in "iu":  # TF's DivNoNan kernel: no int cast as divide_no_nan's
        check_kind(x, "fc", "DivNoNan", "half, float, bfloat16, double, complex64, complex128")
    return divide_no_nan(ones_like(x), x)


def log_sigmoid(x, name=None):
    """``log(sigmoid(x)) = -softplus(-x)``, computed stably (``tf.math.log_sigmoid``)."""
    return negative(softplus(negative(to_tensor(x))))


def softsign(features, name=None):
    """``features / (1 + |features|)`` (``tf.nn.softsign``, ``tf.math.softsign``)."""
    check_kind(x := to_tensor(features), "f", "Softsign", _FLOATS)
    return apply(_SOFTSIGN, (x,))  # one op as TF's: its gradient 0 at +-inf, not nan


def _truncate_division_error(values, attrs, exc):  # TF's kernel misses x / 0: InternalError
    return _broadcast_error(values, attrs, exc) if not isinstance(exc, ZeroDivisionError) else (
        errors.InternalError, "Unexpected error in binary operator (only integer div and mod "
        "should have errors)")


_TRUNCDIV = nondifferentiable("TruncateDiv", _int_division_check(_kernels.truncatediv),
                              error=_truncate_division_error)
_TRUNCMOD = primitive("TruncateMod", _int_division_check(np.fmod), error=_truncate_division_error)
defvjp(_TRUNCMOD, lambda g, z, x, y: g,
       lambda g, z, x, y: negative(multiply(g, truncatediv(x, y))))


def truncatediv(x, y, name=None):
    """Division rounding toward zero (``tf.truncatediv``), as C does for integers.

    Raises:
        tf.errors.InternalError: for an integer division by zero (TensorFlow's class).
    """
    if isinstance(x, _TensorLike) and x._value.dtype.kind == "c":
        raise no_kernel(x, "TruncateDiv")  # the kernel lookup comes before the dtype match
    x, y = pair(x, y, "TruncateDiv")
    if x._value.dtype.kind not in "fiu":
        if x._value.dtype.kind == "c":
            raise no_kernel(x, "TruncateDiv")
        check_kind(x, "fiu", "TruncateDiv", _MUL_TYPES)
    return apply(_TRUNCDIV, (x, y))


def truncatemod(x, y, name=None):
    """The remainder of :func:`truncatediv`, with the sign of ``x`` (``tf.truncatemod``)."""
    x, y = pair(x, y, "TruncateMod")
    if x._value.dtype.kind not in "fiu":
        check_kind(x, "fiu", "TruncateMod", "int32, int64, bfloat16, half, float, double")
    return apply(_TRUNCMOD, (x, y))


_RINT = nondifferentiable("Rint", np.rint)  # float16: TF's CPU has no half kernel
rint = _unary(_RINT, "rint", "``x`` rounded to the nearest integer (halves to even), "
              "element-wise", "f", _FLOATS, not_found="f", refuse=np.dtype(np.float16))
_REAL = primitive("Real", np.real, save_inputs=False)
_IMAG = primitive("Imag", np.imag, save_inputs=False)


def real(input, name=None):  # noqa: A002 - TensorFlow's name
    """The real part of a complex tensor; real tensors unchanged (``tf.math.real``).

    Args:
        input: a tensor; complex64 gives float32, complex128 float64.
        name: TensorFlow's op name; unused.

    Returns:
        A real tensor of ``input``'s shape.
    """
    x = to_tensor(input)
    if x._value.dtype.kind != "c":
        if kind_of(x._value.dtype) not in "fiu":
            raise TypeError(f"input must be a numeric tensor, but got tensor with dtype "
                            f"{x.dtype!r}")
        return x
    return apply(_REAL, (x,))


def imag(input, name=None):  # noqa: A002 - TensorFlow's name
    """The imaginary part of a complex tensor; zeros for real ones (``tf.math.imag``).

    Args:
        input: a tensor; complex64 gives float32, complex128 float64.
        name: TensorFlow's op name; unused.

    Returns:
        A real tensor of ``input``'s shape.
    """
    x = to_tensor(input)
    if x._value.dtype.kind != "c":
        return zeros_like(x)
    return apply(_IMAG, (x,))


defvjp(_REAL, lambda g, y, x_shape: cast(g, _dt.complex128 if g.dtype == _dt.float64
                                         else _dt.complex64))
defvjp(_IMAG, lambda g, y, x_shape: multiply(
    cast(g, _dt.complex128 if g.dtype == _dt.float64 else _dt.complex64), 1j))


def polyval(coeffs, x, name=None):
    """``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` by Horner's rule (``tf.math.polyval``).

    Args:
        coeffs: a list of tensors (or numbers), highest degree first.
        x: a tensor.

    Raises:
        ValueError: if ``coeffs`` is not a list.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.math.polyval([2.0, 0.0, 1.0], tf.constant(3.0)).numpy())
        19.0
    """
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = to_tensor(x)
    if not coeffs:
        return zeros_like(x)
    p = coeffs[0]
    p = to_tensor(p) if isinstance(p, _TensorLike) else cast(p, x.dtype)
    # (one coefficient comes back as it is, not broadcast to x's shape, as TensorFlow's)
    for c in coeffs[1:]:
        p = add(multiply(p, x), c)
    return p


def _matvec_final_error(values, attrs, exc):
    # tf.linalg.matvec runs MatMul in TensorFlow, and its errors name that op.
    err = errors.op_error(*_matvec_error(values, attrs, exc)[:2], "MatMul")
    raise errors.static_shape(err) from None


_MATVEC.error = _matvec_final_error


# Complex gradients follow TensorFlow's convention: for a real loss L of z = x + iy the
# gradient is dL/dx + i dL/dy, so a holomorphic op passes g * conj(f'(z)). The rules above
# are written for real inputs (g * f'(z)); for complex cotangents each holomorphic rule is
# run as conj(rule(conj(g))), which gives exactly that, and leaves real dtypes untouched.


def _conj_aware(rule):
    def wrapped(g, y, *inputs, **attrs):
        if g._value.dtype.kind != "c":
            return rule(g, y, *inputs, **attrs)
        out = rule(_a.conj(g), y, *inputs, **attrs)
        return None if out is None else _a.conj(out)
    return wrapped


for _p in (_MUL, _DIV, _EXP, _LOG, _LOG1P, _EXPM1, _RECIP, _SIN,
           _COS, _TAN, _SINH, _COSH, _TANH, _SIGMOID, _TANH_GRAD, _SIGMOID_GRAD, _POW,
           _MATMUL, _BATCH_MATMUL, _MATVEC, _DIVNONAN, _XLOGY, _XDIVY, _XLOG1PY, _ASIN,
           _ACOS, _ATAN, _ASINH, _ACOSH, _ATANH):
    _p.vjps = tuple(None if r is None else _conj_aware(r) for r in _p.vjps)


def _complex_div_error(values, attrs, exc):
    cls, text = _broadcast_error(values, attrs, exc)
    raise errors.op_error(cls, text, "RealDiv") from None


# Complex division (TensorFlow's RealDiv on complex tensors) with Eigen's inf/nan behaviour:
# its own primitive so that real division keeps NumPy's operator as its forward.
_CDIV = primitive("RealDivComplex", _kernels.complex_div, save_output=True,
                  error=_complex_div_error)
# Complex products inside complex gradients, with Eigen's inf/nan (``_kernels.complex_mul``:
# C's recovery of infinities past the last whole packet); the user's ``x * y`` keeps NumPy's
# operator. TF's Mul gradient: g * conj(y), conj(x) * g.
_CMUL = primitive("MulComplex", _kernels.complex_mul, error=_broadcast_error)
defvjp(_CMUL, lambda g, z, x, y: _cmul(g, _a.conj(y)), lambda g, z, x, y: _cmul(_a.conj(x), g))


def _cmul(x, y):
    return apply(_CMUL, (x, y))


def _div_no_nan_grad_y(g, z, x, y):
    if g._value.dtype.kind != "c":
        return multiply(g, divide_no_nan(divide_no_nan(negative(x), y), y))
    cx, cy = _a.conj(x), _a.conj(y)
    return _cmul(g, divide_no_nan(divide_no_nan(negative(cx), cy), cy))


# TF's DivNoNan gradient: div_no_nan(g, conj(y)), g * div_no_nan(div_no_nan(-conj(x),
# conj(y)), conj(y)) (complex products as Eigen's)
defvjp(_DIVNONAN, lambda g, z, x, y: divide_no_nan(
    g, _a.conj(y) if g._value.dtype.kind == "c" else y), _div_no_nan_grad_y)


def _abs_rule(g, y, x):
    if x._value.dtype.kind != "c":
        return _ABS_REAL_RULE(g, y, x)
    # |z| is not holomorphic: its gradient is z / |z| (0 at 0), times the real cotangent.
    return multiply(cast(g, x.dtype), divide_no_nan(x, cast(y, x.dtype)))


_ABS_REAL_RULE = _ABS.vjps[0]
_ABS.save_output = True
defvjp(_ABS, _abs_rule)


def _cast_rule_complex_aware(rule):
    # A complex cotangent returning to a real source keeps its real part (as TF's cast
    # does), taken explicitly so that NumPy does not warn about the discarded part.
    def wrapped(g, y, x_shape, dtype, src):
        if g._value.dtype.kind == "c" and src.kind != "c":
            g = real(g)
        return rule(g, y, x_shape, dtype=dtype, src=src)
    return wrapped


_CAST.vjps = (_cast_rule_complex_aware(_CAST.vjps[0]),)


# ------------------------------------------------------------------ small extras


def scalar_mul(scalar, x, name=None):
    """``scalar * x`` for a scalar (``tf.math.scalar_mul``).

    Raises:
        ValueError: if ``scalar`` is not a scalar.
    """
    if isinstance(scalar, _TensorLike) and scalar._value.ndim != 0:
        raise ValueError(f"`scalar` must be a 0-D tensor. Received shape: {scalar.shape}")
    if isinstance(x, _TensorLike) and x._value.dtype is _BOOL and \
            isinstance(scalar, (int, float)) and not isinstance(scalar, bool):
        raise TypeError(f"Cannot convert {scalar!r} to EagerTensor of dtype bool")
    return multiply(scalar, x)


def _mul_no_nan_forward(x, y):
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(y == 0, np.zeros((), x.dtype), x * y).astype(x.dtype)[()]


_MULNONAN = primitive("MulNoNan", _mul_no_nan_forward, error=_broadcast_error)
defvjp(_MULNONAN, lambda g, z, x, y: multiply_no_nan(g, y),
       lambda g, z, x, y: multiply_no_nan(x, g))


def multiply_no_nan(x, y, name=None):
    """``x * y``, but 0 where ``y == 0`` even if ``x`` is inf or NaN (``tf.math.multiply_no_nan``).

    Gradients: ``multiply_no_nan(g, y)`` for ``x``, ``multiply_no_nan(x, g)`` for ``y`` (TF's).
    """
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)  # as TF's wrapper: a mismatch is a ValueError
    if x._value.dtype.kind not in "fc":
        check_kind(x, "fc", "MulNoNan", FLOAT_COMPLEX_TYPES)
    return apply(_MULNONAN, (x, y))


def _declare_batch_safe():
    # The element-wise rules of this section broadcast over a leading batch of cotangents,
    # so the vectorised jacobian can run them as they are.
    from .._core.jacobians import batch_safe
    batch_safe(_TAN, _ASIN, _ACOS, _ATAN, _SINH, _COSH, _ASINH, _ACOSH, _ATANH, _ATAN2,
               _DIVNONAN, _XLOGY, _XLOG1PY, _XDIVY, _MULNONAN, _TRUNCMOD, _REAL, _IMAG)


_declare_batch_safe()
