"""``keras.ops.numpy``'s element-wise functions: unary maths, arithmetic, comparisons, bits.

Each binds tapeflow's ops with Keras 3's dtype rules: float-valued functions of integers
compute in ``floatx`` (float32), binary functions promote as ``keras.backend.result_type``
(``int32 + float32`` is float32, Python numbers are weak), comparisons return bool.
"""
import math

import numpy as np

from ..._core.dispatch import apply
from ..._core.registry import PRIMITIVES, nondifferentiable
from ._base import cast, dt, dtype_of, family, float_of, floatx, promote, result_type, tensor, tf

__all__ = [
    "abs", "absolute", "fabs", "negative", "square", "sign", "ceil", "floor", "round", "trunc",
    "reciprocal", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log10", "log1p", "log2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "deg2rad", "rad2deg", "sinc", "i0", "isfinite", "isinf", "isnan",
    "isneginf", "isposinf", "isreal", "signbit", "logical_not", "conj", "conjugate", "real",
    "imag", "angle", "copy", "nan_to_num", "add", "subtract", "multiply", "divide",
    "true_divide", "floor_divide", "mod", "fmod", "power", "maximum", "minimum", "fmax", "fmin",
    "arctan2", "hypot", "logaddexp", "logaddexp2", "equal", "not_equal", "greater",
    "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
    "heaviside", "divide_no_nan", "isclose", "allclose", "nextafter", "ldexp", "gcd", "lcm",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_not", "left_shift",
    "right_shift", "bitwise_left_shift", "bitwise_right_shift", "clip", "where",
]

_UNARY_DOC = """{what} element-wise (``keras.ops.{name}``).

    Args:
        x: a tensor (or array-like) of any shape.

    Returns:
        A tensor of ``x``'s shape; {dtype}.

    Raises:
        tf.errors.InvalidArgumentError: for a dtype the underlying op refuses.
    """

_BINARY_DOC = """{what} element-wise, broadcasting (``keras.ops.{name}``).

    Args:
        x1: a tensor, array-like or Python number.
        x2: a tensor, array-like or Python number; broadcast against ``x1``.

    Returns:
        A tensor of the broadcast shape; {dtype}.

    Raises:
        tf.errors.InvalidArgumentError: for shapes that do not broadcast or a dtype the
            underlying op refuses.
    """

_FLOAT = "dtype ``keras.backend.result_type(x.dtype, float)`` (integers give float32)"
_SAME = "``x``'s dtype"
_PROMOTED = "dtype ``keras.backend.result_type(x1.dtype, x2.dtype)``"
_BOOL = "dtype bool"


def _doc(fn, template, what, dtype, name=None):
    fn.__name__ = fn.__qualname__ = name or fn.__name__
    fn.__doc__ = template.format(what=what, name=fn.__name__, dtype=dtype)
    return fn


def _float_unary(name, what, body):
    def fn(x):
        return body(float_of(x))
    return _doc(fn, _UNARY_DOC, what, _FLOAT, name)


def _ln(x, c):
    return tf.cast(tf.constant(c, tf.float64), x.dtype)


sqrt = _float_unary("sqrt", "The square root", tf.sqrt)
exp = _float_unary("exp", "``e ** x``", tf.exp)
expm1 = _float_unary("expm1", "``exp(x) - 1``", tf.math.expm1)
log = _float_unary("log", "The natural logarithm", tf.math.log)
log1p = _float_unary("log1p", "``log(1 + x)``", tf.math.log1p)
log2 = _float_unary("log2", "The base-2 logarithm",
                    lambda x: tf.math.log(x) / _ln(x, math.log(2.0)))
log10 = _float_unary("log10", "The base-10 logarithm",
                     lambda x: tf.math.log(x) / _ln(x, math.log(10.0)))
