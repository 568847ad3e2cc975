"""Adam (Kingma & Ba 2015, https://arxiv.org/abs/1412.6980) with Keras 3's update rule."""
from ..._core.backend import np
from .optimizer import Optimizer, square

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam, optionally AMSGrad (``tf.keras.optimizers.Adam``).

    With ``t = iterations + 1``, each step computes
    ``alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)``,
    ``m += (g - m) * (1 - beta_1)``, ``v += (g**2 - v) * (1 - beta_2)`` and
    ``w -= m * alpha / (sqrt(v) + epsilon)`` -- epsilon is the paper's "epsilon hat",
    added after the bias correction folded into ``alpha``. With ``amsgrad`` the running
    maximum of ``v`` is used instead (Reddi et al. 2018).

    Args:
        learning_rate: the step size (default 0.001).
        beta_1, beta_2: the decay rates of the moment estimates.
        epsilon: the stabiliser (default 1e-7).
        amsgrad: whether to use AMSGrad.
        name: the optimizer's name (default ``adam``).
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="adam", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        self.epsilon, self.amsgrad = epsilon, amsgrad

    def _slot_kinds(self):
        return ("momentum", "velocity", "velocity_hat") if self.amsgrad else (
            "momentum", "velocity")

    def build(self, variables):
        self._make_slots(variables, self._slot_kinds())

    def update_step(self, gradient, variable, learning_rate):
        t = variable._value.dtype.type
        step = t(self._iterations._value + 1)
        alpha = learning_rate * np.sqrt(1 - t(self.beta_2) ** step) / (
            1 - t(self.beta_1) ** step)
        m = self._slot(variable, "momentum")
        v = self._slot(variable, "velocity")
        m._value = np.asarray(m._value + (gradient - m._value) * t(1 - self.beta_1))
        v._value = np.asarray(v._value + (square(gradient) - v._value) * t(1 - self.beta_2))
        second = v._value
        if self.amsgrad:
            v_hat = self._slot(variable, "velocity_hat")
            v_hat._value = np.maximum(v_hat._value, v._value)
            second = v_hat._value
        variable._value = np.asarray(
            variable._value - (m._value * alpha) / (np.sqrt(second) + t(self.epsilon)))


class AdamW(Adam):
    """Adam with decoupled weight decay (``tf.keras.optimizers.AdamW``; Loshchilov & Hutter
    2019): ``w -= w * weight_decay * lr`` before each Adam step (default decay 0.004)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="adamw", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name=name,
                         weight_decay=weight_decay, **kwargs)
