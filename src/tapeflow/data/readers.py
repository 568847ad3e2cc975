"""File readers of ``tf.data``: ``TextLineDataset`` (the lines of text files).

Lines are read as TensorFlow's ``io::InputBuffer::ReadLine`` does: split at ``\\n``, a
trailing ``\\r`` dropped, a last line without a newline kept, no element after a final
newline. Compressed files (``"GZIP"``, ``"ZLIB"``) are read through the standard library.
"""
import gzip
import zlib

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.tensor import _TensorLike, convert_to_tensor
from .._core.tensor_spec import TensorSpec
from .dataset import UNKNOWN, Dataset

__all__ = ["TextLineDataset"]

_CHUNK = 1 << 16


def TextLineDataset(filenames, compression_type=None, buffer_size=None,  # noqa: N802
                    num_parallel_reads=None, name=None) -> Dataset:
    """The lines of one or more text files, each a scalar ``tf.string`` without its line
    ending (``tf.data.TextLineDataset``).

    Args:
        filenames: a file name, a list of them, a ``tf.string`` tensor of them, or a
            ``Dataset`` of them.
        compression_type: ``None``/``""`` (plain text), ``"GZIP"`` or ``"ZLIB"``.
        buffer_size: accepted (the read buffer's size in bytes); the standard library's
            buffering is used.
        num_parallel_reads: with N > 1, N files are read at once and their lines
            interleaved one at a time, in file order (TensorFlow's deterministic order).

    Returns:
        A Dataset of ``TensorSpec(shape=(), dtype=tf.string)`` elements; its cardinality is
        unknown (-2), as TensorFlow's.

    Raises:
        TypeError: if ``filenames`` holds anything but strings (TensorFlow's text).
        tf.errors.NotFoundError: on iteration, for a missing file.
        tf.errors.InvalidArgumentError: on iteration, for another ``compression_type``.
    """
    if isinstance(filenames, Dataset):
        files = filenames
    else:
        files = Dataset.from_tensor_slices(_names(filenames))
    kind = "" if compression_type is None else str(compression_type)

    def lines_of(filename):
        return _lines(filename, kind)

    if num_parallel_reads is not None and int(num_parallel_reads) > 1:
        per_file = files.interleave(lambda f: _file_dataset(f, lines_of),
                                    cycle_length=int(num_parallel_reads), block_length=1)
        make = per_file._make_iter
    else:
        def make():
            for f in files._make_iter():
                yield from lines_of(f)
    spec = TensorSpec((), _dt.string)
    ds = Dataset(make, UNKNOWN, lambda: spec)
    ds._kind = "TextLineDatasetV2"
    return ds


def _names(filenames):
    value = filenames.numpy() if isinstance(filenames, _TensorLike) else filenames
    arr = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
    flat = arr.reshape(-1).tolist()
    for f in flat:
        if not isinstance(f, (str, bytes)):
            dtype = convert_to_tensor(value).dtype     # TensorFlow's rules: 3 is int32
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got "
                            f"`tf.{dtype.name}` elements.")
    return np.array([f.encode() if isinstance(f, str) else f for f in flat], dtype=object)


def _file_dataset(filename, lines_of):
    name = filename.numpy() if isinstance(filename, _TensorLike) else filename
    return Dataset(lambda: lines_of(np.asarray(name, dtype=object)), UNKNOWN,
                   lambda: TensorSpec((), _dt.string))


def _lines(filename, kind):
    """The lines of ``filename`` (a 0-d bytes array) as 0-d object arrays of bytes."""
    name = filename.item() if isinstance(filename, np.ndarray) else filename
    path = name.decode() if isinstance(name, bytes) else str(name)
    if kind not in ("", "GZIP", "ZLIB"):
        raise errors.op_error(errors.InvalidArgumentError, "Unsupported compression_type.",
                              "TextLineDataset")
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed in the finally below
    except FileNotFoundError:
        raise errors.op_error(errors.NotFoundError, f"{path}; No such file or directory",
                              "IteratorGetNext") from None
    try:
        if kind == "GZIP":
            chunks = _read_chunks(gzip.GzipFile(fileobj=raw))
        elif kind == "ZLIB":
            chunks = _inflate(raw)
        else:
            chunks = _read_chunks(raw)
        pending = b""
        for chunk in chunks:
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for line in complete:
                yield np.array(line[:-1] if line.endswith(b"\r") else line, dtype=object)
        if pending:
            yield np.array(pending[:-1] if pending.endswith(b"\r") else pending, dtype=object)
    finally:
        raw.close()


def _read_chunks(f):
    while True:
        chunk = f.read(_CHUNK)
        if not chunk:
            return
        yield chunk


def _inflate(raw):
    d = zlib.decompressobj()
    for chunk in _read_chunks(raw):
        yield d.decompress(chunk)
    yield d.flush()
