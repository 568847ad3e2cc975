"""``tf.linalg``: re-exports of the linear-algebra ops."""
from .ops.array_ops import transpose
from .ops.linalg_ops import (adjoint, band_part, cholesky, cholesky_solve, cross, det, diag,
                             diag_part, eigh, eigvalsh, einsum, expm, eye, global_norm, inv,
                             l2_normalize, logdet, lstsq, matmul, matrix_rank,
                             matrix_transpose, matvec, norm, normalize, pinv, qr, set_diag,
                             slogdet, solve, svd, tensordot, trace, triangular_solve)

__all__ = [
    "adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag",
    "diag_part", "eigh", "eigvalsh", "einsum", "expm", "eye", "global_norm", "inv",
    "l2_normalize", "logdet", "lstsq", "matmul", "matrix_rank", "matrix_transpose",
    "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd",
    "tensordot", "trace", "transpose", "triangular_solve",
]
