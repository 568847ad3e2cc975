"""``tf.keras.layers.Rescaling``: ``x * scale + offset``."""
from ....ops import math_ops as _m
from ..layer import Layer

__all__ = ["Rescaling"]


class Rescaling(Layer):
    """``inputs * scale + offset``, any input dtype cast to the layer's float dtype first
    (``tf.keras.layers.Rescaling``)."""

    _cast_kinds = "fiub"
    supports_masking = True

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def get_config(self):
        return dict(super().get_config(), scale=self.scale, offset=self.offset)

    def call(self, inputs):
        return _m.add(_m.multiply(inputs, self.scale), self.offset)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
