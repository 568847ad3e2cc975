"""Complex numbers from parts and back (``tf.complex``, ``tf.math.angle``).

``real``, ``imag``, ``conj`` and ``abs`` live with the element-wise ops; these rules follow
TensorFlow's convention for a real loss ``L`` of complex ``z``: the gradient is
``dL/dx + i dL/dy``.
"""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import PRIMITIVES, defjvp, defvjp, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import math_ops as _m
from ._helpers import _SIGNED_TYPES, check_kind

__all__ = ["complex", "angle", "sign"]

_PAIR = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _complex_forward(real, imag):
    # the parts set as they are (``real + 1j * imag`` makes nan of 1j * inf's real part)
    out = np.empty(np.broadcast_shapes(np.shape(real), np.shape(imag)),
                   _PAIR[np.result_type(real, imag)])
    out.real = real
    out.imag = imag
    return out


_COMPLEX = primitive("Complex", _complex_forward, save_inputs=False)
defvjp(_COMPLEX, lambda g, y, re_shape, im_shape: _m.real(g),
       lambda g, y, re_shape, im_shape: _m.imag(g))


def _complex_jvp(tangents, y, re_shape, im_shape):
    dre, dim = tangents
    if dre is None and dim is None:
        return None
    like = dre if dre is not None else dim
    return complex(_a.zeros_like(like) if dre is None else dre,
                   _a.zeros_like(like) if dim is None else dim)


defjvp(_COMPLEX, _complex_jvp)

# Real and Imag are real-linear but not complex-linear: their tangents are the parts of
# the input's tangent (differentiating their VJPs instead would leak imaginary parts).
for _name, _part in (("Real", _m.real), ("Imag", _m.imag)):
    if _name in PRIMITIVES and PRIMITIVES[_name].jvp is None:
        defjvp(PRIMITIVES[_name], lambda ts, y, x, _part=_part: None if ts[0] is None
               else _part(ts[0]))

# TF's ImagGrad, complex(0, g): the parts set apart (math_ops' g * 1j, kept there for the
# floor below, makes nan + nan j of a nan g where TF has 0 + nan j)
defvjp(PRIMITIVES["Imag"],
       lambda g, y, x_shape: complex(_a.zeros_like(g), g))


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """``real + i * imag`` (``tf.complex``): float32 parts give complex64, float64 parts
    complex128. The gradient of each part is the real or imaginary part of the gradient.

    Args:
        real, imag: float32 or float64 tensors of one dtype (broadcastable shapes).

    Returns:
        A complex tensor.

    Raises:
        TypeError: for parts of different or non-floating dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.complex(tf.constant([1.0]), tf.constant([2.0]))
        <tf.Tensor: shape=(1,), dtype=complex64, numpy=array([1.+2.j], dtype=complex64)>
    """
    re = real if isinstance(real, _TensorLike) else convert_to_tensor(real)
    im = imag if isinstance(imag, _TensorLike) else convert_to_tensor(imag, re.dtype)
    if re.dtype != im.dtype or re.dtype not in (_dt.float32, _dt.float64):
        raise TypeError(f"The `real` and `imag` components have incorrect types: "
                        f"{re.dtype.name} {im.dtype.name}. They must be consistent, and "
                        "one of [tf.float32, tf.float64]")
    return apply(_COMPLEX, (re, im))


def _angle_rule(g, y, x):
    # TensorFlow's: -g / (Im(x) + i Re(x)).
    z = _m.reciprocal(complex(_m.imag(x), _m.real(x)))
    return _m.negative(_m.multiply(complex(g, _a.zeros_like(g)), z))


_ANGLE = primitive("Angle", lambda x: np.angle(x).astype(x.real.dtype))
defvjp(_ANGLE, _angle_rule)


# Complex-to-real ops get forward-mode rules of their own: the generic rule (transposing the
# VJP) would seed a complex cotangent. d|z| = Re(conj(z) dz) / |z| (0 at z = 0, as TF's
# div_no_nan gradient), d arg z = Im(conj(z) dz) / |z|^2.
def _angle_jvp(tangents, y, x):
    t = tangents[0]
    if t is None:
        return None
    # TF's, the transpose of its gradient: -Re(t * conj(1 / (Im(x) + i Re(x)))), the
    # reciprocal and the product as Eigen's (0, not nan, at an infinite x)
    z = _m.reciprocal(complex(_m.imag(x), _m.real(x)))
    return _m.real(_m.negative(_m._cmul(t, _a.conj(z))))


