"""Small layers: Lambda (any function), Rescaling (``x * scale + offset``), Identity."""
from ...ops import math_ops as _m
from .layer import Layer

__all__ = ["Identity", "Lambda", "Rescaling"]


class Lambda(Layer):
    """Wrap ``function(inputs, **arguments)`` as a layer (``tf.keras.layers.Lambda``)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})

    def call(self, inputs):
        return self.function(inputs, **self.arguments)


class Rescaling(Layer):
    """``inputs * scale + offset``, any input dtype cast to the layer's float dtype first
    (``tf.keras.layers.Rescaling``)."""

    _cast_kinds = "fiub"

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        return _m.add(_m.multiply(inputs, self.scale), self.offset)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), scale=self.scale, offset=self.offset)


class Identity(Layer):
    """Return the input unchanged (``tf.keras.layers.Identity``)."""

    def call(self, inputs):
        return inputs
