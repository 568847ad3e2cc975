"""NumPy kernels for the few element-wise and reduction patterns where NumPy's obvious call is
several times slower than the memory traffic it needs. Op forwards and the ``tf.function``
compiler (``function/codegen.py``) both call them, so eager and replayed results are the same
bits.

What is slow, measured with NumPy 2.4 on float32 (``benchmarks/NOTES.md``, session 3):

- ``np.maximum(x, 0)``: a scalar operand takes a non-vectorised loop, 5x slower than
  ``np.maximum(x, zeros)`` with a zeros array of ``x``'s shape (10.1 vs 1.9 us for 128x256).
- ``x + b`` with ``b`` a short vector along the last axis (a bias of 16 channels): the inner
  loop is 16 long, so 2.3x slower than adding a bias tiled to 256 along a reshaped ``x``.
- Sums over the leading axes (a bias gradient ``[N, H, W, 16] -> [16]``): NumPy accumulates
  row by row, 20x slower (63 vs 3.1 us) and mostly less accurate than BLAS's ``ones @ x``.
"""
import math
import threading

from .._core.backend import np
from . import _parallel as _par
from .half_matmul import matmul as half_matmul  # noqa: F401 (float16 MatMul in TF's order)

__all__ = ["zeros_of", "filled", "relu", "add_rows", "scale_shift", "sum_leading", "mean",
           "complex_div", "complex_reciprocal_c", "complex_mul", "complex_log", "complex_log1p",
           "complex_expm1", "square", "expm1",
           "complex_xlog1py", "complex_prod", "complex_cumprod", "complex_pow", "floordiv",
           "truncatediv", "arg_extremum", "squared_difference", "floormod", "sigmoid",
           "softplus", "reciprocal", "rsqrt", "nan_safe", "div_no_nan", "xlogy", "xlog1py",
           "xdivy"]

_MIN = 4096            # elements: below this NumPy's plain call is as fast
_WIDE = 256            # the inner-loop length the tiled forms aim for
_ZEROS_LIMIT = 1 << 24  # bytes: larger zeros are not cached
_zeros = {}
_lock = threading.Lock()


def zeros_of(shape, dtype):
    """A read-only zeros array of ``shape`` and ``dtype``, cached (at most 64 shapes)."""
    key = (shape, dtype)
    z = _zeros.get(key)
    if z is None:
        z = np.zeros(shape, dtype)
        z.flags.writeable = False
        if z.nbytes <= _ZEROS_LIMIT:
            with _lock:
                if len(_zeros) >= 64:
                    _zeros.clear()
                _zeros[key] = z
    return z


def filled(shape, dtype, value):
    """A read-only array of ``shape`` and ``dtype`` holding ``value``, cached with the zeros
    of :func:`zeros_of` (an array operand keeps NumPy's vectorised loop; a scalar does
    not)."""
    key = (shape, dtype, value)
    z = _zeros.get(key)
    if z is None:
        z = np.full(shape, value, dtype)
        z.flags.writeable = False
        if z.nbytes <= _ZEROS_LIMIT:
            with _lock:
                if len(_zeros) >= 64:
                    _zeros.clear()
                _zeros[key] = z
    return z


def relu(x, out=None):
    """``max(x, 0)`` element-wise (NaN stays NaN), into ``out`` when given."""
    if x.size >= _MIN and x.dtype.kind == "f":
        return np.maximum(x, zeros_of(x.shape, x.dtype), out=out)
    return np.maximum(x, 0, out=out)


