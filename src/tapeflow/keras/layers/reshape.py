"""Reshape: a new shape for each example."""
from ...ops import array_ops as _a
from .layer import Layer

__all__ = ["Reshape"]


class Reshape(Layer):
    """Reshape each example to ``target_shape`` (``tf.keras.layers.Reshape``); one entry
    may be -1."""

    _built_at_init = True

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def get_config(self):
        return dict(super().get_config(), target_shape=list(self.target_shape))

    def call(self, inputs):
        return _a.reshape(inputs, (inputs.shape[0],) + self.target_shape)
