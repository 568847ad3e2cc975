"""Merge layers: combine a list of same-shaped inputs (Add, Multiply, Average, Concatenate)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .layer import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"]


class _Merge(Layer):
    supports_masking = True

    def compute_mask(self, inputs, previous_mask):
        """The AND of the inputs' masks (None when none has one), as Keras."""
        masks = [m for m in (previous_mask or []) if m is not None]
        if not masks:
            return None
        out = _a.cast(masks[0], "bool")
        for m in masks[1:]:
            out = _m.logical_and(out, _a.cast(m, "bool"))
        return out

    def build(self, input_shape):
        if not isinstance(input_shape[0], (tuple, list)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Cannot merge tensors with different batch sizes. Received "
                             f"tensors with shapes {input_shape}")
        out = tuple(input_shape[0][1:])
        for shape in input_shape[1:]:
            out = _broadcast_shape(out, tuple(shape[1:]))
        self.built = True

    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"A merge layer should be called on a list of inputs. "
                             f"Received: inputs={inputs} (not a list of tensors)")
        return list(inputs)


def _broadcast_shape(shape1, shape2):
    """Keras's element-wise output shape of two example shapes, or its error."""
    if len(shape1) < len(shape2):
        return _broadcast_shape(shape2, shape1)
    if not shape2:
        return shape1
    out = list(shape1[:-len(shape2)])
    for i, j in zip(shape1[-len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} and "
                             f"{shape2}")
        else:
            out.append(i)
    return tuple(out)


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

    def build(self, input_shape):
        if not input_shape or not isinstance(input_shape[0], (tuple, list)):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 "
                             f"input. Received: input_shape={input_shape}")
        ranks = {len(s) for s in input_shape}
        bad = len(ranks) != 1
        if not bad:
            (rank,) = ranks
            axis = self.axis % rank
            bad = any(len({s[k] for s in input_shape} - {None}) > 1
                      for k in range(rank) if k != axis)
        if bad:
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                             "except for the concatenation axis. Received: input_shape="
                             f"{[tuple(s) for s in input_shape]}")
        self.built = True

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
                m = _m.not_equal(_a.zeros_like(x), 1)
            elif len(m.shape) < len(x.shape):
                m = _a.broadcast_to(_a.expand_dims(_a.cast(m, "bool"), -1), x.shape)
            masks.append(_a.cast(m, "bool"))
        return _r.reduce_any(_a.concat(masks, self.axis), axis=-1)


# The functional interfaces (``keras.layers.add(inputs)`` and so on): a new layer called on
# ``inputs``, as Keras 3's.
def add(inputs, **kwargs):
    """``Add(**kwargs)(inputs)``: the element-wise sum of a list of tensors."""
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """``Subtract(**kwargs)(inputs)``: the difference of two tensors."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """``Multiply(**kwargs)(inputs)``: the element-wise product of a list of tensors."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """``Average(**kwargs)(inputs)``: the element-wise mean of a list of tensors."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """``Maximum(**kwargs)(inputs)``: the element-wise maximum of a list of tensors."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """``Minimum(**kwargs)(inputs)``: the element-wise minimum of a list of tensors."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis=axis, **kwargs)(inputs)``: a list of tensors joined along
    ``axis``."""
    return Concatenate(axis=axis, **kwargs)(inputs)
