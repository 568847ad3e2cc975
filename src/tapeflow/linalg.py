"""``tf.linalg``: re-exports of the linear-algebra ops."""
from .ops.array_ops import transpose
from .ops.linalg_ops import (adjoint, band_part, cholesky, cholesky_solve, det, diag,
                             diag_part, einsum, eye, global_norm, inv, l2_normalize, logdet,
                             lstsq, matmul, matrix_transpose, matvec, norm, pinv, qr,
                             set_diag, slogdet, solve, svd, tensordot, trace,
                             triangular_solve)

__all__ = [
    "adjoint", "band_part", "cholesky", "cholesky_solve", "det", "diag", "diag_part",
    "einsum", "eye", "global_norm", "inv", "l2_normalize", "logdet", "lstsq", "matmul",
    "matrix_transpose", "matvec", "norm", "pinv", "qr", "set_diag", "slogdet", "solve",
    "svd", "tensordot", "trace", "transpose", "triangular_solve",
]
