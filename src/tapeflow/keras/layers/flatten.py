"""Flatten: every axis after the batch axis into one."""
from ...ops import array_ops as _a
from ..backend import standardize_data_format
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["Flatten"]


class Flatten(Layer):
    """Reshape ``(batch, d1, ..., dn)`` to ``(batch, d1 * ... * dn)`` (``tf.keras.layers.Flatten``).

    A rank-1 input ``(batch,)`` becomes ``(batch, 1)``, as in Keras.

    Args:
        data_format: 'channels_last' or 'channels_first' (default
            ``keras.config.image_data_format()``): a channels_first input is flattened in
            channels_last order, as Keras does.
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)

    def call(self, inputs):
        if self.data_format == "channels_first" and len(inputs.shape) > 2:
            r = len(inputs.shape)
            inputs = _a.transpose(inputs, [0, *range(2, r), 1])
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
