"""``tf.sparse``: re-exports of the sparse tensor class and ops."""
from .ops.sparse.sparse_ops import (
    add,
    concat,
    expand_dims,
    from_dense,
    map_values,
    maximum,
    minimum,
    reduce_max,
    reduce_sum,
    reorder,
    reshape,
    retain,
    slice,
    sparse_dense_matmul,
    to_dense,
    transpose,
)
from .ops.sparse.sparse_tensor import SparseTensor

__all__ = ["SparseTensor", "add", "concat", "expand_dims", "from_dense", "map_values", "maximum",
           "minimum",
           "reduce_max", "reduce_sum", "reorder", "reshape", "retain", "slice",
           "sparse_dense_matmul", "to_dense", "transpose"]
