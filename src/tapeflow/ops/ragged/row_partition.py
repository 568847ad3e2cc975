"""``tf.experimental.RowPartition``: how a flat list of values is cut into rows.

One partition is its ``row_splits`` vector (row ``i`` holds values ``splits[i]:splits[i+1]``)
and, when made with one, a uniform row length. The same splits a ``RaggedTensor`` keeps per
ragged dimension.
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike, _TFNamedType, convert_to_tensor

__all__ = ["RowPartition"]


def _vector(x, dtype):
    v = np.asarray(x._value if isinstance(x, _TensorLike) else x)
    if dtype is None:
        dtype = _dt.int32 if isinstance(x, _TensorLike) and x.dtype == _dt.int32 else _dt.int64
    return v.astype(dtype._np).reshape(-1), dtype


def _invalid(why):
    from ..._core import errors
    return errors.InvalidArgumentError(None, None, why)


class RowPartition(metaclass=_TFNamedType):
    """A row partition (``tf.experimental.RowPartition``), made by its ``from_*`` factories.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.RowPartition.from_row_lengths([2, 0, 1])
        tf.RowPartition(row_splits=[0 2 2 3])
    """

    __slots__ = ("_splits", "_uniform")
    _tf_path = "tensorflow.python.ops.ragged.row_partition.RowPartition"

    def __init__(self, row_splits, uniform_row_length=None, internal=False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the "
                             "factory methods instead (e.g., "
                             "RowPartition.from_row_lengths())")
        self._splits = row_splits
        self._uniform = uniform_row_length

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        """Rows ``[splits[i], splits[i+1])``.

        Raises:
            tf.errors.InvalidArgumentError: splits not starting at 0 or decreasing.
        """
        s, dt = _vector(row_splits, dtype)
        if validate:
            if s.size == 0 or s[0] != 0:
                raise _invalid("Arguments to from_row_splits do not form a valid "
                               "RaggedTensor:zero")
            if np.any(np.diff(s) < 0):
                raise _invalid("Arguments to from_row_splits do not form a valid "
                               "RaggedTensor:monotonic")
        return cls(s, None, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        """Rows of the given lengths.

        Raises:
            tf.errors.InvalidArgumentError: for a negative length.
        """
        n, dt = _vector(row_lengths, dtype)
        if validate and np.any(n < 0):
            raise _invalid("Arguments to from_row_lengths do not form a valid RowPartition")
        return cls(np.concatenate([[0], np.cumsum(n)]).astype(dt._np), None, internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None,
                          dtype_hint=None):
        """Row ``value_rowids[j]`` holds value ``j`` (ids sorted)."""
        ids, dt = _vector(value_rowids, dtype)
        n = int(np.asarray(nrows._value if isinstance(nrows, _TensorLike) else nrows)) \
            if nrows is not None else (int(ids[-1]) + 1 if ids.size else 0)
        if validate and (np.any(np.diff(ids) < 0) or (ids.size and ids[-1] >= n)):
            raise _invalid("Arguments to from_value_rowids do not form a valid RowPartition")
        lengths = np.bincount(ids, minlength=n)
        return cls(np.concatenate([[0], np.cumsum(lengths)]).astype(dt._np), None,
                   internal=True)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None):
        st, dt = _vector(row_starts, dtype)
        return cls.from_row_splits(np.append(st, int(np.asarray(
            nvals._value if isinstance(nvals, _TensorLike) else nvals))).astype(dt._np),
            validate, dt)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None):
        lim, dt = _vector(row_limits, dtype)
        return cls.from_row_splits(np.concatenate([[0], lim]).astype(dt._np), validate, dt)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals, nrows=None, validate=True,
                                dtype=None, dtype_hint=None):
        """``nrows`` rows of ``uniform_row_length`` values (default ``nvals // length``)."""
        length, dt = _vector(uniform_row_length, dtype)
        length = int(length[0])
        nv = int(np.asarray(nvals._value if isinstance(nvals, _TensorLike) else nvals))
        n = (nv // length if length else 0) if nrows is None else int(np.asarray(
            nrows._value if isinstance(nrows, _TensorLike) else nrows))
        if validate and n * length != nv:
            raise _invalid("Arguments to from_uniform_row_length do not form a valid "
                           "RowPartition")
        return cls((np.arange(n + 1) * length).astype(dt._np), length, internal=True)

    # ---------------------------------------------------------------- queries

    @property
    def dtype(self):
        return _dt.as_dtype(self._splits.dtype)

    def row_splits(self) -> Tensor:
        return Tensor(self._splits)

    def row_lengths(self) -> Tensor:
        return Tensor(np.diff(self._splits))

    def row_starts(self) -> Tensor:
        return Tensor(self._splits[:-1])

    def row_limits(self) -> Tensor:
        return Tensor(self._splits[1:])

    def value_rowids(self) -> Tensor:
        return Tensor(np.repeat(np.arange(len(self._splits) - 1), np.diff(self._splits))
                      .astype(self._splits.dtype))

    def nrows(self) -> Tensor:
        return Tensor(self._splits.dtype.type(len(self._splits) - 1))

    def nvals(self) -> Tensor:
        return Tensor(self._splits.dtype.type(self._splits[-1]))

    def uniform_row_length(self):
        return None if self._uniform is None else Tensor(self._splits.dtype.type(self._uniform))

    def is_uniform(self) -> bool:
        return self._uniform is not None

    @property
    def static_nrows(self):
        return len(self._splits) - 1

    @property
    def static_nvals(self):
        return int(self._splits[-1])

    @property
    def static_uniform_row_length(self):
        return self._uniform

    def with_dtype(self, dtype) -> "RowPartition":
        return RowPartition(self._splits.astype(_dt.as_dtype(dtype)._np), self._uniform,
                            internal=True)

    def __repr__(self):
        if self._uniform is not None:
            return (f"tf.RowPartition(nrows={len(self._splits) - 1}, "
                    f"uniform_row_length={self._uniform})")
        return f"tf.RowPartition(row_splits={self._splits})"

    __str__ = __repr__


def as_tensor(x):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x)
