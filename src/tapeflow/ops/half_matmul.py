"""float16 / bfloat16 matrix products in the order TensorFlow's CPU kernel adds them.

TF 2.21's ``MatMul`` / ``BatchMatMulV2`` over ``half`` converts both operands to float32, runs
the float32 Eigen contraction (TF's custom contraction kernel on the thread pool) and rounds
the product to ``half`` once. A product of two halves is exact in float32, so the answer
depends only on how the float32 sums are grouped, which Eigen fixes from the shape:

* the inner dimension ``k`` is cut into blocks of ``kc`` (``k`` up to 320; above, ``k`` split
  into ``ceil(k / 320)`` slices of ``k // slices`` rounded up to a multiple of 8; when the
  cost model gives the contraction one thread, Eigen's one-thread heuristic, which allows up
  to 576); each block is summed from zero in order and added to the result, block after block;
* when Eigen's cost model shards the contraction by the inner dimension (one thread over the
  outputs but two over ``k``: a small ``m x n`` with a long ``k``), ``k`` is first split in
  two shards of ``ceil(ceil(k / 2) / 8) * 8`` (at least 96), each blocked as above into its
  own buffer, and the two buffers added.

Not reproduced: a sharded contraction with fewer than about 24 rows (a batch of 16 or 20
through a 784-wide layer), where oneDNN's sgemm splits its ``k`` again (blocks of 196 for
``k = 392``); a few outputs there differ by one float16 ulp.

Eigen sees a row-major ``[M, K] @ [K, N]`` as ``m = N`` by ``n = M``. The constants are this
machine's TF build: AVX without FMA (8 floats a packet, ``mr = 24``, ``nr = 4``), a 64 KiB L1
cache (as Eigen reads it) and a pool of 2 threads. Checked bit for bit against TF by
``tests/ops/test_half_matmul.py``.
"""
from .._core.backend import np

THREADS = 2
_LOAD = 11.0 / 64.0          # TensorCostModel's load / store cycles per byte
_NR, _MR, _PACKET = 4, 24, 8
_MAX_KC = 320                # min(320, (L1 - 24 * 4 * 4) // (24 * 4 + 4 * 4)), L1 = 64 KiB
_MAX_KC_1 = 576              # one thread: ((L1 - 24 * 4 * 4) // (24 * 4 + 4 * 4)) & ~7


