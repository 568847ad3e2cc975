"""Special functions: ``tf.math.bessel_i0``/``i0e``/``i1``/``i1e`` and ``tf.math.special``'s
Bessel ``j0 j1 y0 y1 k0 k0e k1 k1e``, ``dawsn``, ``expint``, ``fresnel_cos``, ``fresnel_sin``,
``spence``, with TF 2.21's gradients.

The values come from SciPy's ``scipy.special`` (the optional extra ``tapeflow[special]``),
imported on the first call only: the core stays NumPy-only. Floating inputs only; float16
and float32 are computed in float64 and rounded to the input's dtype.
"""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive, defvjp
from ._helpers import to_tensor
from .array_ops import where, zeros_like
from .math_ops import (
    cos,
    divide,
    equal,
    exp,
    log,
    multiply,
    negative,
    ones_like,
    sign,
    sin,
    square,
    subtract,
)

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]

_SCIPY = []


def _special():
    if not _SCIPY:
        try:
            import scipy.special
        except ImportError:
            raise ImportError("tf.math's Bessel and special functions need SciPy: "
                              "pip install tapeflow[special] (or scipy)") from None
        _SCIPY.append(scipy.special)
    return _SCIPY[0]


def _forward(sp_name):
    def forward(x):
        fn = getattr(_special(), sp_name)
        out = np.asarray(fn(x.astype(np.float64)))
        if sp_name == "expi":   # TF's Expint is defined for x >= 0 only: NaN below
            out = np.where(x < 0, np.nan, out)
        return out.astype(x.dtype)
    return forward


_OPS = {}


def _make(tf_name, op_name, sp_name, what):
    forward = (_fresnel_forward(sp_name == "fresnel_c") if sp_name.startswith("fresnel")
               else _forward(sp_name))
    prim = Primitive(op_name, forward, save_output=True)

    def op(x, name=None):
        t = to_tensor(x)
        if not t.dtype.is_floating:
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'T' of {t.dtype.name} is not in the list of "
                "allowed values: bfloat16, half, float, double\n\t; NodeDef: {{node "
                f"{op_name}}}}}; Op<name={op_name}; signature=x:T -> y:T; attr=T:type,"
                f"allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE]> [Op:{op_name}] name: ")
        return apply(prim, (t,))
    op.__name__ = op.__qualname__ = tf_name
    op.__doc__ = (f"{what} of ``x``, element-wise (``tf.math.{tf_name}``; TF's op "
                  f"``{op_name}``).\n\n"
                  "Args:\n    x: a floating tensor (float16, bfloat16, float32, float64).\n"
                  "    name: unused.\n\n"
                  "Returns:\n    A tensor of ``x``'s dtype and shape; differentiable with "
                  "TF 2.21's gradient.\n\n"
                  "Raises:\n    tf.errors.InvalidArgumentError: a non-floating ``x`` (TF's "
                  "message).\n"
                  "    ImportError: SciPy missing (the extra ``tapeflow[special]``).\n")
    _OPS[tf_name] = (op, prim)
    return op


def _fresnel_forward(cos_part):
    def forward(x):
        s, c = _special().fresnel(x.astype(np.float64))
        return np.asarray(c if cos_part else s).astype(x.dtype)
    return forward


bessel_i0 = _make("bessel_i0", "BesselI0", "i0", "The modified Bessel function I0")
bessel_i0e = _make("bessel_i0e", "BesselI0e", "i0e",
                   "The exponentially scaled modified Bessel function exp(-|x|) I0(x)")
bessel_i1 = _make("bessel_i1", "BesselI1", "i1", "The modified Bessel function I1")
bessel_i1e = _make("bessel_i1e", "BesselI1e", "i1e",
                   "The exponentially scaled modified Bessel function exp(-|x|) I1(x)")
bessel_j0 = _make("bessel_j0", "BesselJ0", "j0", "The Bessel function J0 of the first kind")
bessel_j1 = _make("bessel_j1", "BesselJ1", "j1", "The Bessel function J1 of the first kind")
bessel_y0 = _make("bessel_y0", "BesselY0", "y0", "The Bessel function Y0 of the second kind")
bessel_y1 = _make("bessel_y1", "BesselY1", "y1", "The Bessel function Y1 of the second kind")
bessel_k0 = _make("bessel_k0", "BesselK0", "k0", "The modified Bessel function K0")
bessel_k0e = _make("bessel_k0e", "BesselK0e", "k0e",
                   "The exponentially scaled modified Bessel function exp(x) K0(x)")
