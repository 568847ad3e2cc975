"""Eigen's linear-algebra algorithms as TensorFlow's CPU kernels run them, in NumPy.

Used by ``linalg_ops`` where LAPACK (NumPy) and Eigen part: inf and nan spread, rounding
loses a pivot, scaling hides a small singular value (docs/ops.md, "Eigen's linear-algebra
and convolution kernels"). Each works batched over leading axes; the ordinary finite input
keeps LAPACK's path in ``linalg_ops``.
"""
import builtins

from .._core.backend import np


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
            x[..., i, :] /= lu[..., i, i, None]
    return x


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
