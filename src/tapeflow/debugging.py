"""``tf.debugging``: why a gradient is None, and the tape size warning (beyond TensorFlow)."""
from ._core.events import set_tape_size_warning
from ._core.explain import explain_gradient
from .ops.numerics_ops import check_numerics

__all__ = ["check_numerics", "explain_gradient", "set_log_device_placement",
           "set_tape_size_warning"]


def set_log_device_placement(enabled):
    """Accepted as ``tf.debugging.set_log_device_placement``: every op runs on the one CPU
    device, and TF 2.21 on CPU prints nothing for eager ops placed there.

    Args:
        enabled: a bool.
    """
    _LOG_PLACEMENT[0] = bool(enabled)


_LOG_PLACEMENT = [False]
