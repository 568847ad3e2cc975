"""``tf.debugging``: ``check_numerics``, ``enable_check_numerics``/``disable_check_numerics``,
``set_log_device_placement``; why a gradient is None, and the tape size warning (beyond
TensorFlow)."""
from ._core.events import set_tape_size_warning
from ._core.explain import explain_gradient
from ._core.numerics_mode import disable_check_numerics, enable_check_numerics
from .ops.numerics_ops import check_numerics, set_log_device_placement

__all__ = ["check_numerics", "disable_check_numerics", "enable_check_numerics",
           "explain_gradient", "set_log_device_placement",
           "set_tape_size_warning"]

