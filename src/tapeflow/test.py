"""``tf.test``: gradient checking (and tapeflow's ``check_gradients``)."""
from ._core.gradcheck import (
    check_gradients,
    compute_gradient,
    is_built_with_cuda,
    is_gpu_available,
)

__all__ = ["check_gradients", "compute_gradient", "is_built_with_cuda", "is_gpu_available"]
