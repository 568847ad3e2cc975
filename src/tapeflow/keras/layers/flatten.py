"""Flatten: every axis after the batch axis into one."""
from ...ops import array_ops as _a
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["Flatten"]


class Flatten(Layer):
    """Reshape ``(batch, d1, ..., dn)`` to ``(batch, d1 * ... * dn)`` (``tf.keras.layers.Flatten``).

    A rank-1 input ``(batch,)`` becomes ``(batch, 1)``, as in Keras.

    Args:
        data_format: accepted for Keras's signature ('channels_last' only changes nothing).
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        shape = inputs._value.shape
        return _a.reshape(inputs, (shape[0] if shape else 1, -1))
