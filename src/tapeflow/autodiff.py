"""``tf.autodiff``: forward and reverse mode."""
from ._core.forwardprop import ForwardAccumulator
from ._core.tape import GradientTape

__all__ = ["ForwardAccumulator", "GradientTape"]
