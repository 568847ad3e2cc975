"""TFRecord files: ``tf.io.TFRecordWriter``, ``tf.io.TFRecordOptions`` and
``tf.data.TFRecordDataset``, byte for byte TensorFlow's format.

Each record is framed as ``uint64 length``, ``uint32 masked_crc32c(length)``, the data,
``uint32 masked_crc32c(data)`` (little-endian), the whole file optionally GZIP- or
ZLIB-compressed (TensorFlow's ``core/lib/io/record_writer.cc``; CRC-32C is Castagnoli's
polynomial, masked as ``((crc >> 15) | (crc << 17)) + 0xa282ead8``). Records are bytes:
this module neither writes nor parses ``tf.train.Example`` protocol buffers.
"""
import gzip
import struct
import zlib

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.tensor import _TensorLike
from .._core.tensor_spec import TensorSpec
from .._crc32c import masked_crc32c
from .dataset import UNKNOWN, Dataset

__all__ = ["TFRecordDataset", "TFRecordOptions", "TFRecordWriter"]


class TFRecordOptions:
    """How a TFRecord file is compressed (``tf.io.TFRecordOptions``).

    Args:
        compression_type: ``None``/``""``, ``"GZIP"`` or ``"ZLIB"``.
        compression_level: 0-9 (default: the library's, 6 for zlib).

    Raises:
        ValueError: for another ``compression_type``.
    """

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        kind = "" if compression_type is None else str(compression_type).upper()
        if kind not in ("", "GZIP", "ZLIB"):
            raise ValueError(f"Unsupported compression_type: {compression_type}")
        self.compression_type = kind
        self.compression_level = compression_level


def _options(options):
    if isinstance(options, TFRecordOptions):
        return options
    return TFRecordOptions(options)


class TFRecordWriter:
    """Write records (bytes) to a TFRecord file (``tf.io.TFRecordWriter``); a context
    manager. The file is created (truncated) when the writer is made.

    Args:
        path: the file name.
        options: a ``TFRecordOptions`` or a compression type string.
    """

    def __init__(self, path, options=None):
        opts = _options(options)
        self._raw = open(path, "wb")  # noqa: SIM115 - closed by close()
        level = 6 if opts.compression_level is None else opts.compression_level
        if opts.compression_type == "GZIP":
            self._f = gzip.GzipFile(fileobj=self._raw, mode="wb", compresslevel=level,
                                    mtime=0)
            self._z = None
        elif opts.compression_type == "ZLIB":
            self._f, self._z = self._raw, zlib.compressobj(level)
        else:
            self._f, self._z = self._raw, None

    def write(self, record):
        """Append ``record`` (bytes or str; a tensor's ``.numpy()``).

        Raises:
            TypeError: for anything else, a tensor included (as TensorFlow's writer).
        """
        if isinstance(record, str):
            record = record.encode()
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError("write(): incompatible function arguments. The following "
                            "argument types are supported:\n    1. (self, record: str) -> "
                            f"None\n\nInvoked with: {self!r}, {record!r}")
        data = bytes(record)
        length = struct.pack("<Q", len(data))
        frame = b"".join((length, struct.pack("<I", masked_crc32c(length)), data,
                          struct.pack("<I", masked_crc32c(data))))
        self._f.write(self._z.compress(frame) if self._z is not None else frame)

    def flush(self):
        self._f.flush()

    def close(self):
        """Finish the file (a compressed one gets its trailer)."""
        if self._raw.closed:
            return
        if self._z is not None:
            self._raw.write(self._z.flush())
        elif self._f is not self._raw:
            self._f.close()
        self._raw.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def TFRecordDataset(filenames, compression_type=None, buffer_size=None,  # noqa: N802
                    num_parallel_reads=None, name=None) -> Dataset:
    """The records of one or more TFRecord files, each a scalar ``tf.string``
    (``tf.data.TFRecordDataset``).

    Args:
        filenames: a file name, a list of them, a string tensor, or a Dataset of them.
        compression_type: ``None``/``""``, ``"GZIP"`` or ``"ZLIB"``.
        num_parallel_reads: with N > 1, N files are read at once, their records interleaved.

    Returns:
        A Dataset of ``TensorSpec(shape=(), dtype=tf.string)``; cardinality unknown (-2).

    Raises:
        TypeError: if ``filenames`` holds anything but strings.
        tf.errors.NotFoundError: on iteration, for a missing file.
        tf.errors.DataLossError: on iteration, for a truncated record or a checksum that
            does not match (TensorFlow's texts).
    """
    from .readers import _names
    files = filenames if isinstance(filenames, Dataset) else \
        Dataset.from_tensor_slices(_names(filenames))
    kind = _options(compression_type).compression_type

    if num_parallel_reads is not None and int(num_parallel_reads) > 1:
        def per_file(f):
            value = f.numpy() if isinstance(f, _TensorLike) else f
            return Dataset(lambda: _records(value, kind), UNKNOWN,
                           lambda: TensorSpec((), _dt.string))
        make = files.interleave(per_file, cycle_length=int(num_parallel_reads),
                                block_length=1)._make_iter
    else:
        def make():
            for f in files._make_iter():
                yield from _records(f, kind)
    spec = TensorSpec((), _dt.string)
    ds = Dataset(make, UNKNOWN, lambda: spec)
    ds._kind = "TFRecordDatasetV2"
    return ds


def _records(filename, kind):
    name = filename.item() if isinstance(filename, np.ndarray) else filename
    path = name.decode() if isinstance(name, bytes) else str(name)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.op_error(errors.NotFoundError, f"{path}; No such file or directory",
                              "IteratorGetNext") from None
    if kind == "GZIP":
        data = gzip.decompress(data)
    elif kind == "ZLIB":
        data = zlib.decompress(data)
    pos = 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise errors.op_error(errors.DataLossError, "truncated record at " + str(pos),
                                  "IteratorGetNext")
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if masked_crc32c(header) != crc:
            raise errors.op_error(errors.DataLossError,
                                  f"corrupted record at {pos}", "IteratorGetNext")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > len(data):
            raise errors.op_error(errors.DataLossError, "truncated record at " + str(pos),
                                  "IteratorGetNext")
        record = data[start:end]
        (crc,) = struct.unpack("<I", data[end:end + 4])
        if masked_crc32c(record) != crc:
            raise errors.op_error(errors.DataLossError,
                                  f"corrupted record at {pos}", "IteratorGetNext")
        yield np.array(record, dtype=object)
        pos = end + 4
