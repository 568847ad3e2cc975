"""``Dataset.save`` / ``Dataset.load`` / ``Dataset.snapshot``: datasets on disk.

tapeflow's own format (TensorFlow's snapshot protobuf/TFRecord files are neither written nor
read), NumPy and the standard library only. A saved dataset is a directory::

    path/
      dataset_spec.json          the element_spec (nested dicts/tuples/namedtuples of specs)
      tapeflow_dataset.json      format, compression, element count, shard list (written last)
      shard_00000000/
        chunk_00000000.npz       up to CHUNK elements of this shard, in order
        chunk_00000001.npz.gz    (``.npz.gz`` when compression="GZIP")

A chunk stores, for every component ``j`` of the flattened element, ``c{j}_shapes`` (one row
of dimensions per element) and ``c{j}_data`` (the values, concatenated; strings as
``c{j}_lengths`` + ``c{j}_bytes``), written with ``numpy.savez`` (no pickles). The directory
is built under a temporary sibling name and renamed into place only when complete, so a
crash never leaves a half-written dataset that loads as complete.
"""
import collections
import gzip
import hashlib
import io
import json
import os
import shutil
import types
import uuid

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor
from ..checkpoint.atomic import fsync_dir
from . import structure as _structure
from .iterator import _flat_values

__all__ = ["save", "load", "snapshot_iter", "fingerprint"]

FORMAT = "tapeflow.data.save"
VERSION = 1
SPEC_FILE = "dataset_spec.json"
META_FILE = "tapeflow_dataset.json"
CHUNK = 1024                # elements per chunk file
CHUNK_BYTES = 32 << 20      # or fewer when they are large


def _errors():
    from .._core import errors
    return errors


# -- element_spec as JSON ------------------------------------------------------------------
def spec_to_json(spec):
    """A (nested) element_spec as JSON-able data.

    Raises:
        TypeError: for a spec tapeflow cannot store (a dataset of datasets).
    """
    d = _structure   # Dataset (given by dataset.py), UNKNOWN, the specs
    if isinstance(spec, d.TensorSpec):
        return {"tensor": {"shape": None if spec.shape.rank is None else
                           list(spec.shape.as_list()), "dtype": spec.dtype.name}}
    if isinstance(spec, tuple) and hasattr(spec, "_fields"):
        return {"namedtuple": type(spec).__name__, "fields": list(spec._fields),
                "items": [spec_to_json(s) for s in spec]}
    if isinstance(spec, tuple):
        return {"tuple": [spec_to_json(s) for s in spec]}
    if isinstance(spec, collections.abc.Mapping):
        return {"dict": [[k, spec_to_json(v)] for k, v in spec.items()]}
    raise TypeError(f"Cannot save a dataset whose element_spec holds {spec!r}: tapeflow "
                    "saves tensors in (nested) tuples, namedtuples and dicts.")


def spec_from_json(doc):
    d = _structure   # Dataset (given by dataset.py), UNKNOWN, the specs
    if "tensor" in doc:
        return d.TensorSpec(doc["tensor"]["shape"], _dt.as_dtype(doc["tensor"]["dtype"]))
    if "namedtuple" in doc:
        cls = collections.namedtuple(doc["namedtuple"], doc["fields"])
        return cls(*[spec_from_json(s) for s in doc["items"]])
    if "tuple" in doc:
        return tuple(spec_from_json(s) for s in doc["tuple"])
    return {k: spec_from_json(v) for k, v in doc["dict"]}


# -- chunks --------------------------------------------------------------------------------
def _encode_chunk(flat_elements, n_components):
    arrays = {}
    for j in range(n_components):
        values = [np.asarray(e[j]) for e in flat_elements]
        arrays[f"c{j}_shapes"] = np.array([v.shape for v in values], np.int64).reshape(
            len(values), -1 if values and values[0].ndim else 0)
        if values and values[0].dtype == object:
            blobs = [bytes(b) for v in values for b in v.ravel().tolist()]
            arrays[f"c{j}_lengths"] = np.array([len(b) for b in blobs], np.int64)
            arrays[f"c{j}_bytes"] = np.frombuffer(b"".join(blobs), np.uint8)
        else:
            arrays[f"c{j}_data"] = np.concatenate([v.ravel() for v in values]) if values \
                else np.zeros(0)
    return arrays


