"""Small TensorFlow functions that eager programs call: scopes, devices, clip_by_value."""
import contextlib

from ._core.tensor import _TensorLike
from ._core.variable import name_scopes as _name_scopes
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


class name_scope:  # noqa: N801 (TensorFlow's name)
    """A context that prefixes the names of variables created inside (``tf.name_scope``).

    ``with tf.name_scope("outer"):`` makes ``tf.Variable(1., name="v").name`` read
    ``'outer/v:0'``; scopes nest; a name ending in ``/`` is absolute, and ``""`` resets.
    Entering returns the scope string (``"outer/"``).

    Args:
        name: the scope's name (a string).

    Raises:
        ValueError: if ``name`` is not a string.

    >>> import tapeflow as tf
    >>> with tf.name_scope("outer") as scope:
    ...     v = tf.Variable(1.0, name="v")
    >>> scope, v.name
    ('outer/', 'outer/v:0')
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        stack = _name_scopes.stack
        old = stack[-1]
        name = self._name
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = f"{old}{name}/"
        stack.append(scope)
        return scope

    def __exit__(self, *exc):
        _name_scopes.stack.pop()
        return False


@contextlib.contextmanager
def init_scope():
    """``tf.init_scope``: code that runs as if outside any ``tf.function`` being traced
    (initialization: its ops are not part of the program and its variable writes stay when
    a first trace that created variables is undone); a no-op in eager mode."""
    from ._core.dispatch import current_tracer
    if current_tracer() is None:
        yield
        return
    from .function.tracer import suspend
    with suspend(lift=True):
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
