"""LevelDB's table format, as TensorFlow's ``.index`` files use it (no compression).

A table is data blocks of sorted ``key -> value`` entries (keys prefix-compressed against
the previous one, a restart point every 16 entries), an empty metaindex block, an index
block (one entry per data block: a key >= its last key and < the next block's first, ->
the block's handle) and a 48-byte footer (the two handles, zero padding, a magic number).
Every block is followed by a type byte (0: uncompressed) and the masked CRC32C of block
and type byte. (tensorflow/core/lib/io/table_builder.cc, format.cc, block.cc.)
"""
import struct

from .. import _crc32c as crc32c
from .._core.errors import DataLossError
from ._proto import decode_varint, encode_varint

__all__ = ["build_table", "read_table", "MAGIC"]

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
BLOCK_SIZE = 262144  # TensorFlow's table_options.h default
RESTART_INTERVAL = 16


class _BlockBuilder:
    """LevelDB's BlockBuilder: prefix-compressed entries, then the restart offsets."""

    def __init__(self, restart_interval):
        self.interval = restart_interval
        self.buf, self.restarts, self.last, self.count = bytearray(), [0], b"", 0

    def add(self, key, value):
        shared = 0
        if self.count < self.interval:
            limit = min(len(self.last), len(key))
            while shared < limit and self.last[shared] == key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buf))
            self.count = 0
        self.buf += encode_varint(shared) + encode_varint(len(key) - shared)
        self.buf += encode_varint(len(value)) + key[shared:] + value
        self.last, self.count = key, self.count + 1

    def size_estimate(self):
        return len(self.buf) + 4 * len(self.restarts) + 4

    def finish(self):
        return bytes(self.buf + b"".join(struct.pack("<I", r) for r in self.restarts)
                     + struct.pack("<I", len(self.restarts)))


def _separator(start, limit):
    """LevelDB's BytewiseComparator::FindShortestSeparator."""
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n:
        b = start[i]
        if b < 0xFF and b + 1 < limit[i]:
            return start[:i] + bytes([b + 1])
    return start


def _successor(key):
    """LevelDB's BytewiseComparator::FindShortSuccessor."""
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def build_table(entries) -> bytes:
    """The table holding ``entries`` (``(key bytes, value bytes)``, sorted by key), laid
    out as TensorFlow's TableBuilder does (a data block is cut once its size estimate
    reaches 256 KiB)."""
    out = bytearray()
    index = _BlockBuilder(1)

    def emit(block):
        handle = encode_varint(len(out)) + encode_varint(len(block))
        out.extend(block)
        trailer = b"\x00"
        out.extend(trailer + struct.pack("<I", crc32c.mask(
            crc32c.extend(crc32c.value(block), trailer))))
        return handle

    data = _BlockBuilder(RESTART_INTERVAL)
    pending_handle, last_key = None, b""
    for key, value in entries:
        if pending_handle is not None:  # the previous block's index entry, now bounded
            index.add(_separator(last_key, key), pending_handle)
            pending_handle = None
        data.add(key, value)
        last_key = key
        if data.size_estimate() >= BLOCK_SIZE:
            pending_handle = emit(data.finish())
            data = _BlockBuilder(RESTART_INTERVAL)
    if data.count or data.buf:
        pending_handle = emit(data.finish())
    if pending_handle is not None:
        index.add(_successor(last_key), pending_handle)
    meta = emit(_BlockBuilder(RESTART_INTERVAL).finish())
    idx = emit(index.finish())
    footer = meta + idx
    footer += b"\x00" * (FOOTER_SIZE - 8 - len(footer)) + struct.pack("<Q", MAGIC)
    out.extend(footer)
    return bytes(out)


def _read_block(buf, handle, path):
    offset, size = handle
    if offset + size + 5 > len(buf):
        raise DataLossError(None, None, f"truncated block read in {path}")
    block = buf[offset:offset + size]
    kind = buf[offset + size]
    stored = struct.unpack_from("<I", buf, offset + size + 1)[0]
    actual = crc32c.extend(crc32c.value(block), bytes([kind]))
    if crc32c.unmask(stored) != actual:
        raise DataLossError(None, None, f"block checksum mismatch in {path}")
    if kind != 0:
        raise DataLossError(None, None, f"unsupported (compressed) block type {kind} in {path}")
    return block


def _entries(block, path):
    if len(block) < 4:
        raise DataLossError(None, None, f"bad block contents in {path}")
    n_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    end = len(block) - 4 - 4 * n_restarts
    if end < 0:
        raise DataLossError(None, None, f"bad block contents in {path}")
    pos, key = 0, b""
    while pos < end:
        shared, pos = decode_varint(block, pos)
        unshared, pos = decode_varint(block, pos)
        vlen, pos = decode_varint(block, pos)
        if shared > len(key) or pos + unshared + vlen > end:
            raise DataLossError(None, None, f"bad entry in block in {path}")
        key = key[:shared] + bytes(block[pos:pos + unshared])
        pos += unshared
        yield key, bytes(block[pos:pos + vlen])
        pos += vlen


def read_table(buf, path="table") -> list:
    """All ``(key, value)`` pairs of a table (bytes), checking magic and block CRCs.

    Raises:
        tf.errors.DataLossError: naming ``path`` for a short file, a wrong magic number or
            a checksum mismatch.
    """
    buf = memoryview(buf)
    if len(buf) < FOOTER_SIZE:
        raise DataLossError(None, None, f"Unable to open table file {path}: Data loss: "
                            "file is too short to be an sstable")
    magic = struct.unpack_from("<Q", buf, len(buf) - 8)[0]
    if magic != MAGIC:
        raise DataLossError(None, None, f"Unable to open table file {path}: Data loss: "
                            "not an sstable (bad magic number): perhaps your file is in a "
                            "different file format and you need to use a different restore "
                            "operator?")
    footer = buf[len(buf) - FOOTER_SIZE:]
    pos = 0
    handles = []
    for _ in range(2):
        off, pos = decode_varint(footer, pos)
        size, pos = decode_varint(footer, pos)
        handles.append((off, size))
    out = []
    for _, handle in _entries(_read_block(buf, handles[1], path), path):
        off, p = decode_varint(handle, 0)
        size, _ = decode_varint(handle, p)
        out.extend(_entries(_read_block(buf, (off, size), path), path))
    return out