exp2 = _float_unary("exp2", "``2 ** x``", lambda x: tf.pow(_ln(x, 2.0), x))
sin = _float_unary("sin", "The sine", tf.sin)
cos = _float_unary("cos", "The cosine", tf.cos)
tan = _float_unary("tan", "The tangent", tf.tan)
arcsin = _float_unary("arcsin", "The inverse sine", tf.asin)
arccos = _float_unary("arccos", "The inverse cosine", tf.acos)
arctan = _float_unary("arctan", "The inverse tangent", tf.atan)
sinh = _float_unary("sinh", "The hyperbolic sine", tf.sinh)
cosh = _float_unary("cosh", "The hyperbolic cosine", tf.cosh)
tanh = _float_unary("tanh", "The hyperbolic tangent", tf.tanh)
arcsinh = _float_unary("arcsinh", "The inverse hyperbolic sine", tf.asinh)
arccosh = _float_unary("arccosh", "The inverse hyperbolic cosine", tf.acosh)
arctanh = _float_unary("arctanh", "The inverse hyperbolic tangent", tf.atanh)


def cbrt(x):
    x = float_of(x)
    return tf.sign(x) * tf.pow(tf.abs(x), _ln(x, 1.0 / 3.0))


_doc(cbrt, _UNARY_DOC, "The cube root", _FLOAT)


def _deg(x, factor):
    x = tensor(x)
    d = dt(x)
    if d in ("int64", "uint64"):
        x = cast(x, "float64")
    elif family(d) in "iub":
        x = cast(x, floatx())
    return x * _ln(x, factor)


def deg2rad(x):
    return _deg(x, math.pi / 180.0)


def rad2deg(x):
    return _deg(x, 180.0 / math.pi)


_doc(deg2rad, _UNARY_DOC, "Degrees to radians", _FLOAT + " (int64: float64)")
_doc(rad2deg, _UNARY_DOC, "Radians to degrees", _FLOAT + " (int64: float64)")


def sinc(x):
    x = float_of(x)
    zero = tf.equal(x, 0)
    safe = tf.where(zero, tf.ones_like(x), x) * _ln(x, math.pi)
    return tf.where(zero, tf.ones_like(x), tf.sin(safe) / safe)


_doc(sinc, _UNARY_DOC, "``sin(pi x) / (pi x)`` (1 at 0)", _FLOAT)


def i0(x):
    x = tensor(x)
    if family(dt(x)) != "f":
        x = cast(x, "float64" if dt(x) == "int64" else floatx())
    # the power series sum (x/2)^(2k) / (k!)^2, whose terms fall fast for |x| of a few units
    q = tf.square(x * _ln(x, 0.5))
    term = tf.ones_like(x)
    total = term
    for k in range(1, 60):
        term = term * q / _ln(x, float(k * k))
        total = total + term
    return total


_doc(i0, _UNARY_DOC, "The modified Bessel function of the first kind, order 0", _FLOAT)


def _keep_unary(name, what, body, bool_as=None):
    def fn(x):
        x = tensor(x)
        if bool_as is not None and dt(x) == "bool":
            x = cast(x, bool_as)
        return body(x)
    return _doc(fn, _UNARY_DOC, what, _SAME, name)


def _abs(x):
    return x if dt(x) == "bool" or family(dt(x)) == "u" else tf.abs(x)


abs = _keep_unary("abs", "The absolute value", _abs)  # noqa: A001 - Keras's name
absolute = _keep_unary("absolute", "The absolute value", _abs)
negative = _keep_unary("negative", "``-x``", tf.negative)
square = _keep_unary("square", "``x * x``", tf.square, bool_as="int32")


def fabs(x):
    x = tensor(x)
    if family(dt(x)) != "f":
        x = cast(x, "float64" if dt(x) == "int64" else floatx())
    return tf.abs(x)


_doc(fabs, _UNARY_DOC, "The absolute value as a float", _FLOAT)


def sign(x):
    x = tensor(x)
    d = dt(x)
    if family(d) == "u":
        return cast(tf.sign(cast(x, "int32")), d)
    return tf.sign(x)