bessel_k1 = _make("bessel_k1", "BesselK1", "k1", "The modified Bessel function K1")
bessel_k1e = _make("bessel_k1e", "BesselK1e", "k1e",
                   "The exponentially scaled modified Bessel function exp(x) K1(x)")
dawsn = _make("dawsn", "Dawsn", "dawsn", "Dawson's integral")
expint = _make("expint", "Expint", "expi", "The exponential integral Ei")
fresnel_cos = _make("fresnel_cos", "FresnelCos", "fresnel_c", "The Fresnel cosine integral")
fresnel_sin = _make("fresnel_sin", "FresnelSin", "fresnel_s", "The Fresnel sine integral")
spence = _make("spence", "Spence", "spence", "Spence's integral (the dilogarithm form)")


def _p(name):
    return _OPS[name][1]


def _at_zero(x, value, other):
    """``value`` where ``x == 0`` else ``other`` (TF's guard on the 1/x terms)."""
    return where(equal(x, zeros_like(x)), multiply(ones_like(x), value), other)


def _safe_x(x):
    return where(equal(x, zeros_like(x)), ones_like(x), x)


defvjp(_p("bessel_i0"), lambda g, y, x: multiply(g, bessel_i1(x)))
defvjp(_p("bessel_i0e"), lambda g, y, x: multiply(
    g, subtract(bessel_i1e(x), multiply(sign(x), y))))
# TF 2.21 gives 1 at x == 0 (I1'(0) is 0.5; bessel_i1e's rule gives 0.5): kept as TF's
defvjp(_p("bessel_i1"), lambda g, y, x: multiply(
    g, _at_zero(x, 1.0, subtract(bessel_i0(x), divide(y, _safe_x(x))))))
defvjp(_p("bessel_i1e"), lambda g, y, x: multiply(
    g, _at_zero(x, 0.5, subtract(bessel_i0e(x),
                                 multiply(y, sign(x) + divide(ones_like(x), _safe_x(x)))))))
defvjp(_p("bessel_j0"), lambda g, y, x: multiply(g, negative(bessel_j1(x))))
defvjp(_p("bessel_j1"), lambda g, y, x: multiply(
    g, _at_zero(x, 0.5, subtract(bessel_j0(x), divide(y, _safe_x(x))))))
defvjp(_p("bessel_y0"), lambda g, y, x: multiply(g, negative(bessel_y1(x))))
defvjp(_p("bessel_y1"), lambda g, y, x: multiply(g, subtract(bessel_y0(x), divide(y, x))))
defvjp(_p("bessel_k0"), lambda g, y, x: multiply(g, negative(bessel_k1(x))))
defvjp(_p("bessel_k0e"), lambda g, y, x: multiply(g, subtract(y, bessel_k1e(x))))
defvjp(_p("bessel_k1"), lambda g, y, x: multiply(
    g, subtract(negative(bessel_k0(x)), divide(y, x))))
defvjp(_p("bessel_k1e"), lambda g, y, x: multiply(
    g, subtract(multiply(y, subtract(ones_like(x), divide(ones_like(x), x))),
                bessel_k0e(x))))
defvjp(_p("dawsn"), lambda g, y, x: multiply(
    g, subtract(ones_like(x), multiply(multiply(x, 2.0), y))))
defvjp(_p("expint"), lambda g, y, x: multiply(g, divide(exp(x), x)))
defvjp(_p("fresnel_cos"), lambda g, y, x: multiply(
    g, cos(multiply(square(x), np.pi / 2))))
defvjp(_p("fresnel_sin"), lambda g, y, x: multiply(
    g, sin(multiply(square(x), np.pi / 2))))
defvjp(_p("spence"), lambda g, y, x: multiply(
    g, where(equal(x, ones_like(x)), negative(ones_like(x)),
             divide(log(x), subtract(ones_like(x), x)))))
