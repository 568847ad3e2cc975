"""Eigen's linear-algebra algorithms as TensorFlow's CPU kernels run them, in NumPy.

Used by ``linalg_ops`` where LAPACK (NumPy) and Eigen part: inf and nan spread, rounding
loses a pivot, scaling hides a small singular value (docs/ops.md, "Eigen's linear-algebra
and convolution kernels"). Each works batched over leading axes; the ordinary finite input
keeps LAPACK's path in ``linalg_ops``.
"""
import builtins

from .._core.backend import np
from ._kernels import _c_mul, _plain_mul
from ._kernels import complex_reciprocal_c as _recip_c


class _EighFailed(Exception):
    """Eigen's solver reported NoConvergence (TensorFlow raises InvalidArgumentError)."""


def _eigh_nonfinite(x, e, v):
    """Eigen's SelfAdjointEigenSolver on matrices whose lower triangle holds inf or nan, in
    place on numpy's ``(e, v)``. Eigen divides the lower triangle by its largest magnitude:
    a nan (any) or an inf leaves nan in the tridiagonal form, and the QR iteration fails, except
    for an inf on the first diagonal entry (or the last of a 2x2): Householder steps over zero
    columns leave it alone, the solver converges at once to ``nan * inf`` eigenvalues (all nan)
    and the identity as eigenvectors, unsorted."""
    n = x.shape[-1]
    low = np.tril(x)
    bad = ~np.isfinite(low).all(axis=(-2, -1))
    if n == 1 or not bad.any():
        return e, v
    if np.isnan(low).any():
        raise _EighFailed()
    inf = np.isinf(low)
    inf[..., 0, 0] = False
    if n == 2:
        inf[..., 1, 1] = False
    if inf.any():
        raise _EighFailed()
    e[bad] = np.nan
    v[bad] = np.eye(n, dtype=v.dtype)
    return e, v


def _llt_eigen(m):
    """Eigen's unblocked LLT (TF's kernel below 32 rows, built without FMA) of ``[..., n, n]``
    matrices: column by column, ``L_kk = sqrt(a_kk - |L_k,:k|^2)`` and
    ``L_k+1:,k = (a_k+1:,k - L_k+1:,:k L_k,:k^H) / L_kk``, each product rounded apart (LAPACK's
    fused multiply-adds can keep a pivot that Eigen finds ``<= 0``). A pivot ``<= 0`` stops
    the matrix (all nan here); a nan pivot (``inf - inf``) goes on as nan where LAPACK refuses
    the matrix."""
    n = m.shape[-1]
    L = np.zeros_like(m)
    failed = np.zeros(m.shape[:-2], bool)
    with np.errstate(all="ignore"):
        for k in range(n):
            row = L[..., k, :k]
            d = m[..., k, k].real - np.sum((row * np.conj(row)).real, -1)
            failed |= d <= 0
            d = np.sqrt(d)
            L[..., k, k] = d
            L[..., k + 1:, k] = (m[..., k + 1:, k] - np.sum(
                L[..., k + 1:, :k] * np.conj(row)[..., None, :], -1)) / d[..., None]
    L[failed] = np.nan
    return L


def _qr_unsafe(x):
    """Whether LAPACK's scaled norms and Eigen's plain ones can part: an inf or nan, or a
    magnitude whose square over- or underflows."""
    a = np.abs(x)
    info = np.finfo(a.dtype)
    big = np.sqrt(info.max / builtins.max(x.shape[-2], 1))
    if not (a.max() < big):
        return True
    nonzero = a[a > 0]
    return nonzero.size > 0 and nonzero.min() < np.sqrt(info.tiny) * 4


def _householder(col):
    # Eigen's makeHouseholder of ``col`` [..., r]: (essential part, tau, beta), with plain
    # squared norms (an overflow gives tau = nan, so nan through the rest, as TF's kernel)
    c0 = col[..., 0]
    tail = col[..., 1:]
    tsq = np.sum((tail * np.conj(tail)).real, -1)
    tol = np.finfo(tsq.dtype).tiny
    zero = (tsq <= tol) & (c0.imag * c0.imag <= tol)
    beta = np.sqrt((c0 * np.conj(c0)).real + tsq)
    beta = np.where(c0.real >= 0, -beta, beta)
    ess = tail / (c0 - beta)[..., None]
    tau = np.conj((beta - c0) / beta)
    ess = np.where(zero[..., None], 0, ess).astype(col.dtype)
    tau = np.where(zero, 0, tau).astype(col.dtype)
    beta = np.where(zero, c0.real, beta)
    return ess, tau, beta


def _apply_householder(block, ess, tau):
    """``block = H block`` in place for ``H = I - tau [1; ess] [1; ess]^H`` (Eigen's
    applyHouseholderOnTheLeft: skipped where ``tau == 0``)."""
    if block.shape[-2] == 1:
        block *= (1 - tau)[..., None, None]
        return
    tmp = np.sum(np.conj(ess)[..., :, None] * block[..., 1:, :], -2) + block[..., 0, :]
    on = (tau != 0)[..., None]
    block[..., 0, :] = np.where(on, block[..., 0, :] - tau[..., None] * tmp, block[..., 0, :])
    block[..., 1:, :] = np.where(
        on[..., None], block[..., 1:, :] - tau[..., None, None] * ess[..., :, None]
        * tmp[..., None, :], block[..., 1:, :])


def _apply_block_householder(mat, vecs, h):
    """Eigen's apply_block_householder_on_the_left (the columns of a wide matrix past its
    panel): ``mat -= V T^H V^H mat`` with ``V`` unit lower triangular (``vecs`` below the
    diagonal) and ``T`` the upper triangular factor of the taus ``conj(h)``."""
    m, k = vecs.shape[-2:]
    hc = np.conj(h)
    t = np.zeros(vecs.shape[:-2] + (k, k), vecs.dtype)
    for i in range(k - 1, -1, -1):
        if k - i - 1 > 0:
            w = -hc[..., i, None] * np.conj(vecs[..., i + 1:, i])  # [..., rs]
            row = np.stack([w[..., c] + np.sum(w[..., c + 1:] * vecs[..., i + 2 + c:, i + 1 + c],
                                               -1) for c in range(k - i - 1)], -1)
            t[..., i, i + 1:] = row
            for j in range(k - 1, i, -1):
                z = t[..., i, j].copy()
                t[..., i, j] = z * t[..., j, j]
                if k - j - 1 > 0:
                    t[..., i, j + 1:] += z[..., None] * t[..., j, j + 1:]
        t[..., i, i] = hc[..., i]
    # the products with the triangular V and T run as Eigen's TRMM kernel: each diagonal
    # block packed dense with its zeros, so a zero times an inf or nan is nan
    vd = np.tril(vecs, -1)
    idx = np.arange(k)
    vd[..., idx, idx] = 1
    tmp = np.sum(np.conj(vd)[..., :, :, None] * mat[..., :, None, :], -3)  # V^H mat
    tmp = np.sum(np.conj(t)[..., :, :, None] * tmp[..., :, None, :], -3)  # T^H tmp
    mat -= np.sum(vd[..., :, :, None] * tmp[..., None, :, :], -2)  # V tmp


