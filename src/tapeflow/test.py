"""``tf.test``: ``TestCase``, ``main``, gradient checking (and tapeflow's ``check_gradients``)."""
from ._core.gradcheck import (
    check_gradients,
    compute_gradient,
    is_built_with_cuda,
    is_gpu_available,
)
from ._testcase import TestCase, main

__all__ = ["TestCase", "check_gradients", "compute_gradient", "is_built_with_cuda",
           "is_gpu_available", "main"]
