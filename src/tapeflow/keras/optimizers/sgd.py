"""SGD with optional (Nesterov) momentum, with Keras 3's update rule."""
from ..._core.backend import np
from .optimizer import Optimizer, SparseGradient

__all__ = ["SGD"]


class SGD(Optimizer):
    """Gradient descent, optionally with momentum (``tf.keras.optimizers.SGD``).

    Without momentum ``w -= lr * g``. With momentum ``m = momentum * m - lr * g``; then
    ``w += m``, or with Nesterov ``w += momentum * m - lr * g`` (Sutskever et al. 2013).

    Args:
        learning_rate: the step size (default 0.01).
        momentum: in ``[0, 1]`` (default 0).
        nesterov: whether to use Nesterov momentum.
        name: the optimizer's name (default ``sgd``).

    Raises:
        ValueError: for a momentum outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> v = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(2.0), v)])
    >>> round(float(v.numpy()), 6)
    0.8
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="sgd", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            if not (isinstance(momentum, int) and 0 <= momentum <= 1):
                raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _slot_kinds(self):
        return ("momentum",) if self.momentum != 0 else ()

    def build(self, variables):
        self._make_slots(variables, self._slot_kinds())

    def update_step(self, gradient, variable, learning_rate):
        if self.momentum == 0 and type(gradient) is SparseGradient:
            # Keras 3 scatter-subtracts lr * each slice: repeated rows one after another.
            values, idx = gradient.slices
            out = np.array(variable._value, copy=True)
            np.subtract.at(out, idx, values * learning_rate)
            variable._value = out
            return
        step = gradient * learning_rate
        if self.momentum == 0:
            variable._value = variable._value - step
            return
        m = self._slot(variable, "momentum")
        momentum = variable._value.dtype.type(self.momentum)
        m._value = np.asarray(m._value * momentum - step)
        if self.nesterov:
            variable._value = variable._value + (m._value * momentum - step)
        else:
            variable._value = variable._value + m._value
