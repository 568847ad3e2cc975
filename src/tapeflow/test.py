"""``tf.test``: gradient checking (and tapeflow's ``check_gradients``)."""
from ._core.gradcheck import check_gradients, compute_gradient

__all__ = ["check_gradients", "compute_gradient", "is_built_with_cuda", "is_gpu_available"]


def is_built_with_cuda() -> bool:
    """False: tapeflow runs on NumPy (``tf.test.is_built_with_cuda``)."""
    return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    """False: no GPU device (``tf.test.is_gpu_available``)."""
    return False
