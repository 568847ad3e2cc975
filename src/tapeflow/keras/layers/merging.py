"""Merge layers: combine a list of same-shaped inputs (Add, Multiply, Average, Concatenate)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .layer import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"]


class _Merge(Layer):
    supports_masking = True

    def compute_mask(self, inputs, previous_mask):
        """The AND of the inputs' masks (None when none has one), as Keras."""
        masks = [m for m in (previous_mask or []) if m is not None]
        if not masks:
            return None
        out = _m.cast(masks[0], "bool")
        for m in masks[1:]:
            out = _m.logical_and(out, _m.cast(m, "bool"))
        return out

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

    def compute_mask(self, inputs, previous_mask):
        """Keras's rule: each input's mask (ones where it has none) broadcast to the input,
        concatenated along ``axis``, then ANY over the last axis."""
        if previous_mask is None or all(m is None for m in previous_mask):
            return None
        masks = []
        for x, m in zip(inputs, previous_mask, strict=True):
            if m is None:
                m = _m.not_equal(_m.zeros_like(x), 1)
            elif len(m.shape) < len(x.shape):
                m = _a.broadcast_to(_a.expand_dims(_m.cast(m, "bool"), -1), x.shape)
            masks.append(_m.cast(m, "bool"))
        return _m.reduce_any(_a.concat(masks, self.axis), axis=-1)