def _decode_chunk(z, specs):
    """The elements (flat lists of arrays) of one chunk, typed as ``specs`` (flat)."""
    columns = []
    for j in range(len(specs)):
        shapes = z[f"c{j}_shapes"]
        sizes = [int(np.prod(s)) for s in shapes]
        if f"c{j}_bytes" in z:
            lengths, blob = z[f"c{j}_lengths"], z[f"c{j}_bytes"].tobytes()
            ends = np.cumsum(lengths)
            flat = np.array([blob[e - n:e] for e, n in zip(ends.tolist(), lengths.tolist())]
                            + [None], dtype=object)[:-1]
        else:
            flat = z[f"c{j}_data"]
        col, at = [], 0
        for shape, size in zip(shapes, sizes):
            col.append(flat[at:at + size].reshape(tuple(int(d) for d in shape)))
            at += size
        columns.append(col)
    return [list(parts) for parts in zip(*columns)] if columns else []


def _chunk_name(index, gz):
    return f"chunk_{index:08d}.npz" + (".gz" if gz else "")


def _write_chunk(directory, index, arrays, gz):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    data = buf.getvalue()
    path = os.path.join(directory, _chunk_name(index, gz))
    with open(path, "wb") as f:
        f.write(gzip.compress(data, compresslevel=6) if gz else data)
        f.flush()
        os.fsync(f.fileno())


def _is_gzip(compression):
    if compression is None:
        return False
    if isinstance(compression, bytes):
        compression = compression.decode()
    return str(compression).upper() == "GZIP"


