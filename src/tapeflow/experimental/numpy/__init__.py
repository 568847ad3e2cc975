"""``tf.experimental.numpy``: NumPy's API on tapeflow tensors (TF 2.21's ``tnp``).

``ndarray`` is ``tf.Tensor``; every function takes array-likes (tensors, NumPy arrays, Python
numbers and nested lists) and returns tensors, differentiable under ``tf.GradientTape`` where
the tapeflow op underneath is.  Dtypes follow TF's ``tnp`` rules: a Python value is typed as
NumPy types it (``float`` -> float64, ``int`` -> int64) unless
``experimental_enable_numpy_behavior(prefer_float32=True)``; binary functions promote their
operands with ``np.result_type`` (Python scalars weak, NumPy 2 rules).  As in TF 2.21, a
float-only function (``sqrt``, ``exp``...) given an integer *tensor* raises ``AttributeError``
until numpy behaviour is enabled (TF calls ``.astype`` on it).
"""
import builtins as _b

import numpy as _np

import tapeflow as _tf

from ..._core.dtypes import as_dtype as _as_dtype
from ..._core.tensor import traced_shape as _traced
from . import random  # noqa: F401 - tnp.random
from ._behavior import (  # noqa: F401 - tnp.experimental_enable_numpy_behavior
    experimental_enable_numpy_behavior,
    is_prefer_float32,
)

ndarray = _tf.Tensor
newaxis = None
pi = _np.pi
e = _np.e
inf = _np.inf
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
int_, float_, complex_ = _np.int64, _np.float64, _np.complex128
object_, string_, unicode_ = _np.object_, _np.bytes_, _np.str_
inexact = _np.inexact
finfo, iinfo, issubdtype, promote_types = _np.finfo, _np.iinfo, _np.issubdtype, _np.promote_types


# ---------------------------------------------------------------- dtypes and conversion
def _flat(x, out):
    if isinstance(x, (list, tuple)):
        for v in x:
            _flat(v, out)
    else:
        out.append(x)
    return out


def _np_dtype_of(x):
    """What ``np.result_type`` is given for ``x`` (TF's ``_maybe_get_dtype``)."""
    if _tf.is_tensor(x):
        return x.dtype.as_numpy_dtype
    if isinstance(x, _tf.DType):
        return x.as_numpy_dtype
    if is_prefer_float32():
        if isinstance(x, float) and not isinstance(x, _np.generic):
            return _np.float32(x)
        if isinstance(x, complex) and not isinstance(x, _np.generic):
            return _np.complex64(x)
    return x


def result_type(*arrays_and_dtypes):
    """``np.result_type`` under TF's rules; returns a ``tf.DType`` (``tnp.result_type``)."""
    items = [_np_dtype_of(x) for x in _flat(list(arrays_and_dtypes), [])]
    if not items:
        items = [_np.asarray([])]
    return _as_dtype(_np.result_type(*items))


def _np_result(*xs):
    return result_type(*xs).as_numpy_dtype


def _default_float():
    return _tf.float64   # TF types ``float`` (the type, not a value) as float64 in either mode


def _spacing_float():
    return _tf.float32 if is_prefer_float32() else _tf.float64


def _to(x, dtype=None):
    """``x`` as a tensor of ``dtype`` (a cast when it is a tensor), TF's ``_array_internal``."""
    if _tf.is_tensor(x):
        if dtype is not None and _as_dtype(dtype) != x.dtype:
            return _tf.cast(x, _as_dtype(dtype))
        return x if isinstance(x, _tf.Tensor) else _tf.identity(x)
    if dtype is None:
        dtype = _np_result(x) if not isinstance(x, (str, bytes)) else None
    if isinstance(x, (list, tuple)) and _b.any(_tf.is_tensor(v) for v in _flat(list(x), [])):
        t = _tf.stack([_to(v) for v in x]) if x else _tf.constant([], _tf.float64)
        return _tf.cast(t, _as_dtype(dtype)) if dtype is not None else t
    a = _np.asarray(x)
    if dtype is not None:
        a = a.astype(_as_dtype(dtype).as_numpy_dtype)
    return _tf.constant(a)


def asarray(a, dtype=None):
    """``a`` as a tensor (no copy of a tensor of the right dtype); ``np.asarray``."""
    return _to(a, dtype)


asanyarray = ascontiguousarray = asarray


def array(val, dtype=None, copy=True, ndmin=0):
    """``val`` as a new tensor, at least ``ndmin`` dimensions; ``np.array``."""
    t = _to(val, dtype)
    if copy and t is val:
        t = _tf.identity(t)
    extra = ndmin - len(_traced(t))
    if extra > 0:
        t = _tf.reshape(t, [1] * extra + _traced(t).as_list())
    return t


def copy(a):
    """A copy of ``a`` as a tensor; ``np.copy``."""
    return _tf.identity(_to(a))


def _dt(dtype, default):
    return _as_dtype(default if dtype is None else _np.dtype(dtype) if not isinstance(
        dtype, _tf.DType) else dtype)


def _shape(shape):
    return [int(shape)] if isinstance(shape, (int, _np.integer)) else [int(s) for s in shape]


def zeros(shape, dtype=None):
    """A zero tensor; float64 by default (float32 with ``prefer_float32``); ``np.zeros``."""
    return _tf.zeros(_shape(shape), _dt(dtype, _default_float()))