def _abs_jvp(tangents, y, x):
    t = tangents[0]
    if t is None:
        return None
    if not x.dtype.is_complex:
        return _m.multiply(_m.sign(x), t)
    return _m.divide_no_nan(_m.real(_m.multiply(_a.conj(x), t)), _m.abs(x))


defjvp(_ANGLE, _angle_jvp)
if PRIMITIVES["Abs"].jvp is None:
    defjvp(PRIMITIVES["Abs"], _abs_jvp)


def angle(input, name=None):  # noqa: A002 - TensorFlow's name
    """The argument of each complex number, in ``[-pi, pi]`` (``tf.math.angle``); for real
    input ``pi`` where negative, else 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.angle(tf.constant([1j, -1 + 0j])).numpy().round(4)
        array([1.5708, 3.1416])
    """
    x = input if isinstance(input, _TensorLike) else convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply(_ANGLE, (x,))
    kind = x._value.dtype.kind
    if kind not in "fV":
        # TF's Python composition: ``x < 0`` converts 0 to a bool or string tensor's dtype,
        # then ``pi * ones_like(x)`` converts pi to an integer one's
        what = repr(np.pi) if kind in "iu" else "0"
        raise TypeError(f"Cannot convert {what} to EagerTensor of dtype {x.dtype.name}")
    pi = Tensor(x._value.dtype.type(np.pi))
    return _a.where(_m.less(x, Tensor(x._value.dtype.type(0))),
                    _a.broadcast_to(pi, _a.shape(x)), _a.zeros_like(x))


def sign(x, name=None):
    if not isinstance(x, _TensorLike):
        x = convert_to_tensor(x)
    kind = x._value.dtype.kind
    if kind == "u":
        check_kind(x, "fic", "Sign", _SIGNED_TYPES)  # no unsigned Sign kernel in TF
    if kind == "c":
        # TensorFlow's Python sign of a complex tensor: div_no_nan(x, |x|), so its
        # gradient is that of the quotient (the Sign op's own gradient is zero)
        return _m.divide_no_nan(x, _a.cast(_m.abs(x), x.dtype))
    return _m.sign(x)


sign.__doc__ = _m.sign.__doc__.replace(
    "element-wise", "element-wise; ``x / |x|`` (0 at 0) for complex ``x``", 1)


# Complex gradients as TensorFlow composes them (reciprocal, cos, ... with Eigen's complex
# division of whole packets, nan + nanj at an infinite or zero denominator, where a division
# in one step would give 0), so nan and inf land where TensorFlow's do: the complex branch of
# each rule of math_ops, conjugated as the others (g * conj(f'(z))); real inputs unchanged.
def _complex_rules():
    m = _m

    def cdiv(a, b):
        return apply(m._CDIV, (a, b))

    rules = {
        "Log": lambda g, y, x: m.multiply(g, m.reciprocal(x)),
        "Log1p": lambda g, y, x: m.multiply(g, m.reciprocal(m.add(x, 1))),
        "Tan": lambda g, y, x: m.multiply(g, m.square(m.reciprocal(m.cos(x)))),
        "Asin": lambda g, y, x: m.multiply(g, m.reciprocal(m.sqrt(m.subtract(1, m.square(x))))),
        "Acos": lambda g, y, x: m.multiply(m.negative(g), m.reciprocal(
            m.sqrt(m.subtract(1, m.square(x))))),
        "Atanh": lambda g, y, x: m.multiply(g, m.reciprocal(m.subtract(1, m.square(x)))),
        "Asinh": lambda g, y, x: cdiv(g, m.cosh(m.asinh(x))),
    }
    for name, rule in rules.items():
        prim = PRIMITIVES[name]
        real_rule, complex_rule = prim.vjps[0], m._conj_aware(rule)
        prim.vjps = ((lambda g, y, x, _r=real_rule, _c=complex_rule:
                      (_c if x._value.dtype.kind == "c" else _r)(g, y, x)),)
    # RealDiv: TensorFlow's g / conj(y) and g * ((-conj(x)) / conj(y)) / conj(y)
    div = PRIMITIVES["RealDiv"]
    real_x, real_y = div.vjps
    cx = m._conj_aware(lambda g, y, x1, x2: cdiv(g, x2))
    cy = m._conj_aware(lambda g, y, x1, x2: m._cmul(g, cdiv(cdiv(m.negative(x1), x2), x2)))
    div.vjps = ((lambda g, y, x1, x2: (cx if x2._value.dtype.kind == "c" else real_x)(
        g, y, x1, x2)), (lambda g, y, x1, x2: (cy if x2._value.dtype.kind == "c" else real_y)(
        g, y, x1, x2)))
    m._CDIV.vjps = div.vjps


_complex_rules()