class _Writer:
    """Writes elements into a temporary directory beside ``path``; ``commit`` renames it
    into place, ``abort`` removes it."""

    def __init__(self, path, spec, compression):
        self.path = os.path.abspath(path)
        parent = os.path.dirname(self.path)
        os.makedirs(parent, exist_ok=True)
        self.tmp = os.path.join(parent, f".{os.path.basename(self.path)}.tmp-{uuid.uuid4().hex}")
        os.makedirs(self.tmp)
        self.spec = spec      # None: read off the first element (a map's, see snapshot)
        self.gz = _is_gzip(compression)
        self.compression = "GZIP" if self.gz else None
        self.n_components = None if spec is None else len(_structure._leaves(spec))
        self.shards = {}      # shard index -> [pending elements, pending bytes, chunks]
        self.count = 0

    def add(self, flat, shard=0):
        if self.n_components is None:
            self.n_components = len(flat)
        state = self.shards.get(shard)
        if state is None:
            state = self.shards[shard] = [[], 0, 0]
            os.makedirs(os.path.join(self.tmp, f"shard_{shard:08d}"))
        state[0].append(flat)
        state[1] += sum(np.asarray(v).nbytes for v in flat)
        self.count += 1
        if len(state[0]) >= CHUNK or state[1] >= CHUNK_BYTES:
            self._flush(shard, state)

    def _flush(self, shard, state):
        if not state[0]:
            return
        _write_chunk(os.path.join(self.tmp, f"shard_{shard:08d}"), state[2],
                     _encode_chunk(state[0], self.n_components), self.gz)
        state[0], state[1], state[2] = [], 0, state[2] + 1

    def commit(self, replace=True, spec=None):
        """Finish the files and move the directory to ``path`` (replacing an old one when
        ``replace``; otherwise a directory already there wins and this one is dropped)."""
        self.spec = self.spec if spec is None else spec
        for shard, state in self.shards.items():
            self._flush(shard, state)
        with open(os.path.join(self.tmp, SPEC_FILE), "w") as f:
            json.dump(spec_to_json(self.spec), f)
            f.flush()
            os.fsync(f.fileno())
        meta = {"format": FORMAT, "version": VERSION, "compression": self.compression,
                "cardinality": self.count,
                "shards": [[s, self.shards[s][2]] for s in sorted(self.shards)]}
        with open(os.path.join(self.tmp, META_FILE), "w") as f:
            json.dump(meta, f)
            f.flush()
            os.fsync(f.fileno())
        fsync_dir(self.tmp)
        old = None
        if os.path.exists(self.path):
            if not replace:
                self.abort()
                return
            old = f"{self.tmp}.old"
            os.rename(self.path, old)
        os.rename(self.tmp, self.path)
        fsync_dir(os.path.dirname(self.path))
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def abort(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def _check_path(path):
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    if not isinstance(path, str):
        raise TypeError(f"Expected binary or unicode string, got {path!r}")
    return path


def _shard_of(shard_func, element):
    from .._core.tensor import _TensorLike
    out = _structure._call(shard_func, element)
    value = np.asarray(out.numpy() if isinstance(out, _TensorLike) else out)
    if isinstance(out, (tuple, list)) or value.shape != () or value.dtype != np.int64:
        raise _structure._op_error("`shard_func` must return a scalar int64.", "SaveDataset")
    return int(value)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write every element of ``dataset`` under ``path`` (see the module docstring)."""
    path = _check_path(path)
    if checkpoint_args:   # TensorFlow ignores an empty one too
        from ..checkpoint import Checkpoint, CheckpointManager
        CheckpointManager(Checkpoint(), **checkpoint_args)   # TensorFlow's argument errors
    spec = dataset.element_spec
    spec_to_json(spec)     # a spec that cannot be stored fails before any file is made
    writer = _Writer(path, spec, compression)
    try:
        for element in dataset._make_iter():
            shard = 0 if shard_func is None else _shard_of(shard_func, element)
            writer.add(_flat_values(element), shard)
        writer.commit()
    except BaseException:
        writer.abort()
        raise


def _read_meta(path):
    meta_path = os.path.join(path, META_FILE)
    if not os.path.exists(meta_path):
        return None
    with open(meta_path) as f:
        meta = json.load(f)
    if meta.get("format") != FORMAT:
        raise _errors().DataLossError(None, None, f"{meta_path} is not a tapeflow dataset.")
    return meta


def _not_tapeflow(path):
    if os.path.exists(os.path.join(path, "dataset_spec.pb")) or os.path.exists(
            os.path.join(path, "snapshot.metadata")):
        raise _errors().UnimplementedError(
            None, None, f"{path} holds a dataset saved by TensorFlow (its snapshot protobuf "
            "format); tapeflow reads only the datasets tapeflow saved.")


def _shard_dataset(path, shard, n_chunks, flat_specs, structure, gz, want_gz, check):
    from .._core.nest import is_nested
    from .._core.nest import pack_sequence_as as pack
    d = _structure   # Dataset (given by dataset.py), UNKNOWN, the specs
    nested = is_nested(structure)

    def it():
        if gz != want_gz:
            raise _errors().DataLossError(
                None, None, f"The dataset at {path} was saved with compression "
                f"{'GZIP' if gz else None!r} but is loaded with compression "
                f"{'GZIP' if want_gz else None!r}.")
        directory = os.path.join(path, f"shard_{shard:08d}")
        for index in range(n_chunks):
            with open(os.path.join(directory, _chunk_name(index, gz)), "rb") as f:
                data = f.read()
            if gz:
                data = gzip.decompress(data)
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                elements = _decode_chunk(z, flat_specs)
            for flat in elements:
                check(flat)
                yield pack(structure, flat) if nested else flat[0]
    ds = d.Dataset(it, d.UNKNOWN, lambda: structure)
    ds._kind = "_SnapshotShardDataset"
    return ds


def _default_reader(datasets):
    return datasets.interleave(lambda x: x, num_parallel_calls=-1)


def load(path, element_spec=None, compression=None, reader_func=None, kind="_LoadDataset"):
    """The dataset saved at ``path`` by :func:`save` (``tf.data.Dataset.load``)."""
    d = _structure   # Dataset (given by dataset.py), UNKNOWN, the specs
    path = os.path.abspath(_check_path(path))
    errors = _errors()
    if element_spec is None:
        spec_path = os.path.join(path, SPEC_FILE)
        if not os.path.exists(spec_path):
            _not_tapeflow(path)
            raise errors.NotFoundError(
                None, None, f"tf.data snapshot element_spec file not found: {spec_path}.")
        with open(spec_path) as f:
            element_spec = spec_from_json(json.load(f))
    else:
        element_spec = _structure._map(_structure._spec_leaf, element_spec)
    meta = _read_meta(path)
    if meta is None:
        _not_tapeflow(path)
        raise errors.NotFoundError(None, None,
                                   f"Could not find metadata file [{path}] [Op:LoadDataset]")
    from .._core.nest import flatten
    flat_specs = flatten(element_spec)    # tf.nest's order, as the elements are written

    def check(flat):
        if len(flat) != len(flat_specs):
            raise errors.op_error(
                errors.InvalidArgumentError, f"Number of components does not match: "
                f"expected {len(flat_specs)} types but got {len(flat)}.", "IteratorGetNext")
        for i, (v, s) in enumerate(zip(flat, flat_specs)):
            got = _dt.FROM_NUMPY[v.dtype]
            if got != s.dtype:
                raise errors.op_error(
                    errors.InvalidArgumentError, f"Data type mismatch at component {i}: "
                    f"expected {s.dtype.name} but got {got.name}.", "IteratorGetNext")

    gz = meta["compression"] == "GZIP"
    want_gz = _is_gzip(compression)
    shards = [_shard_dataset(path, s, n, flat_specs, element_spec, gz, want_gz, check)
              for s, n in meta["shards"]]
    shard_spec = d.DatasetSpec(element_spec)
    of_shards = d.Dataset(lambda: iter(shards), len(shards), lambda: shard_spec)
    read = (reader_func or _default_reader)(of_shards)
    if not isinstance(read, d.Dataset):
        raise TypeError("The `reader_func` argument must return a `Dataset` object. Got "
                        f"{type(read)}.")
    ds = d.Dataset(read._make_iter, int(meta["cardinality"]), lambda: element_spec)
    ds._kind = kind
    return ds


# -- snapshot ------------------------------------------------------------------------------
def _digest(obj, h, seen, depth=0):
    """Feed ``obj`` into the hash ``h``: what determines a pipeline's elements (its
    functions' code and constants, captured values and arrays, parameters)."""
    if depth > 60:
        h.update(b"<deep>")
        return
    d = _structure   # Dataset (given by dataset.py), UNKNOWN, the specs
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(obj).__name__}:{obj!r};".encode())
        return
    if isinstance(obj, (np.ndarray, np.generic)):
        a = np.asarray(obj)
        h.update(f"nd:{a.dtype}:{a.shape};".encode())
        h.update(a.tobytes() if a.dtype != object else repr(a.tolist()).encode())
        return
    key = id(obj)
    if key in seen:
        h.update(f"<ref {seen[key]}>".encode())
        return
    seen[key] = len(seen)
    if isinstance(obj, d.Dataset):
        h.update(f"ds:{obj._kind}:{obj._cardinality};".encode())
        _digest(obj._make_iter, h, seen, depth + 1)
        return
    if isinstance(obj, types.CodeType):
        h.update(obj.co_code)
        h.update(repr(obj.co_names).encode())
        for c in obj.co_consts:
            _digest(c, h, seen, depth + 1)
        return
    if isinstance(obj, types.MethodType):
        _digest(obj.__func__, h, seen, depth + 1)
        _digest(obj.__self__, h, seen, depth + 1)
        return
    if isinstance(obj, types.FunctionType):
        h.update(f"fn:{obj.__qualname__};".encode())
        _digest(obj.__code__, h, seen, depth + 1)
        _digest(obj.__defaults__, h, seen, depth + 1)
        for cell in obj.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:
                value = None
            _digest(value, h, seen, depth + 1)
        return
    if isinstance(obj, (tuple, list, set, frozenset)):
        h.update(f"{type(obj).__name__}[".encode())
        for item in (sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else obj):
            _digest(item, h, seen, depth + 1)
        h.update(b"]")
        return
    if isinstance(obj, dict):
        h.update(b"{")
        for k, v in obj.items():
            _digest(k, h, seen, depth + 1)
            _digest(v, h, seen, depth + 1)
        h.update(b"}")
        return
    python_function = getattr(obj, "python_function", None)   # a tf.function: its body
    if isinstance(python_function, types.FunctionType):
        h.update(b"tf.function;")
        _digest(python_function, h, seen, depth + 1)
        return
    value = getattr(obj, "_value", None)   # a Tensor's value (a Variable's is not read)
    if isinstance(obj, Tensor) and value is not None:
        _digest(np.asarray(value), h, seen, depth + 1)
        return
    if isinstance(obj, np.random.Generator):
        h.update(b"<rng>")
        return
    h.update(f"<{type(obj).__module__}.{type(obj).__qualname__}>".encode())