def ones(shape, dtype=None):
    """A tensor of ones; float64 by default (float32 with ``prefer_float32``); ``np.ones``."""
    return _tf.ones(_shape(shape), _dt(dtype, _default_float()))


empty = zeros


def full(shape, fill_value, dtype=None):
    """A tensor of ``fill_value`` (its dtype unless ``dtype``); ``np.full``."""
    v = _to(fill_value, dtype)
    return _tf.broadcast_to(v, _shape(shape))


def zeros_like(a, dtype=None):
    """Zeros shaped and typed as ``a``; ``np.zeros_like``."""
    a = _to(a, dtype)
    return _tf.zeros_like(a)


def ones_like(a, dtype=None):
    """Ones shaped and typed as ``a``; ``np.ones_like``."""
    a = _to(a, dtype)
    return _tf.ones_like(a)


empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    """``fill_value`` shaped as ``a`` in ``a``'s dtype (or ``dtype``); ``np.full_like``."""
    a = _to(a, dtype)
    return _tf.broadcast_to(_tf.cast(_to(fill_value), a.dtype), _tf.shape(a))


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    """An ``N x M`` tensor with ones on diagonal ``k``; ``np.eye``."""
    dtype = _default_float() if dtype is float else _dt(dtype, _default_float())
    return _tf.constant(_np.eye(N, M, k, dtype=dtype.as_numpy_dtype))