def _tiling(x, c):
    """How many copies ``k`` of a length-``c`` trailing vector make a row of at least 256
    elements that divides ``x`` (C-contiguous), or 0 when no such tiling helps."""
    if c >= _WIDE or x.size < _MIN or not x.flags.c_contiguous:
        return 0
    k = -(-_WIDE // c)
    rows = x.size // c
    while k <= 4 * _WIDE // c:
        if rows % k == 0:
            return k
        k += 1
    return 0


def add_rows(x, b, out=None):
    """``x + b`` for ``x`` of shape ``[..., c]`` and ``b`` of shape ``[c]`` (a bias add),
    same bits as NumPy's broadcast add, into ``out`` (``x``'s shape) when given."""
    k = _tiling(x, b.shape[0]) if b.ndim == 1 and x.dtype == b.dtype else 0
    if not k or (out is not None and not out.flags.c_contiguous):
        return np.add(x, b, out=out)
    c = b.shape[0]
    wide = np.empty(k * c, b.dtype)
    wide.reshape(k, c)[...] = b
    res = np.add(x.reshape(-1, k * c), wide,
                 out=None if out is None else out.reshape(-1, k * c))
    return res.reshape(x.shape)


_TILE_BYTES = 1 << 17   # bytes of one tile of scale_shift (its passes stay in L2)
_PARALLEL_BYTES = 1 << 20


def scale_shift(x, s, b, act=None, out=None):
    """``x * s + b`` for ``x`` ``[..., c]`` (C-contiguous float) and vectors ``s``, ``b``
    ``[c]`` of its dtype (an inference batch norm), then ``act``: None, ``"relu"``
    (``max(y, 0)``) or ``"relu6"`` (``min(max(y, 0), 6)``), into ``out`` when given
    (``x``'s shape; may be ``x``). Tile by tile of rows, each tile's passes in L2 (one
    pass over ``x`` from memory, not one per operation); a large one on two threads
    (``_parallel``). Each element gets the operations of ``x * s``, ``add_rows``,
    ``relu``/``Relu6``'s forward in that order: the same bits."""
    if out is None:
        out = np.empty(x.shape, x.dtype)
    c = s.shape[0]
    k = _tiling(x, c) or 1
    if k > 1:
        wide = np.empty((2, k, c), x.dtype)
        wide[0] = s
        wide[1] = b
        s, b = wide[0].reshape(-1), wide[1].reshape(-1)
    x2, o2 = x.reshape(-1, k * c), out.reshape(-1, k * c)
    rows, wide = x2.shape
    step = max(1, _TILE_BYTES // (wide * x.dtype.itemsize))
    zeros = sixes = None
    if act is not None:
        zeros = zeros_of((min(step, rows), wide), x.dtype)
        sixes = filled((min(step, rows), wide), x.dtype, 6) if act == "relu6" else None
    if rows <= step:
        _scale_shift_rows(x2, o2, s, b, zeros, sixes)
        return out
    tiles = [(x2[a:a + step], o2[a:a + step], s, b, zeros, sixes)
             for a in range(0, rows, step)]
    last = rows - (len(tiles) - 1) * step
    if last < step and zeros is not None:
        tiles[-1] = tiles[-1][:4] + (zeros[:last], None if sixes is None else sixes[:last])
    if x.nbytes >= _PARALLEL_BYTES and _par.enabled():
        _par.run(_scale_shift_rows, tiles)
    else:
        for t in tiles:
            _scale_shift_rows(*t)
    return out


def _scale_shift_rows(x, out, s, b, zeros, sixes):
    np.multiply(x, s, out=out)
    np.add(out, b, out=out)
    if zeros is not None:
        np.maximum(out, zeros, out=out)
        if sixes is not None:
            np.minimum(out, sixes, out=out)


def _ones(n, dtype):
    """A read-only ones vector, cached up to 1M elements (64 lengths)."""
    key = (n, dtype)
    v = _ones_cache.get(key)
    if v is None:
        v = np.ones(n, dtype)
        if n > 1 << 20:
            return v
        v.flags.writeable = False
        with _lock:
            if len(_ones_cache) >= 64:
                _ones_cache.clear()
            _ones_cache[key] = v
    return v


_ones_cache = {}
_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def sum_leading(x, n_axes, keepdims=False):
    """Sum of float32/float64 ``x`` over its first ``n_axes`` axes (a bias gradient), or
    None when the plain reduction should be used. A matrix-vector product ``ones @ x`` as
    ``[rows, rest]``: BLAS is 2-20x faster than NumPy's row-by-row accumulation here and, by
    blocking, as accurate or better (errors against float64 sums 3x smaller on bias-gradient
    shapes; ``tests/ops/test_kernels.py``)."""
    if x.dtype not in _BLAS_FLOATS or not 0 < n_axes < x.ndim or not x.flags.c_contiguous:
        return None
    trail = x.shape[n_axes:]
    rest = math.prod(trail)
    if rest == 0 or x.size < 2 * rest:
        return None
    rows = x.size // rest
    out = np.matmul(_ones(rows, x.dtype), x.reshape(rows, -1)).reshape(trail)
    return out.reshape((1,) * n_axes + trail) if keepdims else out


def mean(x, axis, keepdims):
    """``np.mean(x, axis, keepdims, dtype=x.dtype)`` for float ``x`` without its Python
    overhead: the sum (``sum_leading`` over leading axes) then true division by the count."""
    n = 1
    for a in axis:
        n *= x.shape[a]
    total = None
    if axis and axis[-1] == len(axis) - 1:
        total = sum_leading(x, len(axis), keepdims)
    if total is None:
        total = np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    return np.true_divide(total, n, dtype=total.dtype) if n else total / n


# ---------------------------------------------------------- complex kernels as Eigen's


def complex_div(a, b):
    """``a / b`` for complex arrays as Eigen's vectorised kernel divides: ``b`` scaled by the
    larger of its parts' magnitudes first. It gives TensorFlow's bits for finite values
    (NumPy's Smith division differs in the last bit about 70% of the time) and its inf/nan:
    1 / (inf + 0j) is nan + nanj, where NumPy gives 0."""
    b = np.asarray(b)
    dt = np.result_type(a, b)
    a = np.asarray(a, dt)
    with np.errstate(all="ignore"):
        scale = np.maximum(np.abs(b.real), np.abs(b.imag))
        c, d = b.real / scale, b.imag / scale
        den = c * c + d * d
        out = np.empty(np.broadcast_shapes(a.shape, b.shape), dt)
        out.real = (a.real * c + a.imag * d) / den / scale
        out.imag = (a.imag * c - a.real * d) / den / scale
        # Eigen divides whole packets of 4 complex64 / 2 complex128 (AVX) that way and the
        # elements past the last whole packet one at a time with C's division (Annex G:
        # 1 / (inf + 0j) is 0 there): the tail of the flat output takes NumPy's division
        # (the same as C's at inf and nan, but 1 / inf is 0 for any finite numerator)
        n = out.size
        tail = n - n % (4 if dt == np.complex64 else 2)
        if tail < n and not np.isfinite(out.reshape(-1)[tail:]).all():
            flat = out.reshape(-1)
            flat[tail:] = _c_div(np.broadcast_to(a, out.shape).reshape(-1)[tail:],
                                 np.broadcast_to(b, out.shape).reshape(-1)[tail:])
    return out[()]


def _c_div(a, b):
    # C99 Annex G's complex division (__divsc3/__divdc3): NumPy's, then its recovery of a
    # result that came out nan + nanj: a zero denominator gives infinities signed by its
    # real zero (C's Smith ratio 0 / 0 is nan, so every zero denominator is recovered;
    # NumPy divides by |0| instead), an infinite numerator over a finite denominator
    # infinities, a finite numerator over an infinite denominator signed zeros
    out = a / b
    zero = (b.real == 0) & (b.imag == 0)
    bad = np.isnan(out.real) & np.isnan(out.imag) | zero
    if not bad.any():
        return out
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    rt = ar.dtype.type
    inf = rt(np.inf)
    zero_den = zero & ~(np.isnan(ar) & np.isnan(ai))
    inf_num = bad & ~zero_den & (np.isinf(ar) | np.isinf(ai)) & np.isfinite(br) & \
        np.isfinite(bi)
    inf_den = bad & ~zero_den & ~inf_num & (np.isinf(br) | np.isinf(bi)) & \
        np.isfinite(ar) & np.isfinite(ai)
    s = np.copysign(inf, br)
    out = np.where(zero_den, _parts(s * ar, s * ai, out.dtype), out)
    a1 = np.copysign(np.where(np.isinf(ar), rt(1), rt(0)), ar)
    b1 = np.copysign(np.where(np.isinf(ai), rt(1), rt(0)), ai)
    out = np.where(inf_num, _parts(inf * (a1 * br + b1 * bi), inf * (b1 * br - a1 * bi),
                                   out.dtype), out)
    c1 = np.copysign(np.where(np.isinf(br), rt(1), rt(0)), br)
    d1 = np.copysign(np.where(np.isinf(bi), rt(1), rt(0)), bi)
    out = np.where(inf_den, _parts(rt(0) * (ar * c1 + ai * d1), rt(0) * (ai * c1 - ar * d1),
                                   out.dtype), out)
    return out.astype(a.dtype)


def _plain_mul(a, b):
    """``a * b`` by the plain formula with a rounding per product, as Eigen's packets (and
    not NumPy's complex multiply, which may fuse a product into the subtraction)."""
    a, b = np.asarray(a), np.asarray(b)
    dt = np.result_type(a, b)
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), dt)
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    out.real = ar * br - ai * bi
    out.imag = ar * bi + ai * br
    return out


