"""FTRL-Proximal (McMahan et al. 2013), with Keras 3's update rule."""
from ...ops.training_ops import apply_update
from .. import initializers as _init
from .optimizer import Optimizer

__all__ = ["Ftrl"]


class Ftrl(Optimizer):
    """Follow The Regularized Leader (``tf.keras.optimizers.Ftrl``), with L1, L2 and L2
    shrinkage regularization and the ``beta`` of the paper.

    Args:
        learning_rate: the step size (default 0.001).
        learning_rate_power: ``<= 0`` (-0.5).
        initial_accumulator_value: ``>= 0`` (0.1).
        l1_regularization_strength, l2_regularization_strength,
        l2_shrinkage_regularization_strength: ``>= 0``.
        beta: ``>= 0``.
        name, **kwargs: as for ``Optimizer``.

    Raises:
        ValueError: for an argument out of its range.
    """

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        checks = (("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                  ("learning_rate_power", -learning_rate_power, "less than or equal to 0"),
                  ("l1_regularization_strength", l1_regularization_strength,
                   "positive or zero"),
                  ("l2_regularization_strength", l2_regularization_strength,
                   "positive or zero"),
                  ("l2_shrinkage_regularization_strength",
                   l2_shrinkage_regularization_strength, "positive or zero"))
        for arg, value, what in checks:
            if value < 0.0:
                shown = -value if arg == "learning_rate_power" else value
                raise ValueError(f"`{arg}` needs to be {what}. Received: {arg}={shown}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list, ["accumulator", "linear"],
            initializer=[_init.Constant(self.initial_accumulator_value), "zeros"])

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("ftrl", variable, (self._accumulators[i], self._linears[i]), gradient,
                     (learning_rate,), lr_power=self.learning_rate_power,
                     l1=self.l1_regularization_strength, l2=self.l2_regularization_strength,
                     l2_shrinkage=self.l2_shrinkage_regularization_strength, beta=self.beta)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({
            "learning_rate_power": self.learning_rate_power,
            "initial_accumulator_value": self.initial_accumulator_value,
            "l1_regularization_strength": self.l1_regularization_strength,
            "l2_regularization_strength": self.l2_regularization_strength,
            "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
            "beta": self.beta})
        return config
