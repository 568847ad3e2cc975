"""RaggedTensor: rows of different lengths, as ``values`` cut by ``row_splits``.

A ragged tensor of ragged rank 1 is a flat ``values`` tensor and an int64 ``row_splits``
vector: row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``. Deeper raggedness nests:
``values`` is itself a RaggedTensor. Element-wise work runs on ``flat_values`` with ordinary
(differentiable) ops; only the partition is bookkeeping.
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import (
    Tensor,
    TensorShape,
    _TensorLike,
    _TFNamedType,
    convert_to_tensor,
    static_value,
    traced_shape,
)
from .. import array_ops as _a
from .. import composite_dispatch as _composite
from .. import indexing_ops as _ix
from .. import math_ops as _m
from .ragged_tensor_spec import PartitionSpec, RaggedTensorSpec

__all__ = ["RaggedTensor", "constant", "map_flat_values"]


def _read(t):
    """A tensor's value for a decision made in NumPy (a row partition, a mask, indices):
    inside a ``tf.function`` trace a guard, so a call with other values re-traces."""
    return static_value(t) if isinstance(t, _TensorLike) else np.asarray(t)


def _int64(x):
    if isinstance(x, _TensorLike):
        return Tensor(np.asarray(_read(x)).astype(np.int64))
    return convert_to_tensor(np.asarray(x, np.int64))


def _splits(x):
    """Row splits as an int64 tensor, or int32 when given as an int32 tensor (TF keeps the
    dtype of a row partition it is given: ``row_splits_dtype``)."""
    if isinstance(x, _TensorLike) and x.dtype == _dt.int32:
        return Tensor(np.asarray(_read(x)))
    return _int64(x)


class RaggedTensor(metaclass=_TFNamedType):
    """A tensor whose rows have different lengths (``tf.RaggedTensor``).

    Made with :func:`tf.ragged.constant` or the ``from_*`` factories, never directly.

    Example:
        >>> import tapeflow as tf
        >>> rt = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
        >>> rt
        <tf.RaggedTensor [[1, 2], [3], [], [4, 5, 6]]>
        >>> rt.shape, rt.row_lengths().numpy()
        (TensorShape([4, None]), array([2, 1, 0, 3]))
    """

    __slots__ = ("_values", "_row_splits", "_uniform")
    _tf_path = "tensorflow.python.ops.ragged.ragged_tensor.RaggedTensor"

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform = None   # the length of every row, when made with a uniform length

    # ------------------------------------------------------------------ factories

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows ``values[row_splits[i]:row_splits[i + 1]]``.

        Raises:
            tf.errors.InvalidArgumentError: if ``row_splits`` does not start at 0, decreases,
                or does not end at ``len(values)``.
        """
        values = values if isinstance(values, (RaggedTensor, _TensorLike)) else \
            convert_to_tensor(values)
        splits = _splits(row_splits)
        s = splits._value
        n = values.nrows()._value if isinstance(values, RaggedTensor) else \
            values._value.shape[0]
        if validate:
            why = ("zero" if s.ndim != 1 or s.size == 0 or s[0] != 0 else
                   "monotonic" if np.any(np.diff(s) < 0) else None)
            if why is None and s[-1] != n:
                from ..._core import errors
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to _from_row_partition do not form a valid "
                    "RaggedTensor\nCondition x == y did not hold.\nFirst 1 elements of x:\n"
                    f"[{s[-1]}]\nFirst 1 elements of y:\n[{n}]")
            if why is not None:
                from ..._core import errors
                detail = ""
                if why == "monotonic":
                    d = np.diff(s)
                    detail = ("\nCondition x >= 0 did not hold element-wise:\nx (shape="
                              f"{d.shape} dtype={d.dtype}) = \n"
                              f"{[str(v) for v in d.tolist()]}".replace('"', "'"))
                raise errors.InvalidArgumentError(
                    None, None, "Arguments to from_row_splits do not form a valid "
                    f"RaggedTensor:{why}.  " + detail)
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Rows of the given lengths, in order."""
        lengths = _splits(row_lengths)
        splits = np.concatenate([[0], np.cumsum(lengths._value)]).astype(lengths._value.dtype)
        return cls.from_row_splits(values, Tensor(splits), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of ``uniform_row_length`` values each (``nrows`` of them; by default as many
        as ``values`` fills). The result's shape gives that length, not ``None``.

        Raises:
            tf.errors.InvalidArgumentError: if ``nrows * uniform_row_length`` is not the
                number of values.
        """
        if not isinstance(values, (RaggedTensor, _TensorLike)):
            values = convert_to_tensor(values)
        length = int(_int64(uniform_row_length)._value)
        nvals = int(values.nrows()._value) if isinstance(values, RaggedTensor) else \
            values._value.shape[0]
        if nrows is None:
            n = nvals // length if length else 0
        else:
            n = int(_int64(nrows)._value)
        if n * length != nvals:
            from ..._core import errors
            raise errors.InvalidArgumentError(
                None, None, "Arguments to _from_row_partition do not form a valid "
                "RaggedTensor")
        rt = cls.from_row_splits(values, np.arange(n + 1, dtype=np.int64) * length,
                                 validate=False)
        rt._uniform = length
        return rt

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=_dt.int64):
        """The rows of a 2-D SparseTensor (its entries in row-major order), each row ending
        at its last stored entry (``tf.RaggedTensor.from_sparse``).

        Raises:
            ValueError: for a SparseTensor of another rank.
        """
        if st_input.indices._value.shape[1] != 2:
            raise ValueError("rank(st_input) must be 2.")
        idx = st_input.indices._value
        nrows = int(st_input.dense_shape._value[0])
        lengths = np.bincount(idx[:, 0], minlength=nrows).astype(
            _dt.as_dtype(row_splits_dtype)._np)
        return cls.from_row_lengths(st_input.values, Tensor(lengths))

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Row ``value_rowids[j]`` holds ``values[j]`` (ids sorted)."""
        ids = _int64(value_rowids)._value
        n = int(nrows) if nrows is not None else (int(ids[-1]) + 1 if ids.size else 0)
        lengths = np.bincount(ids, minlength=n).astype(np.int64)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        starts = _int64(row_starts)._value
        if not isinstance(values, (RaggedTensor, _TensorLike)):
            values = convert_to_tensor(values)
        n = values._value.shape[0] if not isinstance(values, RaggedTensor) else int(
            values.nrows()._value)
        return cls.from_row_splits(values, np.append(starts, n), validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None,
                               validate=True):
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None):
        """Rows of a dense ``[rows, cols, ...]`` tensor, cut at ``lengths`` or where only
        ``padding`` remains."""
        t = tensor if isinstance(tensor, _TensorLike) else convert_to_tensor(tensor)
        v = _read(t) if padding is not None else t._value
        rows, cols = v.shape[0], v.shape[1]
        if lengths is not None:
            lens = np.asarray(_int64(lengths)._value)
        elif padding is not None:
            pad = np.asarray(padding._value if isinstance(padding, _TensorLike) else padding)
            keep = ~np.all((v == pad).reshape(rows, cols, -1), axis=2)
            lens = np.array([(np.flatnonzero(r)[-1] + 1) if r.any() else 0 for r in keep],
                            np.int64)
        else:
            lens = np.full(rows, cols, np.int64)
        mask = np.arange(cols)[None, :] < lens[:, None]
        values = _ix.boolean_mask(t, Tensor(mask))
        return cls.from_row_lengths(values, lens)

    # ------------------------------------------------------------------ structure

    @property
    def values(self):
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out = [self._row_splits]
        v = self._values
        while isinstance(v, RaggedTensor):
            out.append(v._row_splits)
            v = v._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def shape(self) -> TensorShape:
        inner = traced_shape(self._values)
        return TensorShape([self._row_splits._value.shape[0] - 1, self._uniform] +
                           list(inner)[1:])

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def _type_spec(self):
        """Its ``tf.RaggedTensorSpec``: ragged dimensions None (a uniform row length kept)."""
        dims = list(self.shape.as_list())
        for axis, uniform in enumerate(self._uniform_lengths(), start=1):
            dims[axis] = uniform
        return RaggedTensorSpec(dims, self.dtype, self.ragged_rank, self._row_splits.dtype)

    @property
    def ndim(self) -> int:
        return self.shape.rank

    @property
    def uniform_row_length(self):
        """The length of every row as a scalar tensor (of the splits' dtype) when the tensor
        was made with one, else None."""
        if self._uniform is None:
            return None
        return Tensor(self._row_splits._value.dtype.type(self._uniform))

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def row_lengths(self, axis=1, name=None) -> Tensor:
        if axis != 1:
            axis = int(axis) % self.shape.rank if int(axis) < 0 else int(axis)
            if axis == 1:
                return self.row_lengths()
            return self.with_values(self._values.row_lengths(axis - 1)) \
                if axis > 1 else Tensor(self._row_splits._value.dtype.type(0))
        s = self._row_splits._value
        return Tensor(np.diff(s))

    def row_starts(self, name=None) -> Tensor:
        return Tensor(self._row_splits._value[:-1])

    def row_limits(self, name=None) -> Tensor:
        return Tensor(self._row_splits._value[1:])

    def nrows(self, out_type=None, name=None) -> Tensor:
        n = np.int64(self._row_splits._value.shape[0] - 1)
        return Tensor(n if out_type is None else _dt.as_dtype(out_type)._np.type(n))

    def value_rowids(self, name=None) -> Tensor:
        return Tensor(np.repeat(np.arange(len(self._row_splits._value) - 1, dtype=np.int64),
                                np.diff(self._row_splits._value)))

    def nested_row_lengths(self, name=None) -> tuple:
        return tuple(Tensor(np.diff(s._value)) for s in self.nested_row_splits)

    def bounding_shape(self, axis=None, name=None, out_type=None) -> Tensor:
        """The shape of the smallest dense tensor holding every row (int64)."""
        dims = [len(self._row_splits._value) - 1]
        lens = np.diff(self._row_splits._value)
        dims.append(int(lens.max()) if lens.size else 0)
        if isinstance(self._values, RaggedTensor):
            inner = self._values.bounding_shape()._value.tolist()
            dims[1] = max(dims[1], 0)
            dims.extend(inner[1:])
        else:
            dims.extend(self._values._value.shape[1:])
        out = np.array(dims, np.int64)
        return Tensor(out if axis is None else out[axis])

    def with_values(self, new_values) -> "RaggedTensor":
        rt = RaggedTensor(new_values, self._row_splits, internal=True)
        rt._uniform = self._uniform
        return rt

    def with_row_splits_dtype(self, dtype) -> "RaggedTensor":
        """The same tensor with every row partition cast to ``dtype`` (int32 or int64).

        Raises:
            ValueError: for a dtype other than int32 and int64.
        """
        dtype = _dt.as_dtype(dtype)
        if dtype not in (_dt.int32, _dt.int64):
            raise ValueError(f"dtype must be int32 or int64, but got {dtype!r}")
        values = self._values.with_row_splits_dtype(dtype) if isinstance(
            self._values, RaggedTensor) else self._values
        rt = RaggedTensor(values, Tensor(self._row_splits._value.astype(dtype._np)),
                          internal=True)
        rt._uniform = self._uniform
        return rt

    def merge_dims(self, outer_axis, inner_axis) -> "RaggedTensor":
        """Dimensions ``outer_axis..inner_axis`` merged into one (``merge_dims(0, 1)`` of a
        2-D ragged tensor is its values); a Tensor when no ragged dimension is left."""
        rank = self.shape.rank
        outer, inner = int(outer_axis), int(inner_axis)
        outer, inner = outer % rank if outer < 0 else outer, inner % rank if inner < 0 else inner
        if outer > inner:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal "
                             f"to inner_axis ({inner_axis})")
        if outer == inner:
            return self
        if outer == 1 and isinstance(self._values, RaggedTensor):
            inner_splits = self._values._row_splits._value
            merged = RaggedTensor.from_row_splits(
                self._values._values, Tensor(inner_splits[self._row_splits._value]),
                validate=False)
            return merged.merge_dims(1, inner - 1)
        if outer > 0:
            if isinstance(self._values, RaggedTensor):
                return self.with_values(self._values.merge_dims(outer - 1, inner - 1))
            v = self._values
            dims = list(v._value.shape)
            new = dims[:outer] + [int(np.prod(dims[outer:inner + 1]))] + dims[inner + 1:]
            return self.with_values(_a.reshape(v, new))
        # outer == 0: the first rows' values, merged on inward
        values = self._values
        if isinstance(values, RaggedTensor):
            return values.merge_dims(0, inner - 1) if inner > 1 else values
        if inner == 1:
            return values
        dims = list(values._value.shape)
        return _a.reshape(values, [int(np.prod(dims[:inner]))] + dims[inner:])

    def to_sparse(self, name=None):
        """The same values as a SparseTensor of the bounding shape (int64 indices)."""
        from ..sparse.sparse_tensor import SparseTensor
        flat = self.flat_values
        pos = _positions(self)
        inner = flat._value.shape[1:]
        if inner:
            grid = np.indices(inner).reshape(len(inner), -1).T
            n = flat._value.shape[0]
            idx = np.concatenate([np.repeat(np.stack(pos, 1), len(grid), axis=0),
                                  np.tile(grid, (n, 1))], axis=1)
            values = _a.reshape(flat, [-1])
        else:
            idx = np.stack(pos, 1) if pos else np.zeros((0, 0))
            values = flat
        return SparseTensor(Tensor(idx.astype(np.int64).reshape(-1, self.shape.rank)),
                            values, self.bounding_shape())

    def with_flat_values(self, new_values) -> "RaggedTensor":
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    # ------------------------------------------------------------------ conversion

    def to_tensor(self, default_value=None, name=None, shape=None) -> Tensor:
        """The rows padded with ``default_value`` (zero, or ``b''`` for strings) into a
        dense tensor (differentiable with respect to the values).

        Example:
            >>> import tapeflow as tf
            >>> print(tf.ragged.constant([[1, 2], [3]]).to_tensor().numpy())
            [[1 2]
             [3 0]]
        """
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.to_tensor(default_value)
        dims = [len(self._row_splits._value) - 1]
        lens = np.diff(self._row_splits._value)
        width = int(lens.max()) if lens.size else 0
        if shape is not None:
            want = list(TensorShape(shape))
            dims = [dims[0] if want[0] is None else want[0]]
            width = width if want[1] is None else want[1]
        inner = values._value.shape[1:]
        rows = self.value_rowids()._value
        cols = np.arange(values._value.shape[0]) - self._row_splits._value[:-1][rows] \
            if rows.size else np.zeros(0, np.int64)
        keep = (rows < dims[0]) & (cols < width)
        idx = np.stack([rows[keep], cols[keep]], axis=1).astype(np.int64)
        out_shape = (dims[0], width) + tuple(inner)
        if default_value is None:
            fill = np.zeros(out_shape, values._value.dtype) if values.dtype != _dt.string \
                else np.full(out_shape, b"", object)
        else:
            d = default_value._value if isinstance(default_value, _TensorLike) else \
                default_value
            if isinstance(d, str):   # a string padding is bytes, as every string element
                d = d.encode()
            fill = np.full(out_shape, np.asarray(d, object) if values.dtype == _dt.string
                           else np.asarray(d), values._value.dtype)
        # A gather, as TensorFlow's: a Variable of values gets an IndexedSlices gradient.
        picked = _ix.gather(values, Tensor(np.flatnonzero(keep).astype(np.int32)))
        base = Tensor(fill)
        if values.dtype == _dt.string:
            out = np.array(fill, copy=True)
            out[tuple(idx.T)] = picked._value
            return Tensor(out)
        return _ix.tensor_scatter_nd_update(base, Tensor(idx.reshape(-1, 2)), picked)

    def to_list(self) -> list:
        """The rows as nested Python lists."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            self._values._value.tolist()
        s = self._row_splits._value.tolist()
        return [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def numpy(self):
        """The rows as NumPy arrays: an object array of rows when their lengths differ,
        else one array (as TensorFlow's ``numpy()``)."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else \
            np.asarray(self._values._value)
        s = self._row_splits._value.tolist()
        rows = [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), object)
            for i, r in enumerate(rows):
                out[i] = r
            return out
        return np.array(rows)

    # ------------------------------------------------------------------ indexing

    def __getitem__(self, key):
        """``rt[key]`` for ints, slices and ``...`` in every dimension (a ragged dimension
        sliced per row; an int there picks one value of each row, which must have it)."""
        if not isinstance(key, tuple):
            key = (key,)
        if any(k is Ellipsis for k in key):
            i = next(j for j, k in enumerate(key) if k is Ellipsis)
            fill = self.shape.rank - (len(key) - 1)
            key = key[:i] + (slice(None),) * fill + key[i + 1:]
        if not key:
            return self
        first, rest = key[0], key[1:]
        s = self._row_splits._value
        if isinstance(first, _TensorLike):
            first = int(first._value)
        if isinstance(first, (int, np.integer)):
            n = len(s) - 1
            i = int(first) + n if first < 0 else int(first)
            if not 0 <= i < n:
                from ..._core import errors
                raise errors.InvalidArgumentError(
                    None, None, f"slice index {first} of dimension 0 out of bounds.")
            row = _take(self._values, int(s[i]), int(s[i + 1]))
            return row[rest] if rest else row
        if not isinstance(first, slice):
            raise TypeError(f"Unsupported index for a RaggedTensor: {key!r}")
        rows = range(len(s) - 1)[first]
        starts, limits = s[:-1][first], s[1:][first]
        if rows.step == 1 or not len(rows):
            lo = int(starts[0]) if len(rows) else 0
            hi = int(limits[-1]) if len(rows) else 0
            picked = RaggedTensor.from_row_lengths(_take(self._values, lo, hi),
                                                   Tensor((limits - starts).astype(s.dtype)))
        else:
            idx = np.concatenate([np.arange(a, b) for a, b in zip(starts, limits)]
                                 ).astype(np.int64)
            picked = RaggedTensor.from_row_lengths(
                _ix.gather(self._values, Tensor(idx)), Tensor((limits - starts).astype(s.dtype)))
        picked._uniform = self._uniform
        if not rest:
            return picked
        inner, deeper = rest[0], rest[1:]
        ps = picked._row_splits._value
        if isinstance(inner, _TensorLike):
            inner = int(inner._value)
        if isinstance(inner, slice):
            pieces, lens = [], []
            for i in range(len(ps) - 1):
                sel = np.arange(ps[i], ps[i + 1])[inner]
                pieces.append(sel)
                lens.append(sel.size)
            idx = np.concatenate(pieces).astype(np.int64) if pieces else np.zeros(0, np.int64)
            values = _ix.gather(picked._values, Tensor(idx))
            if deeper:
                values = values[(slice(None),) + deeper]
            out = RaggedTensor.from_row_lengths(values, Tensor(np.array(lens, ps.dtype)))
            if picked._uniform is not None and len(set(lens)) <= 1:
                out._uniform = lens[0] if lens else picked._uniform
            return out
        if isinstance(inner, (int, np.integer)):
            raise ValueError("Cannot index into an inner ragged dimension.")
        raise TypeError(f"Unsupported index for a RaggedTensor: {key!r}")

    # ------------------------------------------------------------------ tf.function

    # TensorFlow's nest protocol, as tf.function keys and rebuilds an argument or a result:
    # the flat values are the one tensor component; the row partitions are part of the trace
    # key, by value (the ops on ragged tensors cut and gather with them in NumPy, so a trace
    # is valid for one partition; TensorFlow keeps one trace per spec).
    def __tf_flatten__(self):
        meta = tuple((s._value.dtype.str, s._value.tobytes(), u) for s, u in zip(
            self.nested_row_splits, self._uniform_lengths()))
        return meta, (self.flat_values,)

    @staticmethod
    def __tf_relax_meta__(meta):
        """The spec-level part of a trace key for the partition ``meta`` (TensorFlow keys
        a trace by ``RaggedTensorSpec``: row count, ragged rank and split dtypes)."""
        return PartitionSpec.of(meta)

    @classmethod
    def __tf_unflatten__(cls, meta, components):
        result = components[0]
        for dtype, data, uniform in reversed(meta):
            result = cls(result, Tensor(np.frombuffer(data, dtype).copy()), internal=True)
            result._uniform = uniform
        return result

    def _uniform_lengths(self):
        out, level = [], self
        while isinstance(level, RaggedTensor):
            out.append(level._uniform)
            level = level._values
        return out

    # ------------------------------------------------------------------ printing

    def __str__(self):
        # TensorFlow's text: NumPy's array printing of numpy(), every element by str.
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    __repr__ = __str__

    def __iter__(self):
        return (self[i] for i in range(int(self.nrows()._value)))

    # what TensorFlow says converting one to a Tensor (an op that does not dispatch)
    _conversion_error = "TypeError: object of type 'RaggedTensor' has no len()\n"

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    __hash__ = None


RaggedTensorSpec._value_type = RaggedTensor


def _formatter(x):
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


def _take(values, lo, hi):
    """``values[lo:hi]`` along the first dimension (a RaggedTensor's rows or a Tensor's)."""
    if isinstance(values, RaggedTensor):
        return values[lo:hi]
    return _ix.strided_slice_getitem(values, slice(lo, hi))


def _positions(rt):
    """``[idx_0, ..., idx_R]``: for each flat value, its index in dimensions ``0..R`` (``R``
    the ragged rank) of ``rt``, as int64 arrays."""
    splits = [s._value for s in rt.nested_row_splits]
    elem = np.arange(int(splits[-1][-1]) if len(splits[-1]) else 0, dtype=np.int64)
    out = []
    for s in reversed(splits):
        rows = np.repeat(np.arange(len(s) - 1, dtype=np.int64), np.diff(s))
        r = rows[elem]
        out.append(elem - s[r])
        elem = r
    out.append(elem)
    return out[::-1]


def _operator(fn, reflected=False):
    # through the public op, so RaggedTensor + x and tf.add(rt, x) are one code path
    if reflected:
        return lambda self, other: fn(other, self)
    return lambda self, other: fn(self, other)


for _name, _fn in (("add", _m.add), ("sub", _m.subtract), ("mul", _m.multiply),
                   ("truediv", _m.divide), ("floordiv", _m.floordiv), ("mod", _m.floormod),
                   ("pow", _m.pow)):
    setattr(RaggedTensor, f"__{_name}__", _operator(_fn))
    setattr(RaggedTensor, f"__r{_name}__", _operator(_fn, reflected=True))
for _name, _fn in (("lt", _m.less), ("le", _m.less_equal), ("gt", _m.greater),
                   ("ge", _m.greater_equal), ("and", _m.logical_and), ("or", _m.logical_or),
                   ("xor", _m.logical_xor)):
    setattr(RaggedTensor, f"__{_name}__", _operator(_fn))
for _name, _fn in (("and", _m.logical_and), ("or", _m.logical_or), ("xor", _m.logical_xor)):
    setattr(RaggedTensor, f"__r{_name}__", _operator(_fn, reflected=True))


def _equality(fn, incompatible):
    # TensorFlow's: value by value, but a plain bool when the two do not broadcast
    def op(self, other):
        from ..._core import errors
        try:
            return fn(self, other)
        except (errors.InvalidArgumentError, ValueError):
            return incompatible
    return op


RaggedTensor.__eq__ = _equality(_m.equal, False)
RaggedTensor.__ne__ = _equality(_m.not_equal, True)
RaggedTensor.__neg__ = lambda self: _m.negative(self)
RaggedTensor.__abs__ = lambda self: _m.abs(self)
RaggedTensor.__invert__ = lambda self: _m.logical_not(self)


_composite.register(ragged=RaggedTensor)


def _infer(pylist, depth=0):
    """The ragged depth of a nested list: how many levels have lists of unequal length."""
    if not isinstance(pylist, (list, tuple)):
        return 0
    inner = [_infer(x, depth + 1) for x in pylist]
    return 1 + (max(inner) if inner else 0)


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=_dt.int64):
    """A RaggedTensor from a nested Python list (``tf.ragged.constant``).

    Args:
        pylist: nested lists whose leaves are scalars (numbers, bools or strings).
        dtype: optional element dtype (default inferred as ``tf.constant`` does).
        ragged_rank: how many dimensions are ragged (default: all but the innermost
            scalars, i.e. ``depth - 1``).

    Returns:
        A RaggedTensor of rank ``depth``.

    Raises:
        ValueError: if the leaves sit at different depths.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.constant([[1.5], [2.0, 3.0]])
        <tf.RaggedTensor [[1.5], [2.0, 3.0]]>
    """
    depth = _infer(pylist)
    if depth < 1:
        return convert_to_tensor(pylist, dtype)
    ragged_rank = depth - 1 if ragged_rank is None else int(ragged_rank)
    if ragged_rank == 0:
        return convert_to_tensor(pylist, dtype)
    splits_levels = []
    level = list(pylist)
    for _ in range(ragged_rank):
        splits = [0]
        flat = []
        for row in level:
            if not isinstance(row, (list, tuple)):
                raise ValueError("all scalar values must have the same nesting depth")
            flat.extend(row)
            splits.append(len(flat))
        splits_levels.append(np.array(splits, np.int64))
        level = flat
    if any(isinstance(x, (list, tuple)) for x in level) and not all(
            isinstance(x, (list, tuple)) for x in level):
        raise ValueError("all scalar values must have the same nesting depth")
    if not level and dtype is None:
        values = Tensor(np.zeros((0,), np.float32))
    else:
        values = convert_to_tensor(level, dtype)
    return RaggedTensor.from_nested_row_splits(values, [Tensor(s) for s in splits_levels])


def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the RaggedTensor arguments, which keep their
    row partition (``tf.ragged.map_flat_values``).

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.map_flat_values(tf.square, tf.ragged.constant([[1, 2], [3]]))
        <tf.RaggedTensor [[1, 4], [9]]>
    """
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    first = ragged[0]
    args = [a.flat_values if isinstance(a, RaggedTensor) else a for a in args]
    kwargs = {k: v.flat_values if isinstance(v, RaggedTensor) else v
              for k, v in kwargs.items()}
    return first.with_flat_values(op(*args, **kwargs))
