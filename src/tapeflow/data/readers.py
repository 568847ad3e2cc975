"""File readers of ``tf.data``: ``TextLineDataset`` (the lines of text files), and the CSV
readers ``CsvDataset``/``make_csv_dataset`` of ``tf.data.experimental``.

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

__all__ = ["TextLineDataset", "CsvDataset", "make_csv_dataset", "Counter"]

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


# ---------------------------------------------------------------------------- CSV
def CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None,  # noqa: N802
               header=False, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, exclude_cols=None, name=None) -> Dataset:
    """The records of CSV files, each a tuple of scalars, one per column
    (``tf.data.experimental.CsvDataset``).

    Args:
        filenames: file name(s) or a string tensor of them.
        record_defaults: per column a dtype (required column) or a 0/1-element list/tensor:
            its dtype (int32, int64, float32, float64, string) and the value of an empty
            field.
        compression_type: None/"" , "GZIP" or "ZLIB".
        header: skip each file's first line.
        field_delim, use_quote_delim, na_value: as ``tf.io.decode_csv``.
        select_cols / exclude_cols: sorted column indices to keep / drop (not both).

    Returns:
        A Dataset of tuples of scalar tensors, cardinality unknown.

    Raises:
        ValueError: for both ``select_cols`` and ``exclude_cols``.
        tf.errors.InvalidArgumentError: on iteration, for a record TensorFlow refuses.
    """
    from ..ops.io_ops import csv_defaults, parse_csv_field, split_csv_record
    if select_cols is not None and exclude_cols is not None:
        raise ValueError("Either select_cols or exclude_cols should be empty")
    defaults = csv_defaults(record_defaults)
    dtypes = [d.dtype for d in defaults]
    np_dtypes = ["object" if d == _dt.string else d._np.name for d in dtypes]
    firsts = [np.asarray(d.numpy(), dtype=object if d.dtype == _dt.string else None).reshape(
        -1)[0] if d.shape.num_elements() else None for d in defaults]
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    select = None if select_cols is None else [int(c) for c in select_cols]
    exclude = None if exclude_cols is None else {int(c) for c in exclude_cols}
    files = _names(filenames)
    kind = "" if compression_type is None else str(compression_type)

    def make():
        record = 0
        for f in files:
            lines = _lines(np.asarray(f, dtype=object), kind)
            if header:
                next(lines, None)
            for line in lines:
                fields = split_csv_record(line.item(), delim, use_quote_delim)
                if select is not None:
                    fields = [fields[c] if c < len(fields) else b"" for c in select]
                elif exclude is not None:
                    fields = [v for c, v in enumerate(fields) if c not in exclude]
                if len(fields) != len(defaults):
                    raise errors.InvalidArgumentError(
                        None, None, f"Expect {len(defaults)} fields but have {len(fields)} "
                        f"in record")
                yield tuple(np.asarray(parse_csv_field(v, d, dt, k, None, na,
                                                       "IteratorGetNext"), dtype=dt)
                            for k, (v, d, dt) in enumerate(zip(fields, firsts, np_dtypes,
                                                               strict=True)))
                record += 1

    specs = tuple(TensorSpec((), d) for d in dtypes)
    ds = Dataset(make, UNKNOWN, lambda: specs)
    ds._kind = "CSVDatasetV2"
    return ds


def _int_ok(text, bits):
    try:
        return -2 ** (bits - 1) <= int(text) < 2 ** (bits - 1)
    except ValueError:
        return False


def _float_ok(text, dtype):
    try:
        return bool(dtype(text) < np.inf)   # TF's test: nan and inf are not numbers here
    except (ValueError, OverflowError):
        return False


_TYPE_ORDER = (_dt.int32, _dt.int64, _dt.float32, _dt.float64, _dt.string)


def _infer_type(text, na_value, previous):
    """TensorFlow's column type inference: the narrowest of int32, int64, float32, float64,
    string that reads every non-empty value so far."""
    if text in ("", na_value):
        return previous
    checks = (lambda s: _int_ok(s, 32), lambda s: _int_ok(s, 64),
              lambda s: _float_ok(s, np.float32), lambda s: _float_ok(s, np.float64),
              lambda s: True)
    for i, (dt, ok) in enumerate(zip(_TYPE_ORDER, checks, strict=True)):
        if ok(text) and (previous is None or previous in _TYPE_ORDER[:i + 1]):
            return dt
    return _dt.string


def _csv_rows(path, delim, use_quote, compression, encoding):
    import csv
    import gzip as _gzip
    opener = (lambda: _gzip.open(path, "rt", encoding=encoding, newline="")) \
        if compression == "GZIP" else (lambda: open(path, encoding=encoding, newline=""))
    with opener() as f:
        yield from csv.reader(f, delimiter=delim,
                              quoting=csv.QUOTE_MINIMAL if use_quote else csv.QUOTE_NONE)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8") -> Dataset:
    """Batches of CSV records as ``(features, label)`` (``tf.data.experimental.
    make_csv_dataset``): ``features`` an ordered dict of column name -> ``[batch]`` tensor.

    Column names come from the header when not given; column types are inferred from the
    first ``num_rows_for_inference`` rows (int32, int64, float32, float64 or string, the
    narrowest that reads every value) when ``column_defaults`` is not given. Files are
    shuffled, then records (buffer ``shuffle_buffer_size``), repeated ``num_epochs`` times
    (None: forever, and then the last partial batch is dropped), batched.

    Raises:
        ValueError: no file matches; no names and no header; duplicate or unknown columns;
            ``label_name`` not a column; a row of another width while inferring types.
    """
    import collections

    from .. import _gfile
    patterns = file_pattern if isinstance(file_pattern, list) else [file_pattern]
    if isinstance(file_pattern, list) and not file_pattern:
        raise ValueError("Argument `file_pattern` should not be empty.")
    filenames = [m for p in patterns for m in _gfile.glob(p)]
    if not filenames:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    comp = "" if compression_type is None else str(compression_type)
    if comp not in ("", "GZIP", "ZLIB"):
        raise ValueError(f"Received unknown `compression_type` {compression_type}. Expected: "
                         "GZIP, ZLIB or  (empty string).")
    if (column_names is None or column_defaults is None) and comp == "ZLIB":
        raise ValueError(f"`compression_type` {compression_type} is not supported for "
                         "probing columns.")
    files = Dataset.from_tensor_slices(filenames)
    if shuffle:
        files = files.shuffle(len(filenames), shuffle_seed)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        heads = []
        for f in filenames:
            row = next(_csv_rows(f, field_delim, use_quote_delim, comp, encoding), None)
            if row is None:
                raise ValueError(f"Failed when reading the header line of {f}. Is it an "
                                 "empty file?")
            heads.append(row)
        column_names = heads[0]
        for f, h in zip(filenames[1:], heads[1:], strict=True):
            if h != column_names:
                raise ValueError("All input CSV files should have the same column names in "
                                 f"the header row. File {f} has different column names.")
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        dup = {n for n in column_names if column_names.count(n) > 1}
        raise ValueError("Either `column_names` argument or CSV header row contains "
                         f"duplicate column names: {dup}.")
    if select_columns is not None:
        index = {n: i for i, n in enumerate(column_names)}
        picked = []
        for v in select_columns:
            if isinstance(v, int):
                if not 0 <= v < len(column_names):
                    raise ValueError(f"Column index {v} specified in `select_columns` should "
                                     f"be > 0  and <= {len(column_names)}, which is the "
                                     "number of columns.")
                picked.append(v)
            elif v not in index:
                raise ValueError(f"Column {v} specified in `select_columns` must be of one "
                                 f"of the columns: {index.keys()}.")
            else:
                picked.append(index[v])
        select_columns = sorted(set(picked))
        if len(select_columns) != len(picked):
            raise ValueError("The `select_columns` argument contains duplicate columns.")
    if column_defaults is None:
        cols = select_columns if select_columns is not None else range(len(column_names))
        types = [None] * len(cols)
        for f in filenames:
            rows = _csv_rows(f, field_delim, use_quote_delim, comp, encoding)
            if header:
                next(rows, None)
            for i, row in enumerate(rows):
                if num_rows_for_inference is not None and i >= num_rows_for_inference:
                    break
                if len(row) != len(column_names):
                    raise ValueError(f"Problem inferring types: CSV row {i + 1 + header} has "
                                     f"{len(row)} number of fields. Expected: "
                                     f"{len(column_names)}.")
                for j, c in enumerate(cols):
                    types[j] = _infer_type(row[c], na_value, types[j])
        # TF's inferred defaults: 0 or "" (an empty field is not an error).
        column_defaults = [[b""] if (t or _dt.string) == _dt.string else
                           np.zeros(1, t._np) for t in types]
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the "
                         f"same length: `column_defaults` has length {len(column_defaults)}, "
                         f"`select_columns` has length {len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. "
                         f"Received: {label_name}.")

    def per_file(filename):
        ds = CsvDataset(filename, column_defaults, compression_type=compression_type,
                        header=header, field_delim=field_delim,
                        use_quote_delim=use_quote_delim, na_value=na_value,
                        select_cols=select_columns)
        return ds.ignore_errors() if ignore_errors else ds

    reads = 1 if num_parallel_reads is None else int(num_parallel_reads)
    records = files.interleave(per_file, cycle_length=max(reads, 1), block_length=1)
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        records = records.repeat(num_epochs)
    batches = records.batch(batch_size, drop_remainder=num_epochs is None)

    def to_features(*columns):
        features = collections.OrderedDict(zip(column_names, columns, strict=True))
        if label_name is not None:
            return features, features.pop(label_name)
        return features

    return batches.map(to_features)


class Counter:
    """``tf.data.experimental.Counter(start, step, dtype)``: ``Dataset.counter``."""

    def __new__(cls, start=0, step=1, dtype=_dt.int64, name=None):
        return Dataset.counter(start, step, dtype)
