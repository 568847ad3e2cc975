"""``keras.utils.normalize``."""
from ..._core.backend import np

__all__ = ["normalize"]


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (``keras.utils.normalize``).

    A NumPy array gives a NumPy array (zero norms left as 1, so zero rows stay zero; float64
    stays float64); a tensor goes through ``keras.ops.nn.normalize`` (norm clipped below at
    1e-7).

    Args:
        x: an array or tensor.
        axis: the axis to normalize along (None means -1 for arrays).
        order: the norm's order (2: Euclidean).

    Returns:
        The normalized array or tensor, of ``x``'s shape.
    """
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        axis = axis or -1
        return x / np.expand_dims(norm, axis)
    from .. import ops
    return ops.nn.normalize(x, axis=axis, order=order)
