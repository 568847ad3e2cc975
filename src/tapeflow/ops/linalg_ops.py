"""``tf.linalg``: products, diagonals, triangular and general solves, factorisations.

Primitives are the factorisations and solves (inverse, determinant, Cholesky, QR, SVD,
solves); their rules are written with these same ops, so second derivatives work.
The rest (trace, band_part, logdet, ...) are compositions; matmul and matvec live in
``math_ops``, einsum and tensordot in ``special_math_ops``, norms in ``clip_ops``.
"""
import builtins

from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor
from . import array_ops as _a
from . import math_ops as _m
from . import reduction_ops as _r
from ._eigen_linalg import (  # noqa: F401 - Eigen's algorithms, used by the forwards
    _eigh_eigen,
    _eigh_nonfinite,
    _eigh_replayable,
    _EighFailed,
    _inv_eigen_complex,
    _lu_eigen,
    _lu_solve_eigen,
    _nonfinite,
    _not_invertible,
    _qr_eigen,
    _qr_unsafe,
    _solve_eigen,
    _solve_replayable,
    _svd_jacobi,
)
from ._eigen_llt_qr import _cholesky_forward, _qr_fast, _qr_replayable
from ._helpers import _err, _show, check_kind, kind_of, no_kernel, pair, to_tensor
from .creation_ops import eye
from .eigen_matmul import matmul_eigen as _expm_mm
from .math_ops import matmul

__all__ = [
    "diag_part", "diag", "set_diag", "band_part", "trace", "inv", "det",
    "logdet", "slogdet", "cholesky", "solve", "triangular_solve", "cholesky_solve", "qr",
    "svd", "norm", "adjoint", "matrix_transpose", "lstsq", "pinv", "eigh", "eigvalsh", "expm",
    "cross", "normalize", "matrix_rank",
]

_FLOATS = "double, float, half, complex64, complex128"


def _check_linalg(x, op_name, allowed=_FLOATS, half=False):
    """TensorFlow's dtype table of a linear-algebra kernel: float32/64 and complex; float16
    only where ``half`` (computed in float32), else NotFoundError (declared, no CPU kernel);
    bfloat16 and the rest refused with InvalidArgumentError."""
    dt = x._value.dtype
    if dt.kind in "fc" and (half or dt.itemsize > 2 or dt.kind == "c"):
        return
    if dt == np.float16:
        raise no_kernel(x, op_name)
    check_kind(x, "c" if dt.kind == "V" else "fc", op_name, allowed)