def complex_mul(a, b):
    """``a * b`` for complex arrays as Eigen's kernel multiplies: whole packets of 4 complex64
    / 2 complex128 (AVX) by the plain formula (NumPy's: inf * (1 + 1j) is nan + nanj), the
    elements past the last whole packet by C's multiplication, whose Annex G recovery turns a
    nan + nanj from infinite factors into an infinity."""
    with np.errstate(all="ignore"):
        if np.result_type(a, b).kind != "c":
            return np.multiply(a, b)
        out = _plain_mul(a, b)
        n = out.size
        if not n:
            return out
        tail = n - n % (4 if out.dtype == np.complex64 else 2)
        flat = out.reshape(-1)
        if tail < n and np.isnan(flat[tail:]).any():
            out = np.array(out, copy=True)
            flat = out.reshape(-1)
            flat[tail:] = _c_mul(np.broadcast_to(a, out.shape).reshape(-1)[tail:],
                                 np.broadcast_to(b, out.shape).reshape(-1)[tail:])
    return out[()] if out.ndim == 0 else out


def _c_mul(x, y):
    # C99 Annex G's complex multiplication (__mulsc3/__muldc3): the plain product, then where
    # both parts came out nan and a factor is infinite (or a partial product overflowed), the
    # infinite parts made +-1, the nan ones +-0, and the product taken again times inf
    out = _plain_mul(x, y)
    bad = np.isnan(out.real) & np.isnan(out.imag)
    if not bad.any():
        return out
    a, b, c, d = x.real.copy(), x.imag.copy(), y.real.copy(), y.imag.copy()
    rt = out.real.dtype.type
    a, b, c, d = (np.broadcast_to(v, out.shape).astype(rt) for v in (a, b, c, d))
    recalc = np.zeros(out.shape, bool)

    def unit(v):
        return np.copysign(np.where(np.isinf(v), rt(1), rt(0)), v)

    def zero_nan(v, where):
        return np.where(where & np.isnan(v), np.copysign(rt(0), v), v)

    inf_x = bad & (np.isinf(a) | np.isinf(b))
    a, b = np.where(inf_x, unit(a), a), np.where(inf_x, unit(b), b)
    c, d = zero_nan(c, inf_x), zero_nan(d, inf_x)
    inf_y = bad & (np.isinf(c) | np.isinf(d))
    c, d = np.where(inf_y, unit(c), c), np.where(inf_y, unit(d), d)
    a, b = zero_nan(a, inf_y), zero_nan(b, inf_y)
    recalc = inf_x | inf_y
    ac, bd, ad, bc = x.real * y.real, x.imag * y.imag, x.real * y.imag, x.imag * y.real
    over = bad & ~recalc & (np.isinf(ac) | np.isinf(bd) | np.isinf(ad) | np.isinf(bc))
    a, b, c, d = (zero_nan(v, over) for v in (a, b, c, d))
    recalc = recalc | over
    inf = rt(np.inf)
    return np.where(recalc, _parts(inf * (a * c - b * d), inf * (a * d + b * c), out.dtype),
                    out)


