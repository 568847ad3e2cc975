"""``MatMulEigen``: TF's MatMul bits for one small float64/complex product, as a primitive.

``expm`` squares its Pade approximant up to 96 times, so the last bit of each product decides
whether TF's answer overflows to inf, nan or 0; NumPy's BLAS and Eigen's kernel differ there.
This primitive runs ``_eigen_linalg._matmul_eigen`` (Eigen's gebp kernel, TF's contraction)
where it gives TF's bits and MatMul's forward elsewhere; its derivatives are MatMul's rules.
Used by ``linalg_ops.expm``, never by ``tf.matmul`` itself.
"""
from .._core.dispatch import apply
from .._core.registry import defjvp, defvjp, primitive
from . import math_ops as _m
from ._eigen_linalg import _matmul_eigen, _matmul_replayable


def _forward(a, b):
    if _matmul_replayable(a, b):
        return _matmul_eigen(a, b)
    return _m._matmul_forward(a, b, False, False)


def _vjp(i):  # MatMul's rule for input i (conjugated for complex cotangents), looked up late
    return lambda g, y, a, b: _m._MATMUL.vjps[i](g, y, a, b, transpose_a=False,
                                                  transpose_b=False)


_MATMUL_EIGEN = primitive("MatMulEigen", _forward, error=_m._matmul_error)
defvjp(_MATMUL_EIGEN, _vjp(0), _vjp(1))
# MatMul's forward-mode rule (registered lazily with the other rules), looked up at call time
defjvp(_MATMUL_EIGEN, lambda ts, y, a, b: _m._MATMUL.jvp(ts, y, a, b, transpose_a=False,
                                                         transpose_b=False))


def matmul_eigen(a, b):
    """``a @ b`` of two tensors ``[..., m, k]``, ``[..., k, n]`` of one dtype (no checks: for
    ``expm``'s own products), with TF's bits where ``_matmul_replayable``."""
    return apply(_MATMUL_EIGEN, (a, b))
