"""``keras.ops.linalg``: Keras 3's linear algebra as bindings over ``tf.linalg``.

Integer inputs compute in float32 (``keras.backend.result_type(x.dtype, float)``).
"""
import numpy as np

from ._base import cast, dt, float_of, promote, tensor, tf

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "jvp", "lstsq",
           "lu_factor", "matrix_rank", "norm", "pinv", "qr", "solve", "solve_triangular",
           "svd"]


def cholesky(x, upper=False):
    """The Cholesky factor of a symmetric positive-definite ``x`` (``keras.ops.cholesky``).

    Args:
        x: (..., n, n) float.
        upper: return the upper factor ``L^T`` instead of ``L``.
    """
    c = tf.linalg.cholesky(float_of(x))
    return tf.linalg.adjoint(c) if upper else c


def cholesky_inverse(x, upper=False):
    """The inverse of ``A = L L^T`` from its factor ``x`` (``keras.ops.cholesky_inverse``)."""
    lo = float_of(x)
    if upper:
        lo = tf.linalg.adjoint(lo)
    n = lo.shape[-1]
    eye = tf.eye(n, dtype=lo.dtype)
    return tf.linalg.cholesky_solve(lo, tf.broadcast_to(eye, tf.shape(lo)))


def det(x):
    """The determinant of square matrices (``keras.ops.det``); (..., n, n) -> (...)."""
    return tf.linalg.det(float_of(x))


def eig(x):
    """Eigenvalues and eigenvectors of a general matrix (``keras.ops.eig``); not
    differentiable. Returns complex tensors."""
    a = np.asarray(float_of(x))
    w, v = np.linalg.eig(a)
    ct = np.complex64 if a.dtype == np.float32 else np.complex128
    return tf.constant(w.astype(ct)), tf.constant(v.astype(ct))


def eigh(x):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (``keras.ops.eigh``)."""
    return tuple(tf.linalg.eigh(float_of(x)))


def inv(x):
    """The matrix inverse (``keras.ops.inv``); (..., n, n)."""
    return tf.linalg.inv(float_of(x))


def jvp(fun, primals, tangents, has_aux=False):
    """The Jacobian-vector product of ``fun`` at ``primals`` along ``tangents``
    (``keras.ops.jvp``), by forward-mode accumulation.

    Returns:
        (outputs, tangent of the outputs), plus ``aux`` when ``has_aux``.
    """
    primals = [tensor(p) for p in primals]
    tangents = [cast(t, dt(p)) for t, p in zip(tangents, primals)]
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        out = fun(*primals)
        aux = None
        if has_aux:
            out, aux = out
    jt = tf.nest.map_structure(
        lambda o: acc.jvp(o, unconnected_gradients=tf.UnconnectedGradients.ZERO), out)
    return (out, jt, aux) if has_aux else (out, jt)


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b`` (``keras.ops.lstsq``).

    Args:
        a: (m, n); b: (m,) or (m, k).
    """
    a, b, _ = promote(a, b, extra=(float,))
    vec = len(b.shape) == 1
    if vec:
        b = tf.expand_dims(b, 1)
    x = tf.linalg.matmul(tf.linalg.pinv(a), b)
    return tf.squeeze(x, 1) if vec else x


def lu_factor(x):
    """The LU factorization with partial pivoting (``keras.ops.lu_factor``); not
    differentiable.

    Returns:
        (lu, pivots): the packed factors (..., n, n) and int32 row pivots (..., n).
    """
    import scipy.linalg as sl

    a = np.asarray(float_of(x))
    flat = a.reshape((-1,) + a.shape[-2:])
    lus, pivs = zip(*(sl.lu_factor(m) for m in flat))
    return (tf.constant(np.stack(lus).reshape(a.shape).astype(a.dtype)),
            tf.constant(np.stack(pivs).reshape(a.shape[:-1]).astype(np.int32)))


