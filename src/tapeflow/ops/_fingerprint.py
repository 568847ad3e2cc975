"""TensorFlow's string hashes in pure Python: FarmHash's 64-bit fingerprint (farmhashna,
``tf.strings.to_hash_bucket_fast``, ``Fingerprint64``) and SipHash-2-4 keyed by two 64-bit
words (``tf.strings.to_hash_bucket_strong``). Arithmetic is on Python ints masked to 64
bits; bytes are read little-endian, as on TensorFlow's x86/ARM builds."""
import struct

_M = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _u64(s, i):
    return struct.unpack_from("<Q", s, i)[0]


def _u32(s, i):
    return struct.unpack_from("<I", s, i)[0]


def _ror(v, n):
    return v if n == 0 else ((v >> n) | (v << (64 - n))) & _M


def _shift_mix(v):
    return v ^ (v >> 47)


def _mix16(u, v, mul):
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _len0to16(s, n):
    if n >= 8:
        mul = (_K2 + n * 2) & _M
        a = (_u64(s, 0) + _K2) & _M
        b = _u64(s, n - 8)
        c = (_ror(b, 37) * mul + a) & _M
        d = ((_ror(a, 25) + b) * mul) & _M
        return _mix16(c, d, mul)
    if n >= 4:
        mul = (_K2 + n * 2) & _M
        return _mix16((n + (_u32(s, 0) << 3)) & _M, _u32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _len17to32(s, n):
    mul = (_K2 + n * 2) & _M
    a = (_u64(s, 0) * _K1) & _M
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & _M
    d = (_u64(s, n - 16) * _K2) & _M
    return _mix16((_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M,
                  (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)


def _len33to64(s, n):
    mul = (_K2 + n * 2) & _M
    a = (_u64(s, 0) * _K2) & _M
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & _M
    d = (_u64(s, n - 16) * _K2) & _M
    y = (_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M
    z = _mix16(y, (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_u64(s, 16) * mul) & _M
    f = _u64(s, 24)
    g = ((y + _u64(s, n - 32)) * mul) & _M
    h = ((z + _u64(s, n - 24)) * mul) & _M
    return _mix16((_ror((e + f) & _M, 43) + _ror(g, 30) + h) & _M,
                  (e + _ror((f + a) & _M, 18) + g) & _M, mul)


def _weak32(s, i, a, b):
    """Two 64-bit words from the 32 bytes at ``s[i:]`` and seeds ``a``, ``b``."""
    w, x, y, z = _u64(s, i), _u64(s, i + 8), _u64(s, i + 16), _u64(s, i + 24)
    a = (a + w) & _M
    b = _ror((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _ror(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def fingerprint64(s: bytes) -> int:
    """FarmHash's ``Fingerprint64`` (farmhashna ``Hash64``) of ``s`` as an unsigned int."""
    n = len(s)
    if n <= 16:
        return _len0to16(s, n)
    if n <= 32:
        return _len17to32(s, n)
    if n <= 64:
        return _len33to64(s, n)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v0 = v1 = w0 = w1 = 0
    x = (x * _K2 + _u64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_ror((x + y + v0 + _u64(s, i + 8)) & _M, 37) * _K1) & _M
        y = (_ror((y + v1 + _u64(s, i + 48)) & _M, 42) * _K1) & _M
        x ^= w1
        y = (y + v0 + _u64(s, i + 40)) & _M
        z = (_ror((z + w0) & _M, 33) * _K1) & _M
        v0, v1 = _weak32(s, i, (v1 * _K1) & _M, (x + w0) & _M)
        w0, w1 = _weak32(s, i + 32, (z + w1) & _M, (y + _u64(s, i + 16)) & _M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = (_K1 + ((z & 0xFF) << 1)) & _M
    i = last64
    w0 = (w0 + ((n - 1) & 63)) & _M
    v0 = (v0 + w0) & _M
    w0 = (w0 + v0) & _M
    x = (_ror((x + y + v0 + _u64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_ror((y + v1 + _u64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w1 * 9) & _M
    y = (y + v0 * 9 + _u64(s, i + 40)) & _M
    z = (_ror((z + w0) & _M, 33) * mul) & _M
    v0, v1 = _weak32(s, i, (v1 * mul) & _M, (x + w0) & _M)
    w0, w1 = _weak32(s, i + 32, (z + w1) & _M, (y + _u64(s, i + 16)) & _M)
    z, x = x, z
    return _mix16((_mix16(v0, w0, mul) + _shift_mix(y) * _K0 + z) & _M,
                  (_mix16(v1, w1, mul) + x) & _M, mul)


def _rotl(v, n):
    return ((v << n) | (v >> (64 - n))) & _M


def siphash24(key0: int, key1: int, s: bytes) -> int:
    """SipHash-2-4 of ``s`` with the 128-bit key given as two 64-bit words."""
    v0 = key0 ^ 0x736F6D6570736575
    v1 = key1 ^ 0x646F72616E646F6D
    v2 = key0 ^ 0x6C7967656E657261
    v3 = key1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, k):
        for _ in range(k):
            v0 = (v0 + v1) & _M
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _u64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    last = (n & 0xFF) << 56
    for j, c in enumerate(s[full:]):
        last |= c << (8 * j)
    v3 ^= last
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TensorFlow's ``FingerprintCat64``: two fingerprints combined (feature crosses)."""
    mul = 0xC6A4A7935BD1E995
    r = fp1 ^ mul
    r ^= (_shift_mix((fp2 * mul) & _M) * mul) & _M
    r = (r * mul) & _M
    r = (_shift_mix(r) * mul) & _M
    return _shift_mix(r)