def _via_float32(forward):
    """``forward`` for float16 inputs run in float32 (LAPACK has no half precision), the
    results rounded back, as TensorFlow's Eigen kernels compute in float."""
    def run(x, **attrs):
        if x.dtype != np.float16:
            return forward(x, **attrs)
        out = forward(x.astype(np.float32), **attrs)
        if isinstance(out, tuple):
            return tuple(o.astype(np.float16) for o in out)
        return out.astype(np.float16)
    return run


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two axes (``tf.linalg.matrix_transpose``).

    Raises:
        ValueError: for rank < 2.
    """
    x = to_tensor(a)
    n = x._value.ndim
    if n < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  "
                         f"Received `a` = {x} with shape: {x.shape}")
    perm = list(builtins.range(n - 2)) + [n - 1, n - 2]
    return _a.transpose(x, perm, conjugate=conjugate)


transpose = matrix_transpose


def adjoint(matrix, name=None):
    """Conjugate transpose of the last two axes (``tf.linalg.adjoint``)."""
    return matrix_transpose(matrix, conjugate=True)


def _square(x, op_name):
    shp = x._value.shape
    if len(shp) < 2:
        raise _err(f"Input must have rank >= 2, got {len(shp)}", op_name)
    if shp[-1] != shp[-2]:
        raise _err("Input matrix must be square.", op_name)


# ------------------------------------------------------------------------ diagonals


# MatrixDiagPartV3 keeps its input: its gradient embeds into zeros of the input's shape read
# at run time, so a traced program serves other batch sizes.
_DIAG_PART = primitive("MatrixDiagPartV3",
                       lambda x: np.diagonal(x, axis1=-2, axis2=-1).copy())


def _embed_diag(g, shape):
    out = np.zeros(shape, g.dtype)
    k = builtins.min(shape[-2], shape[-1])
    idx = np.arange(k)
    out[..., idx, idx] = g
    return out


_DIAG_EMBED = primitive("MatrixDiagV3", _embed_diag, save_inputs=False)
defvjp(_DIAG_EMBED, lambda g, y, g_shape, shape: diag_part(g))
# The same op with the output's shape taken from a tensor (``x``, read for its shape) or from
# the diagonal itself (square matrices, ``tf.linalg.diag``), when the op runs.
_DIAG_LIKE = Primitive("MatrixDiagV3", lambda g, x: _embed_diag(g, np.shape(x)),
                       save_inputs=False, shape_inputs=(1,))
_DIAG_SQUARE = Primitive("MatrixDiagV3", lambda d: _embed_diag(d, d.shape + d.shape[-1:]),
                         save_inputs=False)
defvjp(_DIAG_PART, lambda g, y, x: apply(_DIAG_LIKE, (g, x)))
defvjp(_DIAG_LIKE, lambda gg, y, g_shape, x_shape: diag_part(gg), None)
defvjp(_DIAG_SQUARE, lambda g, y, d_shape: diag_part(g))


def _set_diag_forward(x, d):
    out = x.copy()
    k = builtins.min(x.shape[-2], x.shape[-1])
    idx = np.arange(k)
    out[..., idx, idx] = d
    return out


# The diagonal's positions come from the input's shape when the op runs.
_SET_DIAG = primitive("MatrixSetDiagV3", _set_diag_forward, save_inputs=False)
defvjp(_SET_DIAG, lambda g, y, x_shape, d_shape: apply(
    _SET_DIAG, (g, _a.zeros_like(diag_part(g)))), lambda g, y, x_shape, d_shape: diag_part(g))


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """The main diagonal of the last two axes (``tf.linalg.diag_part``).

    Args:
        input: a tensor of shape ``[..., m, n]``.

    Returns:
        ``[..., min(m, n)]``.

    Raises:
        tf.errors.InvalidArgumentError: for rank < 2.
    """
    x = to_tensor(input)
    if x._value.ndim < 2:
        raise _err(f"input must be at least 2-dim, received shape: "
                   f"{_show(x._value.shape)}", "MatrixDiagPartV3", name)
    if k != 0:
        raise NotImplementedError("diag_part with k != 0")
    return apply(_DIAG_PART, (x,))


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """Square matrices with ``diagonal`` on the main diagonal (``tf.linalg.diag``).

    Args:
        diagonal: ``[..., n]``.

    Returns:
        ``[..., n, n]``, zero off the diagonal.
    """
    d = to_tensor(diagonal)
    if k == 0 and num_rows == -1 and num_cols == -1 and padding_value == 0:
        return apply(_DIAG_SQUARE, (d,))
    if isinstance(k, (tuple, list)) or hasattr(k, "shape") and np.ndim(k._value) > 0:
        ks = [int(v) for v in np.ravel(getattr(k, "_value", k))]
        if len(ks) == 2 and ks[0] != ks[1]:
            raise NotImplementedError("tf.linalg.diag with a band of diagonals (k=(lo, hi))")
        k = ks[0]
    k, n = int(k), d._value.shape[-1] if d._value.ndim else 0
    if d._value.ndim < 1:
        raise _err(f"diagonal must be at least 1-dim, received shape: "
                   f"{_show(d._value.shape)}", "MatrixDiagV3", name)
    min_rows, min_cols = n - builtins.min(k, 0), n + builtins.max(k, 0)
    rows, cols = int(num_rows), int(num_cols)
    if rows == -1 and cols == -1:
        rows = cols = builtins.max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows != min_rows and cols != min_cols:
        raise _err("The number of rows or columns is not consistent with the specified "
                   "d_lower, d_upper, and diagonal.", "MatrixDiagV3", name)
    pad = np.asarray(getattr(padding_value, "_value", padding_value)).item()
    return apply(_DIAG_K, (d,), {"k": k, "rows": rows, "cols": cols, "pad": pad})


def _diag_k_index(n, k):
    i = np.arange(n)
    return (i - builtins.min(k, 0), i + builtins.max(k, 0))


def _diag_k_forward(d, k, rows, cols, pad):
    out = np.full(d.shape[:-1] + (rows, cols), pad, d.dtype)
    r, c = _diag_k_index(d.shape[-1], k)
    out[..., r, c] = d
    return out


def _diag_k_part(g, k, n):
    r, c = _diag_k_index(n, k)
    return g[..., r, c]


_DIAG_K = Primitive("MatrixDiagV3", _diag_k_forward, save_inputs=False)
_DIAG_K_PART = Primitive("MatrixDiagPartV3", _diag_k_part, save_inputs=False)
defvjp(_DIAG_K, lambda g, y, d_shape, k, rows, cols, pad: apply(
    _DIAG_K_PART, (g,), {"k": k, "n": d_shape[-1]}))
defvjp(_DIAG_K_PART, lambda g, y, x_shape, k, n: apply(
    _DIAG_K, (g,), {"k": k, "rows": x_shape[-2], "cols": x_shape[-1], "pad": 0}))


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """``input`` with its main diagonal replaced (``tf.linalg.set_diag``)."""
    x = to_tensor(input)
    d = to_tensor(diagonal)
    return apply(_SET_DIAG, (x, d))


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TensorFlow's name
    """Zero everything outside a band of the last two axes (``tf.linalg.band_part``).

    Args:
        input: ``[..., m, n]``.
        num_lower, num_upper: how many sub-/super-diagonals to keep; negative keeps all.

    Raises:
        tf.errors.InvalidArgumentError: for rank < 2 or a band wider than the matrix.
    """
    x = to_tensor(input)
    if x._value.ndim < 2:
        raise _err(f"input must be at least 2-dim, received shape: "
                   f"{_show(x._value.shape)}", "MatrixBandPart")
    m, n = x._value.shape[-2:]
    lo, up = int(num_lower), int(num_upper)
    if lo > m:
        raise _err(f"num_lower must be negative or less or equal to number of rows ({m}) "
                   f"got: {lo}", "MatrixBandPart")
    if up > n:
        raise _err(f"num_upper must be negative or less or equal to number of columns ({n})"
                   f" got: {up}", "MatrixBandPart")
    return apply(_BAND_PART, (x,), {"num_lower": lo, "num_upper": up})


def _band_part_forward(x, num_lower, num_upper):
    # the band's mask from the shape of each call
    m, n = x.shape[-2:]
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    return np.where(keep, x, x.dtype.type(0))


_BAND_PART = primitive("MatrixBandPart", _band_part_forward, save_inputs=False)
defvjp(_BAND_PART, lambda g, y, x_shape, num_lower, num_upper: apply(
    _BAND_PART, (g,), {"num_lower": num_lower, "num_upper": num_upper}))


def _tril(x):
    return band_part(x, -1, 0)


def _triu(x):
    return band_part(x, 0, -1)


def trace(x, name=None):
    """Sum of the main diagonal of the last two axes (``tf.linalg.trace``)."""
    return _r.reduce_sum(diag_part(x), -1)


# --------------------------------------------------------------- inverse, determinant


def _linalg_error(op_name):
    def error(values, attrs, exc):
        if isinstance(exc, np.linalg.LinAlgError):
            return errors.InvalidArgumentError, "Input is not invertible."
        return errors.InvalidArgumentError, str(exc)
    return error


def _inv_forward(x, adjoint):
    if adjoint:
        x = np.conj(np.swapaxes(x, -1, -2))
    if x.size and _nonfinite(x):
        if x.dtype.kind == "c":   # C's complex division past an infinite pivot, as TF's
            return _inv_eigen_complex(x)
        lu, perm, _ = _lu_eigen(x)
        if _not_invertible(lu):
            raise np.linalg.LinAlgError("Input is not invertible.")
        eye_ = np.broadcast_to(np.eye(x.shape[-1], dtype=x.dtype), x.shape)
        return _lu_solve_eigen(lu, perm, eye_).astype(x.dtype, copy=False)
    return np.linalg.inv(x)


_INV = primitive("MatrixInverse", _via_float32(_inv_forward), save_inputs=False,
                 save_output=True, error=_linalg_error("MatrixInverse"))


def _inv_rule(g, y, x_shape, adjoint):
    # TF's association: -y^H (g y^H), or -y (g^H y) for the adjoint's inverse
    return _m.negative(matmul(y, matmul(g, y, adjoint_a=adjoint, adjoint_b=not adjoint),
                              adjoint_a=not adjoint))


def adjoint_(x):
    return matrix_transpose(x, conjugate=True)


defvjp(_INV, _inv_rule)


def inv(input, adjoint=False, name=None):  # noqa: A002 - TensorFlow's name
    """The inverse of square matrices ``[..., n, n]`` (``tf.linalg.inv``).

    Raises:
        tf.errors.InvalidArgumentError: for non-square or singular input.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]])).numpy())
        [[0.5  0.  ]
         [0.   0.25]]
    """
    x = to_tensor(input)
    _check_linalg(x, "MatrixInverse", half=True)
    _square(x, "MatrixInverse")
    return apply(_INV, (x,), {"adjoint": bool(adjoint)})


def _det_forward(x):
    if not x.size:
        return np.linalg.det(x)  # the empty matrix: 1
    # TF's kernel: sign * exp(log|det|) from Eigen's LU (slogdet's), so overflow, inf and
    # nan come out of its pivots, not LAPACK's product of them
    sign, logabs = _slogdet_forward(x)
    with np.errstate(all="ignore"):
        return np.asarray(sign * np.exp(logabs.real), x.dtype)[()]


_DET = primitive("MatrixDeterminant", _det_forward, save_output=True,
                 error=_linalg_error("MatrixDeterminant"))
defvjp(_DET, lambda g, y, x: _m.multiply(
    _a.expand_dims(_a.expand_dims(_m.multiply(g, y), -1), -1),
    inv(x, adjoint=True)))  # TF's: the inverse of x^H, not the adjoint of x's inverse


def det(input, name=None):  # noqa: A002 - TensorFlow's name
    """The determinant of square matrices ``[..., n, n]`` (``tf.linalg.det``).

    The gradient is ``g * det(x) * inv(x)^H`` (Jacobi's formula), undefined for singular x.
    """
    x = to_tensor(input)
    _check_linalg(x, "MatrixDeterminant", "half, float, double, complex64, complex128")
    _square(x, "MatrixDeterminant")
    return apply(_DET, (x,))


def _slogdet_forward(x):
    # log|det| has the input's dtype: complex for a complex matrix (imaginary part 0)
    if x.size:
        # TF's kernel: Eigen's LU (its pivot the largest modulus, where LAPACK's complex
        # getrf takes the largest |re| + |im|: an exact zero pivot of TF's stays one),
        # sign = (-1)^swaps prod(sign(d)) (d / |d| for complex, 0 for a zero pivot),
        # log|det| = sum log|d|
        lu, _, swaps = _lu_eigen(x)
        d = np.diagonal(lu, axis1=-2, axis2=-1)
        with np.errstate(all="ignore"):
            ad = np.abs(d)
            unit = np.where(ad == 0, 0, d / ad) if d.dtype.kind == "c" else np.sign(d)
            sign = np.where(swaps % 2, -1, 1) * np.prod(unit, -1)
            logabs = np.sum(np.log(ad), -1)
        return np.asarray(sign, x.dtype)[()], np.asarray(logabs).astype(x.dtype)[()]
    sign, logabs = np.linalg.slogdet(x)  # the empty matrix: (1, 0)
    return np.asarray(sign, x.dtype)[()], np.asarray(logabs).astype(x.dtype)[()]


# Multi-output primitives save their outputs: the sweep shapes absent cotangents from them.
_SLOGDET = primitive("LogMatrixDeterminant", _slogdet_forward, n_outputs=2, save_output=True)
defvjp(_SLOGDET, lambda g, y, x: _m.multiply(
    _a.expand_dims(_a.expand_dims(_a.cast(g[1], x.dtype), -1), -1),
    inv(x, adjoint=True)))  # TF's: the inverse of x^H, not the adjoint of x's inverse


def slogdet(input, name=None):  # noqa: A002 - TensorFlow's name
    """``(sign, log|det|)`` of square matrices (``tf.linalg.slogdet``); stable for large n.

    Returns:
        Two tensors of shape ``[...]``; the gradient flows through ``log|det|`` only.
    """
    x = to_tensor(input)
    _check_linalg(x, "LogMatrixDeterminant", "half, float, double, complex64, complex128")
    _square(x, "LogMatrixDeterminant")
    return apply(_SLOGDET, (x,))


def logdet(matrix, name=None):
    """``log(det(matrix))`` of Hermitian positive-definite matrices via Cholesky.

    TensorFlow counterpart: ``tf.linalg.logdet``.
    """
    chol = cholesky(matrix)
    return _m.multiply(_r.reduce_sum(_m.log(_m.real(diag_part(chol))), -1), 2.0)


# ------------------------------------------------------------------------- Cholesky


_CHOL = primitive("Cholesky", _cholesky_forward, save_inputs=False, save_output=True)


def _cholesky_rule(g, L, x_shape):
    # Murray (2016), "Differentiation of the Cholesky decomposition", eq. (10):
    # Phi(L^H G) with the diagonal halved, then L^-H (.) L^-1, symmetrised.
    # L^-1 is formed explicitly (a solve against I), as TF's rule does, so nan/inf from an
    # overflowing or singular factor spread to the same elements.
    p = _m.multiply(_tril(matmul(L, g, adjoint_a=True)),
                    _half_diag_mask(x_shape, L._value.dtype))
    n = L._value.shape[-1]
    linv = triangular_solve(L, Tensor(np.broadcast_to(np.eye(n, dtype=L._value.dtype),
                                                      L._value.shape).copy()), lower=True)
    s = matmul(matmul(linv, p, adjoint_a=True), linv)
    return _m.multiply(_m.add(s, adjoint_(s)), 0.5)


def _half_diag_mask(shape, dtype):
    n = shape[-1]
    return Tensor((np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)).astype(dtype))


defvjp(_CHOL, _cholesky_rule)


def cholesky(input, name=None):  # noqa: A002 - TensorFlow's name
    """The lower Cholesky factor ``L`` with ``L L^H = input`` (``tf.linalg.cholesky``).

    Only the lower triangle of ``input`` is read; the gradient is returned symmetric
    (Murray 2016), as TensorFlow's, so check it on symmetric perturbations.

    Raises:
        tf.errors.InvalidArgumentError: for non-square or not positive-definite input.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 2.0]])).numpy())
        [[2. 0.]
         [1. 1.]]
    """
    x = to_tensor(input)
    _check_linalg(x, "Cholesky")
    _square(x, "Cholesky")
    return apply(_CHOL, (x,))


# ---------------------------------------------------------------------------- solves


def _solve_forward(a, b, adjoint, replay=False):
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    if a.size and b.size and _nonfinite(a, b):
        # Eigen's LU and substitutions (TF's kernel): its inf/nan, and its refusal of a
        # zero (or all-nan) pivot
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        lu, perm, _ = _lu_eigen(np.broadcast_to(a, batch + a.shape[-2:]))
        if _not_invertible(lu):
            raise np.linalg.LinAlgError("Input matrix is not invertible.")
        return _lu_solve_eigen(lu, perm, np.broadcast_to(b, batch + b.shape[-2:]))
    if replay and _solve_replayable(a, b):  # expm's small systems: TF's bits (slower)
        return _solve_eigen(a, b)
    return np.linalg.solve(a, b)


_SOLVE = primitive("MatrixSolve", _solve_forward, save_output=True,
                   error=_linalg_error("MatrixSolve"))


def _solve_again(a, b, adjoint, replay):  # expm's solves (replay) keep it when derived
    return apply(_SOLVE, (a, b), {"adjoint": adjoint, "replay": True} if replay else
                 {"adjoint": adjoint})


def _solve_grad_a(g, y, a, b, adjoint, replay=False):
    gb = _solve_again(a, g, not adjoint, replay)
    if adjoint:
        return _m.negative(matmul(y, gb, adjoint_b=True))
    return _m.negative(matmul(gb, y, adjoint_b=True))


defvjp(_SOLVE, _solve_grad_a, lambda g, y, a, b, adjoint, replay=False: _solve_again(
    a, g, not adjoint, replay))


def solve(matrix, rhs, adjoint=False, name=None):
    """``X`` with ``matrix @ X = rhs`` (``tf.linalg.solve``).

    Args:
        matrix: ``[..., n, n]``.
        rhs: ``[..., n, k]``, same dtype and batch shape.
        adjoint: solve with ``matrix^H`` instead.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched shapes or a singular matrix.

    Example:
        >>> import tapeflow as tf
        >>> a, b = tf.constant([[2.0, 0.0], [0.0, 4.0]]), tf.constant([[2.0], [2.0]])
        >>> print(tf.linalg.solve(a, b).numpy())
        [[1. ]
         [0.5]]
    """
    a, b = pair(matrix, rhs, "MatrixSolve")
    _check_linalg(a, "MatrixSolve")
    _square(a, "MatrixSolve")
    if b._value.ndim < 2 or b._value.shape[-2] != a._value.shape[-1]:
        raise _err("Input matrix and rhs are incompatible.", "MatrixSolve")
    return apply(_SOLVE, (a, b), {"adjoint": bool(adjoint)})


def _tri_solve_forward(a, b, lower, adjoint):
    t = np.tril(a) if lower else np.triu(a)
    if adjoint:
        t = np.conj(np.swapaxes(t, -1, -2))
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    diag = np.diagonal(t, axis1=-2, axis2=-1)
    if np.isfinite(t).all() and np.isfinite(b).all() and diag.all():
        return np.linalg.solve(t, b)
    return _substitute(t, b, lower != adjoint)


def _substitute(t, b, lower):
    """Forward (``lower``) or back substitution, as Eigen's kernel in TF: each unknown is
    ``(b_i - sum_j t_ij x_j) * (1 / t_ii)`` over the whole row (a zero times an inf is
    nan), so a zero or non-finite diagonal gives TF's inf/nan instead of LAPACK's refusal
    (or its pivoted, row-mixed nan)."""
    n = t.shape[-1]
    x = np.zeros(b.shape, np.result_type(t, b))
    with np.errstate(all="ignore"):
        recip = 1 / np.diagonal(t, axis1=-2, axis2=-1)
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            done = slice(0, i) if lower else slice(i + 1, n)
            s = b[..., i, :] - np.matmul(t[..., i:i + 1, done], x[..., done, :])[..., 0, :]
            x[..., i, :] = s * recip[..., i:i + 1]
    return x


_TRI_SOLVE = primitive("MatrixTriangularSolve", _tri_solve_forward, save_output=True,
                       error=_linalg_error("MatrixTriangularSolve"))


def _matmul_adj_b_forward(a, b, transpose_a, transpose_b):
    # ``a @ b^T`` of real matrices: NumPy's product, except where it holds inf or nan in a
    # layout where TensorFlow's kernel rounds each product apart before summing (float64:
    # Eigen's; float32 matrices, not batches, below 16 rows or with one column: oneDNN's),
    # so inf - inf from two overflowing products is nan there, where BLAS's fused
    # multiply-adds keep the first infinity
    out = np.matmul(a, np.swapaxes(b, -1, -2))
    if out.dtype == np.float64 or out.dtype == np.float32 and out.ndim == 2 and (
            out.shape[0] < 16 or out.shape[1] == 1):
        if out.size and not np.isfinite(out).all():
            with np.errstate(all="ignore"):
                out = np.sum(a[..., :, None, :] * b[..., None, :, :], -1, dtype=out.dtype)
    return out


# TF's MatrixTriangularSolve gradient forms its products by MatMul(adj_y=True): its own
# primitive so that the user's matmul keeps NumPy's product unchecked
_MATMUL_ADJ_B = Primitive("MatMul", _matmul_adj_b_forward)
_MATMUL_ADJ_B.vjps = _m._MATMUL.vjps


def _matmul_adj_b(a, b):
    if a._value.dtype.kind == "c":
        return matmul(a, b, adjoint_b=True)
    return apply(_MATMUL_ADJ_B, (a, b), {"transpose_a": False, "transpose_b": True})


def _tri_grad_a(g, y, a, b, lower, adjoint):
    gb = triangular_solve(a, g, lower=lower, adjoint=not adjoint)
    ga = _m.negative(_matmul_adj_b(y, gb) if adjoint else _matmul_adj_b(gb, y))
    return _tril(ga) if lower else _triu(ga)


defvjp(_TRI_SOLVE, _tri_grad_a,
       lambda g, y, a, b, lower, adjoint: triangular_solve(a, g, lower=lower,
                                                           adjoint=not adjoint))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solve ``matrix @ X = rhs`` for triangular ``matrix`` (``tf.linalg.triangular_solve``).

    Only the lower (``lower=True``) or upper triangle of ``matrix`` is read.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched shapes.
    """
    a, b = pair(matrix, rhs, "MatrixTriangularSolve")
    if a._value.dtype.kind == "V" or a._value.dtype == np.float16:
        raise no_kernel(a, "MatrixTriangularSolve")  # declared for both, no CPU kernel
    _check_linalg(a, "MatrixTriangularSolve")
    _square(a, "MatrixTriangularSolve")
    if b._value.ndim < 2 or b._value.shape[-2] != a._value.shape[-1]:
        raise errors.static_shape(_err(
            f"In[0] mismatch In[1] shape: {a._value.shape[-1]} vs. "
            f"{b._value.shape[-2] if b._value.ndim >= 2 else b._value.shape[-1]}: "
            f"{_show(a._value.shape)} {_show(b._value.shape)} {int(bool(lower))} "
            f"{int(bool(adjoint))}", "MatrixTriangularSolve"))
    return apply(_TRI_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


def cholesky_solve(chol, rhs, name=None):
    """Solve ``A X = rhs`` given ``chol``, the Cholesky factor of ``A``.

    TensorFlow counterpart: ``tf.linalg.cholesky_solve``.
    """
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least-squares solution by the regularised normal equations (``tf.linalg.lstsq``)."""
    a, b = pair(matrix, rhs, "MatrixSolveLs")
    gram = matmul(a, a, adjoint_a=True)
    if l2_regularizer:
        gram = _m.add(gram, _m.multiply(eye(a._value.shape[-1], dtype=a.dtype),
                                        float(l2_regularizer)))
    return cholesky_solve(cholesky(gram), matmul(a, b, adjoint_a=True))


# ------------------------------------------------------------------------- QR and SVD


def _qr_forward(x, full_matrices):
    if x.size and _qr_unsafe(x):
        return _qr_eigen(x, full_matrices)
    if ACTIVE[0] and _qr_replayable(x):  # under a tape: TF's bits for its gradients
        return _qr_fast(x, full_matrices)  # (Eigen's HouseholderQR; docs/ops.md, sweeplsq)
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q, r


_QR = primitive("Qr", _via_float32(_qr_forward), n_outputs=2, save_output=True)


def _qr_rule(g, y, x, full_matrices):
    dq, dr = g
    q, r = y
    rows, cols = r.shape[-2], r.shape[-1]
    if rows > cols and q.shape[-2] == q.shape[-1]:
        raise NotImplementedError(
            "QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
            f"r.shape={r.shape} with nrows={rows}and ncols={cols}.")
    m = q.shape[-2]
    if m >= cols:
        return _qr_deep_rule(q, r, dq, dr)
    # a wide matrix [X | Y] = Q [U | V]: X = Q U is square, and Y = Q V adds dQ's share
    # V dV^H (as TensorFlow's QrGrad)
    a = x if isinstance(x, Tensor) else Tensor(x)
    rest = a[..., :, m:]
    dv = dr[..., :, m:]
    dx = _qr_deep_rule(q, r[..., :, :m], _m.add(dq, matmul(rest, dv, adjoint_b=True)),
                       dr[..., :, :m])
    return _a.concat([dx, matmul(q, dv)], -1)


def _qr_deep_rule(q, r, dq, dr):
    # For m >= n with reduced factors, in TensorFlow's association (its QrGrad, after
    # arXiv:2009.10071): with tril = band(Q^H dQ - (.)^H + R dR^H - (.)^H) and
    # ts(x) = x R^-H, dA = Q (dR + ts(tril)) + ts(dQ - Q Q^H dQ), plus for complex input
    # ts(Q c^H), c the imaginary part of diag(R dR^H - dQ^H Q) (times i)
    qdq = matmul(q, dq, adjoint_a=True)
    rdr = matmul(r, dr, adjoint_b=True)
    tril = _tril(_m.add(_m.subtract(qdq, adjoint_(qdq)), _m.subtract(rdr, adjoint_(rdr))))
    grad_a = matmul(q, _m.add(dr, _r_adjoint_solve(tril, r)))
    grad_b = _r_adjoint_solve(_m.subtract(dq, matmul(q, qdq)), r)
    ret = _m.add(grad_a, grad_b)
    if q.dtype.is_complex:
        m_ = _m.subtract(rdr, adjoint_(qdq))
        eyem = set_diag(_a.zeros_like(m_), diag_part(m_))
        correction = _m.subtract(eyem, _a.cast(_m.real(eyem), q.dtype))
        ret = _m.add(ret, _r_adjoint_solve(matmul(q, adjoint_(correction)), r))
    return ret


def _r_adjoint_solve(x, r):
    # x R^-H for upper-triangular R, as TF's: (R^-1 x^H)^H
    return adjoint_(triangular_solve(r, adjoint_(x), lower=False))


defvjp(_QR, _qr_rule)


class _QrResult(tuple):
    __slots__ = ()

    def __new__(cls, q, r):
        return tuple.__new__(cls, (q, r))

    q = property(lambda self: self[0])
    r = property(lambda self: self[1])


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TensorFlow's name
    """QR factorisation ``input = q @ r`` (``tf.linalg.qr``).

    Args:
        input: ``[..., m, n]`` floats.
        full_matrices: return the complete ``[m, m]`` q (no gradient then).

    Returns:
        ``(q, r)``. Gradients are defined for ``m >= n`` with reduced factors.
    """
    x = to_tensor(input)
    _check_linalg(x, "Qr", half=True)
    if x._value.ndim < 2:
        raise _err(f"Input tensor 0 must have rank >= 2, got {x._value.ndim}", "Qr")
    q, r = apply(_QR, (x,), {"full_matrices": bool(full_matrices)})
    return _QrResult(q, r)


def _svd_forward(x, full_matrices, compute_uv=True):
    finite = np.isfinite(x).all(axis=(-2, -1))
    if not finite.all():
        # TensorFlow's kernel gives NaN factors for a matrix holding inf or NaN (LAPACK would
        # not converge, or loop for long): the others are decomposed as they are.
        mask = finite[..., None, None]
        s, u, v = _svd_forward(np.where(mask, x, np.zeros((), x.dtype)), full_matrices)
        return (np.where(finite[..., None], s, np.nan).astype(s.dtype),
                np.where(mask, u, np.nan).astype(u.dtype),
                np.where(mask, v, np.nan).astype(v.dtype))
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    v = np.conj(np.swapaxes(vh, -1, -2))
    if s.size and x.dtype.kind == "f" and builtins.min(x.shape[-2:]) <= 16:
        # a singular value LAPACK cannot resolve (below its eps * ||A||) on a badly scaled
        # matrix: TF's Eigen (Jacobi for small matrices) finds it to high relative accuracy,
        # and with it the singular vectors the gradient takes
        eps = np.finfo(s.dtype).eps
        bad = (s[..., -1] <= s[..., 0] * eps * 1e3) & (s[..., 0] > 0)
        if bad.any():
            s, u, v = s.copy(), u.copy(), v.copy()
            s[bad], u[bad], v[bad] = _svd_jacobi(x[bad], full_matrices)
    return s, u, v


_SVD = primitive("Svd", _svd_forward, n_outputs=3, save_output=True)


def _svd_rule(g, y, x, full_matrices, compute_uv=True):
    # TensorFlow's _SvdGrad, term by term and in its association (its rounding, and its
    # regularised reciprocals x / (x^2 + 1e-20) of the singular values and of the gaps of
    # their squares: a zero or overflowing singular value gives zeros, not nan)
    gs, gu, gv = g
    gs_mat = diag(_a.cast(gs, x.dtype))
    if not compute_uv:
        # u diag(gs) v^H with u and v of a fresh differentiable decomposition (TF's too),
        # so higher orders go through the full rule
        _, u, v = apply(_SVD, (x,), {"full_matrices": False})
        return matmul(u, matmul(gs_mat, v, adjoint_b=True))
    s, u, v = y
    m, n = x._value.shape[-2:]
    transposed = m > n
    if transposed:
        m, n, u, v, gu, gv = n, m, v, u, gv, gu
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(
            f"svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
            f"Received: m={m} and n={n}")
    s = _a.cast(s, x.dtype)
    s_mat = diag(s)
    s2 = _m.square(s)
    f = set_diag(_safe_reciprocal(_m.subtract(_a.expand_dims(s2, -2), _a.expand_dims(s2, -1))),
                 _a.zeros_like(s))
    s_inv_mat = diag(_safe_reciprocal(s))
    v1, gv1 = v[..., :, :m], gv[..., :, :m]
    f_u = _m.multiply(f, matmul(u, gu, adjoint_a=True))
    v_gv = matmul(v1, gv1, adjoint_a=True)
    f_v = _m.multiply(f, v_gv)
    nouv = _m.add(_m.add(gs_mat, matmul(_m.add(f_u, adjoint_(f_u)), s_mat)),
                  matmul(s_mat, _m.add(f_v, adjoint_(f_v))))
    ga = matmul(u, matmul(nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = adjoint_(gv1)
        nous = _m.subtract(gv1t, matmul(matmul(gv1t, v1), v1, adjoint_b=True))
        if full_matrices:
            v2, gv2 = v[..., :, m:n], gv[..., :, m:n]
            nous = _m.subtract(nous, matmul(matmul(v1, gv2, adjoint_a=True), v2,
                                            adjoint_b=True))
        ga = _m.add(ga, matmul(matmul(u, s_inv_mat), nous))
    if x.dtype.is_complex:
        eye_ = _a.cast(_a.ones_like(s), x.dtype)
        lmat = _m.multiply(diag(eye_), v_gv)
        nouv3 = matmul(s_inv_mat, _m.subtract(adjoint_(lmat), lmat))
        ga = _m.add(ga, _m.multiply(_a.cast(0.5, x.dtype),
                                    matmul(u, matmul(nouv3, v1, adjoint_b=True))))
    return adjoint_(ga) if transposed else ga


defvjp(_SVD, _svd_rule)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values (and vectors) of ``[..., m, n]`` matrices (``tf.linalg.svd``).

    Returns:
        ``s`` (descending) if ``compute_uv`` is False, else ``(s, u, v)`` with
        ``tensor = u @ diag(s) @ adjoint(v)``. Gradients assume distinct, non-zero
        singular values and reduced factors.
    """
    x = to_tensor(tensor)
    _check_linalg(x, "Svd")
    if x._value.ndim < 2:
        raise _err(f"input must have rank >= 2, got {x._value.ndim}", "Svd")
    if not compute_uv:
        return apply(_SVD, (x,), {"full_matrices": bool(full_matrices),
                                  "compute_uv": False})[0]
    s, u, v = apply(_SVD, (x,), {"full_matrices": bool(full_matrices)})
    return s, u, v


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of ``[..., M, N]`` float32/64 via the SVD
    (``tf.linalg.pinv``). Raises TypeError for a non-float dtype, ValueError for rank < 2
    (and, as TF's ``np.finfo``, for bfloat16), NotFoundError for float16 (no SVD kernel)."""
    x = to_tensor(a)
    if x._value.dtype.kind not in "fV":
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {x.dtype.name}).")
    if x._value.ndim < 2:
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {x._value.ndim}).")
    # TF takes NumPy's eps before the SVD: bfloat16 stops there with NumPy's ValueError
    eps = float(np.finfo(x._value.dtype).eps) if rcond is None else None
    s, u, v = svd(x)
    m, n = x._value.shape[-2:]
    if rcond is None:
        if ACTIVE[0] and current_tracer() is not None:
            # each call's sizes (TensorFlow's ``tf.shape(a)`` for unknown dimensions)
            rcond = _m.multiply(_a.cast(_r.reduce_max(_a.shape(x)[-2:]), s.dtype), 10.0 * eps)
        else:
            rcond = 10.0 * builtins.max(m, n) * eps
    # TF's composition: singular values at or below the cutoff become inf, then v / s
    cutoff = _m.multiply(rcond, _r.reduce_max(s, -1, keepdims=True))
    s = _a.where(_m.greater(s, cutoff), s, _m.multiply(_a.ones_like(s), np.inf))
    return matmul(_m.divide(v, _a.expand_dims(s, -2)), u, adjoint_b=True)