def identity(n, dtype=float):
    """The ``n x n`` identity; ``np.identity``."""
    return eye(n, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in ``[start, stop)``; NumPy's dtype rules; ``np.arange``."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = result_type(start, stop, step)
    dtype = _dt(dtype, None)
    return _tf.constant(_np.arange(start, stop, step).astype(dtype.as_numpy_dtype))


def _spaced(values, dtype, *args):
    dtype = _as_dtype(dtype) if dtype is not None else _spacing_float()
    return _tf.constant(_np.asarray(values).astype(dtype.as_numpy_dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop``; ``np.linspace``."""
    dtype = None if dtype is float else dtype
    vals, step = _np.linspace(start, stop, num, endpoint, retstep=True, axis=axis)
    out = _spaced(vals, dtype, start, stop)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base`` to the powers ``linspace(start, stop, num)``; ``np.logspace``."""
    return _spaced(_np.logspace(start, stop, num, endpoint, base, axis=axis), dtype, start, stop)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """A geometric progression from ``start`` to ``stop``; ``np.geomspace``."""
    return _spaced(_np.geomspace(start, stop, num, endpoint, axis=axis), dtype, start, stop)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """Ones at and below diagonal ``k``; ``np.tri``."""
    return _tf.constant(_np.tri(N, M, k, dtype=_dt(dtype, _default_float()).as_numpy_dtype))


def _band(m, k, lower):
    m = _to(m)
    n, c = _traced(m)[-2], _traced(m)[-1]
    mask = _np.tri(n, c, k, dtype=bool)
    mask = mask if lower else ~_np.tri(n, c, k - 1, dtype=bool)
    return _tf.where(_tf.constant(mask), m, _tf.zeros_like(m))


def tril(m, k=0):
    """``m`` with the entries above diagonal ``k`` zeroed; ``np.tril``."""
    return _band(m, k, True)


def triu(m, k=0):
    """``m`` with the entries below diagonal ``k`` zeroed; ``np.triu``."""
    return _band(m, k, False)


def diag(v, k=0):
    """The diagonal of a matrix, or a matrix with vector ``v`` on diagonal ``k``; ``np.diag``."""
    v = _to(v)
    if len(_traced(v)) == 1:
        n = _traced(v)[0] + _b.abs(k)
        idx = [[i + _b.max(-k, 0), i + _b.max(k, 0)] for i in range(_traced(v)[0])]
        return _tf.scatter_nd(_tf.constant(idx, _tf.int64), v, [n, n])
    return diagonal(v, k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset`` diagonal of ``a`` over two axes; ``np.diagonal``."""
    a = _to(a)
    idx = _np.diagonal(_np.arange(int(_np.prod(_traced(a).as_list()))).reshape(
        _traced(a).as_list()), offset, axis1, axis2)
    return _tf.gather(_tf.reshape(a, [-1]), _tf.constant(idx))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum of a diagonal; ``np.trace``."""
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


# ---------------------------------------------------------------- elementwise
def _binary(tf_fn, name, out_bool=False):
    def fn(x1, x2):
        dtype = _np_result(x1, x2)
        a, b = _to(x1, dtype), _to(x2, dtype)
        return tf_fn(a, b)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise ``np.{name}`` of two array-likes, promoted by ``result_type``"
                  f"{' (a bool result)' if out_bool else ''}; broadcasts; ``tnp.{name}``.")
    return fn


def _logical_or_add(a, b):
    return _tf.logical_or(a, b) if a.dtype == _tf.bool else _tf.add(a, b)


def _true_div(a, b):
    if not a.dtype.is_floating and not a.dtype.is_complex:
        f = result_type(a.dtype, float)
        a, b = _tf.cast(a, f), _tf.cast(b, f)
    return _tf.divide(a, b)


def _power(a, b):
    return _tf.pow(a, b)


add = _binary(_logical_or_add, "add")
subtract = _binary(_tf.subtract, "subtract")
multiply = _binary(lambda a, b: _tf.logical_and(a, b) if a.dtype == _tf.bool
                   else _tf.multiply(a, b), "multiply")
divide = true_divide = _binary(_true_div, "true_divide")
floor_divide = _binary(_tf.math.floordiv, "floor_divide")
mod = remainder = _binary(_tf.math.floormod, "mod")
power = _binary(_power, "power")
maximum = _binary(_tf.maximum, "maximum")
minimum = _binary(_tf.minimum, "minimum")
equal = _binary(_tf.equal, "equal", True)
not_equal = _binary(_tf.not_equal, "not_equal", True)
less = _binary(_tf.less, "less", True)
less_equal = _binary(_tf.less_equal, "less_equal", True)
greater = _binary(_tf.greater, "greater", True)
greater_equal = _binary(_tf.greater_equal, "greater_equal", True)
arctan2 = _binary(_tf.math.atan2, "arctan2")


def _float_binary(tf_fn, name):
    def inner(a, b):
        if not (a.dtype.is_floating or a.dtype.is_complex):
            f = result_type(a.dtype, float)
            a, b = _tf.cast(a, f), _tf.cast(b, f)
        return tf_fn(a, b)
    return _binary(inner, name)


arctan2 = _float_binary(_tf.math.atan2, "arctan2")
hypot = _float_binary(lambda a, b: _tf.sqrt(a * a + b * b), "hypot")
logaddexp = _float_binary(lambda a, b: _tf.maximum(a, b) + _tf.math.log1p(
    _tf.exp(-_tf.abs(a - b))), "logaddexp")
float_power = _binary(_tf.pow, "float_power")


def _logical(tf_fn, name):
    def fn(x1, x2):
        return tf_fn(_to(x1, _tf.bool), _to(x2, _tf.bool))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``np.{name}`` of two array-likes read as bool; ``tnp.{name}``."
    return fn


logical_and = _logical(_tf.logical_and, "logical_and")
logical_or = _logical(_tf.logical_or, "logical_or")
logical_xor = _logical(_tf.math.logical_xor, "logical_xor")


def logical_not(x):
    """Elementwise not of ``x`` read as bool; ``np.logical_not``."""
    return _tf.logical_not(_to(x, _tf.bool))


def _needs_float(x):
    x = _to(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        from ._behavior import is_numpy_behavior
        if not is_numpy_behavior():
            raise AttributeError(
                f"{type(x).__name__} object has no attribute 'astype'. \n"
                "        If you are looking for numpy-related methods, please run the "
                "following:\n        tf.experimental.numpy.experimental_enable_numpy_behavior()"
                "\n      ")
        x = _tf.cast(x, result_type(float))
    return x


def _unary(tf_fn, name, to_float=True):
    def fn(x):
        return tf_fn(_needs_float(x) if to_float else _to(x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise ``np.{name}``; an integer tensor needs numpy behaviour "
                  f"(TF raises AttributeError otherwise); ``tnp.{name}``." if to_float else
                  f"Elementwise ``np.{name}``, dtype kept; ``tnp.{name}``.")
    return fn


sqrt = _unary(_tf.sqrt, "sqrt")
exp = _unary(_tf.exp, "exp")
log = _unary(_tf.math.log, "log")
log10 = _unary(lambda x: _tf.math.log(x) / _tf.constant(_np.log(10.0), x.dtype), "log10")
log2 = _unary(lambda x: _tf.math.log(x) / _tf.constant(_np.log(2.0), x.dtype), "log2")
log1p = _unary(_tf.math.log1p, "log1p")
expm1 = _unary(_tf.math.expm1, "expm1")
exp2 = _unary(lambda x: _tf.pow(_tf.constant(2.0, x.dtype), x), "exp2")
sin, cos, tan = (_unary(_tf.sin, "sin"), _unary(_tf.cos, "cos"), _unary(_tf.tan, "tan"))
arcsin, arccos = _unary(_tf.asin, "arcsin"), _unary(_tf.acos, "arccos")
arctan = _unary(_tf.atan, "arctan")
sinh, cosh, tanh = _unary(_tf.sinh, "sinh"), _unary(_tf.cosh, "cosh"), _unary(_tf.tanh, "tanh")
arcsinh, arccosh = _unary(_tf.asinh, "arcsinh"), _unary(_tf.acosh, "arccosh")
arctanh = _unary(_tf.atanh, "arctanh")
reciprocal = _unary(_tf.math.reciprocal, "reciprocal")
deg2rad = _unary(lambda x: x * _tf.constant(_np.pi / 180.0, x.dtype), "deg2rad")
_rad2deg = _unary(lambda x: x * _tf.constant(180.0 / _np.pi, x.dtype), "rad2deg")


def rad2deg(x):
    """Radians to degrees; as in TF a Python number stays a Python number; ``np.rad2deg``."""
    return _rad2deg(x) if _tf.is_tensor(x) or isinstance(x, (list, tuple, _np.ndarray)) \
        else x * (180.0 / _np.pi)
fabs = _unary(_tf.abs, "fabs")
cbrt = _unary(lambda x: _tf.sign(x) * _tf.pow(_tf.abs(x), _tf.constant(1.0 / 3.0, x.dtype)), "cbrt")
floor = _unary(_tf.floor, "floor", to_float=False)
ceil = _unary(_tf.math.ceil, "ceil", to_float=False)
square = _unary(_tf.square, "square", to_float=False)
negative = _unary(_tf.negative, "negative", to_float=False)
positive = _unary(_tf.identity, "positive", to_float=False)
sign = _unary(_tf.sign, "sign", to_float=False)
abs = absolute = _unary(_tf.abs, "absolute", to_float=False)  # noqa: A001 - NumPy's name
fix = _unary(lambda x: _tf.where(x < 0, _tf.math.ceil(x), _tf.floor(x)), "fix", False)
isnan = _unary(lambda x: _tf.math.is_nan(x) if x.dtype.is_floating
               else _tf.zeros_like(x, _tf.bool), "isnan", False)
isinf = _unary(lambda x: _tf.math.is_inf(x) if x.dtype.is_floating
               else _tf.zeros_like(x, _tf.bool), "isinf", False)
isfinite = _unary(lambda x: _tf.math.is_finite(x) if x.dtype.is_floating
                  else _tf.ones_like(x, _tf.bool), "isfinite", False)
signbit = _unary(lambda x: _tf.constant(_np.signbit(x.numpy())), "signbit", False)
real = _unary(_tf.math.real, "real", False)
imag = _unary(_tf.math.imag, "imag", False)
conj = conjugate = _unary(_tf.math.conj, "conjugate", False)


def angle(z, deg=False):
    """The argument of complex ``z`` (radians, or degrees); ``np.angle``."""
    z = _to(z)
    out = _tf.math.angle(z) if z.dtype.is_complex else _tf.math.atan2(
        _tf.zeros_like(_needs_float(z)), _needs_float(z))
    return out * _tf.constant(180.0 / _np.pi, out.dtype) if deg else out


def around(a, decimals=0):
    """``a`` rounded half to even at ``decimals`` places; ``np.around``."""
    a = _to(a)
    if decimals == 0 or not a.dtype.is_floating:
        return _tf.round(a) if a.dtype.is_floating else a
    f = _tf.constant(10.0 ** decimals, a.dtype)
    return _tf.round(a * f) / f


round = around  # noqa: A001 - NumPy's name


def clip(a, a_min, a_max):
    """``a`` limited to ``[a_min, a_max]``, promoted as NumPy does; ``np.clip``."""
    dtype = _np_result(a, a_min, a_max)
    return _tf.minimum(_tf.maximum(_to(a, dtype), _to(a_min, dtype)), _to(a_max, dtype))


def heaviside(x1, x2):
    """0 where ``x1 < 0``, ``x2`` where 0, 1 where positive; ``np.heaviside``."""
    dtype = _np_result(x1, x2)
    a, b = _to(x1, dtype), _to(x2, dtype)
    b = _tf.broadcast_to(b, _tf.shape(a))
    return _tf.where(a < 0, _tf.zeros_like(a), _tf.where(a > 0, _tf.ones_like(a), b))


def sinc(x):
    """``sin(pi x) / (pi x)`` with ``sinc(0) = 1``; ``np.sinc``."""
    x = _needs_float(x)
    px = x * _tf.constant(_np.pi, x.dtype)
    safe = _tf.where(x == 0, _tf.ones_like(x), px)
    return _tf.where(x == 0, _tf.ones_like(x), _tf.sin(safe) / safe)


def _np_binary(np_fn, name):
    def fn(x1, x2):
        dtype = _np_result(x1, x2)
        a, b = _to(x1, dtype), _to(x2, dtype)
        return _tf.constant(_np.asarray(np_fn(a.numpy(), b.numpy())).astype(a.dtype.as_numpy_dtype))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise integer ``np.{name}`` (not differentiable); ``tnp.{name}``."
    return fn


gcd, lcm = _np_binary(_np.gcd, "gcd"), _np_binary(_np.lcm, "lcm")
bitwise_and = _np_binary(_np.bitwise_and, "bitwise_and")
bitwise_or = _np_binary(_np.bitwise_or, "bitwise_or")
bitwise_xor = _np_binary(_np.bitwise_xor, "bitwise_xor")


def bitwise_not(x):
    """Elementwise bit inversion of an integer or bool array; ``np.bitwise_not``."""
    x = _to(x)
    return _tf.constant(_np.invert(x.numpy()))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol |b|``; ``np.isclose``."""
    dtype = _np_result(a, b)
    a, b = _to(a, dtype), _to(b, dtype)
    out = _tf.abs(a - b) <= _tf.constant(_np.asarray(atol, a.dtype.as_numpy_dtype)) + _tf.constant(
        _np.asarray(rtol, a.dtype.as_numpy_dtype)) * _tf.abs(b)
    out = _tf.logical_or(out, _tf.equal(a, b))
    if equal_nan and a.dtype.is_floating:
        out = _tf.logical_or(out, _tf.logical_and(_tf.math.is_nan(a), _tf.math.is_nan(b)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close; a bool tensor; ``np.allclose``."""
    return _tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    """Whether two arrays have one shape and equal elements; ``np.array_equal``."""
    a1, a2 = _to(a1), _to(a2)
    if _traced(a1).as_list() != _traced(a2).as_list():
        return _tf.constant(False)
    dtype = _np_result(a1, a2)
    return _tf.reduce_all(_tf.equal(_to(a1, dtype), _to(a2, dtype)))


# ---------------------------------------------------------------- reductions
def _axis(axis):
    if isinstance(axis, tuple):
        return list(axis)
    return axis


def _reduce(tf_fn, name, promote_int=False, bool_to_int=False):
    def fn(a, axis=None, dtype=None, keepdims=False):
        a = _to(a)
        if dtype is not None:
            a = _tf.cast(a, _as_dtype(_np.dtype(dtype)) if not isinstance(dtype, _tf.DType)
                         else dtype)
        elif bool_to_int and (a.dtype == _tf.bool or (a.dtype.is_integer and a.dtype.size < 8)):
            a = _tf.cast(a, _tf.int64 if a.dtype == _tf.bool or not a.dtype.is_unsigned
                         else _tf.uint64)
        elif promote_int and not (a.dtype.is_floating or a.dtype.is_complex):
            a = _tf.cast(a, result_type(float))
        return tf_fn(a, axis=_axis(axis), keepdims=bool(keepdims))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``np.{name}`` over ``axis`` (int, tuple or None for all); ``tnp.{name}``."
    return fn


sum = _reduce(_tf.reduce_sum, "sum", bool_to_int=True)  # noqa: A001 - NumPy's name
prod = _reduce(_tf.reduce_prod, "prod", bool_to_int=True)
mean = _reduce(_tf.reduce_mean, "mean", promote_int=True)


def _noarg_reduce(tf_fn, name):
    def fn(a, axis=None, keepdims=None):
        return tf_fn(_to(a), axis=_axis(axis), keepdims=bool(keepdims))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``np.{name}`` over ``axis`` (int, tuple or None for all); ``tnp.{name}``."
    return fn


max = amax = _noarg_reduce(_tf.reduce_max, "amax")  # noqa: A001
min = amin = _noarg_reduce(_tf.reduce_min, "amin")  # noqa: A001


def all(a, axis=None, keepdims=None):  # noqa: A001
    """Whether all elements (read as bool) are true over ``axis``; ``np.all``."""
    return _tf.reduce_all(_to(a, _tf.bool), axis=_axis(axis), keepdims=bool(keepdims))


def any(a, axis=None, keepdims=None):  # noqa: A001
    """Whether any element (read as bool) is true over ``axis``; ``np.any``."""
    return _tf.reduce_any(_to(a, _tf.bool), axis=_axis(axis), keepdims=bool(keepdims))


def ptp(a, axis=None, keepdims=None):
    """Max minus min over ``axis``; ``np.ptp``."""
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom; ``np.var``."""
    a = _to(a, dtype)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        a = _tf.cast(a, result_type(float))
    m = _tf.reduce_mean(a, axis=_axis(axis), keepdims=True)
    sq = _tf.reduce_sum(_tf.square(a - m), axis=_axis(axis), keepdims=bool(keepdims))
    n = _np.prod(_traced(a).as_list()) / _np.prod(
        _traced(_tf.reduce_sum(a, axis=_axis(axis))).as_list() or [1])
    return sq / _tf.constant(n - ddof, sq.dtype)


def std(a, axis=None, keepdims=None):
    """Standard deviation over ``axis``; ``np.std``."""
    return _tf.sqrt(var(a, axis=axis, keepdims=keepdims))


def average(a, axis=None, weights=None, returned=False):
    """The (weighted) mean over ``axis``; ``np.average``."""
    if weights is None:
        out = mean(a, axis=axis)
        w = None
    else:
        dtype = _np_result(a, weights, float)
        a, w = _to(a, dtype), _to(weights, dtype)
        if axis is not None and len(_traced(w)) == 1 and len(_traced(a)) > 1:
            shp = [1] * len(_traced(a))
            shp[axis] = -1
            w = _tf.reshape(w, shp)
        w = _tf.broadcast_to(w, _tf.shape(a))
        out = _tf.reduce_sum(a * w, axis=axis) / _tf.reduce_sum(w, axis=axis)
    if returned:
        return out, (_tf.reduce_sum(w, axis=axis) if w is not None
                     else _tf.cast(_tf.size(_to(a)), out.dtype))
    return out


def argmax(a, axis=None):
    """The index of the maximum (over the flattened array when ``axis`` is None)."""
    a = _to(a)
    return _tf.argmax(_tf.reshape(a, [-1]) if axis is None else a, axis=0 if axis is None
                      else axis)


def argmin(a, axis=None):
    """The index of the minimum (over the flattened array when ``axis`` is None)."""
    a = _to(a)
    return _tf.argmin(_tf.reshape(a, [-1]) if axis is None else a, axis=0 if axis is None
                      else axis)


def _cum(tf_fn):
    def fn(a, axis=None, dtype=None):
        a = _to(a, dtype)
        if dtype is None and (a.dtype == _tf.bool or (a.dtype.is_integer and a.dtype.size < 8)):
            a = _tf.cast(a, _tf.int64)
        if axis is None:
            a, axis = _tf.reshape(a, [-1]), 0
        return tf_fn(a, axis=axis)
    return fn


cumsum = _cum(_tf.cumsum)
cumsum.__doc__ = "Cumulative sum along ``axis`` (flattened when None); ``np.cumsum``."
cumprod = _cum(_tf.math.cumprod)
cumprod.__doc__ = "Cumulative product along ``axis`` (flattened when None); ``np.cumprod``."


def _nan_reduce(fill, fn):
    def inner(a, axis=None, dtype=None, keepdims=False):
        a = _to(a, dtype)
        if a.dtype.is_floating:
            a = _tf.where(_tf.math.is_nan(a), _tf.cast(fill, a.dtype) * _tf.ones_like(a), a)
        return fn(a, axis=axis, keepdims=keepdims)
    return inner


nansum = _nan_reduce(0, sum)
nansum.__doc__ = "The sum with NaNs read as 0; ``np.nansum``."
nanprod = _nan_reduce(1, prod)
nanprod.__doc__ = "The product with NaNs read as 1; ``np.nanprod``."


def nanmean(a, axis=None, dtype=None, keepdims=None):
    """The mean of the non-NaN elements; ``np.nanmean``."""
    a = _to(a, dtype)
    if not a.dtype.is_floating:
        return mean(a, axis, keepdims=keepdims)
    ok = _tf.logical_not(_tf.math.is_nan(a))
    s = nansum(a, axis=axis, keepdims=bool(keepdims))
    return s / _tf.cast(_tf.reduce_sum(_tf.cast(ok, _tf.int64), axis=_axis(axis),
                                       keepdims=bool(keepdims)), a.dtype)


def count_nonzero(a, axis=None):
    """The number of non-zero elements over ``axis`` (int64); ``np.count_nonzero``."""
    return _tf.reduce_sum(_tf.cast(_tf.not_equal(_to(a), 0), _tf.int64), axis=_axis(axis))


# ---------------------------------------------------------------- linear algebra
def matmul(x1, x2):
    """The matrix product (a vector promoted on the right or the left); ``np.matmul``."""
    dtype = _np_result(x1, x2)
    a, b = _to(x1, dtype), _to(x2, dtype)
    if len(_traced(a)) == 1 and len(_traced(b)) == 1:
        return _tf.reduce_sum(a * b)
    if len(_traced(a)) == 1:
        return _tf.squeeze(_tf.matmul(a[None], b), -2)
    if len(_traced(b)) == 1:
        return _tf.squeeze(_tf.matmul(a, b[:, None]), -1)
    try:
        return _tf.matmul(a, b)
    except _tf.errors.InvalidArgumentError as exc:   # TF's tnp raises ValueError here
        raise ValueError(str(exc)) from None


def dot(a, b):
    """``np.dot``: the product over the last axis of ``a`` and the second-to-last of ``b``."""
    dtype = _np_result(a, b)
    a, b = _to(a, dtype), _to(b, dtype)
    if len(_traced(a)) == 0 or len(_traced(b)) == 0:
        return a * b
    return _tf.tensordot(a, b, [[len(_traced(a)) - 1], [_b.max(len(_traced(b)) - 2, 0)]])


def vdot(a, b):
    """The dot product of the flattened arrays (``a`` conjugated); ``np.vdot``."""
    dtype = _np_result(a, b)
    a, b = _tf.reshape(_to(a, dtype), [-1]), _tf.reshape(_to(b, dtype), [-1])
    return _tf.reduce_sum((_tf.math.conj(a) if a.dtype.is_complex else a) * b)


def inner(a, b):
    """The product over the last axes of ``a`` and ``b``; ``np.inner``."""
    dtype = _np_result(a, b)
    a, b = _to(a, dtype), _to(b, dtype)
    if len(_traced(a)) == 0 or len(_traced(b)) == 0:
        return a * b
    return _tf.tensordot(a, b, [[len(_traced(a)) - 1], [len(_traced(b)) - 1]])


def outer(a, b):
    """The outer product of the flattened arrays; ``np.outer``."""
    dtype = _np_result(a, b)
    return _tf.reshape(_to(a, dtype), [-1, 1]) * _tf.reshape(_to(b, dtype), [1, -1])


def tensordot(a, b, axes=2):
    """``np.tensordot``."""
    dtype = _np_result(a, b)
    return _tf.tensordot(_to(a, dtype), _to(b, dtype), axes)


def einsum(subscripts, *operands, **kwargs):
    """``np.einsum`` (operands promoted to one dtype)."""
    dtype = _np_result(*operands)
    return _tf.einsum(subscripts, *[_to(o, dtype) for o in operands])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along the last axis; ``np.cross``."""
    dtype = _np_result(a, b)
    return _tf.linalg.cross(_to(a, dtype), _to(b, dtype))


def kron(a, b):
    """The Kronecker product of two matrices; ``np.kron``."""
    dtype = _np_result(a, b)
    a, b = _to(a, dtype), _to(b, dtype)
    (m, n), (p, q) = _traced(a).as_list(), _traced(b).as_list()
    return _tf.reshape(a[:, None, :, None] * b[None, :, None, :], [m * p, n * q])


# ---------------------------------------------------------------- shapes and arrangement
def reshape(a, newshape, order="C"):
    """``a`` with shape ``newshape`` (an int or a sequence, one -1); ``np.reshape``."""
    return _tf.reshape(_to(a), _shape(newshape))


def ravel(a):
    """``a`` flattened; ``np.ravel``."""
    return _tf.reshape(_to(a), [-1])


flatten = ravel


def transpose(a, axes=None):
    """``a`` with axes reversed or permuted; ``np.transpose``."""
    return _tf.transpose(_to(a), axes)


def swapaxes(a, axis1, axis2):
    """``a`` with two axes swapped; ``np.swapaxes``."""
    a = _to(a)
    perm = list(range(len(_traced(a))))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return _tf.transpose(a, perm)


def moveaxis(a, source, destination):
    """``a`` with axis ``source`` moved to ``destination``; ``np.moveaxis``."""
    a = _to(a)
    return _tf.transpose(a, _perm_moveaxis(len(_traced(a)), source, destination))


def _perm_moveaxis(n, src, dst):
    src, dst = src % n, dst % n
    order = [i for i in range(n) if i != src]
    order.insert(dst, src)
    return order


def expand_dims(a, axis):
    """``a`` with a length-1 axis inserted at ``axis``; ``np.expand_dims``."""
    return _tf.expand_dims(_to(a), axis)


def squeeze(a, axis=None):
    """``a`` without its length-1 axes (or only ``axis``); ``np.squeeze``."""
    return _tf.squeeze(_to(a), axis)


def atleast_1d(*arys):
    """Each input with at least one dimension; ``np.atleast_1d``."""
    out = [_tf.reshape(t, [1]) if len(_traced(t)) == 0 else t for t in map(_to, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    """Each input with at least two dimensions; ``np.atleast_2d``."""
    out = [array(t, copy=False, ndmin=2) for t in map(_to, arys)]
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    """Each input with at least three dimensions (1-D ``(n,)`` -> ``(1, n, 1)``)."""
    out = []
    for t in map(_to, arys):
        r = len(_traced(t))
        t = (_tf.reshape(t, [1, 1, 1]) if r == 0 else t[None, :, None] if r == 1
             else t[..., None] if r == 2 else t)
        out.append(t)
    return out[0] if len(out) == 1 else out


def _promote_all(arrays):
    dtype = _np_result(*arrays)
    return [_to(a, dtype) for a in arrays]


def concatenate(arys, axis=0):
    """The arrays joined along ``axis``, promoted to one dtype; ``np.concatenate``."""
    return _tf.concat(_promote_all(list(arys)), axis)


def stack(arrays, axis=0):
    """The arrays stacked on a new ``axis``; ``np.stack``."""
    return _tf.stack(_promote_all(list(arrays)), axis)


def hstack(tup):
    """Joined along axis 1 (axis 0 for 1-D inputs); ``np.hstack``."""
    arrs = atleast_1d(*tup)
    arrs = arrs if isinstance(arrs, list) else [arrs]
    return concatenate(arrs, 0 if len(_traced(arrs[0])) == 1 else 1)


def vstack(tup):
    """Joined along axis 0 (1-D inputs as rows); ``np.vstack``."""
    arrs = atleast_2d(*tup)
    return concatenate(arrs if isinstance(arrs, list) else [arrs], 0)


def dstack(tup):
    """Joined along axis 2; ``np.dstack``."""
    arrs = atleast_3d(*tup)
    return concatenate(arrs if isinstance(arrs, list) else [arrs], 2)


def append(arr, values, axis=None):
    """``values`` appended to ``arr`` (both flattened when ``axis`` is None)."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def split(ary, indices_or_sections, axis=0):
    """``ary`` split into equal sections or at indices; a list; ``np.split``."""
    a = _to(ary)
    n = _traced(a)[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        sizes = [n // indices_or_sections] * indices_or_sections
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
        sizes = [_b.max(hi - lo, 0) for lo, hi in zip(bounds[:-1], bounds[1:])]
    return _tf.split(a, sizes, axis)


def hsplit(ary, indices_or_sections):
    """``np.hsplit``: split along axis 1 (axis 0 for 1-D)."""
    a = _to(ary)
    return split(a, indices_or_sections, 0 if len(_traced(a)) == 1 else 1)


def vsplit(ary, indices_or_sections):
    """``np.vsplit``: split along axis 0."""
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """``np.dsplit``: split along axis 2."""
    return split(ary, indices_or_sections, 2)


def tile(a, reps):
    """``a`` repeated ``reps`` times per axis; ``np.tile``."""
    a = _to(a)
    reps = _shape(reps)
    r = _b.max(len(reps), len(_traced(a)))
    a = array(a, copy=False, ndmin=r)
    return _tf.tile(a, [1] * (r - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    """Each element repeated (flattened when ``axis`` is None); ``np.repeat``."""
    a = _to(a)
    if axis is None:
        a, axis = _tf.reshape(a, [-1]), 0
    return _tf.repeat(a, repeats, axis=axis)


def flip(m, axis=None):
    """``m`` reversed along ``axis`` (all axes when None); ``np.flip``."""
    m = _to(m)
    axes = list(range(len(_traced(m)))) if axis is None else [axis] if isinstance(axis, int) \
        else list(axis)
    return _tf.reverse(m, axes)


def fliplr(m):
    """``m`` reversed along axis 1; ``np.fliplr``."""
    return flip(m, 1)


def flipud(m):
    """``m`` reversed along axis 0; ``np.flipud``."""
    return flip(m, 0)


def roll(a, shift, axis=None):
    """``a`` rolled by ``shift`` (flattened when ``axis`` is None); ``np.roll``."""
    a = _to(a)
    if axis is None:
        return _tf.reshape(_tf.roll(_tf.reshape(a, [-1]), shift, 0), _tf.shape(a))
    return _tf.roll(a, shift, axis)


def rot90(m, k=1, axes=(0, 1)):
    """``m`` rotated by 90 degrees ``k`` times in the plane ``axes``; ``np.rot90``."""
    m = _to(m)
    for _ in range(k % 4):
        m = swapaxes(flip(m, axes[1]), axes[0], axes[1])
    return m


def pad(array, pad_width, mode="constant", constant_values=0):
    """``array`` padded with ``constant_values`` (constant mode); ``np.pad``."""
    a = _to(array)
    pw = _np.broadcast_to(_np.asarray(pad_width), (len(_traced(a)), 2)).tolist()
    return _tf.pad(a, pw, mode=mode.upper(), constant_values=constant_values)


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape``; ``np.broadcast_to``."""
    return _tf.broadcast_to(_to(array), _shape(shape))


def broadcast_arrays(*args):
    """The inputs broadcast against each other; a list; ``np.broadcast_arrays``."""
    ts = [_to(a) for a in args]
    shp = _np.broadcast_shapes(*[tuple(_traced(t).as_list()) for t in ts])
    return [_tf.broadcast_to(t, list(shp)) for t in ts]


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` else ``y``, promoted; with only
    ``condition``, the tuple of index tensors of its true elements; ``np.where``."""
    if x is None and y is None:
        return nonzero(condition)
    dtype = _np_result(x, y)
    c, a, b = _to(condition, _tf.bool), _to(x, dtype), _to(y, dtype)
    shp = list(_np.broadcast_shapes(*[tuple(_traced(t).as_list()) for t in (c, a, b)]))
    return _tf.where(_tf.broadcast_to(c, shp), _tf.broadcast_to(a, shp),
                     _tf.broadcast_to(b, shp))


def nonzero(a):
    """A tuple of int64 index tensors, one per axis, of the non-zero elements."""
    idx = _np.nonzero(_to(a).numpy())
    return tuple(_tf.constant(i.astype(_np.int64)) for i in idx)


def take(a, indices, axis=None):
    """Elements of ``a`` at ``indices`` (flattened when ``axis`` is None); ``np.take``."""
    a = _to(a)
    if axis is None:
        a, axis = _tf.reshape(a, [-1]), 0
    return _tf.gather(a, _to(indices), axis=axis)


def take_along_axis(arr, indices, axis):
    """``np.take_along_axis``: pick along ``axis`` with indices shaped like ``arr``."""
    a, idx = _to(arr), _to(indices)
    grids = list(_np.meshgrid(*[_np.arange(s) for s in _traced(idx).as_list()], indexing="ij"))
    grids[axis] = idx.numpy()
    full = _np.stack(grids, -1).astype(_np.int64)
    return _tf.gather_nd(a, _tf.constant(full))


def sort(a, axis=-1):
    """``a`` sorted along ``axis`` ascending; ``np.sort``."""
    return _tf.sort(_to(a), axis=axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    """The indices that sort ``a`` along ``axis`` (stable, int64); ``np.argsort``."""
    return _tf.cast(_tf.argsort(_to(a), axis=axis, stable=True), _tf.int64)


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis``; ``np.diff``."""
    a = _to(a)
    for _ in range(n):
        k = _traced(a)[axis]
        a = (_tf.gather(a, list(range(1, k)), axis=axis)
             - _tf.gather(a, list(range(k - 1)), axis=axis))
    return a


def compress(condition, a, axis=None):
    """The slices of ``a`` where ``condition`` holds; ``np.compress``."""
    a = _to(a)
    if axis is None:
        a, axis = _tf.reshape(a, [-1]), 0
    keep = _np.nonzero(_np.asarray(_to(condition, _tf.bool).numpy()))[0]
    return _tf.gather(a, _tf.constant(keep.astype(_np.int64)), axis=axis)


def select(condlist, choicelist, default=0):
    """Elements of the first choice whose condition holds, else ``default``."""
    out = _to(default, _np_result(*choicelist, default))
    for c, v in reversed(list(zip(condlist, choicelist))):
        out = where(c, v, out)
    return out


def meshgrid(*xi, indexing="xy"):
    """Coordinate grids of 1-D arrays; a list; ``np.meshgrid``."""
    return _tf.meshgrid(*[_to(x) for x in xi], indexing=indexing)


def vander(x, N=None, increasing=False):  # noqa: N803
    """The Vandermonde matrix of 1-D ``x``; ``np.vander``."""
    x = _to(x)
    n = _traced(x)[0] if N is None else N
    p = list(range(n)) if increasing else list(range(n - 1, -1, -1))
    return _tf.pow(x[:, None], _tf.constant(p, x.dtype)[None, :])


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest first) at ``x``; ``np.polyval``."""
    dtype = _np_result(p, x)
    x = _to(x, dtype)
    out = _tf.zeros_like(x)
    for c in (p if isinstance(p, (list, tuple)) else _tf.unstack(_to(p, dtype))):
        out = out * x + _to(c, dtype)
    return out


def shape(a):
    """The shape of ``a`` as a tuple of ints; ``np.shape``."""
    return tuple(_to(a).shape.as_list())


def ndim(a):
    """The number of dimensions of ``a``; ``np.ndim``."""
    return len(_to(a).shape)


def size(x, axis=None):
    """The number of elements of ``x`` (along ``axis``); ``np.size``."""
    s = _traced(_to(x)).as_list()
    return int(_np.prod(s)) if axis is None else s[axis]


def isscalar(num):
    """Whether ``num`` is a 0-d array-like; ``tnp.isscalar``."""
    return ndim(num) == 0


def iscomplexobj(x):
    """Whether ``x`` has a complex dtype; ``np.iscomplexobj``."""
    return _to(x).dtype.is_complex


def isrealobj(x):
    """Whether ``x`` has a non-complex dtype; ``np.isrealobj``."""
    return not iscomplexobj(x)
