"""TensorFlow's tensor bundle: ``<prefix>.index`` (a table of entries) and
``<prefix>.data-00000-of-00001`` (the tensors' raw bytes, back to back).

The index maps each key to a ``BundleEntryProto`` (dtype, shape, offset, size, masked
CRC32C of the bytes); key ``""`` holds the ``BundleHeaderProto``. Numbers are stored
little-endian in C order; a string tensor is its lengths as varints, the masked CRC32C of
those lengths (as 4-byte integers), then the bytes (tensor_bundle.cc, WriteStringTensor).
"""
import os
import struct
import weakref

from .. import _crc32c as crc32c
from .._core.backend import np
from .._core.errors import DataLossError, NotFoundError
from . import atomic, sstable
from ._proto import BundleEntry, BundleHeader, decode_varint, encode_varint

__all__ = ["write_bundle", "BundleReader", "data_path", "index_path", "DTYPES"]

# TensorFlow's DataType enum (types.proto) <-> tapeflow dtype names.
DTYPES = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
          7: "string", 8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16",
          17: "uint16", 18: "complex128", 19: "float16", 22: "uint32", 23: "uint64"}
ENUM = {name: number for number, name in DTYPES.items()}
_NUMPY = {"float32": "<f4", "float64": "<f8", "int32": "<i4", "uint8": "u1", "int16": "<i2",
          "int8": "i1", "complex64": "<c8", "int64": "<i8", "bool": "?", "uint16": "<u2",
          "complex128": "<c16", "float16": "<f2", "uint32": "<u4", "uint64": "<u8"}


def data_path(prefix: str) -> str:
    return f"{prefix}.data-00000-of-00001"


def index_path(prefix: str) -> str:
    return f"{prefix}.index"


def _to_bfloat16(a):
    """float32 -> bfloat16 bits (round to nearest even), as TensorFlow converts."""
    bits = np.ascontiguousarray(a, np.float32).view(np.uint32)
    rounded = bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))
    out = (rounded >> 16).astype(np.uint16)
    nan = np.isnan(a)
    if nan.any():
        out[nan] = 0x7FC0
    return out


def _string_bytes(values):
    """A string tensor's serialized bytes and their (unmasked) CRC32C."""
    items = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in values]
    lengths = b"".join(encode_varint(len(b)) for b in items)
    crc = crc32c.value(b"".join(struct.pack("<I", len(b)) for b in items))
    masked = struct.pack("<I", crc32c.mask(crc))
    crc = crc32c.extend(crc, masked)
    body = b"".join(items)
    return lengths + masked + body, crc32c.extend(crc, body)


def _payload(dtype_name, value):
    """``(bytes-like, unmasked crc)`` of one tensor value (a NumPy array)."""
    if dtype_name == "string":
        flat = np.asarray(value, dtype=object).reshape(-1)
        return _string_bytes(flat)
    if dtype_name == "bfloat16":
        raw = _to_bfloat16(value)
    else:
        raw = np.ascontiguousarray(value, dtype=_NUMPY[dtype_name])
    buf = memoryview(raw).cast("B") if raw.size else b""
    return buf, crc32c.value(buf)


def write_bundle(prefix: str, tensors):
    """Write ``tensors`` (an ordered list of ``(key, dtype name, shape, value)``) as the
    bundle at ``prefix``: data file first, then the index, each atomically; the index
    being in place is what makes the checkpoint exist.

    Raises:
        OSError: from the file system (disk full, ...); no temporary is left and an
            existing checkpoint at another prefix is untouched.
    """
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)

    def uncommit_old():
        # Overwriting a checkpoint: once the new data is safely on disk, remove the old
        # index, so that a crash before the new index is in place leaves "no checkpoint
        # here", never an old index over new data. A failed write leaves the old intact.
        if os.path.exists(index_path(prefix)):
            os.remove(index_path(prefix))
            atomic.fsync_dir(directory)

    entries = []
    offset = 0
    with atomic.atomic_write(data_path(prefix), sync_dir=False,
                             before_replace=uncommit_old) as f:
        for key, dtype_name, shape, value in tensors:
            buf, crc = _payload(dtype_name, value)
            f.write(buf)
            size = len(buf)
            entries.append((key.encode("utf-8"), BundleEntry(
                dtype=ENUM[dtype_name], shape=shape, offset=offset, size=size,
                crc32c=crc32c.mask(crc)).encode()))
            offset += size
    entries.sort(key=lambda kv: kv[0])
    table = sstable.build_table([(b"", BundleHeader().encode())] + entries)
    atomic.write_bytes(index_path(prefix), table)


