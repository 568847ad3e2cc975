"""Philox4x32-10 (Salmon et al., SC'11) and TensorFlow's transformations of its bits, in NumPy.

TensorFlow's stateless random ops and ``tf.random.Generator`` draw from this counter-based
generator: a 128-bit counter and a 64-bit key give four 32-bit words per counter value.
Reproducing the generator and the way TensorFlow turns words into floats (and where each
output's words come from) gives TensorFlow's exact streams: the same seed, the same numbers,
up to the last bit of float32 ``log``/``sin``/``cos`` in the normal transform.

Only the forwards of the random ops (``stateless_random_ops``, ``stateful_random_ops``)
call these functions.
"""
from .._core.backend import np

__all__ = ["philox", "key_counter_from_seed", "uniform_float", "normal_float",
           "truncated_normal_float", "uniform_double", "normal_double", "skip"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
_MASK = np.uint64(0xFFFFFFFF)
_U32 = np.uint64(32)


def _counters(counter, n):
    """``n`` consecutive 128-bit counters from ``counter`` (four uint32 words, low first),
    as an ``[n, 4]`` uint32 array."""
    lo = np.uint64(int(counter[0]) | (int(counter[1]) << 32))
    hi = int(counter[2]) | (int(counter[3]) << 32)
    steps = np.arange(n, dtype=np.uint64)
    low = lo + steps  # wraps modulo 2**64
    carry = (low < lo).astype(np.uint64)
    high = np.uint64(hi) + carry
    out = np.empty((n, 4), np.uint32)
    out[:, 0] = low & _MASK
    out[:, 1] = low >> _U32
    out[:, 2] = high & _MASK
    out[:, 3] = high >> _U32
    return out


def philox(key, counter, n):
    """The ``4 * n`` words of ``n`` Philox4x32-10 calls from ``counter`` on (flat, uint32).

    Args:
        key: two uint32 words.
        counter: four uint32 words (the 128-bit counter, least significant first).
        n: how many counter values.
    """
    c = _counters(counter, n)
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


def _box_muller(x0, x1):
    u1 = np.maximum(_to_float(x0), np.float32(1e-7))
    v1 = np.float32(2.0 * np.pi) * _to_float(x1)
    u2 = np.sqrt(np.float32(-2.0) * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


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
    w = philox(key, counter, -(-n // 2))
    u1 = np.maximum(_to_double(w[0::4], w[1::4]), 1e-7)
    v1 = 2.0 * np.pi * _to_double(w[2::4], w[3::4])
    u2 = np.sqrt(-2.0 * np.log(u1))
    out = np.empty(2 * u1.size)
    out[0::2], out[1::2] = np.sin(v1) * u2, np.cos(v1) * u2
    return out[:n]


def truncated_normal_float(key, counter, n):
    """``n`` float32 N(0, 1) samples inside (-2, 2), as TensorFlow draws them: each group
    of four outputs starts 256 counters after the previous one and takes the first four
    accepted Box-Muller values of its words."""
    groups = -(-n // 4)
    out = np.empty((groups, 4), np.float32)
    for g in range(groups):
        start = skip(counter, 256 * g)
        got, used = [], 0
        while len(got) < 4:
            w = philox(key, skip(start, used), 4)
            used += 4
            f0, f1 = _box_muller(w[0::2], w[1::2])
            pairs = np.stack([f0, f1], axis=1).reshape(-1)
            got.extend(v for v in pairs if abs(v) < 2.0)
        out[g] = got[:4]
    return out.reshape(-1)[:n]
