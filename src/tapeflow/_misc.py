"""Small TensorFlow functions that eager programs call: scopes, devices, clip_by_value."""
import contextlib

from ._core.tensor import _TensorLike
from .ops import math_ops as _m
from .ops._helpers import to_tensor

__all__ = ["clip_by_value", "device", "executing_eagerly", "name_scope", "init_scope",
           "is_built_with_cuda", "is_gpu_available",
           "get_static_value"]


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamp ``t`` to ``[clip_value_min, clip_value_max]`` (``tf.clip_by_value``).

    The gradient passes where ``t`` is inside the range and is zero outside, as in
    TensorFlow.
    """
    t = to_tensor(t)
    return _m.minimum(_m.maximum(t, clip_value_min), clip_value_max)


@contextlib.contextmanager
def device(device_name):
    """``tf.device``: accepted and ignored; everything runs on the CPU with NumPy."""
    yield


@contextlib.contextmanager
def name_scope(name):
    """``tf.name_scope``: accepted; names do not matter in eager mode."""
    yield name


@contextlib.contextmanager
def init_scope():
    """``tf.init_scope``: a no-op in eager mode."""
    yield


def executing_eagerly() -> bool:
    """False while a ``tf.function`` traces its body, else True (``tf.executing_eagerly``)."""
    from ._core.dispatch import current_tracer
    return current_tracer() is None


def get_static_value(tensor, partial=False):
    """The NumPy value of a tensor (``tf.get_static_value``); other values pass through."""
    if isinstance(tensor, _TensorLike):
        return tensor.numpy()
    return tensor



def is_built_with_cuda() -> bool:
    """False: tapeflow runs on NumPy (``tf.test.is_built_with_cuda``)."""
    return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    """False: no GPU device (``tf.test.is_gpu_available``)."""
    return False
