"""``tf.linalg``: re-exports of the linear-algebra ops."""
from .ops.array_ops import transpose
from .ops.clip_ops import global_norm, l2_normalize
from .ops.creation_ops import eye
from .ops.linalg_ops import (
                             adjoint,
                             band_part,
                             cholesky,
                             cholesky_solve,
                             cross,
                             det,
                             diag,
                             diag_part,
                             eigh,
                             eigvalsh,
                             expm,
                             inv,
                             logdet,
                             lstsq,
                             matrix_rank,
                             matrix_transpose,
                             norm,
                             normalize,
                             pinv,
                             qr,
                             set_diag,
                             slogdet,
                             solve,
                             svd,
                             trace,
                             triangular_solve,
)
from .ops.math_ops import matmul, matvec
from .ops.special_math_ops import einsum, tensordot

__all__ = [
    "adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag",
    "diag_part", "eigh", "eigvalsh", "einsum", "expm", "eye", "global_norm", "inv",
    "l2_normalize", "logdet", "lstsq", "matmul", "matrix_rank", "matrix_transpose",
    "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd",
    "tensordot", "trace", "transpose", "triangular_solve",
]