_doc(sign, _UNARY_DOC, "-1, 0 or 1 by the sign", _SAME)


def _rounder(name, what, body):
    def fn(x):
        x = tensor(x)
        d = dt(x)
        if family(d) != "f":
            x = cast(x, "float64" if d == "int64" else floatx())
        return body(x)
    return _doc(fn, _UNARY_DOC, what, _FLOAT, name)


ceil = _rounder("ceil", "The ceiling", tf.math.ceil)
floor = _rounder("floor", "The floor", tf.math.floor)


def trunc(x):
    x = tensor(x)
    if family(dt(x)) in "iub":
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


_doc(trunc, _UNARY_DOC, "Rounded toward zero", _SAME)


def round(x, decimals=0):  # noqa: A001 - Keras's name
    """Rounded half to even, to ``decimals`` places (``keras.ops.round``).

    Args:
        x: a tensor of any shape.
        decimals: the number of decimal places (negative: tens, hundreds, ...).

    Returns:
        A tensor of ``x``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for bool input.
    """
    x = tensor(x)
    _refuse_bool(dt(x))
    if decimals == 0:
        return tf.round(x)
    d = dt(x)
    factor = 10.0 ** decimals
    if family(d) in "iu":
        if decimals > 0:
            return x
        y = tf.round(cast(x, floatx()) * factor) / factor
        return cast(y, d)
    f = _ln(x, factor)
    return tf.round(x * f) / f


def reciprocal(x):
    x = tensor(x)
    return tf.math.reciprocal(x)


_doc(reciprocal, _UNARY_DOC, "``1 / x``", _SAME)


def _float_pred(name, what, body, other):
    def fn(x):
        x = tensor(x)
        if family(dt(x)) not in "fc":
            return other(x)
        return body(x)
    return _doc(fn, _UNARY_DOC, what, _BOOL, name)


def _false(x):
    return tf.zeros(tf.shape(x), tf.bool)


def _true(x):
    return tf.ones(tf.shape(x), tf.bool)


isfinite = _float_pred("isfinite", "Whether finite", tf.math.is_finite, _true)
isinf = _float_pred("isinf", "Whether infinite", tf.math.is_inf, _false)
isnan = _float_pred("isnan", "Whether NaN", tf.math.is_nan, _false)
isposinf = _float_pred("isposinf", "Whether +inf",
                       lambda x: tf.logical_and(tf.math.is_inf(x), x > 0), _false)
isneginf = _float_pred("isneginf", "Whether -inf",
                       lambda x: tf.logical_and(tf.math.is_inf(x), x < 0), _false)


def isreal(x):
    x = tensor(x)
    if family(dt(x)) == "c":
        return tf.equal(tf.math.imag(x), 0)
    return _true(x)


_doc(isreal, _UNARY_DOC, "Whether the imaginary part is zero", _BOOL)


def signbit(x):
    x = tensor(x)
    d = dt(x)
    if d == "bool":
        return _false(x)
    if family(d) == "f":
        return tf.logical_or(x < 0, tf.logical_and(tf.equal(x, 0), tf.less(
            tf.math.reciprocal(tf.where(tf.equal(x, 0), x, tf.ones_like(x))), 0)))
    return x < 0


_doc(signbit, _UNARY_DOC, "Whether the sign bit is set (-0.0 included)", _BOOL)


def logical_not(x):
    return tf.logical_not(cast(x, "bool"))


_doc(logical_not, _UNARY_DOC, "Logical not", _BOOL)


def _numeric(x):
    if dt(x) == "bool":
        raise TypeError("Expected numeric or variant tensor, got dtype tf.bool.")
    return x


def conj(x):
    x = _numeric(tensor(x))
    return tf.math.conj(x)


_doc(conj, _UNARY_DOC, "The complex conjugate", _SAME)
conjugate = _doc(lambda x: conj(x), _UNARY_DOC, "The complex conjugate", _SAME, "conjugate")