def _qr_eigen(x, full_matrices):
    """Eigen's unblocked HouseholderQR (TF's kernel) of ``[..., m, n]`` matrices, batched:
    used where an inf, nan or overflowing norm meets LAPACK's scaling, which would keep
    finite factors where TF's are nan."""
    m, n = x.shape[-2:]
    k = builtins.min(m, n)
    a = x.copy()
    steps = []
    with np.errstate(all="ignore"):
        for j in range(k):
            ess, tau, beta = _householder(a[..., j:, j])
            a[..., j, j] = beta
            a[..., j + 1:, j] = ess
            if j + 1 < k:
                _apply_householder(a[..., j:, j + 1:k], ess, tau)
            steps.append((ess, np.conj(tau)))
        if n > k:
            _apply_block_householder(a[..., :, k:], a[..., :, :k],
                                     np.stack([np.conj(t) for _, t in steps], -1))
        eye = np.eye(m, m if full_matrices else k, dtype=x.dtype)
        q = np.broadcast_to(eye, x.shape[:-2] + eye.shape).copy()
        for j in range(k - 1, -1, -1):
            ess, tau = steps[j]
            # the full Q updates the trailing corner only, the thin one whole rows
            _apply_householder(q[..., j:, j:] if full_matrices else q[..., j:, :], ess, tau)
    r = np.triu(a if full_matrices else a[..., :k, :])
    return q, r


def _lu_eigen(a):
    """Eigen's unblocked PartialPivLU (TF's kernels for solve, inverse and determinants) of
    ``[..., n, n]`` matrices, batched: ``(lu, perm, swaps)`` with the unit lower and upper
    factors in ``lu``, ``a[perm] = L U`` and the count of row swaps. The pivot is the first
    largest magnitude of the column (a nan never wins), a zero pivot column is left as it
    is, and the trailing update runs whatever the pivot: inf and nan spread as in TF."""
    lu = np.array(a, copy=True)
    n = a.shape[-1]
    batch = a.shape[:-2]
    perm = np.broadcast_to(np.arange(n), batch + (n,)).copy()
    swaps = np.zeros(batch, int)
    rows = np.arange(n)
    with np.errstate(all="ignore"):
        for k in range(n):
            score = np.abs(lu[..., k:, k])
            # the first largest; a nan in the first place stays, elsewhere it never wins
            first_nan = np.isnan(score[..., 0])
            at = np.where(first_nan, 0, np.argmax(np.where(np.isnan(score), -1, score), -1))
            best = np.take_along_axis(score, at[..., None], -1)[..., 0]
            piv = k + at
            nonzero = best != 0
            move = nonzero & (piv != k)
            if move.any():
                src = np.where(move[..., None], np.where(rows == k, piv[..., None],
                                                         np.where(rows == piv[..., None], k,
                                                                  rows)), rows)
                lu = np.take_along_axis(lu, src[..., :, None], -2)
                perm = np.take_along_axis(perm, src, -1)
                swaps = swaps + move
            if k + 1 < n:
                lu[..., k + 1:, k] = np.where(nonzero[..., None],
                                              _div_scaled(lu[..., k + 1:, k],
                                                          lu[..., k, k, None]),
                                              lu[..., k + 1:, k])
                lu[..., k + 1:, k + 1:] -= lu[..., k + 1:, k, None] * lu[..., k, None, k + 1:]
    return lu, perm, swaps


def _div_scaled(a, b):
    """``a / b``; for complex ``b`` as Eigen's division (TF's LU kernels, scalar and packet
    alike): ``b`` scaled by the larger magnitude of its parts first, so a finite pivot of
    1e30 + 1e30j divides without overflow and an infinite one (inf / inf) gives nan where
    C's division gives 0."""
    if b.dtype.kind != "c":
        return a / b
    scale = np.maximum(np.abs(b.real), np.abs(b.imag))
    c, d = b.real / scale, b.imag / scale
    den = c * c + d * d
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), np.result_type(a, b))
    out.real = (a.real * c + a.imag * d) / den / scale
    out.imag = (a.imag * c - a.real * d) / den / scale
    return out


def _lu_solve_eigen(lu, perm, b):
    # Eigen's triangular solves: unit lower forward, then upper back substitution
    n = lu.shape[-1]
    x = np.take_along_axis(np.broadcast_to(b, lu.shape[:-2] + b.shape[-2:]),
                           perm[..., :, None], -2).astype(np.result_type(lu, b))
    with np.errstate(all="ignore"):
        for i in range(1, n):
            x[..., i, :] -= np.sum(lu[..., i, :i, None] * x[..., :i, :], -2)
        for i in range(n - 1, -1, -1):
            if i + 1 < n:
                x[..., i, :] -= np.sum(lu[..., i, i + 1:, None] * x[..., i + 1:, :], -2)
            d = lu[..., i, i, None]
            q = x[..., i, :] / d
            if q.dtype.kind == "c":
                # C's complex division (Annex G): a finite value over an infinite pivot is 0
                # (NumPy's is nan + nanj)
                q = np.where(np.isinf(d) & np.isnan(q), _plain_mul(x[..., i, :], _recip_c(d)),
                             q)
            x[..., i, :] = q
    return x


# TF's MatrixSolve on small real matrices: Eigen's PartialPivLU and its triangular solves
# with a row-major right-hand side, i.e. the right-side TRSM kernel of the transposed
# problem, whose small panels (up to 8 rows here; Eigen's panel holds at least that many)
# subtract each term in turn and multiply by the diagonal's reciprocal. Bit for bit TF's
# (checked on 150 random float32/float64 systems of 1-8 rows); LAPACK's solution differs
# in the last bits, which a chain of squarings (``expm``) amplifies past float32 rounding.
SOLVE_REPLAY_MAX_N = 8
# Complex systems: the same LU and substitutions in complex arithmetic, each product by the
# plain formula (a rounding per product), the column divided by the pivot and the diagonal's
# reciprocal by C's division (libgcc's Smith quotient, ``_div_smith``), the triangular solves
# by panels (``_TRSM_PANEL``). Bit for bit TF's for complex64/complex128 up to 8 rows.
SOLVE_REPLAY_MAX_N_COMPLEX = {np.dtype(np.complex64): 8, np.dtype(np.complex128): 8}
# rows of Eigen's triangular-solve panel (max(mr, nr) of its gebp traits on AVX); past a
# panel the rows solved before enter as one block product (gebp, alpha = -1)
_TRSM_PANEL = {np.dtype(np.complex64): 8, np.dtype(np.complex128): 4}


def _solve_replayable(a, b):
    n = a.shape[-1]
    if a.dtype != b.dtype or n == 0 or b.size == 0:
        return False
    if a.dtype in (np.float32, np.float64):
        limit = SOLVE_REPLAY_MAX_N
    else:
        limit = SOLVE_REPLAY_MAX_N_COMPLEX.get(a.dtype, 0)
    return n <= limit and not _nonfinite(a, b)


