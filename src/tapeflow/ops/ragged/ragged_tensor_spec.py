"""``tf.RaggedTensorSpec``, the type of a RaggedTensor, and the partition part of a
``tf.function`` trace key at the spec's level.

A RaggedTensor's own trace key holds its row partitions by value (the ragged ops cut and
gather with them in NumPy, so one compiled program serves one partition). TensorFlow keys a
trace by the spec: ``RaggedTensorSpec([3, None], tf.int32, 1, tf.int64)`` for any three-row
ragged matrix. :class:`PartitionSpec` is that spec-level part: a trace keyed by it serves
every partition it covers, each partition its own variant of the program (tapeflow's
``tf.function`` re-runs the body, muted, for a new partition: no new TensorFlow trace).

TF's counterpart: ``tensorflow/python/ops/ragged/ragged_tensor.py`` (``RaggedTensorSpec``).
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import TensorShape

__all__ = ["RaggedTensorSpec", "PartitionSpec"]


class RaggedTensorSpec:
    """The type of a RaggedTensor (``tf.RaggedTensorSpec``): shape (``None`` for ragged
    dimensions), dtype, ragged rank and the dtype of its row partitions.

    Args:
        shape: the ragged tensor's shape, rank >= 2 (or ``ragged_rank`` given).
        dtype: the values' dtype.
        ragged_rank: how many dimensions after the first are ragged (default rank - 1).
        row_splits_dtype: ``tf.int64`` (default) or ``tf.int32``.

    Raises:
        ValueError: neither ``ragged_rank`` nor a shape of known rank.
    """

    def __init__(self, shape=None, dtype=_dt.float32, ragged_rank=None,
                 row_splits_dtype=_dt.int64, flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        self._ragged_rank = int(ragged_rank)
        self._row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        self._flat_values_spec = flat_values_spec

    # RaggedTensor, set by ``ragged_tensor.py`` (which imports this module) when it loads
    _value_type = None

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)

    @property
    def value_type(self):
        return RaggedTensorSpec._value_type

    def _key(self):
        return (self._shape.as_list() if self._shape.rank is not None else None,
                self._dtype, self._ragged_rank, self._row_splits_dtype)

    def __eq__(self, other):
        return type(other) is RaggedTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash((self._dtype, self._ragged_rank))

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")

    # -- tf.function ----------------------------------------------------------------------
    def _dims(self):
        if self._shape.rank is None:
            return [None] * (self._ragged_rank + 1)
        return self._shape.as_list()

    def __tf_trace_key__(self):
        """The trace key of any value of this spec (what ``make_key`` gives a RaggedTensor,
        at the spec's level): ``(RaggedTensor, PartitionSpec, ((flat shape, dtype),))``."""
        dims = self._dims()
        rr = self._ragged_rank
        split = np.dtype(self._row_splits_dtype._np).str
        uniform = tuple(dims[1:rr + 1])
        inner = tuple(dims[rr + 1:])
        part = PartitionSpec(dims[0], (split,) * rr, uniform)
        return (RaggedTensorSpec._value_type, part,
                (((None,) + inner, np.dtype(self._dtype._np)),))

    def __tf_placeholder__(self):
        """A value of this spec to trace with (``get_concrete_function``): unknown
        dimensions 2 (rows) and 1 (ragged rows), values 1."""
        from ..._core.tensor import Tensor
        RaggedTensor = RaggedTensorSpec._value_type  # noqa: N806 - the class
        dims = self._dims()
        rr = self._ragged_rank
        nrows = 2 if dims[0] is None else dims[0]
        lengths = [d if d is not None else 1 for d in dims[1:rr + 1]]
        inner = [2 if d is None else d for d in dims[rr + 1:]]
        count = nrows
        for n in lengths:
            count *= n
        if self._dtype.name == "string":
            flat = np.full([count] + inner, b"1", dtype=object)
        else:
            flat = np.ones([count] + inner, self._dtype._np)
        result = Tensor(flat)
        rows = [nrows]
        for n in lengths[:-1]:
            rows.append(rows[-1] * n)
        for level in reversed(range(rr)):
            n = lengths[level]
            splits = (np.arange(rows[level] + 1) * n).astype(self._row_splits_dtype._np)
            result = RaggedTensor(result, Tensor(splits), internal=True)
            if dims[level + 1] is not None:
                result._uniform = n
        return result


class PartitionSpec:
    """The partition part of a RaggedTensor's trace key at the spec's level: the number of
    rows (``None``: any), each level's row-split dtype and uniform row length (``None``:
    ragged). It covers a RaggedTensor's by-value partition (``__tf_flatten__``'s metadata)
    of the same levels and row count."""

    __slots__ = ("nrows", "dtypes", "uniform")

    def __init__(self, nrows, dtypes, uniform):
        self.nrows = nrows
        self.dtypes = tuple(dtypes)
        self.uniform = tuple(uniform)

    @classmethod
    def of(cls, meta):
        """The spec of a by-value partition ``((dtype str, splits bytes, uniform), ...)``."""
        dtype, data, _ = meta[0]
        nrows = len(data) // np.dtype(dtype).itemsize - 1
        return cls(nrows, [m[0] for m in meta], [m[2] for m in meta])

    def covers(self, meta):
        if type(meta) is PartitionSpec:
            return (self.dtypes == meta.dtypes and self.uniform == meta.uniform and
                    (self.nrows is None or self.nrows == meta.nrows))
        if type(meta) is not tuple or len(meta) != len(self.dtypes):
            return False
        for (dtype, _, uniform), d, u in zip(meta, self.dtypes, self.uniform):
            if dtype != d or (u is not None and uniform != u):
                return False
        if self.nrows is None:
            return True
        dtype, data, _ = meta[0]
        return len(data) // np.dtype(dtype).itemsize - 1 == self.nrows

    def generalize(self, other):
        """The most specific spec covering both (rows ``None`` when they differ), or None."""
        if type(other) is not PartitionSpec or self.dtypes != other.dtypes or \
                self.uniform != other.uniform:
            return None
        if self.nrows == other.nrows:
            return self
        return PartitionSpec(None, self.dtypes, self.uniform)

    def type_spec(self, flat_key):
        """The RaggedTensorSpec of a value keyed by this partition spec and ``flat_key``
        (its flat values' ``(shape, NumPy dtype)``)."""
        shape, dtype = flat_key
        inner = list(shape[1:]) if shape is not None else []
        return RaggedTensorSpec([self.nrows] + list(self.uniform) + inner,
                                _dt.as_dtype(dtype), len(self.dtypes),
                                _dt.as_dtype(np.dtype(self.dtypes[0])))

    def _fields(self):
        return (self.nrows, self.dtypes, self.uniform)

    def __eq__(self, other):
        return type(other) is PartitionSpec and self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        return f"PartitionSpec(nrows={self.nrows}, {self.dtypes}, uniform={self.uniform})"
