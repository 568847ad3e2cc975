"""float16 and bfloat16 sums in the order TensorFlow's CPU kernels add them (and float32 /
float64 ones, for ``reduction_ops.reduce_sum_in_tf_order``).

TensorFlow 2.21's ``Sum`` and ``Mean`` over ``half`` / ``bfloat16`` run Eigen's ``SumReducer``
in the input's own dtype (there is no float32 accumulator, unlike ``MatMul`` or
``BiasAddGrad``): every partial sum is rounded to the half type, so the result depends on the
order of the additions. That order is fixed by the shape of the reduction, and reproduced
here bit for bit (checked against values recorded from TF, ``tests/ops/test_half_reduce.py``).
TF's pip build vectorizes Eigen with AVX: a packet holds ``P = 8`` half values; one packet
addition rounds each lane to the half type (``half(float(a) + float(b))``, which is the
correctly rounded half sum, as NumPy's float16 and ml_dtypes' bfloat16 additions are).

First the reduction is simplified as TF's ``ReductionHelper`` does (size-1 axes dropped,
adjacent axes of the same kind merged), then one of Eigen's paths runs:

* **inner** (``[rows, n]`` summed over ``n``, and any shape transposed so its reduced axes come
  last): per row, a tree: more than ``P * leaf`` values (``leaf`` 200 for half, 128 for
  bfloat16) are split in two at a packet boundary of the flat input index and both halves summed
  the same way; a leaf runs four packet accumulators over blocks of ``4P`` values, folds them
  into the first, adds the remaining whole packets to it, sums the last ``< P`` values one by
  one in a scalar, and returns ``scalar + half(float32 tree sum of the packet's lanes)``.
* **full** (every axis summed): the inner rule over the flat input, split first into the
  thread pool's shards when Eigen's cost model asks for more than one thread (2 cores here:
  shards of ``n // threads`` values, then the rest, added last-to-first as Eigen does).
* **outer** (``[rows, cols]`` summed over ``rows``, ``[a, rows, cols]`` over ``rows``): outputs
  in whole packets within a row of ``cols`` add the rows into four accumulators (row ``j``
  into accumulator ``j % 4``, when ``rows >= 16``) folded in order, then the leftover rows;
  other outputs add the rows one by one.
* **generic** (``[a, b, c]`` summed over ``a`` and ``c``): one by one, ``c`` outer, ``a`` inner.

``Mean`` is the sum divided by the count rounded to the half type, in the half type.

float32 and float64 follow the same paths in their own dtype, with AVX packets of 8 floats
(folded as the half lanes) or 4 doubles (``(a0+a2) + (a1+a3)``), leaves of 1024 packets and a
second shard from 108,388 / 54,194 values (checked against TF on random shapes, axes and
cancelling values). ``reduce_sum`` does not use them (NumPy's order costs less and differs
only in rounding); ``reduction_ops.reduce_sum_in_tf_order`` does, where a cancelling sum is
the whole answer.
"""
from .._core.backend import np

P = 8                      # Eigen's packet of half / bfloat16 values under AVX
_KSTART = 100000.0         # Eigen's TensorCostModel constants
_KPER_THREAD = 100000.0
_LOAD = 11.0 / 64.0
THREADS = 2                # TF's intra-op pool on this machine; see full()


def leaf_size(dtype):
    if dtype.itemsize != 2:
        return 1024           # Eigen's default leaf for float32 / float64
    return 200 if dtype == np.float16 else 128


def packet(dtype):
    """Values in one AVX packet of ``dtype``: 4 doubles, else 8 (floats, halves)."""
    return 4 if dtype.itemsize == 8 else P


def _lanes(p):
    """Eigen's ``predux`` of ``[..., 8]`` packets: summed in float32 as
    ``((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7))``, rounded once to the half type (a float32
    packet the same way in float32); of ``[..., 4]`` double packets
    ``(a0+a2) + (a1+a3)``."""
    if p.shape[-1] == 4:
        return (p[..., 0] + p[..., 2]) + (p[..., 1] + p[..., 3])
    f = p.astype(np.float32)
    b = f[..., :4] + f[..., 4:]
    return ((b[..., 0] + b[..., 2]) + (b[..., 1] + b[..., 3])).astype(p.dtype)


def _leaf(m):
    """Eigen's vectorized leaf reduction of each row of ``m`` ``[k, n]``."""
    k, n = m.shape
    dt = m.dtype
    P = packet(dt)
    p0 = np.zeros((k, P), dt)
    start = 0
    if n >= 4 * P:
        v4 = n // (4 * P) * (4 * P)
        blocks = m[:, :v4].reshape(k, v4 // (4 * P), 4, P)
        acc = np.zeros((k, 4, P), dt)
        for j in range(blocks.shape[1]):
            acc = acc + blocks[:, j]
        p0 = ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]
        start = v4
    if start <= n - P:
        v = n // P * P
        for j in range(start, v, P):
            p0 = p0 + m[:, j:j + P]
        start = v
    acc = np.zeros(k, dt)
    for j in range(start, n):
        acc = acc + m[:, j]
    return acc + _lanes(p0)


