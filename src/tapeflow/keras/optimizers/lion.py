"""Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms")."""
from ...ops.training_ops import apply_update
from .optimizer import Optimizer

__all__ = ["Lion"]


class Lion(Optimizer):
    """``w -= lr * sign(beta_1 * m + (1 - beta_1) * g)``; ``m = beta_2 * m + (1 - beta_2) * g``
    (``tf.keras.optimizers.Lion``).

    Args:
        learning_rate: the step size (default 0.001).
        beta_1: the interpolation of the update, in ``(0, 1]`` (0.9).
        beta_2: the decay of the momentum (0.99).
        name, **kwargs: as for ``Optimizer``.

    Raises:
        ValueError: if ``beta_1`` is outside ``(0, 1]``.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = beta_1, beta_2

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("lion", variable, (self._momentums[i],), gradient, (learning_rate,),
                     beta_1=self.beta_1, beta_2=self.beta_2)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2})
        return config