class BundleReader:
    """Reads the tensors of the bundle at ``prefix``, checking every checksum.

    Raises:
        tf.errors.NotFoundError: if ``prefix.index`` does not exist.
        tf.errors.DataLossError: naming the file, for a bad magic number, a truncated file
            or a checksum mismatch.
    """

    def __init__(self, prefix: str):
        self.prefix = prefix
        path = index_path(prefix)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: "
                                f"Failed to find any matching files for {prefix}") from None
        self.entries = {}
        header = None
        for key, value in sstable.read_table(raw, path):
            if key == b"":
                header = BundleHeader.decode(value)
            else:
                self.entries[key.decode("utf-8")] = BundleEntry.decode(value)
        if header is None:
            raise DataLossError(None, None, f"No header entry in the checkpoint index {path}")
        if header.endianness != 0:
            raise DataLossError(None, None, f"Big-endian checkpoints are not supported: {path}")
        if header.num_shards != 1:
            raise DataLossError(None, None, f"{path}: checkpoints in {header.num_shards} "
                                "shards are not supported")
        self._fd = self._size = None

    def _open(self):
        if self._fd is None:
            path = data_path(self.prefix)
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            except FileNotFoundError:
                raise DataLossError(None, None, f"{path} is missing: the checkpoint "
                                    f"{self.prefix} is incomplete") from None
            self._fd, self._size = fd, os.fstat(fd).st_size
            weakref.finalize(self, os.close, fd)
        return self._fd

    def _bytes(self, offset, size, key):
        """``size`` bytes at ``offset`` of the data file, read into a fresh array."""
        fd = self._open()
        path = data_path(self.prefix)
        if offset + size > self._size:
            raise DataLossError(None, None, f"Truncated data file {path}: {key} needs bytes "
                                f"{offset}..{offset + size} of {self._size}")
        buf = np.empty(size, np.uint8)
        view, got = memoryview(buf), 0
        while got < size:  # pread may return less than asked (large reads)
            n = os.preadv(fd, [view[got:]], offset + got) if hasattr(os, "preadv") else \
                _pread_into(fd, view[got:], offset + got)
            if n <= 0:
                raise DataLossError(None, None, f"Truncated data file {path}: read {got} of "
                                    f"{size} bytes for {key}")
            got += n
        return buf

    @staticmethod
    def _check(key, path, entry, actual):
        if actual != crc32c.unmask(entry.crc32c):
            raise DataLossError(None, None, f"Checksum does not match: stored "
                                f"{crc32c.unmask(entry.crc32c)} vs. calculated on the "
                                f"restored bytes {actual} for tensor {key} in {path}")

    def dtype_name(self, key):
        return DTYPES.get(self.entries[key].dtype, f"enum {self.entries[key].dtype}")

    def read(self, key: str):
        """The tensor at ``key`` as a NumPy array (bfloat16 widened to float32; strings as
        an object array of bytes)."""
        e = self.entries[key]
        path = data_path(self.prefix)
        if e.has_slices:
            raise DataLossError(None, None, f"{key} in {path} is a partitioned (sliced) "
                                "variable; tapeflow reads whole tensors only")
        buf = self._bytes(e.offset, e.size, key)
        name = DTYPES.get(e.dtype)
        n = int(np.prod(e.shape, dtype=np.int64)) if e.shape else 1
        if name == "string":
            out = _parse_strings(buf, n, path, key)
            self._check(key, path, e, _string_bytes(out)[1])
            return out.reshape(e.shape)
        self._check(key, path, e, crc32c.value(buf))
        if name is None:
            raise DataLossError(None, None, f"{key} in {path} has an unsupported dtype "
                                f"(enum {e.dtype})")
        if name == "bfloat16":
            bits = buf.view("<u2").astype(np.uint32) << 16
            return bits.view(np.float32).reshape(e.shape)
        arr = buf.view(_NUMPY[name])
        if arr.size != n:
            raise DataLossError(None, None, f"{key} in {path}: {e.size} bytes for shape "
                                f"{list(e.shape)}")
        # A native, canonical dtype object (ops compare dtypes by identity); no copy when
        # the stored order is the machine's.
        return arr.reshape(e.shape).astype(np.dtype(arr.dtype.type), copy=False)


def _pread_into(fd, view, offset):
    os.lseek(fd, offset, os.SEEK_SET)
    data = os.read(fd, len(view))
    view[:len(data)] = data
    return len(data)


def _parse_strings(buf, n, path, key):
    raw = buf.tobytes()
    pos, lengths = 0, []
    for _ in range(n):
        length, pos = decode_varint(raw, pos)
        lengths.append(length)
    pos += 4
    if pos + sum(lengths) != len(raw):
        raise DataLossError(None, None, f"Bad string tensor {key} in {path}")
    out = np.empty(n, dtype=object)
    for i, length in enumerate(lengths):
        out[i] = raw[pos:pos + length]
        pos += length
    return out
