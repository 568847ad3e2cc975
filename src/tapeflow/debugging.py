"""``tf.debugging``: why a gradient is None, and the tape size warning (beyond TensorFlow)."""
from ._core.events import set_tape_size_warning
from ._core.explain import explain_gradient

__all__ = ["explain_gradient", "set_tape_size_warning"]
