"""RMSprop (Hinton, lecture 6e of "Neural Networks for Machine Learning", 2012), with Keras
3's update rule."""
from ..._core.indexed_slices import IndexedSlices
from ..._core.tensor import convert_to_tensor
from ...ops.training_ops import apply_update
from .optimizer import Optimizer

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
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list, "momentum")
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(var_list,
                                                                   "average_gradient")

    _sparse_updates = True

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        slots = (self._velocities[i],)
        if isinstance(gradient, IndexedSlices):
            if self.momentum == 0 and not self.centered:
                from .adam import _dense_and_squares
                dense, squares = _dense_and_squares(gradient)
                apply_update("rmsprop_sparse", variable, slots, dense,
                             (squares, learning_rate), rho=self.rho, epsilon=self.epsilon)
                return
            gradient = convert_to_tensor(gradient)
        attrs = {"rho": self.rho, "epsilon": self.epsilon}
        kind = "rmsprop"
        if self.momentum > 0:
            slots += (self._momentums[i],)
            attrs["momentum"] = self.momentum
        if self.centered:
            slots += (self._average_gradients[i],)
        if self.centered:
            kind = "rmsprop_centered_momentum" if self.momentum > 0 else "rmsprop_centered"
        elif self.momentum > 0:
            kind = "rmsprop_momentum"
        apply_update(kind, variable, slots, gradient, (learning_rate,), **attrs)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