def _declared_spec(dataset):
    """``dataset.element_spec`` when it is known without computing an element, else None
    (a ``map``'s, which tapeflow reads off its first output)."""
    if dataset._spec_fn is None or dataset._spec_inferred:
        return None
    return dataset.element_spec


def fingerprint(dataset):
    """A hex digest of the pipeline that yields ``dataset``'s elements."""
    h = hashlib.sha256()
    h.update(repr(_declared_spec(dataset)).encode())
    _digest(dataset, h, {})
    return h.hexdigest()[:20]


def snapshot_iter(dataset, path, compression, reader_func, shard_func):
    """One pass of ``dataset.snapshot(path, ...)``: read the finished snapshot of this
    pipeline if there is one, otherwise yield the input's elements while writing them and
    finish the snapshot when the pass ends (a pass left early leaves nothing)."""
    path = os.path.abspath(path)
    if getattr(dataset, "_snapshot_fingerprint", None) is None:   # once per dataset
        dataset._snapshot_fingerprint = fingerprint(dataset)
    target = os.path.join(path, dataset._snapshot_fingerprint)
    if _read_meta(target) is not None:
        yield from load(target, compression=compression, reader_func=reader_func)._make_iter()
        return
    spec = _declared_spec(dataset)
    writer = _Writer(target, spec, compression)
    done = False
    try:
        for element in dataset._make_iter():
            if spec is None:
                spec = _structure._spec_of(element)
            shard = 0 if shard_func is None else _shard_of(shard_func, element)
            writer.add(_flat_values(element), shard)
            yield element
        if spec is None:
            try:
                spec = dataset.element_spec
            except ValueError:    # an empty pipeline whose spec needs an element
                return
        writer.commit(replace=False, spec=spec)
        done = True
    finally:
        if not done:
            writer.abort()