del nondifferentiable


# ------------------------------------------------- eigh, expm, cross, normalize, rank

_EIGH_FAILED = "Self-adjoint eigen decomposition was not successful. The input might not be valid."


def _eigh_forward(x):
    if _eigh_replayable(x):  # small matrices: Eigen's solver as TF runs it, bit for bit
        e, v = _eigh_eigen(x, True)
        return e.astype(x.dtype), v  # complex input: complex eigenvalues, as TensorFlow's
    e, v = np.linalg.eigh(x)  # reads the lower triangle, as TensorFlow's kernel
    e, v = _eigh_nonfinite(x, e, v)
    return e.astype(x.dtype), v  # complex input: complex eigenvalues, as TensorFlow's


def _eigh_error(values, attrs, exc):
    if isinstance(exc, (_EighFailed, np.linalg.LinAlgError)):
        return errors.InvalidArgumentError, _EIGH_FAILED
    return errors.InvalidArgumentError, str(exc)


_EIGH = primitive("SelfAdjointEigV2", _eigh_forward, n_outputs=2, save_output=True,
                  error=_eigh_error)


def _safe_reciprocal(x, epsilon=1e-20):
    # TensorFlow's regularised 1 / x of the eigenvalue gaps: x / (x^2 + 1e-20)
    return _m.multiply(x, _m.reciprocal(_m.add(_m.multiply(x, x), epsilon)))