def _div_smith(a, d):
    """``a / d`` for complex arrays as C's division in TF's kernels (libgcc's ``__divsc3`` /
    ``__divdc3`` for finite operands): Smith's ratio of the smaller part of ``d`` to the larger,
    each quotient part divided by the denominator (NumPy's multiplies by its reciprocal)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(d))
    a, d = np.broadcast_to(a, shape), np.broadcast_to(d, shape)
    p, q, c, e = a.real, a.imag, d.real, d.imag
    with np.errstate(all="ignore"):
        small = np.abs(c) < np.abs(e)
        r1 = c / e
        den1 = c * r1 + e
        r2 = e / c
        den2 = e * r2 + c
        out = np.empty(shape, d.dtype)
        out.real = np.where(small, (p * r1 + q) / den1, (q * r2 + p) / den2)
        out.imag = np.where(small, (q * r1 - p) / den1, (q - p * r2) / den2)
        lost = np.isnan(out.real) & np.isnan(out.imag)
        if lost.any():
            _recover_annex_g(out, lost, p, q, c, e)
    return out


def _recover_annex_g(out, lost, p, q, c, e):
    """libgcc's (C's Annex G) x / 0 = inf, inf / finite = inf, finite / inf = signed 0."""
    a1, b1, c1, e1 = (np.copysign(np.isinf(v).astype(c.dtype), v) for v in (p, q, c, e))
    zero = lost & (c == 0) & (e == 0) & ~(np.isnan(p) & np.isnan(q))
    inf_num = lost & ~zero & (np.isinf(p) | np.isinf(q)) & np.isfinite(c) & np.isfinite(e)
    inf_den = lost & ~zero & ~inf_num & (np.isinf(c) | np.isinf(e)) & np.isfinite(p) & \
        np.isfinite(q)
    for case, re, im in ((zero, np.copysign(np.inf, c) * p, np.copysign(np.inf, c) * q),
                         (inf_num, np.inf * (a1 * c + b1 * e), np.inf * (b1 * c - a1 * e)),
                         (inf_den, 0 * (p * c1 + q * e1), 0 * (q * c1 - p * e1))):
        out.real = np.where(case, re, out.real)
        out.imag = np.where(case, im, out.imag)


def _solve_eigen(a, b):
    """``a^-1 b`` for ``[..., n, n]`` and ``[..., n, m]`` of one float or complex dtype (see
    ``_solve_replayable``), as TF's kernel; raises ``LinAlgError`` for a zero pivot. The LU
    as ``_lu_eigen`` (finite input: the first largest pivot, the column divided by it, the
    rank-1 update), the row swaps applied to ``b`` as they happen. Returns
    ``[broadcast batch..., n, m]``."""
    if a.dtype.kind == "c":
        return _solve_eigen_complex(a, b)
    lu, x, batch = _lu_with_rhs(a, b, np.true_divide, np.multiply)
    n, m = x.shape[-2:]
    with np.errstate(all="ignore"):
        for i in range(1, n):
            for k in range(i):
                x[:, i] -= x[:, k] * lu[:, i, k, None]
        for i in range(n - 1, -1, -1):
            for k in range(i + 1, n):
                x[:, i] -= x[:, k] * lu[:, i, k, None]
            x[:, i] *= (lu.dtype.type(1) / lu[:, i, i])[:, None]
    return x.reshape(batch + (n, m))


def _lu_with_rhs(a, b, div, mul):
    """The LU of ``_solve_eigen`` on ``[..., n, n]`` with the row swaps applied to ``b``
    ``[..., n, m]`` as they happen, ``div``/``mul`` the arithmetic of the column division
    and the rank-1 update (real operators, or C's complex division and plain products):
    ``(lu [B, n, n], x [B, n, m], broadcast batch shape)``. Raises ``LinAlgError`` for a zero
    pivot."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, m = a.shape[-1], b.shape[-1]
    lu = np.broadcast_to(a, batch + (n, n)).reshape(-1, n, n).copy()
    x = np.broadcast_to(b, batch + (n, m)).reshape(-1, n, m).copy()
    rows = np.arange(lu.shape[0])
    nonfinite = not np.isfinite(lu).all()
    with np.errstate(all="ignore"):
        for k in range(n):
            score = np.abs(lu[:, k:, k])
            if nonfinite:   # Eigen's maxCoeff: a nan wins only in the first place
                score = np.where(np.isnan(score) & (np.arange(n - k) > 0), -1, score)
            p = k + np.argmax(score, axis=1)
            swap = p != k
            if swap.any():
                r, q = rows[swap], p[swap]
                lu[r, k], lu[r, q] = lu[r, q], lu[r, k].copy()
                x[r, k], x[r, q] = x[r, q], x[r, k].copy()
            if k + 1 < n:
                piv = lu[:, k, k, None]
                col = lu[:, k + 1:, k]
                lu[:, k + 1:, k] = np.where(piv != 0, div(col, piv), col)
                lu[:, k + 1:, k + 1:] -= mul(lu[:, k + 1:, k, None], lu[:, k, None, k + 1:])
    if (np.diagonal(lu, axis1=-2, axis2=-1) == 0).any():
        raise np.linalg.LinAlgError("Input matrix is not invertible.")
    return lu, x, batch


def _inv_eigen_complex(a):
    """TF's MatrixInverse of complex ``[..., n, n]`` holding inf or nan: Eigen's LU solved
    against the identity (``_solve_eigen_complex``); ``LinAlgError`` where TF's guard is."""
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return _solve_eigen_complex(a, eye, refuse=_not_invertible)


def _solve_eigen_complex(a, b, refuse=None):
    # ``_solve_eigen`` in complex arithmetic on separate real and imaginary parts: each
    # product by the plain formula (a rounding per real product), the column divided by the
    # pivot and the diagonal's reciprocal by ``_div_smith``'s formula
    lu, x, batch = _lu_with_rhs(a, b, _div_smith, _plain_mul)
    if refuse is not None and refuse(lu):
        raise np.linalg.LinAlgError("Input is not invertible.")
    n, m = x.shape[-2:]
    with np.errstate(all="ignore"):
        one = np.ones((), lu.dtype)
        inv = _div_smith(one, np.diagonal(lu, axis1=-2, axis2=-1))
        lr, li = np.ascontiguousarray(lu.real), np.ascontiguousarray(lu.imag)
        xr, xi = np.ascontiguousarray(x.real), np.ascontiguousarray(x.imag)
        ir, ii = inv.real, inv.imag

        def sub(i, k):  # x_i -= x_k * l_ik
            cr, ci = lr[:, i, k, None], li[:, i, k, None]
            ar, ai = xr[:, k], xi[:, k]
            xr[:, i] -= ar * cr - ai * ci
            xi[:, i] -= ar * ci + ai * cr

        def update(rows, prev):  # x[rows] -= lu[rows, prev] x[prev] as Eigen's block update
            a = lu[:, rows, prev]
            b = np.empty(xr[:, prev].shape, lu.dtype)
            b.real, b.imag = xr[:, prev], xi[:, prev]
            new = _gebp(a, b, -1, _ftz if _may_underflow(a, b) else _no_ftz)
            xr[:, rows] += new.real
            xi[:, rows] += new.imag

        width = _TRSM_PANEL[lu.dtype]
        for start in range(0, n, width):
            end = min(start + width, n)
            if start:
                update(slice(start, end), slice(0, start))
            for i in range(start + 1, end):
                for k in range(start, i):
                    sub(i, k)
        end = n
        while end > 0:
            start = end - (end % width or width)
            if end < n:
                update(slice(start, end), slice(end, n))
            for i in range(end - 1, start - 1, -1):
                for k in range(i + 1, end):
                    sub(i, k)
                ar, ai = xr[:, i].copy(), xi[:, i]
                cr, ci = ir[:, i, None], ii[:, i, None]
                xr[:, i] = ar * cr - ai * ci
                xi[:, i] = ar * ci + ai * cr
            end = start
        out = np.empty(x.shape, x.dtype)
        out.real, out.imag = xr, xi
    return out.reshape(batch + (n, m))


def _not_invertible(lu):
    # TF's guard: the smallest pivot magnitude must be > 0 (nan pivots only, or a zero one,
    # fail it)
    piv = np.abs(np.diagonal(lu, axis1=-2, axis2=-1))
    return bool(((piv == 0).any(-1) | np.isnan(piv).all(-1)).any())


def _nonfinite(*arrays):
    return not builtins.all(np.isfinite(a).all() for a in arrays)


def _svd_jacobi(a, full_matrices):
    """One-sided (Hestenes) Jacobi SVD of ``[b, m, n]`` matrices, in double precision: high
    relative accuracy for small singular values of badly scaled matrices, as Eigen's
    JacobiSVD. Returns ``(s, u, v)`` as ``_svd_forward``."""
    m, n = a.shape[-2:]
    if m < n:
        s, u, v = _svd_jacobi(np.conj(np.swapaxes(a, -1, -2)), full_matrices)
        return s, v, u
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    scale = np.max(np.abs(a), axis=(-2, -1), keepdims=True)
    scale = np.where(scale > 0, scale, 1)
    w = (a / scale).astype(wide)
    b = a.shape[0]
    v = np.broadcast_to(np.eye(n, dtype=wide), (b, n, n)).copy()
    eps = np.finfo(np.float64).eps
    with np.errstate(all="ignore"):
        for _ in range(60):
            rotated = False
            for p in range(n - 1):
                for q in range(p + 1, n):
                    wp, wq = w[:, :, p], w[:, :, q]
                    alpha = np.sum((wp * np.conj(wp)).real, -1)
                    beta = np.sum((wq * np.conj(wq)).real, -1)
                    gamma = np.sum(np.conj(wp) * wq, -1)
                    g = np.abs(gamma)
                    need = g > eps * np.sqrt(alpha * beta)
                    if not need.any():
                        continue
                    rotated = True
                    phase = np.where(g > 0, gamma / np.where(g > 0, g, 1), 1)
                    zeta = (beta - alpha) / (2 * np.where(g > 0, g, 1))
                    t = np.where(zeta >= 0, 1.0, -1.0) / (np.abs(zeta) + np.hypot(1.0, zeta))
                    c = 1 / np.hypot(1.0, t)
                    sn = c * t
                    for mat in (w, v):
                        mp, mq = mat[:, :, p].copy(), mat[:, :, q] * np.conj(phase)[:, None]
                        mat[:, :, p] = np.where(need[:, None], c[:, None] * mp - sn[:, None] * mq,
                                                mat[:, :, p])
                        mat[:, :, q] = np.where(need[:, None], sn[:, None] * mp + c[:, None] * mq,
                                                mat[:, :, q])
            if not rotated:
                break
        norms = np.sqrt(np.sum((w * np.conj(w)).real, -2))  # [b, n]
        order = np.argsort(-norms, -1, kind="stable")
        norms = np.take_along_axis(norms, order, -1)
        w = np.take_along_axis(w, order[:, None, :], -1)
        v = np.take_along_axis(v, order[:, None, :], -1)
        u = w / np.where(norms > 0, norms, 1)[:, None, :]
    # columns of u for zero singular values, and the rest of a full u: an orthonormal
    # completion
    cols = m if full_matrices else n
    out_u = np.zeros((b, m, cols), wide)
    for i in range(b):
        good = u[i][:, norms[i] > 0]
        q, r = np.linalg.qr(np.concatenate([good, np.eye(m, dtype=wide)], -1))
        q = q * np.where(np.diagonal(r)[:m] < 0, -1, 1)[None, :m] if good.shape[1] else q
        q[:, :good.shape[1]] = good
        out_u[i] = q[:, :cols]
    s = (norms * scale[:, 0, :]).astype(a.real.dtype)
    return s, out_u.astype(a.dtype), v.astype(a.dtype)


# ------------------------------------------------------ SelfAdjointEigenSolver, replayed
#
# TF's SelfAdjointEigV2 runs Eigen's solver on a column-major copy of the lower triangle:
# scale by the largest magnitude, Householder tridiagonalisation, the Householder sequence
# accumulated into Q, implicit symmetric QR steps with Wilkinson's shift, a selection sort.
# Replayed below operation by operation (TF's wheel: AVX packets of 4 doubles / 8 floats, no
# FMA), it gives TF's bits: the eigenvector signs, and the eigenvectors of near-degenerate
# or badly scaled matrices, where LAPACK's differ by far more than rounding. Scalar Python,
# so it is used for small matrices only (``EIGH_REPLAY_MAX_N``; the selfadjoint
# matrix-vector product below is Eigen's scalar loop, which it runs up to 9 rows).

EIGH_REPLAY_MAX_N = 10
EIGH_REPLAY_MAX_MATRICES = 256


def _predux(p):
    # Eigen's horizontal sum of an AVX packet: halves added lane-wise, then (0+2)+(1+3)
    if len(p) == 1:
        return p[0]
    if len(p) == 8:
        p = [p[i] + p[i + 4] for i in range(4)]
    if len(p) == 4:
        return (p[0] + p[2]) + (p[1] + p[3])
    return p[0] + p[1]


def _redux_sum(t, lanes):
    """Eigen's linear vectorised sum of the scalars ``t``: two packet accumulators over
    whole pairs of packets, one more packet, the horizontal sum, then the tail in order;
    fewer than one packet's worth is summed in order."""
    n = len(t)
    if n < lanes:
        r = t[0]
        for x in t[1:]:
            r = r + x
        return r
    full, pairs = n // lanes * lanes, n // (2 * lanes) * 2 * lanes
    r0 = t[:lanes]
    if full > lanes:
        r1 = t[lanes:2 * lanes]
        for i in range(2 * lanes, pairs, 2 * lanes):
            r0 = [a + b for a, b in zip(r0, t[i:i + lanes])]
            r1 = [a + b for a, b in zip(r1, t[i + lanes:i + 2 * lanes])]
        r0 = [a + b for a, b in zip(r0, r1)]
        if full > pairs:
            r0 = [a + b for a, b in zip(r0, t[pairs:pairs + lanes])]
    r = _predux(r0)
    for x in t[full:]:
        r = r + x
    return r


def _gemv_row(a, b, lanes, zero, alone):
    """One output of Eigen's row-major matrix-vector kernel, ``sum a * b``: whole packets
    (lane sums from 0), their horizontal sum, half packets only for a row left alone after
    the blocks of 8, 4 and 2 rows, then the rest in order."""
    n = len(a)
    full = n // lanes * lanes
    half = lanes // 2
    stop = n // half * half if alone else full
    acc = [zero] * lanes
    for j in range(0, full, lanes):
        acc = [acc[k] + a[j + k] * b[j + k] for k in range(lanes)]
    r = _predux(acc)
    if alone:
        acc = [zero] * half
        for j in range(full, stop, half):
            acc = [acc[k] + a[j + k] * b[j + k] for k in range(half)]
        r = r + _predux(acc)
    for j in range(stop, n):
        r = r + a[j] * b[j]
    return r


def _tridiagonalize(m, n, T, lanes):
    """Eigen's Householder tridiagonalisation of the lower triangle of ``m`` (a list of
    columns), in place; returns the Householder coefficients."""
    zero, one = T(0), T(1)
    tiny = T(np.finfo(np.float32 if T is np.float32 else np.float64).tiny)
    coeffs = [zero] * (n - 1)
    for i in range(n - 1):
        size = n - i - 1
        col = m[i]
        c0 = col[i + 1]
        tail = col[i + 2:]
        tail_sq = _redux_sum([x * x for x in tail], lanes) if tail else zero
        if tail_sq <= tiny:
            h, beta = zero, c0
            for k in range(i + 2, n):
                col[k] = zero
        else:
            beta = T(np.sqrt(c0 * c0 + tail_sq))
            if c0 >= 0:
                beta = -beta
            d = c0 - beta
            for k in range(i + 2, n):
                col[k] = col[k] / d
            h = (beta - c0) / beta
        col[i + 1] = one
        v = col[i + 1:]
        # w = h * A v over the trailing block's lower triangle (Eigen's scalar loop)
        w = [zero] * size
        for j in range(size):
            aj = m[i + 1 + j]
            t1 = h * v[j]
            t2 = zero
            w[j] = w[j] + aj[i + 1 + j] * t1
            for k in range(j + 1, size):
                w[k] = w[k] + aj[i + 1 + k] * t1
                t2 = t2 + aj[i + 1 + k] * v[k]
            w[j] = w[j] + h * t2
        f = (h * T(-0.5)) * _redux_sum([w[k] * v[k] for k in range(size)], lanes)
        w = [w[k] + f * v[k] for k in range(size)]
        for c in range(size):  # A -= v w^T + w v^T, lower triangle
            s1, s2, cc = -v[c], -w[c], m[i + 1 + c]
            for r in range(c, size):
                cc[i + 1 + r] = cc[i + 1 + r] + (s1 * w[r] + s2 * v[r])
        col[i + 1] = beta
        coeffs[i] = h
    return coeffs


def _householder_q(m, coeffs, n, T, lanes):
    """Eigen's in-place evaluation of the Householder sequence (shift 1) into ``m``."""
    zero, one = T(0), T(1)
    for c in range(n):
        m[c][c] = one
        for r in range(c):
            m[c][r] = zero
    for k in range(n - 2, -1, -1):
        size, o, tau = n - k - 1, k + 1, coeffs[k]
        ess = m[k][o + 1:]
        if size == 1:
            m[o][o] = m[o][o] * (one - tau)
        elif tau != 0:
            tmp = [_gemv_row(m[o + j][o + 1:], ess, lanes, zero,
                             size % 2 == 1 and j == size - 1) + m[o + j][o]
                   for j in range(size)]
            te = [tau * e for e in ess]
            for j in range(size):
                cj = m[o + j]
                cj[o] = cj[o] - tau * tmp[j]
                for r in range(size - 1):
                    cj[o + 1 + r] = cj[o + 1 + r] - te[r] * tmp[j]
        for r in range(k + 1, n):
            m[k][r] = zero


def _hypot(x, y, T):
    x, y = abs(x), abs(y)
    if np.isinf(x) or np.isinf(y):
        return T(np.inf)
    if np.isnan(x) or np.isnan(y):
        return T(np.nan)
    p = builtins.max(x, y)
    if p == 0:
        return T(0)
    r = builtins.min(y, x) / p
    return p * T(np.sqrt(T(1) + r * r))


def _givens(x, z, T):
    # Eigen's makeGivens for real p = x, q = z (q != 0)
    if x == 0:
        return T(0), (T(1) if z < 0 else T(-1))
    if abs(x) > abs(z):
        t = z / x
        u = T(np.sqrt(T(1) + t * t))
        c = T(1) / (-u if x < 0 else u)
        return c, -t * c
    t = x / z
    u = T(np.sqrt(T(1) + t * t))
    s = -T(1) / (-u if z < 0 else u)
    return -t * s, s


def _qr_step(diag, sub, start, end, q, n, T):
    """One implicit symmetric QR step with Wilkinson's shift on rows start..end."""
    td = (diag[end - 1] - diag[end]) * T(0.5)
    e = sub[end - 1]
    mu = diag[end]
    if td == 0:
        mu = mu - abs(e)
    elif e != 0:
        e2 = e * e
        h = _hypot(td, e, T)
        h = h if td > 0 else -h
        mu = mu - (e / ((td + h) / e) if e2 == 0 else e2 / (td + h))
    x, z = diag[start] - mu, sub[start]
    k = start
    while k < end and z != 0:
        c, s = _givens(x, z, T)
        sdk = s * diag[k] + c * sub[k]
        dkp1 = s * sub[k] + c * diag[k + 1]
        diag[k] = c * (c * diag[k] - s * sub[k]) - s * (c * sub[k] - s * diag[k + 1])
        diag[k + 1] = s * sdk + c * dkp1
        sub[k] = c * sdk - s * dkp1
        if k > start:
            sub[k - 1] = c * sub[k - 1] - s * z
        x = sub[k]
        if k < end - 1:
            z = -s * sub[k + 1]
            sub[k + 1] = c * sub[k + 1]
        if q is not None:
            qa, qb = q[k], q[k + 1]
            for r in range(len(qa)):  # a complex column: its real parts, then imaginary
                xa, xb = qa[r], qb[r]
                qa[r] = c * xa + (-s) * xb
                qb[r] = s * xa + c * xb
        k += 1


def _tridiagonal_qr(diag, sub, q, n, T):
    """Eigen's deflation loop; False where it gives up (30 n steps: NoConvergence)."""
    tiny = T(np.finfo(np.float32 if T is np.float32 else np.float64).tiny)
    inv_eps = T(1) / T(np.finfo(np.float32 if T is np.float32 else np.float64).eps)
    end, start, steps = n - 1, 0, 0
    while end > 0:
        for i in range(start, end):
            if abs(sub[i]) < tiny:
                sub[i] = T(0)
            else:
                s = inv_eps * sub[i]
                if s * s <= abs(diag[i]) + abs(diag[i + 1]):
                    sub[i] = T(0)
        while end > 0 and sub[end - 1] == 0:
            end -= 1
        if end <= 0:
            break
        steps += 1
        if steps > 30 * n:
            return False
        start = end - 1
        while start > 0 and sub[start - 1] != 0:
            start -= 1
        _qr_step(diag, sub, start, end, q, n, T)
    return True


def _eigh_eigen_one(a, compute_v):
    """Eigen's SelfAdjointEigenSolver on one ``[n, n]`` matrix (lower triangle; real, or
    complex Hermitian with real eigenvalues):
    ``(e, v or None)``, ascending as Eigen's selection sort leaves them; raises
    ``_EighFailed`` where Eigen reports NoConvergence. float64 runs on Python floats (the
    same IEEE operations, faster than NumPy scalars) unless a division meets a zero."""
    with np.errstate(all="ignore"):
        run = _eigh_eigen_complex_run if a.dtype.kind == "c" else _eigh_eigen_run
        if a.dtype in (np.float32, np.complex64):
            return run(a, compute_v, np.float32, 8)
        try:
            return run(a, compute_v, float, 4)
        except ZeroDivisionError:
            return run(a, compute_v, np.float64, 4)


def _eigh_eigen_run(a, compute_v, T, lanes):
    n = a.shape[0]
    if n == 1:
        return a[0].copy(), np.ones((1, 1), a.dtype)
    low = np.tril(a)
    scale = np.abs(low).max()
    if scale == 0:
        scale = a.dtype.type(1)
    m = [[T(x) for x in col] for col in (low / scale).T]  # columns of the scaled triangle
    coeffs = _tridiagonalize(m, n, T, lanes)
    diag = [m[i][i] for i in range(n)]
    sub = [m[i][i + 1] for i in range(n - 1)]
    q = None
    if compute_v:
        _householder_q(m, coeffs, n, T, lanes)
        q = m
    if not _tridiagonal_qr(diag, sub, q, n, T):
        raise _EighFailed()
    _sort_ascending(diag, q, n)
    e = np.array(diag, a.dtype) * scale
    return e, (np.array(q, a.dtype).T if q is not None else None)


def _sort_ascending(diag, q, n):
    """Eigen's final ordering of SelfAdjointEigenSolver: a selection sort of the eigenvalues
    (in place), swapping the eigenvector columns ``q`` (a list of columns, or None) with
    them; its swaps, not a stable sort, decide the order of equal eigenvalues."""
    for i in range(n - 1):
        k = i
        for j in range(i + 1, n):
            if diag[j] < diag[k]:
                k = j
        if k != i:
            diag[i], diag[k] = diag[k], diag[i]
            if q is not None:
                q[i], q[k] = q[k], q[i]


def _eigh_replayable(x):
    """Whether ``eigh``/``eigvalsh`` of ``x`` [..., n, n] runs the replay: float32/64 or
    complex64/128, finite, at most ``EIGH_REPLAY_MAX_N`` rows and
    ``EIGH_REPLAY_MAX_MATRICES`` matrices."""
    n = x.shape[-1]
    count = x.size // builtins.max(n * n, 1)
    return (x.dtype in (np.float32, np.float64, np.complex64, np.complex128)
            and 0 < n <= EIGH_REPLAY_MAX_N
            and 0 < count <= EIGH_REPLAY_MAX_MATRICES and bool(np.isfinite(x).all()))


def _eigh_eigen(x, compute_v):
    """Eigen's solver on every matrix of ``x`` [..., n, n] (see ``_eigh_replayable``):
    ``(e, v)``, ``v`` None without ``compute_v``; ``e`` real (complex input too)."""
    n = x.shape[-1]
    flat = x.reshape(-1, n, n)
    es, vs = [], []
    for a in flat:
        e, v = _eigh_eigen_one(a, compute_v)
        es.append(e)
        vs.append(v)
    e = np.stack(es).reshape(x.shape[:-1])
    return e, (np.stack(vs).reshape(x.shape) if compute_v else None)


# ------------------------------------------- the same solver on complex Hermitian matrices
#
# Eigen's tridiagonalisation of a complex matrix: Householder reflectors with complex
# coefficients (the subdiagonal comes out real), the Householder sequence with the
# conjugated coefficients, then the real tridiagonal QR above with each rotation applied to
# the real and imaginary parts of the eigenvectors alike. Complex products and sums are
# Eigen's (ac - bd, ad + bc); a real factor multiplies each part; an AVX packet holds 2
# complex doubles / 4 complex floats; the squared norm of the tail sums the squares of the
# real and imaginary parts as a real vector; the division of the tail by ``c0 - beta`` is
# Eigen's packet division (scaled by the larger part) on every entry (the unaligned head and
# tail of the column run as partial packets).

# Complex numbers below are pairs ``(re, im)`` of Python floats (complex128) or float32
# scalars (complex64).


def _cm(a, b):
    return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


def _ca(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _cs(a, b):
    return (a[0] - b[0], a[1] - b[1])


def _cj(a):
    return (a[0], -a[1])


def _cr(r, a):
    return (r * a[0], r * a[1])


def _cdiv_packet(x, y):
    # Eigen's pdiv_complex: both parts of y scaled by the larger magnitude first
    m = builtins.max(abs(y[0]), abs(y[1]))
    c, d = y[0] / m, y[1] / m
    den = c * c + d * d
    return (((x[0] * c + x[1] * d) / den) / m, ((x[1] * c - x[0] * d) / den) / m)


def _tridiagonalize_complex(m, n, T, lanes):
    """The complex counterpart of ``_tridiagonalize`` (``m`` a list of columns of pairs)."""
    zero, one = T(0), T(1)
    czero = (zero, zero)
    tiny = T(np.finfo(np.float32 if T is np.float32 else np.float64).tiny)
    clanes = lanes // 2
    coeffs = [czero] * (n - 1)
    alpha = (T(-1), zero)  # rankUpdate's -1, conjugated below
    calpha = _cj(alpha)
    for i in range(n - 1):
        size = n - i - 1
        col = m[i]
        c0 = col[i + 1]
        tail = col[i + 2:]
        if tail:
            tail_sq = _redux_sum([p * p for z in tail for p in z], lanes)
        else:
            tail_sq = zero
        if tail_sq <= tiny and c0[1] * c0[1] <= tiny:
            h, beta = czero, c0[0]
            for k in range(i + 2, n):
                col[k] = czero
        else:
            beta = T(np.sqrt((c0[0] * c0[0] + c0[1] * c0[1]) + tail_sq))
            if c0[0] >= 0:
                beta = -beta
            d = (c0[0] - beta, c0[1])
            for k in range(i + 2, n):
                col[k] = _cdiv_packet(col[k], d)
            h = _cj(((beta - c0[0]) / beta, (zero - c0[1]) / beta))
        col[i + 1] = (one, zero)
        v = col[i + 1:]
        ch = _cj(h)
        # w = conj(h) * A v over the trailing block's lower triangle (Eigen's scalar loop)
        w = [czero] * size
        for j in range(size):
            aj = m[i + 1 + j]
            t1 = _cm(ch, v[j])
            t2 = czero
            w[j] = _ca(w[j], _cr(aj[i + 1 + j][0], t1))
            for k in range(j + 1, size):
                w[k] = _ca(w[k], _cm(aj[i + 1 + k], t1))
                t2 = _ca(t2, _cm(_cj(aj[i + 1 + k]), v[k]))
            w[j] = _ca(w[j], _cm(ch, t2))
        dot = _inner_csum([_cm(_cj(w[k]), v[k]) for k in range(size)], clanes)
        f = _cm(_cr(T(-0.5), ch), dot)
        w = [_ca(w[k], _cm(f, v[k])) for k in range(size)]
        for c in range(size):  # A -= v w^H + w v^H, lower triangle
            s1, s2, cc = _cm(calpha, _cj(v[c])), _cm(alpha, _cj(w[c])), m[i + 1 + c]
            for r in range(c, size):
                cc[i + 1 + r] = _ca(cc[i + 1 + r], _ca(_cm(s1, w[r]), _cm(s2, v[r])))
        col[i + 1] = (beta, zero)
        coeffs[i] = h
    return coeffs


def _inner_csum(t, lanes):
    """Eigen's vectorised inner product of complex pairs (``dot``): up to four packet
    accumulators over whole packets, combined ``p2 + p3``, ``p1 + p2``, ``p0 + p1``, the
    horizontal sum, then the tail in order; fewer than one packet's worth in order."""
    n = len(t)
    if n < lanes:
        r = t[0]
        for x in t[1:]:
            r = _ca(r, x)
        return r
    packets = n // lanes
    quad_end = n // (4 * lanes) * 4 * lanes
    acc = [t[k * lanes:(k + 1) * lanes] for k in range(builtins.min(packets, 4))]
    if packets >= 4:
        for k in range(4 * lanes, quad_end, 4 * lanes):
            for a in range(4):
                acc[a] = [_ca(x, y) for x, y in zip(acc[a], t[k + a * lanes:k + (a + 1) * lanes])]
        for a in range(packets - quad_end // lanes):
            at = quad_end + a * lanes
            acc[a] = [_ca(x, y) for x, y in zip(acc[a], t[at:at + lanes])]
        acc[2] = [_ca(x, y) for x, y in zip(acc[2], acc[3])]
    if packets >= 3:
        acc[1] = [_ca(x, y) for x, y in zip(acc[1], acc[2])]
    if packets >= 2:
        acc[0] = [_ca(x, y) for x, y in zip(acc[0], acc[1])]
    r = _cpredux(acc[0])
    for x in t[packets * lanes:]:
        r = _ca(r, x)
    return r


def _householder_q_complex(m, coeffs, n, T, lanes):
    """``_householder_q`` for complex columns, with the conjugated coefficients."""
    zero, one = T(0), T(1)
    czero = (zero, zero)
    clanes = lanes // 2
    for c in range(n):
        m[c][c] = (one, zero)
        for r in range(c):
            m[c][r] = czero
    for k in range(n - 2, -1, -1):
        size, o, tau = n - k - 1, k + 1, _cj(coeffs[k])
        ess = m[k][o + 1:]
        if size == 1:
            m[o][o] = _cm(m[o][o], (one - tau[0], zero - tau[1]))
        elif tau != czero:
            cess = [_cj(e) for e in ess]
            tmp = [_ca(_gemv_crow(m[o + j][o + 1:], cess, clanes,
                                  size % 2 == 1 and j == size - 1), m[o + j][o])
                   for j in range(size)]
            te = [_cm(tau, e) for e in ess]
            for j in range(size):
                cj = m[o + j]
                cj[o] = _cs(cj[o], _cm(tau, tmp[j]))
                for r in range(size - 1):
                    cj[o + 1 + r] = _cs(cj[o + 1 + r], _cm(te[r], tmp[j]))
        for r in range(k + 1, n):
            m[k][r] = czero


def _gemv_crow(a, b, lanes, alone):
    # ``_gemv_row`` over complex pairs
    n = len(a)
    zero = a[0][0] * 0
    czero = (zero, zero)
    full = n // lanes * lanes
    half = builtins.max(lanes // 2, 1)
    stop = n // half * half if alone else full
    acc = [czero] * lanes
    for j in range(0, full, lanes):
        acc = [_ca(acc[k], _cm(a[j + k], b[j + k])) for k in range(lanes)]
    r = _cpredux(acc)
    if alone:
        acc = [czero] * half
        for j in range(full, stop, half):
            acc = [_ca(acc[k], _cm(a[j + k], b[j + k])) for k in range(half)]
        r = _ca(r, _cpredux(acc))
    for j in range(stop, n):
        r = _ca(r, _cm(a[j], b[j]))
    return r


def _cpredux(p):
    return (_predux([x[0] for x in p]), _predux([x[1] for x in p]))


def _eigh_eigen_complex_run(a, compute_v, T, lanes):
    n = a.shape[0]
    rdt = a.real.dtype
    if n == 1:
        return a[0, 0].real.reshape(1).astype(rdt), np.ones((1, 1), a.dtype)
    low = np.tril(a)
    # |z| as the C library's hypot (glibc: hypotf through double), not NumPy's
    if a.dtype == np.complex64:
        scale = np.sqrt(low.real.astype(np.float64) ** 2
                        + low.imag.astype(np.float64) ** 2).astype(np.float32).max()
    else:
        scale = rdt.type(builtins.max(abs(complex(z)) for z in low.ravel()))
    if scale == 0:
        scale = rdt.type(1)
    re, im = low.real / scale, low.imag / scale  # part by part (NumPy's complex division
    m = [[(T(r), T(i)) for r, i in zip(cr, ci)] for cr, ci in zip(re.T, im.T)]  # is not)
    coeffs = _tridiagonalize_complex(m, n, T, lanes)
    diag = [m[i][i][0] for i in range(n)]
    sub = [m[i][i + 1][0] for i in range(n - 1)]
    q = None
    if compute_v:
        _householder_q_complex(m, coeffs, n, T, lanes)
        q = [[z[0] for z in col] + [z[1] for z in col] for col in m]
    if not _tridiagonal_qr(diag, sub, q, n, T):
        raise _EighFailed()
    _sort_ascending(diag, q, n)
    e = np.array(diag, rdt) * scale
    if q is None:
        return e, None
    qa = np.array(q, rdt)
    v = np.empty((n, n), a.dtype)
    v.real, v.imag = qa[:, :n].T, qa[:, n:].T
    return e, v


# ------------------------------------------------ TF's MatMul of small float64 / complex


# Eigen's packet sizes on AVX (full, half, quarter) for the matrix product's kernel (gebp)
_GEBP_PACKETS = {np.dtype(np.complex64): (4, 2, 2), np.dtype(np.complex128): (2, 1, 1),
                 np.dtype(np.float64): (4, 2, 2)}
MATMUL_REPLAY_MAX_N = 8


def _matmul_replayable(a, b):
    """Whether ``_matmul_eigen`` gives TF's bits: float64/complex products of square
    matrices of 1-8 rows, one or a batch of the same shape (``expm``'s). Not modelled:
    broadcast batches, a dimension of 1 beside others (TF's matrix-vector kernel), float32
    (oneDNN, whose order NumPy's matches), and the half-packet and one-column paths of a
    depth of 8 or more, which split k over two accumulators (only non-square products take
    them below 9 rows)."""
    n = a.shape[-1]
    return (a.dtype == b.dtype and a.dtype in _GEBP_PACKETS and a.shape == b.shape
            and a.ndim >= 2 and a.shape[-2] == n and 0 < n <= MATMUL_REPLAY_MAX_N)


def _ftz(x):
    # TF runs its kernels with denormals flushed to zero (inputs and results, FTZ/DAZ)
    if x.dtype.kind == "c":
        out = np.empty(x.shape, x.dtype)
        out.real, out.imag = _ftz(x.real), _ftz(x.imag)
        return out
    return np.where(np.abs(x) < np.finfo(x.dtype).tiny, np.copysign(x.dtype.type(0), x), x)


def _no_ftz(x):
    return x


def _may_underflow(a, b):
    """Whether a denormal can arise in ``a @ b``: an operand part below the smallest normal,
    or a product of the smallest nonzero parts within 2^p of it (a sum of terms no smaller
    stays a multiple of their quantum, so it is 0 or normal)."""
    info = np.finfo(a.real.dtype)
    least = []
    for x in (a, b):
        mags = np.abs(np.concatenate([x.real.ravel(), x.imag.ravel()] if x.dtype.kind == "c"
                                     else [x.ravel()]))
        mags = mags[(mags != 0) & np.isfinite(mags)]
        if not mags.size:
            return False
        least.append(float(mags.min()))
    tiny = float(info.tiny)
    return min(least) < tiny or least[0] * least[1] < tiny * 2.0 ** (info.nmant + 1)


def _ftz_mul(x, y, f, recover=True):
    # one product of Eigen's scalar path: a complex one by the plain formula with each real
    # product flushed (``f``), then C++'s (Annex G) recovery of infinities (``recover``)
    if x.dtype.kind != "c":
        return f(x * y)
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), x.dtype)
    out.real = f(f(x.real * y.real) - f(x.imag * y.imag))
    out.imag = f(f(x.real * y.imag) + f(x.imag * y.real))
    if recover and np.isnan(out.real).any():
        out = np.where(np.isnan(out.real) & np.isnan(out.imag), _c_mul(x, y), out)
    return out


def _gebp_terms(a, b, f):
    # the products of the sum over k, ``[k, ..., m, n]``; complex: the four real ones of
    # Eigen's double-packet accumulators (re*re, im*im, re*im, im*re)
    a, b = np.moveaxis(a, -1, 0)[..., None], np.moveaxis(b, -2, 0)[..., None, :]
    if a.dtype.kind == "c":
        ar, ai, br, bi = a.real, a.imag, b.real, b.imag
        return [f(ar * br), f(ai * bi), f(ar * bi), f(ai * br)]
    return [f(a * b)]


def _gebp_join(parts, dt, sign, f):
    # the accumulators written back as ``res += alpha * acc``, alpha = sign + 0i (complex:
    # inf * 0 is nan; sign None: not scaled, TF's matrix-vector kernel for a 1 x 1 product)
    if dt.kind != "c":
        return parts[0] if sign in (None, 1) else -parts[0]
    re, im = f(parts[0] - parts[1]), f(parts[3] + parts[2])
    if sign is not None:
        re, im = re * sign - im * 0, re * 0 + im * sign
    out = np.empty(re.shape, dt)
    out.real, out.imag = re, im
    return out


def _gebp(a, b, sign, f):
    """``alpha * (a @ b)`` for ``a [..., m, k]``, ``b [..., k, n]`` (each pair of matrices
    apart) as Eigen's gebp kernel (AVX) forms it for ``res += alpha * acc``, alpha =
    ``sign`` + 0i (see ``_matmul_eigen``)."""
    dt = a.dtype
    m, kk = a.shape[-2:]
    n = b.shape[-1]
    full, half, quarter = _GEBP_PACKETS[dt]
    done = 0
    for width in (3 * full, 2 * full, full, half, quarter):
        done += (n - done) // width * width
    zero = dt.type(0).real
    with np.errstate(all="ignore"):
        terms = _gebp_terms(a, b, f)
        parts = [f(zero + t[0]) for t in terms]
        for k in range(1, kk):
            for j, t in enumerate(terms):
                parts[j] = f(parts[j] + t[k])
        out = _gebp_join(parts, dt, sign, f)
        if done < n:
            m4 = m // 4 * 4
            if m4:
                end4 = kk // 4 * 4
                sums = []
                for t in terms:
                    t = t[..., :m4, done:]
                    if end4:
                        c = [f(zero + t[j]) for j in range(4)]
                        for k in range(4, end4, 4):
                            for j in range(4):
                                c[j] = f(c[j] + t[k + j])
                        acc = f(f(c[0] + c[1]) + f(c[2] + c[3]))
                    else:
                        acc = np.zeros_like(t[0])
                    for k in range(end4, kk):
                        acc = f(acc + t[k])
                    sums.append(acc)
                out[..., :m4, done:] = _gebp_join(sums, dt, sign, f)
            if m4 < m:
                acc = np.zeros(out[..., m4:, done:].shape, dt)
                for k in range(kk):
                    acc = f(acc + _ftz_mul(a[..., m4:, k, None], b[..., None, k, done:], f))
                if sign is not None:
                    acc = _c_mul(np.asarray(sign, dt), acc) if dt.kind == "c" else sign * acc
                out[..., m4:, done:] = acc
    return out


def _matmul_eigen(a, b):
    """``a @ b`` as TF's MatMul / BatchMatMulV2 for ``_matmul_replayable`` operands.

    One product (or a batch of one) and each product of a batch of matrices of 7-8 rows:
    Eigen's contraction, its gebp kernel (AVX). TF's row-major product is Eigen's
    ``b^T a^T``: the kernel's rows are the result's columns. Columns that fill packets
    (full, half, quarter) sum over k in order, complex in four real accumulators joined at
    the end; the columns left over sum row blocks of four with four interleaved
    accumulators over k (added as ``(c0 + c1) + (c2 + c3)``, the last k after), the rows
    left over term by term as complex numbers (C++'s product). Each block is added to the
    zeroed result as ``res + alpha * acc``, alpha = 1 + 0i (inf * 0 is nan), except a 1 x 1
    product (TF's matrix-vector kernel). A batch of several matrices of up to 6 rows
    (``m + k + n < 20``): Eigen's coefficient-based product, each coefficient summed over k
    in order from 0 (packets of the result's rows), complex products by the plain formula.
    Denormal inputs and results are flushed to zero as in TF's kernels (FTZ/DAZ), wherever
    one can arise (``_may_underflow``). Bit for bit TF's on 600 random
    single square products of 1-8 rows and 192 batches of 2-4 (float64, complex64,
    complex128), and on non-square products of depth below 8 (``_solve_eigen_complex``'s
    block updates)."""
    n = a.shape[-1]
    f = _ftz if _may_underflow(a, b) else _no_ftz
    a, b = f(a), f(b)
    with np.errstate(all="ignore"):
        if a.size == n * n or n > 6:
            return f(a.dtype.type(0) + _gebp(a, b, None if n == 1 else 1, f))
        out = np.zeros(a.shape, a.dtype)
        for k in range(n):
            out = f(_ftz_mul(a[..., :, k, None], b[..., None, k, :], f, False) + out)
    return out