def complex_log(x):
    """``log(x)`` for complex arrays as Eigen's kernel: whole packets (4 complex64 / 2
    complex128, AVX) take ``|x|`` through ``a * a + b * b``, so where that overflows with
    finite parts the real part is nan (TF's ``log(-1e30 + 1j)`` in complex64); the elements
    past the last whole packet take C's ``clog`` (NumPy's)."""
    with np.errstate(all="ignore"):
        out = np.log(x)
        n = out.size
        tail = n - n % (4 if out.dtype == np.complex64 else 2)
        if not tail:
            return out
        head = x.reshape(-1)[:tail]
        a, b = head.real, head.imag
        over = np.isinf(a * a + b * b) & np.isfinite(a) & np.isfinite(b)
        if over.any():
            out = np.array(out, copy=True)
            flat = out.reshape(-1)
            flat[:tail] = np.where(over, _parts(np.nan, flat[:tail].imag, out.dtype),
                                   flat[:tail])
    return out


def complex_log1p(x):
    """``log1p(x)`` for complex arrays as Eigen's scalar kernel: ``u = 1 + x``; ``x`` where
    ``u == 1`` or ``log(u) == u``, else ``x * (log(u) / (u - 1))`` with C's complex division
    and product (``log1p(1j * inf)`` is nan + nanj, ``log1p(-1)`` is -inf + nanj)."""
    with np.errstate(all="ignore"):
        x = np.asarray(x)
        u = x + x.dtype.type(1)
        lu = np.log(u)
        shape = x.shape
        xf, uf, lf = x.reshape(-1), u.reshape(-1), lu.reshape(-1)
        q = _c_div(lf, uf - uf.dtype.type(1))
        out = _c_mul(xf, q)
        keep = (uf == 1) | (uf == lf)
        return np.where(keep, xf, out).astype(x.dtype).reshape(shape)[()]