def _plan(first, n, limit, leaves, P=P):
    """The tree of Eigen's ``InnerMostDimReducer`` over ``n`` values from flat index
    ``first``: a leaf id (into ``leaves``, a list of (start, length)) or a pair of subtrees."""
    if n > limit:
        split = P * -(-(first + -(-n // 2)) // P)
        left = min(split - first, n)
        a = _plan(first, left, limit, leaves, P)
        if left < n:
            return (a, _plan(split, n - left, limit, leaves, P))
        return (a, None)
    leaves.append((first, n))
    return len(leaves) - 1


def _combine(tree, values, zero):
    if not isinstance(tree, tuple):
        return values[tree]
    acc = zero + _combine(tree[0], values, zero)
    if tree[1] is not None:
        acc = acc + _combine(tree[1], values, zero)
    return acc


def inner(m, base=0):
    """Each row of ``m`` ``[k, n]`` reduced by Eigen's inner-most-dimension rule; row ``i``
    starts at flat input index ``base + i * n`` (only its residue mod ``P`` matters)."""
    k, n = m.shape
    dt = m.dtype
    if n == 0:
        return np.zeros(k, dt)
    P = packet(dt)
    limit = P * leaf_size(dt)
    if n <= limit:
        return _leaf(m)
    out = np.empty(k, dt)
    rows = np.arange(k)
    firsts = (base + rows * n) % P
    for r in np.unique(firsts):
        sel = rows[firsts == r]
        out[sel] = _tree(m[sel], int(r), n, limit)
    return out


def _tree(m, first, n, limit):
    leaves = []
    tree = _plan(first, n, limit, leaves, packet(m.dtype))
    values = [None] * len(leaves)
    by_len = {}
    for i, (_, ln) in enumerate(leaves):
        by_len.setdefault(ln, []).append(i)
    k = m.shape[0]
    for ln, ids in by_len.items():
        starts = np.array([leaves[i][0] - first for i in ids])
        block = m[:, starts[:, None] + np.arange(ln)]            # [k, len(ids), ln]
        res = _leaf(block.reshape(k * len(ids), ln)).reshape(k, len(ids))
        for j, i in enumerate(ids):
            values[i] = res[:, j]
    return _combine(tree, values, np.zeros(k, m.dtype))


def threads_for(n, dtype, max_threads=THREADS):
    """Eigen's ``TensorCostModel::numThreads`` for a full sum of ``n`` values: ``itemsize``
    bytes loaded and ``10 / packet`` compute cycles each (measured: TF 2.21 starts its second
    shard at n = 131765 half, 108388 float32, 54194 float64 values)."""
    cost = n * (dtype.itemsize * _LOAD + 10.0 / packet(dtype))
    threads = (cost - _KSTART) / _KPER_THREAD + 0.9
    return int(min(max_threads, max(1, int(threads))))


def full(flat):
    """Eigen's ``FullReducer`` on the thread pool over the 1-D ``flat``."""
    n = flat.shape[0]
    dt = flat.dtype
    t = threads_for(n, dt)
    if t == 1:
        return inner(flat.reshape(1, n))[0]
    bs = n // t
    nb = n // bs
    shards = [inner(flat[i * bs:(i + 1) * bs].reshape(1, bs), i * bs)[0] for i in range(nb)]
    if nb * bs < n:
        acc = inner(flat[nb * bs:].reshape(1, n - nb * bs), nb * bs)[0]
    else:
        acc = dt.type(0)
    for s in shards:
        acc = dt.type(acc + s)
    return acc


def outer(x):
    """``x`` ``[a, rows, cols]`` summed over ``rows`` by Eigen's inner-dimension-preserving
    rule: ``[a, cols]``."""
    a, rows, cols = x.shape
    dt = x.dtype
    acc = np.zeros((a, cols), dt)
    for j in range(rows):
        acc = acc + x[:, j]
    if rows < 16:
        return acc
    # The packet path: outputs whose packet of P (in the flat output) lies in one row.
    total = a * cols
    P = packet(dt)
    o = np.arange(total)
    p = o // P * P
    whole = (p + P <= total) & (p % cols + P - 1 < cols)
    if not whole.any():
        return acc
    u4 = rows // 4 * 4
    quads = x[:, :u4].reshape(a, u4 // 4, 4, cols)
    acc4 = np.zeros((a, 4, cols), dt)
    for j in range(u4 // 4):
        acc4 = acc4 + quads[:, j]
    v = ((acc4[:, 0] + acc4[:, 1]) + acc4[:, 2]) + acc4[:, 3]
    for j in range(u4, rows):
        v = v + x[:, j]
    return np.where(whole.reshape(a, cols), v, acc)


def generic(x):
    """``x`` ``[a, b, c]`` summed over ``a`` and ``c``: ``[b]``, one addition at a time
    (``c`` outer, ``a`` inner)."""
    a, b, c = x.shape
    acc = np.zeros(b, x.dtype)
    for k in range(c):
        for i in range(a):
            acc = acc + x[i, :, k]
    return acc


def simplify(shape, axes):
    """TF's ``ReductionHelper::Simplify``: (``data_reshape``, ``reduce_first_axis``)."""
    bitmap = [i in axes for i in range(len(shape))]
    d = 0
    while d < len(shape) and shape[d] == 1:
        d += 1
    if d >= len(shape):
        return [], True
    first = bitmap[d]
    dims = [shape[d]]
    for i in range(d + 1, len(shape)):
        if shape[i] == 1:
            bitmap[i] = bitmap[i - 1]
        if bitmap[i - 1] != bitmap[i]:
            dims.append(shape[i])
        else:
            dims[-1] *= shape[i]
    return dims, first


def reduce_sum(x, axis, keepdims=False):
    """TF's ``Sum`` of the float16 / bfloat16 array ``x`` over the normalized, sorted tuple of
    axes ``axis``, summed in TF's order; the result has NumPy's reduction shape."""
    out_shape = tuple(1 if i in axis else d for i, d in enumerate(x.shape)) if keepdims \
        else tuple(d for i, d in enumerate(x.shape) if i not in axis)
    dims, first = simplify(x.shape, set(axis))
    nd = len(dims)
    if nd == 0 or (nd == 1 and not first):
        return x.reshape(out_shape).copy()
    if x.size == 0:
        return np.zeros(out_shape, x.dtype)
    v = np.ascontiguousarray(x).reshape(dims)
    if nd == 1:
        res = full(v.reshape(-1))
    elif nd == 2 and first:
        res = outer(v.reshape(1, *dims))
    elif nd == 2:
        res = inner(v)
    elif nd == 3 and first:
        res = generic(v)
    elif nd == 3:
        res = outer(v)
    else:
        keep = list(range(1 if first else 0, nd, 2))
        red = list(range(0 if first else 1, nd, 2))
        t = np.ascontiguousarray(v.transpose(keep + red))
        kept = int(np.prod([dims[i] for i in keep]))
        res = inner(t.reshape(kept, -1))
    return np.asarray(res, x.dtype).reshape(out_shape)


def reduce_mean(x, axis, keepdims=False):
    """TF's ``Mean`` of float16 / bfloat16 ``x``: the ``Sum`` in TF's order divided, in the
    half type, by the number of values averaged rounded to the half type."""
    total = reduce_sum(x, axis, keepdims)
    n = x.size // max(total.size, 1) if total.size else 0
    return (total / x.dtype.type(n)).astype(x.dtype)


def sum_half(x, axis, keepdims):
    """TF's ``Sum`` of a float16 (Eigen's order above) or bfloat16 array (TF sums bfloat16
    in float32 and rounds once)."""
    if x.dtype == np.float16:
        with np.errstate(over="ignore", invalid="ignore"):
            return reduce_sum(x, axis, keepdims)
    return np.add.reduce(x.astype(np.float32), axis=axis, keepdims=keepdims).astype(x.dtype)


def mean_half(x, axis, keepdims):
    """TF's ``Mean`` of a float16 or bfloat16 array (bfloat16: the float32 mean, rounded)."""
    if x.dtype == np.float16:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return reduce_mean(x, axis, keepdims)
    total = np.add.reduce(x.astype(np.float32), axis=axis, keepdims=keepdims)
    n = x.size // max(total.size, 1) if total.size else 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return (total / np.float32(n)).astype(x.dtype)


def bias_add_grad(g, threads=THREADS):
    """TF's ``BiasAddGrad`` (channels last) of float16 / bfloat16 ``g``: the sum over every
    axis but the last, accumulated in float32 (``ReduceOuterDimensions``) and rounded once.
    More than ``32 * threads`` channels: each channel's rows summed in order. Otherwise the
    rows split into ``min(2, rows, ceil(rows * channels / ceil(2000 / channels)))`` blocks of
    ``ceil(rows / blocks)`` rows, each summed in order from zero, the blocks' sums added."""
    c = g.shape[-1]
    rows = g.size // c if c else 0
    x = g.reshape(rows, c).astype(np.float32)
    if rows <= 1:
        return x.reshape(c).astype(g.dtype) if rows else np.zeros(c, g.dtype)
    if c > threads * 32:
        blocks = 1
    else:
        min_rows = -(-2000 // c)
        blocks = min(rows, -(-(rows * c) // min_rows), threads)
    size = -(-rows // blocks)
    total = None
    for s in range(0, rows, size):
        acc = np.zeros(c, np.float32)
        for i in range(s, min(rows, s + size)):
            acc += x[i]
        total = acc if total is None else total + acc
    return total.astype(g.dtype)
