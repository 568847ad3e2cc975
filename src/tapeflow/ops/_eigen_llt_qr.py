"""Eigen's LLT and HouseholderQR as TensorFlow's CPU kernels run them, cheap enough to run
for every call (``cholesky``) or every call under a tape (``qr``): TF's float32/float64 bits.

Eigen's orders (packets of 8 floats / 4 doubles for its reductions and its row-major
matrix-vector kernel) come from ``_eigen_linalg``'s replays of SelfAdjointEigenSolver; each
product is rounded apart (TF's wheel is built without FMA). One matrix runs on scalars
(Python floats for float64, NumPy float32 scalars), a batch of LLTs on arrays over the batch.
docs/ops.md, "Eigen's LLT and HouseholderQR replayed cheaply".
"""
import builtins
import math

from .._core.backend import np
from ._eigen_linalg import _gemv_row, _llt_eigen, _redux_sum

# ------------------------------------------------------------- Eigen's LLT, cheap enough

def _llt_rows(a, n, T, lanes, sqrt, batched):
    """Eigen's unblocked LLT (``llt_inplace::unblocked``) of the row-major lower triangle
    ``a`` (a list of rows of scalars, or of arrays over a batch): column ``k`` takes
    ``a_kk - |L_k,:k|^2`` (Eigen's vectorised squared norm), its root, then
    ``(a_ik - L_i,:k L_k,:k^T) / L_kk`` below it (Eigen's row-major matrix-vector kernel;
    one row alone is a dot product), each product rounded apart (TF's wheel has no FMA).
    Returns ``(L, failed)``: a single matrix stops at a pivot ``<= 0`` (``L`` None); a batch
    goes on and reports where one was met."""
    zero = T(0)
    L = [[zero] * n for _ in range(n)]
    failed = False
    for k in range(n):
        lk = L[k]
        x = a[k][k]
        if k:
            head = lk[:k]
            x = x - _redux_sum([v * v for v in head], lanes)
        bad = x <= 0
        if batched:
            failed = failed | bad
        elif bad:
            return None, True
        d = sqrt(x)
        lk[k] = d
        rs = n - k - 1
        for i in range(k + 1, n):
            v = a[i][k]
            if k:
                li = L[i][:k]
                if rs == 1:
                    s = _redux_sum([p * q for p, q in zip(li, head)], lanes)
                else:
                    s = _gemv_row(li, head, lanes, zero, rs % 2 == 1 and i == n - 1)
                v = v - s
            L[i][k] = v / d
    return L, failed


def _llt_fast(x):
    """Eigen's LLT of finite real ``[..., n, n]`` float32/float64 matrices (``n`` at most
    31, TF's unblocked LLT): TF's bits, nan where a pivot is ``<= 0``. One matrix runs on
    scalars (Python floats for float64), a batch on NumPy arrays over the batch, entry by
    entry."""
    n = x.shape[-1]
    f32 = x.dtype == np.float32
    T, lanes = (np.float32, 8) if f32 else (float, 4)
    with np.errstate(all="ignore"):
        if x.ndim == 2 or x.size == n * n:
            m = x.reshape(n, n)
            if f32:
                rows = [list(r) for r in m]
                L, failed = _llt_rows(rows, n, T, lanes, _sqrt32, False)
            else:
                L, failed = _llt_rows(m.tolist(), n, T, lanes, _sqrt64, False)
            if failed:
                return np.full(x.shape, np.nan, x.dtype)
            return np.array(L, x.dtype).reshape(x.shape)
        return _llt_batch(x.reshape(-1, n, n), lanes).reshape(x.shape)


def _llt_batch(a, lanes):
    """``_llt_rows`` over a batch ``[b, n, n]``, one column at a time, vectorised over the
    batch and the rows below the pivot."""
    n = a.shape[-1]
    out = np.zeros_like(a)
    failed = np.zeros(a.shape[0], bool)
    for k in range(n):
        x = a[:, k, k]
        rs = n - k - 1
        if k:
            head = out[:, k, :k]
            x = x - _sum_in_order(head * head, lanes, "redux")
        failed |= x <= 0
        d = np.sqrt(x)
        out[:, k, k] = d
        if rs:
            v = a[:, k + 1:, k]
            if k:
                if rs == 1:
                    s = _sum_in_order(out[:, k + 1:, :k] * head[:, None, :], lanes, "redux")
                else:
                    s = _sum_in_order(out[:, k + 1:, :k], lanes, "gemv", head[:, None, :])
                    if rs % 2:
                        s[:, -1] = _sum_in_order(out[:, -1, :k], lanes, "alone", head)
                v = v - s
            out[:, k + 1:, k] = v / d[:, None]
    out[failed] = np.nan
    return out


