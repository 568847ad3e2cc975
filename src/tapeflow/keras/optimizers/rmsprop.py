"""RMSprop (Hinton, lecture 6e of "Neural Networks for Machine Learning", 2012), with Keras
3's update rule."""
from ..._core.backend import np
from .optimizer import Optimizer, square

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Divide the gradient by a running root mean square (``tf.keras.optimizers.RMSprop``).

    ``v = rho * v + (1 - rho) * g**2``; ``step = lr * g / sqrt(v + epsilon)`` (centred:
    ``sqrt(v - a**2 + epsilon)`` with ``a`` the running mean of ``g``); with momentum
    ``m = momentum * m + step`` and ``w -= m``, else ``w -= step``.

    Args:
        learning_rate: the step size (default 0.001).
        rho: the decay of the running averages (0.9).
        momentum: optional momentum (0).
        epsilon: the stabiliser (1e-7).
        centered: whether to subtract the squared running mean gradient.
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="rmsprop", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _slot_kinds(self):
        kinds = ["velocity"]
        if self.momentum > 0:
            kinds.append("momentum")
        if self.centered:
            kinds.append("average_gradient")
        return tuple(kinds)

    def build(self, variables):
        self._make_slots(variables, self._slot_kinds())

    def update_step(self, gradient, variable, learning_rate):
        t = variable._value.dtype.type
        rho = t(self.rho)
        v = self._slot(variable, "velocity")
        v._value = np.asarray(rho * v._value + t(1 - self.rho) * square(gradient))
        if self.centered:
            a = self._slot(variable, "average_gradient")
            a._value = np.asarray(rho * a._value + t(1 - self.rho) * gradient)
            denominator = v._value - np.square(a._value) + t(self.epsilon)
        else:
            denominator = v._value + t(self.epsilon)
        step = learning_rate * gradient / np.sqrt(denominator)
        if self.momentum > 0:
            m = self._slot(variable, "momentum")
            m._value = np.asarray(t(self.momentum) * m._value + step)
            step = m._value
        variable._value = np.asarray(variable._value - step)
