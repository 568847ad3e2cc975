"""SGD with optional (Nesterov) momentum, with Keras 3's update rule."""
from ..._core.indexed_slices import IndexedSlices
from ..._core.tensor import convert_to_tensor
from ..._core.variable import as_variable
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops.training_ops import apply_update
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Gradient descent, optionally with momentum (``tf.keras.optimizers.SGD``).

    Without momentum ``w -= lr * g``. With momentum ``m = momentum * m - lr * g``; then
    ``w += m``, or with Nesterov ``w += momentum * m - lr * g`` (Sutskever et al. 2013).

    Args:
        learning_rate: the step size (default 0.01).
        momentum: in ``[0, 1]`` (default 0).
        nesterov: whether to use Nesterov momentum.
        name: the optimizer's name (default ``sgd``, made unique).
        **kwargs: the base arguments (``weight_decay``, ``clipnorm``, ``use_ema``...).

    Raises:
        ValueError: for a momentum outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> v = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(2.0), v)])
    >>> round(float(v.numpy()), 6)
    0.8
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(var_list, "momentum")

    _sparse_updates = True

    def update_step(self, gradient, variable, learning_rate):
        if isinstance(gradient, IndexedSlices):
            if self.momentum == 0:
                # Keras scatter-subtracts lr * each slice: repeated rows one after another.
                lr = _a.cast(learning_rate, variable.dtype)
                as_variable(variable).scatter_sub(IndexedSlices(_m.multiply(gradient.values, lr),
                                                   gradient.indices, gradient.dense_shape))
                return
            gradient = convert_to_tensor(gradient)
        if self.momentum == 0:
            apply_update("sgd", variable, (), gradient, (learning_rate,))
            return
        m = self.momentums[self._index[id(variable)]]
        apply_update("momentum", variable, (m,), gradient, (learning_rate,),
                     momentum=self.momentum, nesterov=bool(self.nesterov))

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