def complex_expm1(z):
    """``expm1(z)`` for complex arrays as Eigen's kernel: with ``x + iy = z``,
    ``expm1(x) - 2 e^x sin(y/2)^2 + i e^x sin(y)`` in the real dtype (so ``expm1(inf + iy)``
    has a nan real part, inf - inf, where C's ``cexpm1`` gives inf)."""
    with np.errstate(all="ignore"):
        z = np.asarray(z)
        x, y = z.real, z.imag
        em1 = np.expm1(x)
        e = em1 + x.dtype.type(1)
        s2 = np.sin(y / x.dtype.type(2))
        s2 = s2 * s2
        return _parts(em1 - x.dtype.type(2) * e * s2, e * np.sin(y), z.dtype)[()]


def square(x):
    """``x * x``; complex by Eigen's product (TF's ``square(-1e30 - inf j)`` is nan + inf j)."""
    return complex_mul(x, x) if x.dtype.kind == "c" else x * x


def expm1(x):
    return complex_expm1(x) if x.dtype.kind == "c" else np.expm1(x)


def complex_xlog1py(x, y):
    """TF's Xlog1py for complex arrays: 0 where ``x == 0``, else ``x * log1p(y)`` (Eigen's
    scalar log1p and C's product: no complex packet log1p)."""
    with np.errstate(all="ignore"):
        shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        dt = np.result_type(x, y)
        xf = np.broadcast_to(x, shape).reshape(-1).astype(dt)
        yf = np.broadcast_to(y, shape).reshape(-1).astype(dt)
        out = _c_mul(xf, complex_log1p(yf))
        return np.where(xf == 0, np.zeros((), dt), out).astype(dt).reshape(shape)[()]