def matrix_rank(x, tol=None):
    """The number of singular values above ``tol`` (``keras.ops.matrix_rank``); int32."""
    x = float_of(x)
    s = tf.linalg.svd(x, compute_uv=False)
    if tol is None:
        eps = np.finfo(dt(x)).eps
        tol = tf.reduce_max(s, axis=-1, keepdims=True) * tf.cast(
            max(x.shape[-2], x.shape[-1]) * eps, x.dtype)
    return tf.reduce_sum(cast(s > tol, "int32"), axis=-1)


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - Keras's name
    """A vector or matrix norm (``keras.ops.norm``).

    Args:
        x: a tensor (integers compute in float32).
        ord: None (2-norm / Frobenius), a number, "fro", "nuc", ``np.inf``, ...
        axis: None (all of ``x`` as a vector for 1-D, a matrix for 2-D), an int or a pair.
        keepdims: whether reduced axes stay with size 1.
    """
    x = float_of(x)
    nd = len(x.shape)
    if axis is None:
        axis = tuple(range(nd))
    if isinstance(axis, int):
        axis = (axis,)
    axis = tuple(a % nd for a in axis)
    if len(axis) == 1:
        a = axis[0]
        ax = tf.abs(x)
        if ord is None or ord == 2:
            out = tf.sqrt(tf.reduce_sum(tf.square(x), axis=a, keepdims=keepdims))
        elif ord == np.inf:
            out = tf.reduce_max(ax, axis=a, keepdims=keepdims)
        elif ord == -np.inf:
            out = tf.reduce_min(ax, axis=a, keepdims=keepdims)
        elif ord == 0:
            out = tf.reduce_sum(cast(tf.not_equal(x, tf.zeros_like(x)), dt(x)), axis=a,
                                keepdims=keepdims)
        elif ord == 1:
            out = tf.reduce_sum(ax, axis=a, keepdims=keepdims)
        else:
            p = tf.cast(ord, x.dtype)
            out = tf.pow(tf.reduce_sum(tf.pow(ax, p), axis=a, keepdims=keepdims),
                         tf.ones_like(p) / p)
        return out
    r, c = axis
    if ord is None or ord == "fro":
        return tf.sqrt(tf.reduce_sum(tf.square(x), axis=list(axis), keepdims=keepdims))
    if ord in (1, -1):
        s = tf.reduce_sum(tf.abs(x), axis=r, keepdims=True)
        out = (tf.reduce_max if ord == 1 else tf.reduce_min)(s, axis=c, keepdims=True)
    elif ord in (np.inf, -np.inf):
        s = tf.reduce_sum(tf.abs(x), axis=c, keepdims=True)
        out = (tf.reduce_max if ord == np.inf else tf.reduce_min)(s, axis=r, keepdims=True)
    elif ord in (2, -2, "nuc"):
        perm = [a for a in range(nd) if a not in axis] + [r, c]
        sv = tf.linalg.svd(tf.transpose(x, perm), compute_uv=False)
        red = {2: tf.reduce_max, -2: tf.reduce_min, "nuc": tf.reduce_sum}[ord]
        out = red(sv, axis=-1)
        for a in sorted(axis):
            out = tf.expand_dims(out, a)
    else:
        raise ValueError(f"Invalid `ord` argument for matrix norm. Received: ord={ord}")
    return out if keepdims else tf.squeeze(out, list(axis))


def pinv(x, rcond=1e-15):
    """The Moore-Penrose pseudo-inverse (``keras.ops.pinv``)."""
    return tf.linalg.pinv(float_of(x), rcond=rcond)


def qr(x, mode="reduced"):
    """The QR factorization (``keras.ops.qr``).

    Args:
        x: (..., m, n).
        mode: "reduced" or "complete".

    Raises:
        ValueError: for another ``mode``.
    """
    if mode not in ("reduced", "complete"):
        raise ValueError("`mode` argument value not supported. Expected one of "
                         f"{{'reduced', 'complete'}}. Received: mode={mode}")
    return tuple(tf.linalg.qr(float_of(x), full_matrices=mode == "complete"))


def solve(a, b):
    """The solution of ``a @ x = b`` (``keras.ops.solve``); ``b`` (..., n) or (..., n, k)."""
    a, b, _ = promote(a, b, extra=(float,))
    if len(b.shape) == len(a.shape) - 1:
        return tf.squeeze(tf.linalg.solve(a, tf.expand_dims(b, -1)), -1)
    return tf.linalg.solve(a, b)


def solve_triangular(a, b, lower=False):
    """The solution of a triangular system ``a @ x = b`` (``keras.ops.solve_triangular``)."""
    a, b, _ = promote(a, b, extra=(float,))
    if len(b.shape) == len(a.shape) - 1:
        return tf.squeeze(tf.linalg.triangular_solve(a, tf.expand_dims(b, -1), lower=lower),
                          -1)
    return tf.linalg.triangular_solve(a, b, lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    """The singular value decomposition ``x = u @ diag(s) @ vh`` (``keras.ops.svd``).

    Returns:
        (u, s, vh), or ``s`` alone when not ``compute_uv``.
    """
    x = float_of(x)
    if not compute_uv:
        return tf.linalg.svd(x, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return u, s, tf.linalg.adjoint(v)