def real(x):
    return tf.math.real(_numeric(tensor(x)))


def imag(x):
    return tf.math.imag(tensor(x))


_doc(real, _UNARY_DOC, "The real part", "real dtype")
_doc(imag, _UNARY_DOC, "The imaginary part", "real dtype")


def angle(x):
    x = tensor(x)
    if family(dt(x)) == "c":
        return tf.math.angle(x)
    x = float_of(x) if dt(x) != "int64" else cast(x, floatx())
    return tf.where(x < 0, _ln(x, math.pi) * tf.ones_like(x), tf.zeros_like(x))


_doc(angle, _UNARY_DOC, "The complex argument", _FLOAT)


def copy(x):
    return tf.identity(tensor(x))


_doc(copy, _UNARY_DOC, "A copy", _SAME)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by finite numbers (``keras.ops.nan_to_num``).

    Args:
        x: a tensor of any shape.
        nan: the value for NaN.
        posinf, neginf: the values for +inf and -inf (default: the dtype's extremes).

    Returns:
        A tensor of ``x``'s shape and dtype.
    """
    x = tensor(x)
    if family(dt(x)) != "f":
        return x
    info = np.finfo(dt(x))
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf
    x = tf.where(tf.math.is_nan(x), tf.cast(nan, x.dtype) * tf.ones_like(x), x)
    x = tf.where(tf.logical_and(tf.math.is_inf(x), x > 0),
                 tf.cast(posinf, x.dtype) * tf.ones_like(x), x)
    return tf.where(tf.logical_and(tf.math.is_inf(x), x < 0),
                    tf.cast(neginf, x.dtype) * tf.ones_like(x), x)


# ----------------------------------------------------------------------------- binary


def _refuse_bool(d, allowed="bfloat16, half, float, double, int32, int64"):
    # TensorFlow's arithmetic and ordering kernels have no bool variant; Keras passes bool on
    if d == "bool":
        raise tf.errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of bool is not in the list of allowed values: "
            f"{allowed}")


def _binary(name, what, body, extra=(), out=_PROMOTED):
    def fn(x1, x2):
        a, b, d = promote(x1, x2, extra=extra)
        _refuse_bool(d)
        return body(a, b)
    return _doc(fn, _BINARY_DOC, what, out, name)


add = _binary("add", "``x1 + x2``", tf.add)
subtract = _binary("subtract", "``x1 - x2``", tf.subtract)
multiply = _binary("multiply", "``x1 * x2``", tf.multiply)
maximum = _binary("maximum", "The larger", tf.maximum)
minimum = _binary("minimum", "The smaller", tf.minimum)
arctan2 = _binary("arctan2", "The angle of (x2, x1)", tf.atan2, extra=(float,),
                  out=_PROMOTED + " with float")


def _fmax(a, b):
    if family(dt(a)) != "f":
        return tf.maximum(a, b)
    return tf.where(tf.math.is_nan(a), b, tf.where(tf.math.is_nan(b), a, tf.maximum(a, b)))


def _fmin(a, b):
    if family(dt(a)) != "f":
        return tf.minimum(a, b)
    return tf.where(tf.math.is_nan(a), b, tf.where(tf.math.is_nan(b), a, tf.minimum(a, b)))


fmax = _binary("fmax", "The larger, ignoring NaN", _fmax)
fmin = _binary("fmin", "The smaller, ignoring NaN", _fmin)


def divide(x1, x2):
    a, b, d = promote(x1, x2, extra=(float,))
    if d == "int64" or dtype_of(x1) == "int64" and dtype_of(x2) == "int64":
        a, b = cast(a, "float64"), cast(b, "float64")
    return tf.divide(a, b)


_doc(divide, _BINARY_DOC, "``x1 / x2``", _PROMOTED + " with float")
true_divide = _doc(lambda x1, x2: divide(x1, x2), _BINARY_DOC, "``x1 / x2``",
                   _PROMOTED + " with float", "true_divide")


def floor_divide(x1, x2):
    a, b, d = promote(x1, x2)
    _refuse_bool(d)
    return tf.math.floordiv(a, b)


_doc(floor_divide, _BINARY_DOC, "``x1 // x2``", _PROMOTED)


def mod(x1, x2):
    a, b, d = promote(x1, x2)
    if d == "bool":
        a, b = cast(a, "int32"), cast(b, "int32")
    return tf.math.floormod(a, b)


_doc(mod, _BINARY_DOC, "The remainder of floor division", _PROMOTED)


def fmod(x1, x2):
    a, b, d = promote(x1, x2)
    _refuse_bool(d)
    compute = "int32" if family(d) == "u" else d
    a, b = cast(a, compute), cast(b, compute)
    # |x1| mod |x2| carries x1's sign; its gradient is 0 at x1 == 0, as Keras's
    return cast(tf.sign(a) * tf.math.floormod(tf.abs(a), tf.abs(b)), d)


_doc(fmod, _BINARY_DOC, "The remainder of truncated division (sign of x1)", _PROMOTED)


def power(x1, x2):
    a, b, d = promote(x1, x2)
    _refuse_bool(d)
    return tf.pow(a, b)


_doc(power, _BINARY_DOC, "``x1 ** x2``", _PROMOTED)


def hypot(x1, x2):
    a, b, d = promote(x1, x2)
    if d in ("int8", "int16", "int32", "uint8", "uint16", "uint32"):
        d = floatx()
    elif d == "int64":
        d = "float64"
    a, b = cast(a, d), cast(b, d)
    return tf.sqrt(tf.square(a) + tf.square(b))


_doc(hypot, _BINARY_DOC, "``sqrt(x1**2 + x2**2)``", _PROMOTED + " as float")


def logaddexp(x1, x2):
    a, b, d = promote(x1, x2, extra=(float,))
    big = tf.maximum(a, b)
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b)))


def logaddexp2(x1, x2):
    a, b, d = promote(x1, x2, extra=(float,))
    big = tf.maximum(a, b)
    ln2 = _ln(a, math.log(2.0))
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b) * ln2)) / ln2


_doc(logaddexp, _BINARY_DOC, "``log(exp(x1) + exp(x2))``", _PROMOTED + " with float")
_doc(logaddexp2, _BINARY_DOC, "``log2(2**x1 + 2**x2)``", _PROMOTED + " with float")


def _compare(name, what, body, bool_ok=False):
    def fn(x1, x2):
        a, b, d = promote(x1, x2)
        if not bool_ok:
            _refuse_bool(d)
        return body(a, b)
    return _doc(fn, _BINARY_DOC, what, _BOOL, name)


equal = _compare("equal", "``x1 == x2``", tf.equal, True)
not_equal = _compare("not_equal", "``x1 != x2``", tf.not_equal, True)
greater = _compare("greater", "``x1 > x2``", tf.greater)
greater_equal = _compare("greater_equal", "``x1 >= x2``", tf.greater_equal)
less = _compare("less", "``x1 < x2``", tf.less)
less_equal = _compare("less_equal", "``x1 <= x2``", tf.less_equal)


def _logical(name, what, body):
    def fn(x1, x2):
        return body(cast(x1, "bool"), cast(x2, "bool"))
    return _doc(fn, _BINARY_DOC, what, _BOOL, name)


logical_and = _logical("logical_and", "Logical and", tf.logical_and)
logical_or = _logical("logical_or", "Logical or", tf.logical_or)
logical_xor = _logical("logical_xor", "Logical exclusive or", tf.math.logical_xor)


def heaviside(x1, x2):
    a, b, d = promote(x1, x2)
    if d == "bool":
        raise TypeError("Cannot convert 0 to EagerTensor of dtype bool")
    if d in ("int8", "int16", "int32", "uint8", "uint16", "uint32"):
        d = floatx()
    elif d == "int64":
        d = "float64"
    a, b = cast(a, d), cast(b, d)
    b = tf.broadcast_to(b, tf.shape(a + b))
    a = tf.broadcast_to(a, tf.shape(b))
    return tf.where(a < 0, tf.zeros_like(a), tf.where(a > 0, tf.ones_like(a), b))


_doc(heaviside, _BINARY_DOC, "0 for x1 < 0, x2 at 0, 1 above", _PROMOTED + " as float")


def divide_no_nan(x1, x2):
    a, b, d = promote(x1, x2, extra=(float,))
    return tf.math.divide_no_nan(a, b)


_doc(divide_no_nan, _BINARY_DOC, "``x1 / x2``, 0 where ``x2 == 0``", _PROMOTED + " with float")


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """Whether ``|x1 - x2| <= atol + rtol * |x2|`` element-wise (``keras.ops.isclose``).

    Args:
        x1, x2: tensors that broadcast.
        rtol, atol: relative and absolute tolerances.
        equal_nan: whether two NaN count as close.

    Returns:
        A bool tensor of the broadcast shape.
    """
    a, b, d = promote(x1, x2)
    if family(d) != "f":
        return tf.equal(a, b)
    close = tf.less_equal(tf.abs(a - b), tf.cast(atol, a.dtype) + tf.cast(rtol, a.dtype)
                          * tf.abs(b))
    close = tf.logical_or(close, tf.equal(a, b))
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """Whether every element pair is close (``keras.ops.allclose``); a scalar bool tensor.

    Args:
        x1, x2: tensors that broadcast.
        rtol, atol, equal_nan: as in ``isclose``.
    """
    return tf.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


def _np_op(name, fn):
    # An op type tapeflow's own ops already declare (BitwiseAnd, Invert, ...) is reused: one
    # op, one primitive.
    prim = PRIMITIVES.get(name) or nondifferentiable(name, fn)

    def run(*xs):
        return apply(prim, tuple(xs), {})
    return run


_NEXTAFTER = _np_op("NextAfter", lambda a, b: np.nextafter(a, b))


def nextafter(x1, x2):
    a, b, d = promote(x1, x2, extra=(float,))
    if dtype_of(x1) == "int64" or dtype_of(x2) == "int64":
        a, b = cast(a, "float64"), cast(b, "float64")
    # the step is below float precision: the gradient is the identity's, as Keras's
    return a + tf.stop_gradient(_NEXTAFTER(a, b) - a)


_doc(nextafter, _BINARY_DOC, "The next float after x1 toward x2", _PROMOTED + " with float")


def ldexp(x1, x2):
    x2 = tensor(x2)
    if family(dt(x2)) not in "iu":
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 {dt(x2)}")
    a = cast(x1, result_type(dtype_of(x1), dt(x2), float))
    return a * tf.pow(tf.cast(2.0, a.dtype), cast(x2, a.dtype))


_doc(ldexp, _BINARY_DOC, "``x1 * 2 ** x2``", _PROMOTED + " with float")

_GCD = _np_op("Gcd", np.gcd)
_LCM = _np_op("Lcm", np.lcm)
_AND = _np_op("BitwiseAnd", np.bitwise_and)
_OR = _np_op("BitwiseOr", np.bitwise_or)
_XOR = _np_op("BitwiseXor", np.bitwise_xor)
_INVERT = _np_op("Invert", np.invert)
_LSHIFT = _np_op("LeftShift", lambda a, b: np.left_shift(a, b.astype(a.dtype)))
_RSHIFT = _np_op("RightShift", lambda a, b: np.right_shift(a, b.astype(a.dtype)))


def _integer_binary(name, what, prim, allow_bool=False):
    def fn(x1, x2):
        a, b, d = promote(x1, x2)
        if family(d) not in "iu":
            if name in ("gcd", "lcm"):
                raise TypeError(f"Arguments to {name} must be integers. "
                                f"Received: x1.dtype={dt(a)}, x2.dtype={dt(b)}")
            raise tf.errors.InvalidArgumentError(
                None, None, f"Value for attr 'T' of {d} is not in the list of allowed "
                "values: int8, int16, int32, int64, uint8, uint16, uint32, uint64")
        return prim(a, b)
    return _doc(fn, _BINARY_DOC, what, _PROMOTED + " (integers)", name)


gcd = _integer_binary("gcd", "The greatest common divisor", _GCD)
lcm = _integer_binary("lcm", "The least common multiple", _LCM)
bitwise_and = _integer_binary("bitwise_and", "Bitwise and", _AND)
bitwise_or = _integer_binary("bitwise_or", "Bitwise or", _OR)
bitwise_xor = _integer_binary("bitwise_xor", "Bitwise exclusive or", _XOR)
left_shift = _integer_binary("left_shift", "``x1 << x2``", _LSHIFT)
right_shift = _integer_binary("right_shift", "``x1 >> x2``", _RSHIFT)
bitwise_left_shift = _integer_binary("bitwise_left_shift", "``x1 << x2``", _LSHIFT)
bitwise_right_shift = _integer_binary("bitwise_right_shift", "``x1 >> x2``", _RSHIFT)


def bitwise_invert(x):
    x = tensor(x)
    if family(dt(x)) not in "iu":
        raise tf.errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {dt(x)} is not in the list of allowed values: "
            "int8, int16, int32, int64, uint8, uint16, uint32, uint64")
    return _INVERT(x)


_doc(bitwise_invert, _UNARY_DOC, "Bitwise not", _SAME + " (integers)")
bitwise_not = _doc(lambda x: bitwise_invert(x), _UNARY_DOC, "Bitwise not",
                   _SAME + " (integers)", "bitwise_not")


def clip(x, x_min, x_max):
    """``x`` limited to ``[x_min, x_max]`` (``keras.ops.clip``).

    Args:
        x: a tensor of any shape (bool is taken as int32).
        x_min, x_max: the bounds, numbers or tensors that broadcast against ``x``.

    Returns:
        A tensor of ``x``'s shape and dtype.

    Raises:
        TypeError: for a float bound on an integer ``x``.
    """
    x = tensor(x)
    if dt(x) == "bool":
        x = cast(x, "int32")
    d = dt(x)
    lo = _bound(x_min, d)
    hi = _bound(x_max, d)
    return tf.minimum(tf.maximum(x, lo), hi)


def _bound(v, d):
    if isinstance(v, float) and family(d) in "iu" and v != int(v):
        raise TypeError(f"Cannot convert {v} to EagerTensor of dtype {d}")
    return cast(v, d)


def where(condition, x1=None, x2=None):
    """``x1`` where ``condition``, else ``x2``; with neither, the indices of the true
    entries as a tuple of int32 vectors... as ``nonzero`` (``keras.ops.where``).

    Args:
        condition: a bool tensor (other dtypes are taken as ``!= 0``).
        x1, x2: tensors or numbers that broadcast with ``condition``; promoted together.

    Returns:
        A tensor of the broadcast shape and the promoted dtype, or a tuple of index tensors.

    Raises:
        ValueError: when only one of ``x1``, ``x2`` is given.
    """
    condition = cast(condition, "bool")
    if x1 is None and x2 is None:
        idx = tf.where(condition)
        return tuple(cast(v, "int32") for v in tf.unstack(idx, axis=1)) \
            if len(condition.shape) else (cast(tf.reshape(idx, [-1]), "int32"),)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have "
                         "non-None value.")
    a, b, _ = promote(x1, x2)
    shape = tf.shape(tf.zeros_like(cast(condition, "int8")) + tf.zeros_like(cast(a, "int8"))
                     + tf.zeros_like(cast(b, "int8")))
    return tf.where(tf.broadcast_to(condition, shape), tf.broadcast_to(a, shape),
                    tf.broadcast_to(b, shape))