def kc_for(k, threads=2, m=64, n=64):
    """TF's contraction block along ``k`` for ``threads`` threads (Eigen's heuristic, then
    TF's refinement for its kernel: ``k`` in equal slices rounded up to 8)."""
    if threads > 1:
        kc0 = _MAX_KC if k > _MAX_KC else k
    elif max(k, m, n) < 48 or k <= _MAX_KC_1:
        kc0 = k
    elif k % _MAX_KC_1 == 0:
        kc0 = _MAX_KC_1
    else:
        kc0 = _MAX_KC_1 - 8 * ((_MAX_KC_1 - 1 - k % _MAX_KC_1) // (8 * (k // _MAX_KC_1 + 1)))
    slices = -(-k // kc0)
    return min(k, -(-(k // slices) // 8) * 8)


def _bandwidth(bk, first, second):
    bw = 4.0 if bk == 1 else 2.0 if (first < _NR or second < _MR) else 0.5
    return 1.0 if bw == 0.5 else bw        # no FMA in TF's build: MULPS + ADDPS


def _num_threads(n_coeffs, cost):
    threads = (n_coeffs * cost - 100000.0) / 100000.0 + 0.9
    return int(min(THREADS, max(1, int(threads))))


def _shard_by_col(m, n, t):
    if m // t >= _NR and (n // t < _NR or (n // t < 4 * _NR and n % (t * _NR) != 0 and (
            m % (t * _NR) == 0 or m // n >= 6))):
        return False
    if n // t < 16 * _NR and m > n * 32:
        return False
    return True


def _heuristic(k, m, n, t):
    """Eigen's evaluateProductBlockingSizesHeuristic for ``t > 1`` threads: (k, m, n)."""
    l1, l2, l3 = 65536, 1 << 20, 32 << 20
    if _MAX_KC < k:
        k = _MAX_KC
    n_cache = (l2 - l1) // (_NR * 4 * k)
    per = -(-n // t)
    if n_cache <= per:
        n = n_cache - n_cache % _NR
    else:
        n = min(n, (per + _NR - 1) - (per + _NR - 1) % _NR)
    m_cache = (l3 - l2) // (4 * k * t)
    per = -(-m // t)
    if _MR <= m_cache < per:
        m = m_cache - m_cache % _MR
    else:
        m = min(m, (per + _MR - 1) - (per + _MR - 1) % _MR)
    return k, m, n


def _blocking(k, m, n, t, by_col):
    """(bm, bn, bk) of TF's TensorContractionBlocking for ``t`` threads."""
    if by_col:
        _, mc, nc = _heuristic(k, m, n, t)
    else:
        _, nc, mc = _heuristic(k, n, m, t)
    mc = min(m, -(-int(mc * 1.5) // 48) * 48)
    nc = min(n, -(-nc // 24) * 24)
    return mc, nc, kc_for(k)


def plan(m, n, k):
    """(shards ``k``, threads) of Eigen's thread-pool contraction ``m x k`` by ``k x n``."""
    by_col = _shard_by_col(m, n, 2)
    bm, bn, bk = _blocking(k, m, n, 2, by_col)
    loads = (0.0 if by_col else 4.0 * bk / n) + (4.0 * bk / m if by_col else 0.0)
    cost = loads * _LOAD + 4 * _LOAD + bk * _bandwidth(bk, bm, bn) / _PACKET
    t = _num_threads(float(m) * n, cost)
    # numThreadsInnerDim
    per_k = 4.0 * n * _LOAD + 4 * _LOAD + _bandwidth(k, m, n) * m * n / _PACKET
    total = k * per_k
    reduction = m * n * (3 * _LOAD + 1.0 / _PACKET)
    by_k, best = 1, total
    for nt in range(2, THREADS + 1, 2):
        par = total / nt + 100000.0 + nt * (reduction + 3000.0)
        if par < best:
            by_k, best = nt, par
    if n == 1 or by_k < 2 or by_k < t or k // by_k < 2 * _NR:
        return False, t
    return (max(m, n) // t < _NR or (k // by_k > 8 * _NR and (
        min(m, n) < 2 * _NR or by_k > t))), t


def _blocked(af, bf, k0, k1, threads):
    """Sum over ``k0 <= k < k1`` of the float32 products, in TF's blocks."""
    kc = kc_for(k1 - k0, threads, bf.shape[-1], af.shape[-2])
    out = None
    for s in range(k0, k1, kc):
        acc = np.zeros(af.shape[:-1] + bf.shape[-1:], np.float32)
        for k in range(s, min(k1, s + kc)):
            acc += af[..., :, k:k + 1] * bf[..., k:k + 1, :]
        out = acc if out is None else out + acc
    return out


def matmul(a, b):
    """``a @ b`` for float16 ``a`` ``[..., M, K]`` and ``b`` ``[..., K, N]`` (already
    transposed as asked, batch axes broadcast), as TF computes it; float16 result."""
    af = a.astype(np.float32)
    bf = b.astype(np.float32)
    k = af.shape[-1]
    big_m, big_n = af.shape[-2], bf.shape[-1]
    if k == 0 or big_m == 0 or big_n == 0:
        return np.matmul(a, b)             # empty: zeros, or no values at all
    sharded, threads = plan(big_n, big_m, k)
    if sharded:
        half_k = -(-k // 2)
        bs = min(k, max(12 * _PACKET, -(-half_k // 8) * 8))
        starts = range(0, k, bs)
        parts = [_blocked(af, bf, s, min(k, s + bs), len(starts)) for s in starts]
        out = parts[0]
        for p in parts[1:]:
            out = out + p
    else:
        out = _blocked(af, bf, 0, k, threads)
    return out.astype(a.dtype)