def complex_prod(x, axis, keepdims):
    """TensorFlow's complex Prod as Eigen reduces, so that its inf/nan land where TF's do.

    Axes of size 1 are dropped first (reducing only those copies ``x``); what remains is
    reduced as TF's ReductionHelper shapes it: the reduced elements of each output, in
    row-major order, as a row when they are the innermost axes (or all of them): whole
    packets (4 complex64 / 2 complex128) multiplied lane-wise by the plain formula from 1,
    the rest one at a time by C's product from 1, then the lanes' product (plain) times that
    (C's). Reduced axes in front of kept innermost ones: each output of a whole packet
    (flat output index) multiplies its elements plainly from 1, the outputs past the last
    whole packet by C's product. Other layouts: C's product from 1 for every output."""
    nd = x.ndim
    if any(not -nd <= a < nd for a in axis):  # NumPy's AxisError: TF's error class follows
        return np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    axis = tuple(sorted(a % nd for a in axis))
    out_shape = tuple(1 if i in axis else n for i, n in enumerate(x.shape)) if keepdims else \
        tuple(n for i, n in enumerate(x.shape) if i not in axis)
    with np.errstate(all="ignore"):
        red = [a for a in axis if x.shape[a] != 1]
        if x.size == 0:
            return np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
        if not red:  # only axes of size 1: TF copies (no product with 1)
            return x.reshape(out_shape).copy()
        ps = 4 if x.dtype == np.complex64 else 2
        one = x.dtype.type(1)
        # TF's collapsed layout: size-1 axes gone, neighbours of one kind merged
        kinds = [(n, i in red) for i, n in enumerate(x.shape) if n != 1]
        merged = []
        for n, r in kinds:
            if merged and merged[-1][1] == r:
                merged[-1] = (merged[-1][0] * n, r)
            else:
                merged.append((n, r))
        keep_axes = [i for i in range(nd) if i not in red]
        xt = np.transpose(x, keep_axes + red)
        rows = xt.reshape(-1, int(np.prod([x.shape[a] for a in red])))
        inner_rows = len(merged) >= 4 or (len(merged) <= 2 and merged[-1][1])
        lanes_layout = not merged[0][1] and len(merged) == 3 or (len(merged) == 2 and
                                                                merged[0][1])
        if inner_rows:  # innermost reduced, everything, or TF's transpose: a row per output
            n = rows.shape[1]
            vec = n // ps * ps
            vec4 = n // (4 * ps) * (4 * ps)
            lanes = np.ones((rows.shape[0], ps), x.dtype)
            if vec4:  # Eigen's four packet accumulators, then folded into the first
                acc4 = [np.ones((rows.shape[0], ps), x.dtype) for _ in range(4)]
                for j in range(0, vec4, 4 * ps):
                    for q in range(4):
                        acc4[q] = _plain_mul(acc4[q], rows[:, j + q * ps:j + (q + 1) * ps])
                lanes = _plain_mul(_plain_mul(_plain_mul(acc4[0], acc4[1]), acc4[2]), acc4[3])
            for j in range(vec4, vec, ps):
                lanes = _plain_mul(lanes, rows[:, j:j + ps])
            acc = np.full(rows.shape[0], one)
            for j in range(vec, n):
                acc = _c_mul(acc, rows[:, j])
            if ps == 4:
                lanes = _plain_mul(lanes[:, :2], lanes[:, 2:])
            red_lanes = _plain_mul(lanes[:, 0], lanes[:, 1])
            res = _c_mul(acc, red_lanes)
        elif lanes_layout:
            # reduced axes with kept ones inside: whole output packets plainly
            res = np.full(rows.shape[0], one)
            m = rows.shape[0]
            inner = merged[-1][0]
            packet = np.zeros(m, bool)
            for start in range(0, m // ps * ps, ps):
                if (start % inner) + ps <= inner:
                    packet[start:start + ps] = True
            for j in range(rows.shape[1]):
                res = np.where(packet, _plain_mul(res, rows[:, j]), _c_mul(res, rows[:, j]))
        else:  # Eigen's generic reducer: the last reduced axis outermost
            res = np.full(rows.shape[0], one)
            cols = np.transpose(xt.reshape(rows.shape[0], *[x.shape[a] for a in red]),
                                [0] + list(range(len(red), 0, -1))).reshape(rows.shape)
            for j in range(cols.shape[1]):
                res = _c_mul(res, cols[:, j])
        return res.reshape(out_shape)


def complex_cumprod(x, axis, exclusive, reverse):
    """TensorFlow's complex Cumprod as Eigen scans: along ``axis`` from 1, the positions of
    the axes after it in whole packets (4 complex64 / 2 complex128) by the plain product,
    the rest by C's product (its Annex G recovery of infinities)."""
    with np.errstate(all="ignore"):
        if reverse:
            x = np.flip(x, axis)
        n = x.shape[axis]
        outer = int(np.prod(x.shape[:axis]))
        inner = int(np.prod(x.shape[axis + 1:]))
        v = x.reshape(outer, n, inner)
        ps = 4 if x.dtype == np.complex64 else 2
        packet = np.zeros(inner, bool)
        packet[:inner // ps * ps] = True
        acc = np.ones((outer, inner), x.dtype)
        out = np.empty_like(v)
        for k in range(n):
            if exclusive:
                out[:, k] = acc
            acc = np.where(packet, _plain_mul(acc, v[:, k]), _c_mul(acc, v[:, k]))
            if not exclusive:
                out[:, k] = acc
        out = out.reshape(x.shape)
        return np.flip(out, axis) if reverse else out


def _parts(re, im, dtype):
    out = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)), dtype)
    out.real = re
    out.imag = im
    return out


