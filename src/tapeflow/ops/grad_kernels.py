"""TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels as the first derivatives of
``sqrt``, ``rsqrt`` and ``reciprocal``, with TensorFlow's own rules for the second: their
terms round and cancel as TF's (the second derivatives of ``l2_normalize``, ``global_norm``,
Keras ``cosine_similarity`` are TF's exact zeros; ``svd``'s through its regularised
reciprocals; ``log1p``'s, through ``reciprocal``, overflows in float16 as TF's), and
check_numerics names ``SqrtGrad`` as TF does."""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from . import _kernels
from .array_ops import conj
from .math_ops import _RECIP, _RSQRT, _SQRT, _realdiv, multiply, negative, square


def _zero_where_no_gradient(out, g):
    # TF's kernels answer 0 wherever the upstream gradient is 0, whatever y (nan, inf, 0):
    # a gradient masked off upstream (maximum, where) stays 0 through them
    if not np.all(g):
        out = np.where(g == 0, out.dtype.type(0), out)
    return out


def _sqrt_grad_forward(y, g):
    if y.dtype.kind == "c":  # Eigen's complex division (finite / inf is 0 in its tail)
        return _zero_where_no_gradient(_kernels.complex_div(0.5 * g, np.conj(y)), g)
    return _zero_where_no_gradient(0.5 * g / y, g)


def _rsqrt_grad_forward(y, g):
    return _zero_where_no_gradient(-0.5 * (g * np.conj(y)) * (np.conj(y) * np.conj(y)), g)


_SQRT_GRAD = primitive("SqrtGrad", _sqrt_grad_forward, save_output=True)
_RSQRT_GRAD = primitive("RsqrtGrad", _rsqrt_grad_forward)
defvjp(_SQRT, lambda g, y, x: apply(_SQRT_GRAD, (y, g)))
defvjp(_RSQRT, lambda g, y, x: apply(_RSQRT_GRAD, (y, g)))


def _sqrt_grad_rule_y(gg, out, y, g):
    return multiply(negative(conj(_realdiv(gg, y))), out)


def _rsqrt_grad_rule_y(gg, out, y, g):
    return multiply(multiply(multiply(conj(gg), -1.5), g), square(conj(y)))


defvjp(_SQRT_GRAD, _sqrt_grad_rule_y,
       lambda gg, out, y, g: multiply(_realdiv(gg, y), 0.5))
defvjp(_RSQRT_GRAD, _rsqrt_grad_rule_y,
       lambda gg, out, y, g: apply(_RSQRT_GRAD, (conj(y), gg)))


def _reciprocal_grad_forward(y, g):
    # TF's kernel: (-conj(y) * conj(y)) * g, 0 where g is 0 (so y = inf under a masked
    # gradient gives 0, not nan)
    if y.dtype.kind == "c":  # Eigen's complex products, one rounding per product
        c = np.conj(y)
        return _zero_where_no_gradient(
            _kernels.complex_mul(_kernels.complex_mul(-c, c), np.broadcast_to(g, c.shape)), g)
    return _zero_where_no_gradient((-y * y) * g, g)


_RECIP_GRAD = primitive("ReciprocalGrad", _reciprocal_grad_forward)
defvjp(_RECIP, lambda g, y, x: apply(_RECIP_GRAD, (y, g)))
# TF's _ReciprocalGradGrad: conj(gg) * -2 * g * conj(y), and ReciprocalGrad(conj(y), gg)
defvjp(_RECIP_GRAD,
       lambda gg, out, y, g: multiply(multiply(multiply(conj(gg), -2.0), g), conj(y)),
       lambda gg, out, y, g: apply(_RECIP_GRAD, (conj(y), gg)))
