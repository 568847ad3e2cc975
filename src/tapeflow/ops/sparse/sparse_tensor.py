"""SparseTensor: ``values`` at ``indices`` of a ``dense_shape`` tensor, zeros elsewhere."""
from ..._core.backend import np
from ..._core.tensor import Tensor, TensorShape, _TensorLike, _TFNamedType, convert_to_tensor
from .. import composite_dispatch as _composite
from .sparse_tensor_spec import DenseShapeSpec, SparseTensorSpec

__all__ = ["SparseTensor"]


class SparseTensor(metaclass=_TFNamedType):
    """A sparse tensor in coordinate form (``tf.sparse.SparseTensor``, ``tf.SparseTensor``).

    Args:
        indices: ``[N, rank]`` int64 coordinates of the non-zero entries (row-major order
            for ops that need it; see ``tf.sparse.reorder``).
        values: ``[N]`` tensor of the entries.
        dense_shape: ``[rank]`` int64 shape of the dense tensor.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0],
        ...                             dense_shape=[3, 4])
        >>> st.shape, tf.sparse.reduce_sum(st).numpy()
        (TensorShape([3, 4]), np.float32(3.0))
    """

    __slots__ = ("_indices", "_values", "_dense_shape")
    _tf_path = "tensorflow.python.framework.sparse_tensor.SparseTensor"

    def __init__(self, indices, values, dense_shape):
        self._indices = _int64(indices, (-1, None))
        self._values = values if isinstance(values, _TensorLike) else convert_to_tensor(values)
        self._dense_shape = _int64(dense_shape, (-1,))
        n = self._indices._value.shape[0]
        if self._values._value.shape != (n,):
            got = self._values._value.shape[0] if self._values._value.ndim else None
            raise ValueError(f"Dimensions {n} and {got} are not compatible")
        if self._indices._value.shape[1] != self._dense_shape._value.shape[0]:
            raise ValueError("indices and dense_shape must agree on the rank: "
                             f"{self._indices.shape} vs {self._dense_shape.shape}")

    @classmethod
    def from_value(cls, value):
        return value

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._dense_shape._value.tolist())

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self) -> int:
        return int(self._dense_shape._value.shape[0])

    def with_values(self, new_values) -> "SparseTensor":
        return SparseTensor(self._indices, new_values, self._dense_shape)

    # TensorFlow's nest protocol (tf.function keys and rebuilds arguments and results): the
    # values are the tensor component; indices and dense shape key the trace by value.
    def __tf_flatten__(self):
        return ((self._indices._value.tobytes(), self._indices._value.shape,
                 tuple(self._dense_shape._value.tolist())), (self._values,))

    @staticmethod
    def __tf_relax_meta__(meta):
        """The spec-level part of a trace key for the metadata ``meta`` (TensorFlow keys a
        trace by ``SparseTensorSpec``: the dense shape and dtype, not the indices)."""
        return DenseShapeSpec.of(meta)

    @property
    def _type_spec(self):
        return SparseTensorSpec(self.shape, self.dtype)

    @classmethod
    def __tf_unflatten__(cls, meta, components):
        data, shape, dense_shape = meta
        return cls(Tensor(np.frombuffer(data, np.int64).reshape(shape).copy()),
                   components[0], Tensor(np.array(dense_shape, np.int64)))

    def __str__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __repr__ = __str__

    def __mul__(self, other):
        # A dense or scalar factor: only the stored entries change (sparse_dense_cwise_mul).
        from .. import array_ops, indexing_ops, math_ops
        other = other if isinstance(other, _TensorLike) else convert_to_tensor(
            other, self.dtype)
        if other._value.ndim == 0:
            return self.with_values(math_ops.multiply(self._values, other))
        full = array_ops.broadcast_to(other, self._dense_shape._value.tolist())
        return self.with_values(math_ops.multiply(
            self._values, indexing_ops.gather_nd(full, self._indices)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        from .. import math_ops
        other = other if isinstance(other, _TensorLike) else convert_to_tensor(
            other, self.dtype)
        return self * math_ops.reciprocal(other)

    __hash__ = None


_composite.register(sparse=SparseTensor)


def _int64(x, shape):
    t = x if isinstance(x, _TensorLike) else convert_to_tensor(np.asarray(x, np.int64))
    v = np.asarray(t._value)
    if v.dtype != np.int64:
        t = Tensor(v.astype(np.int64))
    if len(shape) == 2 and t._value.ndim == 1 and t._value.size == 0:
        t = Tensor(np.zeros((0, 0), np.int64))
    return t


SparseTensorSpec._value_type = SparseTensor