def _fold_lower(ga):
    # the forward reads the lower triangle: symmetrise, keep it, halve the diagonal
    ga = _tril(_m.add(ga, adjoint_(ga)))
    return set_diag(ga, _m.multiply(diag_part(ga), 0.5))


def _eigh_rule(g, y, x_shape):
    # Magnus (1985) / Giles (2008) for distinct eigenvalues, with TensorFlow's regularised
    # reciprocal of the gaps (zero on the diagonal); folded onto the lower triangle.
    ge, gv = g
    e, v = y
    diff = _m.subtract(_a.expand_dims(e, -2), _a.expand_dims(e, -1))  # e_j - e_i
    f = set_diag(_safe_reciprocal(diff), _a.zeros_like(e))
    inner = _m.add(diag(_a.cast(ge, v.dtype)),
                   _m.multiply(_a.cast(f, v.dtype), matmul(v, gv, adjoint_a=True)))
    return _fold_lower(matmul(v, matmul(inner, v, adjoint_b=True)))


defvjp(_EIGH, _eigh_rule)
_EIGH.save_inputs = False


def _eigvalsh_forward(x):
    if _eigh_replayable(x):
        return _eigh_eigen(x, False)[0].astype(x.dtype)
    e = np.linalg.eigvalsh(x)
    e, _ = _eigh_nonfinite(x, e, np.zeros(x.shape, x.dtype))
    return e.astype(x.dtype)


