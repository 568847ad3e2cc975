"""The Adam family with Keras 3's update rules: Adam (and AMSGrad), AdamW, Adamax, Nadam."""
from ..._core import dtypes as _dt
from ..._core.indexed_slices import IndexedSlices
from ..._core.tensor import convert_to_tensor
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops.training_ops import apply_update
from .. import _naming
from .._variable import KerasVariable
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW", "Adamax", "Nadam"]


class Adam(Optimizer):
    """Adam, optionally AMSGrad (``tf.keras.optimizers.Adam``; Kingma & Ba 2015).

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
        name: the optimizer's name (default ``adam``, made unique).
        **kwargs: the base arguments (``weight_decay``, ``clipnorm``, ``use_ema``...).

    >>> import tapeflow as tf
    >>> v = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Adam(0.1).apply_gradients([(tf.constant(3.0), v)])
    >>> round(float(v.numpy()), 5)
    0.9
    """

    _rule = "adam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        self.epsilon, self.amsgrad = epsilon, amsgrad

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list, "velocity_hat")

    _sparse_updates = True

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        slots = (self._momentums[i], self._velocities[i])
        kind = "adam"
        if isinstance(gradient, IndexedSlices):
            if not self.amsgrad and type(self) is Adam:
                dense, squares = _dense_and_squares(gradient)
                apply_update("adam_sparse", variable, slots, dense,
                             (squares, learning_rate, self.iterations), beta_1=self.beta_1,
                             beta_2=self.beta_2, epsilon=self.epsilon)
                return
            gradient = convert_to_tensor(gradient)
        if self.amsgrad:
            slots += (self._velocity_hats[i],)
            kind = "amsgrad"
        apply_update(kind, variable, slots, gradient, (learning_rate, self.iterations),
                     beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config


def _dense_and_squares(g):
    """An IndexedSlices gradient summed into a dense tensor, and the sum of its slices
    squared (what Keras's second moments see: ``square`` acts on each slice)."""
    squared = IndexedSlices(_m.square(g.values), g.indices, g.dense_shape)
    return convert_to_tensor(g), convert_to_tensor(squared)


class AdamW(Adam):
    """Adam with decoupled weight decay (``tf.keras.optimizers.AdamW``; Loshchilov & Hutter
    2019): ``w -= w * weight_decay * lr`` before each Adam step (default decay 0.004).

    Raises:
        ValueError: if ``weight_decay`` is None.
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad,
                         name=name, weight_decay=weight_decay,
                         **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")


class Adamax(Optimizer):
    """Adam with the infinity norm (``tf.keras.optimizers.Adamax``; Kingma & Ba 2015 §7.1):
    ``m += (g - m) * (1 - beta_1)``, ``u = max(beta_2 * u, |g|)``,
    ``w -= lr * m / ((1 - beta_1**t) * (u + epsilon))``.

    Args:
        learning_rate, beta_1, beta_2, epsilon: as for Adam.
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(var_list, ["momentum", "norm"])

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("adamax", variable, (self._m[i], self._u[i]), gradient,
                     (learning_rate, self.iterations), beta_1=self.beta_1,
                     beta_2=self.beta_2, epsilon=self.epsilon)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2,
                       "epsilon": self.epsilon})
        return config


class Nadam(Optimizer):
    """Adam with Nesterov momentum (``tf.keras.optimizers.Nadam``; Dozat 2016), with the
    momentum schedule ``u_t = beta_1 * (1 - 0.5 * 0.96**t)`` and its running product.

    Args:
        learning_rate, beta_1, beta_2, epsilon: as for Adam.
        name, **kwargs: as for ``Optimizer``.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, var_list):
        if self.built:
            return
        dtype = var_list[0].dtype if var_list else _dt.float32
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        with _naming.name_scope(self.name, self):
            self._u_product = KerasVariable(1.0, name="variable", trainable=False, dtype=dtype)
        self._variables.append(self._u_product)

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        u = self._u_product
        step = _a.cast(_m.add(self.iterations, 1), u.dtype)
        u.assign(_m.multiply(_m.multiply(u, self.beta_1),
                             _m.subtract(1.0, _m.multiply(0.5, _m.pow(
                                 _a.cast(0.96, u.dtype), step)))))
        super()._backend_update_step(grads, trainable_variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        i = self._index[id(variable)]
        apply_update("nadam", variable, (self._momentums[i], self._velocities[i]), gradient,
                     (learning_rate, self.iterations, self._u_product), beta_1=self.beta_1,
                     beta_2=self.beta_2, epsilon=self.epsilon)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2,
                       "epsilon": self.epsilon})
        return config
