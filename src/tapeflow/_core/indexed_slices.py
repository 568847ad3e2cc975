"""IndexedSlices: a sparse gradient, rows ``values`` at ``indices`` of a ``dense_shape`` tensor.

The gradient of ``tf.gather`` (axis 0) with respect to a source it reads directly, as in
TensorFlow: an embedding's gradient touches only the rows it looked up. It becomes dense
wherever a tensor is needed (``tf.convert_to_tensor``, any op), and when it meets a dense
gradient of the same source.
"""
from . import dtypes as _dt
from .backend import np
from .engine_ops import OPS
from .tensor import Tensor, TensorShape, _TFNamedType, convert_to_tensor

__all__ = ["IndexedSlices"]


class IndexedSlices(metaclass=_TFNamedType):
    """A sparse representation of a tensor: slices of its first axis.

    TensorFlow counterpart: ``tf.IndexedSlices``. The dense tensor it stands for is
    ``unsorted_segment_sum(values, indices, dense_shape[0])``: repeated indices add up.

    Args:
        values: a tensor of shape ``[n, d1, ...]``, the slices.
        indices: a 1-D int tensor of length ``n``: where each slice goes.
        dense_shape: optional 1-D int tensor, the shape of the dense tensor.

    Example:
        >>> import tapeflow as tf
        >>> s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]),
        ...                      dense_shape=tf.constant([3, 2]))
        >>> print(tf.convert_to_tensor(s).numpy())
        [[0. 0.]
         [1. 2.]
         [0. 0.]]
    """

    __slots__ = ("_values", "_indices", "_dense_shape")
    _tf_path = "tensorflow.python.framework.indexed_slices.IndexedSlices"

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def values(self) -> Tensor:
        return self._values

    # TensorFlow's composite protocol: tf.function passes and returns it as its components
    def __tf_flatten__(self):
        if self._dense_shape is None:
            return False, (self._values, self._indices)
        return True, (self._values, self._indices, self._dense_shape)

    @classmethod
    def __tf_unflatten__(cls, has_shape, components):
        return cls(*components)

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        if self._dense_shape is None:
            return TensorShape([None] + list(self._values.shape)[1:])
        return TensorShape(self._dense_shape._value.tolist())

    @property
    def device(self) -> str:
        return self._values.device

    def _dense(self, dtype=None):
        """The dense tensor (rows added up), made by a differentiable op."""
        from .dispatch import apply
        from .registry import PRIMITIVES
        if self._dense_shape is None:
            raise ValueError("Cannot convert an IndexedSlices without dense_shape to a Tensor.")
        shape = tuple(int(d) for d in self._dense_shape._value.tolist())
        # GatherGrad reads the dense shape from a tensor of that shape (zero-strided here)
        like = Tensor(np.broadcast_to(np.zeros((), self._values._value.dtype), shape))
        out = apply(PRIMITIVES["GatherGrad"], (self._values, self._indices, like), {"axis": 0})
        if dtype is not None and _dt.as_dtype(dtype) != out.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} "
                             f"for IndexedSlices with dtype {out.dtype.name}")
        return out

    def __tf_tensor__(self, dtype=None, name=None):
        return self._dense(dtype)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._dense()._value, dtype=dtype)

    def __neg__(self):
        return IndexedSlices(OPS.negative(self._values), self._indices, self._dense_shape)

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

    def __repr__(self):
        return f"<{self._tf_path} object at {id(self):#x}>"


def accumulate(a, b):
    """``a + b`` for two gradients of one source, Tensors or IndexedSlices, as TensorFlow
    aggregates them: slices with slices stay sparse (concatenated; ``b`` comes from an op
    that ran earlier, so it goes first, in TensorFlow's order), anything with a dense
    tensor becomes dense."""
    a_sparse, b_sparse = type(a) is IndexedSlices, type(b) is IndexedSlices
    if a_sparse and b_sparse:
        return IndexedSlices(OPS.concat([b._values, a._values], 0),
                             OPS.concat([b._indices, a._indices], 0), a._dense_shape)
    if a_sparse:
        a = a._dense()
    if b_sparse:
        b = b._dense()
    return OPS.add(a, b)