# SelfAdjointEigV2 with compute_v=False: its gradient takes the eigenvectors from a fresh
# eigh of the input (differentiable, so second derivatives pass through eigh's rule), as
# TensorFlow's; no gap term, so repeated or infinite eigenvalues give finite gradients.
_EIGVALSH = Primitive("SelfAdjointEigV2", _eigvalsh_forward, error=_eigh_error)


def _eigvalsh_rule(g, y, x):
    v = eigh(x)[1]
    return _fold_lower(matmul(_m.multiply(v, _a.expand_dims(_a.cast(g, v.dtype), -2)), v,
                              adjoint_b=True))


defvjp(_EIGVALSH, _eigvalsh_rule)


def eigh(tensor, name=None):
    """Eigenvalues (ascending) and eigenvectors of self-adjoint matrices (``tf.linalg.eigh``).

    Only the lower triangle is read; the gradient is returned on the lower triangle, as
    TensorFlow's (assumes distinct eigenvalues).

    Returns:
        ``(e, v)`` with ``e`` of shape ``[..., n]`` and ``v`` of shape ``[..., n, n]``.

    Raises:
        tf.errors.InvalidArgumentError: for rank < 2, non-square input, or where Eigen's
            solver fails (a nan, or an inf off the first diagonal entry).
    """
    x = to_tensor(tensor)
    _check_linalg(x, "SelfAdjointEigV2")
    _square(x, "SelfAdjointEigV2")
    return apply(_EIGH, (x,))


