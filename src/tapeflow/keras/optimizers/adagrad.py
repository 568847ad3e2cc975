"""Per-coordinate step sizes from accumulated gradients: Adagrad, Adadelta, Adafactor."""
from ..._core import dtypes as _dt
from ...ops.training_ops import apply_update
from .. import initializers as _init
from .optimizer import Optimizer

__all__ = ["Adagrad", "Adadelta", "Adafactor"]


class Adagrad(Optimizer):
    """``acc += g**2``; ``w -= lr * g / sqrt(acc + epsilon)`` (``tf.keras.optimizers.Adagrad``;
    Duchi et al. 2011).

    Args:
        learning_rate: the step size (default 0.001).
        initial_accumulator_value: the accumulators' starting value (0.1).
        epsilon: the stabiliser (1e-7).
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(
            var_list, "accumulator", initializer=_init.Constant(self.initial_accumulator_value))

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("adagrad", variable, (self._accumulators[i],), gradient, (learning_rate,),
                     epsilon=self.epsilon)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config


class Adadelta(Optimizer):
    """Adadelta (``tf.keras.optimizers.Adadelta``; Zeiler 2012): running averages of
    squared gradients and squared updates set the step, scaled by ``learning_rate``.

    Args:
        learning_rate: the scale of the step (default 0.001).
        rho: the decay of the running averages (0.95).
        epsilon: the stabiliser (1e-7).
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            var_list, ["accumulated_grad", "accumulated_delta_var"])

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("adadelta", variable,
                     (self._accumulated_grads[i], self._accumulated_delta_vars[i]), gradient,
                     (learning_rate,), rho=self.rho, epsilon=self.epsilon)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"rho": self.rho, "epsilon": self.epsilon})
        return config


class Adafactor(Optimizer):
    """Adafactor (``tf.keras.optimizers.Adafactor``; Shazeer & Stern 2018): the second
    moment of a matrix is kept factored as row and column averages.

    Args:
        learning_rate: the step size cap (default 0.001).
        beta_2_decay: the exponent of the second-moment decay (-0.8).
        epsilon_1, epsilon_2: the stabilisers of the squared gradient and of the scale.
        clip_threshold: the RMS the update is clipped to (1.0).
        relative_step: cap the step at ``1 / sqrt(t)`` when the rate is a float.
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30,
                 epsilon_2=1e-3, clip_threshold=1.0, relative_step=True, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            shape = tuple(var.shape)
            if len(shape) < 2:
                # Placeholders, as Keras makes them: a 1-D variable is not factored.
                for store in (self._r, self._c):
                    store.append(self.add_variable((), dtype=_dt.int32, name=var.name))
            else:
                self._r.append(self.add_variable(shape[:-1], dtype=var.dtype, name=var.name))
                self._c.append(self.add_variable(shape[:-2] + shape[-1:], dtype=var.dtype,
                                                 name=var.name))
            self._v.append(self.add_variable_from_reference(var, "velocity"))

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("adafactor", variable, (self._r[i], self._c[i], self._v[i]), gradient,
                     (learning_rate, self.iterations), beta_2_decay=self.beta_2_decay,
                     epsilon_1=self.epsilon_1, epsilon_2=self.epsilon_2,
                     clip_threshold=self.clip_threshold,
                     cap_lr=bool(self.relative_step and not callable(self._learning_rate)))

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1,
                       "epsilon_2": self.epsilon_2, "clip_threshold": self.clip_threshold,
                       "relative_step": self.relative_step})
        return config
