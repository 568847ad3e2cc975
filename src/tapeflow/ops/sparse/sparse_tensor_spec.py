"""``tf.SparseTensorSpec``: the type of a SparseTensor (dense shape and dtype).

It lives with its value class, below ``data`` and ``saved_model``, so that a SavedModel's
signatures and ``tf.function`` can use it. TF's counterpart:
``tensorflow/python/framework/sparse_tensor.py`` (``SparseTensorSpec``).
"""
from ..._core import dtypes as _dt
from ..._core.tensor import TensorShape

__all__ = ["SparseTensorSpec"]


class SparseTensorSpec:
    """The type of a SparseTensor (``tf.SparseTensorSpec``): dense shape and dtype."""

    def __init__(self, shape=None, dtype=_dt.float32):
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        from .sparse_tensor import SparseTensor
        return SparseTensor

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and self._dtype == other._dtype
                and self._shape.as_list() == other._shape.as_list())

    def __hash__(self):
        return hash(self._dtype)

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"