def eigvalsh(tensor, name=None):
    """The eigenvalues of self-adjoint matrices ``[..., n, n]``, ascending, shape ``[..., n]``
    (``tf.linalg.eigvalsh``); errors as :func:`eigh`."""
    x = to_tensor(tensor)
    _check_linalg(x, "SelfAdjointEigV2")
    _square(x, "SelfAdjointEigV2")
    return apply(_EIGVALSH, (x,))


# Higham (2005), "The scaling and squaring method for the matrix exponential revisited":
# the [13/13] Pade approximant after scaling the 1-norm below theta_13.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
           1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
           33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


_PADE = {3: (120.0, 60.0, 12.0, 1.0),
         5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
         7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
         9: (17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
             110880.0, 3960.0, 90.0, 1.0),
         13: _PADE13}
# TF's choice (Higham 2005, Table 2.3): the lowest order whose 1-norm bound holds, else
# the highest after scaling the norm below theta: float32 family up to 7, float64 up to 13.
_EXPM_ORDERS = {False: ((3, 4.258730016922831e-001), (5, 1.880152677804762e+000),
                        (7, 3.925724783138660)),
                True: ((3, 1.495585217958292e-002), (5, 2.539398330063230e-001),
                       (7, 9.504178996162932e-001), (9, 2.097847961257068e+000),
                       (13, _THETA13))}