def complex_reciprocal_c(d):
    """``1 / d`` as C's complex division (Annex G), which TensorFlow's sigmoid and rsqrt of
    complex numbers run: an infinite ``d`` gives 0, not NaN."""
    with np.errstate(all="ignore"):
        out = 1 / d
        return np.where(np.isinf(d) & np.isnan(out), np.zeros((), out.dtype), out)[()]


def complex_pow(x, y):
    """``x ** y`` for complex arrays as ``exp(y * log(x))``; at ``x == 0`` it is 0 where
    ``y == 0`` or ``Re(y) > 0`` and NaN elsewhere, as TensorFlow gives."""
    with np.errstate(all="ignore"):
        zero = x == 0
        out = np.exp(y * np.log(np.where(zero, np.ones((), x.dtype), x)))
        at_zero = np.where((y == 0) | (np.real(y) > 0), 0, complex(np.nan, np.nan))
        return np.where(zero, at_zero.astype(x.dtype), out).astype(x.dtype)[()]


def floordiv(x, y):
    """``x // y`` as TensorFlow's FloorDiv: ``floor(x / y)`` for floats (inf // 2 is inf,
    -5 // inf is -0, where NumPy's floor_divide gives nan and -1)."""
    if x.dtype.kind == "f":
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.floor(np.true_divide(x, y))
    return x // y


def truncatediv(x, y):
    """TensorFlow's TruncateDiv: ``trunc(x / y)``; for ints the floor quotient moved toward
    zero (no ``abs()``, which wraps at the most negative int)."""
    if x.dtype.kind not in "iu":
        return np.trunc(x / y)
    with np.errstate(all="ignore"):
        q = np.floor_divide(x, y)
        up = (np.remainder(x, y) != 0) & ((x < 0) != (y < 0))
    return (q + up.astype(q.dtype)).astype(x.dtype)


def arg_extremum(find, fill):
    """ArgMax/ArgMin's forward from ``np.argmax``/``np.argmin``: as Eigen's they skip NaN
    (``fill`` stands in for it; an all-NaN slice gives 0), where NumPy's stop at it."""
    def forward(x, axis, dtype):
        if x.dtype.kind == "f" and np.isnan(x).any():
            x = np.where(np.isnan(x), x.dtype.type(fill), x)
        return find(x, axis).astype(dtype)
    return forward


def squared_difference(x, y):
    """``(x - y) ** 2``; for complex ``|x - y| ** 2`` (real values of complex dtype), as
    TensorFlow's SquaredDifference."""
    d = x - y
    return d * d.conj() if d.dtype.kind == "c" else np.square(d)


def complex_matmul(a, b, batched=False):
    """A complex product holding inf or nan as Eigen's kernels form it, where BLAS's gives
    other nan: each term ``(ac - bd) + (ad + bc)i`` rounded apart, summed over k. Eigen's
    matrix-matrix kernel (not the matrix-vector one TF takes for one row, one column or
    k = 1) then scales its vectorised blocks by alpha = 1 + 0i as packets, so an infinite
    part makes the other one nan (inf * 0); complex64's blocks leave its last column scalar
    when the column count is odd, past the rows that fill blocks of 4.

    ``batched`` (BatchMatMulV2): TF's batch kernel runs that contraction only for one matrix
    or products of more than 128 * 128 terms with no dimension of 1; otherwise each matrix
    goes through Eigen's matrix product: coefficient by coefficient (no scaling) while
    ``m + k + n < 20``, by its matrix-vector kernel (no scaling) for one column, else by
    its matrix-matrix kernel (scaled as above, a single row or k = 1 included)."""
    with np.errstate(all="ignore"):
        acc = np.sum(a[..., :, :, None] * b[..., None, :, :], -2)
        m, k = a.shape[-2:]
        n = b.shape[-1]
        if batched:
            size = int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2])))
            if not (min(m, k, n) > 1 and (size == 1 or m * k * n > 128 * 128)):
                if m + k + n < 20 or n == 1:
                    return acc
                return _alpha_scaled(acc, m, n)
        if m == 1 or n == 1 or k == 1:
            return acc
        return _alpha_scaled(acc, m, n)


