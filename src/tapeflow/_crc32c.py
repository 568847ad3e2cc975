"""CRC-32C (Castagnoli), as TensorFlow checksums checkpoint blocks and tensors, TFRecord
records and event-file records (``core/lib/hash/crc32c.h``), and its masked form.

The pure implementation is NumPy: the input is cut into many equal lanes that advance
together, four bytes a step (slicing-by-4), and the lane registers are joined with the
linear "append n zero bytes" operator; short inputs take a table-driven byte loop. With the
optional ``google-crc32c`` package (``pip install "tapeflow[crc32c]"``) its
hardware-accelerated routine is used instead.
"""
from ._core.backend import np

__all__ = ["value", "extend", "mask", "unmask", "masked_crc32c"]

_POLY = 0x82F63B78
_MASK_DELTA = 0xA282EAD8


def _tables():
    t0 = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        t0 = np.where(t0 & 1, (t0 >> 1) ^ np.uint32(_POLY), t0 >> 1).astype(np.uint32)
    tables = [t0]
    for _ in range(3):
        prev = tables[-1]
        tables.append(((prev >> 8) ^ t0[prev & 0xFF]).astype(np.uint32))
    return tables


_T = _tables()
_T0_LIST = [int(x) for x in _T[0]]
_wide = []  # two 65536-entry tables: four bytes in two lookups (made on first use)


def _wide_tables():
    if not _wide:
        x = np.arange(65536, dtype=np.uint32)
        lo, hi = x & 0xFF, x >> 8
        _wide.append((_T[3][lo] ^ _T[2][hi]).astype(np.uint32))
        _wide.append((_T[1][lo] ^ _T[0][hi]).astype(np.uint32))
    return _wide

try:  # an optional accelerator, never required
    import google_crc32c as _accel

    if getattr(_accel, "implementation", "c") != "c":
        _accel = None
except ImportError:
    _accel = None


def mask(crc: int) -> int:
    """TensorFlow's masked form of a CRC, stored in files: rotate right 15, add a constant."""
    crc &= 0xFFFFFFFF
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    """The inverse of :func:`mask`."""
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum (records and event files): :func:`mask` of the CRC-32C of
    ``data``. Below 4 KiB (a frame's 8-byte length, most records) the byte loop is the
    faster one, NumPy's lanes above."""
    if _accel is None and len(data) < 4096:
        return mask(_raw_small(0xFFFFFFFF, data) ^ 0xFFFFFFFF)
    return mask(value(data))


def value(data) -> int:
    """The CRC32C of ``data`` (bytes-like)."""
    return extend(0, data)


def extend(crc: int, data) -> int:
    """The CRC32C of ``A + data`` given ``crc`` = the CRC32C of ``A``."""
    arr = np.frombuffer(memoryview(data).cast("B"), np.uint8)
    if not arr.size:
        return crc
    if _accel is not None:
        view = arr.view()
        view.flags.writeable = False  # the C routine takes read-only buffers only
        return _accel.extend(crc, view)
    return _raw(crc ^ 0xFFFFFFFF, arr) ^ 0xFFFFFFFF


def _raw_small(reg, data):
    table = _T0_LIST
    for b in memoryview(data).tobytes():
        reg = table[(reg ^ b) & 0xFF] ^ (reg >> 8)
    return reg


def _raw(reg, data):
    """The CRC register after feeding ``data`` (uint8 array) from register ``reg``."""
    n = data.size
    if n < 2048:
        return _raw_small(reg, data)
    # Powers of two for both, so the joining operators are shared by every input size; the
    # body covers at least half of the input, the rest is one more (smaller) pass.
    lanes = 1 << min(16, (n // 256).bit_length() - 1)
    words = 1 << ((n // (4 * lanes)).bit_length() - 1)
    body = lanes * words * 4
    block = data[:body].view("<u4").reshape(lanes, words)
    regs = np.zeros(lanes, np.uint32)
    regs[0] = reg
    low, high = _wide_tables()
    tmp = np.empty(lanes, np.uint32)
    acc = np.empty(lanes, np.uint32)
    for j in range(words):  # slicing-by-4 with two 16-bit lookups per lane
        np.bitwise_xor(regs, block[:, j], out=regs)
        np.bitwise_and(regs, 0xFFFF, out=tmp)
        np.take(low, tmp, out=acc, mode="clip")
        np.right_shift(regs, 16, out=tmp)
        np.take(high, tmp, out=regs, mode="clip")
        regs ^= acc
    length = 4 * words
    while regs.size > 1:  # join neighbours: left shifted past the right lane's bytes
        regs = _shift(regs[0::2], length) ^ regs[1::2]
        length *= 2
    reg = int(regs[0])
    if body < n:
        reg = _raw(reg, data[body:])
    return reg


_matrices = {}  # nbytes (a power of two) -> the operator "append nbytes zero bytes"
_shift_tables = {}


def _apply(cols, v):
    """The 32x32 GF(2) matrix with columns ``cols`` applied to the uint32 array ``v``."""
    out = np.zeros_like(v)
    for j in range(32):
        out ^= np.where((v >> np.uint32(j)) & np.uint32(1), cols[j], np.uint32(0))
    return out


def _matrix(nbytes):
    m = _matrices.get(nbytes)
    if m is None:
        if nbytes == 1:
            basis = (np.uint32(1) << np.arange(32, dtype=np.uint32)).astype(np.uint32)
            m = (_T[0][basis & 0xFF] ^ (basis >> 8)).astype(np.uint32)
        else:
            half = _matrix(nbytes // 2)
            m = _apply(half, half)  # twice half as many zero bytes
        _matrices[nbytes] = m
    return m


def _shift(regs, nbytes):
    """Registers after ``nbytes`` (a power of two) zero bytes each: a linear map, applied
    through one 256-entry table per byte of the register."""
    tables = _shift_tables.get(nbytes)
    if tables is None:
        m = _matrix(nbytes)
        b = np.arange(256, dtype=np.uint32)
        tables = [_apply(m, (b << np.uint32(8 * i)).astype(np.uint32)) for i in range(4)]
        _shift_tables[nbytes] = tables
    s0, s1, s2, s3 = tables
    return (s0[regs & 0xFF] ^ s1[(regs >> 8) & 0xFF] ^ s2[(regs >> 16) & 0xFF]
            ^ s3[regs >> 24]).astype(np.uint32)