def _sum_in_order(p, lanes, kind, b=None):
    """Sums over the last axis of ``p`` (times ``b`` for the matrix-vector kinds) in
    Eigen's order: ``"redux"`` as ``_redux_sum``, ``"gemv"``/``"alone"`` as ``_gemv_row``
    (a row in a block of rows / a row alone). Fewer terms than a packet (half a packet
    for a row alone) add in order, from 0 for the matrix-vector kernel."""
    k = p.shape[-1]
    if kind == "redux":
        if k < lanes:
            return np.cumsum(p, -1)[..., -1]
        return _redux_sum([p[..., j] for j in range(k)], lanes)
    if k < (lanes // 2 if kind == "alone" else lanes):
        return np.cumsum(p * b, -1)[..., -1] + 0
    b = np.broadcast_to(b, p.shape)
    return _gemv_row([p[..., j] for j in range(k)], [b[..., j] for j in range(k)], lanes,
                     p.dtype.type(0), kind == "alone")


def _cholesky_forward(x):
    """TF's Cholesky kernel (``linalg_ops``' primitive): Eigen's LLT replayed for finite
    real matrices below 32 rows, LAPACK otherwise (Eigen's LLT where it finds the pivots
    Eigen refuses, and on non-finite matrices)."""
    # TensorFlow's CPU kernel does not raise for a matrix that is not positive definite;
    # its output is then meaningless. tapeflow returns NaN for such a matrix.
    if np.isfinite(x).all():
        if x.dtype in (np.float32, np.float64) and 0 < x.shape[-1] < 32:
            return _llt_fast(x)  # TF's kernel: Eigen's unblocked LLT, replayed for its bits
        try:
            out = np.linalg.cholesky(x)
        except np.linalg.LinAlgError:
            pass
        else:
            if x.shape[-1] < 32:
                # Eigen's LLT (TF's kernel below 32 rows) rounds each product apart where
                # LAPACK's fused multiply-adds may keep a pivot Eigen finds <= 0
                out[np.isnan(_llt_eigen(x)).any(axis=(-2, -1))] = np.nan
            return out
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.full(flat.shape, np.nan, x.dtype)
    for i, m in enumerate(flat):
        if np.isfinite(m).all():
            try:
                out[i] = np.linalg.cholesky(m)
            except np.linalg.LinAlgError:
                pass
        else:
            out[i] = _llt_eigen(m)
    return out.reshape(x.shape)

def _sqrt32(v):
    return np.float32(math.sqrt(v)) if v >= 0 else np.float32(np.nan)


def _sqrt64(v):
    return math.sqrt(v) if v >= 0 else math.nan


# ----------------------------------------------- Eigen's HouseholderQR on scalars, cheap enough

QR_REPLAY_MAX_N = 9          # rows and columns of a matrix the scalar replay takes (checked)
QR_REPLAY_MAX_MATRICES = 4   # more matrices in a batch keep LAPACK (the replay is per matrix)


def _qr_replayable(x):
    """Whether ``qr`` of ``x`` [..., m, n] runs the scalar replay ``_qr_fast``: real
    float32/float64, finite, no side past ``QR_REPLAY_MAX_N``, at most
    ``QR_REPLAY_MAX_MATRICES`` matrices (the caller has checked ``_qr_unsafe``)."""
    m, n = x.shape[-2:]
    count = x.size // builtins.max(m * n, 1)
    return (x.dtype in (np.float32, np.float64) and 0 < m <= QR_REPLAY_MAX_N
            and 0 < n <= QR_REPLAY_MAX_N and 0 < count <= QR_REPLAY_MAX_MATRICES)


def _seq(terms, zero):
    # sum in order from 0 (Eigen's column-major matrix-vector kernel, NumPy's short sums)
    s = zero
    for t in terms:
        s = s + t
    return s


def _apply_left(a, r0, r1, c0, c1, ess, tau, one, zero, row_kernel, lanes):
    """``applyHouseholderOnTheLeft`` on rows ``r0:r1``, columns ``c0:c1`` of ``a`` (a list
    of rows). ``tmp = ess^T bottom`` runs Eigen's column-major matrix-vector kernel (each
    output summed in order: a row-major destination) or, ``row_kernel``, its row-major one
    (packets: a column-major destination, TF's thin Q); one column is a dot product."""
    if r1 - r0 == 1:
        f = one - tau
        row = a[r0]
        for c in range(c0, c1):
            row[c] = row[c] * f
        return
    if tau == 0:
        return
    bottom = a[r0 + 1:r1]
    top = a[r0]
    cols = range(c0, c1)
    if c1 - c0 == 1:
        c = c0
        ps = [e * r[c] for e, r in zip(ess, bottom)]
        s = ps[0]
        for p in ps[1:]:
            s = s + p
        tmp = [s + top[c]]
    elif row_kernel and len(ess) >= lanes // 2:   # shorter: in order from 0 as below
        last = c1 - 1 if (c1 - c0) % 2 else -1
        tmp = [_gemv_row([r[c] for r in bottom], ess, lanes, zero, c == last) + top[c]
               for c in cols]
    else:
        tmp = [_seq([e * r[c] for e, r in zip(ess, bottom)], zero) + top[c] for c in cols]
    for c, t in zip(cols, tmp):
        top[c] = top[c] - tau * t
    for e, r in zip(ess, bottom):
        te = tau * e
        for c, t in zip(cols, tmp):
            r[c] = r[c] - te * t


def _block_apply_left(a, m, k, n, taus, zero, one):
    """Eigen's apply_block_householder_on_the_left (the columns ``k:n`` of a wide matrix
    past its panel, ``A -= V T^T V^T A``) on scalars, as ``_apply_block_householder``."""
    t = [[zero] * k for _ in range(k)]
    for i in range(k - 1, -1, -1):
        if k - i - 1 > 0:
            rs = m - i - 1
            w = [-taus[i] * a[i + 1 + r][i] for r in range(rs)]
            ti = t[i]
            for c in range(k - i - 1):
                ti[i + 1 + c] = w[c] + _seq(
                    [w[r] * a[i + 1 + r][i + 1 + c] for r in range(c + 1, rs)], zero)
            for j in range(k - 1, i, -1):
                z = ti[j]
                ti[j] = z * t[j][j]
                tj = t[j]
                for jj in range(j + 1, k):
                    ti[jj] = ti[jj] + z * tj[jj]
        t[i][i] = taus[i]
    # V unit lower triangular, packed dense with its zeros (Eigen's TRMM kernel)
    vd = [[a[r][c] if r > c else (one if r == c else zero) for c in range(k)]
          for r in range(m)]
    cols = range(k, n)

    def first_sum(ps):
        s = ps[0]
        for p in ps[1:]:
            s = s + p
        return s

    t1 = [[first_sum([vd[r][b] * a[r][c] for r in range(m)]) for c in cols] for b in range(k)]
    t2 = [[first_sum([t[b][b2] * t1[b][ci] for b in range(k)]) for ci in range(n - k)]
          for b2 in range(k)]
    for r in range(m):
        row, vr = a[r], vd[r]
        for ci, c in enumerate(cols):
            row[c] = row[c] - first_sum([vr[b] * t2[b][ci] for b in range(k)])


def _qr_one(a, m, n, full, T, lanes, sqrt):
    """Eigen's HouseholderQR of one real matrix ``a`` (a list of rows, overwritten) as TF's
    Qr kernel runs it: ``(q, r)`` as lists of rows. The column norms are sequential (a
    column of TF's row-major matrix is strided); the panel is the first ``min(m, n)``
    columns (``householder_qr_inplace_blocked`` with blocks of 48); the full Q is the
    Householder sequence evaluated into TF's row-major output, the thin Q its product with
    a column-major identity (Eigen's row-major matrix-vector kernel, packets)."""
    zero, one = T(0), T(1)
    tiny = T(np.finfo(np.float32 if T is np.float32 else np.float64).tiny)
    k = builtins.min(m, n)
    steps = []
    for j in range(k):
        c0 = a[j][j]
        tail = [a[i][j] for i in range(j + 1, m)]
        if tail:
            tsq = tail[0] * tail[0]
            for v in tail[1:]:
                tsq = tsq + v * v
        else:
            tsq = zero
        if tsq <= tiny:
            tau, beta, ess = zero, c0, [zero] * len(tail)
        else:
            beta = sqrt(c0 * c0 + tsq)
            if c0 >= 0:
                beta = -beta
            den = c0 - beta
            ess = [v / den for v in tail]
            tau = (beta - c0) / beta
        a[j][j] = beta
        for i, e in enumerate(ess):
            a[j + 1 + i][j] = e
        if j + 1 < k:
            _apply_left(a, j, m, j + 1, k, ess, tau, one, zero, False, lanes)
        steps.append((ess, tau))
    if n > k:
        _block_apply_left(a, m, k, n, [s[1] for s in steps], zero, one)
    cols = m if full else k
    q = [[one if r == c else zero for c in range(cols)] for r in range(m)]
    for j in range(k - 1, -1, -1):
        ess, tau = steps[j]
        if full:
            _apply_left(q, j, m, j, m, ess, tau, one, zero, False, lanes)
        else:
            _apply_left(q, j, m, 0, k, ess, tau, one, zero, True, lanes)
    r = [[a[i][c] if c >= i else zero for c in range(n)] for i in range(m if full else k)]
    return q, r


def _qr_fast(x, full_matrices):
    """Eigen's HouseholderQR (TF's Qr kernel) of the finite real ``[..., m, n]`` matrices of
    ``x`` (see ``_qr_replayable``), matrix by matrix on scalars (Python floats for float64):
    TF's bits. Returns ``(q, r)``."""
    m, n = x.shape[-2:]
    f32 = x.dtype == np.float32
    T, lanes, sqrt = (np.float32, 8, _sqrt32) if f32 else (float, 4, _sqrt64)
    qs, rs = [], []
    with np.errstate(all="ignore"):
        for mat in x.reshape(-1, m, n):
            rows = [list(r) for r in mat] if f32 else mat.tolist()
            q, r = _qr_one(rows, m, n, full_matrices, T, lanes, sqrt)
            qs.append(q)
            rs.append(r)
    q = np.array(qs, x.dtype)
    r = np.array(rs, x.dtype)
    return q.reshape(x.shape[:-2] + q.shape[1:]), r.reshape(x.shape[:-2] + r.shape[1:])