def _pade(a, ident, order):
    """``(U, V)`` of the [order/order] Pade approximant, ``exp(a) ~ (V - U)^-1 (V + U)``,
    in TF's association (``_matrix_exp_pade*``): the sums left to right from the highest
    power, each coefficient a constant of the matrix's dtype times its power."""
    b = _PADE[order]
    dt = a._value.dtype if isinstance(a, Tensor) else np.asarray(a).dtype

    def t(k, m):  # b[k] * m, the constant made in the matrix's dtype (not via float32)
        return _m.multiply(np.asarray(b[k], dt), m)

    def total(first, *rest):
        out = first
        for r in rest:
            out = _m.add(out, r)
        return out
    m2 = _expm_mm(a, a)
    if order == 3:
        return _expm_mm(a, total(m2, t(1, ident))), total(t(2, m2), t(0, ident))
    m4 = _expm_mm(m2, m2)
    if order == 5:
        return (_expm_mm(a, total(m4, t(3, m2), t(1, ident))),
                total(t(4, m4), t(2, m2), t(0, ident)))
    m6 = _expm_mm(m4, m2)
    if order == 7:
        return (_expm_mm(a, total(m6, t(5, m4), t(3, m2), t(1, ident))),
                total(t(6, m6), t(4, m4), t(2, m2), t(0, ident)))
    if order == 9:
        m8 = _expm_mm(m6, m2)
        return (_expm_mm(a, total(m8, t(7, m6), t(5, m4), t(3, m2), t(1, ident))),
                total(t(8, m8), t(6, m6), t(4, m4), t(2, m2), t(0, ident)))
    u = _expm_mm(a, total(_expm_mm(m6, total(m6, t(11, m4), t(9, m2))), t(7, m6), t(5, m4),
                        t(3, m2), t(1, ident)))
    v = total(_expm_mm(m6, total(t(12, m6), t(10, m4), t(8, m2))), t(6, m6), t(4, m4),
              t(2, m2), t(0, ident))
    return u, v


def expm(input, name=None):  # noqa: A002 - TensorFlow's name
    """The matrix exponential of square matrices (``tf.linalg.expm``).

    TensorFlow's scaling and squaring (Higham 2005), per matrix of a batch: the [m/m] Pade
    approximant of the lowest order ``m`` (3, 5, 7; float64/complex128 also 9, 13) whose
    1-norm bound holds, else the highest after scaling by ``2^-s``,
    ``s = max(floor(log2(norm / theta)), 0)``, squared back ``s`` times. Written with
    matmul, solve and where, so gradients of any order follow from theirs. ``[..., 0, 0]``
    of any dtype is returned as it is. Raises (TF's order) InvalidArgumentError for bool and
    unsigned (Abs), ValueError for ints and bfloat16, InvalidArgumentError for non-square
    matrices, NotFoundError for float16 with a finite 1-norm (no half MatrixSolve).
    """
    x = to_tensor(input)
    val = x._value
    if val.ndim >= 2 and val.shape[-2:] == (0, 0):
        return x  # TF returns its input as it is, whatever the dtype
    if val.dtype.kind not in "fc" or val.dtype.itemsize == 2 and val.dtype != np.float16:
        if val.dtype.kind in "bu":
            _m.abs(x)  # TF's 1-norm comes first: Abs refuses bool and unsigned
        raise ValueError(f"tf.linalg.expm does not support matrices of type {x.dtype}")
    _square(x, "MatrixExponential")
    n = val.shape[-1]
    wide = val.dtype in (np.float64, np.complex128)
    orders = _EXPM_ORDERS[wide]
    with np.errstate(all="ignore"):
        norm = np.max(np.sum(np.abs(val), axis=-2), axis=-1, keepdims=True)[..., None] \
            if val.size else np.zeros(val.shape[:-2] + (1, 1))
        top = orders[-1][1]
        rdt = norm.dtype.type  # TF computes the squarings in the 1-norm's dtype
        squarings = np.maximum(np.floor(np.log(norm / rdt(top)) / np.log(rdt(2.0))),
                               rdt(0.0))
        squarings = np.where(np.isnan(norm), np.nan, squarings)
    if not val.size:
        # TF: an empty batch (its largest 1-norm is -inf) is the nan fill below, whose
        # zero-size gradient is a value and its second derivative None: x * 0's
        return _m.multiply(x, 0)
    if not np.isfinite(np.max(norm)):
        # TF: a nan or inf 1-norm anywhere in the batch fills the result with nan, a constant
        # (no gradient)
        return Tensor(np.full(val.shape, np.nan, val.dtype))
    if val.dtype == np.float16:
        raise no_kernel(x, "MatrixSolve")  # TF's Pade solve has no half kernel
    ident = Tensor(np.broadcast_to(np.eye(n, dtype=val.dtype), val.shape).copy())
    real = np.float64 if wide else np.float32
    with np.errstate(over="ignore"):  # TF: matrix / cast(2 ** squarings, dtype)
        scale = Tensor(np.power(rdt(2.0), np.nan_to_num(squarings, nan=0.0)).astype(val.dtype))
    u, v = _pade(_m.divide(x, scale), ident, orders[-1][0])
    for order, bound in reversed(orders[:-1]):
        low = Tensor(np.broadcast_to(norm < real(bound), val.shape).copy())
        uo, vo = _pade(x, ident, order)
        u, v = _a.where(low, uo, u), _a.where(low, vo, v)
    r = _solve_again(_m.subtract(v, u), _m.add(v, u), False, True)  # Eigen's LU: TF's bits
    finite = squarings[np.isfinite(squarings)]
    for i in range(int(finite.max()) if finite.size else 0):  # TF would loop forever at inf
        more = Tensor(np.broadcast_to(i < squarings, val.shape).copy())
        r = _a.where(more, _expm_mm(r, r), r)
    return r


