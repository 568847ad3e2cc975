"""Flatten: every axis after the batch axis into one."""
from ...ops import array_ops as _a
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

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format or "channels_last")

    def call(self, inputs):
        shape = tuple(inputs.shape)
        if not shape:
            return _a.reshape(inputs, (1, -1))
        rest = shape[1:]
        if None not in rest:
            # The batch size may be unknown (a relaxed tf.function trace): -1 stands for it.
            n = 1
            for d in rest:
                n *= d
            return _a.reshape(inputs, (-1, n))
        return _a.reshape(inputs, (shape[0], -1))
