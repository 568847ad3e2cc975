"""``tf.linalg``: re-exports of the linear-algebra ops."""
from .ops.array_ops import transpose
from .ops.math_ops import matmul, matvec

__all__ = ["matmul", "matvec", "transpose"]
