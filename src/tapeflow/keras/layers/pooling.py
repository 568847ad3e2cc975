"""Global pooling: one value per channel (channels-last)."""
from ...ops import math_ops as _m
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D"]


class _GlobalPooling(Layer):
    _built_at_init = True
    _axes = (1,)
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError("tapeflow's global pooling supports channels_last only")
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=len(self._axes) + 2)

    def get_config(self):
        return dict(super().get_config(), data_format="channels_last",
                    keepdims=self.keepdims)

    def call(self, inputs):
        return type(self)._reduce(inputs, list(self._axes), keepdims=self.keepdims)


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of ``(batch, steps, channels)``."""

    _reduce = staticmethod(_m.reduce_mean)


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of ``(batch, steps, channels)``."""

    _reduce = staticmethod(_m.reduce_max)


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over rows and columns of ``(batch, rows, cols, channels)``."""

    _axes = (1, 2)
    _reduce = staticmethod(_m.reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over rows and columns of ``(batch, rows, cols, channels)``."""

    _axes = (1, 2)
    _reduce = staticmethod(_m.reduce_max)