def _alpha_scaled(acc, m, n):
    # Eigen's gebp kernel writes its blocks back as res + alpha * acc with alpha = 1 + 0i
    scaled = (acc.real * 1 - acc.imag * 0) + 1j * (acc.real * 0 + acc.imag * 1)
    out = scaled.astype(acc.dtype)
    if acc.dtype == np.complex64 and n % 2:
        full = m - m % 4
        out[..., full:, n - 1] = acc[..., full:, n - 1]
    return out


def matvec(a, b):
    """``a @ b`` for a vector ``b`` in ``a``'s dtype (NumPy's bfloat16 products are float32),
    with TF's matrix-vector kernel's inf and nan where a complex product holds them (each term
    rounded apart and summed; BLAS gives other nan)."""
    out = np.matmul(a, b[..., None])[..., 0]
    if out.dtype.kind == "c" and not np.isfinite(out).all():
        with np.errstate(all="ignore"):
            out = np.sum(a * b[..., None, :], -1)
    return out.astype(a.dtype, copy=False)


# ---------------------------------------------------------- forwards of math_ops primitives


def floormod(x, y):
    if x.dtype.kind != "f":
        return x % y
    # TensorFlow's rule: r = fmod(x, y), moved by y when r is non-zero and its sign differs
    # from y's; so a zero result keeps x's sign (-2 % 2 is -0.0), unlike NumPy's.
    r = np.fmod(x, y)
    return np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r).astype(r.dtype, copy=False)


def sigmoid(x):
    if x.dtype.kind == "c":
        return complex_reciprocal_c(1 + np.exp(-x))
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype, copy=False)


def softplus(x):
    return np.logaddexp(x.dtype.type(0), x)


def reciprocal(x):
    if x.dtype.kind == "c":
        return complex_div(np.ones((), x.dtype), x)
    return np.reciprocal(x)


def rsqrt(x):
    if x.dtype.kind != "c":
        if x.dtype.itemsize == 2:
            # half and bfloat16: TF's kernel takes 1 / sqrt in float and rounds once (the
            # square root rounded to half first gives another half in a quarter of cases)
            return (1 / np.sqrt(x.astype(np.float32))).astype(x.dtype)
        return 1 / np.sqrt(x)
    with np.errstate(invalid="ignore"):
        # Eigen's complex rsqrt takes an imaginary -0 for +0 (rsqrt(-1 - 0j) is -1j, where
        # 1 / sqrt gives 1j): adding +0 makes it so
        return complex_reciprocal_c(np.sqrt(x + x.dtype.type(0)))


def nan_safe(fn):
    def forward(x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            return fn(x, y)
    return forward


def div_no_nan(x, y):
    # complex: Eigen's division (nan + nanj over an infinite denominator, as TF's kernel)
    div = complex_div if x.dtype.kind == "c" else np.true_divide
    return np.where(y == 0, np.zeros((), x.dtype), div(x, np.where(y == 0, 1, y))
                    ).astype(np.result_type(x, y))[()]


def xlogy(x, y):
    if np.result_type(x, y).kind == "c":
        # Eigen's packets: its complex log (nan real part where |y|^2 overflows) and product
        shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        dt = np.result_type(x, y)
        logy = complex_log(np.array(np.broadcast_to(y, shape), dt))
        return np.where(x == 0, np.zeros((), dt), complex_mul(x, logy)).astype(dt)[()]
    return np.where(x == 0, np.zeros((), x.dtype), x * np.log(y)).astype(
        np.result_type(x, y))[()]


def xlog1py(x, y):
    if x.dtype.kind == "c":
        return complex_xlog1py(x, y)
    return np.where(x == 0, np.zeros((), x.dtype), x * np.log1p(y)).astype(
        np.result_type(x, y))[()]


def xdivy(x, y):
    div = complex_div if x.dtype.kind == "c" else np.true_divide
    return np.where(x == 0, np.zeros((), x.dtype), div(x, y)).astype(np.result_type(x, y))[()]
