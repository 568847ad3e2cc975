"""Merge layers: combine a list of same-shaped inputs (Add, Multiply, Average, Concatenate)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .layer import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"]


class _Merge(Layer):
    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"A merge layer should be called on a list of inputs. "
                             f"Received: inputs={inputs} (not a list of tensors)")
        return list(inputs)


class Add(_Merge):
    """The element-wise sum of a list of inputs (``tf.keras.layers.Add``)."""

    def call(self, inputs):
        return _m.add_n(self._check(inputs))


class Subtract(_Merge):
    """``inputs[0] - inputs[1]`` (``tf.keras.layers.Subtract``)."""

    def call(self, inputs):
        a, b = self._check(inputs)
        return _m.subtract(a, b)


class Multiply(_Merge):
    """The element-wise product of a list of inputs (``tf.keras.layers.Multiply``)."""

    def call(self, inputs):
        out, *rest = self._check(inputs)
        for x in rest:
            out = _m.multiply(out, x)
        return out


class Average(_Merge):
    """The element-wise mean of a list of inputs (``tf.keras.layers.Average``)."""

    def call(self, inputs):
        inputs = self._check(inputs)
        return _m.divide(_m.add_n(inputs), float(len(inputs)))


class Maximum(_Merge):
    """The element-wise maximum of a list of inputs (``tf.keras.layers.Maximum``)."""

    def call(self, inputs):
        out, *rest = self._check(inputs)
        for x in rest:
            out = _m.maximum(out, x)
        return out


class Minimum(_Merge):
    """The element-wise minimum of a list of inputs (``tf.keras.layers.Minimum``)."""

    def call(self, inputs):
        out, *rest = self._check(inputs)
        for x in rest:
            out = _m.minimum(out, x)
        return out


class Concatenate(_Merge):
    """Join a list of inputs along ``axis`` (``tf.keras.layers.Concatenate``)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)

    def call(self, inputs):
        return _a.concat(self._check(inputs), self.axis)
