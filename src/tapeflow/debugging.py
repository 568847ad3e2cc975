"""``tf.debugging``: why a gradient is None, and the tape size warning (beyond TensorFlow)."""
from ._core.explain import explain_gradient, set_tape_size_warning

__all__ = ["explain_gradient", "set_tape_size_warning"]
