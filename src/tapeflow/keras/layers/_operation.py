"""An op applied to KerasTensors while building a functional model (``x + 3.0``,
``inputs + branch``): a graph node as Keras 3's symbolic ``keras.ops`` calls make, which
the model runs but does not list among its layers."""
from .. import _symbolic
from .layer import Layer

__all__ = ["Operation", "apply"]


class Operation(Layer):
    """``fn(x, constant)`` (or ``fn(constant, x)``), or ``fn(x, y)`` for two tensors; no
    weights. Functional models run it and leave it out of ``layers``."""

    _is_operation = True

    def __init__(self, fn, constant=None, reflected=False, binary=False, name=None):
        super().__init__(name=name)
        self._fn, self._constant = fn, constant
        self._reflected, self._binary = reflected, binary
        self.built = True

    def call(self, inputs):
        if self._binary:
            return self._fn(inputs[0], inputs[1])
        if self._constant is None:
            return self._fn(inputs)
        if self._reflected:
            return self._fn(self._constant, inputs)
        return self._fn(inputs, self._constant)


def apply(fn, name, x, other=None, reflected=False, unary=False):
    """The KerasTensor of ``fn`` on ``x`` and ``other`` (a KerasTensor or a constant)."""
    if unary:
        return Operation(fn, name=name)(x)
    if type(other) is _symbolic.KerasTensor:
        pair = [other, x] if reflected else [x, other]
        return Operation(fn, binary=True, name=name)(pair)
    return Operation(fn, constant=other, reflected=reflected, name=name)(x)


_symbolic.register_operation(apply)   # x + 3.0 on a KerasTensor records an Operation
