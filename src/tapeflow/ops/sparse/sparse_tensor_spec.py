"""``tf.SparseTensorSpec``: the type of a SparseTensor (dense shape and dtype).

It lives with its value class, below ``data`` and ``saved_model``, so that a SavedModel's
signatures and ``tf.function`` can use it. TF's counterpart:
``tensorflow/python/framework/sparse_tensor.py`` (``SparseTensorSpec``).
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import Tensor, TensorShape

__all__ = ["SparseTensorSpec", "DenseShapeSpec"]


class SparseTensorSpec:
    """The type of a SparseTensor (``tf.SparseTensorSpec``): dense shape and dtype."""

    def __init__(self, shape=None, dtype=_dt.float32):
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    # SparseTensor, set by ``sparse_tensor.py`` (which imports this module) when it loads
    _value_type = None

    @property
    def value_type(self):
        return SparseTensorSpec._value_type

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and self._dtype == other._dtype
                and self._shape.as_list() == other._shape.as_list())

    def __hash__(self):
        return hash(self._dtype)

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"

    # -- tf.function ----------------------------------------------------------------------
    def __tf_trace_key__(self):
        """The trace key of any value of this spec (what ``make_key`` gives a SparseTensor,
        at the spec's level): ``(SparseTensor, DenseShapeSpec, (((None,), dtype),))``."""
        dims = self._shape.as_list() if self._shape.rank is not None else None
        return (SparseTensorSpec._value_type, DenseShapeSpec(dims),
                (((None,), np.dtype(self._dtype._np)),))

    def __tf_placeholder__(self):
        """A value of this spec to trace with (``get_concrete_function``): unknown
        dimensions 2, two entries of value 1 at the first positions in row-major order."""
        SparseTensor = SparseTensorSpec._value_type  # noqa: N806 - the class
        if self._shape.rank is None:
            raise ValueError("tapeflow traces a SparseTensorSpec of known rank only.")
        dims = [2 if d is None else d for d in self._shape.as_list()]
        size = int(np.prod(dims)) if dims else 1
        n = min(2, size)
        indices = np.array(np.unravel_index(np.arange(n), dims)).T.reshape(n, len(dims))
        if self._dtype.name == "string":
            values = np.full([n], b"1", dtype=object)
        else:
            values = np.ones([n], self._dtype._np)
        return SparseTensor(Tensor(indices.astype(np.int64)), Tensor(values),
                            Tensor(np.array(dims, np.int64)))


class DenseShapeSpec:
    """The by-spec part of a SparseTensor's trace key: its dense shape with ``None`` for a
    dimension any size fits (TensorFlow keys a trace by ``SparseTensorSpec(shape,
    dtype)``, not by the indices). It covers a SparseTensor's by-value metadata
    (``__tf_flatten__``: indices bytes, indices shape, dense shape) of that shape."""

    __slots__ = ("dims",)

    def __init__(self, dims):
        self.dims = None if dims is None else tuple(dims)

    @classmethod
    def of(cls, meta):
        return cls(meta[2])

    def covers(self, meta):
        dims = meta.dims if type(meta) is DenseShapeSpec else (
            tuple(meta[2]) if type(meta) is tuple and len(meta) == 3 else None)
        if self.dims is None:
            return dims is not None or type(meta) is DenseShapeSpec
        if dims is None or len(dims) != len(self.dims):
            return False
        return all(g is None or g == d for d, g in zip(dims, self.dims))

    def generalize(self, other):
        """The most specific spec covering both (differing dims ``None``), or None for
        another rank."""
        if type(other) is not DenseShapeSpec:
            return None
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return DenseShapeSpec(None) if (self.dims is None) == (other.dims is None) \
                and self.dims is None else None
        return DenseShapeSpec([a if a == b else None for a, b in zip(self.dims, other.dims)])

    def type_spec(self, flat_key):
        """The SparseTensorSpec of a value keyed by this spec and its values'
        ``(shape, NumPy dtype)``."""
        return SparseTensorSpec(None if self.dims is None else list(self.dims),
                                _dt.as_dtype(flat_key[1]))

    def __eq__(self, other):
        return type(other) is DenseShapeSpec and self.dims == other.dims

    def __hash__(self):
        return hash(self.dims)

    def __repr__(self):
        return f"DenseShapeSpec({self.dims})"