def cross(a, b, name=None):
    """The cross product of 3-vectors over the last axis (``tf.linalg.cross``)."""
    a, b = pair(a, b, "Cross")
    if a._value.dtype.kind not in "fiu":
        check_kind(a, "fiu", "Cross", "float, double, int32, uint8, int16, int8, int64, "
                   "bfloat16, uint16, half, uint32, uint64")
    if a._value.shape != b._value.shape:
        raise _err(f"Both inputs must be of same shape: {_show(a._value.shape)} vs. "
                   f"{_show(b._value.shape)}", "Cross")
    if a._value.shape[-1:] != (3,) or b._value.shape[-1:] != (3,):
        raise _err(f"inner dimensions of arguments must be size 3: "
                   f"{_show(a._value.shape)} {_show(b._value.shape)}", "Cross")
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    return _a.stack([_m.subtract(_m.multiply(a1, b2), _m.multiply(a2, b1)),
                     _m.subtract(_m.multiply(a2, b0), _m.multiply(a0, b2)),
                     _m.subtract(_m.multiply(a0, b1), _m.multiply(a1, b0))], axis=-1)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norms and the Frobenius norm (``tf.norm``).

    Args:
        tensor: a float tensor.
        ord: ``'euclidean'``/``'fro'``/2, 1, ``np.inf``, or another positive number
            (vector p-norm).
        axis: None (the whole tensor as a vector), an int, or a pair of ints (matrix norm,
            ``'fro'``/``'euclidean'``, 1 or ``np.inf``).
        keepdims: keep reduced axes.

    Raises:
        ValueError: for an unsupported ``ord`` or ``axis``.
    """
    x = to_tensor(tensor)
    if kind_of(x._value.dtype) not in "fiuc":
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")
    keep = bool(keepdims)
    is_matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if isinstance(axis, (list, tuple)) and len(axis) not in (1, 2):
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                         f"integers, got {axis}")
    if ord in ("euclidean", "fro") or (ord == 2 and not is_matrix):
        if ord == "fro" and not is_matrix:  # TF: 'fro' is a matrix norm only, any rank
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        sq = _m.multiply(x, _a.conj(x))  # complex: |x|^2 kept complex, as TensorFlow's
        return _m.sqrt(_r.reduce_sum(sq, axis, keep))
    if not isinstance(ord, (int, float)) or ord <= 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    ax = _m.abs(x)
    if is_matrix:
        r, c = (int(a) % x._value.ndim for a in axis)
        if ord == 2:
            # the spectral norm: the largest singular value
            rest = [i for i in builtins.range(x._value.ndim) if i not in (r, c)]
            s = svd(_a.transpose(x, rest + [r, c]), compute_uv=False)
            out = _r.reduce_max(s, -1)
            if keep:
                out = _a.expand_dims(_a.expand_dims(out, min(r, c)), max(r, c))
            return out
        if ord == 1:
            out = _r.reduce_max(_r.reduce_sum(ax, r, keepdims=True), c, keepdims=True)
        elif ord == np.inf:
            out = _r.reduce_max(_r.reduce_sum(ax, c, keepdims=True), r, keepdims=True)
        else:
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', "
                             f"'fro', 1, 2, inf], got {ord}")
        if not keep:
            out = _a.squeeze(out, [r, c])
        return out
    if ord == 1:
        return _r.reduce_sum(ax, axis, keep)
    if ord == np.inf:
        return _r.reduce_max(ax, axis, keep)
    return _m.pow(_r.reduce_sum(_m.pow(ax, float(ord)), axis, keep), 1.0 / ord)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """``(tensor / norm, norm)`` with :func:`norm`'s arguments (``tf.linalg.normalize``)."""
    x = to_tensor(tensor)
    nrm = norm(x, ord=ord, axis=axis, keepdims=True)
    return _m.divide(x, nrm), nrm


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above ``tol`` (``tf.linalg.matrix_rank``); int32."""
    x = to_tensor(a)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {x.dtype.name}).")
    _check_linalg(x, "Svd")
    v = x._value
    if v.ndim < 2:
        raise _err(f"input must have rank >= 2, got {v.ndim}", "Svd")
    if not v.size:
        return Tensor(np.zeros(v.shape[:-2], np.int32))
    # TensorFlow's composition: the singular values by its Svd (NaN for a matrix holding
    # inf or nan: rank 0), the tolerance eps * max(m, n) * max(s) in a's dtype. Computed
    # here on the values: the result is an integer, nothing to differentiate.
    sv = _svd_forward(v, False)[0]
    if tol is None:
        eps = np.finfo(v.dtype).eps * builtins.max(v.shape[-2:])
        tol = sv.dtype.type(eps) * np.max(sv, axis=-1, keepdims=True)
    else:
        tol = np.asarray(getattr(tol, "_value", tol), sv.dtype)
    with np.errstate(invalid="ignore"):
        return Tensor(np.sum(sv > tol, axis=-1, dtype=np.int32))
