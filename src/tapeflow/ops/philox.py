"""Philox4x32-10 (Salmon et al., SC'11) and TensorFlow's transformations of its bits, in NumPy.

TensorFlow's stateless random ops and ``tf.random.Generator`` draw from this counter-based
generator: a 128-bit counter and a 64-bit key give four 32-bit words per counter value.
Reproducing the generator and the way TensorFlow turns words into floats (and where each
output's words come from) gives TensorFlow's exact streams: the same seed, the same numbers,
up to the last bit of float32 ``log``/``sin``/``cos`` in the normal transform.

Only the forwards of the random ops (``stateless_random_ops``, ``stateful_random_ops``)
call these functions.
"""
import struct as _struct

from .._core.backend import np

__all__ = ["philox", "key_counter_from_seed", "uniform_float", "normal_float",
           "truncated_normal_float", "truncated_normal_double", "uniform_double",
           "normal_double", "uniform_half", "skip"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
_MASK = np.uint64(0xFFFFFFFF)
_U32 = np.uint64(32)


def _counters(counter, n, offsets=None):
    """``n`` consecutive 128-bit counters from ``counter`` (four uint32 words, low first),
    or ``counter + offsets`` for an array of non-negative ``offsets``, as ``[n, 4]`` uint32."""
    lo = np.uint64(int(counter[0]) | (int(counter[1]) << 32))
    hi = int(counter[2]) | (int(counter[3]) << 32)
    steps = np.arange(n, dtype=np.uint64) if offsets is None else \
        np.asarray(offsets, np.uint64)
    low = lo + steps  # wraps modulo 2**64
    carry = (low < lo).astype(np.uint64)
    high = np.uint64(hi) + carry
    out = np.empty((low.size, 4), np.uint32)
    out[:, 0] = low & _MASK
    out[:, 1] = low >> _U32
    out[:, 2] = high & _MASK
    out[:, 3] = high >> _U32
    return out


def philox(key, counter, n, offsets=None):
    """The ``4 * n`` words of ``n`` Philox4x32-10 calls from ``counter`` on (flat, uint32);
    with ``offsets`` (an int array), the calls at ``counter + offsets[i]`` instead.

    Args:
        key: two uint32 words.
        counter: four uint32 words (the 128-bit counter, least significant first).
        n: how many counter values.
        offsets: optional counter offsets (then ``n`` is ignored).
    """
    if (n if offsets is None else len(offsets)) <= _SMALL:
        return _philox_small(key, counter, n, offsets)
    c = _counters(counter, n, offsets)
    c0, c1, c2, c3 = (c[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    for r in range(10):
        p0 = _M0 * c0
        p1 = _M1 * c2
        hi0, lo0 = p0 >> _U32, p0 & _MASK
        hi1, lo1 = p1 >> _U32, p1 & _MASK
        c0 = hi1 ^ c1 ^ np.uint64(k0)
        c1 = lo1
        c2 = hi0 ^ c3 ^ np.uint64(k1)
        c3 = lo0
        if r < 9:
            k0 = np.uint32((int(k0) + int(_W0)) & 0xFFFFFFFF)
            k1 = np.uint32((int(k1) + int(_W1)) & 0xFFFFFFFF)
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32).reshape(-1)


_SMALL = 16   # up to this many counters, Python's integers beat NumPy's per-call overhead


def _philox_small(key, counter, n, offsets):
    """:func:`philox` for a few counters, on Python integers."""
    m32 = 0xFFFFFFFF
    base = sum(int(w) << (32 * i) for i, w in enumerate(counter))
    steps = range(n) if offsets is None else (int(o) for o in offsets)
    keys, k0, k1 = [], int(key[0]), int(key[1])
    for _ in range(10):
        keys.append((k0, k1))
        k0, k1 = (k0 + 0x9E3779B9) & m32, (k1 + 0xBB67AE85) & m32
    out = []
    for step in steps:
        v = (base + step) & ((1 << 128) - 1)
        c0, c1, c2, c3 = v & m32, (v >> 32) & m32, (v >> 64) & m32, v >> 96
        for k0, k1 in keys:
            p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
            c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & m32, (p0 >> 32) ^ c3 ^ k1, p0 & m32
        out += (c0, c1, c2, c3)
    return np.array(out, np.uint32)


def skip(counter, n):
    """``counter`` advanced by ``n`` (the 128-bit add with carry)."""
    value = sum(int(w) << (32 * i) for i, w in enumerate(counter)) + int(n)
    value %= 1 << 128
    return [(value >> (32 * i)) & 0xFFFFFFFF for i in range(4)]


def key_counter_from_seed(seed0, seed1):
    """TensorFlow's key and counter for a stateless op's ``seed=[seed0, seed1]``: the seed
    scrambled by one Philox call under a fixed key (``StatelessRandomGetKeyCounter``)."""
    s0, s1 = int(seed0) % (1 << 64), int(seed1) % (1 << 64)
    counter = [s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]
    mix = philox([0x3EC8F720, 0x02461E29], counter, 1)
    return [int(mix[0]), int(mix[1])], [0, 0, int(mix[2]), int(mix[3])]


def _to_float(words):
    # TensorFlow's Uint32ToFloat: 23 random mantissa bits under exponent 0, minus one.
    return ((words & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - \
        np.float32(1.0)


def _to_double(x0, x1):
    # Uint64ToDouble: 52 mantissa bits from two words (x0's low 20 bits on top, then x1).
    bits = ((x0.astype(np.uint64) & np.uint64(0xFFFFF)) << _U32) | x1.astype(np.uint64)
    return (bits | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def uniform_float(key, counter, n):
    """``n`` float32 in [0, 1): one word each, four per counter."""
    return _to_float(philox(key, counter, -(-n // 4))[:n])


def uniform_double(key, counter, n):
    """``n`` float64 in [0, 1): two words each, two per counter."""
    w = philox(key, counter, -(-n // 2))
    return _to_double(w[0::2], w[1::2])[:n]


_LIBM = []


def _libm():
    """The C library's ``logf``/``sinf``/``cosf`` (glibc), or None: TensorFlow's CPU kernels
    call them, and they are not always correctly rounded."""
    if not _LIBM:
        import ctypes
        import ctypes.util
        fns = None
        try:
            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            fns = tuple(getattr(lib, name) for name in ("logf", "sinf", "cosf"))
            for fn in fns:
                fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
        except (OSError, AttributeError):
            fns = None
        _LIBM.append(fns)
    return _LIBM[0]


def _float_fn(x, exact, fn, margin):
    """``fn`` of float32 ``x`` rounded to float32: the float64 value rounded, except where it
    lies within ``margin`` ulp of a rounding midpoint, where the C library's float function
    (whose error bound is 0.5 + margin ulp) may round the other way: those elements are
    computed by it."""
    wide = exact(x.astype(np.float64))
    out = wide.astype(np.float32)
    if fn is None or out.size == 0:
        return out
    up = np.nextafter(out, np.float32(np.inf)).astype(np.float64)
    down = np.nextafter(out, np.float32(-np.inf)).astype(np.float64)
    ulp = np.where(wide >= out, up - out, out - down)
    near = ~(np.abs(wide - out) < (0.5 - margin) * ulp)   # all finite: log of >= 1e-7
    for i in np.nonzero(near)[0]:
        out[i] = fn(float(x[i]))
    return out


_F32 = _struct.Struct("f")


def _f32(x):
    """``x`` rounded to float32 (to nearest even), as a Python float."""
    return _F32.unpack(_F32.pack(x))[0]


_EPS = float(np.float32(1e-7))
_SMALL_PAIRS = 32   # up to this many pairs, Python floats beat NumPy's per-call overhead


def _box_muller_small(x0, x1, libm):
    """:func:`_box_muller` for a few pairs, on Python floats: each float32 operation is
    the exact double result rounded once (exact for products of float32 values and for
    ``sqrt``), the transcendental functions the C library's."""
    logf, sinf, cosf = libm
    f0, f1 = [], []
    two_pi, scale = 2.0 * np.pi, 2.0 ** -23
    for a, b in zip(x0.tolist(), x1.tolist()):
        u1 = max((a & 0x7FFFFF) * scale, _EPS)
        v1 = _f32(two_pi * ((b & 0x7FFFFF) * scale))
        u2 = _f32((-2.0 * logf(u1)) ** 0.5)
        f0.append(_f32(sinf(v1) * u2))
        f1.append(_f32(cosf(v1) * u2))
    return np.array(f0, np.float32), np.array(f1, np.float32)


def _box_muller(x0, x1):
    """TensorFlow's ``BoxMullerFloat``: ``u1`` clamped to 1e-7, ``v1 = 2 pi u2`` rounded
    from double, ``sqrt(-2 logf(u1))`` and ``sincosf(v1)`` in float32."""
    libm = _libm()
    if libm is not None and x0.size <= _SMALL_PAIRS:
        return _box_muller_small(x0, x1, libm)
    u1 = np.maximum(_to_float(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * _to_float(x1).astype(np.float64)).astype(np.float32)
    libm = libm or (None, None, None)
    # glibc's error bounds: logf 0.82 ulp, sinf/cosf 0.56 ulp (a margin above each)
    log_u1 = _float_fn(u1, np.log, libm[0], 0.35)
    u2 = np.sqrt(np.float32(-2.0) * log_u1)
    return (_float_fn(v1, np.sin, libm[1], 0.08) * u2,
            _float_fn(v1, np.cos, libm[2], 0.08) * u2)


def normal_float(key, counter, n):
    """``n`` float32 N(0, 1) samples: Box-Muller on word pairs, four per counter."""
    w = philox(key, counter, -(-n // 4))
    f0, f1 = _box_muller(w[0::2], w[1::2])
    out = np.empty(w.size, np.float32)
    out[0::2], out[1::2] = f0, f1
    return out[:n]


def normal_double(key, counter, n):
    """``n`` float64 N(0, 1) samples: Box-Muller on two doubles (four words), two per
    counter."""
    f0, f1 = _box_muller_double(philox(key, counter, -(-n // 2)))
    out = np.empty(2 * f0.size)
    out[0::2], out[1::2] = f0, f1
    return out[:n]


def _box_muller_double(w):
    """Box-Muller on doubles from groups of four words: two values per group."""
    u1 = np.maximum(_to_double(w[0::4], w[1::4]), 1e-7)
    v1 = 2.0 * np.pi * _to_double(w[2::4], w[3::4])
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _truncated(key, counter, n, per_group, skip_per_group, draw, dtype):
    """TensorFlow's truncated normal (``FillPhiloxRandomTask`` for a distribution with a
    variable number of samples per output): outputs in groups of ``per_group``, group ``g``
    drawn from the counter ``counter + skip_per_group * g`` on, word by word, keeping the
    Box-Muller values inside (-2, 2) in order. Two counters per group are tried at once
    (four values suffice almost always); a group short of values takes more, one by one."""
    groups = -(-n // per_group)
    if groups == 0:
        return np.empty(0, dtype)
    tries = 2
    offsets = (np.arange(groups, dtype=np.uint64)[:, None] * np.uint64(skip_per_group)
               + np.arange(tries, dtype=np.uint64)[None, :]).reshape(-1)
    f0, f1 = draw(philox(key, counter, 0, offsets))
    values = np.stack([f0, f1], axis=1).reshape(groups, -1)
    ok = np.abs(values) < 2.0
    out = np.empty((groups, per_group), dtype)
    full = ok.sum(axis=1) >= per_group
    if full.any():
        order = np.argsort(~ok[full], axis=1, kind="stable")[:, :per_group]
        out[full] = np.take_along_axis(values[full], order, axis=1)
    for g in np.nonzero(~full)[0]:
        got, used = [], 0
        start = skip(counter, skip_per_group * int(g))
        while len(got) < per_group:
            a, b = draw(philox(key, skip(start, used), 1))
            used += 1
            pairs = np.stack([a, b], axis=1).reshape(-1)
            got.extend(v for v in pairs if abs(v) < 2.0)
        out[g] = got[:per_group]
    return out.reshape(-1)[:n]


def truncated_normal_float(key, counter, n):
    """``n`` float32 N(0, 1) samples inside (-2, 2), as TensorFlow draws them: each group
    of four outputs starts 256 counters after the previous one and takes the first four
    accepted Box-Muller values of its words."""
    return _truncated(key, counter, n, 4, 256,
                      lambda w: _box_muller(w[0::2], w[1::2]), np.float32)


def truncated_normal_double(key, counter, n):
    """``n`` float64 N(0, 1) samples inside (-2, 2): groups of two outputs, 128 counters
    apart, Box-Muller on doubles made of four words."""
    return _truncated(key, counter, n, 2, 128, _box_muller_double, np.float64)


def uniform_half(key, counter, n, np_dtype):
    """``n`` float16 (or bfloat16) in [0, 1): TensorFlow's ``Uint16ToHalf`` (10 random
    mantissa bits; bfloat16: 7) of one word each, four per counter."""
    w = philox(key, counter, -(-n // 4))[:n]
    if np.dtype(np_dtype) == np.float16:
        bits = ((w & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16)
    else:
        bits = ((w & np.uint32(0x7F)) | np.uint32(0x3F80)).astype(np.uint16)
    one = np.asarray(1.0, np_dtype)
    return bits.view(np_dtype) - one


_BLOCKS = 4   # Philox calls computed ahead per output of a rejection sampler


def _word_double(hi, lo):
    # Uint64ToDouble on Python integers: 52 mantissa bits, hi's low 20 bits on top
    bits = ((hi & 0xFFFFF) << 32) | lo | 0x3FF0000000000000
    return _struct.unpack("<d", _struct.pack("<Q", bits))[0] - 1.0


class _Stream:
    """The Philox calls of one output of a rejection sampler, from its own counter
    (``gen.Skip(256 * output)``): the first few computed for all outputs at once."""

    __slots__ = ("key", "counter", "rows", "used", "uniforms", "normals")

    def __init__(self, key, counter, rows):
        self.key, self.counter, self.rows, self.used = key, counter, rows, 0
        self.uniforms, self.normals = [], []

    def block(self):
        i = self.used
        self.used += 1
        if i < len(self.rows):
            return self.rows[i]
        return [int(w) for w in philox(self.key, skip(self.counter, i), 1)]

    def uniform(self):
        """The next uniform double: two per Philox call, the second first (TensorFlow's
        sample buffers read a call's results from the end)."""
        if not self.uniforms:
            w = self.block()
            self.uniforms += (_word_double(w[0], w[1]), _word_double(w[2], w[3]))
        return self.uniforms.pop()

    def normal(self):
        """The next normal double: Box-Muller on one call (``sin`` first, ``cos``
        second), the second first."""
        if not self.normals:
            import math
            w = self.block()
            u1 = max(_word_double(w[0], w[1]), 1e-7)
            v1 = 2.0 * math.pi * _word_double(w[2], w[3])
            r = math.sqrt(-2.0 * math.log(u1))
            self.normals += (math.sin(v1) * r, math.cos(v1) * r)
        return self.normals.pop()


def _streams(key, counter, n, per_output=256):
    offs = (np.arange(n, dtype=np.uint64)[:, None] * np.uint64(per_output)
            + np.arange(_BLOCKS, dtype=np.uint64)).reshape(-1)
    words = philox(key, counter, 0, offsets=offs).reshape(n, _BLOCKS, 4).tolist()
    return [_Stream(key, skip(counter, per_output * i), words[i]) for i in range(n)]


def gamma(key, counter, alphas, per_alpha):
    """TensorFlow's Gamma(alpha, 1) samples (``RandomGamma``, ``StatelessRandomGammaV3``
    on CPU), float64, laid out ``[per_alpha, len(alphas)]``: output ``o`` (alpha
    ``o // per_alpha``, sample ``o % per_alpha``) reads the Philox calls from ``counter +
    256 o``. alpha 1: ``-log1p(-u)`` of a uniform double; otherwise Marsaglia and Tsang
    (2000) on normal doubles (Box-Muller, the second of a pair first) and uniform doubles
    (the second first), alpha < 1 boosted by ``u ** (1 / alpha)``. The C library's
    ``log``/``sin``/``cos``/``pow`` (Python's ``math``), as TensorFlow's kernel calls them."""
    import math
    na = len(alphas)
    out = np.empty(na * per_alpha)
    if out.size == 0:
        return out
    streams = _streams(key, counter, na * per_alpha)
    for o, st in enumerate(streams):
        a = float(alphas[o // per_alpha])
        pos = (o % per_alpha) * na + o // per_alpha
        if a == 1.0:
            w = st.block()
            out[pos] = -math.log1p(-_word_double(w[2], w[3]))
            continue
        small = a < 1
        d = a + (2.0 / 3 if small else -1.0 / 3)
        c = 1.0 / 3 / math.sqrt(d)
        while True:
            x = st.normal()
            v = 1 + c * x
            if v <= 0:
                continue
            v = v * v * v
            u = st.uniform()
            if u < 1 - 0.0331 * (x * x) * (x * x) or \
                    math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
                res = d * v
                if small:
                    res *= math.pow(st.uniform(), 1 / a)
                out[pos] = res
                break
    return out


def poisson(key, counter, rates, per_rate):
    """TensorFlow's Poisson samples (``RandomPoissonV2``, ``StatelessRandomPoisson`` on
    CPU, computed in float64 whatever the rates' dtype) as float64 counts laid out
    ``[per_rate, len(rates)]``; output ``o`` reads the Philox calls from ``counter + 256
    o``. Rate < 10: Knuth's product of uniforms; else Hormann's transformed rejection
    (1993), with the C library's ``exp``/``log``/``lgamma`` (Python's ``math``)."""
    import math
    nr = len(rates)
    out = np.empty(nr * per_rate)
    if out.size == 0:
        return out
    for o, st in enumerate(_streams(key, counter, nr * per_rate)):
        rate = float(rates[o // per_rate])
        pos = (o % per_rate) * nr + o // per_rate
        uniform = st.uniform
        if rate < 10:
            limit = math.exp(-rate)
            prod, x = 1.0, 0
            while True:
                prod = prod * uniform()
                if prod <= limit:
                    out[pos] = x
                    break
                x += 1
            continue
        log_rate = math.log(rate)
        b = 0.931 + 2.53 * math.sqrt(rate)
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = float(math.floor((2 * a / us + b) * u + rate + 0.43))
            if us >= 0.07 and v <= vr:
                out[pos] = k
                break
            if k < 0 or (us < 0.013 and v > us):
                continue
            s = math.log(v * inv_alpha / (a / (us * us) + b))
            t = -rate + k * log_rate - math.lgamma(k + 1)
            if s <= t:
                out[pos] = k
                break
    return out


def _log(x):
    import math
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_tail(k):
    # log(k!) minus Stirling's approximation: tabled to 9, then its series
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(st, count, prob):
    import math
    total, n = 0.0, 0
    denom = math.log1p(-prob)
    while True:
        total += math.ceil(_log(st.uniform()) / denom) if denom else math.inf
        if total > count:
            return n
        n += 1


def _btrs(st, count, prob):
    # Hormann (1993), "The generation of binomial random variates", as TensorFlow's kernel
    # (whose upper bound leaves out a log)
    import math
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = st.uniform()
        v = st.uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = float(math.floor((2 * a / us + b) * u + c))
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * _log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * _log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= bound:
            return k


def binomial(key, counter, counts, probs, per_batch):
    """TensorFlow's binomial samples (``StatelessRandomBinomial`` on CPU) as float64,
    laid out ``[per_batch, len(counts)]``. ``counts``/``probs``: the broadcast parameters
    per batch member, ``probs`` in its own dtype (the kernel compares in it). ``count * p
    < 10`` (``p`` the smaller of ``prob`` and ``1 - prob``): inversion by geometric sums,
    42 counters per output; else Hormann's BTRS, 256 per output; ``prob > 0.5`` samples the
    failures."""
    nb = len(counts)
    out = np.empty(nb * per_batch)
    if out.size == 0:
        return out
    one, half, ten = (probs.dtype.type(v) for v in (1, 0.5, 10))
    for o in range(nb * per_batch):
        bi = o // per_batch
        pos = (o % per_batch) * nb + bi
        count_t, prob = counts[bi], probs[bi]
        count = float(count_t)
        if count <= 0.0 or prob <= 0:
            out[pos] = 0.0
            continue
        if prob >= one:
            out[pos] = count
            continue
        if not prob <= half and not prob > half:   # nan
            out[pos] = np.nan
            continue
        flip = prob > half
        p = (one - prob) if flip else prob
        if count_t * p >= ten:
            st = _Stream(key, skip(counter, 256 * o), [])
            k = _btrs(st, count, float(p))
        else:
            st = _Stream(key, skip(counter, 42 * o), [])
            k = _binomial_inversion(st, count, float(p))
        out[pos] = count - k if flip else k
    return out
