"""Checking and clamping numbers: ``tf.debugging.check_numerics`` and ``tf.saturate_cast``."""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive, defvjp
from .._core.tensor import Tensor
from ._helpers import to_tensor
from .array_ops import cast
from .math_ops import maximum, minimum, real

__all__ = ["check_numerics", "saturate_cast", "set_log_device_placement", "is_non_decreasing",
           "is_strictly_increasing"]


def _check(x, *, message):
    if x.dtype.kind == "f" or x.dtype.kind == "V":
        v = np.asarray(x, np.float64) if x.dtype.kind == "V" else x
        nan, inf = bool(np.isnan(v).any()), bool(np.isinf(v).any())
        if nan or inf:
            kind = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
            raise _NumericsError(f"{message} : Tensor had {kind} values")
    return x


class _NumericsError(Exception):
    pass


def _check_error(values, attrs, exc):
    if isinstance(exc, _NumericsError):
        return errors.InvalidArgumentError, str(exc)
    return errors.InvalidArgumentError, str(exc)


_CHECK = Primitive("CheckNumerics", _check, save_inputs=False, error=_check_error)
# TF 2.21 formats the forward message as bytes into the gradient's ("... gradient. b'msg'")
defvjp(_CHECK, lambda g, y, x, message: check_numerics(
    g, "Not a number (NaN) or infinity (Inf) values detected in gradient. "
    + str(message.encode())))


def check_numerics(tensor, message, name=None):
    """``tensor`` unchanged, after checking it has no NaN or Inf
    (``tf.debugging.check_numerics``).

    Args:
        tensor: a floating-point tensor (float16/bfloat16/float32/float64).
        message: the text that starts the error.
        name: unused.

    Returns:
        ``tensor``. Differentiable: the gradient is checked the same way, its message
        "Not a number (NaN) or infinity (Inf) values detected in gradient. b'<message>'"
        as TF 2.21 words it.

    Raises:
        tf.errors.InvalidArgumentError: ``"<message> : Tensor had NaN values"`` (``Inf``,
            ``Inf and NaN``) as TF 2.21 words it.
        TypeError: a non-floating tensor.
    """
    t = to_tensor(tensor)
    if not t.dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {t.dtype.name} not "
                        "in list of allowed values: bfloat16, float16, float32, float64")
    return apply(_CHECK, (t,), {"message": str(message)})



def _limits(dtype):
    if dtype.is_bool:
        return 0, 1
    if dtype.is_integer:
        info = np.iinfo(dtype._np)
        return int(info.min), int(info.max)
    return float(dtype.min), float(dtype.max)


def saturate_cast(value, dtype, name=None):
    """``value`` clamped to ``dtype``'s range, then cast (``tf.dtypes.saturate_cast``).

    Args:
        value: a numeric tensor (complex keeps its real part when ``dtype`` is real).
        dtype: the target DType.
        name: unused.

    Returns:
        A ``dtype`` tensor of ``value``'s shape: values beyond the range become its bounds
        (a float above int32's range gives 2147483647, not a wrapped number). Differentiable
        where ``cast`` is (float to float), zero gradient where clamped.
    """
    x = to_tensor(value)
    dtype = _dt.as_dtype(dtype)
    if x.dtype.is_complex and not dtype.is_complex:
        x = real(x)
    src = x.dtype
    if src == dtype:
        return x
    in_lo, in_hi = _limits(src)
    lo, hi = _limits(dtype)
    if src.is_floating and dtype.is_integer:
        # the largest float of ``src`` at or below the integer bound (int32's max rounds up)
        f = src._np.type if src._np.kind == "f" else np.float32
        hi_f = f(hi)
        if int(hi_f) > hi:
            hi_f = np.nextafter(hi_f, f(0))
        lo_f = f(lo)
        if int(lo_f) < lo:
            lo_f = np.nextafter(lo_f, f(0))
        x = minimum(maximum(x, cast(float(lo_f), src)), cast(float(hi_f), src))
    else:
        if lo > in_lo:
            x = maximum(x, cast(lo, src))
        if hi < in_hi:
            x = minimum(x, cast(hi, src))
    return cast(x, dtype)


_LOG_PLACEMENT = [False]


def set_log_device_placement(enabled):
    """Accepted as ``tf.debugging.set_log_device_placement``: tapeflow runs every op on its
    one CPU device and prints nothing about placement (TF's C++ runtime logs each op's
    device to stderr; no Python-visible output).

    Args:
        enabled: a bool.
    """
    _LOG_PLACEMENT[0] = bool(enabled)


def _monotonic_values(x):
    x = to_tensor(x)
    v = x._value.reshape(-1)
    if v.dtype.kind not in "iufc":
        # TF's check_ops: bool and string tensors are not numeric
        raise TypeError(f"Expected x to be numeric, instead found: {Tensor(v)}")
    return v


def is_non_decreasing(x, name=None):
    """Whether the flattened ``x`` never decreases (``tf.math.is_non_decreasing``).

    Raises:
        TypeError: for a bool or string ``x`` (TF's).
    """
    v = _monotonic_values(x)
    return Tensor(np.bool_(np.all(v[1:] >= v[:-1])))


def is_strictly_increasing(x, name=None):
    """Whether the flattened ``x`` always increases (``tf.math.is_strictly_increasing``).

    Raises:
        TypeError: for a bool or string ``x`` (TF's).
    """
    v = _monotonic_values(x)
    return Tensor(np.bool_(np.all(v[1:] > v[:-1])))
