"""``tf.experimental.DynamicRaggedShape``: the shape of a RaggedTensor (what ``tf.shape``
returns for one): a list of row partitions and the dense shape of the flat values.
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import Tensor, TensorShape, _TensorLike, _TFNamedType, convert_to_tensor
from .row_partition import RowPartition

__all__ = ["DynamicRaggedShape"]


class DynamicRaggedShape(metaclass=_TFNamedType):
    """The shape of a ragged or dense tensor (``tf.experimental.DynamicRaggedShape``).

    Args:
        row_partitions: a sequence of ``RowPartition``, outermost first.
        inner_shape: an int vector: the shape of the flat values (its first entry the number
            of values of the last partition).
        dtype: int32 or int64 (default: the partitions', else int64).

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.DynamicRaggedShape.from_lengths([3, (2, 0, 1), 4])
        <DynamicRaggedShape lengths=[3, (2, 0, 1), 4] num_row_partitions=1>
    """

    _tf_path = "tensorflow.python.ops.ragged.dynamic_ragged_shape.DynamicRaggedShape"

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False,
                 static_inner_shape=None):
        if dtype is None:
            dtype = row_partitions[0].dtype if row_partitions else _dt.int64
        self._dtype = _dt.as_dtype(dtype)
        self._partitions = tuple(p.with_dtype(self._dtype) for p in row_partitions)
        inner = inner_shape._value if isinstance(inner_shape, _TensorLike) else inner_shape
        self._inner = np.asarray(inner, self._dtype._np).reshape(-1)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=_dt.int64):
        """The shape of the given lengths: an int per uniform dimension, a tuple of row
        lengths per ragged one (``[3, (2, 0, 1), 4]``).

        Raises:
            ValueError: for a first dimension that is not an int, or row lengths whose count
                is not the number of rows.
        """
        lengths = list(lengths)
        if not lengths or not isinstance(lengths[0], (int, np.integer)):
            raise ValueError("First element of lengths must be an integer")
        ragged = [i for i, x in enumerate(lengths) if isinstance(x, (tuple, list))]
        last = ragged[-1] if ragged else 0
        if num_row_partitions is not None:
            last = max(last, int(num_row_partitions))
        parts, n = [], int(lengths[0])
        for i in range(1, last + 1):
            x = lengths[i]
            if isinstance(x, (tuple, list)):
                if len(x) != n:
                    raise ValueError(f"Lengths {x} do not match the number of rows {n}")
                parts.append(RowPartition.from_row_lengths(np.asarray(x, np.int64)))
                n = int(sum(x))
            else:
                parts.append(RowPartition.from_uniform_row_length(int(x), n * int(x), n))
                n = n * int(x)
        inner = [n] + [int(x) for x in lengths[last + 1:]]
        return cls(parts, inner, dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a Tensor (no partitions) or a RaggedTensor."""
        from .ragged_tensor import RaggedTensor
        dtype = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
        if not isinstance(t, RaggedTensor):
            t = t if isinstance(t, _TensorLike) else convert_to_tensor(t)
            return cls([], list(t._value.shape), dtype)
        parts = []
        level = t
        while isinstance(level, RaggedTensor):
            s = level.row_splits._value
            if level._uniform is not None:
                parts.append(RowPartition.from_uniform_row_length(
                    level._uniform, int(s[-1]), len(s) - 1))
            else:
                parts.append(RowPartition.from_row_splits(s, validate=False))
            level = level.values
        return cls(parts, list(level._value.shape), dtype)

    @property
    def dtype(self):
        return self._dtype

    @property
    def row_partitions(self) -> tuple:
        return self._partitions

    @property
    def num_row_partitions(self) -> int:
        return len(self._partitions)

    @property
    def inner_shape(self) -> Tensor:
        return Tensor(self._inner)

    @property
    def rank(self) -> int:
        return len(self._partitions) + len(self._inner)

    def _lengths(self):
        if not self._partitions:
            return [int(x) for x in self._inner]
        out = [self._partitions[0].static_nrows]
        for p in self._partitions:
            out.append(p.static_uniform_row_length if p.is_uniform() else
                       tuple(int(x) for x in np.diff(p._splits)))
        return out + [int(x) for x in self._inner[1:]]

    def static_lengths(self, ragged_lengths=True) -> list:
        return [x if not isinstance(x, tuple) or ragged_lengths else None
                for x in self._lengths()]

    def is_uniform(self, axis) -> bool:
        return not isinstance(self._lengths()[axis], tuple)

    def __getitem__(self, index):
        """Dimension ``index`` as a scalar tensor of ``dtype``.

        Raises:
            ValueError: for a ragged dimension ("Index 1 is not uniform").
        """
        lengths = self._lengths()
        if isinstance(index, slice):
            return DynamicRaggedShape.from_lengths(lengths[index], dtype=self._dtype) \
                if index.start in (None, 0) else TensorShape(lengths[index])
        i = int(index)
        x = lengths[i]
        if isinstance(x, tuple):
            raise ValueError(f"Index {index} is not uniform")
        return Tensor(self._dtype._np.type(x))

    def __len__(self):
        return self.rank

    def __repr__(self):
        text = ", ".join(str(x) for x in self._lengths())
        return (f"<DynamicRaggedShape lengths=[{text}] "
                f"num_row_partitions={self.num_row_partitions}>")

    __str__ = __repr__
